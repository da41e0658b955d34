"""The session's work driven by time rather than by a message: each ``tick``.

Heartbeats and gap filling (resync.py), who is connected (liveness.py; a clock that
jumped, e.g. a suspend, asks for what we missed and counts nobody late), accusations held
against a seat and a desync verdict checked against what has come in since (doubt.py,
desync.py), who is past a deadline and what follows (waits.py), our automatic handoff
votes and our answers to an open handoff attempt, and the turn of the bot we play for a
departed seat.  ``caught_up`` ends a rejoin's catch-up once the others have answered
(catchup.py), which a received frame may also do.

Every method is ``Steps`` (effects.py), carried out with the tick's time.  The session
reads no clock: ``now`` is the time it is given.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .effects import Out, Steps
from .departure import LEFT_FOR_GOOD
from .table import OVER, STOPPED

if TYPE_CHECKING:
    from .departure import Departure
    from .evening import Again
    from .audit import AuditCheck
    from .catchup import CatchUp
    from .config import Timing
    from .desync import DesyncCheck
    from .dispute import Dispute
    from .doubt import Doubt
    from .handoff import Handoff
    from .liveness import Liveness
    from .msglog import MessageLog
    from .pump import Pump
    from .resync import Resync
    from .settle import Settle
    from .table import GameTable
    from .view import TableView
    from .waits import TableWaits


class Ticker:
    def __init__(self, timing: Timing, *, log: MessageLog, table: GameTable, audit: AuditCheck,
                 resync: Resync, liveness: Liveness, waits: TableWaits, doubt: Doubt,
                 hashes: DesyncCheck, dispute: Dispute, handoffs: Handoff, catchup: CatchUp,
                 settle: Settle, pump: Pump, view: TableView, departure: Departure,
                 again: Again, started: Callable[[], bool]) -> None:
        """``log``, ``table``, ``audit``, ``dispute``, ``view``: read only; ``started()``:
        the game has begun here."""
        self.timing, self.log, self.table, self.audit = timing, log, table, audit
        self.resync, self.liveness, self.waits, self.doubt = resync, liveness, waits, doubt
        self.hashes, self.dispute, self.handoffs, self.catchup = hashes, dispute, handoffs, \
            catchup
        self.settle, self.pump, self.view, self.started = settle, pump, view, started
        self.departure, self.again = departure, again

    def tick(self, now: float, answers: Callable[[float], None]) -> Steps[bool]:
        """Heartbeats, connection state and time-outs.  ``answers(now)``: give our answers
        to open handoff attempts (the peer's, which carries them out itself).  False if
        our clock jumped: the tick stopped after asking for what we missed."""
        yield from self.caught_up(now)
        yield self.resync.tick(now)
        yield self.again.tick(now)
        woke = self.liveness.check(now, self.handoffs.handed)
        yield woke
        if woke.need_sync:       # our clock jumped (suspended): we asked for what we missed
            self.waits.asleep()
            return False
        # held accusations and a desync verdict, against the claims and proofs now in
        yield self.doubt.recheck(now)
        yield self.hashes.recheck(now)
        yield from self._deadlines(now)
        if not self.catchup.ours_missing():
            # (never while the others may hold envelopes of ours we lost: a vote made now
            # would take the sequence number of one of them)
            lv = self.liveness
            for s in self.handoffs.auto_targets(lambda q: lv.stalled(q, now),
                                                lv.finished_of, lv.left_of, now):
                yield from self.vote(s, now)
            for s in self.departure.to_vote():     # a seat that left for good: at once
                yield from self.vote(s, now, LEFT_FOR_GOOD)
            answers(now)
        if self.handoffs.bot is not None:
            yield from self.pump_again(now)
        return True

    def caught_up(self, now: float) -> Steps[None]:
        """A rejoin's catch-up ends once the others answered: what waited for it goes on,
        and the person is told what is still missing."""
        if self.catchup.finish(now, self.resync, self.handoffs.handed, self.timing.catch_up):
            yield from self.pump_again(now)
            lacking = self.view.lacking(now)
            if lacking is not None:
                yield Out().alert("info", lacking)

    def answers(self, now: float) -> Steps[None]:
        """Our yes or no to each open handoff attempt (waits.py)."""
        if not self.log.replaying and (yield self.waits.answers(now)):
            yield from self.pump_again(now)

    def vote(self, seat: int, now: float, why: str = "") -> Steps[None]:
        """Our vote to hand ``seat`` to a bot (``why``: the deadline it missed)."""
        yield self.handoffs.vote(seat, why)
        yield from self.pump_again(now)

    def object(self, seat: int, vote: bytes, proof: bytes, now: float) -> Steps[None]:
        """The seat others voted to hand over is alive: call the handoff off."""
        yield self.handoffs.object(seat, vote, proof, now)
        yield from self.pump_again(now)

    def pump_again(self, now: float) -> Steps[None]:
        """Something changed here: settle and process what waited for it."""
        self.settle.touch()
        yield from self.pump.pump(now)

    def _deadlines(self, now: float) -> Steps[None]:
        """Ask waits.py who is late, and carry out what follows."""
        if self.log.replaying or not self.started() or not self.waits.due(now):
            return
        if (self.table.status == STOPPED and not self.dispute.active) or \
                (self.table.status == OVER and self.audit.result is not None):
            return
        if (yield self.waits.check(now, self.log.replaying)):
            yield from self.pump_again(now)
