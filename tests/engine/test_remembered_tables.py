"""The tables the legal list reads instead of working things out at every decision (issue 13):
the Thieves' remembered choices, and what a holding pays for (legal._PAYING, nested by wood,
stone, metal and gold). Each must give exactly what is worked out afresh."""

import pytest

from belfort import apply, legal, legal_commands, load_ruleset, new_game, parse_ruleset
from belfort import targets
from belfort.data import GUILD_PLANK, THIEVES
from belfort.prng import Prng
from belfort.targets import resource_caps


def thieves_afresh(game, seat, plank):
    saved = dict(targets._THIEVES)
    targets._THIEVES.clear()
    try:
        return targets.activation_options(game, seat, plank)
    finally:
        targets._THIEVES.clear()
        targets._THIEVES.update(saved)


@pytest.mark.parametrize("players", [3, 5])
def test_remembered_thieves_choices_are_those_worked_out_afresh(players):
    plank = GUILD_PLANK + THIEVES
    guilds = ["thieves", "bandits", "wizards", "merchants", "masons"]
    compared = 0
    for seed in range(4):
        game = new_game(players, {"guilds": guilds}, seed=f"thieves-{players}-{seed}")
        rng = Prng(f"thieves-{seed}", "random-bot")
        while not game.is_over():
            seat = game.waiting_for()[0]
            if game.phase == "actions":
                remembered = targets.activation_options(game, seat, plank)
                assert remembered == targets.activation_options(game, seat, plank)
                assert remembered == thieves_afresh(game, seat, plank)
                compared += 1
            cmds = legal_commands(game, seat)
            apply(game, cmds[rng.below(len(cmds))], seat)
    assert compared > 50


@pytest.mark.parametrize("ruleset", [
    load_ruleset(),
    load_ruleset("ten-space-taxes"),
    # a cap past the table's span: every holding goes through the capped path
    parse_ruleset('based_on = "standard"\n[properties.keep.cost]\nwood = 40\n'),
])
def test_what_a_holding_pays_for_is_read_as_worked_out(ruleset):
    caps = resource_caps(ruleset)
    legal._PAYING.pop(ruleset, None)
    for w in range(0, 36, 3):
        for st in range(0, 36, 5):
            for m in range(0, 9):
                for gold in range(0, 40, 2):
                    capped = tuple(min(r, cap) for r, cap in zip((w, st, m, gold), caps))
                    try:
                        found = legal._PAYING[ruleset][w][st][m][gold]
                    except (KeyError, IndexError):
                        found = legal._paying_capped(ruleset, [w, st, m, gold])
                    assert found == legal._paying(ruleset, capped), (w, st, m, gold)
