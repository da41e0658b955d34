"""Bot strength benchmark: seeded tournaments, printed as one JSON object.

    python scripts/bench_bots.py                       # the three targets, default sizes
    python scripts/bench_bots.py --games 40 --jobs 2 --hard-think 0.25
    python scripts/bench_bots.py --only easy           # one matchup
    python scripts/bench_bots.py --calibrate           # --think 1 decision times, 2-5 players
    python scripts/bench_bots.py --speed               # search playouts/s, 2-5 players
    python scripts/bench_bots.py --write-golden        # record the bots' choices (tests/bots)

Each matchup seats one bot of the tested level ("hero") against players-1 bots of the level
below, for --games games; the hero's seat rotates so every seat is played equally. A shared
victory (§11) counts as 1/k of a win. For each matchup the JSON gives the games, wins, win
rate with its 95% Wilson interval, and the mean thinking time per decision (hero and
opponents, wall clock, decisions with a single legal command included; for the search
levels also over the decisions that ran a search, the ones a think budget is about).

Targets (each level a step up for a player): easy >= 90% against 3 random; normal >= 40%
against 3 easy; hard >= 40% against 3 normal (25% is even). The beginner level is measured
against 3 easy (it is meant to lose to them: a careful first-timer should beat it about
half the time). Games are independent and seeded, so a run can be repeated exactly (timings aside).
"""

import argparse
import json
import math
import os
import sys
import time
from multiprocessing import Pool

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)

from belfort import apply, new_game  # noqa: E402
from belfort.bots import make_bot  # noqa: E402

MATCHUPS = {            # hero level: (opponent level, default games)
    "beginner": ("easy", 200),
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
    searched_s, searched_n = 0.0, 0       # the hero's decisions that ran a search
    while not game.is_over():
        seat = game.waiting_for()[0]
        before = getattr(bots[seat], "searches", 0)
        t0 = time.perf_counter()
        cmd = bots[seat].choose(game, seat)
        dt = time.perf_counter() - t0
        spent[seat] += dt
        decisions[seat] += 1
        if seat == pos and getattr(bots[seat], "searches", 0) > before:
            searched_s += dt
            searched_n += 1
        apply(game, cmd, seat)
    winners = game.result["winners"]
    share = 1.0 / len(winners) if pos in winners else 0.0
    others = [s for s in range(players) if s != pos]
    return {"share": share, "hero_s": spent[pos], "hero_n": decisions[pos],
            "search_s": searched_s, "search_n": searched_n,
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


def run_matchup(hero, games, players, seed, think, jobs, opp=None):
    opp = opp or MATCHUPS[hero][0]
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
        "hero_searched_decisions": sum(r["search_n"] for r in results),
        "hero_think_ms_when_searching": round(
            1000 * sum(r["search_s"] for r in results)
            / max(1, sum(r["search_n"] for r in results)), 3),
        "hero_mean_score": round(sum(r["hero_score"] for r in results) / games, 2),
        "best_opponent_mean_score": round(sum(r["best_other"] for r in results) / games, 2),
        "elapsed_s": round(time.perf_counter() - t0, 1),
    }


def calibrate(players_list=(2, 3, 4, 5), decisions=20, think=1.0, every=7):
    """The hard bot's wall time per searched decision at `think` seconds, per player count,
    with the current PLAYOUTS_PER_SECOND table; and the table that would make it `think`.
    Positions: games of the easy policy (with some noise), a decision every `every`-th.
    One process: in a game the bot thinks while the others wait. Times are wall clock and,
    beside them, this process's CPU time: on a shared machine others' load stretches the
    first, and the table is set from the second (what the machine gives one game)."""
    from belfort import legal_commands
    from belfort.bots.search import PLAYOUTS_PER_SECOND
    from belfort.prng import Prng
    out = {"think_s": think, "players": {}}
    for players in players_list:
        times, cpu, playouts, index = [], [], 0, 0
        while len(times) < decisions:
            seed = f"calibrate-{players}-{index}"
            game = new_game(players, {"guilds": "normal"}, seed=seed)
            easy = [make_bot("easy", f"{seed}/{s}") for s in range(players)]
            noise = Prng(seed, "noise")
            count = 0
            while not game.is_over() and len(times) < decisions:
                seat = game.waiting_for()[0]
                cmds = legal_commands(game, seat)
                count += 1
                if len(cmds) > 1 and count % every == 0:
                    hard = make_bot("hard", f"{seed}/{count}", think)
                    t0, c0 = time.perf_counter(), time.process_time()
                    hard.choose(game, seat)
                    dt = time.perf_counter() - t0
                    if hard.searches:
                        times.append(dt)
                        cpu.append(time.process_time() - c0)
                        playouts += hard.playouts_run
                cmd = easy[seat].choose(game, seat)
                if noise.below(8) == 0:
                    cmd = cmds[noise.below(len(cmds))]
                apply(game, cmd, seat)
            index += 1
        mean = sum(times) / len(times)
        mean_cpu = sum(cpu) / len(cpu)
        rate = PLAYOUTS_PER_SECOND[players]
        out["players"][str(players)] = {
            "searched_decisions": len(times), "playouts_per_second_table": rate,
            "mean_s": round(mean, 3), "median_s": round(sorted(times)[len(times) // 2], 3),
            "min_s": round(min(times), 3), "max_s": round(max(times), 3),
            "mean_cpu_s": round(mean_cpu, 3),
            "measured_playouts_per_cpu_second": round(playouts / sum(cpu), 1),
            "suggested_table_rate": round(rate * think / mean_cpu)}
    out["suggested_table"] = {int(k): v["suggested_table_rate"]
                              for k, v in out["players"].items()}
    return out


def speed(players_list=(2, 3, 4, 5), games=2, every=9, playouts=24):
    """Playouts per second of the hard bot's search (width, horizon and evaluation of the
    hard level, a fixed budget) in the same positions whatever the code's speed: games of
    the easy policy with some noise, searched every `every`-th decision with a choice.
    Single process, timed in CPU seconds of this process (others' load on a shared machine
    counts less); compare runs made side by side on the same machine."""
    from belfort import legal_commands
    from belfort.bots import HARD_HORIZON, HARD_WIDTH
    from belfort.bots.search import search
    from belfort.bots.view import own_view
    from belfort.prng import Prng
    out = {}
    for players in players_list:
        spent, runs, searches = 0.0, 0, 0
        for index in range(games):
            seed = f"speed-{players}-{index}"
            game = new_game(players, {"guilds": "normal"}, seed=seed)
            easy = [make_bot("easy", f"{seed}/{s}") for s in range(players)]
            noise = Prng(seed, "noise")
            decisions = 0
            while not game.is_over():
                seat = game.waiting_for()[0]
                cmds = legal_commands(game, seat)
                decisions += 1
                if len(cmds) > 1 and decisions % every == 0:
                    view = own_view(game, seat)
                    t0 = time.process_time()
                    _, used = search(view, seat, legal_commands(view, seat),
                                     Prng(seed, decisions), playouts, HARD_WIDTH,
                                     HARD_HORIZON, True)
                    spent += time.process_time() - t0
                    runs += used
                    searches += bool(used)
                cmd = easy[seat].choose(game, seat)
                if noise.below(8) == 0:
                    cmd = cmds[noise.below(len(cmds))]
                apply(game, cmd, seat)
        out[str(players)] = {"searches": searches, "playouts": runs,
                             "seconds": round(spent, 2),
                             "playouts_per_second": round(runs / spent, 1)}
    return out


def fit_games(args):
    """Feature rows at each round start of one game, with every seat's final score."""
    from belfort import legal_commands
    from belfort.bots import heuristic
    from belfort.bots.evaluate import features
    from belfort.prng import Prng
    players, index = args
    game = new_game(players, {"guilds": "normal"}, seed=f"fit-{players}-{index}")
    rng = Prng("fit", players, index)
    rows = []        # (round, seat, features)
    last = game.round
    while not game.is_over():
        seat = game.waiting_for()[0]
        cmds = legal_commands(game, seat)
        if rng.below(10) == 0:
            cmd = cmds[rng.below(len(cmds))]      # some noise: a wider range of positions
        else:
            cmd = heuristic.choose(game, seat, rng)
        apply(game, cmd, seat)
        if game.round != last and not game.is_over():
            last = game.round
            for q, f in enumerate(features(game)):
                rows.append((game.round, q, f))
    final = [p.score for p in game.players]
    return [(r, f, final[q]) for r, q, f in rows]


def solve(rows, ridge=1.0):
    """Least squares with a little ridge: weights w minimising |Xw - y|² + ridge|w|²."""
    k = len(rows[0][0])
    a = [[0.0] * k for _ in range(k)]
    b = [0.0] * k
    for x, y in rows:
        for i in range(k):
            b[i] += x[i] * y
            xi = x[i]
            row = a[i]
            for j in range(k):
                row[j] += xi * x[j]
    for i in range(1, k):        # the bias is not shrunk
        a[i][i] += ridge
    # Gauss-Jordan elimination with partial pivoting.
    m = [a[i] + [b[i]] for i in range(k)]
    for c in range(k):
        piv = max(range(c, k), key=lambda r: abs(m[r][c]))
        m[c], m[piv] = m[piv], m[c]
        if abs(m[c][c]) < 1e-12:
            continue
        for r in range(k):
            if r != c and m[r][c]:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c])]
    return [m[i][k] / m[i][i] if abs(m[i][i]) > 1e-12 else 0.0 for i in range(k)]


def fit_eval(games, jobs):
    """Fit the learned evaluation's weights; prints belfort/bots/learned.py's WEIGHTS."""
    weights = {}
    report = {}
    for players in (2, 3, 4, 5):
        tasks = [(players, i) for i in range(games)]
        if jobs > 1:
            with Pool(jobs) as pool:
                parts = pool.map(fit_games, tasks, chunksize=8)
        else:
            parts = [fit_games(t) for t in tasks]
        by_round = {}
        for part in parts:
            for r, f, y in part:
                by_round.setdefault(r, []).append((f, y))
        for r, rows in sorted(by_round.items()):
            w = solve(rows)
            weights[(players, r)] = tuple(round(x, 4) for x in w)
            # How well it predicts, against the hand-made estimate alone (last feature).
            err = sum((sum(a * b for a, b in zip(w, f)) - y) ** 2 for f, y in rows) / len(rows)
            base = sum((f[-1] - y) ** 2 for f, y in rows) / len(rows)
            report[f"{players}p round {r}"] = {"rows": len(rows), "rmse": round(err ** 0.5, 2),
                                               "handmade_rmse": round(base ** 0.5, 2)}
    print(json.dumps(report, indent=1), file=sys.stderr)
    print(format_weights(weights))


def format_weights(weights):
    """The WEIGHTS literal for learned.py, wrapped at 96 columns."""
    lines = ["WEIGHTS = {"]
    for key in sorted(weights):
        line = f"    {key}: ("
        for i, w in enumerate(weights[key]):
            item = f"{w}, " if i + 1 < len(weights[key]) else f"{w}),"
            if len(line) + len(item) > 96:
                lines.append(line.rstrip())
                line = "        "
            line += item
        lines.append(line)
    lines.append("}")
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=None,
                    help="games per matchup (default: 200 beginner and easy, 100 normal, "
                         "40 hard)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", default="bench")
    ap.add_argument("--hard-think", type=float, default=0.25,
                    help="the hard bot's think budget in seconds (default 0.25, so that the "
                         "default run ends in about 15 minutes on 2 cores; the game default is 1)")
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--only", choices=sorted(MATCHUPS), action="append",
                    help="run only this matchup (repeatable)")
    ap.add_argument("--against", choices=("random", "beginner", "easy", "normal", "hard"),
                    help="the opponents' level (default: the level below the hero's)")
    ap.add_argument("--calibrate", action="store_true",
                    help="measure the hard bot's time per decision at --think seconds at 2-5 "
                         "players, suggest PLAYOUTS_PER_SECOND, and exit")
    ap.add_argument("--think", type=float, default=1.0,
                    help="with --calibrate: the think budget measured (default 1 s)")
    ap.add_argument("--speed", action="store_true",
                    help="measure the search's playouts per second at 2-5 players and exit")
    ap.add_argument("--write-golden", action="store_true",
                    help="record the bots' choices in tests/bots/golden_choices.json and exit")
    ap.add_argument("--fit-eval", type=int, metavar="GAMES",
                    help="fit the learned evaluation on GAMES games per player count, print "
                         "the weights for belfort/bots/learned.py and exit")
    args = ap.parse_args(argv)
    if args.fit_eval:
        fit_eval(args.fit_eval, args.jobs)
        return
    if args.speed:
        print(json.dumps(speed(), indent=2))
        return
    if args.write_golden:
        sys.path.insert(0, os.path.join(ROOT, "tests", "bots"))
        import bots_golden as golden
        cases = golden.write_golden()
        print(json.dumps({"file": str(golden.GOLDEN_FILE), "cases": len(cases)}))
        return
    if args.calibrate:
        print(json.dumps(calibrate(think=args.think), indent=2))
        return
    out = {"players": args.players, "seed": args.seed, "jobs": args.jobs, "matchups": []}
    for hero in args.only or list(MATCHUPS):
        games = args.games if args.games is not None else MATCHUPS[hero][1]
        out["matchups"].append(run_matchup(hero, games, args.players, args.seed,
                                           args.hard_think, args.jobs, args.against))
        print(json.dumps(out["matchups"][-1]), file=sys.stderr, flush=True)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
