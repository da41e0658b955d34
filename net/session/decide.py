"""Our seat's own moves: a decision, a take-back, and the ones a rejoin makes again.

A decision is checked once by the engine (``belfort.check_legal``) and then executed
without a second check; it is logged (a rejoin replays it), signed, and sent — for a
simultaneous choice, as a commitment only, the command following in its reveal.  A
take-back is logged, signed and applied the same way (takeback.py says when it is
allowed).

After a rejoin that lost the end of our log, the others relay our own envelopes back
(catchup.py): ``catch_up`` adopts each as our state reaches it, and makes our relayed
decisions and take-backs again from their command, so that their bytes come out the same.

All three are ``Steps`` (effects.py).  What our own moves produce is carried out without
a time: only the engine's record of when a command was applied reads ``now``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import belfort
from belfort.undo import Refusal

from net.crypto import Signer, wire

from .commands import plain
from .effects import Out, Steps
from .msgs import N_, Msg
from .table import PLAYING, STOPPED
from .takeback import CATCHING_UP, SessionRefusal

if TYPE_CHECKING:
    from .departure import Departure
    from .catchup import CatchUp
    from .desync import DesyncCheck
    from .msglog import MessageLog
    from .outgoing import Outgoing
    from .rounds import Rounds
    from .seat import SeatActor
    from .settle import Settle
    from .table import GameTable
    from .takeback import TakeBack


class Decisions:
    def __init__(self, seat: int, game_id: str, signer: Signer, *, table: GameTable,
                 log: MessageLog, own: SeatActor, rounds: Rounds, takebacks: TakeBack,
                 hashes: DesyncCheck, catchup: CatchUp, settle: Settle, outgoing: Outgoing,
                 departure: Departure, clock: Callable[[], float] | None) -> None:
        """``hashes``: read only (no decision while the game is out of sync); ``clock()``:
        seconds, to time our commands (benchmarks), or None."""
        self.seat, self.game_id, self.signer, self.table, self.log = seat, game_id, signer, \
            table, log
        self.own, self.rounds, self.takebacks, self.hashes = own, rounds, takebacks, hashes
        self.catchup, self.settle, self.outgoing, self.clock = catchup, settle, outgoing, clock
        self.departure = departure      # read only: a seat that left decides nothing more
        self.sent_times: dict[tuple[int, int], float] = {}    # our commands: when sent

    def may_decide(self) -> bool:
        """The game waits for our seat's decision, and we know our whole hand."""
        g = self.table.game
        if g is None or self.table.status != PLAYING or self.hashes.desync:
            return False
        waiting = g.waiting_for()
        if self.seat not in waiting or not g.known_hand(self.seat) \
                or not self.departure.decides(self.seat):
            return False
        return not (len(waiting) > 1 and f"sim/{g.version}" in self.own.choices)

    def undo_refusal(self) -> Refusal | None:
        """None when a take-back of ours would be allowed now."""
        if self.catchup.ours_missing() and not self.log.replaying:
            return SessionRefusal(CATCHING_UP)
        return self.takebacks.refusal(self.seat)

    def decide(self, command: object, now: float) -> Steps[list]:
        """Our decision (raises the engine's error for one that is not legal): the
        engine events of applying it."""
        g = self.table.game
        assert g is not None, "a decision is awaited in a dealt game only"
        cmd, seat = belfort.check_legal(g, command, self.seat)
        self.settle.touch()
        self.log.record("submit", list(plain(cmd)))
        events: list = []
        if len(g.waiting_for()) > 1:
            yield Out(send=[self.own.commit(self.rounds.sim().purpose, wire.pack(plain(cmd)))])
        else:
            yield Out(send=self.own.opens(cmd, g, self.table.locate))
            v = g.version
            if self.clock is not None:
                self.sent_times[(seat, v)] = self.clock()
            yield Out(send=[self.own.command(v, cmd, len(self.table.undo.steps))])
            events = self.table.execute(seat, cmd, now)   # checked above: not again
            yield from self.settle.changed(events)
        yield from self.settle.settle()
        return events

    def undo(self) -> Steps[tuple]:
        """Our take-back, once allowed: logged, sent, applied.  The command taken back."""
        self.settle.touch()
        self.log.record("undo", self.table.undo.stack.last_tag())
        yield Out(send=[self.takebacks.message(self.signer)])
        events, cmd = self.takebacks.apply(self.seat)
        yield from self.settle.changed(events)
        yield from self.settle.settle()
        return cmd

    def catching_up(self) -> bool:
        """The others relayed back an envelope of ours that we have not made again yet
        (``catch_up`` has something to do)."""
        return self.catchup.next_body() is not None

    def catch_up(self, now: float) -> Steps[bool]:
        """Adopt our relayed envelopes, and make our relayed decisions again, as far as
        our state has come.  True if anything was done."""
        progress = False
        while self.catchup.next_body() is not None and self.table.status != STOPPED:
            adopted, bodies = self.catchup.adopt()
            if adopted:
                for body in bodies:
                    self.outgoing.seen(body)
                self.settle.touch()
                progress = True
                continue
            if not (yield from self._redo(now)):
                break
            progress = True
        yield self.settle.sync_hold()
        return progress

    def _redo(self, now: float) -> Steps[bool]:
        """Make again the decision or take-back of ours the others relayed back (catchup.py
        ``redo``); True if something was done."""
        if not self.may_decide():
            return False
        redo = self.catchup.redo(self.table.game, len(self.table.undo.steps),
                                 self.table.undo.stack.last_tag(),
                                 self.takebacks.refusal(self.seat) is not None, self.game_id)
        if redo is None:
            return False
        if redo.kind == "undo":
            yield from self.undo()
            return True
        problem = redo.problem
        if redo.kind == "decide":
            try:
                yield from self.decide(redo.command, now)
            except (belfort.BelfortError, TypeError, ValueError) as exc:
                problem = Msg(N_("our own decision as the others hold it (seq {seq}) does not "
                                 "fit the game here: {error}"), seq=redo.seq, error=exc)
        if problem is not None:
            yield Out().alert("error", problem)
            self.log.drop_fetched(redo.seq)
        return True
