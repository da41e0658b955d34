"""What the game calls for once something changed: the settle loop.

After a message is processed or a decision made, the game may call for more of our own
work: a reveal once every commitment of a round is in, the game's start once the seed
round is complete, the simultaneous choices applied in seat order, the escrow's and the
handoff's next step, our key releases, the cards we may now read, the end of the game and
its deck audit.  ``settle`` does all of it until nothing more follows, and ``changed``
follows each change of the engine state (its events shown, a new deck epoch for a
reshuffle, our state hash at a phase boundary).

Both are ``Steps`` (effects.py): each step's ``Out`` is carried out by the peer before the
next is taken, since the next depends on it (our own reveal completes the round it is
part of).  That order is the order our envelopes are made in, which a rejoin reproduces
byte for byte: keep it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from belfort.events import named as named_event

from net.crypto import CommitRevealRound, ProtocolError, shared_seed, wire

from .commands import show
from .effects import Names, Out, Refused, Steps
from .msgs import N_, Msg
from .table import OVER, STOPPED

if TYPE_CHECKING:
    from .alerting import Alerting
    from .audit import AuditCheck
    from .catchup import CatchUp
    from .commands import Commands
    from .deckwork import DeckWork
    from .desync import DesyncCheck
    from .escrow import Escrow
    from .handoff import Handoff
    from .msglog import MessageLog
    from .rounds import Rounds
    from .seat import SeatActor
    from .table import GameTable


class Settle:
    def __init__(self, names: list[str], who: Names, *, table: GameTable, log: MessageLog,
                 own: SeatActor, rounds: Rounds, commands: Commands, deckwork: DeckWork,
                 escrow: Escrow, handoffs: Handoff, audit: AuditCheck, hashes: DesyncCheck,
                 catchup: CatchUp, alerting: Alerting) -> None:
        """``names``: the players' names the game starts with; ``catchup``: whether we
        hold back new envelopes (a rejoin); ``alerting``: accusations are held while we
        settle, since they rest on our game state."""
        self.names, self.who, self.table, self.log, self.own = names, who, table, log, own
        self.rounds, self.commands, self.deckwork = rounds, commands, deckwork
        self.escrow, self.handoffs, self.audit, self.hashes = escrow, handoffs, audit, hashes
        self.catchup, self.alerting = catchup, alerting
        self.dirty = True          # something changed since the last settle

    def touch(self) -> None:
        """Something changed: the next ``settle`` looks again."""
        self.dirty = True

    def settle(self) -> Steps[bool]:
        """Commit-reveal steps, escrow and handoff steps, then the deck work the engine
        state calls for.  True if anything changed."""
        if not self.dirty:
            return False
        with self.alerting.judging:
            self.dirty = False
            progress = yield from self._advance_rounds()
            if self.escrow.active and not self.catchup.holding():
                progress = (yield self.escrow.step(self.table.status == STOPPED)) or progress
                progress = (yield self.handoffs.step()) or progress
            if self.table.game is None or self.table.status == STOPPED:
                return progress
            progress = (yield from self._settle_deck()) or progress
            if progress:
                self.dirty = True      # look once more: what changed may call for more
            return progress

    def changed(self, events: list) -> Steps[None]:
        """After every change of the game: the events to show, a new deck epoch for a
        reshuffle, our state hash at a phase boundary."""
        yield Out(events=events)
        for ev in events:
            if ev[0] == "reshuffle":
                ev = named_event(ev)
                yield self.deckwork.new_epoch(ev.epoch, ev.old_cards, ev.new_cards,
                                              self.log.replaying,
                                              start=not self.catchup.holding())
                yield self.sync_hold()
        yield from self._boundary()

    def sync_hold(self) -> Out | None:
        """Hold back new envelopes, or send what fell due while we held them (catchup.py):
        what to send, if the hold was just released."""
        resumed = self.catchup.sync_hold()
        if resumed is None:
            return None
        self.dirty = True
        return Out(send=resumed)

    def _advance_rounds(self) -> Steps[bool]:
        """Reveal once every commitment is in; finish a round once every value is in."""
        progress = False
        for rnd in self.rounds.pending():
            if rnd.all_committed and rnd.purpose in self.own.choices \
                    and rnd.purpose not in self.own.revealed and not self.catchup.holding():
                yield Out(send=self.own.reveal(rnd.purpose, self.table.game,
                                               self.table.locate))
                progress = True
            if rnd.complete:
                self.rounds.close(rnd.purpose)
                progress = True
                if rnd.purpose == "seed":
                    yield from self._begin_game(rnd.result())
                else:
                    yield from self._finish_sim(rnd)
        return progress

    def _begin_game(self, shares: list[bytes]) -> Steps[None]:
        events = self.table.begin(shared_seed(shares), self.names)
        yield self.deckwork.first_epoch(start=not self.catchup.holding())
        yield self.sync_hold()
        yield Out(events=events)
        yield from self._boundary()

    def _finish_sim(self, rnd: CommitRevealRound) -> Steps[None]:
        """Every simultaneous choice is revealed: apply them in seat order."""
        for s in rnd.seats:
            try:
                raw = wire.unpack(rnd.values[s], "x")
                if not isinstance(raw, list) or not raw or not isinstance(raw[0], str):
                    raise ProtocolError("x")
            except ProtocolError:
                text = Msg(N_("{who} revealed something that is not a command"),
                           who=self.who.seat(s))
                yield Out().alert("cheat", text, s).halt(text)
                return
            try:
                yield self.commands.check_and_apply(s, raw, 0.0)
            except Refused as exc:
                yield Out().alert(exc.kind, exc.text, exc.seat).halt(
                    Msg(N_("{who}'s simultaneous choice '{command}' was refused"),
                        who=self.who.seat(s), command=show(raw)))
                return

    def _settle_deck(self) -> Steps[bool]:
        progress, again = False, True
        while again:
            again = False
            if not self.catchup.holding():
                progress = (yield self.deckwork.releases()) or progress
            progress = self.deckwork.learn_hand() or progress
            for card in self.deckwork.revealable():
                out = self.deckwork.reveal(card)
                if out is None:
                    continue
                yield out
                if out.stop:
                    return True
                progress = again = True
            if self.table.status == STOPPED:
                return True
        if self.table.check_over():
            progress = True
        if self.table.status == OVER:
            progress = (yield from self._audit_step()) or progress
        return progress

    def _audit_step(self) -> Steps[bool]:
        if self.audit.result is not None or not all(d.ready for d in self.table.decks):
            return False
        envs = [] if self.catchup.holding() else self.own.audits()
        yield Out(send=envs)
        return (yield self.audit.verdict()) or bool(envs)

    def _boundary(self) -> Steps[None]:
        game = self.table.game
        assert game is not None, "a phase boundary is one of a dealt game"
        out = self.hashes.boundary(game, self.table.decks, send=not self.catchup.holding())
        if out is not None:
            self.log.boundary()
            yield out
