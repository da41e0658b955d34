"""Argument types shared by `belfort` (client/main.py) and the session's command line
(client/peer.py).  Standard library only, so that importing it costs a local game
nothing of the network code."""

import argparse
import math
from collections.abc import Callable


def N_(message: str) -> str:
    """Marks `message` for the client's catalog (scripts/i18n.py extracts it); `tr`
    translates it where it is shown."""
    return message


def seconds_type(tr: Callable[[str], str] | None = None,
                 positive: bool = False) -> Callable[[str], float]:
    """An argparse type for a time in seconds: a finite number, 0 or more (``positive``:
    more than 0); anything else is refused naming the option, never run with."""
    t = tr or str

    def seconds(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not math.isfinite(value) or value < 0 or (positive and value == 0):
            raise argparse.ArgumentTypeError(
                (t(N_("not a number of seconds: {text} (more than 0)")) if positive else
                 t(N_("not a number of seconds: {text} (0 or more)"))).format(text=repr(text)))
        return value
    return seconds
