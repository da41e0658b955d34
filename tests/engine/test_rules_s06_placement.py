"""§6 Placement: turn order, one worker per turn or pass, spreading on passing (Decision:
forest elves only, quarry dwarves only, nobody left unplaced), the Recruiter's desk, the
King's camp, guild planks and their fee (to the owner), property planks and their locks."""

import pytest

from belfort import (CommandSyntaxError, IllegalCommandError, apply, is_legal,
                     legal_commands)
from scenario import (give_built, own_guild, res, set_res, set_workers, snapshot, start,
                      to_actions)


def refused(g, text, seat, rule):
    before = snapshot(g)
    with pytest.raises(IllegalCommandError) as err:
        apply(g, text, seat)
    rules = rule if isinstance(rule, tuple) else (rule,)
    assert err.value.rule in rules, err.value
    assert snapshot(g) == before
    return err.value


def spread_all(g, seat, elves_to="forest", dwarves_to="quarry"):
    left = g.unplaced(seat)
    if left[0]:
        apply(g, f"spread elf forest={left[0] if elves_to == 'forest' else 0} "
                 f"mine={left[0] if elves_to == 'mine' else 0} "
                 f"gold={left[0] if elves_to == 'gold' else 0}", seat)
    if left[2]:
        apply(g, f"spread dwarf quarry={left[2] if dwarves_to == 'quarry' else 0} "
                 f"mine={left[2] if dwarves_to == 'mine' else 0} "
                 f"gold={left[2] if dwarves_to == 'gold' else 0}", seat)


def test_s6_turn_order_one_worker_each_and_passed_players_are_skipped():
    """§6: in crest order, each player places one worker or passes; players who passed are
    skipped; the phase ends when all have passed."""
    g = start(3, crests=[2, 3, 1])        # order: seat 2, seat 0, seat 1
    assert g.current == 2
    apply(g, "place elf camp", 2)
    assert g.current == 0
    apply(g, "pass", 0)
    spread_all(g, 0)
    assert g.current == 1
    apply(g, "place dwarf miners", 1)
    assert g.current == 2
    apply(g, "pass", 2)
    spread_all(g, 2)
    assert g.current == 1                 # seat 0 passed: skipped
    apply(g, "place elf merchants", 1)
    assert g.current == 1                 # the only one left places again
    apply(g, "pass", 1)
    spread_all(g, 1)
    assert g.phase != "placement"


def test_s6_acting_out_of_turn_is_refused():
    """§6: only the current player may place."""
    g = start(3)
    refused(g, "place elf camp", 1, "§6")


def test_s6_a_player_with_no_worker_left_must_pass():
    """§6: with no unplaced elf or dwarf left the only choice is to pass."""
    g = start(3)
    set_workers(g, 0, 1, 0)
    apply(g, "place elf camp", 0)
    apply(g, "pass", 1)
    spread_all(g, 1)
    apply(g, "pass", 2)
    spread_all(g, 2)
    assert g.current == 0
    assert legal_commands(g, 0) == [("pass",)]
    refused(g, "place elf merchants", 0, "§6")


def test_s6_passing_spreads_all_remaining_workers_forest_elves_quarry_dwarves():
    """§6 Decision: on passing all remaining workers go to the areas; forest takes only
    elves, quarry only dwarves; mine and gold mine take both; none may be left out."""
    g = start(3)
    apply(g, "pass", 0)
    assert g.step == "spread"
    assert all(c[0] == "spread" for c in legal_commands(g, 0))
    with pytest.raises(CommandSyntaxError):
        apply(g, "spread elf quarry=3", 0)
    refused(g, "spread elf forest=2 mine=0 gold=0", 0, "§6")      # one left out
    refused(g, "spread elf forest=4 mine=0 gold=0", 0, "§6")      # more than there are
    refused(g, "spread dwarf quarry=3 mine=0 gold=0", 0, "§6")    # elves first
    apply(g, "spread elf forest=1 mine=1 gold=1", 0)
    with pytest.raises(CommandSyntaxError):
        apply(g, "spread dwarf forest=3", 0)
    apply(g, "spread dwarf quarry=0 mine=2 gold=1", 0)
    assert g.current == 1
    a = g.area[0]
    # area index * 4 + kind: forest 0, quarry 1, mine 2, gold 3; elf 0, dwarf 2
    assert (a[0], a[8], a[12], a[10], a[14], a[4]) == (1, 1, 1, 2, 1, 0)
    assert g.unplaced(0) == [0, 0, 0, 0]


@pytest.mark.parametrize("n, planks", [(2, 1), (3, 1), (4, 2), (5, 3)])
def test_s6_recruiters_desk_planks_by_player_count_and_fee(n, planks):
    """§6 / Data: 1/1/2/3 desk planks with 2/3/4/5 players; placing costs 2 gold."""
    g = start(n)
    assert len(g.desk) == planks
    for _ in range(planks):
        seat = g.current
        gold = res(g, seat)[3]
        apply(g, "place elf desk", seat)
        assert res(g, seat)[3] == gold - 2
    e = refused(g, "place elf desk", g.current, "§6")
    assert "taken" in e.reason


def test_s6_desk_needs_two_gold():
    """§6: a fee must be payable when placing."""
    g = start(3)
    set_res(g, 0, gold=1)
    assert not is_legal(g, "place elf desk", 0)
    refused(g, "place elf desk", 0, "§6")


def test_s6_kings_camp_lowest_free_plank_one_per_player_free():
    """§6: camp workers go on the lowest free plank; at most one per player per round; no
    fee. Planks: one per player (Data)."""
    g = start(3)
    assert len(g.camp) == 3
    apply(g, "place dwarf camp", 0)
    apply(g, "place elf camp", 1)
    assert g.camp == [0 * 4 + 2, 1 * 4 + 0, -1]
    assert res(g, 0)[3] == 5 and res(g, 1)[3] == 5
    apply(g, "place elf merchants", 2)
    refused(g, "place elf camp", 0, "§6")


def test_s6_guild_fee_to_the_supply_when_unowned():
    """§6: 1 gold to the supply if nobody owns the guild."""
    g = start(3)
    total = sum(p.res[3] for p in g.players)
    apply(g, "place elf miners", 0)
    assert res(g, 0)[3] == 4
    assert sum(p.res[3] for p in g.players) == total - 1


def test_s6_guild_fee_to_the_owner_when_another_player_owns_it():
    """§6: the fee goes to the owner if another player owns the guild."""
    g = start(3)
    own_guild(g, 2, "miners")
    apply(g, "place elf miners", 0)
    assert res(g, 0)[3] == 4 and res(g, 2)[3] == 6


def test_s6_no_fee_on_ones_own_guild_even_without_gold():
    """§6: nothing to pay on one's own guild, so no gold is needed."""
    g = start(3)
    own_guild(g, 0, "miners")
    set_res(g, 0, gold=0)
    apply(g, "place elf miners", 0)
    assert res(g, 0)[3] == 0


def test_s6_guild_fee_must_be_payable():
    g = start(3)
    set_res(g, 0, gold=0)
    refused(g, "place elf miners", 0, "§6")
    assert [c for c in legal_commands(g, 0) if c[0] == "place" and c[2] >= 100] == []


def test_s6_one_worker_per_plank():
    """§1 / §6: a plank holds one worker: an occupied guild plank is refused."""
    g = start(3)
    apply(g, "place elf miners", 0)
    # one worker per plank is stated in §1 (Planks) and in §6 (on a *free* plank)
    e = refused(g, "place dwarf miners", 1, ("§1", "§6"))
    assert "already" in e.reason


def test_s6_property_planks_only_on_own_built_cards():
    """§6: property planks only on the placing player's own built cards (Blacksmith: no
    fee, no lock)."""
    g = start(3)
    mine = give_built(g, 0, "blacksmith")
    theirs = give_built(g, 1, "blacksmith")
    apply(g, f"place dwarf #{mine}", 0)
    assert res(g, 0)[3] == 5
    apply(g, "pass", 1)
    spread_all(g, 1)
    apply(g, "pass", 2)
    spread_all(g, 2)
    refused(g, f"place elf #{theirs}", 0, "§6")
    refused(g, f"place elf #{mine}", 0, ("§1", "§6"))             # occupied


def test_s6_cards_in_hand_have_no_usable_plank():
    """§6 / §8: a card's plank is usable only once it is built."""
    g = start(3)
    hand_card = g.players[0].hand[0]
    refused(g, f"place elf #{hand_card}", 0, "§6")


@pytest.mark.parametrize("kind", ["tower", "inn"])
def test_s6_plank_behind_a_gnome_lock_and_its_fee(kind):
    """§6 / §13: the Tower's and Inn's planks are behind their gnome lock, and cost 1 gold
    to the supply once unlocked."""
    g = start(3)
    locked = give_built(g, 0, kind)
    unlocked = give_built(g, 0, kind, gnomes=1)
    refused(g, f"place elf #{locked}", 0, "§13")
    apply(g, f"place elf #{unlocked}", 0)
    assert res(g, 0)[3] == 4


def test_s6_unlocked_tower_plank_needs_the_gold():
    g = start(3)
    tower = give_built(g, 0, "tower", gnomes=1)
    set_res(g, 0, gold=0)
    refused(g, f"place elf #{tower}", 0, "§6")


def test_s6_masters_are_placed_as_masters():
    """§6 / §13: a master is one of the player's workers and can be placed like any."""
    g = start(3)
    set_workers(g, 0, 3, 3, master_elves=1)
    assert g.unplaced(0) == [2, 1, 3, 0]
    apply(g, "place master-elf camp", 0)
    assert g.unplaced(0) == [2, 0, 3, 0]
    refused(g, "place master-dwarf merchants", 1, "§6")   # seat 1 has no master dwarf
    apply(g, "pass", 1)
    spread_all(g, 1)
    apply(g, "pass", 2)
    spread_all(g, 2)
    refused(g, "place master-elf merchants", 0, "§6")  # none left


def test_s6_placed_workers_are_activated_and_returned_in_actions():
    """§6 / §8: a worker on a guild plank waits in the Actions phase for its activation."""
    g = start(3)
    apply(g, "place elf miners", 0)
    to_actions(g)
    assert g.players[0].waiting == [100 + 5]
    assert g.guild_plank[1] == 0
