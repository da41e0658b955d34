"""§16 Rulesets: the standard ruleset loads and holds the Data values of docs/rules.md; a
file with a changed number changes the game and its hash; malformed files are refused with a
RulesetError naming the field."""

import re
from importlib import resources

import pytest

from belfort import (CARD_TYPES, GUILDS, RulesetError, SetupError, apply, from_json,
                     is_legal, load_ruleset, new_game, parse_ruleset, public_view,
                     standard_ruleset, state_hash, to_json)
from scenario import set_res, start, to_actions

STANDARD_TEXT = resources.files("belfort").joinpath("standard.toml").read_text("utf-8")


def variant(old, new, count=1):
    assert STANDARD_TEXT.count(old) == count, old
    return STANDARD_TEXT.replace(old, new)


# --- the standard ruleset ----------------------------------------------------------------------

def test_s16_standard_ruleset_loads():
    """§16: the standard ruleset ships inside the package and loads."""
    rs = load_ruleset()
    assert rs.name == "standard"
    assert re.fullmatch(r"[0-9a-f]{64}", rs.sha256)
    assert standard_ruleset().sha256 == rs.sha256
    assert parse_ruleset(STANDARD_TEXT).sha256 == rs.sha256


def test_s16_data_property_costs_and_incomes():
    """§16 / Data: property costs (wood, stone, metal, gold) and incomes."""
    want = {"gardens": (2, 1, 0, 0, 1), "pub": (1, 2, 0, 0, 1), "library": (2, 2, 0, 0, 1),
            "blacksmith": (2, 2, 0, 0, 0), "market": (2, 1, 1, 0, 1), "bank": (1, 2, 1, 0, 1),
            "tower": (1, 3, 1, 0, 1), "inn": (3, 1, 1, 0, 0), "gatehouse": (0, 2, 2, 0, 0),
            "keep": (2, 3, 2, 0, 1)}
    rs = standard_ruleset()
    for t, row in want.items():
        i = CARD_TYPES.index(t)
        assert rs.card_cost[i] + (rs.card_income[i],) == row, t
    assert rs.wall_cost == (3, 3, 0, 0)


def test_s16_data_guild_costs_categories_and_yields():
    """§16 / Data and §14: guild costs, categories, and the resource guilds' yields."""
    want = {"merchants": ("basic", 2, 2, 1, 0), "librarians": ("basic", 3, 1, 1, 0),
            "architects": ("basic", 1, 3, 1, 0), "recruiters": ("basic", 2, 2, 0, 2),
            "sawyers": ("resource", 0, 4, 1, 0), "masons": ("resource", 4, 0, 1, 0),
            "miners": ("resource", 2, 2, 0, 2), "bankers": ("resource", 2, 2, 1, 0),
            "thieves": ("interactive", 2, 1, 1, 1), "bandits": ("interactive", 1, 2, 1, 1),
            "wizards": ("interactive", 2, 2, 1, 0), "spies": ("interactive", 1, 1, 1, 2)}
    rs = standard_ruleset()
    cats = ("basic", "resource", "interactive")
    for name, (cat, *cost) in want.items():
        g = GUILDS.index(name)
        assert cats[rs.guild_category[g]] == cat, name
        assert rs.guild_cost[g] == tuple(cost), name
    yields = {"sawyers": (4, 0, 0, 0), "miners": (0, 0, 2, 0), "bankers": (0, 0, 0, 3),
              "masons": (0, 4, 0, 0)}
    for name, y in yields.items():
        assert rs.guild_yield[GUILDS.index(name)] == y


def test_s16_data_other_numbers():
    """§16 / Data: trading post, tables by player count, fees, limits, scoring tables."""
    rs = standard_ruleset()
    assert rs.trade_buy == (1, 1, 2) and rs.trade_sell == (1, 1, 1)
    assert rs.scoring_rounds == (3, 5, 7) and rs.rounds == 7
    assert [rs.camp_planks[n] for n in range(2, 6)] == [2, 3, 4, 5]
    assert [rs.desk_planks[n] for n in range(2, 6)] == [1, 1, 2, 3]
    assert [rs.gnomes[n] for n in range(2, 6)] == [9, 14, 18, 22]
    assert (rs.fee_recruiter_desk, rs.fee_guild_plank, rs.fee_property_plank,
            rs.fee_gnome_hire, rs.fee_card_purchase) == (2, 1, 1, 3, 1)
    assert rs.hand_limit == 5 and rs.start == (1, 1, 1, 5)
    assert (rs.workers_per_colour, rs.workers_start, rs.max_masters) == (7, 3, 5)
    assert rs.district_points == (5, 3, 1) and rs.worker_points == (3, 1)
    assert rs.district_third_from == 4
    assert (rs.np_elves, rs.np_dwarves) == (4, 4)


# --- a changed number changes the game ------------------------------------------------------

CHEAP_WALL = variant("cost = { wood = 3, stone = 3, metal = 0, gold = 0 }",
                     "cost = { wood = 1, stone = 1, metal = 0, gold = 0 }")


def test_s16_changed_wall_cost_is_honoured_and_changes_the_hash(tmp_path):
    """§16: a ruleset file with another wall cost: a wall costs 1 wood + 1 stone in that
    game (not in the standard one), and the ruleset's sha256 and the state hash differ."""
    path = tmp_path / "cheap-walls.toml"
    path.write_text(CHEAP_WALL, "utf-8")
    cheap = load_ruleset(str(path))
    assert cheap.wall_cost == (1, 1, 0, 0)
    assert cheap.sha256 != standard_ruleset().sha256

    games = {}
    for name, rs in (("standard", None), ("cheap", cheap)):
        g = start(3, ruleset=rs)
        to_actions(g)
        set_res(g, g.current, 1, 1, 0, 0)
        games[name] = g
    std, chp = games["standard"], games["cheap"]
    assert not is_legal(std, "wall wall@0a", std.current)
    seat = chp.current
    apply(chp, "wall wall@0a", seat)
    assert chp.players[seat].res == [0, 0, 0, 0]
    assert chp.board[9] == seat
    assert public_view(chp)["ruleset"] == cheap.sha256
    fresh_std, fresh_chp = new_game(3, seed=1), new_game(3, seed=1, ruleset=cheap)
    assert state_hash(fresh_std) != state_hash(fresh_chp)
    # a saved game keeps its ruleset
    again = from_json(to_json(chp))
    assert again.rs.sha256 == cheap.sha256 and again.rs.wall_cost == (1, 1, 0, 0)


def test_s16_changed_starting_gold_is_honoured():
    """§16: another number (starting gold) reaches the game."""
    rs = parse_ruleset(variant("gold = 5\n", "gold = 8\n"))
    g = new_game(3, seed=1, ruleset=rs)
    assert all(p.res == [1, 1, 1, 8] for p in g.players)


def test_s16_hash_is_of_the_content_not_the_layout():
    """§16: comments and layout do not change a ruleset's identity; any value does."""
    relaid = "# a comment\n\n" + STANDARD_TEXT.replace("rounds = 7", "rounds   =   7  # seven")
    assert parse_ruleset(relaid).sha256 == standard_ruleset().sha256
    assert parse_ruleset(variant("hand_limit = 5", "hand_limit = 6")).sha256 != \
        standard_ruleset().sha256


# --- malformed files are refused, naming the field ------------------------------------------------

@pytest.mark.parametrize("text, field", [
    # a missing field
    (variant("hand_limit = 5\n", ""), "hand_limit"),
    (variant("card_purchase = 1\n", ""), "fees.card_purchase"),
    (variant("market_gold = 2\n", ""), "activations.market_gold"),
    # a wrong type
    (variant("rounds = 7", 'rounds = "seven"'), "rounds"),
    (variant("gnome_hire = 3", "gnome_hire = 3.5"), "fees.gnome_hire"),
    (variant("pub        = { cost = { wood = 1,", 'pub        = { cost = { wood = "one",'),
     "properties.pub.cost.wood"),
    (variant("gnomes = [0, 0, 9, 14, 18, 22]", "gnomes = [0, 0, 9, 14, 18]"), "table.gnomes"),
    (variant("max_masters = 5", "max_masters = true"), "workers.max_masters"),
    (variant("cost = { wood = 3, stone = 3, metal = 0, gold = 0 }", "cost = 6"), "wall.cost"),
    # an unknown field
    ("foo = 1\n" + STANDARD_TEXT, "foo"),
    (variant("card_purchase = 1\n", "card_purchase = 1\ntip = 1\n"), "fees.tip"),
    (variant("pub        = { cost = { wood = 1, stone = 2,",
             "pub        = { cost = { wood = 1, marble = 1, stone = 2,"),
     "properties.pub.cost.marble"),
    # a negative number
    (variant("deal = 5", "deal = -1"), "deal"),
], ids=lambda x: x if len(x) < 40 else "")
def test_s16_malformed_ruleset_is_refused_naming_the_field(text, field):
    """§16: a malformed ruleset (missing field, wrong type, unknown field) is refused with
    a RulesetError naming the field."""
    with pytest.raises(RulesetError) as err:
        parse_ruleset(text)
    assert err.value.field == field
    assert field in str(err.value)


def test_s16_bad_toml_is_refused(tmp_path):
    """§16: a file that is not TOML at all is refused with a RulesetError."""
    path = tmp_path / "broken.toml"
    path.write_text(STANDARD_TEXT.replace("[fees]", "[fees"), "utf-8")
    with pytest.raises(RulesetError) as err:
        load_ruleset(str(path))
    assert "TOML" in str(err.value)
    with pytest.raises(RulesetError):
        parse_ruleset("rounds = = 7")


def test_s16_missing_file_is_refused(tmp_path):
    with pytest.raises(RulesetError):
        load_ruleset(str(tmp_path / "nope.toml"))


def test_s16_new_game_needs_a_ruleset_object():
    with pytest.raises(SetupError):
        new_game(3, seed=1, ruleset="standard.toml")


# --- a ruleset that gives only what it changes --------------------------------------------

def test_s16_a_file_based_on_the_standard_one_changes_only_its_fields():
    """§16: "a player can correct any value in a copy of that file" — or write only the
    corrections: `based_on = "standard"` and the fields that differ."""
    rs = parse_ruleset('based_on = "standard"\nname = "rich"\n[start]\ngold = 9\n')
    std = standard_ruleset()
    assert rs.start == std.start[:3] + (9,)
    assert rs.card_cost == std.card_cost and rs.tax_levels == std.tax_levels
    full = parse_ruleset(variant("gold = 5\n", "gold = 9\n").replace('name = "standard"',
                                                                     'name = "rich"'))
    assert rs.sha256 == full.sha256          # the same numbers: the same identity


@pytest.mark.parametrize("text, field", [
    ('based_on = "mine.toml"\n', "based_on"),
    ('based_on = "standard"\n[start]\ngems = 1\n', "start.gems"),
    ('based_on = "standard"\nsurprise = 1\n', "surprise"),
    ('based_on = "standard"\n[start]\ngold = -1\n', "start.gold"),
])
def test_s16_a_bad_based_on_file_is_refused_naming_the_field(text, field):
    with pytest.raises(RulesetError) as err:
        parse_ruleset(text)
    assert err.value.field == field


def test_s16_shipped_rulesets_load_by_name():
    from belfort.ruleset import shipped_rulesets
    assert set(shipped_rulesets()) >= {"standard", "ten-space-taxes"}
    for name in shipped_rulesets():
        assert load_ruleset(name).sha256
    with pytest.raises(RulesetError) as err:
        load_ruleset("eleven-space-taxes")
    assert "ten-space-taxes" in str(err.value)


def test_s16_a_ruleset_from_before_the_new_fields_plays_as_it_did():
    """A ruleset lacking every field added when every number became a ruleset field gets
    the values the engine used
    before (and keeps its hash); a newer one must give each field."""
    from belfort.ruleset import EARLIER_DEFAULTS
    old = load_ruleset().raw
    raw = {k: v for k, v in old.items() if k not in ("collection", "locks")}
    raw["scoring"] = {k: v for k, v in old["scoring"].items()
                      if k not in EARLIER_DEFAULTS["scoring"]}
    from belfort import Ruleset
    rs = Ruleset(raw)
    std = standard_ruleset()
    assert (rs.master_collects, rs.area_bonus, rs.unpaid_tax_vp, rs.tiebreak, rs.locks) == \
        (std.master_collects, std.area_bonus, std.unpaid_tax_vp, std.tiebreak, std.locks)
    assert rs.raw == raw and rs.sha256 != std.sha256
    newer = dict(raw, locks=old["locks"])                 # new-style: no defaults
    with pytest.raises(RulesetError) as err:
        Ruleset(newer)
    assert err.value.field == "collection"
