"""§9 Scoring tables and taxes: district majority (§9.1, 3rd place only with 4–5 players
and in 2-player games), worker majority (§9.2), the tie rule with the rulebook's four
examples (§9.3), and the tax levels (§9.7, the rulebook's "space 15 pays 2")."""

import pytest

from belfort import load_ruleset, standard_ruleset
from belfort.scoring import rank_points
from scenario import COLOURS, give_built, mark, set_workers, start, to_round

RED, YELLOW, PURPLE, BLUE = range(4)
DISTRICT = (5, 3, 1)
WORKERS = (3, 1)


# --- §9.3 the rulebook's four tie examples, on the rank function -----------------------------

def test_s9_3_district_example_tied_second_drop_to_third():
    """§9.3 example: district, 4 players, Blue 4, Yellow 2, Purple 2, Red 0 →
    Blue 5, Yellow 1, Purple 1, Red 0."""
    counts = [0, 2, 2, 4]  # Red, Yellow, Purple, Blue
    assert rank_points(counts, DISTRICT) == [0, 1, 1, 5]


def test_s9_3_elves_example():
    """§9.3 example: elves Red 5, Yellow 4, Purple 3, Blue 3 → Red 3, Yellow 1, others 0."""
    assert rank_points([5, 4, 3, 3], WORKERS) == [3, 1, 0, 0]


def test_s9_3_dwarves_example():
    """§9.3 example: dwarves Purple 5, Yellow 5, Blue 4, Red 3 → Purple 1, Yellow 1,
    Blue 0, Red 0."""
    assert rank_points([3, 5, 5, 4], WORKERS) == [0, 1, 1, 0]


def test_s9_3_gnomes_example():
    """§9.3 example: gnomes Blue 3, others 2 → Blue 3, others 0."""
    assert rank_points([2, 2, 2, 3], WORKERS) == [0, 0, 0, 3]


def test_s9_3_count_zero_scores_nothing():
    """§9.3: a player with a count of 0 scores nothing, even when alone in second place."""
    assert rank_points([3, 0, 0], DISTRICT) == [5, 0, 0]
    assert rank_points([0, 0], WORKERS) == [0, 0]


def test_s9_3_tie_for_first_skips_two_ranks():
    """§9.3: a tied group takes rank r+1 and r += 2; the next player is at rank 3."""
    assert rank_points([4, 4, 2, 1], DISTRICT) == [3, 3, 1, 0]


def test_s9_3_four_examples_in_one_real_scoring_phase():
    """§9.3 / §10: the four rulebook examples set up on the board and on the players, and
    scored by a real scoring phase after round 3 of a 4-player game."""
    g = start(4, names=COLOURS[:4])
    # district 0: Blue 4 (a keep counts 2, a pub, a wall), Yellow 2, Purple 2, Red 0
    mark(g, BLUE, "keep@0", "pub@0", "wall@0a")
    mark(g, YELLOW, "gardens@0", "tower@0")
    mark(g, PURPLE, "inn@0", "gate4@0")      # gatehouse 4's symbol lying in district 0
    for seat, elves, dwarves in ((RED, 5, 3), (YELLOW, 4, 5), (PURPLE, 3, 5), (BLUE, 3, 4)):
        set_workers(g, seat, elves, dwarves)
    # gnomes: Blue 3, the others 2 (a Market has two locks; Bank, Blacksmith, Inn one)
    for seat in (RED, YELLOW, PURPLE):
        give_built(g, seat, "market", gnomes=2)
    for t in ("bank", "blacksmith", "inn"):
        give_built(g, BLUE, t, gnomes=1)
    to_round(g, 4)
    rec = g.score_log[0]
    assert rec["round"] == 3
    assert rec["districts"][0] == [0, 1, 1, 5]
    assert rec["districts"][1:] == [[0, 0, 0, 0]] * 4
    assert rec["elves"] == [3, 1, 0, 0]
    assert rec["dwarves"] == [0, 1, 1, 0]
    assert rec["gnomes"] == [0, 0, 0, 3]
    assert rec["total"] == [3, 3, 2, 8]
    assert [p.score for p in g.players] == [3, 3, 2, 8]


# --- §9.1 district majority -----------------------------------------------------------------------

@pytest.mark.parametrize("n, third", [(3, 0), (4, 1), (5, 1)])
def test_s9_1_third_place_only_with_four_or_five_players(n, third):
    """§9.1: 1st 5, 2nd 3, 3rd 1 — 3rd place only with 4 or 5 players."""
    g = start(n)
    mark(g, 0, "pub@2", "gardens@2", "tower@2")
    mark(g, 1, "inn@2", "bank@2")
    mark(g, 2, "market@2")
    for seat in range(n):
        set_workers(g, seat, 0, 0)
    to_round(g, 4)
    assert g.score_log[0]["districts"][2][:3] == [5, 3, third]


def test_s9_1_two_player_games_score_districts_as_four_player_games():
    """§9.1 / §12: in a 2-player game the NPs compete and a 3rd place scores 1."""
    g = start(2)
    mark(g, 2, "pub@1", "gardens@1", "tower@1")   # NP3
    mark(g, 0, "inn@1", "bank@1")
    mark(g, 1, "market@1")
    mark(g, 1, "pub@3")
    mark(g, 3, "gardens@3", "tower@3")            # NP4 beats seat 1 in district 3
    g.np_dwarf = [0, 1]
    to_round(g, 4)
    rec = g.score_log[0]
    assert rec["districts"][1] == [3, 1]
    assert rec["districts"][3] == [0, 3]


def test_s9_1_markers_counted_on_property_wall_and_guild_symbols():
    """§9.1: markers on property, wall and guild symbols of the district all count; a keep
    section is two symbols; a gatehouse symbol counts for the district it lies in."""
    g = start(3)
    mark(g, 0, "wall@1a", "wall@1b", "guild@1")    # 3 in district 1
    mark(g, 1, "keep@1", "gate0@1")                # 2 + 1 = 3: tie with seat 0
    mark(g, 2, "gate1@1")                           # gatehouse 1 spans districts 1 and 2
    for seat in range(3):
        set_workers(g, seat, 0, 0)
    to_round(g, 4)
    d = g.score_log[0]["districts"]
    assert d[1] == [3, 3, 0]     # two tied for first each take 2nd place's points
    # gate0@1 lies in district 1, not district 0
    assert d[0] == [0, 0, 0]


# --- §9.2 worker majority -------------------------------------------------------------------------

def test_s9_2_masters_count_as_one_and_reserve_workers_do_not_count():
    """§9.2: masters count 1; only workers in play count (not the reserve); gnomes counted
    are those on the player's built cards."""
    g = start(3)
    set_workers(g, 0, 4, 3, master_elves=2)   # 4 elves of which 2 masters: counts 4
    set_workers(g, 1, 5, 3)
    set_workers(g, 2, 3, 3)
    give_built(g, 0, "bank", gnomes=1)
    to_round(g, 4)
    rec = g.score_log[0]
    assert rec["elves"] == [1, 3, 0]
    assert rec["dwarves"] == [1, 1, 1]            # three tied for first: each 2nd place's 1
    # seat 0: 1 bank gnome + 2 gardens gnomes = 3 gnomes, alone
    assert rec["gnomes"] == [3, 0, 0]


def test_s9_2_two_player_non_players_count_four_elves_and_four_dwarves_and_no_gnomes():
    """§9.2 / §12: each NP has 4 elves and 4 dwarves for the majorities, no gnomes."""
    g = start(2)
    set_workers(g, 0, 5, 3)
    set_workers(g, 1, 4, 4)
    give_built(g, 1, "bank", gnomes=1)
    to_round(g, 4)
    rec = g.score_log[0]
    assert rec["elves"] == [3, 0]     # 5 first; 4,4,4 tie for second → rank 3: nothing
    # dwarves: seat 1 and both NPs tie at 4 for first → each rank 2 (1 VP); seat 0's 3 is
    # at rank 4, past the table
    assert rec["dwarves"] == [0, 1]
    assert rec["gnomes"] == [0, 3]


# --- §9.7 taxes -----------------------------------------------------------------------------------

@pytest.mark.parametrize("score, tax", [
    (0, 0), (1, 0), (5, 0), (6, 1), (10, 1), (11, 2), (15, 2), (16, 3), (20, 3), (21, 4),
    (25, 4), (26, 5), (30, 5), (31, 6), (35, 6), (36, 7), (40, 7), (41, 8), (45, 8), (46, 9),
    (50, 9), (51, 10), (90, 10)])
def test_s9_7_tax_levels_are_five_spaces_wide(score, tax):
    """§9.7 Data: levels of five score spaces — 0–5 pay 0, 6–10 1, 11–15 2, 16–20 3, …,
    46–50 9 — and the Decision above the track's last printed level: 51+ pays 10. The
    rulebook's example: a player on space 15 pays 2 gold."""
    assert standard_ruleset().tax_for(score) == tax


@pytest.mark.parametrize("score, tax", [
    (5, 0), (6, 1), (10, 1), (11, 2), (15, 2), (20, 2), (21, 3), (30, 3), (31, 4), (40, 4),
    (41, 5), (50, 5), (51, 6), (90, 6)])
def test_s9_7_the_ten_space_ladder_ships_as_a_ruleset(score, tax):
    """§9.7 Data: "the first reconstruction used ten-space levels; a player who prefers it
    can load it as a ruleset (§16)" — `load_ruleset("ten-space-taxes")`; everything else is
    the standard ruleset's."""
    rs = load_ruleset("ten-space-taxes")
    assert rs.tax_for(score) == tax
    std = standard_ruleset()
    differ = {k for k in std.raw if std.raw[k] != rs.raw[k]}
    assert differ == {"name", "scoring"}
    assert {k for k in std.raw["scoring"] if std.raw["scoring"][k] != rs.raw["scoring"][k]} \
        == {"taxes"}
    assert rs.sha256 != std.sha256
