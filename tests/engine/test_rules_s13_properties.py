"""§13 Property cards: each card's plank and gnome lock(s), and the master invariant
(Decision: master dwarves = min(Pubs with a gnome, dwarves in play, 5); likewise elves and
Gardens; an upgrade waiting for a normal worker takes effect when one is gained)."""

import pytest

from belfort import IllegalCommandError, apply, is_legal, legal_commands, public_view
from belfort.data import SITE_ID
from scenario import (finish_round, give_built, give_hand, mark, res, set_res, set_workers,
                      snapshot, start, to_actions)


def refused(g, text, seat, rule):
    before = snapshot(g)
    with pytest.raises(IllegalCommandError) as err:
        apply(g, text, seat)
    rules = rule if isinstance(rule, tuple) else (rule,)
    assert err.value.rule in rules, err.value
    assert snapshot(g) == before


def placed_then_actions(g, seat_cards):
    """Seat 0 places one elf on each given plank text (Placement goes round the table:
    the others pass), then on to the Actions phase."""
    for text in seat_cards:
        assert g.current == 0
        apply(g, text, 0)
        for seat in (1, 2):
            if g.current == seat and not g.players[seat].passed:
                apply(g, "pass", seat)
                _spread(g, seat)
    to_actions(g)
    assert g.current == 0


def _spread(g, seat):
    left = g.unplaced(seat)
    if left[0]:
        apply(g, f"spread elf forest={left[0]} mine=0 gold=0", seat)
    if left[2]:
        apply(g, f"spread dwarf quarry={left[2]} mine=0 gold=0", seat)


# --- Pub, Gardens and the master invariant ---------------------------------------------------

def test_s13_pub_gnome_flips_a_dwarf_to_master_at_once():
    """§13 Pub: on unlocking, immediately flip one of your normal dwarves to master."""
    g = start(3)
    to_actions(g)
    pub = give_built(g, 0, "pub")
    set_res(g, 0, gold=3)
    assert g.masters(0) == (0, 0)
    apply(g, f"hire #{pub}", 0)
    assert g.masters(0) == (0, 1)
    assert public_view(g)["players"][0]["master_dwarves"] == 1


def test_s13_gardens_gnome_flips_an_elf_to_master():
    """§13 Gardens: on unlocking, flip one of your normal elves to master."""
    g = start(3)
    to_actions(g)
    gardens = give_built(g, 0, "gardens")
    set_res(g, 0, gold=3)
    apply(g, f"hire #{gardens}", 0)
    assert g.masters(0) == (1, 0)
    finish_round(g)
    assert g.unplaced(0) == [2, 1, 3, 0]


def test_s13_decision_master_upgrade_waits_for_a_normal_worker():
    """§13 Decision: masters = min(Pubs with a gnome, dwarves in play, 5); an upgrade with
    no dwarf to flip takes effect as soon as one is gained; a master stays a master."""
    g = start(3)
    set_workers(g, 0, 3, 0, master_dwarves=2)
    assert g.masters(0) == (0, 0)
    inn = give_built(g, 0, "inn", gnomes=1)
    apply(g, f"place elf #{inn}", 0)
    to_actions(g)
    apply(g, f"activate #{inn} dwarf", 0)
    assert g.players[0].dwarves == 1 and g.masters(0) == (0, 1)
    finish_round(g)
    assert g.unplaced(0) == [3, 0, 0, 1]


NO_GARDENS_DEALT = ["pub", "tower", "inn", "blacksmith", "bank"] * 3 + ["market", "library", "keep"]


def test_s13_decision_masters_never_exceed_five():
    g = start(3, top=NO_GARDENS_DEALT)
    set_workers(g, 0, 7, 3, master_elves=5)
    assert g.masters(0) == (5, 0)
    assert g.unplaced(0) == [2, 5, 3, 0]


# --- Tower ----------------------------------------------------------------------------------------

def test_s13_tower_plank_places_a_gnome_not_counted_against_the_hire_limit():
    """§13 Tower: behind the lock, fee 1 gold: take a gnome from the supply onto one of your
    free gnome locks — not counted against the one-hire-per-turn limit."""
    g = start(3)
    tower = give_built(g, 0, "tower", gnomes=1)
    bank = give_built(g, 0, "bank")
    smith = give_built(g, 0, "blacksmith")
    apply(g, f"place elf #{tower}", 0)
    assert res(g, 0)[3] == 4                        # the 1 gold fee at placement
    placed_then_actions(g, [])
    set_res(g, 0, gold=3)
    apply(g, f"hire #{smith}", 0)
    supply = g.gnome_supply
    apply(g, f"activate #{tower} gnome #{bank}", 0)
    assert g.gnomes[bank] == 1 and g.gnome_supply == supply - 1
    assert res(g, 0)[3] == 0                        # the tower's gnome itself is free
    apply(g, "end", 0)


def test_s13_tower_plank_is_wasted_without_a_free_lock():
    """§13 Tower: wasted if there is no free lock (or no gnome)."""
    g = start(3)
    tower = give_built(g, 0, "tower", gnomes=1)
    placed_then_actions(g, [f"place elf #{tower}"])
    acts = [c for c in legal_commands(g, 0) if c[0] == "activate"]
    assert acts == [("activate", 1000 + tower)]
    supply = g.gnome_supply
    apply(g, f"activate #{tower}", 0)
    assert g.gnome_supply == supply


# --- Inn ------------------------------------------------------------------------------------------

def test_s13_inn_plank_gains_an_elf_or_a_dwarf_from_the_reserve():
    """§13 Inn: behind the lock, fee 1 gold: gain 1 elf or 1 dwarf of your colour."""
    g = start(3)
    inn = give_built(g, 0, "inn", gnomes=1)
    apply(g, f"place dwarf #{inn}", 0)
    assert res(g, 0)[3] == 4                        # the 1 gold fee at placement
    placed_then_actions(g, [])
    apply(g, f"activate #{inn} elf", 0)
    assert (g.players[0].elves, g.players[0].dwarves) == (4, 3)


def test_s13_inn_lock_unlocks_the_plank():
    g = start(3)
    inn = give_built(g, 0, "inn")
    refused(g, f"place elf #{inn}", 0, "§13")
    g.gnomes[inn] = 1
    g.changed()
    assert is_legal(g, f"place elf #{inn}", 0)


# --- Blacksmith -----------------------------------------------------------------------------------

def test_s13_blacksmith_plank_gives_one_metal_no_fee():
    """§13 Blacksmith plank: gain 1 metal (no lock in front of it, no fee)."""
    g = start(3)
    smith = give_built(g, 0, "blacksmith")
    placed_then_actions(g, [f"place elf #{smith}"])
    assert res(g, 0)[2:] == (1, 5)
    apply(g, f"activate #{smith}", 0)
    assert res(g, 0)[2:] == (2, 5)


def test_s13_blacksmith_lock_buys_one_metal_for_one_gold_once_per_round():
    """§13 Blacksmith lock: once per round, in your Actions turn, buy 1 metal for 1 gold."""
    g = start(3)
    to_actions(g)
    smith = give_built(g, 0, "blacksmith", gnomes=1)
    set_res(g, 0, 0, 0, 0, 3)
    apply(g, f"smith #{smith}", 0)
    assert res(g, 0) == (0, 0, 1, 2)
    refused(g, f"smith #{smith}", 0, "§13")
    finish_round(g)
    to_actions(g)
    assert is_legal(g, f"smith #{smith}", 0)


def test_s13_blacksmith_lock_needs_a_gold():
    g = start(3)
    to_actions(g)
    smith = give_built(g, 0, "blacksmith", gnomes=1)
    set_res(g, 0, 0, 0, 0, 0)
    refused(g, f"smith #{smith}", 0, "§13")


# --- Bank -----------------------------------------------------------------------------------------

def test_s13_bank_lock_takes_one_gold_once_per_turn():
    """§13 Bank lock: once per turn, in your Actions turn, take 1 gold."""
    g = start(3)
    to_actions(g)
    bank = give_built(g, 0, "bank", gnomes=1)
    unlocked_elsewhere = give_built(g, 1, "bank", gnomes=1)
    gold = res(g, 0)[3]
    apply(g, f"bank #{bank}", 0)
    assert res(g, 0)[3] == gold + 1
    refused(g, f"bank #{bank}", 0, "§13")
    refused(g, f"bank #{unlocked_elsewhere}", 0, "§13")


def test_s13_bank_without_gnome_gives_nothing():
    g = start(3)
    to_actions(g)
    bank = give_built(g, 0, "bank")
    refused(g, f"bank #{bank}", 0, "§13")


# --- Market ---------------------------------------------------------------------------------------

def test_s13_market_plank_gives_two_gold():
    """§13 Market plank: gain 2 gold."""
    g = start(3)
    market = give_built(g, 0, "market")
    placed_then_actions(g, [f"place elf #{market}"])
    gold = res(g, 0)[3]
    apply(g, f"activate #{market}", 0)
    assert res(g, 0)[3] == gold + 2


def test_s13_market_has_two_locks_for_a_second_and_third_visit():
    """§13 Market: two locks; the first gives a 2nd trading-post visit each turn, the second
    a 3rd."""
    g = start(3)
    market = give_built(g, 0, "market", gnomes=1)
    to_actions(g)
    set_res(g, 0, 0, 0, 0, 9)
    apply(g, "buy wood", 0)
    apply(g, "buy wood", 0)
    refused(g, "buy wood", 0, "§8")
    apply(g, f"hire #{market}", 0)
    assert g.gnomes[market] == 2
    apply(g, "buy wood", 0)
    refused(g, "buy wood", 0, "§8")
    assert not any(c[0] == "hire" for c in legal_commands(g, 0))


# --- Gatehouse ------------------------------------------------------------------------------------

def test_s13_gatehouse_lock_puts_a_second_marker_on_the_other_symbol():
    """§13 Gatehouse: on unlocking, put a second marker on the free other symbol of a
    gatehouse where you have a marker."""
    g = start(3)
    to_actions(g)
    gate = give_built(g, 0, "gatehouse", site="gate2@3")
    set_res(g, 0, gold=3)
    hires = [c for c in legal_commands(g, 0) if c[0] == "hire"]
    assert hires == [("hire", gate, SITE_ID["gate2@2"])]
    apply(g, f"hire #{gate} gate2@2", 0)
    assert g.board[SITE_ID["gate2@2"]] == 0 and g.board[SITE_ID["gate2@3"]] == 0


def test_s13_gatehouse_lock_is_wasted_without_a_free_other_symbol():
    """§13 Gatehouse: wasted if there is no such free symbol (the gnome still unlocks)."""
    g = start(3)
    to_actions(g)
    gate = give_built(g, 0, "gatehouse", site="gate2@3")
    mark(g, 1, "gate2@2")
    set_res(g, 0, gold=3)
    apply(g, f"hire #{gate}", 0)
    assert g.gnomes[gate] == 1
    assert g.board[SITE_ID["gate2@2"]] == 1


# --- Library --------------------------------------------------------------------------------------

def test_s13_library_plank_draws_two_then_discards_any_two():
    """§13 Library plank: draw 2 from the draw pile, then discard 2 from hand (any 2)."""
    g = start(3)
    lib = give_built(g, 0, "library")
    placed_then_actions(g, [f"place elf #{lib}"])
    hand = list(g.players[0].hand)
    top2 = [g.draw[-1], g.draw[-2]]
    apply(g, f"activate #{lib}", 0)
    assert g.players[0].hand == hand + top2
    assert g.step == "discard" and g.pending == 2
    old = hand[0]
    apply(g, f"discard #{old}:{_t(g, old)}", 0)
    apply(g, f"discard #{top2[0]}:{_t(g, top2[0])}", 0)
    assert g.step == "" and g.players[0].hand == hand[1:] + top2[1:]
    assert g.discard[-2:] == [old, top2[0]]
    apply(g, "end", 0)


def _t(g, c):
    from belfort import CARD_TYPES
    return CARD_TYPES[g.types[c]]


def test_s13_library_lock_draws_one_after_the_turn_then_discards_down_to_five():
    """§13 Library lock: after your Actions turn ends, draw 1 card free, then discard down
    to 5."""
    g = start(3)
    to_actions(g)
    give_built(g, 0, "library", gnomes=1)
    give_hand(g, 0, "keep")
    give_hand(g, 0, "keep")                    # 5 cards
    top = g.draw[-1]
    apply(g, "end", 0)
    assert top in g.players[0].hand and len(g.players[0].hand) == 6
    assert g.step == "discard" and g.current == 0
    apply(g, f"discard #{top}:{_t(g, top)}", 0)
    assert g.current == 1


def test_s13_keep_has_no_lock_and_no_plank():
    """§13 Keep: no plank, no lock."""
    g = start(3)
    keep = give_built(g, 0, "keep")
    refused(g, f"place elf #{keep}", 0, "§13")
    to_actions(g)
    set_res(g, 0, gold=9)
    assert not any(c[0] == "hire" for c in legal_commands(g, 0))


@pytest.mark.parametrize("kind", ["pub", "gardens", "bank", "gatehouse", "keep"])
def test_s13_cards_without_a_plank(kind):
    """§13: Pub, Gardens, Bank, Gatehouse and Keep have no worker plank."""
    g = start(3)
    c = give_built(g, 0, kind, gnomes=0)
    assert not is_legal(g, f"place elf #{c}", 0)
