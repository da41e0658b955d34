"""Errors: malformed text raises CommandSyntaxError quoting the input; a well-formed but
illegal command raises IllegalCommandError whose .rule names the § it breaks; neither
changes the state (compared through `to_json`)."""

import pytest

from belfort import (CommandSyntaxError, IllegalCommandError, apply, command_text,
                     legal_commands, new_game, to_json)
from scenario import give_built, give_hand, mark, new, run, set_res, start, to_actions


@pytest.mark.parametrize("text", [
    "", "   ", "plaec elf desk", "place gnome desk", "place elf", "place elf nowhere",
    "build #x tower@3", "build #17 tower@9", "build #17 castle@1", "spread elf forest=x",
    "spread dwarf forest=2", "keep #0 #1 #2 drop #3:castle #4:pub", "crest", "crest two",
    "buy gold", "exchange metal", "wall wall@7c", "guild plumbers", "activate desk",
    "end now", "take", "discard #3", "activate wizards gate9 gate1", "pass pass",
])
def test_malformed_text_raises_command_syntax_error_quoting_it(text):
    """Commands (docs/engine.md): unreadable text raises CommandSyntaxError quoting it."""
    g = start(3)
    before = to_json(g)
    with pytest.raises(CommandSyntaxError) as err:
        apply(g, text, 0)
    assert repr(text) in str(err.value) or text in str(err.value)
    assert err.value.text in (text, repr(text))
    assert to_json(g) == before


@pytest.mark.parametrize("value", [("place", True, 0), ("place", 0.5, 0), (), [],
                                   ("fly",), (1, 2), ("place", 0, 10**9), None, 17])
def test_malformed_wire_values_raise_command_syntax_error(value):
    """Commands: a wire value that is not a command raises CommandSyntaxError."""
    g = start(3)
    before = to_json(g)
    with pytest.raises(CommandSyntaxError):
        apply(g, value, 0)
    assert to_json(g) == before


def illegal(g, command, seat, rule):
    before = to_json(g)
    with pytest.raises(IllegalCommandError) as err:
        apply(g, command, seat)
    rules = rule if isinstance(rule, tuple) else (rule,)
    assert err.value.rule in rules, str(err.value)
    assert err.value.reason
    assert to_json(g) == before
    return err.value


def test_building_without_resources_names_section_8():
    """§8: building without the card's cost is refused naming §8."""
    g = start(3)
    to_actions(g)
    c = give_hand(g, 0, "keep")
    set_res(g, 0, 0, 0, 0, 9)
    illegal(g, f"build #{c} keep@1", 0, "§8")
    illegal(g, ("build", c, 8), 0, "§8")                 # the same as a tuple


def test_placing_on_an_occupied_plank_names_section_1_or_6():
    """§1 / §6: one worker per plank: §1 (Planks) and §6 (a *free* plank) both say so."""
    g = start(3)
    apply(g, "place elf miners", 0)
    illegal(g, "place dwarf miners", 1, ("§1", "§6"))
    smith = give_built(g, 1, "blacksmith")
    apply(g, f"place elf #{smith}", 1)
    apply(g, "place dwarf camp", 2)
    apply(g, "pass", 0)
    run(g, lambda s: s.current == 1 and s.step == "")
    illegal(g, f"place dwarf #{smith}", 1, ("§1", "§6"))


def test_acting_out_of_turn_names_the_phase_rule():
    """§6 / §8: acting out of turn is refused naming the phase's rule."""
    g = start(3)
    illegal(g, "place elf desk", 2, "§6")
    illegal(g, "pass", 1, "§6")
    to_actions(g)
    illegal(g, "end", 1, "§8")
    illegal(g, "buy wood", 2, "§8")


def test_commands_of_the_wrong_phase():
    """§3 / §6 / §7: a command of another phase is refused naming the current phase's rule."""
    g = new(3)
    illegal(g, "pass", 0, "§3")
    g = start(3)
    illegal(g, "end", 0, "§6")
    illegal(g, "crest 1", 0, ("§6", "§7"))


def test_other_rules_named():
    """§2, §13, §14, §8: each refusal names the rule broken."""
    g = start(3)
    to_actions(g)
    c = give_hand(g, 0, "pub")
    set_res(g, 0, 9, 9, 9, 9)
    mark(g, 1, "pub@0")
    illegal(g, f"build #{c} pub@0", 0, "§2")          # symbol taken
    bank = give_built(g, 0, "bank")
    illegal(g, f"bank #{bank}", 0, "§13")             # no gnome on its lock
    illegal(g, "exchange wood", 0, "§14")             # no Merchants activated
    illegal(g, "activate miners", 0, "§8")            # no worker there
    illegal(g, "pass", 0, "§8")                       # a Placement command


def test_unknown_seat_and_game_over():
    """§1: no such seat; §11: the game is over."""
    g = start(3)
    illegal(g, "pass", 5, "§1")
    g = new_game(3, seed="over")
    run(g, lambda s: s.is_over())
    illegal(g, "pass", 0, "§11")


def test_hidden_game_waits_for_a_reveal_names_section_15():
    """§15: while a card waits for its public reveal nobody may act."""
    g = new_game(3, {"guilds": "normal"}, seed="rq", hidden=True)
    full = new_game(3, {"guilds": "normal"}, seed="rq")
    for seat in range(3):
        apply(g, command_text(legal_commands(full, seat)[0]), seat)
        apply(full, legal_commands(full, seat)[0], seat)
    assert g.reveal_queue
    illegal(g, "place elf desk", g.current, "§15")
