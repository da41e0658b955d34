"""Belfort rules engine: deterministic, standard library only.

Public API (see docs/engine.md):

    game = new_game(["Ana", "Bo", "Cy"], {"guilds": "normal"}, seed=7)
    seats = game.waiting_for()                 # whose decision it is (several when simultaneous)
    cmds = legal_commands(game, seat)          # tuples like ("place", 0, 0)
    command_text(cmds[0])                      # 'place elf desk'
    events = apply(game, "place elf desk", seat)
    cmd, seat = check_legal(game, text, seat); execute(game, cmd, seat)   # check once, then run
    public_view(game), seat_view(game, seat)   # plain dicts
    state_hash(game)                           # SHA-256 hex of the public state
    to_json(game) / from_json(text)            # serialize and restore
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .apply import apply, execute, learn, reveal
from .commands import command_text, normalize, parse_command
from .data import CARD_TYPES, GUILDS, KINDS, RESOURCES, SITE_NAME
from .errors import BelfortError, CommandSyntaxError, IllegalCommandError, RulesetError
from .game import SetupError, new_game
from .phases import decision
from .hidden import determinize, redact
from .legal import check_legal, command_claims, is_legal, legal_commands, unknown_claims
from .position import PositionError, set_up
from .prng import Prng
from .ruleset import Ruleset, load_ruleset, parse_ruleset, standard_ruleset
from .serialize import from_json, to_json
from .state import GameState
from .views import public_view, seat_view, state_hash

if TYPE_CHECKING:
    from .bots import RandomBot
    from .commands import Command

__all__ = [
    "apply", "execute", "check_legal", "command_claims", "unknown_claims", "learn", "reveal",
    "RandomBot", "command_text", "normalize", "parse_command", "CARD_TYPES", "GUILDS", "KINDS",
    "RESOURCES", "SITE_NAME", "BelfortError", "CommandSyntaxError", "IllegalCommandError",
    "RulesetError", "SetupError", "PositionError", "new_game", "set_up", "decision", "is_legal",
    "legal_commands", "Ruleset", "load_ruleset", "parse_ruleset", "standard_ruleset",
    "from_json", "to_json", "GameState", "public_view", "seat_view", "state_hash",
    "play_random_game", "redact", "determinize", "Prng",
]


def __getattr__(name: str) -> type[RandomBot]:
    # The random bot is the bots package's (belfort.bots.RandomBot: a uniform choice from
    # the seat's own view); imported on first use so `import belfort` stays light.
    if name == "RandomBot":
        from .bots import RandomBot
        return RandomBot
    raise AttributeError(f"module 'belfort' has no attribute {name!r}")


def play_random_game(players: int | Sequence[str], seed: bytes | str | int, guilds: str = "normal",
                     ruleset: Ruleset | None = None, bot_seed: bytes | str | int | None = None
                     ) -> tuple[GameState, list[tuple[int, Command]]]:
    """A whole game of uniform random choices (the stream `Prng(bot_seed or seed,
    "random-bot")`); returns (final state, list of (seat, command))."""
    game = new_game(players, {"guilds": guilds}, seed=seed, ruleset=ruleset)
    rng = Prng(seed if bot_seed is None else bot_seed, "random-bot")
    log = []
    while not game.is_over():
        seat = game.waiting_for()[0]
        cmds = legal_commands(game, seat)
        cmd = cmds[rng.below(len(cmds))]
        apply(game, cmd, seat)
        log.append((seat, cmd))
    return game, log
