"""§14 Guilds: each of the twelve guilds' actions, activated in the Actions phase."""

import pytest

from belfort import CARD_TYPES, IllegalCommandError, apply, is_legal, legal_commands
from belfort.data import SITE_ID
from scenario import (give_built, mark, own_guild, res, set_res, snapshot, start,
                      to_actions)

BASIC = ("merchants", "librarians", "architects", "recruiters", "wizards")
RESOURCE = ("sawyers", "miners", "bankers", "masons", "thieves")
INTERACTIVE = ("bandits", "spies", "thieves", "wizards", "merchants")


def refused(g, text, seat, rule):
    before = snapshot(g)
    with pytest.raises(IllegalCommandError) as err:
        apply(g, text, seat)
    rules = rule if isinstance(rule, tuple) else (rule,)
    assert err.value.rule in rules, err.value
    assert snapshot(g) == before


def on_guild(guild, guilds, n=3, worker="elf", **kw):
    """Seat 0 (crest 1) places one worker on `guild`; everyone passes; Actions, seat 0."""
    g = start(n, guilds=guilds, **kw)
    apply(g, f"place {worker} {guild}", 0)
    to_actions(g)
    assert g.current == 0 and g.players[0].waiting
    return g


def t(g, c):
    return CARD_TYPES[g.types[c]]


# --- basic ----------------------------------------------------------------------------------------

def test_s14_merchants_two_exchanges_and_three_extra_visits_this_phase():
    """§14 Merchants: up to twice this Actions phase exchange 1 wood or 1 stone for 1
    metal; and three extra trading-post visits this phase."""
    g = on_guild("merchants", BASIC)
    refused(g, "exchange wood", 0, "§14")           # not before the activation
    apply(g, "activate merchants", 0)
    set_res(g, 0, 3, 3, 0, 9)
    apply(g, "exchange wood", 0)
    apply(g, "exchange stone", 0)
    assert res(g, 0) == (2, 2, 2, 9)
    refused(g, "exchange wood", 0, "§14")
    set_res(g, 0, 2, 4, 2, 9)
    for _ in range(4):                              # 1 + 3 visits
        apply(g, "buy wood", 0)
        apply(g, "sell stone", 0)
    refused(g, "buy wood", 0, "§8")
    assert res(g, 0) == (6, 0, 2, 9)


def test_s14_merchants_allowances_lapse_with_the_turn():
    """§14 Merchants: unused exchanges and visits lapse."""
    g = on_guild("merchants", BASIC)
    apply(g, "activate merchants", 0)
    apply(g, "end", 0)
    apply(g, "buy wood", 1)
    refused(g, "buy wood", 1, "§8")
    refused(g, "exchange wood", 1, "§14")


def test_s14_librarians_draw_three_then_discard_one_maybe_a_new_card():
    """§14 Librarians: draw 3 from the draw pile, then discard 1 from hand (may be new)."""
    g = on_guild("librarians", BASIC)
    hand = list(g.players[0].hand)
    top3 = [g.draw[-1], g.draw[-2], g.draw[-3]]
    apply(g, "activate librarians", 0)
    assert g.players[0].hand == hand + top3
    assert g.step == "discard" and g.pending == 1
    apply(g, f"discard #{top3[1]}:{t(g, top3[1])}", 0)
    assert g.step == "" and len(g.players[0].hand) == 5
    assert g.discard[-1] == top3[1]


def test_s14_architects_mark_a_property_symbol_without_a_card():
    """§14 Architects: mark a free property symbol, paying its usual cost less 1 metal or 2
    wood/stone in any mix; no card is used (no income, plank or lock)."""
    g = on_guild("architects", BASIC)
    set_res(g, 0, 1, 3, 1, 0)                    # Tower: 1 wood, 3 stone, 1 metal
    hand, built = list(g.players[0].hand), list(g.players[0].built)
    options = {c[3] for c in legal_commands(g, 0)
               if c[:2] == ("activate", 102) and c[2] == SITE_ID["tower@2"]}
    assert options == {"m", "ws", "ss"}          # "ww" would need 2 wood
    apply(g, "activate architects tower@2 discount=m", 0)
    assert res(g, 0) == (0, 0, 1, 0)
    assert g.board[SITE_ID["tower@2"]] == 0
    assert g.players[0].hand == hand and g.players[0].built == built


@pytest.mark.parametrize("code, left", [("ww", (2, 0, 0, 0)), ("ss", (0, 2, 0, 0)),
                                        ("ws", (1, 1, 0, 0))])
def test_s14_architects_wood_stone_discounts_on_a_wall(code, left):
    """§14 Architects: a wall for 3 wood + 3 stone less 2 wood/stone in any mix."""
    g = on_guild("architects", BASIC)
    set_res(g, 0, 3, 3, 0, 0)
    apply(g, f"activate architects wall@3b discount={code}", 0)
    assert res(g, 0) == left and g.board[SITE_ID["wall@3b"]] == 0


def test_s14_architects_guild_is_owned_and_keep_takes_a_section():
    """§14 Architects: a guild marked this way is owned as usual; a Keep takes both
    symbols of a section; a Gatehouse needs both symbols free."""
    g = on_guild("architects", BASIC)
    set_res(g, 0, 9, 9, 9, 9)
    mark(g, 1, "gate0@1")
    assert not any(c[:3] == ("activate", 102, SITE_ID["gate0@0"]) for c in legal_commands(g, 0))
    apply(g, "activate architects keep@4 discount=m", 0)     # keep: 2w 3s 2m → 2w 3s 1m
    assert g.board[SITE_ID["keep@4"]] == 0
    assert res(g, 0) == (7, 6, 8, 9)
    g.players[0].waiting.append(102)                          # a second worker (test only)
    g.guild_plank[2] = 0
    g.changed()
    apply(g, "activate architects guild@3 discount=ws", 0)   # recruiters: 2w 2s 2g → 1w 1s 2g
    assert g.guild_owner(3) == 0
    assert res(g, 0) == (6, 5, 8, 7)


def test_s14_architects_discount_must_apply_in_full():
    """§14 Architects: the discount is 1 metal *or* 2 wood/stone taken off the cost (the rules
    do not say what happens when the cost lacks that resource; the engine, and this test,
    read it as "the discount must apply in full"): the Recruiters' guild costs no metal, so
    only the wood/stone discounts are offered."""
    g = on_guild("architects", BASIC)
    set_res(g, 0, 9, 9, 9, 9)
    opts = {c[3] for c in legal_commands(g, 0) if c[:3] == ("activate", 102, SITE_ID["guild@3"])}
    assert opts == {"ww", "ss", "ws"}


def test_s14_recruiters_gain_a_worker_or_place_a_gnome():
    """§14 Recruiters: gain 1 elf or dwarf of your colour from the reserve, or take 1 gnome
    from the supply onto a free gnome lock of your built cards."""
    g = on_guild("recruiters", BASIC)
    bank = give_built(g, 0, "bank")
    opts = {c[2:] for c in legal_commands(g, 0) if c[:2] == ("activate", 103)}
    assert opts == {("elf",), ("dwarf",), ("gnome", bank, -1)}
    apply(g, "activate recruiters dwarf", 0)
    assert g.players[0].dwarves == 4


def test_s14_recruiters_gnome_option():
    g = on_guild("recruiters", BASIC)
    bank = give_built(g, 0, "bank")
    supply = g.gnome_supply
    apply(g, f"activate recruiters gnome #{bank}", 0)
    assert g.gnomes[bank] == 1 and g.gnome_supply == supply - 1
    assert res(g, 0)[3] == 5 - 1                   # only the guild fee was paid
    apply(g, f"bank #{bank}", 0)


def test_s14_recruiters_wasted_when_neither_is_possible():
    g = on_guild("recruiters", BASIC)
    g.players[0].elves = g.players[0].dwarves = 7
    g.changed()
    assert [c for c in legal_commands(g, 0) if c[0] == "activate"] == [("activate", 103)]
    apply(g, "activate recruiters", 0)
    assert g.players[0].waiting == []


# --- resource -------------------------------------------------------------------------------------

@pytest.mark.parametrize("guild, gain", [("sawyers", (4, 0, 0, 0)), ("miners", (0, 0, 2, 0)),
                                         ("bankers", (0, 0, 0, 3)), ("masons", (0, 4, 0, 0))])
def test_s14_resource_guilds(guild, gain):
    """§14 Resource guilds: Sawyers 4 wood, Miners 2 metal, Bankers 3 gold, Masons 4 stone."""
    g = on_guild(guild, RESOURCE)
    before = res(g, 0)
    apply(g, f"activate {guild}", 0)
    assert res(g, 0) == tuple(a + b for a, b in zip(before, gain))


# --- interactive ----------------------------------------------------------------------------------

def test_s14_thieves_up_to_two_gold_from_one_player():
    """§14 Thieves: take up to 2 gold from one player."""
    g = on_guild("thieves", RESOURCE)
    set_res(g, 1, gold=1)
    set_res(g, 2, gold=7)
    opts = [c[2:] for c in legal_commands(g, 0) if c[:2] == ("activate", 108)]
    assert ("from", 1) in opts and ("from", 2) in opts and ("each", 1, 2) in opts
    apply(g, "activate thieves from 2", 0)
    assert res(g, 2)[3] == 5 and res(g, 0)[3] == 4 + 2


def test_s14_thieves_takes_what_there_is():
    g = on_guild("thieves", RESOURCE)
    set_res(g, 1, gold=1)
    gold = res(g, 0)[3]
    apply(g, "activate thieves from 1", 0)
    assert res(g, 1)[3] == 0 and res(g, 0)[3] == gold + 1


def test_s14_thieves_one_gold_from_each_of_up_to_three_players():
    """§14 Thieves: or 1 gold from each of up to 3 different players."""
    g = on_guild("thieves", RESOURCE, n=5)
    gold = [res(g, s)[3] for s in range(5)]
    assert not is_legal(g, "activate thieves each 1 2 3 4", 0)
    apply(g, "activate thieves each 4 1 3", 0)
    after = [res(g, s)[3] for s in range(5)]
    assert after == [gold[0] + 3, gold[1] - 1, gold[2], gold[3] - 1, gold[4] - 1]


def test_s14_thieves_no_victim_with_gold_wastes_the_action():
    g = on_guild("thieves", RESOURCE)
    set_res(g, 1, gold=0)
    set_res(g, 2, gold=0)
    assert [c for c in legal_commands(g, 0) if c[0] == "activate"] == [("activate", 108)]


def test_s14_bandits_one_metal_or_two_wood_stone_from_one_player():
    """§14 Bandits: from one player take 1 metal or up to 2 wood/stone (any mix)."""
    g = on_guild("bandits", INTERACTIVE)
    set_res(g, 1, 1, 1, 1, 0)
    set_res(g, 0, 0, 0, 0, 0)
    opts = {c[2:] for c in legal_commands(g, 0) if c[:2] == ("activate", 109)}
    assert ("from", 1, 2) in opts and ("from", 1, 0, 1) in opts
    assert ("from", 1, 2, 2) not in opts
    apply(g, "activate bandits from 1 wood stone", 0)
    assert res(g, 1) == (0, 0, 1, 0)
    assert res(g, 0) == (1, 1, 0, 0)


def test_s14_bandits_metal():
    g = on_guild("bandits", INTERACTIVE)
    set_res(g, 1, 5, 5, 3, 0)
    metal = res(g, 0)[2]
    apply(g, "activate bandits from 1 metal", 0)
    assert res(g, 1) == (5, 5, 2, 0) and res(g, 0)[2] == metal + 1


def test_s14_bandits_one_wood_or_stone_from_each_of_up_to_three():
    """§14 Bandits: or 1 wood or 1 stone from each of up to 3 different players."""
    g = on_guild("bandits", INTERACTIVE, n=4)
    for seat in range(4):
        set_res(g, seat, *((0, 0, 0, 0) if seat == 0 else (1, 1, 0, 0)))
    apply(g, "activate bandits each 1:wood 2:stone 3:wood", 0)
    assert res(g, 0) == (2, 1, 0, 0)
    assert [res(g, s)[:2] for s in (1, 2, 3)] == [(0, 1), (1, 0), (0, 1)]


def test_s14_wizards_swap_two_properties_of_the_same_type():
    """§14 Wizards: two properties of the same type swap all markers (either may be empty);
    cards stay with their owners (Decision)."""
    g = on_guild("wizards", BASIC)
    card = give_built(g, 1, "tower", site="tower@1")
    mark(g, 2, "tower@3")
    apply(g, "activate wizards tower@1 tower@3", 0)
    assert g.board[SITE_ID["tower@1"]] == 2 and g.board[SITE_ID["tower@3"]] == 1
    assert card in g.players[1].built


def test_s14_wizards_swap_with_an_empty_symbol_and_not_across_types():
    g = on_guild("wizards", BASIC)
    mark(g, 1, "pub@0")
    refused(g, "activate wizards pub@0 tower@2", 0, "§14")
    apply(g, "activate wizards pub@0 pub@4", 0)
    assert g.board[SITE_ID["pub@0"]] == -1 and g.board[SITE_ID["pub@4"]] == 1


def test_s14_wizards_swapped_guilds_swap_ownership():
    """§14 Wizards Decision: two guilds swapped also swap ownership (the marker)."""
    g = on_guild("wizards", BASIC)
    own_guild(g, 1, "merchants")      # district 0
    own_guild(g, 2, "recruiters")     # district 3
    apply(g, "activate wizards guild@0 guild@3", 0)
    assert g.guild_owner(0) == 2 and g.guild_owner(3) == 1


def test_s14_wizards_walls_and_keep_sections():
    g = on_guild("wizards", BASIC)
    mark(g, 1, "keep@1")
    apply(g, "activate wizards keep@1 keep@2", 0)
    assert g.board[SITE_ID["keep@1"]] == -1 and g.board[SITE_ID["keep@2"]] == 1


def test_s14_wizards_gatehouse_receiving_a_single_marker_chooses_its_symbol():
    """§14 Wizards: a gatehouse that receives a single marker: the activating player chooses
    its symbol."""
    g = on_guild("wizards", BASIC)
    mark(g, 1, "gate1@1")
    into = {c[5] for c in legal_commands(g, 0) if c[:4] == ("activate", 110, 62, 66)}
    assert into == {SITE_ID["gate3@3"], SITE_ID["gate3@4"]}
    apply(g, "activate wizards gate1 gate3 gate3@4", 0)
    assert g.board[SITE_ID["gate3@4"]] == 1 and g.board[SITE_ID["gate3@3"]] == -1
    assert g.board[SITE_ID["gate1@1"]] == -1 and g.board[SITE_ID["gate1@2"]] == -1


def test_s14_wizards_gatehouse_with_two_markers_moves_whole():
    g = on_guild("wizards", BASIC)
    mark(g, 1, "gate1@1")
    mark(g, 2, "gate1@2")
    apply(g, "activate wizards gate1 gate4", 0)
    assert (g.board[SITE_ID["gate4@4"]], g.board[SITE_ID["gate4@0"]]) == (1, 2)
    assert (g.board[SITE_ID["gate1@1"]], g.board[SITE_ID["gate1@2"]]) == (-1, -1)


def test_s14_spies_others_reveal_simultaneously_and_the_spy_takes_one():
    """§14 Spies: every other player with at least one card chooses one and reveals it
    (simultaneously); the spy takes one of them; the others go back."""
    g = on_guild("spies", INTERACTIVE, n=4)
    g.players[3].hand = []                      # no card: not asked
    g.changed()
    apply(g, "activate spies", 0)
    assert g.step == "spies-show" and sorted(g.waiting_for()) == [1, 2]
    c1, c2 = g.players[1].hand[0], g.players[2].hand[1]
    apply(g, f"show #{c2}:{t(g, c2)}", 2)
    assert not g.public[c2]                     # not revealed before all have chosen
    apply(g, f"show #{c1}:{t(g, c1)}", 1)
    assert g.public[c1] and g.public[c2]
    assert g.current == 0 and g.step == "spies-take"
    assert {c[1] for c in legal_commands(g, 0)} == {c1, c2}
    apply(g, f"take #{c1}", 0)
    assert c1 in g.players[0].hand and c1 not in g.players[1].hand
    assert c2 in g.players[2].hand
    assert g.step == ""


def test_s14_spies_with_nobody_holding_cards_is_wasted():
    g = on_guild("spies", INTERACTIVE)
    g.players[1].hand = []
    g.players[2].hand = []
    apply(g, "activate spies", 0)
    assert g.step == "" and g.players[0].waiting == []
