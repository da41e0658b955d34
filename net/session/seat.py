"""SeatActor: plays one seat's part of the protocol and returns the envelopes it signs.

The same class plays our own seat and, after a handoff, the departed seat a bot plays
on the lowest remaining seat's peer (``hosted``: its messages are signed with that
peer's identity key, its sequence going on from the cut).  A seat's part is:

* its deck secrets, one ``DeckPeer`` per epoch, all derived from the seat's master
  secret (derive.py): commitments, shuffle and re-key stages, the keys it owes
  (private deals to the other seats, public reveals), opening its own cards when a
  command names them, and its audit at the end;
* its simultaneous choices by commit-reveal (net.crypto.commit), the nonce derived from
  the master secret and the commitment's sequence number (so a replay re-creates it);
* its ordinary commands (``sess/cmd``).

It never decides anything: our seat's decisions come from ``SessionPeer.submit``, a
hosted seat's from botseat.BotSeat.  Nor does it apply anything to the game: the peer
does, from the envelopes.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from collections.abc import Callable, Iterable

import belfort

from net.crypto import commitment_hash, wire

from .commands import plain, tuples
from .config import card_type
from .derive import derive_bytes, seeded_deck

if TYPE_CHECKING:
    from net.crypto.identity import Signer

# (epoch, position in that epoch's deck) of an engine card id: GameTable.locate.
Locate = Callable[[int], tuple[int, int]]

log = logging.getLogger("belfort.session")


class SeatActor:
    def __init__(self, signer: Signer, n: int, master: bytes, cards_per_type: int,
                 hosted: bool = False) -> None:
        self.signer, self.seat, self.n = signer, signer.seat, n
        self.master, self.per, self.hosted = master, cards_per_type, hosted
        self.decks: list = []                          # DeckPeer per epoch
        self.choices: dict[str, tuple[bytes, bytes]] = {}   # purpose -> (value, nonce)
        self.revealed: set[str] = set()
        self.audit_sent = False
        self.emitted: set[int] = set()                 # hosted: seqs we signed

    # ------------------------------------------------------------ the deck
    def new_epoch(self, epoch: int, cards: Iterable[int], start: bool = True) -> list[dict]:
        """Our DeckPeer of a new epoch; its commitment (and stage, if due) unless ``start``
        is False (a hosted seat whose commitment is in the transcript already)."""
        deck = seeded_deck(self.signer, self.n, cards, epoch, self.master)
        self.decks.append(deck)
        if start:
            return self.mine(deck.start())
        deck.skip_start()
        return []

    def on_deck(self, body: dict) -> list[dict]:
        """Another seat's deck message for our own seat's decks (raises if refused)."""
        return self.mine(self.decks[body["epoch"]].handle(body))

    def absorb(self, body: dict) -> None:
        """Hosted: a deck message the peer processed — any seat's, the departed seat's own
        from before the cut included (the peer's own decks already checked it)."""
        e = body.get("epoch")
        if not (wire.is_int(e) and 0 <= e < len(self.decks)):
            return
        if body["seat"] == self.seat and body["seq"] in self.emitted:
            return
        try:
            self.decks[e].absorb(body)
        except Exception as exc:
            log.warning("handoff bot: deck message refused: %s", exc)

    def stages_due(self) -> list[dict]:
        """Hosted: a shuffle or re-key stage now due (our own seat acts inside handle)."""
        return self.mine([env for d in self.decks for env in d.stages_due()])

    def releases(self, game: belfort.GameState, locate: Locate) -> tuple[list[dict], list]:
        """Our keys owed now: for hidden cards in other seats' hands (private deals) and
        for the cards to reveal.  Returns (envelopes, problems the decks found)."""
        todo: dict[int, list[int]] = {}
        # (asked after every received frame: one pass with the lookups hoisted, the
        # decks' readiness computed once, not once per hidden card)
        decks, me, public = self.decks, self.seat, game.public
        ready = [d.ready for d in decks]
        cards = [c for s in range(self.n) if s != me
                 for c in game.players[s].hand if not public[c]]
        cards.extend(game.reveal_queue)
        for c in cards:
            e, pos = locate(c)
            if e < len(decks) and ready[e] and me not in decks[e].released[pos]:
                lst = todo.setdefault(e, [])
                if pos not in lst:
                    lst.append(pos)
        envs, problems = [], []
        for e, positions in todo.items():
            deck = self.decks[e]
            before = len(deck.alerts)
            envs.append(deck.release(positions))
            problems.extend(deck.alerts[before:])
        return self.mine(envs), problems

    def hand_types(self, game: belfort.GameState, locate: Locate) -> dict[int, int]:
        """{card: type} for the hidden cards of our hand the deck has shown us."""
        out = {}
        for c in game.players[self.seat].hand:
            if game.types[c] is None:
                e, pos = locate(c)
                if e < len(self.decks) and pos in self.decks[e].known:
                    out[c] = card_type(self.decks[e].known[pos], self.per)
        return out

    def opens(self, cmd: tuple, game: belfort.GameState, locate: Locate) -> list[dict]:
        """deck/open envelopes for the hidden hand cards a command names."""
        out = []
        for card, _t in belfort.command_claims(cmd):
            if card in game.players[self.seat].hand and not game.public[card]:
                e, pos = locate(card)
                d = self.decks[e] if e < len(self.decks) else None
                if d is not None and d.holder(pos) == self.seat and pos in d.known:
                    out.append(d.open(pos))
        return self.mine(out)

    def audits(self) -> list[dict]:
        """Every epoch's secrets, once, when every deck is complete (the game is over)."""
        if self.audit_sent or not self.decks or not all(d.ready for d in self.decks):
            return []
        self.audit_sent = True
        return self.mine([d.publish_audit() for d in self.decks if self.seat not in d.audits])

    # ------------------------------------------------------------ decisions
    def command(self, version: int, cmd: tuple, steps: int) -> dict:
        """``steps``: how many steps (commands, take-backs) the game had applied: versions
        repeat after a take-back, the step count does not (takeback.py)."""
        return self._sign("sess/cmd", {"v": version, "cmd": plain(cmd), "n": steps})

    def commit(self, purpose: str, value: bytes) -> dict:
        """Commit to a simultaneous choice (or our seed share)."""
        nonce = derive_bytes(self.master, f"nonce/{purpose}/{self.signer.next_seq}")
        c = commitment_hash(value, nonce, self.signer.game_id, self.seat, purpose)
        self.choices[purpose] = (value, nonce)
        return self._sign("commit/commit", {"purpose": purpose, "commitment": c})

    def adopt(self, purpose: str, value: bytes, nonce: bytes) -> None:
        """A commitment the seat made before we played it (recovered by the bot seat)."""
        self.choices[purpose] = (value, nonce)

    def reveal(self, purpose: str, game: belfort.GameState | None,
               locate: Locate) -> list[dict]:
        """Open our commitment (once): for a simultaneous command, first the hand cards
        it names, then the value.  ``game``: None before the deal (the seed round)."""
        if purpose in self.revealed or purpose not in self.choices:
            return []
        self.revealed.add(purpose)
        value, nonce = self.choices[purpose]
        out = []
        if purpose.startswith("sim/"):
            assert game is not None, "a simultaneous choice is made in a dealt game"
            out += self.opens(belfort.normalize(tuples(wire.unpack(value, "x"))), game, locate)
        out.append(self._sign("commit/reveal", {"purpose": purpose, "value": value,
                                                "nonce": nonce}))
        return out

    def resume(self, next_seq: int) -> list[dict]:
        """Hosted, after the peer replayed its log: go on from the seat's last logged message."""
        self.signer.go_on_at(next_seq)
        return self.mine([env for d in self.decks for env in d.recommit()])

    # ------------------------------------------------------------ catching up (catchup.py)
    def hold(self, held: bool) -> None:
        """While ``held``, our decks' stages wait: the others may hold ours from before."""
        for d in self.decks:
            d.hold_back(held)

    def adopt_deck(self, body: dict) -> bool:
        """Our deck message made before a restart, applied as if just made: False while
        its epoch or its place in the transcript is still ahead."""
        e = body.get("epoch")
        if not (isinstance(e, int) and 0 <= e < len(self.decks)):
            return False           # the reshuffle that makes this epoch is still ahead
        if not self.decks[e].adopt(body):
            return False
        if body["type"] == "deck/audit":
            self.audit_sent = True
        return True

    def adopt_reveal(self, purpose: str) -> None:
        """Our reveal for ``purpose`` made before a restart: not made again."""
        self.revealed.add(purpose)

    def adopt_seq(self, next_seq: int) -> None:
        """Our envelopes up to ``next_seq`` - 1 are held: the next one gets ``next_seq``."""
        self.signer.go_on_at(next_seq)

    def resume_decks(self) -> list[dict]:
        """Caught up: each deck's commitment if the transcript lacks it, else the stage due."""
        out = []
        for d in self.decks:
            d.hold_back(False)
            out += d.recommit() if self.seat not in d.commits else d.stages_due()
        return out

    # ------------------------------------------------------------ inside
    def _sign(self, type_: str, fields: dict) -> dict:
        return self.mine([self.signer.sign(type_, fields)])[0]

    def mine(self, envs: list[dict]) -> list[dict]:
        """Envelopes this seat signed (a dispute's too): a hosted seat remembers their seqs,
        so the transcript does not hand them back to it."""
        if self.hosted:
            for env in envs:
                self.emitted.add(wire.unpack(env["body"], "x")["seq"])
        return envs
