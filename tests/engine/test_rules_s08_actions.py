"""§8 Actions: building properties, walls and guilds; activating every placed worker; the
trading post (one buy + one sell per visit, Decision: one unit each); hiring a gnome; buying
a card as the last action; the hand limit; turn-scoped allowances lapsing."""

import pytest

from belfort import IllegalCommandError, apply, is_legal, legal_commands
from belfort.data import SITE_ID
from scenario import (events_of, give_built, give_hand, mark, res, set_res, snapshot, start,
                      to_actions)


def refused(g, text, seat, rule):
    before = snapshot(g)
    with pytest.raises(IllegalCommandError) as err:
        apply(g, text, seat)
    rules = rule if isinstance(rule, tuple) else (rule,)
    assert err.value.rule in rules, err.value
    assert snapshot(g) == before
    return err.value


def actions(n=3, **kw):
    """A game at the start of round 1's Actions phase, seat 0's turn (crest 1)."""
    g = start(n, **kw)
    to_actions(g)
    assert g.current == 0
    return g


# --- building ------------------------------------------------------------------------------

def test_s8_build_pays_the_cost_and_marks_a_symbol_of_its_type():
    """§8: pay the card's cost to the supply, the card is built (face up), a marker goes on a
    free symbol of its type."""
    g = actions()
    c = give_hand(g, 0, "tower")
    set_res(g, 0, 2, 3, 1, 4)
    apply(g, f"build #{c} tower@3", 0)
    assert res(g, 0) == (1, 0, 0, 4)           # Tower: 1 wood, 3 stone, 1 metal
    assert c in g.players[0].built and c not in g.players[0].hand
    assert g.public[c] and g.owner[c] == 0
    assert g.board[SITE_ID["tower@3"]] == 0


def test_s8_building_without_the_resources_is_refused():
    """§8: a card cannot be built without its cost."""
    g = actions()
    c = give_hand(g, 0, "keep")
    set_res(g, 0, 2, 3, 1, 9)                  # Keep: 2 wood, 3 stone, 2 metal
    e = refused(g, f"build #{c} keep@0", 0, "§8")
    assert "metal" in e.reason
    assert not any(cmd[0] == "build" and cmd[1] == c for cmd in legal_commands(g, 0))


def test_s8_build_on_a_wrong_or_marked_symbol_is_refused():
    """§2 / §8: only a free symbol of the card's type."""
    g = actions()
    c = give_hand(g, 0, "pub")
    set_res(g, 0, 5, 5, 5, 5)
    refused(g, f"build #{c} tower@1", 0, "§2")
    mark(g, 1, "pub@1")
    refused(g, f"build #{c} pub@1", 0, "§2")
    apply(g, f"build #{c} pub@2", 0)


def test_s8_build_a_card_not_in_hand_is_refused():
    g = actions()
    set_res(g, 0, 5, 5, 5, 5)
    other = g.players[1].hand[0]
    refused(g, f"build #{other} pub@1", 0, ("§8", "§15"))


def test_s8_keep_takes_both_symbols_of_a_section():
    """§8 / §2: a Keep is marked on both symbols of one section (they count 2)."""
    g = actions()
    c = give_hand(g, 0, "keep")
    set_res(g, 0, 2, 3, 2, 0)
    apply(g, f"build #{c} keep@4", 0)
    from belfort.scoring import district_markers
    assert district_markers(g)[4][0] == 2


def test_s8_gatehouse_needs_both_symbols_free_and_marks_one():
    """§8: a Gatehouse goes on a gatehouse whose both symbols are free; one is marked."""
    g = actions()
    c = give_hand(g, 0, "gatehouse")
    set_res(g, 0, 0, 2, 2, 0)
    mark(g, 1, "gate0@1")
    refused(g, f"build #{c} gate0@0", 0, "§2")
    apply(g, f"build #{c} gate1@2", 0)
    assert g.board[SITE_ID["gate1@2"]] == 0 and g.board[SITE_ID["gate1@1"]] == -1


def test_s8_a_card_whose_type_has_no_free_symbol_cannot_be_built():
    """§2 / §8: five symbols per type; once all are marked a sixth... a card of that type
    cannot be built."""
    g = actions()
    c = give_hand(g, 0, "bank")
    set_res(g, 0, 9, 9, 9, 9)
    mark(g, 1, *(f"bank@{d}" for d in range(5)))
    assert not any(cmd[0] == "build" and cmd[1] == c for cmd in legal_commands(g, 0))
    refused(g, f"build #{c} bank@0", 0, "§2")


def test_s8_walls_cost_3_wood_3_stone_no_card_any_number():
    """§8: a wall costs 3 wood + 3 stone, needs no card, and any number may be built."""
    g = actions()
    set_res(g, 0, 6, 7, 0, 0)
    hand = list(g.players[0].hand)
    apply(g, "wall wall@1a", 0)
    apply(g, "wall wall@1b", 0)
    assert res(g, 0) == (0, 1, 0, 0)
    assert g.players[0].hand == hand
    assert g.board[SITE_ID["wall@1a"]] == 0 and g.board[SITE_ID["wall@1b"]] == 0
    set_res(g, 0, 2, 3, 0, 0)
    refused(g, "wall wall@2a", 0, "§8")
    set_res(g, 0, 3, 3, 0, 0)
    refused(g, "wall wall@1a", 0, ("§8", "§2"))    # already marked


def test_s8_build_a_guild_pays_its_cost_owns_it_and_cannot_be_built_again():
    """§8: pay the cost on the guild tile, mark its symbol, own it; an owned guild cannot be
    built again; any number of guilds."""
    g = actions()
    set_res(g, 0, 4, 4, 2, 2)
    apply(g, "guild miners", 0)                  # 2 wood, 2 stone, 2 gold
    apply(g, "guild merchants", 0)               # 2 wood, 2 stone, 1 metal
    assert res(g, 0) == (0, 0, 1, 0)
    assert g.guild_owner(1) == 0 and g.guild_owner(0) == 0
    end_turn(g, 0)
    set_res(g, 1, 9, 9, 9, 9)
    refused(g, "guild miners", 1, "§8")


def end_turn(g, seat):
    assert g.current == seat
    apply(g, "end", seat)


# --- activations ------------------------------------------------------------------------------

def test_s8_every_placed_worker_must_be_activated_before_the_turn_ends():
    """§8: every placed worker is activated (and taken back) before the turn may end."""
    g = start(3)
    apply(g, "place elf miners", 0)
    to_actions(g)
    refused(g, "end", 0, "§8")
    assert ("end",) not in legal_commands(g, 0)
    assert not any(c[0] == "buy-card" for c in legal_commands(g, 0))
    apply(g, "activate miners", 0)
    assert g.players[0].waiting == [] and g.guild_plank[1] == -1
    apply(g, "end", 0)


def test_s8_activating_a_worker_not_placed_is_refused():
    g = actions()
    refused(g, "activate miners", 0, "§8")


def test_s8_decision_an_action_that_cannot_be_carried_out_is_wasted():
    """§8 Decision: a worker whose action cannot be carried out is still activated and
    returned; the action is wasted (Inn with no worker left in the reserve)."""
    g = start(3)
    inn = give_built(g, 0, "inn", gnomes=1)
    g.players[0].elves = g.players[0].dwarves = 7
    apply(g, f"place elf #{inn}", 0)
    to_actions(g)
    assert [c for c in legal_commands(g, 0) if c[0] == "activate"] == [("activate", 1000 + inn)]
    apply(g, f"activate #{inn}", 0)
    assert (g.players[0].elves, g.players[0].dwarves) == (7, 7)
    apply(g, "end", 0)


# --- the trading post ---------------------------------------------------------------------------

def test_s8_trading_post_one_buy_and_one_sell_per_visit_at_the_printed_prices():
    """§8 / Data: one visit = at most one buy and one sell, of one unit each, in either
    order; buy wood/stone 1 gold, metal 2 gold; sell any for 1 gold. The rulebook's
    example: sell 1 metal for 1 gold, then buy 1 wood with it."""
    g = actions()
    set_res(g, 0, 0, 0, 1, 0)
    apply(g, "sell metal", 0)
    assert res(g, 0) == (0, 0, 0, 1)
    apply(g, "buy wood", 0)
    assert res(g, 0) == (1, 0, 0, 0)
    set_res(g, 0, 5, 5, 5, 5)
    refused(g, "buy stone", 0, "§8")
    refused(g, "sell wood", 0, "§8")


def test_s8_trading_post_metal_costs_two_gold():
    g = actions()
    set_res(g, 0, 0, 0, 0, 1)
    refused(g, "buy metal", 0, "§8")
    set_res(g, 0, 0, 0, 0, 2)
    apply(g, "buy metal", 0)
    assert res(g, 0) == (0, 0, 1, 0)


def test_s8_trading_post_visit_lapses_at_the_end_of_the_turn():
    """§8: turn-scoped allowances lapse; the next turn has its own visit."""
    g = actions()
    apply(g, "buy wood", 0)
    end_turn(g, 0)
    apply(g, "buy wood", 1)
    end_turn(g, 1)
    end_turn(g, 2)
    from scenario import finish_round
    finish_round(g)
    to_actions(g)
    assert g.current == 0
    apply(g, "buy wood", 0)


def test_s8_market_gnomes_give_extra_visits():
    """§8 / §13: each Market gnome gives one more visit per turn (2nd, 3rd)."""
    g = actions()
    give_built(g, 0, "market", gnomes=2)
    set_res(g, 0, 5, 5, 5, 9)
    # this turn started before the gnomes were there: the next turn counts them
    end_turn(g, 0)
    end_turn(g, 1)
    end_turn(g, 2)
    from scenario import finish_round
    finish_round(g)
    to_actions(g)
    for _ in range(3):
        apply(g, "buy stone", 0)
        apply(g, "sell wood", 0)
    refused(g, "buy stone", 0, "§8")


# --- hiring a gnome -------------------------------------------------------------------------------

def test_s8_hire_a_gnome_once_per_turn_for_3_gold_and_it_unlocks_at_once():
    """§8: once per turn, pay 3 gold, a gnome from the supply onto a free lock of one of your
    built cards; the locked ability is unlocked at once (Bank: take 1 gold)."""
    g = actions()
    bank = give_built(g, 0, "bank")
    smith = give_built(g, 0, "blacksmith")
    set_res(g, 0, 0, 0, 0, 7)
    supply = g.gnome_supply
    assert not is_legal(g, f"bank #{bank}", 0)
    apply(g, f"hire #{bank}", 0)
    assert res(g, 0)[3] == 4 and g.gnomes[bank] == 1 and g.gnome_supply == supply - 1
    apply(g, f"bank #{bank}", 0)
    assert res(g, 0)[3] == 5
    refused(g, f"hire #{smith}", 0, "§8")


def test_s8_hire_needs_a_free_lock_gold_and_a_gnome_in_the_supply():
    """§8: not possible without a free gnome lock, without 3 gold, or with an empty supply."""
    g = actions()
    keep = give_built(g, 0, "keep")              # no lock at all
    bank = give_built(g, 0, "bank", gnomes=1)    # lock taken
    smith = give_built(g, 0, "blacksmith")
    set_res(g, 0, 0, 0, 0, 9)
    refused(g, f"hire #{keep}", 0, ("§8", "§13"))   # "not possible without a free lock"
    refused(g, f"hire #{bank}", 0, ("§8", "§13"))
    set_res(g, 0, 0, 0, 0, 2)
    refused(g, f"hire #{smith}", 0, "§8")
    set_res(g, 0, 0, 0, 0, 9)
    g.gnome_supply = 0
    refused(g, f"hire #{smith}", 0, "§8")
    assert not any(c[0] == "hire" for c in legal_commands(g, 0))


# --- buying a card, end of turn ------------------------------------------------------------------

def test_s8_buying_a_card_is_the_last_action_and_refills_the_pool_at_once():
    """§8 / §15: pay 1 gold, take a pool card; the pool refills from the draw pile at once;
    the purchase ends the turn."""
    g = actions()
    pool = list(g.pool)
    top = g.draw[-1]
    gold = res(g, 0)[3]
    apply(g, f"buy-card #{pool[1]}", 0)
    assert pool[1] in g.players[0].hand
    assert g.pool == [pool[0], pool[2], top] and g.public[top]
    assert res(g, 0)[3] == gold - 1
    assert g.current == 1


def test_s8_buying_the_top_card_of_the_draw_pile():
    g = actions()
    top = g.draw[-1]
    apply(g, "buy-card top", 0)
    assert top in g.players[0].hand and not g.public[top]
    assert g.current == 1


def test_s8_buying_a_card_needs_a_gold():
    g = actions()
    set_res(g, 0, 0, 0, 0, 0)
    refused(g, "buy-card top", 0, "§8")


def test_s8_hand_limit_discard_down_to_five_face_up_at_end_of_turn():
    """§8: a player with more than 5 cards at the end of the turn discards down to 5, face
    up, to the discard pile."""
    g = actions()
    extra = [give_hand(g, 0, "library") for _ in range(3)]   # 3 kept + 3 = 6
    assert len(g.players[0].hand) == 6
    apply(g, "end", 0)
    assert g.step == "discard" and g.current == 0 and g.pending == 1
    assert all(c[0] == "discard" for c in legal_commands(g, 0))
    ev = apply(g, f"discard #{extra[0]}:library", 0)
    assert len(g.players[0].hand) == 5
    assert g.discard[-1] == extra[0] and g.public[extra[0]]
    assert g.current == 1 and events_of(ev, "discard")


def test_s8_turns_follow_crest_order():
    """§8: in turn order, each player takes a whole turn, then the next."""
    g = start(4, crests=[3, 1, 4, 2])
    to_actions(g)
    seen = []
    while g.phase == "actions":
        seen.append(g.current)
        apply(g, "end", g.current)
    assert seen == [1, 3, 0, 2]


def test_s8_a_gnome_hired_onto_a_market_unlocks_its_visit_at_once():
    """§8 / §13: a hired gnome's locked ability is unlocked at once: a gnome hired onto a
    Market in this turn gives the 2nd trading-post visit in this same turn."""
    g = actions()
    market = give_built(g, 0, "market")
    set_res(g, 0, 5, 5, 5, 9)
    apply(g, "buy stone", 0)
    apply(g, "sell wood", 0)
    refused(g, "buy stone", 0, "§8")
    apply(g, f"hire #{market}", 0)
    apply(g, "buy stone", 0)
    apply(g, "sell wood", 0)
    refused(g, "buy stone", 0, "§8")
