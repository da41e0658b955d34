"""Monte Carlo search over sampled hidden cards (the normal and hard bots).

For one decision: take the easy policy's ranking of the legal commands and keep the first
`width`; then, for each of them, sample the cards this seat cannot see consistently with
everything public (`belfort.determinize`), play the command, let the easy policy play every
seat to a horizon — the end of the round (normal) or of the next scoring phase (hard) — and
score the position with the evaluation (evaluate.py): how far this seat is ahead of its
best opponent.
Candidates share the same samples (common random numbers, so they are compared on equal
deals), and successive halving spends the budget on the ones still in the running.

The budget is a number of playouts, not seconds: the engine may not read a clock, and a
fixed count keeps a bot deterministic given its seed. `make_bot` turns `think` seconds
into playouts with PLAYOUTS_PER_SECOND[players], measured on the development machine.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..apply import apply
from ..hidden import determinize
from ..prng import Prng
from ..state import OVER
from . import heuristic
from .evaluate import evaluate, margin

if TYPE_CHECKING:
    from ..commands import Command
    from ..state import GameState

# The hard bot's playouts per second of thinking, per player count (a playout's length grows
# with the players), measured with `python scripts/bench_bots.py --calibrate` on the
# development machine (Python 3.11, one process, timed in CPU seconds because the machine is
# shared; re-measured after the engine speed-ups of 2026-11-26): a `think` of 1 s took
# 0.8–1.2 s per searched decision at every player count.
# Another machine may differ: this table sets the strength a second buys, never determinism.
PLAYOUTS_PER_SECOND = {2: 2250, 3: 1700, 4: 1200, 5: 800}
REWARD_SCALE = 12.0  # VP of margin that makes a position "clearly won" (sigmoid scale)


def reward(state: GameState, seat: int, learned: bool = True) -> float:
    """In [0, 1]: a win at the end; a squashed VP margin before it."""
    values = evaluate(state, learned)
    if state.phase == OVER:
        winners = state.result["winners"]  # type: ignore[index]  # set when the game is over
        won = (1.0 / len(winners)) if seat in winners else 0.0
        return 0.8 * won + 0.2 * _squash(margin(values, seat))
    return _squash(margin(values, seat))


def _squash(x: float) -> float:
    """A margin mapped into (0, 1), 0.5 at even. Only + - * / (no exp): IEEE rounds them
    the same on every machine, so a bot's choices replay everywhere."""
    return 0.5 + 0.5 * x / (REWARD_SCALE + abs(x))


def playout(state: GameState, rng: Prng, stop_round: int) -> None:
    """Every seat plays the easy policy until round `stop_round` is over (or the game)."""
    while state.phase != OVER and state.round <= stop_round:
        seat = state.waiting_for()[0]
        apply(state, heuristic.choose(state, seat, rng), seat)


def stop_round(view: GameState, horizon: str) -> int:
    """The last round a playout plays: this one ("round"), up to the next scoring phase
    ("scoring"), or to the end ("game")."""
    r = max(view.round, 1)
    if horizon == "round":
        return r
    if horizon == "scoring":
        return min(x for x in view.rs.scoring_rounds if x >= r)
    return view.rs.rounds


def search(view: GameState, seat: int, cmds: list[Command], rng: Prng, playouts: int, width: int,
           horizon: str = "round", learned: bool = True) -> tuple[Command, int]:
    """(The command with the best mean reward, playouts used), from at most `playouts`."""
    cands = heuristic.ranked(view, seat, cmds, rng)[:width]
    if len(cands) == 1 or playouts < len(cands):
        return cands[0], 0
    stop = stop_round(view, horizon)
    totals = {c: 0.0 for c in cands}
    counts = {c: 0 for c in cands}
    alive = list(cands)
    # (determinization, playout seed), shared by all candidates
    samples: list[tuple[GameState, int]] = []
    budget = playouts
    rounds = max(1, (len(alive) - 1).bit_length())     # ceil(log2): halvings to two
    while budget > 0:
        # Successive halving down to two finalists, which share what is left: this
        # round's share of the budget, split evenly among the candidates still in.
        per = max(1, budget // (rounds * len(alive)))
        while len(samples) < max(counts[c] for c in alive) + per:
            i = len(samples)
            samples.append((determinize(view, Prng(rng.below(2 ** 62), "det", i)),
                            rng.below(2 ** 62)))
        for c in alive:
            for det, pseed in samples[counts[c]:counts[c] + per]:
                if budget <= 0:
                    break
                sim = det.copy()
                apply(sim, c, seat)
                playout(sim, Prng(pseed, "playout"), stop)
                totals[c] += reward(sim, seat, learned)
                counts[c] += 1
                budget -= 1
        rounds = max(1, rounds - 1)
        if len(alive) > 2:
            alive.sort(key=lambda c: -totals[c] / max(1, counts[c]))   # stable: ties keep
            alive = alive[:max(2, (len(alive) + 1) // 2)]              # the policy's order
    # The best survivor (survivors have the most samples); ties keep the policy's order.
    best = max(alive, key=lambda c: (totals[c] / max(1, counts[c]), -cands.index(c)))
    return best, playouts - budget


__all__ = ["search", "playout", "reward", "PLAYOUTS_PER_SECOND"]
