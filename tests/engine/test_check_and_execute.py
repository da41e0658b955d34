"""Checking a command once, then carrying it out: `check_legal` and claim
handling live in legal.py, `execute` carries out a checked command without checking it
again, `is_legal` catches only the engine's own errors, and only ASCII digits are numbers."""

import pytest

import belfort
from belfort import (BelfortError, CommandSyntaxError, IllegalCommandError, apply, check_legal,
                     command_claims, execute, is_legal, legal_commands, new_game,
                     parse_command, to_json, unknown_claims)
from belfort.data import CARD_TYPE_ID, SITE_ID
from scenario import give_hand, set_res, start, to_actions


# --- parsing: only ASCII digits are numbers ---------------------------------------------

@pytest.mark.parametrize("text", ["crest ❾", "crest ３", "crest ²", "build #１7 tower@3",
                                  "take #٣", "activate thieves from ３", "spread elf forest=２",
                                  "activate thieves each 1 ２", "activate bandits each ２:wood",
                                  "activate wizards gate１ gate3", "ｐａｓｓ", "\u212aeep #0"])
def test_only_ascii_digits_and_words_are_read(text):
    """Commands: '❾' used to raise a bare ValueError and 'crest ３' was read as crest 3; any
    character outside ASCII is refused with a CommandSyntaxError that quotes the text."""
    with pytest.raises(CommandSyntaxError) as err:
        parse_command(text)
    assert err.value.text == text
    assert "ASCII" in err.value.reason


def test_ordinary_whitespace_still_separates_words():
    assert parse_command("  crest\t2 ") == ("crest", 2)


# --- is_legal ---------------------------------------------------------------------------

def test_is_legal_is_false_for_the_engines_own_errors():
    g = start(3)
    assert is_legal(g, "place elf desk", 0)
    assert not is_legal(g, "place elf desk", 1)          # IllegalCommandError
    assert not is_legal(g, "plaec elf desk", 0)          # CommandSyntaxError
    assert not is_legal(g, None, 0)
    assert not is_legal(g, "crest ❾", 0)


def test_is_legal_does_not_hide_a_bug(monkeypatch):
    """A fault inside the engine is not 'illegal': is_legal lets it through."""
    g = start(3)

    def broken(state, seat):
        raise KeyError("a bug")
    monkeypatch.setitem(belfort.legal._GENERATORS, ("placement", ""), broken)
    with pytest.raises(KeyError):
        is_legal(g, "place elf desk", 0)


# --- check once, then execute -------------------------------------------------------------

def test_execute_carries_out_a_checked_command_like_apply():
    a, b = start(3), start(3)
    cmd, seat = check_legal(a, "place elf desk", 0)
    assert (cmd, seat) == (("place", 0, 0), 0)
    assert execute(a, cmd, seat) == apply(b, "place elf desk", 0)
    assert to_json(a) == to_json(b)


def test_execute_does_not_check_again(monkeypatch):
    """The sender's second check is gone: after check_legal, execute never lists the legal
    commands again nor explains anything."""
    g = start(3)
    cmd, seat = check_legal(g, "place elf desk", 0)
    calls = []
    real = belfort.legal._GENERATORS["placement", ""]
    monkeypatch.setitem(belfort.legal._GENERATORS, ("placement", ""),
                        lambda s, q: calls.append(q) or real(s, q))
    execute(g, cmd, seat)
    assert calls == []


def test_execute_refuses_what_was_not_checked_on_this_state():
    """execute is never less safe than apply: a command that check_legal did not return for
    this state and version is checked in full, and refused if illegal."""
    g = start(3)
    cmd, seat = check_legal(g, "place elf desk", 0)
    apply(g, cmd, seat)                                  # the state moved on
    before = to_json(g)
    with pytest.raises(IllegalCommandError):
        execute(g, cmd, seat)                            # seat 0 is no longer to act
    with pytest.raises(IllegalCommandError):
        execute(g, ("place", 0, 0), 2)
    with pytest.raises(CommandSyntaxError):
        execute(g, ("place", True, 0), 1)
    assert to_json(g) == before


def test_an_equal_but_different_value_is_normalized_not_trusted():
    """A bool equals 1 in Python: ("place", True, 0) == ("place", 1, 0). Only the engine's
    own tuple takes the quick path; anything else is normalized and refused."""
    g = start(3)
    legal = legal_commands(g, 0)
    assert ("place", 0, 0) in legal
    with pytest.raises(CommandSyntaxError):
        apply(g, ("place", False, 0), 0)


# --- claims --------------------------------------------------------------------------------

def test_command_claims_are_the_hand_cards_a_command_names_with_their_type():
    assert command_claims(parse_command("keep #0 #1 #2 drop #3:pub #4:inn")) == \
        [(3, CARD_TYPE_ID["pub"]), (4, CARD_TYPE_ID["inn"])]
    assert command_claims(("build", 17, SITE_ID["tower@3"])) == [(17, CARD_TYPE_ID["tower"])]
    assert command_claims(("build", 17, SITE_ID["wall@3a"])) == []     # not a property
    assert command_claims(("discard", 5, 2)) == [(5, 2)]
    assert command_claims(("show", 5, 2)) == [(5, 2)]
    assert command_claims(("place", 0, 0)) == []
    for odd in [("build", 1), ("build", "x", "y"), ("keep", (0,), (1,)), ("discard",),
                ("build", 3, 10**5), ("keep", 5, 6)]:
        assert command_claims(odd) == []


def test_unknown_claims_are_those_this_engine_cannot_check():
    full = new_game(3, seed="claims")
    hidden = new_game(3, seed="claims", hidden=True)
    cmd = legal_commands(full, 1)[0]
    assert unknown_claims(full, cmd, 1) == []
    assert unknown_claims(hidden, cmd, 1) == command_claims(cmd)
    assert unknown_claims(hidden, cmd, 0) == []          # not seat 0's cards


def test_check_legal_leaves_a_hidden_game_unchanged():
    full = new_game(3, seed="claims")
    hidden = new_game(3, seed="claims", hidden=True)
    before = to_json(hidden)
    cmd = legal_commands(full, 1)[0]
    assert check_legal(hidden, cmd, 1)[0] == cmd
    assert to_json(hidden) == before


def test_errors_raised_are_the_engines_own():
    """Everything check_legal raises on bad input is a BelfortError (wire values included)."""
    g = start(3)
    to_actions(g)
    c = give_hand(g, 0, "tower")
    set_res(g, 0, 9, 9, 9, 9)
    for bad in [("build", c, -5), ("build", c, "tower@3"), ("build", (c,), 3), ("activate",),
                ("activate", "x"), ("keep", (1, 2), ("a",)), ("crest", -1), ("spread", 9),
                ("discard", c, 99), ("hire", c, 10**5), ["build", c, 38], ("take", None)]:
        try:
            check_legal(g, bad, 0)
        except BelfortError:
            pass
