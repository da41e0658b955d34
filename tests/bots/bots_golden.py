"""Golden choices: what each bot policy chooses in a fixed set of positions, so that a pure
speed-up of the bots can be shown to change no choice (tests/bots/test_golden_choices.py).

Each case is a whole game played by the easy policy with a random command one time in
eight (a wider range of positions). At every decision the quick levels' choices are
recorded (as a digest of the whole sequence); every EVERY-th decision with a choice, the
search is also run at the normal and hard settings with fixed budgets (a playout count,
not seconds, so the record does not depend on the calibration of PLAYOUTS_PER_SECOND).

Written by `python scripts/bench_bots.py --write-golden` into golden_choices.json; rewrite
it only when a change is meant to change the bots' choices, and say so in the commit.
"""

import hashlib
import json
from pathlib import Path

from belfort import apply, legal_commands, new_game
from belfort.bots import make_bot
from belfort.bots.search import search
from belfort.bots.view import own_view
from belfort.prng import Prng

GOLDEN_FILE = Path(__file__).resolve().parent / "golden_choices.json"
CASES = [(players, guilds) for players in (2, 3, 4, 5) for guilds in ("normal", "advanced")]
QUICK_LEVELS = ("random", "beginner", "easy")
SEARCHES = {"normal": (8, 4, False), "hard": (12, 6, True)}   # playouts, width, learned
EVERY = 29


def encode(cmd):
    return json.dumps(cmd, separators=(",", ":"))


def case_choices(players, guilds):
    """The record of one case (a plain dict, as stored in the golden file)."""
    seed = f"golden-{players}-{guilds}"
    game = new_game(players, {"guilds": guilds}, seed=seed)
    bots = {level: [make_bot(level, f"{seed}/{s}") for s in range(players)]
            for level in QUICK_LEVELS}
    digests = {level: hashlib.sha256() for level in QUICK_LEVELS}
    noise = Prng(seed, "noise")
    searches = []
    decisions = 0
    while not game.is_over():
        seat = game.waiting_for()[0]
        cmds = legal_commands(game, seat)
        choices = {level: bots[level][seat].choose(game, seat) for level in QUICK_LEVELS}
        for level, choice in choices.items():
            digests[level].update(encode(choice).encode() + b"\n")
        decisions += 1
        if len(cmds) > 1 and decisions % EVERY == 0:
            view = own_view(game, seat)
            for level, (playouts, width, learned) in SEARCHES.items():
                choice, used = search(view, seat, legal_commands(view, seat),
                                      Prng(seed, level, decisions), playouts, width, "round",
                                      learned)
                searches.append([decisions, level, encode(choice), used])
        cmd = choices["easy"]
        if noise.below(8) == 0:
            cmd = cmds[noise.below(len(cmds))]
        apply(game, cmd, seat)
    return {"players": players, "guilds": guilds, "decisions": decisions,
            "sha256": {level: d.hexdigest() for level, d in digests.items()},
            "searches": searches}


def all_cases():
    return [case_choices(players, guilds) for players, guilds in CASES]


def write_golden(path=GOLDEN_FILE):
    cases = all_cases()
    Path(path).write_text(json.dumps(cases, indent=1) + "\n")
    return cases
