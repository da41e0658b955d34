"""Bots for empty seats and solo play: `make_bot(level, seed, think=1.0)`.

Every bot has `choose(state, seat) -> command tuple`, decides from `redact(state, seat)` only
(it redacts itself, so callers may pass the full state), and is deterministic given its seed
and the state.
"""

from ..legal import legal_commands
from ..prng import Prng
from .view import own_view

LEVELS = ("random", "easy", "normal", "hard")


class _Placeholder:
    """Temporary: a uniform choice (replaced by the real levels)."""

    def __init__(self, seed):
        self.seed = seed

    def choose(self, state, seat):
        view = own_view(state, seat)
        cmds = legal_commands(view, seat)
        if not cmds:
            raise ValueError(f"seat {seat} has no decision to make now")
        return cmds[Prng(self.seed, "decision", view.version, seat).below(len(cmds))]


def make_bot(level, seed, think=1.0):
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}; choose one of {', '.join(LEVELS)}")
    return _Placeholder(seed)


__all__ = ["make_bot", "LEVELS"]
