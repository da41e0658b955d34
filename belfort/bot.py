"""The random bot: a uniform choice among the legal commands, from the version-stable PRNG."""

from .legal import legal_commands
from .prng import Prng


class RandomBot:
    def __init__(self, seed=0):
        self.rng = Prng(seed, "random-bot")

    def choose(self, state, seat):
        cmds = legal_commands(state, seat)
        if not cmds:
            raise ValueError(f"seat {seat} has no decision to make now")
        return cmds[self.rng.below(len(cmds))]
