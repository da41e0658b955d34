"""Taking back your own actions (belfort/undo.py): restored exactly, refused with
the reason once something new is known, and identical on every peer of a networked game."""

import pytest

import belfort
from belfort import CARD_TYPES, apply, legal_commands, new_game, state_hash, to_json
from belfort.undo import (DRAWN, GAME_OVER, KEPT, NOTHING, OTHER_SEAT, PHASE, REVEALED,
                          TURNED_UP, UndoRefused, UndoStack, learned, restore)
from scenario import give_hand, keep_text, set_res, start, to_actions

BASIC = ("merchants", "librarians", "architects", "recruiters", "wizards")
INTERACTIVE = ("bandits", "spies", "thieves", "wizards", "merchants")


def actions_game(n=3, guilds=None):
    """Round 1's Actions phase, seat 0's turn, with an undo stack that has seen the game."""
    g = start(n, guilds=guilds) if guilds else start(n)
    to_actions(g)
    assert g.current == 0
    return g, UndoStack()


def test_a_build_is_taken_back_exactly():
    """§8 build, then undo: the state (and its hash) is the one before the build; the card
    is back in the hand. 'I meant the other district.'"""
    g, stack = actions_game()
    c = give_hand(g, 0, "tower")
    set_res(g, 0, 2, 3, 1, 4)
    before_json, before_hash = to_json(g), state_hash(g)
    stack.apply(g, f"build #{c} tower@3", 0)
    assert c in g.players[0].built
    assert stack.refusal(0) is None
    step = stack.take_back(g, 0)
    assert step.command == ("build", c, belfort.SITE_NAME.index("tower@3"))
    assert to_json(g) == before_json and state_hash(g) == before_hash
    assert c in g.players[0].hand and g.public[c] is False
    stack.apply(g, f"build #{c} tower@1", 0)                 # the other district
    assert g.board[belfort.SITE_NAME.index("tower@1")] == 0


def test_several_actions_are_taken_back_one_at_a_time():
    """§8: a turn of several trades, taken back latest first, back to the start of the turn;
    one more undo is refused: the others played before this turn."""
    g, stack = actions_game()
    set_res(g, 0, 3, 3, 3, 9)
    hashes = [state_hash(g)]
    for text in ("buy wood", "sell stone"):
        stack.apply(g, text, 0)
        hashes.append(state_hash(g))
    assert hashes[0] != hashes[1] != hashes[2]
    stack.take_back(g, 0)
    assert state_hash(g) == hashes[1]
    stack.take_back(g, 0)
    assert state_hash(g) == hashes[0]
    r = stack.refusal(0)
    assert r.code == NOTHING and "nothing" in r.text()


def test_refused_after_drawing_a_card():
    """§8 buy-card top draws a card from the pile: after that, no take-back."""
    g, stack = actions_game()
    set_res(g, 0, 0, 0, 0, 9)
    stack.apply(g, "buy wood", 0)
    stack.apply(g, "buy-card top", 0)
    r = stack.refusal(0)
    assert r is not None and r.code == DRAWN
    assert r.text() == "a card was drawn since"
    snap = to_json(g)
    with pytest.raises(UndoRefused) as err:
        stack.take_back(g, 0)
    assert "a card was drawn since" in str(err.value)
    assert to_json(g) == snap


def test_refused_after_a_pool_card_is_replaced():
    """§8 buy-card from the pool turns up a new pool card: refused, and the earlier trade
    of the same turn is out of reach too."""
    g, stack = actions_game()
    set_res(g, 0, 0, 0, 0, 9)
    stack.apply(g, "buy wood", 0)
    stack.apply(g, f"buy-card #{g.pool[0]}", 0)
    assert stack.refusal(0).code == TURNED_UP
    assert "turned up" in stack.refusal(0).text()


def test_refused_once_another_player_has_decided():
    """Another seat's decision is something new: 'Bo has played since'. It stays refused
    even when that seat takes its own action back (you saw it)."""
    g, stack = actions_game()
    stack.apply(g, "end", 0)
    assert stack.refusal(0) is None                   # nobody has decided yet
    nxt = g.current
    assert nxt != 0
    stack.apply(g, "buy wood" if ("buy", 0) in legal_commands(g, nxt) else "end", nxt)
    r = stack.refusal(0)
    assert r.code == OTHER_SEAT and r.seat == nxt
    names = ["Ana", "Bo", "Cy"]
    assert r.text(lambda s: names[s]) == f"{names[nxt]} has played since"
    if stack.refusal(nxt) is None:
        stack.take_back(g, nxt)
    assert stack.refusal(0).code == OTHER_SEAT


def test_a_seat_cannot_take_back_someone_elses_action():
    g, stack = actions_game()
    stack.apply(g, "end", 0)
    r = stack.refusal(1)
    assert r.code == NOTHING


def test_keep_choice_before_and_after_the_reveal():
    """§3.3: a keep choice may be taken back while the others have not chosen; once every
    choice is in, they are revealed together: refused."""
    g = new_game(3, {"guilds": "normal"}, seed="keep")
    stack = UndoStack()
    before = state_hash(g)
    stack.apply(g, keep_text(g, 0), 0)
    assert stack.refusal(0) is None
    stack.take_back(g, 0)
    assert state_hash(g) == before and 0 not in g.keep_choice
    stack.apply(g, keep_text(g, 1), 1)
    stack.apply(g, keep_text(g, 2), 2)
    stack.apply(g, keep_text(g, 0), 0)                 # the last choice: all revealed
    r = stack.refusal(0)
    assert r.code == KEPT and r.text() == "the kept cards were revealed since"


def test_spies_shown_cards_revealed_refuse_the_take_back():
    """§14 Spies: the shown cards are revealed together when the last one is in."""
    g = start(4, guilds=INTERACTIVE)
    apply(g, "place elf spies", 0)
    to_actions(g)
    stack = UndoStack()
    stack.apply(g, "activate spies", 0)
    waiting = sorted(g.waiting_for())
    assert len(waiting) >= 2
    first, last = waiting[0], waiting[-1]
    c = g.players[first].hand[0]
    stack.apply(g, f"show #{c}:{CARD_TYPES[g.types[c]]}", first)
    assert stack.refusal(first) is None                # not revealed yet
    assert stack.refusal(0).code == OTHER_SEAT
    for q in waiting[1:]:
        c = g.players[q].hand[0]
        stack.apply(g, f"show #{c}:{CARD_TYPES[g.types[c]]}", q)
    assert stack.refusal(last).code == REVEALED


def test_the_end_of_a_month_is_final():
    """§4: the last decision of a month ends it (collection, income, next month)."""
    g, stack = actions_game(n=3)
    while g.round == 1:
        seat = g.waiting_for()[0]
        stack.apply(g, "end" if ("end",) in legal_commands(g, seat)
                    else legal_commands(g, seat)[0], seat)
    last_seat = stack.steps[-1].seat
    r = stack.refusal(last_seat)
    assert r.code == PHASE and r.text() == "month 1 is over"


def test_learned_is_none_for_a_quiet_step_and_names_the_game_end():
    g, _ = actions_game()
    after = g.copy()
    apply(after, "buy wood", 0)
    assert learned(g, after, 0) is None
    over = g.copy()
    over.phase = "over"
    assert learned(g, over, 0).code == GAME_OVER


def test_restore_keeps_the_object_and_leaves_the_snapshot_intact():
    g, _ = actions_game()
    snap = g.copy()
    snap_json = to_json(snap)
    apply(g, "buy wood", 0)
    holder = g
    restore(g, snap)
    assert holder is g and to_json(g) == snap_json
    apply(g, "buy wood", 0)
    assert to_json(snap) == snap_json


@pytest.mark.parametrize("players,seed", [(2, "u2"), (3, "u3"), (4, "u4"), (5, "u5")])
def test_random_games_every_allowed_take_back_restores_the_state(players, seed):
    """Random games: after each step, taking back (when allowed) gives exactly the state
    before it, with the same legal commands; a step that drew, turned up or revealed a card
    or ended a phase is never allowed; replaying the same command continues identically."""
    g = new_game(players, {"guilds": "advanced"}, seed=seed)
    bot = belfort.RandomBot(seed)
    stack = UndoStack()
    allowed = refused_steps = 0
    while not g.is_over():
        seat = g.waiting_for()[0]
        cmd = bot.choose(g, seat)
        before = g.copy()
        before_json, before_legal = to_json(g), legal_commands(g, seat)
        stack.apply(g, cmd, seat)
        after_json = to_json(g)
        why = stack.refusal(seat)
        drew = set(before.draw) - set(g.draw) or g.epoch != before.epoch
        changed = g.phase != before.phase or g.round != before.round
        if drew or changed:
            assert why is not None, (cmd, "should be final")
        if why is None:
            allowed += 1
            stack.take_back(g, seat)
            assert to_json(g) == before_json
            assert legal_commands(g, seat) == before_legal
            stack.apply(g, cmd, seat)
            assert to_json(g) == after_json
        else:
            refused_steps += 1
            with pytest.raises(UndoRefused):
                stack.take_back(g, seat)
            assert to_json(g) == after_json
    assert allowed > 20 and refused_steps > 20


# --- networked peers: every peer applies the same take-back identically -------------------

def test_a_take_back_gives_the_same_state_hash_on_every_peer():
    """In a LAN game: hidden-deck peers (each knows only its own hand, public cards come by
    reveals) that see the same commands and the same take-backs agree on whether a take-back
    is allowed and restore the same public state: their state hashes agree, and equal the
    hash before the undone step. Refused after a draw on every peer alike."""
    n, seed = 3, "lan-undo"
    table = new_game(n, {"guilds": "normal"}, seed=seed)         # knows every card
    peers = [new_game(n, {"guilds": "normal"}, seed=seed, hidden=True) for _ in range(n)]
    stacks = [UndoStack() for _ in peers]
    table_stack = UndoStack()

    def deck_protocol():
        """What the network's deck does: private deals learned, public cards revealed."""
        for s, p in enumerate(peers):
            for c in p.players[s].hand:
                if p.types[c] is None:
                    belfort.learn(p, c, table.types[c])
            while p.reveal_queue:
                c = p.reveal_queue[0]
                before = p.copy()
                belfort.reveal(p, c, table.types[c])
                stacks[s].record_reveal(before)

    deck_protocol()
    bot = belfort.RandomBot(seed)
    took_back = refused_draw = 0
    for i in range(2000):
        if table.is_over():
            break
        seat = table.waiting_for()[0]
        cmd = bot.choose(table, seat)
        hash_before = state_hash(table)
        table_stack.apply(table, cmd, seat)
        for p, st in zip(peers, stacks):
            st.apply(p, cmd, seat)
        deck_protocol()
        assert {state_hash(p) for p in peers} == {state_hash(table)}
        answers = {st.refusal(seat) for st in stacks}
        assert len(answers) == 1, answers                      # every peer agrees
        why = answers.pop()
        assert (why is None) == (table_stack.refusal(seat) is None)
        if why is None and i % 2 == 0:
            for p, st in zip(peers, stacks):
                st.take_back(p, seat)
            table_stack.take_back(table, seat)
            assert {state_hash(p) for p in peers} == {hash_before, state_hash(table)}
            took_back += 1
        elif why is not None and why.code in (DRAWN, TURNED_UP):
            refused_draw += 1
    assert table.is_over()
    assert took_back > 5 and refused_draw > 2
