"""Random-bot games from the command line.

    python -m belfort.sim --players 5 --games 500 --seed 7

prints one JSON object: games, players, errors, decisions per game (mean), games per second.
With --check every command also goes through its text form and back, and every state
through serialization, so the run doubles as a consistency check.
"""

from __future__ import annotations

import argparse
import json
import sys
import time  # allowed: this command-line runner reports games per second; no rule reads a clock
import traceback
from collections.abc import Sequence

from . import apply, command_text, legal_commands, new_game, parse_command
from .prng import Prng
from .serialize import from_json, to_json
from .state import GameState
from .views import state_hash


def play(players: int, seed: str, guilds: str, check: bool = False) -> tuple[GameState, int]:
    game = new_game(players, {"guilds": guilds}, seed=seed)
    rng = Prng(seed, "random-bot")      # uniform random choices
    decisions = 0
    while not game.is_over():
        seat = game.waiting_for()[0]
        cmds = legal_commands(game, seat)
        cmd = cmds[rng.below(len(cmds))]
        if check:
            text = command_text(cmd)
            if parse_command(text) != cmd:
                raise AssertionError(f"text form {text!r} does not parse back to {cmd!r}")
        apply(game, cmd, seat)
        decisions += 1
        if check and decisions % 50 == 0:
            if state_hash(from_json(to_json(game))) != state_hash(game):
                raise AssertionError("serialization changed the state hash")
    return game, decisions


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m belfort.sim", description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, default=4, choices=range(2, 6))
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", default="0")
    ap.add_argument("--guilds", default="normal", choices=("beginner", "normal", "advanced"))
    ap.add_argument("--check", action="store_true", help="also check text and serialization")
    args = ap.parse_args(argv)
    errors = 0
    total = 0
    first_error = None
    start = time.perf_counter()
    for i in range(args.games):
        try:
            _, n = play(args.players, f"{args.seed}:{i}", args.guilds, args.check)
            total += n
        except Exception:  # counted and reported: the point of the run is to find these
            errors += 1
            if first_error is None:
                first_error = f"game {i}: " + traceback.format_exc(limit=4)
    elapsed = time.perf_counter() - start
    out = {"games": args.games, "players": args.players, "guilds": args.guilds,
           "errors": errors, "decisions_per_game": round(total / max(1, args.games - errors), 1),
           "games_per_second": round(args.games / elapsed, 1) if elapsed else None}
    if first_error:
        out["first_error"] = first_error
    print(json.dumps(out))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
