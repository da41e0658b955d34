"""Commit-reveal for choices that all peers make at once.

commitment = SHA-256(pack(["belfort-lan/commit/v1", game, seat, purpose, value, nonce]))

The game id, seat and purpose are inside the hash so that a commitment can be
neither copied from another seat nor replayed for another purpose or game.
The nonce (32 random bytes) hides low-entropy values such as a keep-3 choice.

Timeouts follow the session's rule: a seat that does not commit, or does
not reveal, in time has left the game (otherwise the last to reveal could
abort whenever the outcome displeased it).  The clock is injected: every call
that can time out takes ``now`` (any monotonic float the caller uses).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from typing import NoReturn

from . import wire
from .errors import (COMMIT_DUPLICATE, COMMIT_MALFORMED, COMMIT_MISMATCH, COMMIT_NOT_READY,
                     COMMIT_REVEAL_BEFORE_COMMIT, COMMIT_TIMEOUT, COMMIT_UNKNOWN_SEAT,
                     CheatingError, PeerTimedOut, ProtocolError)
from .identity import Signer

COMMIT_DOMAIN = "belfort-lan/commit/v1"
NONCE_BYTES = 32
MAX_VALUE_BYTES = 4096
MAX_PURPOSE = 64
MSG_COMMIT = "commit/commit"
MSG_REVEAL = "commit/reveal"


def commitment_hash(value: bytes, nonce: bytes, game_id: str, seat: int, purpose: str) -> bytes:
    return hashlib.sha256(wire.pack([COMMIT_DOMAIN, game_id, seat, purpose, value, nonce])).digest()


def commit(value: bytes, purpose: str, game_id: str, seat: int) -> tuple[bytes, bytes]:
    """(commitment, nonce) for ``value``; keep the nonce secret until the reveal."""
    nonce = secrets.token_bytes(NONCE_BYTES)
    return commitment_hash(value, nonce, game_id, seat, purpose), nonce


def verify_reveal(commitment: bytes, value: bytes, nonce: bytes, purpose: str,
                  game_id: str, seat: int) -> None:
    """Raise CheatingError(commit/mismatch) unless (value, nonce) opens ``commitment``."""
    if commitment_hash(value, nonce, game_id, seat, purpose) != commitment:
        raise CheatingError(COMMIT_MISMATCH, seat,
                            f"reveal for {purpose!r} does not open the commitment")


def shared_seed(shares: Sequence[bytes]) -> bytes:
    """The shared seed: SHA-256 of every seat's share concatenated in seat order."""
    return hashlib.sha256(b"".join(shares)).digest()


class CommitRevealRound:
    """One simultaneous choice, seen from one peer.

    Flow: every seat sends ``commit/commit``; once all commitments are in, every
    seat sends ``commit/reveal``; ``values`` then holds every seat's value.
    The commit deadline is ``now + timeout`` at creation; the reveal deadline is
    ``timeout`` after the moment the last commitment arrived here.
    """

    def __init__(self, game_id: str, seats: Sequence[int], purpose: str, *,
                 now: float, timeout: float) -> None:
        if not (isinstance(purpose, str) and 0 < len(purpose) <= MAX_PURPOSE):
            raise ValueError("purpose must be a short non-empty str")
        self.game_id = game_id
        self.seats = list(seats)
        self.purpose = purpose
        self.timeout = timeout
        self.commit_deadline = now + timeout
        self.reveal_deadline: float | None = None
        self.commitments: dict[int, bytes] = {}
        self.values: dict[int, bytes] = {}
        self._own: tuple[int, bytes, bytes] | None = None  # (seat, value, nonce)

    # ------------------------------------------------------------ local side
    def make_commitment(self, signer: Signer, value: bytes, now: float) -> dict:
        """Commit to our own ``value``; returns the envelope to broadcast."""
        if not isinstance(value, bytes) or len(value) > MAX_VALUE_BYTES:
            raise ValueError("value must be bytes of at most 4096")
        if self._own is not None:
            raise ValueError("already committed")
        c, nonce = commit(value, self.purpose, self.game_id, signer.seat)
        self._own = (signer.seat, value, nonce)
        self._record_commitment(signer.seat, c, now)
        return signer.sign(MSG_COMMIT, {"purpose": self.purpose, "commitment": c})

    def make_reveal(self, signer: Signer) -> dict:
        """Our reveal; only once every seat's commitment has arrived."""
        if self._own is None or not self.all_committed:
            raise ProtocolError(COMMIT_NOT_READY, signer.seat, "reveal only after every commitment")
        seat, value, nonce = self._own
        self.values[seat] = value
        return signer.sign(MSG_REVEAL, {"purpose": self.purpose, "value": value, "nonce": nonce})

    # ----------------------------------------------------------- remote side
    def handle(self, body: dict, now: float) -> None:
        """Take a verified ``commit/*`` body of this round's purpose."""
        seat = body["seat"]

        def fail(detail: str) -> NoReturn:
            raise CheatingError(COMMIT_MALFORMED, seat, detail)

        if seat not in self.seats:
            raise ProtocolError(COMMIT_UNKNOWN_SEAT, seat, "seat is not in this round")
        if wire.field(body, "purpose", fail) != self.purpose:
            raise ProtocolError(COMMIT_MALFORMED, seat, "message belongs to another round")
        if body["type"] == MSG_COMMIT:
            c = wire.bytes_of(wire.field(body, "commitment", fail), 32, fail, "commitment")
            self.check_deadline(now, only=[seat])
            self._record_commitment(seat, c, now)
        elif body["type"] == MSG_REVEAL:
            value = wire.field(body, "value", fail)
            wire.need(isinstance(value, bytes) and len(value) <= MAX_VALUE_BYTES, fail,
                      "value must be bytes of at most 4096")
            nonce = wire.bytes_of(wire.field(body, "nonce", fail), NONCE_BYTES, fail, "nonce")
            if seat not in self.commitments:
                # Each seat's messages arrive in order, so a reveal ahead of its
                # own commitment was sent that way.
                raise CheatingError(COMMIT_REVEAL_BEFORE_COMMIT, seat, "reveal without commitment")
            if seat in self.values:
                raise CheatingError(COMMIT_DUPLICATE, seat, "second reveal")
            self.check_deadline(now, only=[seat])
            verify_reveal(self.commitments[seat], value, nonce, self.purpose, self.game_id, seat)
            self.values[seat] = value
        else:
            fail(f"not a commit-reveal message: {body['type']!r}")

    def _record_commitment(self, seat: int, c: bytes, now: float) -> None:
        if seat in self.commitments:
            raise CheatingError(COMMIT_DUPLICATE, seat, "second commitment")
        self.commitments[seat] = c
        if self.all_committed:
            self.reveal_deadline = now + self.timeout

    # --------------------------------------------------------------- status
    @property
    def all_committed(self) -> bool:
        return len(self.commitments) == len(self.seats)

    @property
    def complete(self) -> bool:
        return len(self.values) == len(self.seats)

    def missing(self) -> list[int]:
        """Seats whose commitment (or, once all are in, whose reveal) is awaited."""
        done = self.values if self.all_committed else self.commitments
        return [s for s in self.seats if s not in done]

    def check_deadline(self, now: float, only: Sequence[int] | None = None) -> None:
        """Raise PeerTimedOut naming the seats late for the current deadline."""
        deadline = self.reveal_deadline if self.all_committed else self.commit_deadline
        # the last commitment in set the reveal deadline (_record_commitment)
        assert deadline is not None, "every commitment is in, yet no reveal deadline"
        if self.complete or now <= deadline:
            return
        late = [s for s in self.missing() if only is None or s in only]
        if late:
            phase = "reveal" if self.all_committed else "commitment"
            raise PeerTimedOut(late, COMMIT_TIMEOUT, f"no {phase} for {self.purpose!r} from {late}")

    def result(self) -> list[bytes]:
        """Every seat's value in seat order (the round must be complete)."""
        if not self.complete:
            raise ProtocolError(COMMIT_NOT_READY, None, f"waiting for {self.missing()}")
        return [self.values[s] for s in self.seats]
