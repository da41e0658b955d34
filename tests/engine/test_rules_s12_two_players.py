"""§12 Two-player game: guild restriction, the two non-players NP3/NP4 (control by crest),
the NP dwarves (setup, blocking, moving with gold to the guild's owner), NP turns (Decision
on unplaceable cards), NP scoring."""

import pytest

from belfort import (GUILDS, IllegalCommandError, SetupError, apply, legal_commands,
                     new_game)
from belfort.data import SITE_ID
from scenario import keep_all, mark, new, own_guild, res, run, snapshot, start, to_actions


def refused(g, text, seat, rule):
    before = snapshot(g)
    with pytest.raises(IllegalCommandError) as err:
        apply(g, text, seat)
    assert err.value.rule == rule, err.value
    assert snapshot(g) == before


def to_np_turn(g):
    return run(g, lambda s: s.phase == "np-turn")


def test_s12_only_wizards_among_the_interactive_guilds():
    """§12 / §3.1: with 2 players the only interactive guild allowed is Wizards."""
    with pytest.raises(SetupError):
        new_game(2, {"guilds": ["merchants", "miners", "architects", "sawyers", "thieves"]})
    for mode in ("beginner", "normal", "advanced"):
        for i in range(30):
            g = new_game(2, {"guilds": mode}, seed=f"2p-{mode}-{i}")
            names = [GUILDS[x] for x in g.guilds]
            assert not {"thieves", "bandits", "spies"} & set(names), names
            assert len(set(names)) == 5


def test_s12_np_setup_crest_1_first_on_different_guilds():
    """§12 setup: each player puts the dwarf of the NP they control on a guild, crest 1's
    holder first (NP3); Decision: the two NP dwarves must be on different guilds."""
    g = new(2, crests=[2, 1])
    keep_all(g)
    assert g.phase == "np-setup" and g.waiting_for() == [1]
    refused(g, "np-dwarf merchants", 0, "§12")
    apply(g, "np-dwarf architects", 1)
    assert g.waiting_for() == [0]
    refused(g, "np-dwarf architects", 0, "§12")
    apply(g, "np-dwarf wizards", 0)
    assert g.np_dwarf == [2, 4]           # NP3's dwarf on district 2, NP4's on district 4
    assert g.phase == "placement" and g.round == 1


def test_s12_no_player_may_place_on_a_guild_holding_an_np_dwarf():
    """§12 / §6: a guild holding an NP dwarf cannot be used."""
    g = start(2, np_guilds=("merchants", "miners"))
    refused(g, "place elf merchants", 0, "§12")
    refused(g, "place elf miners", 0, "§12")
    apply(g, "place elf architects", 0)


def test_s12_np_turns_after_actions_crest_1_plays_np3_then_crest_2_plays_np4():
    """§12 / §4: after the Actions phase, crest 1's holder plays NP3: takes a card from the
    pool (or the top of the draw pile), marks a free symbol of its type with NP3's marker,
    discards the card, the pool is refilled; then crest 2's holder plays NP4."""
    g = start(2, crests=[2, 1])
    to_actions(g)
    apply(g, "end", 1)
    apply(g, "end", 0)
    assert g.phase == "np-turn" and g.current == 1
    pool = list(g.pool)
    top = g.draw[-1]
    c = pool[0]
    kind = g.types[c]
    from belfort import CARD_TYPES
    apply(g, f"np-take #{c}", 1)
    assert g.current == 1 and g.step == "np-mark"
    site = next(x for x in SITE_ID if x.startswith(CARD_TYPES[kind] + "@"))
    apply(g, f"np-mark {site}", 1)
    assert g.board[SITE_ID[site]] == 2            # NP3 is competitor 2
    assert g.discard[-1] == c
    assert g.pool == pool[1:] + [top]
    assert g.current == 0                         # crest 2's holder, for NP4
    apply(g, "np-take top", 0)
    drawn = g.np_card
    assert g.public[drawn]
    site_cmd = legal_commands(g, 0)[0]
    apply(g, site_cmd, 0)
    if site_cmd[1] >= 0:
        assert g.board[site_cmd[1]] == 3          # NP4
    assert g.discard[-1] == drawn


def test_s12_np_control_follows_the_crest():
    """§12: the holder of crest 1 controls NP3; control follows the crest when it changes
    hands at the King's camp."""
    g = start(2)                                  # seat 0 crest 1, seat 1 crest 2
    apply(g, "pass", 0)
    apply(g, "spread elf forest=3 mine=0 gold=0", 0)
    apply(g, "spread dwarf quarry=3 mine=0 gold=0", 0)
    apply(g, "place elf camp", 1)
    run(g, lambda s: s.phase == "camp")
    apply(g, "crest 1", 1)
    assert g.crest == [2, 1]
    to_np_turn(g)
    assert g.current == 1                         # now plays NP3


def test_s12_np_crests_never_take_part_in_the_camp():
    """§12: NP crests (3, 4) never change and are never offered at the King's camp."""
    g = start(2)
    apply(g, "place elf camp", 0)
    run(g, lambda s: s.phase == "camp")
    assert {c[1] for c in legal_commands(g, 0)} == {1, 2}


def test_s12_decision_np_may_not_take_an_unplaceable_card_when_a_placeable_one_is_there():
    """§12 Decision: a controller who can see a placeable card in the pool may not choose an
    unplaceable one on purpose."""
    g = start(2)
    to_actions(g)
    apply(g, "end", 0)
    apply(g, "end", 1)
    from belfort import CARD_TYPES
    dead = g.pool[0]
    kind = CARD_TYPES[g.types[dead]]
    placeable = [c for c in g.pool if g.types[c] != g.types[dead]]
    assert placeable
    mark(g, 0, *[x for x in SITE_ID if x.startswith(kind + "@")])
    refused(g, f"np-take #{dead}", 0, "§12")
    assert ("np-take", dead) not in legal_commands(g, 0)


def test_s12_decision_unplaceable_card_places_nothing_and_is_discarded():
    """§12 Decision: if the chosen card has no legal symbol, the NP places nothing and the
    card is discarded."""
    g = start(2)
    to_actions(g)
    apply(g, "end", 0)
    apply(g, "end", 1)
    from belfort import CARD_TYPES
    for c in g.pool:                              # nothing in the pool can be placed
        kind = CARD_TYPES[g.types[c]]
        mark(g, 1, *[x for x in SITE_ID if x.startswith(kind + "@") or
                     (kind == "gatehouse" and x.startswith("gate"))])
    dead = g.pool[0]
    apply(g, f"np-take #{dead}", 0)
    assert legal_commands(g, 0) == [("np-mark", -1)]
    board = list(g.board)
    apply(g, "np-mark none", 0)
    assert g.board == board and g.discard[-1] == dead


def test_s12_np_dwarves_move_clockwise_and_pay_the_owner():
    """§12: after the NP turns each NP dwarf moves one guild clockwise; if a player owns
    that guild, that player gains 1 gold from the supply."""
    g = start(2, np_guilds=("sawyers", "wizards"))      # districts 3 and 4
    own_guild(g, 1, "merchants")                         # district 0
    to_np_turn(g)
    gold = res(g, 1)[3]
    run(g, lambda s: s.phase == "placement")
    assert g.np_dwarf == [4, 0]
    assert res(g, 1)[3] == gold + 1
    refused(g, "place elf merchants", g.current, "§12")
    assert ("place", 0, 100 + GUILDS.index("sawyers")) in legal_commands(g, g.current)


def test_s12_nps_never_pay_tax_and_never_win():
    """§12: NPs never pay tax and never win; only the two players have resources."""
    g = start(2)
    mark(g, 2, *[f"wall@{d}a" for d in range(5)])
    mark(g, 3, *[f"wall@{d}b" for d in range(5)])
    run(g, lambda s: s.is_over())
    assert len(g.players) == 2
    assert set(g.result["winners"]) <= {0, 1}
