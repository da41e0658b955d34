"""The hidden deck (mental poker), seen from one peer.

A ``DeckPeer`` holds one peer's secrets for one deck *epoch* (the initial deck
is epoch 0; each reshuffle of a discard pile is a new epoch with its own
card set) and its copy of the public transcript.  It never touches a socket:
it turns calls into signed envelopes to broadcast, and consumes verified
message bodies (see identity.Verifier) with ``handle``.  The protocol, with
every message format, is in PROTOCOL.md beside this file.

Position j of the final deck is locked by one key of every seat:
final[j] = (k_0j·k_1j·...)·card.  A seat can read position j once every *other*
seat has released its key for j; a position whose keys are all released is
public.  So "dealt to s" and "public" are facts derived from the released keys,
the same on every peer.
"""

from __future__ import annotations

import secrets as _secrets
from collections.abc import Iterable
from typing import NoReturn

from . import curve, wire
from .audit import (AuditReport, cards_digest, decrypt, key_commitment, rekey_stage, run_audit,
                    secrets_commitment, shuffle_stage, transcript_next, transcript_start)
from .errors import (AUDIT_BAD_SECRETS, DECK_ALREADY_RELEASED, DECK_CARD_SET_MISMATCH,
                     DECK_CLAIM_MISMATCH, DECK_DIVERGED, DECK_DUPLICATE_CARD,
                     DECK_DUPLICATE_CIPHERTEXT, DECK_FLOOD, DECK_MALFORMED, DECK_NOT_A_CARD,
                     DECK_NOT_HOLDER, DECK_NOT_ON_CURVE, DECK_NOT_READY, DECK_UNEXPECTED,
                     DECK_WRONG_EPOCH, DECK_WRONG_KEY, CheatingError, ProtocolError)
from .identity import Signer

MSG_COMMIT = "deck/commit"
MSG_SHUFFLE = "deck/shuffle"
MSG_REKEY = "deck/rekey"
MSG_KEYS = "deck/keys"
MSG_OPEN = "deck/open"
MSG_AUDIT = "deck/audit"
DECK_TYPES = (MSG_COMMIT, MSG_SHUFFLE, MSG_REKEY, MSG_KEYS, MSG_OPEN, MSG_AUDIT)
MAX_PENDING_PER_SEAT = 64  # messages that arrived before they could apply


class DeckPeer:
    def __init__(self, signer: Signer, n_seats: int, card_ids: Iterable[int], epoch: int = 0,
                 secrets: tuple[int, list[int], list[int]] | None = None) -> None:
        """``secrets``: our (scalar, permutation, per-position keys), for a peer that derives
        them (the same after a restart); drawn at random when None."""
        ids = list(card_ids)
        if not ids or len(set(ids)) != len(ids) or not all(wire.is_int(c) for c in ids):
            raise ValueError("card ids must be distinct ints")
        if not (n_seats >= 1 and 0 <= signer.seat < n_seats and wire.is_int(epoch) and epoch >= 0):
            raise ValueError("bad seat count, seat or epoch")
        self.signer, self.seat, self.game_id = signer, signer.seat, signer.game_id
        self.n, self.epoch, self.card_ids, self.size = n_seats, epoch, ids, len(ids)
        self.card_points = [curve.card_point(c) for c in ids]
        self._card_of = dict(zip(self.card_points, ids))
        self._digest = cards_digest(ids)
        # Our secrets: one shuffle scalar, one permutation, one key per position.
        if secrets is None:
            self._scalar = curve.random_scalar()
            self._perm = list(range(self.size))
            _secrets.SystemRandom().shuffle(self._perm)
            self._keys = [curve.random_scalar() for _ in range(self.size)]
        else:
            scalar, perm, keys = secrets
            if not (wire.is_int(scalar) and 0 < scalar < curve.N
                    and sorted(perm) == list(range(self.size)) and len(keys) == self.size
                    and all(wire.is_int(k) and 0 < k < curve.N for k in keys)):
                raise ValueError("secrets must be a scalar, a permutation of the positions "
                                 "and one key per position")
            self._scalar, self._perm, self._keys = scalar, list(perm), list(keys)
        # The public transcript.
        self.commits: dict[int, tuple[bytes, list[bytes]]] = {}
        self.shuffles: list[list[bytes]] = []
        self.rekeys: list[list[bytes]] = []
        self.released: list[dict[int, int]] = [{} for _ in range(self.size)]
        self.claims: dict[int, tuple[int, int]] = {}  # pos -> (seat, card) of each deck/open
        self.audits: dict[int, tuple[int, list[int], list[int]]] = {}
        self.audit_report: AuditReport | None = None
        self._th: bytes | None = None  # running transcript hash, once every commitment is in
        # What this peer knows: public cards and its own hand.
        self.known: dict[int, int] = {}
        self._where: dict[int, int] = {}  # card -> position, to spot a card seen twice
        self.alerts: list[ProtocolError] = []
        self._pending: list[dict] = []
        self._started = False

    # ================================================================ calls
    def start(self) -> list[dict]:
        """Our commitments (and our shuffle if it is already due)."""
        if self._started:
            raise ValueError("already started")
        self._started = True
        g, s, e = self.game_id, self.seat, self.epoch
        fields = {"cards": self._digest,
                  "secrets": secrets_commitment(g, s, e, curve.scalar_to_bytes(self._scalar),
                                                self._perm),
                  "keys": [key_commitment(g, s, e, j, curve.scalar_to_bytes(k))
                           for j, k in enumerate(self._keys)]}
        return [self._send(MSG_COMMIT, fields)] + self._act()

    def release(self, positions: Iterable[int]) -> dict:
        """Publish our keys for ``positions``: deals them to the one seat still
        holding a key, or makes them public once every seat has released."""
        positions = list(positions)
        self._need_ready()
        if not positions or len(set(positions)) != len(positions) or not all(
                wire.is_int(p) and 0 <= p < self.size and self.seat not in self.released[p]
                for p in positions):
            raise ValueError("positions must be distinct, in range and not yet released by us")
        return self._send(MSG_KEYS, {"positions": positions, "deck": self._th,
                                     "keys": [self._key_bytes(p) for p in positions]})

    def open(self, pos: int) -> dict:
        """Reveal a card of our hand to everyone (a build, a discard, a Spies' reveal)."""
        if pos not in self.my_hand():
            raise ValueError(f"position {pos} is not in our hand")
        return self._send(MSG_OPEN, {"pos": pos, "card": self.known[pos],
                                     "key": self._key_bytes(pos), "deck": self._th})

    def publish_audit(self) -> dict:
        """Publish every secret of this epoch (end of game, or after a dispute)."""
        self._need_ready()
        if self.seat in self.audits:
            raise ValueError("audit already published")
        return self._send(MSG_AUDIT, {
            "scalar": curve.scalar_to_bytes(self._scalar), "perm": self._perm, "deck": self._th,
            "keys": [curve.scalar_to_bytes(k) for k in self._keys]})

    def handle(self, body: dict) -> list[dict]:
        """Take one verified ``deck/*`` body of another seat; returns envelopes to
        broadcast.  Raises ProtocolError/CheatingError for a refused message (it
        changes nothing) and for a problem the message brought to light (a card
        that does not decode, a failed audit: it is applied, and also kept in
        ``alerts``)."""
        seat = body.get("seat")
        if body.get("type") not in DECK_TYPES:
            raise ProtocolError(DECK_UNEXPECTED, seat, f"not a deck message: {body.get('type')!r}")
        if not (wire.is_int(body.get("epoch")) and body["epoch"] == self.epoch):
            raise ProtocolError(DECK_WRONG_EPOCH, seat,
                                f"epoch {body.get('epoch')!r} is not {self.epoch}")
        if not (wire.is_int(seat) and 0 <= seat < self.n) or seat == self.seat:
            raise ProtocolError(DECK_UNEXPECTED, seat, "not another seat of this deck")
        if sum(b["seat"] == seat for b in self._pending) >= MAX_PENDING_PER_SEAT:
            raise CheatingError(DECK_FLOOD, seat, "too many messages ahead of the protocol")
        self._pending.append(body)
        alerts = self._drain()
        out = self._act()
        if alerts:
            raise alerts[0]
        return out

    # ================================================ a stream taken up again
    # A peer that restarts rebuilds the same deck from its derived secrets; the messages
    # it made before are in the others' transcripts already, so they are adopted or made
    # again exactly once, never twice.
    def hold_back(self, hold: bool) -> None:
        """While ``hold``, our stages wait (a rejoining peer adopting its earlier messages)."""
        self.hold = hold

    def skip_start(self) -> None:
        """Our commitment is in the transcript already (made before the restart): ``start``
        must not make another."""
        self._started = True

    def recommit(self) -> list[dict]:
        """Our commitment made again if the transcript lacks it (and our stage if due);
        nothing if it holds it."""
        if self.seat in self.commits:
            return []
        self._started = False
        return self.start()

    def stages_due(self) -> list[dict]:
        """Our shuffle or re-key stage, if it is our turn now (and we do not ``hold``)."""
        return self._act()

    def adopt(self, body: dict) -> bool:
        """One of our own messages made before a restart (the others relayed it back),
        applied as if we had just made it — if the transcript has reached it (else False,
        nothing changed).  Its problems go to ``alerts`` like our own messages'."""
        if body.get("type") not in DECK_TYPES or not self._can_apply(body):
            return False
        if body["type"] == MSG_OPEN:
            pos = body.get("pos")
            if not (isinstance(pos, int) and 0 <= pos < self.size) or any(
                    s not in self.released[pos] for s in range(self.n) if s != self.seat):
                return False
        try:
            self.alerts.extend(self._apply(body))
        except ProtocolError:
            return False
        self._drain()             # the others' messages that waited for this one of ours
        if body["type"] == MSG_COMMIT:
            self._started = True
        return True

    def absorb(self, body: dict) -> list[ProtocolError]:
        """A message already checked elsewhere (a hosted seat's copy of a transcript the
        peer's own deck processed), applied when it can be; raises what ``handle`` would."""
        self._pending.append(body)
        return self._drain()

    # ============================================================== queries
    @property
    def ready(self) -> bool:
        """The shuffled, re-keyed deck is complete: deals can begin."""
        return len(self.rekeys) == self.n

    @property
    def transcript_digest(self) -> bytes | None:
        """Hash of the whole public setup; equal on every honest peer."""
        return self._th

    def unreleased(self, pos: int) -> list[int]:
        return [s for s in range(self.n) if s not in self.released[pos]]

    def holder(self, pos: int) -> int | None:
        """The seat a position is dealt to (only its key is unreleased), else None."""
        left = self.unreleased(pos)
        return left[0] if len(left) == 1 else None

    def card_at(self, pos: int) -> int | None:
        """The card at ``pos`` if this peer knows it."""
        return self.known.get(pos)

    def my_hand(self) -> dict[int, int]:
        return {p: c for p, c in self.known.items() if self.holder(p) == self.seat}

    def public_cards(self) -> dict[int, int]:
        return {p: c for p, c in self.known.items() if len(self.released[p]) == self.n}

    def waiting_for(self) -> list[int]:
        """Seats whose setup or audit message is due (for the caller's timeout)."""
        if len(self.commits) < self.n:
            return [s for s in range(self.n) if s not in self.commits]
        if len(self.shuffles) < self.n:
            return [len(self.shuffles)]
        if len(self.rekeys) < self.n:
            return [len(self.rekeys)]
        if self.audits and len(self.audits) < self.n:
            return [s for s in range(self.n) if s not in self.audits]
        return []

    def public_view(self) -> dict:
        """Everything every peer knows (no secret of ours, no card of our hand)."""
        return {"epoch": self.epoch, "cards": self.card_ids, "commits": self.commits,
                "shuffles": self.shuffles, "rekeys": self.rekeys, "claims": self.claims,
                "released": [{s: curve.scalar_to_bytes(k) for s, k in r.items()}
                             for r in self.released],
                "public": self.public_cards(),
                "holders": [self.holder(p) for p in range(self.size)], "audits": self.audits,
                "transcript": self._th}

    # ============================================================ internals
    def _key_bytes(self, pos: int) -> bytes:
        return curve.scalar_to_bytes(self._keys[pos])

    def _need_ready(self) -> None:
        if not self.ready:
            raise ProtocolError(DECK_NOT_READY, self.seat, "the deck is not set up yet")

    def _send(self, type_: str, fields: dict) -> dict:
        envelope = self.signer.sign(type_, {"epoch": self.epoch, **fields})
        # Our own message goes through the same checks as everyone else's.
        self.alerts.extend(self._apply(wire.unpack(envelope["body"], DECK_MALFORMED)))
        return envelope

    # True while our stages must wait (a rejoining peer adopting its own earlier messages)
    hold = False

    def _act(self) -> list[dict]:
        """Our shuffle or re-key stage, when it is our turn (and not ``hold``)."""
        if self._th is None or self.hold:
            return []
        if len(self.shuffles) == self.seat:
            cards = self._shuffle_output(self.shuffles[-1] if self.shuffles else self.card_points)
            return [self._send(MSG_SHUFFLE, {"cards": cards, "prev": self._th})] + self._act()
        if len(self.shuffles) == self.n and len(self.rekeys) == self.seat:
            cards = self._rekey_output(self.rekeys[-1] if self.rekeys else self.shuffles[-1])
            return [self._send(MSG_REKEY, {"cards": cards, "prev": self._th})] + self._act()
        return []

    # The two stage computations are methods so that tests can write cheaters.
    def _shuffle_output(self, prev: list[bytes]) -> list[bytes]:
        return shuffle_stage(self._scalar, self._perm, prev)

    def _rekey_output(self, prev: list[bytes]) -> list[bytes]:
        return rekey_stage(self._scalar, self._keys, prev)

    def _can_apply(self, body: dict) -> bool:
        t, s = body["type"], body["seat"]
        if t == MSG_COMMIT:
            return True
        if t == MSG_SHUFFLE:
            return self._th is not None and len(self.shuffles) >= s
        if t == MSG_REKEY:
            return len(self.shuffles) == self.n and len(self.rekeys) >= s
        return self.ready

    def _drain(self) -> list[ProtocolError]:
        """Apply waiting messages that can apply, keeping each seat's order."""
        alerts: list[ProtocolError] = []
        progress = True
        while progress:
            progress, blocked = False, set()
            for body in list(self._pending):
                if body["seat"] in blocked:
                    continue
                if not self._can_apply(body):
                    blocked.add(body["seat"])
                    continue
                self._pending.remove(body)
                found = self._apply(body)  # a refusal raises and drops just this message
                self.alerts.extend(found)
                alerts += found
                progress = True
        return alerts

    _HANDLERS = {MSG_COMMIT: "_on_commit", MSG_SHUFFLE: "_on_stage", MSG_REKEY: "_on_stage",
                 MSG_KEYS: "_on_keys", MSG_OPEN: "_on_open", MSG_AUDIT: "_on_audit"}

    def _apply(self, body: dict) -> list[ProtocolError]:
        return getattr(self, self._HANDLERS[body["type"]])(body["seat"], body) or []

    @staticmethod
    def _failer(seat: int) -> wire.Fail:
        def fail(detail: str) -> NoReturn:
            raise CheatingError(DECK_MALFORMED, seat, detail)
        return fail

    @staticmethod
    def _scalar_value(raw: object, name: str, seat: int) -> int:
        k = curve.scalar_from_bytes(raw)
        if k is None:
            raise CheatingError(DECK_MALFORMED, seat, f"{name} must be 32 bytes in [1, n-1]")
        return k

    def _scalar_field(self, body: dict, name: str, seat: int) -> int:
        return self._scalar_value(wire.field(body, name, self._failer(seat)), name, seat)

    def _check_hash(self, body: dict, name: str, seat: int) -> None:
        got = wire.field(body, name, self._failer(seat))
        if got != self._th:
            raise ProtocolError(DECK_DIVERGED, seat,
                                f"its {name!r} transcript hash differs from ours")

    def _on_commit(self, seat: int, body: dict) -> None:
        fail = self._failer(seat)
        if seat in self.commits:
            raise CheatingError(DECK_UNEXPECTED, seat, "second commitment")
        if wire.bytes_of(wire.field(body, "cards", fail), 32, fail, "cards") != self._digest:
            raise ProtocolError(DECK_CARD_SET_MISMATCH, seat, "commits to another card set")
        sec = wire.bytes_of(wire.field(body, "secrets", fail), 32, fail, "secrets")
        keys = wire.list_of(wire.field(body, "keys", fail), self.size, fail, "keys")
        for k in keys:
            wire.bytes_of(k, 32, fail, "key commitment")
        self.commits[seat] = (sec, keys)
        if len(self.commits) == self.n:
            self._th = transcript_start(self.game_id, self.epoch, self.card_ids,
                                        [self.commits[s] for s in range(self.n)])

    def _on_stage(self, seat: int, body: dict) -> None:
        stages = self.shuffles if body["type"] == MSG_SHUFFLE else self.rekeys
        if len(stages) != seat:
            raise CheatingError(DECK_UNEXPECTED, seat, f"{body['type']} out of turn")
        fail = self._failer(seat)
        self._check_hash(body, "prev", seat)
        cards = wire.list_of(wire.field(body, "cards", fail), self.size, fail, "cards")
        for j, x in enumerate(cards):
            if not curve.is_point(x):
                raise CheatingError(DECK_NOT_ON_CURVE, seat, f"position {j} is not a curve point")
        if len(set(cards)) != self.size:
            raise CheatingError(DECK_DUPLICATE_CIPHERTEXT, seat,
                                "the same ciphertext appears twice")
        stages.append(cards)
        # a stage is applied only once every commitment is in (_can_apply), which set it
        assert self._th is not None, "stage before the transcript started"
        self._th = transcript_next(self._th, cards)

    def _positions_and_keys(self, seat: int, body: dict) -> list[tuple[int, int]]:
        fail = self._failer(seat)
        positions = wire.list_of(wire.field(body, "positions", fail), None, fail, "positions",
                                 self.size)
        raw = wire.list_of(wire.field(body, "keys", fail), len(positions), fail, "keys")
        for p in positions:
            wire.int_in(p, 0, self.size, fail, "position")
        wire.need(bool(positions) and len(set(positions)) == len(positions), fail,
                  "positions must be distinct and non-empty")
        return [(p, self._scalar_value(kb, "key", seat)) for p, kb in zip(positions, raw)]

    def _check_key(self, seat: int, pos: int, k: int) -> None:
        if seat in self.released[pos]:
            raise CheatingError(DECK_ALREADY_RELEASED, seat,
                                f"key for position {pos} released twice")
        kc = key_commitment(self.game_id, seat, self.epoch, pos, curve.scalar_to_bytes(k))
        if kc != self.commits[seat][1][pos]:
            raise CheatingError(DECK_WRONG_KEY, seat,
                                f"key for position {pos} is not the committed one")

    def _on_keys(self, seat: int, body: dict) -> list[ProtocolError]:
        pairs = self._positions_and_keys(seat, body)
        self._check_hash(body, "deck", seat)
        for pos, k in pairs:
            self._check_key(seat, pos, k)
        for pos, k in pairs:
            self.released[pos][seat] = k
        return [a for pos, _ in pairs if (a := self._decode(pos))]

    def _decode(self, pos: int) -> ProtocolError | None:
        """Learn the card at ``pos`` once every other seat's key is known."""
        rel = self.released[pos]
        if pos in self.known or any(s not in rel for s in range(self.n) if s != self.seat):
            return None
        keys = [self._keys[pos] if s == self.seat else rel[s] for s in range(self.n)]
        return self._learn(pos, self._card_of.get(decrypt(keys, self.rekeys[-1][pos])))

    def _learn(self, pos: int, card: int | None) -> ProtocolError | None:
        # Nobody can be named here: the audit finds which stage went wrong.
        if card is None:
            return ProtocolError(DECK_NOT_A_CARD, None, f"position {pos} decodes to no card")
        if card in self._where:
            # both copies: a dispute shows both
            return ProtocolError(DECK_DUPLICATE_CARD, None,
                                 f"card {card} is at positions {self._where[card]} and {pos}",
                                 positions=[self._where[card], pos])
        self.known[pos] = card
        self._where[card] = pos
        return None

    def _on_open(self, seat: int, body: dict) -> list[ProtocolError]:
        fail = self._failer(seat)
        pos = wire.int_in(wire.field(body, "pos", fail), 0, self.size, fail, "pos")
        card = wire.field(body, "card", fail)
        wire.need(wire.is_int(card), fail, "card must be an int")
        k = self._scalar_field(body, "key", seat)
        self._check_hash(body, "deck", seat)
        self._check_key(seat, pos, k)
        rel = self.released[pos]
        if any(s not in rel for s in range(self.n) if s != seat):
            raise CheatingError(DECK_NOT_HOLDER, seat,
                                f"position {pos} was not dealt to seat {seat}")
        keys = [k if s == seat else rel[s] for s in range(self.n)]
        got = self._card_of.get(decrypt(keys, self.rekeys[-1][pos]))
        if got != card:
            raise CheatingError(DECK_CLAIM_MISMATCH, seat,
                                f"claims card {card} at position {pos}, which holds {got}")
        rel[seat] = k
        self.claims[pos] = (seat, card)
        return [] if pos in self.known else [a for a in [self._learn(pos, got)] if a]

    def _on_audit(self, seat: int, body: dict) -> list[ProtocolError]:
        fail = self._failer(seat)
        if seat in self.audits:
            raise CheatingError(DECK_UNEXPECTED, seat, "second audit")
        scalar = self._scalar_field(body, "scalar", seat)
        perm = wire.list_of(wire.field(body, "perm", fail), self.size, fail, "perm")
        if not (all(wire.is_int(p) for p in perm) and sorted(perm) == list(range(self.size))):
            raise CheatingError(AUDIT_BAD_SECRETS, seat, "perm is not a permutation")
        raw = wire.list_of(wire.field(body, "keys", fail), self.size, fail, "keys")
        keys = [self._scalar_value(kb, "key", seat) for kb in raw]
        self._check_hash(body, "deck", seat)
        sc = secrets_commitment(self.game_id, seat, self.epoch, curve.scalar_to_bytes(scalar), perm)
        if sc != self.commits[seat][0]:
            raise CheatingError(AUDIT_BAD_SECRETS, seat,
                                "scalar and perm do not open the commitment")
        for pos, k in enumerate(keys):
            kc = key_commitment(self.game_id, seat, self.epoch, pos, curve.scalar_to_bytes(k))
            if kc != self.commits[seat][1][pos]:
                raise CheatingError(DECK_WRONG_KEY, seat,
                                    f"audited key for position {pos} is not the committed one")
        self.audits[seat] = (scalar, perm, keys)
        if len(self.audits) < self.n:
            return []
        report = run_audit(self.card_points, self._card_of, self.shuffles, self.rekeys,
                           [self.audits[s] for s in range(self.n)])
        self.audit_report = report
        if report.ok:
            return []
        seat0, reason, detail = report.faults[0]
        return [CheatingError(reason, seat0, detail, faults=report.faults)]
