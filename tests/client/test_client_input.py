"""What typed input means: only ASCII digits are numbers, and no input makes the client's
parser raise; shorthands and refusals that say what is missing."""

import belfort
import pytest
from hypothesis import given, settings, HealthCheck
from hypothesis import strategies as st

from client.commands import Hinter, Resolution, resolve
from client.controller import Controller
from client_helpers import StateDriver, random_states, state_where


def camp_state():
    return state_where(lambda g, s: g.phase == "camp")


def test_a_circled_digit_is_not_a_number_and_does_not_crash():
    game = belfort.new_game(4, {}, seed=1)
    legal = belfort.legal_commands(game, 0)
    with pytest.raises(Resolution, match="0–9"):
        resolve("❾", legal, numbered=legal)
    ctl = Controller(StateDriver(game))
    for text in ("❾", "keep #❾ #1 #2", "spread ❾ 0 0", "crest ❾", "²"):
        reply = ctl.handle(text)
        assert reply.kind == "error" and "0–9" in reply.text, (text, reply)


def test_a_fullwidth_digit_is_refused_not_read_as_3():
    game, seat = camp_state()
    driver = StateDriver(game, seat)
    reply = Controller(driver).handle("crest ３")
    assert reply.kind == "error" and "'３'" in reply.text and "0–9" in reply.text
    assert driver.submitted == []


ALPHABET = st.one_of(
    st.sampled_from(list("0123456789 #@:=-?abcdefghijklmnopqrstuvwxyz")),
    st.sampled_from(list("❾３²٣߂१¼ⅷ①\u00a0\t\u200b\U0001f600ÉéİıＡ")),
    st.characters())
WORDS = st.sampled_from(["place", "elf", "dwarf", "master-dwarf", "desk", "camp", "spread",
                         "keep", "#0", "#1", "#17:tower", "tower@3", "gate1@2", "crest",
                         "build", "hire", "activate", "discard", "show", "help", "?", "1",
                         "forest=2", "mine=", "=", "drop", "top", "none", "score", "tableau"])
TEXTS = st.one_of(st.text(ALPHABET, max_size=40),
                  st.lists(st.one_of(WORDS, st.text(ALPHABET, max_size=6)), max_size=7)
                  .map(" ".join))
STATES = [(g, s) for g, s in random_states(4, 3, every=5, limit=40)] + \
         [(g, s) for g, s in random_states(2, 4, every=5, limit=40)]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=TEXTS, which=st.integers(0, len(STATES) - 1))
def test_no_input_makes_the_client_parser_raise(text, which):
    game, seat = STATES[which]
    driver = StateDriver(game.copy(), seat, apply_commands=False)
    legal = driver.legal()
    try:
        resolve(text, legal, numbered=legal)
    except Resolution:
        pass
    reply = Controller(driver).handle(text)
    assert reply.kind in ("ok", "error", "info", "panel", "quit", "none", "log")
    h = Hinter(legal, driver.view(), game.rs, ["tower", "placement"])
    h.complete(text)
    h.suggestion(text)


# --- only a master left -------------------------------------------------------------------

def only_master_left(kind):
    """A placement state where the seat's only unplaced worker of `kind` is its master."""
    def pred(g, s):
        if g.phase != "placement" or g.step:
            return False
        u = belfort.seat_view(g, s)["players"][s]["unplaced"] or {}
        return u.get(kind) == 0 and u.get("master-" + kind, 0) > 0 and any(
            c[0] == "place" and c[1] == belfort.KINDS.index("master-" + kind)
            for c in belfort.legal_commands(g, s))
    return state_where(pred, seeds=range(1, 200))


@pytest.mark.parametrize("kind", ["dwarf", "elf"])
def test_place_dwarf_means_the_master_when_only_the_master_is_left(kind):
    game, seat = only_master_left(kind)
    driver = StateDriver(game, seat)
    legal = driver.legal()
    cmd = next(c for c in legal if c[0] == "place" and c[1] == belfort.KINDS.index(
        "master-" + kind))
    where = belfort.command_text(cmd).split()[2]
    reply = Controller(driver).handle(f"place {kind} {where}")
    assert reply.kind == "ok", reply
    assert driver.submitted == [cmd]
    assert f"master-{kind}" in reply.text


def test_the_placement_prompt_names_the_workers_left():
    game, seat = only_master_left("dwarf")
    view = belfort.seat_view(game, seat)
    from client.controller import prompt_text
    from client.words import Namer
    text = prompt_text(view, belfort.legal_commands(game, seat), Namer(game.names, seat))
    assert "master dwarf" in text


def test_spreading_names_every_kind_still_to_spread():
    from client.controller import prompt_text
    from client.words import Namer

    def pred(g, s):
        if g.step != "spread" or s not in g.waiting_for():
            return False
        return len(g.spread_kinds) >= 2 and g.unplaced(s)[g.spread_kinds[0]] == 1
    game, seat = state_where(pred, seeds=range(1, 300))
    view = belfort.seat_view(game, seat)
    text = prompt_text(view, belfort.legal_commands(game, seat), Namer(game.names, seat))
    left = sum(game.unplaced(seat))
    assert f"{left} workers" in text or "then" in text, text
    later = belfort.KINDS[game.spread_kinds[1]].replace("master-", "master ")
    assert later.split()[-1][:3] in text, text


# --- refusals that say what is missing -----------------------------------------------------

def test_a_command_missing_its_target_says_what_is_missing():
    def pred(g, s):
        texts = [belfort.command_text(c) for c in belfort.legal_commands(g, s)]
        return sum(t.startswith("hire #") and len(t.split()) == 3 for t in texts) >= 2
    game, seat = state_where(pred)
    legal = belfort.legal_commands(game, seat)
    hire = next(c for c in legal if c[0] == "hire" and c[2] != -1)
    text = f"hire #{hire[1]}"
    reply = Controller(StateDriver(game, seat)).handle(text)
    assert reply.kind == "error"
    assert "needs a board symbol" in reply.text and "for example hire #" in reply.text
    assert "not one of the legal choices" not in reply.text


def test_activate_a_card_without_its_choice_says_what_is_missing():
    def pred(g, s):
        texts = [belfort.command_text(c) for c in belfort.legal_commands(g, s)]
        firsts = [" ".join(t.split()[:2]) for t in texts if t.startswith("activate #")]
        return any(firsts.count(f) >= 2 and f not in texts for f in firsts)
    game, seat = state_where(pred, seeds=range(1, 200))
    texts = [belfort.command_text(c) for c in belfort.legal_commands(game, seat)]
    firsts = [" ".join(t.split()[:2]) for t in texts if t.startswith("activate #")]
    prefix = next(f for f in firsts if firsts.count(f) >= 2 and f not in texts)
    reply = Controller(StateDriver(game, seat)).handle(prefix)
    assert reply.kind == "error" and "needs" in reply.text and "for example activate #" in \
        reply.text, reply.text


def test_discarding_two_cards_at_once_is_explained():
    def pred(g, s):
        return g.step == "discard" and s in g.waiting_for() and len(g.players[s].hand) >= 2
    game, seat = state_where(pred, seeds=range(1, 200))
    a, b = game.players[seat].hand[:2]
    reply = Controller(StateDriver(game, seat)).handle(f"discard #{a} #{b}")
    assert reply.kind == "error"
    assert "one card at a time" in reply.text and f"discard #{a}" in reply.text
    assert "needs its type" not in reply.text


def test_an_unknown_command_gets_a_short_did_you_mean():
    game = belfort.new_game(4, {}, seed=1)
    reply = Controller(StateDriver(game)).handle("kep #0 #1 #2")
    assert reply.kind == "error"
    assert "Did you mean 'keep'?" in reply.text and "You can now: keep" in reply.text
    assert "np-skip" not in reply.text          # not the list of every verb
    reply = Controller(StateDriver(game)).handle("build")
    assert "'build' is not possible now" in reply.text


def test_enter_plays_the_only_choice():
    def pred(g, s):
        return len(belfort.legal_commands(g, s)) == 1
    game, seat = state_where(pred)
    driver = StateDriver(game, seat)
    only = driver.legal()[0]
    reply = Controller(driver).handle("")
    assert reply.kind == "ok" and driver.submitted == [only]
    game = belfort.new_game(4, {}, seed=1)
    driver = StateDriver(game)
    assert Controller(driver).handle("").kind == "none" and driver.submitted == []


def test_a_number_picks_from_the_choices_without_listing_first():
    game = belfort.new_game(4, {}, seed=1)
    driver = StateDriver(game)
    legal = driver.legal()
    reply = Controller(driver).handle("3")
    assert reply.kind == "ok" and driver.submitted == [legal[2]]


def test_a_number_from_a_stale_list_is_not_played():
    game = belfort.new_game(4, {}, seed=1)
    driver = StateDriver(game)
    ctl = Controller(driver)
    ctl.listing()
    ctl.numbered = ctl.numbered[:-1]        # the choices changed since the list was shown
    reply = ctl.handle("2")
    assert reply.kind == "panel" and "changed" in reply.lines[0]
    assert driver.submitted == []


def test_the_prompt_offers_the_only_choice_with_enter():
    from client.controller import prompt_text
    from client.words import Namer
    game, seat = state_where(lambda g, s: len(belfort.legal_commands(g, s)) == 1)
    legal = belfort.legal_commands(game, seat)
    text = prompt_text(belfort.seat_view(game, seat), legal, Namer(game.names, seat))
    assert text.endswith("Enter: " + belfort.command_text(legal[0]))
