"""What happened before the window opened, for a resumed or rejoined game: the window only
hears of changes from then on, so without this its log would start empty in the middle of
a month, with nothing of the cards kept or the workers already placed."""
from __future__ import annotations

from typing import Any

from belfort.events import named

MAX_EVENTS = 120


def earlier(events: list[Any]) -> list[Any]:
    """The events worth showing again: those of the current month (from the beginning in
    the first month, so the cards kept at setup show too), at most the last MAX_EVENTS."""
    start = 0
    for i in range(len(events) - 1, -1, -1):
        ev = events[i]
        if ev and ev[0] == "round":
            start = 0 if named(ev).round == 1 else i
            break
    return events[start:][-MAX_EVENTS:]
