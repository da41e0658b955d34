"""§14 Wizards, Bandits and Architects: their choices are remembered by what they depend on
(targets.py: the markers of each swap group, the others' holdings up to the Bandits' limit,
the discounts a player's resources can pay). A remembered answer must be exactly the one
worked out afresh, in every position random games reach, whatever positions came before."""

import pytest

from belfort import apply, legal_commands, new_game
from belfort import targets
from belfort.data import ARCHITECTS, BANDITS, GUILD_PLANK, WIZARDS
from belfort.prng import Prng

MEMOS = (targets._SWAPS, targets._GATE_SWAPS, targets._BANDITS, targets._ARCHITECT_CODES)


def worked_out_afresh(game, seat, plank):
    """The choices with every memo empty; the memos are then given back as they were."""
    saved = [dict(memo) for memo in MEMOS]
    for memo in MEMOS:
        memo.clear()
    try:
        return targets.activation_options(game, seat, plank)
    finally:
        for memo, entries in zip(MEMOS, saved):
            memo.clear()
            memo.update(entries)


@pytest.mark.parametrize("players", [3, 4, 5])   # Bandits: not with 2 players (§12)
def test_remembered_choices_are_those_worked_out_afresh(players):
    guilds = ["architects", "bandits", "wizards", "merchants", "masons"]
    planks = [GUILD_PLANK + g for g in (ARCHITECTS, BANDITS, WIZARDS)]
    compared = 0
    for seed in range(6):
        game = new_game(players, {"guilds": guilds}, seed=f"memo-{players}-{seed}")
        rng = Prng(f"memo-{seed}", "random-bot")
        while not game.is_over():
            seat = game.waiting_for()[0]
            if game.phase == "actions":
                for plank in planks:
                    remembered = targets.activation_options(game, seat, plank)
                    again = targets.activation_options(game, seat, plank)
                    assert remembered == again == worked_out_afresh(game, seat, plank), \
                        (plank, game.round)
                    compared += 1
            cmds = legal_commands(game, seat)
            apply(game, cmds[rng.below(len(cmds))], seat)
    assert compared > 100
