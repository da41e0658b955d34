"""Who the table is waiting for: every obligation of a seat, its clock and its consequence.

A game can only go on when each seat does its part, so every way a seat can hold the
others up is written here as an obligation (``Owed``): what the seat owes, since when,
how long it may take, and what happens when it does not deliver.  The other parts only
*report* what is owed (``deadlines.owed`` derives the automatic protocol steps from the
game state, ``Handoff.answers_owed`` the answers to a handoff attempt) and *ask* here
who is late; nothing else keeps a clock of its own, so a new message kind or state
cannot open a new way to wait for ever without appearing in this table:

    obligation                                clock         deadline       then
    an automatic protocol step (deck epochs,  presence      step_deadline  DEPART: named, handed
      key releases, reveals, the deck audit)                               to a bot (3-5) or stop
    an opening of a card never dealt to it    presence      step_deadline  REFUSE the message
    a yes or a no to an open handoff attempt  presence      step_deadline  STOP, naming the seat
    anything before the first deal            absence       stall time     STOP: the setup ends
    a person's decision                       absence       stall time     a handoff may be voted
                                              (liveness.py)                (3-5) or the game pauses

A *presence* clock runs only while the seat is connected: a crashed peer that comes
back is not blamed for the time it was down (silence is the stall clock's business),
but a quiet spell does not restart the clock either — a seat that speaks once every few
seconds and never sends what it owes is named all the same.  An *absence* clock is the
seat's stall clock (liveness.py), which a heartbeat now and then does not reset.  Our
own process not running (a suspend) is nobody's delay: ``asleep`` stops every clock.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .deadlines import PRESENCE, REFUSE, STOP, Late, Owed, owed
from .effects import Names, Out
from .msgs import N_, Msg

if TYPE_CHECKING:
    from .config import Timing
    from .dispute import Dispute
    from .handoff import Handoff
    from .intake import Intake
    from .liveness import Liveness
    from .rounds import Rounds
    from .table import GameTable

CHECK_EVERY = 0.25           # s between two looks at what is owed (it walks the hands)

WITHHELD = N_("{who} withheld {what} for more than {limit} s while still connected")
AUDIT_WITHHELD = N_("{who} withheld its deck audit of epoch {epoch} for more than {limit} s: "
                    "the deck dispute names it")


class Waits:
    def __init__(self, n: int, names: Names, timing: Timing) -> None:
        self.n, self.names, self.timing = n, names, timing
        self.since: dict[tuple, float] = {}      # key -> when we first saw it owed
        self.spent: dict[tuple, float] = {}      # key -> seconds of the seat's presence since
        self.named: dict[int, str] = {}          # seat -> what it withheld (named once)
        self._last: float | None = None          # the previous check (None: start afresh)
        self._next_check = 0.0

    def check(self, owed: dict[tuple, Owed] | None, now: float,
              present: Callable[[int], bool], absent_for: Callable[[int], float],
              agrees: Callable[[int], bool] = lambda seat: True) -> list[Late]:
        """Seats newly past a deadline.  ``owed`` None = not looked at this time (see
        ``due``); ``present(seat)``: connected now; ``absent_for(seat)``: its stall clock;
        ``agrees(seat)``: its heartbeats show it holds the messages we hold (doubt.py) —
        after a fork it may owe nothing in its own game, and is not named."""
        if owed is None:
            return []
        dt = 0.0 if self._last is None else max(0.0, now - self._last)
        self._last = now
        for key in [k for k in self.since if k not in owed]:
            del self.since[key]
            self.spent.pop(key, None)
        late: dict[int, Late] = {}
        for key, item in owed.items():
            if key not in self.since:
                self.since[key], self.spent[key] = now, 0.0
            elif present(item.seat):
                self.spent[key] += dt
            due = self.spent[key] > self.timing.step_deadline if item.clock == PRESENCE \
                else absent_for(item.seat) > self.timing.timeout
            if due and item.seat not in self.named and item.seat not in late \
                    and agrees(item.seat):
                late[item.seat] = Late(key, item)
        for seat, lt in late.items():
            if lt.owed.then == REFUSE:
                del self.since[lt.key]      # refused, not a departure: it may go on
                self.spent.pop(lt.key, None)
            else:
                self.named[seat] = lt.owed.what
        return [late[s] for s in sorted(late)]

    def asleep(self) -> None:
        """Our process did not run for a while (a suspend, SIGSTOP): that time is nobody's
        delay, so no clock counts it."""
        self._last = None

    def due(self, now: float) -> bool:
        """Time for another look at what is owed."""
        if now < self._next_check - CHECK_EVERY * 4:      # a clock from another run
            self._next_check = now
        if now < self._next_check:
            return False
        self._next_check = now + CHECK_EVERY
        return True


class TableWaits:
    """The session's part that asks who the table is waiting for and says what follows.

    It gathers every obligation the other parts report (the game's automatic steps,
    deadlines.py; the answers to an open handoff attempt, handoff.py), lets the clocks
    (``Waits``) say who is late, and returns the consequences as an ``Out``: a message
    that can never be processed refused, a seat named and treated as departed, the game
    stopped with a verdict, a withheld audit deciding a deck dispute.  It also makes our
    own answers to open handoff attempts, so that we never owe one ourselves."""

    def __init__(self, n: int, seat: int, names: Names, timing: Timing, *, table: GameTable,
                 rounds: Rounds, intake: Intake, ready: Callable[[dict], bool],
                 handoffs: Handoff, dispute: Dispute, liveness: Liveness,
                 agrees: Callable[[int, float], bool]) -> None:
        """``ready(body)``: the message at a queue's head can be processed now;
        ``agrees(seat, now)``: its heartbeats show it holds what we hold (doubt.py)."""
        self.n, self.seat, self.names, self.timing = n, seat, names, timing
        self.table, self.rounds, self.intake, self.ready = table, rounds, intake, ready
        self.handoffs, self.dispute, self.liveness, self.agrees = \
            handoffs, dispute, liveness, agrees
        self.clocks = Waits(n, names, timing)

    def due(self, now: float) -> bool:
        return self.clocks.due(now)

    def asleep(self) -> None:
        self.clocks.asleep()

    def _skip(self) -> set[int]:
        """Seats that owe us nothing: ours, handed ones, the one we host for a bot."""
        skip = {self.seat, *self.handoffs.handed}
        if self.handoffs.bot is not None:
            skip.add(self.handoffs.bot.seat)
        return skip

    def check(self, now: float, replaying: bool) -> Out:
        """Who is late now, and what follows."""
        skip, intake = self._skip(), self.intake
        gaps = {s: intake.expected_seq(s) for s in range(self.n) if intake.future[s]}
        steps: dict[tuple, Owed] = owed(self.table, self.rounds, self.names, skip,
                                        intake.inbox, self.ready, gaps)
        steps.update(self.handoffs.answers_owed(skip))
        lv, out = self.liveness, Out()
        for late in self.clocks.check(steps, now, lambda q: lv.connected[q],
                                      lambda q: lv.stalled(q, now),
                                      lambda q: self.agrees(q, now)):
            out.add(self._consequence(late, replaying))
        return out

    def _consequence(self, late: Late, replaying: bool) -> Out:
        s, what, who = late.seat, late.owed.what, self.names.seat(late.seat)
        if late.owed.then == REFUSE:
            # a message that can never be processed, at the head of its sender's queue:
            # dropped (its sender signed it: it is named), so nothing waits behind it
            self.intake.drop_head(s)
            return Out().alert("cheat", Msg(N_("{who} sent {what}: refused"), who=who,
                                            what=what), s)
        if late.owed.then == STOP:
            return Out().alert("cheat", what, s, proof=True).halt(what)
        limit = f"{self.timing.step_deadline:.0f}"
        if late.key[0] == "audit" and self.dispute.active:
            return self.dispute.withheld(late.key[1], s, Msg(AUDIT_WITHHELD, who=who,
                                                             epoch=late.key[1], limit=limit))
        text = Msg(WITHHELD, who=who, what=what, limit=limit)
        return self.handoffs.depart(s, text, f"withheld {what}", replaying)

    def answers(self, now: float) -> Out:
        """Our yes or no to each open handoff attempt, made by the software within the
        step deadline (a seat that answers neither is named)."""
        out = Out()
        if not self.handoffs.votes:
            return out
        owing = {step.seat for step in owed(self.table, self.rounds, self.names,
                                            {self.seat}).values()}
        objections, agreements = self.handoffs.answers(
            now, lambda q: self.liveness.silent(q, now), lambda q: q in owing)
        for target, vote, proof in objections:
            out.add(self.handoffs.object(target, vote, proof, now))
        for target in agreements:
            out.add(self.handoffs.vote(target))
        return out
