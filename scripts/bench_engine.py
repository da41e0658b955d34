"""Engine speed. Prints one JSON object:

- decisions_per_second: 5-player games of random bots — at every decision the full list of
  legal commands is enumerated, one is drawn uniformly with the engine's PRNG and applied —
  in one process (one core; not pinned, so another process on the machine does not share
  our core when the other one is free); the figure is over all games, and
  `decisions_per_second_best` is the best of
  the `--repeats` equal batches (the least disturbed by other processes);
- games_per_second beside it, decisions per game and microseconds per decision;
- state_hash_us: the time of one state_hash of a late-game 5-player state (median of many).

Targets on the project's 2-core machines: >= 130k decisions/s (bots search by
playing games out), >= 50 games/s and <= 100 µs per hash (every phase boundary of a LAN
game hashes the state). Figures measured while other processes run are noisy;
machine_loop_millions_per_s (a fixed pure-Python loop, millions of iterations/s) tells how fast
the machine itself was during the run.
"""

import argparse
import json
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from belfort import apply, legal_commands, new_game, state_hash  # noqa: E402
from belfort.prng import Prng  # noqa: E402


def play(seed):
    """One random game; returns (decisions, a copy of the state at round 7)."""
    game = new_game(5, {"guilds": "normal"}, seed=seed)
    rng = Prng(seed, "random-bot")
    decisions = 0
    late = None
    while not game.is_over():
        seat = game.waiting_for()[0]
        cmds = legal_commands(game, seat)
        apply(game, cmds[rng.below(len(cmds))], seat)
        decisions += 1
        if late is None and game.round == 7:
            late = game.copy()
    return decisions, late


def machine_speed() -> float:
    """Millions of iterations per second of a fixed pure-Python loop, measured in the same
    run: these virtual machines' speed drifts (the same engine code measured 161k and 115k
    decisions/s hours apart), so a figure is comparable only beside this one."""
    best = 0.0
    for _ in range(3):
        t = time.perf_counter()
        x = 0
        for k in range(1_000_000):
            x += k
        best = max(best, 1.0 / (time.perf_counter() - t))
    return round(best, 2)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--repeats", type=int, default=3, help="batches the games are split into")
    ap.add_argument("--hashes", type=int, default=2000)
    args = ap.parse_args()
    play("warm-up")
    per_batch = max(1, args.games // max(1, args.repeats))
    total = elapsed = 0
    batch_rates = []
    late = None
    i = 0
    for _ in range(max(1, args.repeats)):
        start = time.perf_counter()
        done = 0
        for _ in range(per_batch):
            n, game_late = play(f"bench:{i}")
            i += 1
            done += n
            late = late or game_late
        spent = time.perf_counter() - start
        batch_rates.append(done / spent)
        total += done
        elapsed += spent
    samples = []
    for _ in range(args.hashes):
        t = time.perf_counter()
        state_hash(late)
        samples.append(time.perf_counter() - t)
    print(json.dumps({
        "games": i,
        "players": 5,
        "decisions_per_second": round(total / elapsed),
        "decisions_per_second_best": round(max(batch_rates)),
        "games_per_second": round(i / elapsed, 1),
        "decisions_per_game": round(total / i, 1),
        "us_per_decision": round(elapsed / total * 1e6, 2),
        "state_hash_us": round(statistics.median(samples) * 1e6, 1),
        "state_hash_us_p90": round(sorted(samples)[int(len(samples) * 0.9)] * 1e6, 1),
        "machine_loop_millions_per_s": machine_speed(),
        "targets": {"decisions_per_second": ">= 130000", "games_per_second": ">= 50",
                    "state_hash_us": "<= 100"},
    }))


if __name__ == "__main__":
    main()
