"""§14 Wizards, Bandits, Architects and Thieves: their choices are remembered by what they
depend on (targets.py: the markers of each swap group, the others' holdings up to the Bandits'
limit, the discounts a player's resources can pay, the other seats with gold), and so is what
a player's resources pay for in the Actions list (legal.py). A remembered answer must be
exactly the one worked out afresh, in every position random games reach, whatever positions
came before."""

import functools

import pytest

from belfort import apply, legal, legal_commands, new_game
from belfort import targets
from belfort.data import ARCHITECTS, BANDITS, GUILD_PLANK, THIEVES, WIZARDS
from belfort.prng import Prng

DICT_MEMOS = (targets._GATE_SWAPS, legal._PAYING, legal._GUILD_ROWS)
# (module, name) of every functools cache these answers go through: replaced by empty caches
# while the answer is worked out afresh, then put back with their entries intact.
CACHED = ((targets, "_wizard_swaps"), (targets, "_bandits_from"), (targets, "_bandits_each"),
          (targets, "_architect_codes_capped"), (targets, "_thieves_choices"),
          (targets, "resource_caps"), (legal, "resource_caps"), (legal, "_paying_memo"))


def worked_out_afresh(game, seat, plank):
    """The choices with every memo empty; the memos are then given back as they were."""
    saved = [dict(memo) for memo in DICT_MEMOS]
    for memo in DICT_MEMOS:
        memo.clear()
    caches = [getattr(module, name) for module, name in CACHED]
    for (module, name), fn in zip(CACHED, caches):
        setattr(module, name, functools.lru_cache(maxsize=None)(fn.__wrapped__))
    try:
        if plank is None:
            game.changed()
            return legal_commands(game, seat)
        return targets.activation_options(game, seat, plank)
    finally:
        for memo, entries in zip(DICT_MEMOS, saved):
            memo.clear()
            memo.update(entries)
        for (module, name), fn in zip(CACHED, caches):
            setattr(module, name, fn)


def test_the_memos_are_functools_caches():
    """The plain memos are functools caches (bounded where their keys vary with the game)."""
    for module, name in CACHED:
        assert hasattr(getattr(module, name), "cache_info"), name


GUILD_SETS = {   # the guilds of a game, those whose remembered choices are compared, games
    "architects": (["architects", "bandits", "wizards", "merchants", "masons"],
                   (ARCHITECTS, BANDITS, WIZARDS), 6),
    "thieves": (["thieves", "bandits", "wizards", "merchants", "masons"], (THIEVES,), 3),
}


@pytest.mark.parametrize("guild_set", sorted(GUILD_SETS))
@pytest.mark.parametrize("players", [3, 4, 5])   # Bandits: not with 2 players (§12)
def test_remembered_choices_are_those_worked_out_afresh(players, guild_set):
    guilds, compared_guilds, games = GUILD_SETS[guild_set]
    planks = [GUILD_PLANK + g for g in compared_guilds]
    compared = 0
    for seed in range(games):
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
            assert cmds == worked_out_afresh(game, seat, None)
            apply(game, cmds[rng.below(len(cmds))], seat)
    assert compared > 100


@pytest.mark.parametrize("players", [3, 5])
def test_remembered_bandit_choices_are_those_of_the_plain_enumeration(players):
    """§14 Bandits: the choices remembered in two parts (robbing one seat, robbing several)
    are, in order, those of the one-piece enumeration over the others' holdings."""
    plank = GUILD_PLANK + BANDITS
    compared = 0
    for seed in range(4):
        game = new_game(players, {"guilds": "advanced"}, seed=f"bandits-{players}-{seed}")
        rng = Prng(f"bandits-{seed}", "random-bot")
        rs = game.rs
        cap = max(rs.bandits_one, 1)
        while not game.is_over():
            seat = game.waiting_for()[0]
            if game.phase == "actions":
                holdings = tuple((q, min(r[0], cap), min(r[1], cap), r[2] >= 1)
                                 for q, r in ((q, game.players[q].res) for q in range(game.n))
                                 if q != seat)
                expected = targets._bandit_options(plank, rs.bandits_one, rs.max_targets,
                                                   holdings)
                assert targets._bandits(game, seat, plank) == expected
                compared += 1
            cmds = legal_commands(game, seat)
            apply(game, cmds[rng.below(len(cmds))], seat)
    assert compared > 50
