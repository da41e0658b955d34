"""Bots for empty seats and solo play: `make_bot(level, seed, think=1.0)`.

Every bot has `choose(state, seat) -> command tuple`. It decides from `own_view(state,
seat)` only — `belfort.redact` (see view.py) — so callers may pass the full state and a bot
still cannot peek. A bot keeps no memory between decisions: its choice depends only on its
seed, its level and budget, and that view (randomness comes from
`Prng(seed, level, "decision", state.version, seat)`), so games with bots replay exactly.

Levels: "random" (uniform), "beginner" (one of the easy policy's BEGINNER_CHOICES best
commands, drawn from its seed: beatable by a careful first-timer), "easy" (rules of thumb,
heuristic.py), "normal" and "hard" (Monte Carlo search over sampled hidden cards,
search.py; hard with `think` seconds).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..legal import legal_commands
from ..prng import Prng
from . import heuristic
from .search import PLAYOUTS_PER_SECOND, search
from .view import own_view

if TYPE_CHECKING:
    from ..commands import Command
    from ..prng import Prng
    from ..state import GameState

LEVELS = ("random", "beginner", "easy", "normal", "hard")     # weakest first
BEGINNER_CHOICES = 3


class Bot:
    """Base: the seat's view, a per-decision random stream, and the level's policy."""

    level = "?"

    def __init__(self, seed: str | int) -> None:
        self.seed = seed

    def rng(self, view: GameState, seat: int) -> Prng:
        return Prng(self.seed, self.level, "decision", view.version, seat)

    def decide(self, view: GameState, seat: int, cmds: list[Command]) -> Command:
        """The level's policy: one of `cmds`, the legal commands of `seat` in its own view."""
        raise NotImplementedError

    def choose(self, state: GameState, seat: int) -> Command:
        view = own_view(state, seat)
        cmds = legal_commands(view, seat)
        if not cmds:
            raise ValueError(f"seat {seat} has no decision to make now")
        if len(cmds) == 1:
            return cmds[0]
        return self.decide(view, seat, cmds)


class RandomBot(Bot):
    level = "random"

    def decide(self, view: GameState, seat: int, cmds: list[Command]) -> Command:
        return cmds[self.rng(view, seat).below(len(cmds))]


class BeginnerBot(Bot):
    """The easy policy's ranking (its choice first, then the alternatives it rates best),
    and one of the first BEGINNER_CHOICES, uniformly: plausible moves, not the best."""
    level = "beginner"

    def decide(self, view: GameState, seat: int, cmds: list[Command]) -> Command:
        rng = self.rng(view, seat)
        best = heuristic.ranked(view, seat, cmds, rng)[:BEGINNER_CHOICES]
        return best[rng.below(len(best))]


class EasyBot(Bot):
    level = "easy"

    def decide(self, view: GameState, seat: int, cmds: list[Command]) -> Command:
        return heuristic.choose(view, seat, self.rng(view, seat))


class SearchBot(Bot):
    """Monte Carlo search with a fixed number of playouts per decision (search.py)."""

    def __init__(self, seed: int | str, level: str, playouts: dict[int, int] | int, width: int,
                 horizon: str = "round", learned: bool = True) -> None:
        """`playouts`: the budget of a decision, by player count ({players: count}), or
        one count for every player count."""
        super().__init__(seed)
        self.level = level
        self.playouts = playouts
        self.width = width
        self.horizon = horizon
        self.learned = learned
        self.searches = self.playouts_run = 0

    def decide(self, view: GameState, seat: int, cmds: list[Command]) -> Command:
        budget = self.playouts
        if isinstance(budget, dict):
            budget = budget[view.n]
        cmd, used = search(view, seat, cmds, self.rng(view, seat), budget, self.width,
                           self.horizon, self.learned)
        # Statistics only (for calibrating PLAYOUTS_PER_SECOND); never read by a decision.
        self.searches += bool(used)
        self.playouts_run += used
        return cmd


# The two search levels differ in budget and in knowledge: normal scores its playouts with
# the hand-made evaluation, hard with the learned one (evaluate.py) and many more playouts.
# About 30 ms a decision on the development machine (once 12 at 4 players scaled by 4/players).
NORMAL_PLAYOUTS = {2: 24, 3: 16, 4: 12, 5: 10}
NORMAL_WIDTH = 4
HARD_WIDTH = 6
HARD_HORIZON = "round"   # playouts run to the end of the round, then the learned evaluation


def make_bot(level: str, seed: str | int,
             think: float = 1.0) -> BeginnerBot | EasyBot | RandomBot | SearchBot:
    """A bot of `level` (one of LEVELS); `think` is the hard bot's
    budget in seconds, turned into a fixed number of playouts (no clock: deterministic)."""
    if level == "random":
        return RandomBot(seed)
    if level == "beginner":
        return BeginnerBot(seed)
    if level == "easy":
        return EasyBot(seed)
    if level == "normal":
        return SearchBot(seed, "normal", NORMAL_PLAYOUTS, NORMAL_WIDTH, "round", learned=False)
    if level == "hard":
        playouts = {n: max(1, round(think * rate)) for n, rate in PLAYOUTS_PER_SECOND.items()}
        return SearchBot(seed, "hard", playouts, HARD_WIDTH, HARD_HORIZON, learned=True)
    raise ValueError(f"unknown bot level {level!r}; choose one of {', '.join(LEVELS)}")


__all__ = ["make_bot", "LEVELS", "Bot", "SearchBot", "HARD_WIDTH", "HARD_HORIZON"]
