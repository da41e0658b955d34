"""Setting up a position (docs/engine.md "Setting up a position"): `set_up`
builds a game at the start of a round's Placement or Actions phase from a plain description,
and refuses an inconsistent one with a PositionError naming the field."""

import pytest

from belfort import (PositionError, apply, from_json, legal_commands, parse_ruleset,
                     public_view, seat_view, set_up, state_hash, to_json)
from belfort.prng import Prng

GUILDS = ["merchants", "miners", "architects", "thieves", "wizards"]


def three(**changes):
    pos = {
        "players": [
            {"name": "Ana", "crest": 3, "score": 12, "wood": 2, "stone": 3, "metal": 1,
             "gold": 6, "elves": 4, "dwarves": 3, "hand": ["tower", "keep"],
             "built": [{"type": "pub", "site": "pub@0", "gnomes": 1},
                       {"type": "market", "site": "market@2", "gnomes": 2}]},
            {"name": "Bo", "crest": 1, "built": [{"type": "gatehouse", "site": "gate1@1"}]},
            {"name": "Cy", "crest": 2, "hand": ["inn"]},
        ],
        "guilds": GUILDS,
        "board": {"wall@1a": 2, "guild@2": 0, "gate1@2": 1},
        "round": 4,
        "phase": "actions",
    }
    pos.update(changes)
    return pos


def play_out(game, seed="pos"):
    rng = Prng(seed)
    while not game.is_over():
        seat = game.waiting_for()[0]
        cmds = legal_commands(game, seat)
        apply(game, cmds[rng.below(len(cmds))], seat)
    return game


def test_a_position_at_the_start_of_the_actions_phase():
    g = set_up(three())
    v = seat_view(g, 0)
    assert (v["phase"], v["round"], v["step"]) == ("actions", 4, "")
    assert v["current"] == 1 and g.order == [1, 2, 0]             # crest 1 acts first
    ana = v["players"][0]
    assert (ana["score"], ana["wood"], ana["stone"], ana["metal"], ana["gold"]) == \
        (12, 2, 3, 1, 6)
    assert (ana["elves"], ana["dwarves"], ana["master_dwarves"]) == (4, 3, 1)  # §13 pub
    assert [(b["type"], b["gnomes"]) for b in ana["built"]] == [("pub", 1), ("market", 2)]
    assert sorted(h["type"] for h in v["hand"]) == ["keep", "tower"]
    assert v["board"] == {"pub@0": 0, "market@2": 0, "gate1@1": 1, "gate1@2": 1,
                          "wall@1a": 2, "guild@2": 0}
    assert v["guilds"][2]["owner"] == 0
    assert v["gnome_supply"] == 14 - 3
    assert len(v["pool"]) == 3 and v["draw_size"] == 50 - 2 - 2 - 1 - 1 - 3   # hands, built, pool
    assert v["players"][1]["gold"] == 5                          # the ruleset's start
    # the first turn's trading-post visits count Ana's market gnomes only on her turn
    assert v["turn"]["visits"] == 1


def test_a_position_plays_to_the_end_and_round_trips():
    g = set_up(three())
    again = from_json(to_json(g))
    assert state_hash(again) == state_hash(g)
    play_out(g)
    assert g.round == 7 and g.result["winners"]


def test_a_position_at_the_start_of_placement():
    g = set_up(three(phase="placement", round=2))
    assert (g.phase, g.round, g.current) == ("placement", 2, 1)
    assert g.unplaced(0) == [4, 0, 2, 1]                        # one master dwarf
    assert any(c[0] == "place" for c in legal_commands(g, 1))
    play_out(g)


def test_a_two_player_position_has_non_players():
    pos = {"players": [{"name": "Ana"}, {"name": "Bo"}],
           "guilds": ["merchants", "miners", "architects", "sawyers", "wizards"],
           "np_dwarves": ["miners", "sawyers"], "board": {"tower@1": 2, "keep@3": 3},
           "round": 6}
    g = set_up(pos)
    v = public_view(g)
    assert v["non_players"] == ["NP3", "NP4"]
    assert v["board"] == {"tower@1": 2, "keep@3": 3}
    assert [x["np_dwarf"] for x in v["guilds"]] == [None, 2, None, 3, None]
    play_out(g)


def test_a_ruleset_override_sets_the_starting_resources():
    """The other way to set up: a ruleset giving only what it changes."""
    rich = parse_ruleset('based_on = "standard"\nname = "rich"\n[start]\ngold = 20\n')
    g = set_up(three(), ruleset=rich)
    assert g.players[1].res == [1, 1, 1, 20]


def test_a_deck_and_pool_can_be_given():
    g = set_up(three(pool=["bank", "bank", "inn"], deck=["library", "keep"],
                     discard=["pub"]))
    v = public_view(g)
    assert [c["type"] for c in v["pool"]] == ["bank", "bank", "inn"]
    assert [c["type"] for c in v["discard"]] == ["pub"]
    assert [g.types[c] for c in g.draw[-2:]] == [9, 8]          # top: library, then keep


@pytest.mark.parametrize("changes, field", [
    ({"phase": "camp"}, "phase"),
    ({"round": 8}, "round"),
    ({"round": 0}, "round"),
    ({"guilds": ["merchants", "miners"]}, "guilds"),
    ({"colour": "red"}, "colour"),
    ({"board": {"wall@1a": 7}}, "board['wall@1a']"),
    ({"board": {"pub@0": 1}}, "board['pub@0']"),                   # Ana's pub is there
    ({"board": {"castle@1": 1}}, "board['castle@1']"),
    ({"pool": ["bank"]}, "pool"),                                  # not refilled
    ({"pool": ["bank"] * 4}, "pool"),
    ({"deck": ["tower"] * 5}, "deck[4]"),                         # a sixth tower
    ({"np_dwarves": ["miners", "thieves"]}, "np_dwarves"),         # not a 2-player game
])
def test_an_inconsistent_position_is_refused_naming_the_field(changes, field):
    with pytest.raises(PositionError) as err:
        set_up(three(**changes))
    assert err.value.field == field, str(err.value)
    assert field in str(err.value)


@pytest.mark.parametrize("player, field", [
    ({"hand": ["castle"]}, "players[2].hand[0]"),
    ({"built": [{"type": "pub", "site": "tower@3"}]}, "players[2].built[0].site"),
    ({"built": [{"type": "pub", "site": "pub@0"}]}, "players[2].built[0].site"),  # taken
    ({"built": [{"type": "keep", "site": "keep@1", "gnomes": 1}]},
     "players[2].built[0].gnomes"),                                 # a keep has no lock
    ({"built": [{"type": "gatehouse", "site": "gate1@2"}]}, "players[2].built[0].site"),
    ({"built": [{"type": "bank"}]}, "players[2].built[0].site"),
    ({"gold": -1}, "players[2].gold"),
    ({"elves": 8}, "players[2].elves"),
    ({"score": True}, "players[2].score"),
    ({"age": 9}, "players[2].age"),
])
def test_an_inconsistent_player_is_refused_naming_the_field(player, field):
    pos = three()
    pos["players"][2] = dict(pos["players"][2], **player)
    with pytest.raises(PositionError) as err:
        set_up(pos)
    assert err.value.field == field, str(err.value)


def test_too_many_gnomes_for_the_supply_are_refused():
    pos = {"players": [{"built": [{"type": "market", "site": f"market@{d}", "gnomes": 2}
                                  for d in range(5)]},
                       {"crest": 2}],
           "guilds": ["merchants", "miners", "architects", "sawyers", "wizards"],
           "np_dwarves": ["miners", "sawyers"]}
    with pytest.raises(PositionError) as err:
        set_up(pos)                                     # 10 gnomes, 9 in a 2-player game
    assert "gnomes" in err.value.field


def test_a_two_player_position_needs_the_non_players_dwarves():
    pos = {"players": [{}, {"crest": 2}],
           "guilds": ["merchants", "miners", "architects", "sawyers", "wizards"]}
    with pytest.raises(PositionError) as err:
        set_up(pos)
    assert err.value.field == "np_dwarves"
