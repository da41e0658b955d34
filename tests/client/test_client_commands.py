"""Command entry: completion offers exactly the legal commands; shorthands resolve to them."""

import belfort
import pytest
from belfort import command_text, legal_commands, seat_view

from client import commands
from client.commands import Hinter, Resolution, resolve
from client_helpers import first_of, random_states


def reachable(hinter, prefix="", depth=0):
    """Every full text reachable by taking completions word by word from `prefix`."""
    out = set()
    for word, start, _meta in hinter.complete(prefix):
        text = (prefix[:len(prefix) + start] if start else prefix) + word.rstrip()
        if text in hinter.texts:
            out.add(text)
        if depth < 12:
            out |= reachable(hinter, text + " ", depth + 1)
    return out


@pytest.mark.parametrize("players,seed", [(4, 1), (2, 5), (5, 9)])
def test_completion_offers_exactly_the_legal_commands(players, seed):
    checked = 0
    for game, seat in random_states(players, seed, every=9, limit=25):
        legal = legal_commands(game, seat)
        if len(legal) > 400:
            continue
        h = Hinter(legal, seat_view(game, seat), game.rs)
        got = reachable(h)
        canonical = {command_text(c) for c in legal}
        assert canonical <= got
        # anything else offered is an alias meaning a legal command (keep in any order)
        for extra in got - canonical:
            assert resolve(extra, legal) in legal
        checked += 1
    assert checked >= 10


def test_bu_offers_build_buy_and_buy_card_only_when_legal():
    for game, seat in random_states(4, 2, every=1, limit=400):
        if game.phase == "actions" and not game.step:
            legal = legal_commands(game, seat)
            h = Hinter(legal, seat_view(game, seat), game.rs)
            offered = {w.rstrip() for w, _, _ in h.complete("bu")}
            verbs = {c[0] for c in legal if c[0].startswith("bu")}
            assert offered == verbs
            if first_of(game, seat, "build"):
                after = {w.rstrip() for w, _, _ in h.complete("build ")}
                assert after == {f"#{c[1]}" for c in legal if c[0] == "build"}
                return
    pytest.fail("no actions state with a legal build found")


def test_completion_meta_explains_cards_with_their_cost():
    for game, seat in random_states(4, 2, every=1, limit=400):
        b = first_of(game, seat, "build")
        if b:
            h = Hinter(legal_commands(game, seat), seat_view(game, seat), game.rs)
            metas = {w.rstrip(): m for w, _, m in h.complete("build ")}
            t = belfort.CARD_TYPES[game.types[b[1]]]
            assert t.capitalize() in metas[f"#{b[1]}"] or t.title() in metas[f"#{b[1]}"]
            assert "wood" in metas[f"#{b[1]}"] or "stone" in metas[f"#{b[1]}"] or \
                "metal" in metas[f"#{b[1]}"]
            return
    pytest.fail("no build found")


def test_keep_shorthand_any_order_without_drop():
    game = belfort.new_game(4, {}, seed=1)
    legal = legal_commands(game, 0)
    cmd = resolve("keep #4 #0 #2", legal)
    assert cmd in legal and set(cmd[1]) == {0, 2, 4}
    assert resolve("keep 4 0 2", legal) is cmd      # the '#' left out


def test_keeping_a_card_not_in_the_hand_names_it():
    game = belfort.new_game(4, {}, seed=1)
    with pytest.raises(belfort.IllegalCommandError, match=r"§3.*card #9 is not in your hand"):
        belfort.check_legal(game, "keep #9 #0 #2", 0)


def test_spread_shorthand_and_its_message():
    game = belfort.new_game(3, {}, seed=4)
    for s in range(3):
        belfort.apply(game, legal_commands(game, s)[0], s)
    seat = game.waiting_for()[0]
    belfort.apply(game, "pass", seat)
    legal = legal_commands(game, seat)
    total = sum(legal[0][2:5])
    assert resolve(f"spread {total} 0 0", legal) == (legal[0][0], legal[0][1], total, 0, 0)
    with pytest.raises(Resolution, match="must all go somewhere"):
        resolve(f"spread {total + 1} 0 0", legal)


def test_numbers_pick_from_the_listing_and_unique_beginnings():
    game = belfort.new_game(4, {}, seed=1)
    legal = legal_commands(game, 0)
    assert resolve("2", legal, numbered=legal) == legal[1]
    with pytest.raises(Resolution):
        resolve("99", legal, numbered=legal)
    assert commands.listing(legal)[0].strip().startswith("1. keep")


def test_summary_counts_verbs():
    assert commands.summary([("pass",), ("place", 0, 0), ("place", 2, 0)]) == "pass, place (2)"
