"""§3 Setup: guilds by mode, starting material, the deal and the simultaneous keep-3
(Decision), crests, gnome supply, calendar and pool."""

import pytest

from belfort import GUILDS, IllegalCommandError, SetupError, apply, new_game, standard_ruleset
from scenario import keep_text, new, snapshot

CATS = ("basic", "resource", "interactive")


def categories(g):
    rs = standard_ruleset()
    return sorted(CATS[rs.guild_category[x]] for x in g.guilds)


@pytest.mark.parametrize("i", range(10))
def test_s3_1_beginner_three_resource_two_basic(i):
    """§3.1 beginner: 3 resource + 2 basic guilds, random."""
    g = new_game(4, {"guilds": "beginner"}, seed=f"beg-{i}")
    assert categories(g) == ["basic"] * 2 + ["resource"] * 3


@pytest.mark.parametrize("i", range(10))
def test_s3_1_normal_one_resource_two_basic_two_interactive(i):
    """§3.1 normal (the default): 1 resource + 2 basic + 2 interactive."""
    g = new_game(4, {}, seed=f"norm-{i}")
    assert categories(g) == ["basic"] * 2 + ["interactive"] * 2 + ["resource"]


def test_s3_1_advanced_five_of_twelve_or_an_agreed_list():
    """§3.1 advanced: 5 random from all 12, or a list the players agree on."""
    seen = set()
    for i in range(40):
        g = new_game(5, {"guilds": "advanced"}, seed=f"adv-{i}")
        assert len(set(g.guilds)) == 5
        seen |= set(g.guilds)
    assert len(seen) == 12
    agreed = ["spies", "masons", "librarians", "bandits", "bankers"]
    g = new_game(3, {"guilds": agreed}, seed=1)
    assert [GUILDS[x] for x in g.guilds] == agreed
    with pytest.raises(SetupError):
        new_game(3, {"guilds": agreed[:4]}, seed=1)
    with pytest.raises(SetupError):
        new_game(3, {"guilds": agreed[:4] + ["spies"]}, seed=1)


def test_s3_guilds_and_crests_are_random_by_the_shared_seed():
    """§3.1 / §3.4: random by the shared seed: the same seed gives the same setup."""
    a = [(new_game(4, seed=f"s-{i}").guilds, tuple(new_game(4, seed=f"s-{i}").crest))
         for i in range(20)]
    b = [(new_game(4, seed=f"s-{i}").guilds, tuple(new_game(4, seed=f"s-{i}").crest))
         for i in range(20)]
    assert a == b
    assert len({x[0] for x in a}) > 1 and len({x[1] for x in a}) > 1


def test_s3_2_starting_material():
    """§3.2: 3 elves and 3 dwarves in play, score 0, 1 wood 1 stone 1 metal 5 gold."""
    g = new_game(5, seed=2)
    for p in g.players:
        assert (p.elves, p.dwarves, p.score, p.res) == (3, 3, 0, [1, 1, 1, 5])


def test_s3_3_deal_five_keep_three_discard_two_face_up():
    """§3.3: 5 cards each; each keeps 3 and discards 2 face up to the discard pile."""
    g = new(3)
    assert [sorted(p.hand) for p in g.players] == [list(range(5 * s, 5 * s + 5)) for s in range(3)]
    for seat in range(3):
        apply(g, keep_text(g, seat), seat)
    assert [sorted(p.hand) for p in g.players] == [[0, 1, 2], [5, 6, 7], [10, 11, 12]]
    assert g.discard == [3, 4, 8, 9, 13, 14]
    assert all(g.public[c] for c in g.discard)
    assert not any(g.public[c] for p in g.players for c in p.hand)


def test_s3_3_decision_discards_revealed_together():
    """§3.3 Decision: the choices are simultaneous; the discards are revealed together once
    all have chosen (a seat that has chosen can be waited on by nobody)."""
    g = new(3)
    assert g.waiting_for() == [0, 1, 2]
    apply(g, keep_text(g, 1), 1)
    assert g.waiting_for() == [0, 2]
    assert g.discard == [] and not any(g.public)
    apply(g, keep_text(g, 2), 2)
    assert g.discard == []
    apply(g, keep_text(g, 0), 0)
    assert len(g.discard) == 6


def test_s3_3_keep_exactly_three_of_ones_own_cards():
    g = new(3)
    before = snapshot(g)
    for text in ("keep #0 #1 drop #2:tower #3:inn #4:blacksmith",
                 "keep #0 #1 #2 #3 drop #4:blacksmith",
                 "keep #0 #1 #5 drop #3:inn #4:blacksmith",
                 "keep #0 #1 #2 drop #3:inn"):
        with pytest.raises(IllegalCommandError) as err:
            apply(g, text, 0)
        assert err.value.rule == "§3"
    assert snapshot(g) == before


def test_s3_5_calendar_before_month_one_and_pool_of_three():
    """§3.5: the calendar stands before month 1 during setup; the pool is 3 face-up cards
    after the keep; round 1 then begins (§5)."""
    g = new(4)
    assert g.round == 0 and g.pool == []
    for seat in range(4):
        apply(g, keep_text(g, seat), seat)
    assert g.pool == [20, 21, 22] and all(g.public[c] for c in g.pool)
    assert g.round == 1 and g.phase == "placement"


def test_s3_options_crests_fix_the_turn_order():
    g = new_game(3, {"crests": [3, 1, 2]}, seed=1)
    assert g.crest == [3, 1, 2] and g.order == [1, 2, 0]
    with pytest.raises(SetupError):
        new_game(3, {"crests": [1, 1, 2]}, seed=1)
