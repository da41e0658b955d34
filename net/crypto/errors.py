"""Errors raised by the peer-to-peer cryptography.

Every refusal carries a namespaced ``reason`` code (listed below and in
PROTOCOL.md) so that the session layer can react without parsing text, and a
``seat`` when one seat is concerned.

* ``ProtocolError``: a message was refused or an operation is impossible.
  ``seat`` is the seat the problem concerns, *not* an accusation (a forged
  or replayed message names the seat it claims to come from, which may be
  innocent).  ``seat`` is None when nobody can be named yet (e.g. a card
  that does not decode: the audit will find who is responsible).
* ``CheatingError``: ``seat`` broke the protocol in a message it signed
  itself (a wrong key, a false claim, a commitment it cannot open, a
  tampered shuffle found by the audit ...).  That seat is accused.
* ``PeerTimedOut``: the listed seats did not send what was due before the
  deadline; by the rules of the protocol they have left the game.
"""

from __future__ import annotations

# Signed envelopes (identity.py)
SIG_MALFORMED = "sig/malformed"
SIG_BAD_SIGNATURE = "sig/bad-signature"
SIG_WRONG_GAME = "sig/wrong-game"
SIG_UNKNOWN_SEAT = "sig/unknown-seat"
SIG_REPLAYED = "sig/replayed"
SIG_OUT_OF_ORDER = "sig/out-of-order"

# Commit-reveal (commit.py)
COMMIT_MALFORMED = "commit/malformed"
COMMIT_MISMATCH = "commit/mismatch"
COMMIT_DUPLICATE = "commit/duplicate"
COMMIT_REVEAL_BEFORE_COMMIT = "commit/reveal-before-commit"
COMMIT_TIMEOUT = "commit/timeout"
COMMIT_NOT_READY = "commit/not-ready"
COMMIT_UNKNOWN_SEAT = "commit/unknown-seat"

# Hidden deck (deck.py, audit.py)
DECK_MALFORMED = "deck/malformed"
DECK_UNEXPECTED = "deck/unexpected"
DECK_WRONG_EPOCH = "deck/wrong-epoch"
DECK_CARD_SET_MISMATCH = "deck/card-set-mismatch"
DECK_NOT_ON_CURVE = "deck/not-on-curve"
DECK_DUPLICATE_CIPHERTEXT = "deck/duplicate-ciphertext"
DECK_DIVERGED = "deck/diverged"
DECK_WRONG_KEY = "deck/wrong-key"
DECK_ALREADY_RELEASED = "deck/already-released"
DECK_NOT_A_CARD = "deck/not-a-card"
DECK_DUPLICATE_CARD = "deck/duplicate-card"
DECK_CLAIM_MISMATCH = "deck/claim-mismatch"
DECK_NOT_HOLDER = "deck/not-holder"
DECK_NOT_READY = "deck/not-ready"
DECK_FLOOD = "deck/flood"
AUDIT_BAD_SECRETS = "audit/bad-secrets"
AUDIT_SHUFFLE_MISMATCH = "audit/shuffle-mismatch"
AUDIT_REKEY_MISMATCH = "audit/rekey-mismatch"


class ProtocolError(Exception):
    """A refused message or an impossible step; ``seat`` is concerned, not accused."""

    def __init__(self, reason: str, seat: int | None = None, detail: str = "",
                 positions: list[int] | None = None) -> None:
        self.reason = reason
        self.seat = seat
        self.detail = detail
        self.positions = positions      # deck positions it concerns, when known
        where = "" if seat is None else f" (seat {seat})"
        super().__init__(f"{reason}{where}{': ' + detail if detail else ''}")


class CheatingError(ProtocolError):
    """``seat`` signed something that breaks the protocol: it is accused."""

    def __init__(self, reason: str, seat: int, detail: str = "",
                 faults: list | None = None) -> None:
        super().__init__(reason, seat, detail)
        # Every fault found at once (the audit can find several); the first is the headline.
        self.faults = faults if faults is not None else [(seat, reason, detail)]


class PeerTimedOut(ProtocolError):
    """The ``seats`` sent nothing due before the deadline: they left the game."""

    def __init__(self, seats: list[int], reason: str = COMMIT_TIMEOUT, detail: str = "") -> None:
        self.seats = sorted(seats)
        super().__init__(reason, self.seats[0] if self.seats else None,
                         detail or f"no answer from seats {self.seats}")
