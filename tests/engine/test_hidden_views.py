"""Hidden information (§15: hands are secret, only their size is public; §3.3: keep-3 choices
are simultaneous).

1. No view shows a card type its seat should not know: two games with the same public
   history but different hidden deals (other seats' hands, the draw pile) give identical
   `seat_view(game, X)`, `public_view` and `state_hash` at every step.
2. The hidden (networked) mode: a peer created with `hidden=True` that learns only its own
   cards (`learn`) and the public reveals (`reveal`), and applies the same commands (which
   carry their type claims), agrees with a full-knowledge engine on `state_hash` and on its
   own seat view at every step.
"""

import pytest

from belfort import (CARD_TYPES, IllegalCommandError, apply, command_text, learn,
                     legal_commands, new_game, public_view, reveal, seat_view, state_hash,
                     to_json)
from belfort.hidden import redact
from belfort.prng import Prng
from scenario import deck, new


# --- 1. same public history, different hidden deals ----------------------------------------

def swapped(order, pairs):
    out = list(order)
    for i, j in pairs:
        assert out[i] != out[j], "a swap must change the deal"
        out[i], out[j] = out[j], out[i]
    return out


def pairs_for(order, positions):
    """Pair each hidden position with the deepest draw-pile position (from 49 up) holding a
    different type, so that every swap changes the deal."""
    used = set()
    pairs = []
    for i in positions:
        j = next(j for j in range(49, 0, -1)
                 if j not in used and j not in positions and order[j] != order[i])
        used.add(j)
        pairs.append((i, j))
    return pairs


def known_to(g, seat, card):
    return g.public[card] or card in g.players[seat].hand


def twin_games(n, positions, viewer, seed):
    base = deck()
    pairs = pairs_for(base, positions)
    options = {"guilds": "advanced" if n > 2 else "normal", "crests": list(range(1, n + 1))}
    a = new_game(n, options, seed=seed, deck=base)
    b = new_game(n, options, seed=seed, deck=swapped(base, pairs))
    differing = sorted({c for pair in pairs for c in pair})
    for c in differing:
        assert not known_to(a, viewer, c)
    return a, b, differing


def assert_same_for(a, b, viewer):
    assert seat_view(a, viewer) == seat_view(b, viewer)
    assert public_view(a) == public_view(b)
    assert state_hash(a) == state_hash(b)
    assert to_json(redact(a, viewer)) == to_json(redact(b, viewer))


def drive_twins(a, b, viewer, differing, seed, max_steps=3000):
    """Apply the same commands to both games: random choices among the commands legal in
    both that keep every differing card unknown to `viewer`. Returns the number of steps."""
    rng = Prng(seed, "twins")
    steps = 0
    while not a.is_over() and steps < max_steps:
        assert a.waiting_for() == b.waiting_for()
        seat = a.waiting_for()[0]
        in_b = set(legal_commands(b, seat))
        options = [c for c in legal_commands(a, seat) if c in in_b]
        rng.shuffle(options)
        for cmd in options:
            trial = a.copy()
            apply(trial, cmd, seat)
            if not any(known_to(trial, viewer, c) for c in differing):
                break
        else:
            break            # every choice would reveal a differing card: stop here
        apply(a, cmd, seat)
        apply(b, cmd, seat)
        steps += 1
        assert_same_for(a, b, viewer)
    return steps


@pytest.mark.parametrize("n, viewer, positions", [
    # cards in the other seats' deals and in the draw pile, each swapped with a card at the
    # bottom of the draw pile
    (2, 0, [5, 6, 30]),
    (3, 0, [5, 11, 25]),
    (5, 2, [0, 21, 35]),
])
def test_views_do_not_depend_on_hidden_deals(n, viewer, positions):
    """§15: seat X's view, the public view and the state hash are the same in two games
    whose deals differ only in cards hidden from X (other hands, the draw pile)."""
    a, b, differing = twin_games(n, positions, viewer, f"twins-{n}")
    assert_same_for(a, b, viewer)
    steps = drive_twins(a, b, viewer, differing, f"twins-{n}")
    assert steps > 60
    assert a.round >= 2


def test_keep_choices_stay_secret_until_all_are_in():
    """§3.3 Decision: keep-3 choices are simultaneous; before all are in, nobody's view shows
    another seat's discards, and the views of two games whose seat 1 chose differently are
    the same for seat 0."""
    a = new(3)
    b = new(3)
    apply(a, "keep #5 #6 #7 drop #8:library #9:keep", 1)
    apply(b, "keep #7 #8 #9 drop #5:bank #6:market", 1)
    assert_same_for(a, b, 0)
    assert_same_for(a, b, 2)
    assert a.discard == [] and public_view(a)["keep_submitted"] == [1]
    assert seat_view(a, 1)["my_keep"] == [[5, 6, 7], [8, 9]]
    assert "my_keep" not in seat_view(a, 0)


def test_seat_view_shows_own_hand_only():
    """§15: a seat sees its own hand's types and only the sizes of the others' hands."""
    g = new(3)
    v = seat_view(g, 1)
    assert [h["card"] for h in v["hand"]] == [5, 6, 7, 8, 9]
    assert all(h["type"] in CARD_TYPES for h in v["hand"])
    assert [p["hand_size"] for p in v["players"]] == [5, 5, 5]
    assert all(p["hand_revealed"] == {} for p in v["players"])
    assert types_shown(public_view(g)) == []          # before the keep nothing is public
    assert sorted(types_shown(v)) == sorted(CARD_TYPES[g.types[c]] for c in range(5, 10))


def types_shown(view):
    """Every card type a view names (the values of its "type" fields and revealed hands)."""
    out = []
    if isinstance(view, dict):
        for k, v in view.items():
            if k == "type" and v is not None:
                out.append(v)
            elif k == "hand_revealed":
                out += list(v.values())
            else:
                out += types_shown(v)
    elif isinstance(view, list):
        for x in view:
            out += types_shown(x)
    return out


# --- 2. the hidden (networked) mode mirrors a full-knowledge game -----------------------------

def feed(hidden, full, me):
    """What the network gives peer `me`: its own cards privately, public reveals to all."""
    for c in hidden.players[me].hand:
        if hidden.types[c] is None:
            learn(hidden, c, full.types[c])
    while hidden.reveal_queue:
        c = hidden.reveal_queue[0]
        reveal(hidden, c, full.types[c])


@pytest.mark.parametrize("n, me, guilds", [(2, 0, "normal"), (3, 1, "advanced"),
                                           (5, 4, "normal")])
def test_hidden_peer_agrees_with_full_knowledge_engine_at_every_step(n, me, guilds):
    """§15 hidden mode: `new_game(..., hidden=True)` fed with `learn` (own cards) and
    `reveal` (pool refills, NP draws) accepts every command of a full-knowledge game (claims
    included) and agrees on `state_hash` and on its own seat view at every step."""
    seed = f"mirror-{n}-{me}"
    full = new_game(n, {"guilds": guilds}, seed=seed)
    peer = new_game(n, {"guilds": guilds}, seed=seed, hidden=True)
    assert all(t is None for t in peer.types)
    feed(peer, full, me)
    rng = Prng(seed, "bot")
    steps = 0
    while not full.is_over():
        assert peer.waiting_for() == full.waiting_for()
        seat = full.waiting_for()[0]
        cmds = legal_commands(full, seat)
        cmd = cmds[rng.below(len(cmds))]
        # The peer lists the acting seat's choices (a client showing whose turn it is does):
        # for its own seat it knows everything, so the list is the same.
        peer_cmds = legal_commands(peer, seat)
        if seat == me:
            assert peer_cmds == cmds
        apply(full, cmd, seat)
        apply(peer, command_text(cmd), seat)
        feed(peer, full, me)
        steps += 1
        assert state_hash(peer) == state_hash(full)
        assert seat_view(peer, me) == seat_view(full, me)
    assert peer.is_over() and peer.result == full.result
    assert steps > 100
    # the peer never learned a card that was neither public nor ever in its hand
    unknown = sum(1 for t in peer.types if t is None)
    assert unknown > 0


def test_hidden_peer_accepts_a_claim_after_listing_that_seats_commands():
    """§15 hidden mode: a peer that has listed another seat's commands (none: it cannot see that
    hand) must still accept that seat's keep command, whose claims name the dropped types."""
    full = new_game(3, {"guilds": "normal"}, seed="claims")
    peer = new_game(3, {"guilds": "normal"}, seed="claims", hidden=True)
    feed(peer, full, 0)
    cmd = legal_commands(full, 1)[0]
    assert legal_commands(peer, 1) == []
    apply(peer, cmd, 1)
    assert peer.keep_choice and 1 in peer.keep_choice


def test_hidden_peer_refuses_an_impossible_claim_and_changes_nothing():
    """§15 hidden mode: a claim of a sixth card of a type is refused (§15) and leaves the state
    as it was."""
    full = new_game(3, {"guilds": "normal"}, seed="claims")
    peer = new_game(3, {"guilds": "normal"}, seed="claims", hidden=True)
    seat1 = {full.types[c] for c in range(5, 10)}
    t = next(t for t in range(len(CARD_TYPES)) if t not in seat1)
    for c, ty in enumerate(full.types):   # this peer knows where all five cards of t are
        if ty == t:
            learn(peer, c, t)
    before = to_json(peer)
    with pytest.raises(IllegalCommandError) as err:
        apply(peer, f"keep #7 #8 #9 drop #5:{CARD_TYPES[t]} #6:{CARD_TYPES[t]}", 1)
    assert err.value.rule == "§15"
    assert to_json(peer) == before
