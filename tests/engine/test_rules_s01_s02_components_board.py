"""§1 Components and vocabulary, §2 Board layout."""

import pytest

from belfort import SetupError, apply, new_game, public_view
from belfort.data import (CARD_TYPES, DISTRICTS, GATEHOUSE, KEEP, SITE_DISTRICT, SITE_ID,
                          SITE_TYPE, SITES_OF_TYPE, WALL_SITES)
from belfort.scoring import district_markers
from scenario import mark, res, set_res, start, to_actions


# --- §1 -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("n", [0, 1, 6, 7])
def test_s1_two_to_five_players(n):
    """§1: 2–5 players."""
    with pytest.raises(SetupError):
        new_game(n, seed=1)


@pytest.mark.parametrize("n, gnomes", [(2, 9), (3, 14), (4, 18), (5, 22)])
def test_s1_gnome_supply_and_crests_by_player_count(n, gnomes):
    """§1 / §3.5: 9 / 14 / 18 / 22 gnomes; crests numbered 1…N, one each."""
    g = new_game(n, seed=f"s1-{n}")
    assert g.gnome_supply == gnomes
    assert sorted(g.crest) == list(range(1, n + 1))


def test_s1_deck_has_five_cards_of_each_of_ten_types():
    """§1 / §13: 50 cards, 5 of each of 10 types."""
    g = new_game(4, seed="deck")
    assert len(g.types) == 50
    assert sorted(g.types) == sorted(list(range(10)) * 5)
    assert len(CARD_TYPES) == 10


def test_s1_seven_elves_and_seven_dwarves_per_colour():
    """§1: 7 elves and 7 dwarves per colour: 3 of each in play, 4 in the reserve."""
    g = new_game(3, seed=1)
    v = public_view(g)["players"][0]
    assert (v["elves"], v["dwarves"], v["reserve_elves"], v["reserve_dwarves"]) == (3, 3, 4, 4)


def test_s1_markers_are_not_limited_to_twelve():
    """§1 / Data: 12 property markers, but not a limit (substitutes are used)."""
    g = start(3)
    sites = [x for x in SITE_ID if x.startswith(("pub@", "gardens@", "tower@"))][:12]
    mark(g, 0, *sites)
    to_actions(g)
    set_res(g, 0, 3, 3, 0, 0)
    apply(g, "wall wall@0a", 0)
    assert sum(1 for x in g.board if x == 0) == 13


def test_s1_resources_are_unlimited():
    """§1: the supply is unlimited: a resource guild always yields in full."""
    g = start(3, guilds=("sawyers", "miners", "bankers", "masons", "merchants"))
    apply(g, "place elf sawyers", 0)
    to_actions(g)
    set_res(g, 0, 1000, 0, 0, 0)
    apply(g, "activate sawyers", 0)
    assert res(g, 0)[0] == 1004


def test_s1_gnomes_are_never_placed_on_planks():
    """§1: gnomes never go on planks: there is no such worker to place."""
    from belfort import CommandSyntaxError
    g = start(3)
    with pytest.raises(CommandSyntaxError):
        apply(g, "place gnome desk", 0)


# --- §2 -------------------------------------------------------------------------------------------

def test_s2_each_district_has_one_symbol_per_type_a_keep_two_walls_a_guild():
    """§2 Decision: each district has one symbol each of Pub, Gardens, Tower, Inn,
    Blacksmith, Bank, Market, Library; one Keep section; two walls; one guild slot."""
    for d in range(DISTRICTS):
        here = [x for x in range(len(SITE_TYPE)) if SITE_DISTRICT[x] == d]
        types = [SITE_TYPE[x] for x in here]
        for t in ("pub", "gardens", "tower", "inn", "blacksmith", "bank", "market", "library"):
            assert types.count(CARD_TYPES.index(t)) == 1
        assert types.count(KEEP) == 1
        assert types.count("wall") == 2
        assert types.count("guild") == 1
        assert types.count(GATEHOUSE) == 2          # one symbol of each of two gatehouses


def test_s2_five_symbols_per_type_matching_five_cards():
    """§2: per type exactly 5 places (keeps: 5 sections; gatehouses: 5 of 2 symbols)."""
    for t in range(10):
        n = len(SITES_OF_TYPE[t])
        assert n == (10 if t == GATEHOUSE else 5)
    assert len(WALL_SITES) == 10


def test_s2_gatehouse_g_spans_districts_g_and_g_plus_one():
    """§2: gatehouse g spans district g and g+1 mod 5; a marker counts for the district
    its symbol lies in."""
    for gh in range(5):
        a, b = SITE_ID[f"gate{gh}@{gh}"], SITE_ID[f"gate{gh}@{(gh + 1) % 5}"]
        assert (SITE_DISTRICT[a], SITE_DISTRICT[b]) == (gh, (gh + 1) % 5)
    g = start(3)
    mark(g, 1, "gate4@0")
    counts = district_markers(g)
    assert counts[0][1] == 1 and counts[4][1] == 0


def test_s2_keep_section_counts_two_symbols():
    """§2: a keep section is two symbols, built and counted together."""
    g = start(3)
    mark(g, 2, "keep@3")
    assert district_markers(g)[3][2] == 2
