"""Bot strength benchmark: seeded tournaments, printed as one JSON object.

    python scripts/bench_bots.py                       # the three targets, default sizes
    python scripts/bench_bots.py --games 40 --jobs 2 --hard-think 0.25
    python scripts/bench_bots.py --only easy           # one matchup
    python scripts/bench_bots.py --calibrate           # playouts per second on this machine

Each matchup seats one bot of the tested level ("hero") against players-1 bots of the level
below, for --games games; the hero's seat rotates so every seat is played equally. A shared
victory (§11) counts as 1/k of a win. For each matchup the JSON gives the games, wins, win
rate with its 95% Wilson interval, and the mean thinking time per decision (hero and
opponents, wall clock, decisions with a single legal command included).

Targets (the bots issue): easy >= 90% against 3 random; normal >= 40% against 3 easy; hard
>= 40% against 3 normal (25% is even). Games are independent and seeded, so a run can be
repeated exactly (timings aside).
"""

import argparse
import json
import math
import os
import sys
import time
from multiprocessing import Pool

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from belfort import apply, new_game  # noqa: E402
from belfort.bots import make_bot  # noqa: E402

MATCHUPS = {            # hero level: (opponent level, default games)
    "easy": ("random", 200),
    "normal": ("easy", 100),
    "hard": ("normal", 40),
}


def play_game(args):
    """One game; returns the hero's share of the win and the timing totals."""
    hero, opp, players, index, seed, think = args
    pos = index % players
    levels = [opp] * players
    levels[pos] = hero
    game = new_game(players, {"guilds": "normal"}, seed=f"{seed}-{hero}-{index}")
    bots = [make_bot(level, f"{seed}-{index}-{s}", think) for s, level in enumerate(levels)]
    spent = [0.0] * players
    decisions = [0] * players
    while not game.is_over():
        seat = game.waiting_for()[0]
        t0 = time.perf_counter()
        cmd = bots[seat].choose(game, seat)
        spent[seat] += time.perf_counter() - t0
        decisions[seat] += 1
        apply(game, cmd, seat)
    winners = game.result["winners"]
    share = 1.0 / len(winners) if pos in winners else 0.0
    others = [s for s in range(players) if s != pos]
    return {"share": share, "hero_s": spent[pos], "hero_n": decisions[pos],
            "opp_s": sum(spent[s] for s in others), "opp_n": sum(decisions[s] for s in others),
            "hero_score": game.players[pos].score,
            "best_other": max(game.players[s].score for s in others)}


def wilson(wins, n, z=1.96):
    """95% Wilson score interval for a proportion."""
    if n == 0:
        return [0.0, 1.0]
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return [round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4)]


def run_matchup(hero, games, players, seed, think, jobs):
    opp = MATCHUPS[hero][0]
    tasks = [(hero, opp, players, i, seed, think) for i in range(games)]
    t0 = time.perf_counter()
    if jobs > 1:
        with Pool(jobs) as pool:
            results = pool.map(play_game, tasks, chunksize=1)
    else:
        results = [play_game(t) for t in tasks]
    wins = sum(r["share"] for r in results)
    hero_n = sum(r["hero_n"] for r in results)
    opp_n = sum(r["opp_n"] for r in results)
    return {
        "hero": hero, "opponents": opp, "players": players, "games": games,
        "think_s": think if hero == "hard" else None,
        "wins": round(wins, 3), "win_rate": round(wins / games, 4),
        "wilson95": wilson(wins, games), "even_rate": round(1 / players, 4),
        "hero_think_ms": round(1000 * sum(r["hero_s"] for r in results) / max(1, hero_n), 3),
        "opponent_think_ms": round(1000 * sum(r["opp_s"] for r in results) / max(1, opp_n), 3),
        "hero_mean_score": round(sum(r["hero_score"] for r in results) / games, 2),
        "best_opponent_mean_score": round(sum(r["best_other"] for r in results) / games, 2),
        "elapsed_s": round(time.perf_counter() - t0, 1),
    }


def calibrate(players=4, decisions=40):
    """Playouts per second of the hard bot's search on this machine."""
    from belfort.bots import heuristic
    from belfort.bots.search import playout
    from belfort.hidden import determinize, redact
    from belfort.prng import Prng
    game = new_game(players, {}, seed="calibrate")
    easy = make_bot("easy", 0)
    count, spent = 0, 0.0
    step = 0
    while not game.is_over():
        seat = game.waiting_for()[0]
        if step % 7 == 0 and count < decisions:
            view = redact(game, seat)
            t0 = time.perf_counter()
            for i in range(10):
                sim = determinize(view, Prng(i, "cal"))
                cmd = heuristic.choose(sim, seat, Prng(i))
                apply(sim, cmd, seat)
                playout(sim, Prng(i, "p"), max(sim.round, 1))
            spent += time.perf_counter() - t0
            count += 10
        apply(game, easy.choose(game, seat), seat)
        step += 1
    return {"playouts": count, "seconds": round(spent, 3),
            "playouts_per_second": round(count / spent, 1)}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=None,
                    help="games per matchup (default: 200 easy, 100 normal, 40 hard)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", default="bench")
    ap.add_argument("--hard-think", type=float, default=0.25,
                    help="the hard bot's think budget in seconds (default 0.25, so that the "
                         "default run ends in about 15 minutes on 2 cores; the game default is 1)")
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--only", choices=sorted(MATCHUPS), action="append",
                    help="run only this matchup (repeatable)")
    ap.add_argument("--calibrate", action="store_true",
                    help="measure the search's playouts per second and exit")
    args = ap.parse_args(argv)
    if args.calibrate:
        print(json.dumps(calibrate(args.players), indent=2))
        return
    out = {"players": args.players, "seed": args.seed, "jobs": args.jobs, "matchups": []}
    for hero in args.only or list(MATCHUPS):
        games = args.games if args.games is not None else MATCHUPS[hero][1]
        out["matchups"].append(run_matchup(hero, games, args.players, args.seed,
                                           args.hard_think, args.jobs))
        print(json.dumps(out["matchups"][-1]), file=sys.stderr, flush=True)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
