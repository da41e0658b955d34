"""Who the table is waiting for: every obligation of a seat, its clock and its consequence.

A game can only go on when each seat does its part, so every way a seat can hold the
others up is written here as an obligation (``Owed``): what the seat owes, since when,
how long it may take, and what happens when it does not deliver.  The other parts only
*report* what is owed (``deadlines.owed`` derives the automatic protocol steps from the
game state, ``Handoff.answers_owed`` the answers to a handoff attempt) and *ask* here
who is late; nothing else keeps a clock of its own, so a new message kind or state
cannot open a new way to wait for ever without appearing in this table:

    obligation                                  clock            deadline       then
    an automatic protocol step (deck epochs,    presence         step_deadline  DEPART: named, handed
      key releases, reveals, the deck audit)                                     to a bot (3-5) or stop
    an opening of a card never dealt to it      presence         step_deadline  REFUSE the message
    a yes or a no to an open handoff attempt    either           either         STOP, naming the seat
    anything before the first deal              absence          stall time     STOP: the setup ends
    a person's decision                         absence          stall time     a handoff may be voted
                                                (liveness.py)                   (3-5) or the game pauses

A *presence* clock runs only while the seat is connected: a crashed peer that comes
back is not blamed for the time it was down (silence is the stall clock's business),
but a quiet spell does not restart the clock either — a seat that speaks once every few
seconds and never sends what it owes is named all the same.  An *absence* clock is the
seat's stall clock (liveness.py), which a heartbeat now and then does not reset.  Our
own process not running (a suspend) is nobody's delay: ``asleep`` stops every clock.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .effects import Names

CHECK_EVERY = 0.25           # s between two looks at what is owed (it walks the hands)

DEPART, REFUSE, STOP = "depart", "refuse", "stop"
# which clock a deadline reads: the seat's presence (step_deadline), its absence (the
# stall time), or whichever runs out first
PRESENCE, ABSENCE, EITHER = "presence", "absence", "either"


@dataclass(frozen=True)
class Owed:
    """One obligation: ``seat`` owes ``what``; past its deadline, ``then`` happens.
    ``clock``: PRESENCE — ``step_deadline`` of the seat's presence; ABSENCE — the stall
    time of its absence (a silent seat is late too); EITHER — whichever comes first."""
    seat: int
    what: str
    then: str = DEPART
    clock: str = PRESENCE


@dataclass(frozen=True)
class Late:
    """A seat past the deadline of ``owed`` (the step's ``key``)."""
    key: tuple
    owed: Owed

    @property
    def seat(self) -> int:
        return self.owed.seat


class Waits:
    def __init__(self, n: int, names: Names, timing) -> None:
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
            due = (item.clock != ABSENCE and self.spent[key] > self.timing.step_deadline) \
                or (item.clock != PRESENCE and absent_for(item.seat) > self.timing.timeout)
            if due and item.seat not in self.named and item.seat not in late \
                    and agrees(item.seat):
                late[item.seat] = Late(key, item)
        for seat, item in late.items():
            if item.owed.then == REFUSE:
                del self.since[item.key]      # refused, not a departure: it may go on
                self.spent.pop(item.key, None)
            else:
                self.named[seat] = item.owed.what
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
