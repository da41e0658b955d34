"""§15 The deck: draws from the top; an empty draw pile is replaced by the shuffled discard
pile (Decision), fresh ids and hidden again; both empty: the draw does not happen; the
pool is refilled to 3 while cards remain; discards are face up; hands are secret."""

from collections import Counter

import pytest

from belfort import IllegalCommandError, apply, legal_commands, seat_view
from scenario import events_of, snapshot, start, to_actions


def discard_the_draw_pile(g):
    """Move the whole draw pile onto the face-up discard pile (test setup)."""
    for c in reversed(g.draw):
        g.discard.append(c)
        g.public[c] = True
    g.draw = []
    g.changed()


def test_s15_draws_come_from_the_top():
    """§15: draws come from the top of the draw pile."""
    g = start(3)
    to_actions(g)
    top = g.draw[-1]
    apply(g, "buy-card top", 0)
    assert g.players[0].hand[-1] == top


def test_s15_decision_empty_draw_pile_reshuffles_the_discards():
    """§15 Decision: when the draw pile is empty and a card must be drawn, the discard
    pile is shuffled into a new draw pile (fresh ids, types hidden again)."""
    g = start(3)
    to_actions(g)
    discard_the_draw_pile(g)
    old = list(g.discard)
    old_types = Counter(g.types[c] for c in old)
    events = apply(g, "buy-card top", 0)
    (ev,) = events_of(events, "reshuffle")
    assert ev[1] == 1 and list(ev[2]) == old
    new_ids = list(ev[3])
    assert min(new_ids) >= 50 and len(new_ids) == len(old)
    assert g.discard == []
    drawn = g.players[0].hand[-1]
    assert drawn == new_ids[0]                         # the new top
    assert Counter(g.types[c] for c in new_ids) == old_types
    assert not any(g.public[c] for c in new_ids)
    assert sorted(g.draw + [drawn]) == sorted(new_ids)


def test_s15_the_reshuffle_is_seeded_and_repeatable():
    def play():
        g = start(3)
        to_actions(g)
        discard_the_draw_pile(g)
        apply(g, "buy-card top", 0)
        return [g.types[c] for c in g.draw]
    assert play() == play()


def test_s15_both_piles_empty_the_draw_does_not_happen():
    """§15 Decision: if both piles are empty, the draw does not happen."""
    g = start(3, guilds=("librarians", "miners", "architects", "thieves", "wizards"))
    apply(g, "place elf librarians", 0)
    to_actions(g)
    g.players[2].hand += g.draw        # park every remaining card in seat 2's hand
    g.draw = []
    g.discard = []
    g.changed()
    assert ("buy-card", -1) not in legal_commands(g, 0)
    hand = list(g.players[0].hand)
    apply(g, "activate librarians", 0)   # draw 3: nothing there; then discard 1
    assert g.players[0].hand == hand
    assert g.step == "discard"


def test_s15_pool_refills_to_three_while_cards_remain():
    """§15: the pool is refilled to 3 whenever a card leaves it, while cards remain — from
    a reshuffled discard pile if needed, and not at all when nothing is left."""
    g = start(3)
    to_actions(g)
    discard_the_draw_pile(g)
    c = g.pool[0]
    events = apply(g, f"buy-card #{c}", 0)
    assert events_of(events, "reshuffle")
    assert len(g.pool) == 3 and all(g.public[x] for x in g.pool)
    # now nothing anywhere
    g.players[2].hand += g.draw
    g.draw = []
    g.changed()
    c = g.pool[0]
    apply(g, f"buy-card #{c}", 1)
    assert len(g.pool) == 2


def test_s15_discards_are_face_up_and_hands_secret():
    """§15: hands are secret (only their size is public); discards are face up."""
    g = start(3)
    v = seat_view(g, 1)
    assert all(d["type"] is not None for d in v["discard"])
    assert [p["hand_size"] for p in v["players"]] == [3, 3, 3]
    assert all(h["type"] is not None for h in v["hand"])
    assert all(p["hand_revealed"] == {} for p in v["players"])


def test_s15_a_card_bought_from_the_pool_stays_known():
    """§15: a card taken from the face-up pool was seen by all: its type stays public."""
    g = start(3)
    to_actions(g)
    c = g.pool[0]
    apply(g, f"buy-card #{c}", 0)
    v = seat_view(g, 1)
    assert str(c) in v["players"][0]["hand_revealed"]


def test_s15_buy_top_with_nothing_left_is_refused():
    g = start(3)
    to_actions(g)
    g.players[2].hand += g.draw + g.discard
    g.draw, g.discard = [], []
    g.changed()
    before = snapshot(g)
    with pytest.raises(IllegalCommandError) as err:
        apply(g, "buy-card top", 0)
    assert err.value.rule == "§15"
    assert snapshot(g) == before
