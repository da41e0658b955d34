"""What the person is told, and how the game stops: the session's alerts.

Every part hands its alerts back in an ``Out``; the peer passes each one here.  An alert
is shown (``shown``, the list the window reads), or — while the peer judges what arrived
(``judging``: the receive pump and the settle loop) — an accusation naming another seat
is *held* instead, because it rests on our own game state: doubt.py shows it once that
seat's claims prove it held what we hold, and drops it otherwise.  A stop that came with
a held accusation stops the game at once, but with a reason that names nobody
(``HELD_STOP``); the reason naming the seat waits with the accusation.

Repeats of one alert (the same ``key``) are shown at most every 5 s, and both the list
and the keys stay bounded whatever a flood of messages asks for.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from net.alerts import Alert

from .doubt import ACCUSING
from .effects import Note, Out
from .msgs import N_, Msg

if TYPE_CHECKING:
    from .doubt import Doubt
    from .msglog import MessageLog
    from .table import GameTable

log = logging.getLogger("belfort.session")

HELD_STOP = Msg(N_("a message was refused; the game is stopped while the peers check that "
                   "everyone holds the same messages (nobody is named yet)"))

REPEAT = 5.0          # s: an alert with the same key is not shown again sooner
MAX_SHOWN = 500       # alerts kept for the window (the oldest 100 go past it)
MAX_KEYS = 1000       # repeat keys remembered (made of message text: bounded too)


class Alerting:
    def __init__(self, n: int, seat: int, log: MessageLog, doubt: Doubt,
                 table: GameTable) -> None:
        """``log``: read only, whether we replay our log (a replay shows nothing)."""
        self.n, self.seat, self.log, self.doubt, self.table = n, seat, log, doubt, table
        self.shown: list[Alert] = []
        self._last: dict[tuple, float] = {}
        self._depth = 0            # > 0: judging (accusations are held)
        self._held = 0             # accusations held so far

    @property
    def judging(self) -> Alerting:
        """``with alerting.judging:`` what is found meanwhile rests on our game state:
        accusations are held.  (Itself, as a plain context manager: the pump and the
        settle loop enter it for every frame, where contextlib's costs show.)"""
        return self

    def __enter__(self) -> None:
        self._depth += 1

    def __exit__(self, *exc: object) -> None:
        self._depth -= 1

    @property
    def held(self) -> int:
        """How many accusations were held so far: a stop that follows one waits with it."""
        return self._held

    @property
    def repeat_keys(self) -> int:
        return len(self._last)

    def alert(self, note: Note, now: float) -> Out | None:
        """Show ``note``, or hold it (an accusation while judging): what holding it asks
        for comes back."""
        log.warning("[seat %s] %s: %s", self.seat, note.kind, note.text)
        if self.log.replaying:
            return None
        seat = note.seat
        if self._depth and not note.proof and note.kind in ACCUSING and isinstance(seat, int) \
                and 0 <= seat < self.n and seat != self.seat:
            self._held += 1
            return self.doubt.hold(Note(note.kind, note.text, seat, note.key), None, now)
        if note.key is not None:
            last = self._last.get(note.key)
            self._last[note.key] = now
            if last is not None and now - last < REPEAT and now > 0:
                return None
        self.shown.append(Alert(note.kind, note.text, seat))
        if len(self.shown) > MAX_SHOWN:
            del self.shown[:100]
        if len(self._last) > MAX_KEYS:
            self._last.clear()
        return None

    def stop(self, reason: str, held_before: int) -> list:
        """Stop the game; if an accusation was held since ``held_before``, the reason
        waits with it and the game stops as ``HELD_STOP``.  The events to show."""
        if self._held > held_before:
            self.doubt.hold_stop(reason)
            reason = HELD_STOP
        return self.table.stop(reason)
