"""The game on the table as this peer knows it: the engine state, the session's status,
the public deck transcript of every epoch, and where each engine card sits in it.

Every part reads the game here; only the peer changes it, through ``begin``, ``execute``
(our commands), ``take`` (the others'), ``reveal``, ``stop`` and ``refine`` (each returns
the engine events, which the peer follows with the deck epochs and the phase hash, see
settle.Settle.changed).

The deck of each epoch is our own seat's ``DeckPeer`` (seat.SeatActor.decks): it holds
the public transcript (released keys, the cards made public, the audit) besides our
secrets.  Physical cards 0..10*per-1 are epoch 0's positions; a reshuffle's new engine
ids are mapped to their epoch and position in ``loc``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Protocol

import belfort
from belfort.commands import named as named_command
from belfort.legal import apply_claims
from belfort.undo import restore

from .config import card_type
from .takeback import UndoLog

if TYPE_CHECKING:
    from net.crypto import CommitRevealRound
    from net.crypto.deck import DeckPeer

    from .config import GameConfig


class RoundsByPurpose(Protocol):
    """The session's commit-reveal rounds (rounds.Rounds, which reads this table)."""

    def get(self, purpose: str) -> CommitRevealRound | None: ...


# Session states
SETUP, PLAYING, OVER, STOPPED = "setup", "playing", "over", "stopped"


class GameTable:
    def __init__(self, config: GameConfig, seat: int, decks: list[DeckPeer],
                 clock: Callable[[], float] | None = None) -> None:
        self.cfg, self.n, self.seat = config, config.n, seat
        self.ruleset = config.ruleset()
        self.per = self.ruleset.cards_per_type
        self.clock = clock               # optional: a clock for latency measurements
        self.status = SETUP
        self.stop_reason = ""
        self.game: belfort.GameState | None = None
        self.seed: bytes | None = None
        self.decks = decks               # DeckPeer per epoch (our seat's: the public transcript)
        self.loc: dict[int, tuple[int, int]] = {}     # engine id >= first epoch -> (epoch, pos)
        self.deck_log: list[list[dict]] = []          # processed deck bodies per epoch, any seat's
        self.history: list[tuple[int, tuple]] = []    # (seat, command) in applied order
        self.undo = UndoLog()        # the steps for take-backs and for the complete log
        self.apply_times: dict[tuple[int, int], float] = {}   # (seat, version) -> when applied
        self.t_first_place: float | None = None
        self.t_over: float | None = None

    # ------------------------------------------------------------ changes
    def begin(self, seed: bytes, names: Iterable[str]) -> list:
        """The shared seed is known: deal the game (the deck of epoch 0 is the caller's)."""
        self.seed = seed
        self.game = belfort.new_game(list(names), self.cfg.options, seed=seed,
                                     ruleset=self.ruleset, hidden=True)
        self.status = PLAYING
        self.undo = UndoLog()
        return [("started", seed.hex())]

    def execute(self, seat: int, cmd: tuple, now: float = 0.0) -> list:
        """Apply a command that ``belfort.check_legal`` has just returned as ``(cmd, seat)``,
        without checking it a second time (belfort.execute checks again only if the game
        changed since)."""
        return self._record(seat, cmd, lambda g: belfort.execute(g, cmd, seat), now)

    def take(self, seat: int, cmd: tuple, now: float = 0.0) -> list:
        """Carry out another seat's command, ``cmd`` already normalized (``belfort.normalize``)
        and its claims about hidden cards of its hand proven through the deck: the claimed
        types are given to the engine once, the command is found in the engine's legal list
        (its one legality check) and executed as that listed tuple, which ``belfort.execute``
        neither parses nor checks again.  An illegal one raises the engine's error, the
        state as it was (the claims taken back)."""
        return self._record(seat, cmd, lambda g: self._take(g, seat, cmd), now)

    @staticmethod
    def _take(g: belfort.GameState, seat: int, cmd: tuple) -> list | None:
        if apply_claims(g, cmd, seat) is not None:
            for listed in belfort.legal_commands(g, seat):
                if listed == cmd:
                    return belfort.execute(g, listed, seat)
        return None      # illegal: _record restores the state and asks the engine why

    def _record(self, seat: int, cmd: tuple, run: Callable[[belfort.GameState], list | None],
                now: float) -> list:
        g = self.game
        assert g is not None, "commands are applied only in a dealt game"
        v = g.version
        before = g.copy()            # ~13 µs: what a take-back of this command restores
        events = run(g)
        if events is None:
            # refused by our own lookup (take): the claims it gave go, and the engine's
            # full check says why (the error raised), or carries it out after all
            restore(g, before)
            events = belfort.apply(g, cmd, seat)
        self.undo.command(before, g, seat, cmd)
        self.history.append((seat, cmd))
        t = self.clock() if self.clock else now
        self.apply_times[(seat, v)] = t
        if self.t_first_place is None and named_command(cmd).verb == "place":
            self.t_first_place = t
        return events

    def reveal(self, card: int, typ: int) -> list:
        """A card the deck made public (raises belfort errors for an impossible one)."""
        assert self.game is not None, "cards are revealed only in a dealt game"
        before = self.game.copy()
        events = belfort.reveal(self.game, card, typ)
        self.undo.reveal(before)
        return events

    def stop(self, reason: str) -> list:
        """Stop the game (the first reason stays); the events to show."""
        if self.status == STOPPED:
            return []
        self.status = STOPPED
        self.stop_reason = reason
        return [("stopped", reason)]

    def refine(self, text: str, over: tuple[str, ...] = ()) -> None:
        """A stopped game's reason replaced by a verdict found since (a provisional stop
        refined): only a reason starting with one of ``over``, or any if ``over`` is
        empty.  Nothing for a game that is not stopped (its first stop gives the reason)."""
        if self.status == STOPPED and (not over or self.stop_reason.startswith(over)):
            self.stop_reason = text

    def add_epoch(self, deck: DeckPeer, new_ids: Iterable[int] = ()) -> None:
        self.deck_log.append([])
        for j, c in enumerate(new_ids):
            self.loc[c] = (deck.epoch, j)

    def end(self) -> None:
        """The game ends here, before the rules end it (a player left for good at 2
        players, departure.py): over, with the table as it stands; the audit follows as
        at any end."""
        if self.status == PLAYING:
            self.status = OVER
            self.t_over = self.clock() if self.clock else None

    def check_over(self) -> bool:
        if self.game is not None and self.game.is_over() and self.status == PLAYING:
            self.status = OVER
            self.t_over = self.clock() if self.clock else None
            return True
        return False

    # ------------------------------------------------------------ queries
    @property
    def playing(self) -> bool:
        return self.status == PLAYING

    def locate(self, card: int) -> tuple[int, int]:
        """(epoch, position) of an engine card id."""
        if card < 10 * self.per:
            return 0, card
        return self.loc[card]

    def card_at(self, epoch: object, pos: object) -> int | None:
        """The engine card id at (epoch, position), or None."""
        if not (isinstance(epoch, int) and isinstance(pos, int)):
            return None
        if epoch == 0:
            return pos if 0 <= pos < 10 * self.per else None
        for c, where in self.loc.items():
            if where == (epoch, pos):
                return c
        return None

    def physical(self, card: int) -> int:
        """The physical card at an engine id (KeyError if the deck never showed it)."""
        e, pos = self.locate(card)
        return self.decks[e].known[pos]

    def card_type(self, deck: DeckPeer, pos: int) -> int:
        return card_type(deck.known[pos], self.per)

    def hand_dealt(self, seat: int) -> bool:
        """Every other seat has released its key for every hidden card of seat's hand."""
        g = self.game
        assert g is not None, "asked only in a dealt game"
        for c in g.players[seat].hand:
            if g.public[c]:
                continue
            e, pos = self.locate(c)
            if e >= len(self.decks):
                return False
            rel = self.decks[e].released[pos]
            if any(s not in rel for s in range(self.n) if s != seat):
                return False
        return True

    def waiting_seats(self, rounds: RoundsByPurpose, audited: bool) -> list[int]:
        """Seats whose message the game needs next (decision, commitment or deck step)."""
        if self.status in (OVER, STOPPED) and audited:
            return []
        g = self.game
        if g is None:
            seed = rounds.get("seed")
            assert seed is not None, "Rounds opens the seed round when it is made"
            return seed.missing()
        for d in self.decks:
            w = d.waiting_for()
            if w:
                return w
        if g.reveal_queue:
            seats = set()
            for c in g.reveal_queue:
                e, pos = self.locate(c)
                if e < len(self.decks):
                    seats.update(self.decks[e].unreleased(pos))
            return sorted(seats)
        waiting = g.waiting_for()
        rnd = rounds.get(f"sim/{g.version}")
        if len(waiting) > 1 and rnd is not None:
            return rnd.missing()
        unknown = [s for s in range(self.n) if not self.hand_dealt(s)]
        return sorted(set(waiting) | set(unknown))
