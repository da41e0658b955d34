"""Engine speed (issue: rules engine). Prints one JSON object:

- games_per_second: random 5-player games (legal-command enumeration at every decision,
  a uniform random choice, apply), on one core;
- state_hash_us: the time of one state_hash of a late-game 5-player state (median of many);
- also decisions per game and per-decision microseconds, for context.

Targets on the project's 2-core machines: >= 50 games/s and <= 100 µs per hash.
"""

import argparse
import json
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from belfort import RandomBot, apply, legal_commands, new_game, state_hash  # noqa: E402


def play(seed):
    game = new_game(5, {"guilds": "normal"}, seed=seed)
    bot = RandomBot(seed)
    decisions = 0
    late = None
    while not game.is_over():
        seat = game.waiting_for()[0]
        cmds = legal_commands(game, seat)
        apply(game, cmds[bot.rng.below(len(cmds))], seat)
        decisions += 1
        if late is None and game.round == 7:
            late = game.copy()
    return decisions, late


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--hashes", type=int, default=2000)
    args = ap.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})  # one core
    play("warm-up")
    start = time.perf_counter()
    total = 0
    late = None
    for i in range(args.games):
        n, l = play(f"bench:{i}")
        total += n
        late = late or l
    elapsed = time.perf_counter() - start
    samples = []
    for _ in range(args.hashes):
        t = time.perf_counter()
        state_hash(late)
        samples.append(time.perf_counter() - t)
    print(json.dumps({
        "games": args.games,
        "players": 5,
        "games_per_second": round(args.games / elapsed, 1),
        "decisions_per_game": round(total / args.games, 1),
        "us_per_decision": round(elapsed / total * 1e6, 2),
        "state_hash_us": round(statistics.median(samples) * 1e6, 1),
        "state_hash_us_p90": round(sorted(samples)[int(len(samples) * 0.9)] * 1e6, 1),
        "targets": {"games_per_second": ">= 50", "state_hash_us": "<= 100"},
    }))


if __name__ == "__main__":
    main()
