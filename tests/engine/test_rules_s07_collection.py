"""§7 Collection: the four resource areas (the rulebook's four collection examples), the
Recruiter's desk, the King's camp (the rulebook's example and the Decision on keeping one's
own crest), and §7.7 income and taxes (the rulebook's tax example)."""

import copy

import pytest

from belfort import IllegalCommandError, Ruleset, apply, legal_commands, load_ruleset
from scenario import (COLOURS, events_of, finish_round, give_built, neutral, res, run,
                      set_res, set_workers, snapshot, start, to_actions)

RED, YELLOW, PURPLE, BLUE = range(4)


def collect(g, spreads):
    """Placement in crest order: each seat passes and spreads as given; returns the events
    of the command that ended Placement (and so ran Collection)."""
    events = []
    for seat in g.order:
        events = apply(g, "pass", seat)
        for text in spreads.get(seat, ()):
            events = apply(g, text, seat)
    assert g.phase != "placement"
    return events


def example_game():
    g = start(4, names=COLOURS[:4])
    for seat in range(4):
        set_workers(g, seat, 0, 0)
    return g


def test_s7_1_forest_example_master_collects_two_but_counts_one_for_the_bonus():
    """§7.1 rulebook example: Red collects 2 wood with his master elf; Yellow 2 wood with
    two elves, plus the bonus wood for most elves (the master counts as 1 elf for it)."""
    g = example_game()
    set_workers(g, RED, 1, 0, master_elves=1)
    set_workers(g, YELLOW, 2, 0)
    ev = collect(g, {RED: ["spread master-elf forest=1 mine=0 gold=0"],
                     YELLOW: ["spread elf forest=2 mine=0 gold=0"]})
    assert ("collect", RED, (2, 0, 0, 0)) in ev
    assert ("collect", YELLOW, (3, 0, 0, 0)) in ev
    assert events_of(ev, "bonus") == [("bonus", YELLOW, "forest", 1)]
    assert res(g, RED)[0] == 1 + 2 and res(g, YELLOW)[0] == 1 + 3


def test_s7_2_quarry_example_tie_for_most_dwarves_gives_no_bonus():
    """§7.2 rulebook example: Blue and Red have 1 dwarf each: 1 stone each, no bonus."""
    g = example_game()
    set_workers(g, RED, 0, 1)
    set_workers(g, BLUE, 0, 1)
    ev = collect(g, {RED: ["spread dwarf quarry=1 mine=0 gold=0"],
                     BLUE: ["spread dwarf quarry=1 mine=0 gold=0"]})
    assert ("collect", RED, (0, 1, 0, 0)) in ev
    assert ("collect", BLUE, (0, 1, 0, 0)) in ev
    assert events_of(ev, "bonus") == []
    assert res(g, RED)[1] == 2 and res(g, BLUE)[1] == 2


def test_s7_3_mine_example_master_dwarf_pairs_with_two_elves():
    """§7.3 rulebook example: Yellow's elf+dwarf pair gives 1 metal; Purple's master dwarf
    pairs with two elves for 2 metal, and Purple (3 workers) takes the bonus metal."""
    g = example_game()
    set_workers(g, YELLOW, 1, 1)
    set_workers(g, PURPLE, 2, 1, master_dwarves=1)
    ev = collect(g, {YELLOW: ["spread elf forest=0 mine=1 gold=0",
                              "spread dwarf quarry=0 mine=1 gold=0"],
                     PURPLE: ["spread elf forest=0 mine=2 gold=0",
                              "spread master-dwarf quarry=0 mine=1 gold=0"]})
    assert ("collect", YELLOW, (0, 0, 1, 0)) in ev
    assert ("collect", PURPLE, (0, 0, 3, 0)) in ev
    assert events_of(ev, "bonus") == [("bonus", PURPLE, "mine", 1)]
    assert res(g, YELLOW)[2] == 1 + 1 and res(g, PURPLE)[2] == 1 + 3


def test_s7_collection_reports_each_area_with_its_bonus():
    """§7: a UI or tester sees who got what from which area, bonus apart, without
    diffing resources: ("area", seat, area, resource, collected, bonus), in collection order
    (forest, quarry, mine, gold mine), then each seat's total ("collect")."""
    g = example_game()
    set_workers(g, YELLOW, 1, 1)
    set_workers(g, PURPLE, 2, 1, master_dwarves=1)
    ev = collect(g, {YELLOW: ["spread elf forest=1 mine=0 gold=0",
                              "spread dwarf quarry=0 mine=1 gold=0"],
                     PURPLE: ["spread elf forest=0 mine=2 gold=0",
                              "spread master-dwarf quarry=0 mine=0 gold=1"]})
    assert events_of(ev, "area") == [
        ("area", YELLOW, "forest", "wood", 1, 1),          # alone in the forest: the bonus
        ("area", YELLOW, "mine", "metal", 0, 0),           # a dwarf without an elf
        ("area", PURPLE, "mine", "metal", 0, 1),           # two elves, no dwarf; most pieces
        ("area", PURPLE, "gold", "gold", 2, 1),            # a master dwarf collects 2
    ]
    assert ("collect", YELLOW, (2, 0, 0, 0)) in ev
    assert ("collect", PURPLE, (0, 0, 1, 3)) in ev
    kinds = [e[0] for e in ev if e[0] in ("area", "bonus", "collect")]
    assert kinds.index("collect") > max(i for i, k in enumerate(kinds) if k == "area")


def test_s7_3_mine_unpaired_workers_give_no_metal():
    """§7.3: metal = min(elf power, dwarf power); lone elves give nothing (but count for
    the bonus, which goes to the single player with most pieces)."""
    g = example_game()
    set_workers(g, RED, 3, 0)
    set_workers(g, BLUE, 1, 1)
    ev = collect(g, {RED: ["spread elf forest=0 mine=3 gold=0"],
                     BLUE: ["spread elf forest=0 mine=1 gold=0",
                            "spread dwarf quarry=0 mine=1 gold=0"]})
    assert ("collect", RED, (0, 0, 1, 0)) in ev      # the bonus only
    assert ("collect", BLUE, (0, 0, 1, 0)) in ev


def test_s7_4_gold_mine_example_tie_in_pieces_despite_masters():
    """§7.4 rulebook example: Blue collects 2 gold with two workers, Red 4 gold with two
    master elves; they tie for most workers, so nobody gets the bonus gold."""
    g = example_game()
    set_workers(g, BLUE, 1, 1)
    set_workers(g, RED, 2, 0, master_elves=2)
    ev = collect(g, {BLUE: ["spread elf forest=0 mine=0 gold=1",
                            "spread dwarf quarry=0 mine=0 gold=1"],
                     RED: ["spread master-elf forest=0 mine=0 gold=2"]})
    assert ("collect", BLUE, (0, 0, 0, 2)) in ev
    assert ("collect", RED, (0, 0, 0, 4)) in ev
    assert events_of(ev, "bonus") == []
    # income: Red's two Gardens show a coin each (§7.7); score 0 pays no tax.
    assert res(g, BLUE)[3] == 5 + 2
    assert res(g, RED)[3] == 5 + 4 + 2


def test_s7_areas_resolve_and_workers_return():
    """§7: each area's workers return to their owners as it is resolved: in the Actions
    phase the areas are empty, and next round every worker can be placed again."""
    g = start(3)
    to_actions(g)
    assert all(sum(a) == 0 for a in g.area)
    finish_round(g)
    assert g.round == 2
    assert g.unplaced(0) == [3, 0, 3, 0]


def test_s7_5_recruiters_desk_example_gains_a_worker_of_the_same_kind():
    """§7.5 rulebook example: Red's elf on the desk gains Red a new elf; Blue's dwarf gains
    Blue a new dwarf (from that player's own reserve)."""
    g = start(4, names=COLOURS[:4])
    apply(g, "place elf desk", RED)
    apply(g, "place dwarf desk", YELLOW)   # 4 players: 2 desk planks; fee 2 gold each
    assert res(g, RED)[3] == 3 and res(g, YELLOW)[3] == 3
    to_actions(g)
    assert (g.players[RED].elves, g.players[RED].dwarves) == (4, 3)
    assert (g.players[YELLOW].elves, g.players[YELLOW].dwarves) == (3, 4)


def test_s7_5_desk_with_an_empty_reserve_gives_nothing():
    """§7.5: if none of that kind is left in the player's reserve, nothing."""
    g = start(3)
    g.players[0].elves = 7
    apply(g, "place elf desk", 0)
    to_actions(g)
    assert g.players[0].elves == 7


def test_s7_6_kings_camp_rulebook_example():
    """§7.6 rulebook example: Yellow (crest 4) is first in the camp and swaps with Red's
    crest 1; Red, second, cannot take crest 1 back (face down) and swaps his 4 with
    Purple's 2. They end with Yellow 1, Red 2, Purple 4, Blue 3, all face up again."""
    g = start(4, names=COLOURS[:4], crests=[1, 4, 2, 3])   # Red 1, Yellow 4, Purple 2, Blue 3
    # Placement goes Red, Purple, Blue, Yellow. Red waits so that Yellow takes plank 1.
    apply(g, "place elf desk", RED)
    apply(g, "pass", PURPLE)
    apply(g, "spread elf forest=3 mine=0 gold=0", PURPLE)
    apply(g, "spread dwarf quarry=3 mine=0 gold=0", PURPLE)
    apply(g, "pass", BLUE)
    apply(g, "spread elf forest=3 mine=0 gold=0", BLUE)
    apply(g, "spread dwarf quarry=3 mine=0 gold=0", BLUE)
    apply(g, "place elf camp", YELLOW)
    apply(g, "place elf camp", RED)
    for seat, elves_left in ((YELLOW, 2), (RED, 1)):
        apply(g, "pass", seat)
        apply(g, f"spread elf forest={elves_left} mine=0 gold=0", seat)
        apply(g, "spread dwarf quarry=3 mine=0 gold=0", seat)
    assert g.phase == "camp" and g.current == YELLOW
    apply(g, "crest 1", YELLOW)
    assert g.crest == [4, 1, 2, 3]
    assert g.current == RED
    before = snapshot(g)
    with pytest.raises(IllegalCommandError) as err:
        apply(g, "crest 1", RED)
    assert err.value.rule == "§7"
    assert snapshot(g) == before
    assert ("crest", 1) not in legal_commands(g, RED)
    apply(g, "crest 2", RED)
    assert g.crest == [2, 1, 4, 3]          # Red 2, Yellow 1, Purple 4, Blue 3
    assert g.crest_down == [False] * 5      # all face up again
    assert g.phase == "actions"
    assert g.order == [YELLOW, RED, BLUE, PURPLE]
    assert g.current == YELLOW


def test_s7_6_decision_keeping_ones_own_crest_protects_it():
    """§7.6 Decision (Korean edition): a camp worker may keep its own crest; it is then face
    down and the next camp player cannot take it."""
    g = start(3)          # seat i holds crest i+1
    apply(g, "place elf camp", 0)   # plank 1
    apply(g, "place elf camp", 1)   # plank 2
    g2 = to_camp(g)
    assert g2.phase == "camp" and g2.current == 0
    apply(g, "crest 1", 0)
    assert g.crest == [1, 2, 3]
    assert ("crest", 1) not in legal_commands(g, 1)
    with pytest.raises(IllegalCommandError) as err:
        apply(g, "crest 1", 1)
    assert err.value.rule == "§7"
    apply(g, "crest 3", 1)
    assert g.crest == [1, 3, 2]
    assert g.order == [0, 2, 1]


def to_camp(g):
    return run(g, lambda s: s.phase == "camp")


def test_s7_6_camp_planks_resolve_in_plank_order_not_turn_order():
    """§7.6: in plank order. Crest 3's holder took plank 1, so chooses first."""
    g = start(3)
    apply(g, "pass", 0)
    apply(g, "spread elf forest=3 mine=0 gold=0", 0)
    apply(g, "spread dwarf quarry=3 mine=0 gold=0", 0)
    apply(g, "pass", 1)
    apply(g, "spread elf forest=3 mine=0 gold=0", 1)
    apply(g, "spread dwarf quarry=3 mine=0 gold=0", 1)
    apply(g, "place dwarf camp", 2)
    to_camp(g)
    assert g.current == 2
    apply(g, "crest 1", 2)
    assert g.crest == [3, 2, 1]
    assert g.phase == "actions" and g.current == 2


def test_s7_7_tax_example_space_15_pays_2():
    """§7.7 rulebook example: Red has built a Keep, a Gatehouse and a Tower: two show a
    coin, so he gains 2 gold; his marker on space 15 is in the 2-gold tax level: he pays 2."""
    g = start(4, names=COLOURS[:4])
    for t in ("keep", "gatehouse", "tower"):
        give_built(g, RED, t)
    g.players[RED].score = 15
    set_res(g, RED, 0, 0, 0, 3)
    for seat in range(4):
        set_workers(g, seat, 0, 0)
    ev = collect(g, {})
    assert ("income", RED, 2, 2, 0) in ev
    assert res(g, RED)[3] == 3 + 2 - 2
    assert g.players[RED].score == 15


def test_s7_7_income_only_from_built_cards_with_a_coin():
    """§7.7 / §13: incomes Pub 1, Gardens 1, Tower 1, Inn 0, Blacksmith 0, Bank 1, Market 1,
    Gatehouse 0, Library 1, Keep 1."""
    g = start(3)
    for t in ("pub", "gardens", "tower", "inn", "blacksmith", "bank", "market",
              "gatehouse", "library", "keep"):
        give_built(g, 0, t)
    set_workers(g, 0, 0, 0)
    set_res(g, 0, 0, 0, 0, 0)
    ev = collect(g, {1: ["spread elf forest=3 mine=0 gold=0",
                         "spread dwarf quarry=3 mine=0 gold=0"],
                     2: ["spread elf forest=3 mine=0 gold=0",
                         "spread dwarf quarry=3 mine=0 gold=0"]})
    assert ("income", 0, 7, 0, 0) in ev
    assert res(g, 0)[3] == 7


@pytest.mark.parametrize("gold, expect_gold, expect_score", [(5, 3, 15), (1, 0, 14), (0, 0, 13)])
def test_s7_7_unpaid_tax_moves_the_score_back(gold, expect_gold, expect_score):
    """§7.7: all gold that can be paid must be paid; each gold that cannot costs 1 space."""
    g = start(3)
    g.players[0].score = 15
    set_res(g, 0, 0, 0, 0, gold)
    set_workers(g, 0, 0, 0)
    for seat in (1, 2):
        set_workers(g, seat, 0, 0)
    ev = collect(g, {})
    assert res(g, 0)[3] == expect_gold
    assert g.players[0].score == expect_score
    assert g.players[0].taxes_lost == 15 - expect_score
    assert ("income", 0, 0, min(gold, 2), 15 - expect_score) in ev


def test_s7_7_score_never_goes_below_zero():
    """§7.7: the score moves back, never below 0 (a ruleset with a tax at level 0)."""
    raw = copy.deepcopy(load_ruleset().raw)
    raw["scoring"]["taxes"] = [[0, 3]]
    rs = Ruleset(raw)
    g = start(3, ruleset=rs)
    g.players[0].score = 1
    set_res(g, 0, 0, 0, 0, 0)
    for seat in range(3):
        set_workers(g, seat, 0, 0)
    collect(g, {})
    assert g.players[0].score == 0
    assert g.players[0].taxes_lost == 1


def test_s7_7_income_comes_before_tax():
    """§7.7: income is gained first, then the tax is paid from it."""
    g = start(3)
    give_built(g, 0, "keep")
    g.players[0].score = 6                  # tax 1
    set_res(g, 0, 0, 0, 0, 0)
    for seat in range(3):
        set_workers(g, seat, 0, 0)
    collect(g, {})
    assert res(g, 0)[3] == 0 and g.players[0].score == 6


def test_s7_order_areas_then_desk_then_camp_then_income():
    """§7: the areas, then the Recruiter's desk, then the King's camp, then income and
    taxes, in that order (as seen in the events)."""
    g = start(3)
    give_built(g, 0, "keep")
    apply(g, "place elf desk", 0)
    apply(g, "place elf camp", 1)
    events = []
    while g.phase != "actions":
        seat = g.waiting_for()[0]
        events += apply(g, neutral(g, seat), seat)
    kinds = [e[0] for e in events]
    first = {k: kinds.index(k) for k in ("collect", "gain-worker", "crest", "income")}
    assert first["collect"] < first["gain-worker"] < first["crest"] < first["income"]
