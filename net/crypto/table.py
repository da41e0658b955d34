"""Every peer of one game in one process: for tests, benchmarks and local games.

``LocalDeckTable`` owns one identity, signer, verifier and per-epoch DeckPeer
for each seat, and a loop that carries every envelope to every other seat
exactly as a transport would: verify, then hand the body to the right object.
Refusals are collected per receiving seat in ``errors`` (so a test can see
that *every* honest peer caught a cheat) and the first is raised at the end
of the operation.

``tamper`` turns a seat into a cheater that speaks the protocol: a function
``(peer, body) -> body | None`` rewrites that seat's outgoing deck bodies
(which are then signed again with that seat's own key, so the signature is
genuine); None withholds the message.  ``peer_classes`` gives a seat a DeckPeer
subclass instead (a cheater whose own state follows its lies).
"""

from __future__ import annotations

import secrets
from collections import deque
from collections.abc import Callable, Iterable

from .audit import AuditReport
from .commit import CommitRevealRound, shared_seed
from .deck import DeckPeer
from .errors import COMMIT_MISMATCH, ProtocolError
from .identity import Identity, Signer, Verifier, open_envelope

Tamper = Callable[[DeckPeer, dict], "dict | None"]


class LocalDeckTable:
    def __init__(self, n_peers: int, *, game_id: str | None = None,
                 tamper: dict[int, Tamper] | None = None,
                 peer_classes: dict[int, type[DeckPeer]] | None = None, now: float = 0.0) -> None:
        self.n = n_peers
        self.game_id = game_id or secrets.token_hex(8)
        self.identities = [Identity.generate() for _ in range(n_peers)]
        self.signers = [Signer(i, self.game_id, s) for s, i in enumerate(self.identities)]
        keys = [i.public_bytes for i in self.identities]
        self.verifiers = [Verifier(self.game_id, keys) for _ in range(n_peers)]
        self.decks: list[list[DeckPeer]] = []  # [epoch][seat]
        self.rounds: dict[str, list[CommitRevealRound]] = {}  # purpose -> [seat]
        self.tamper = tamper or {}
        self.peer_classes = peer_classes or {}
        self.now = now  # the injected clock for commit-reveal deadlines
        self.log: list[dict] = []  # every envelope, as delivered
        self.errors: list[tuple[int, ProtocolError]] = []  # (receiving seat, error)
        self._reported = 0

    # ------------------------------------------------------------ transport
    def send(self, seat: int, envelopes: Iterable[dict]) -> None:
        """Deliver ``seat``'s envelopes to every other seat, and their answers, until quiet."""
        queue = deque((seat, e) for e in envelopes)
        while queue:
            sender, made = queue.popleft()
            envelope = self._tampered(sender, made)
            if envelope is None:
                continue
            self.log.append(envelope)
            for r in range(self.n):
                if r == sender:
                    continue
                try:
                    queue.extend((r, e) for e in self._receive(r, envelope))
                except ProtocolError as exc:
                    self.errors.append((r, exc))

    def _receive(self, r: int, envelope: dict) -> list[dict]:
        body = self.verifiers[r].verify(envelope)
        if body["type"].startswith("commit/"):
            self.rounds[body["purpose"]][r].handle(body, self.now)
            return []
        return self.decks[body["epoch"]][r].handle(body)

    def _tampered(self, sender: int, envelope: dict) -> dict | None:
        fn = self.tamper.get(sender)
        if fn is None:
            return envelope
        body = open_envelope(envelope)[0]
        if not body["type"].startswith("deck/"):
            return envelope
        changed = fn(self.decks[body["epoch"]][sender], body)
        return None if changed is None else self.identities[sender].sign_message(changed)

    def raise_errors(self) -> None:
        """Raise the first error collected since the last call."""
        fresh = self.errors[self._reported:]
        self._reported = len(self.errors)
        if fresh:
            raise fresh[0][1]

    def _own(self, seat: int, peer: DeckPeer, make: Callable[[], dict]) -> None:
        # What a peer finds in its own message (e.g. it released the last key
        # of a card that does not decode) counts like what others find.
        before = len(peer.alerts)
        envelope = make()
        self.errors.extend((seat, a) for a in peer.alerts[before:])
        self.send(seat, [envelope])

    # ----------------------------------------------------------------- deck
    def new_deck(self, card_ids: Iterable[int] = range(50)) -> int:
        """Set up a jointly shuffled deck (a new epoch) of ``card_ids``; returns the epoch.
        A reshuffled discard pile is simply a new deck of those ids."""
        ids = list(card_ids)
        epoch = len(self.decks)
        self.decks.append([self.peer_classes.get(s, DeckPeer)(self.signers[s], self.n, ids, epoch)
                           for s in range(self.n)])
        for s, peer in enumerate(self.decks[epoch]):
            self.send(s, peer.start())
        self.raise_errors()
        return epoch

    reshuffle = new_deck

    def peers(self, epoch: int = -1) -> list[DeckPeer]:
        return self.decks[epoch]

    def deal(self, positions: Iterable[int], seat: int, epoch: int = -1) -> None:
        """Deal ``positions`` privately to ``seat``: every other seat releases its keys."""
        positions = list(positions)
        for s, peer in enumerate(self.decks[epoch]):
            if s != seat:
                self._own(s, peer, lambda: peer.release(positions))
        self.raise_errors()

    def reveal(self, positions: Iterable[int], epoch: int = -1) -> None:
        """Reveal ``positions`` to everyone: each seat releases the keys it still holds."""
        positions = list(positions)
        for s, peer in enumerate(self.decks[epoch]):
            mine = [p for p in positions if s not in peer.released[p]]
            if mine:
                self._own(s, peer, lambda: peer.release(mine))
        self.raise_errors()

    def open(self, seat: int, pos: int, epoch: int = -1) -> None:
        """``seat`` reveals the card of its hand at ``pos``."""
        peer = self.decks[epoch][seat]
        self._own(seat, peer, lambda: peer.open(pos))
        self.raise_errors()

    def audit(self, epoch: int = -1) -> list[AuditReport | None]:
        """Every seat publishes its secrets; returns each seat's audit report."""
        for s, peer in enumerate(self.decks[epoch]):
            self._own(s, peer, peer.publish_audit)
        self.raise_errors()
        return [p.audit_report for p in self.decks[epoch]]

    # --------------------------------------------------------- commit-reveal
    def commit_reveal(self, purpose: str, values: list[bytes],
                      timeout: float = 30.0) -> list[list[bytes]]:
        """Run one simultaneous choice; returns every seat's view of all values."""
        seats = list(range(self.n))
        self.rounds[purpose] = [CommitRevealRound(self.game_id, seats, purpose, now=self.now,
                                                  timeout=timeout) for _ in seats]
        for s, rnd in enumerate(self.rounds[purpose]):
            self.send(s, [rnd.make_commitment(self.signers[s], values[s], self.now)])
        for s, rnd in enumerate(self.rounds[purpose]):
            self.send(s, [rnd.make_reveal(self.signers[s])])
        self.raise_errors()
        return [rnd.result() for rnd in self.rounds[purpose]]

    def shared_seed(self) -> bytes:
        """A seed no seat chose alone: every seat commits to a random share."""
        views = self.commit_reveal("seed", [secrets.token_bytes(32) for _ in range(self.n)])
        seeds = {shared_seed(v) for v in views}
        if len(seeds) != 1:
            raise ProtocolError(COMMIT_MISMATCH, None, "peers disagree on the seed")
        return seeds.pop()
