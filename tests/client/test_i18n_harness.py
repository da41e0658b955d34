"""The harness that proves "no English left in a French session" — shown on a tiny
sample screen with one message that bypasses the translation functions."""

from client.i18n import PSEUDO, _, ngettext, term, using
from client.i18n.harness import english_probes, find_untranslated, rendered_text
from client.i18n.pseudo import CLOSE, OPEN, accent, mark


def screen(forgotten=True):
    """A sample render: lines of prompt_toolkit fragments, as render.py produces."""
    lines = [
        [("class:title", _("unknown word {word!r}").format(word="Bo"))],
        [("", term("card:tower")), ("", " 3 "), ("class:p0", "Ana")],
        [("", ngettext("did you mean {choices}?", "did you mean one of {choices}?", 2)
          .format(choices=", ".join(term("card:" + t, "word") for t in ("pub", "inn"))))],
    ]
    if forgotten:
        lines.append([("class:hint", "Press Tab to complete")])    # bypasses _(): a bug
    return lines


def test_pseudo_translation_keeps_placeholders_and_marks_each_line():
    assert accent("Your {who!r} has %(n)d and %s, {{x}}") == \
        "Ẏǿŭř {who!r} ħȧş %(n)d ȧƞḓ %s, {{ẋ}}"
    assert mark("two\nlines") == f"{OPEN}ŧẇǿ{CLOSE}\n{OPEN}ŀīƞḗş{CLOSE}"
    assert mark("Tower", grow=0.4) == f"{OPEN}Ŧǿẇḗř~~{CLOSE}"
    with using(PSEUDO):
        assert _("unknown word {word!r}").format(word="x") == f"{OPEN}ŭƞķƞǿẇƞ ẇǿřḓ 'x'{CLOSE}"


def test_the_harness_finds_the_english_that_bypassed_translation():
    found = find_untranslated(screen, allow={"Ana"})
    assert [f.text for f in found] == ["Press", "Tab", "to", "complete"]
    assert found[0].line == 3 and found[0].column == 0
    assert "Press Tab" in str(found[0])


def test_a_screen_with_every_string_translated_passes():
    assert find_untranslated(lambda: screen(forgotten=False), allow={"Ana"}) == []
    # the player's name is data, not English: without the allowance it is reported
    assert [f.text for f in find_untranslated(lambda: screen(False))] == ["Ana"]


def test_values_inside_a_translated_message_are_not_reported():
    """'Bo' is substituted into a translated message: it sits inside the ⟦ ⟧ markers."""
    with using(PSEUDO):
        text = rendered_text(screen(False))
    assert "Bo" in text
    assert find_untranslated(lambda: screen(False), allow={"Ana"}) == []


def test_catalog_mode_finds_messages_shown_in_english_in_a_french_session():
    def french_screen():
        return [_("unknown word {word!r}").format(word="Bo"),
                term("card:tower") + " 3",
                "did you mean " + "tour?"]          # English text of a catalog message
    found = find_untranslated(french_screen, lang="fr")
    assert [f.text for f in found] == ["did you mean"]
    assert find_untranslated(lambda: [_("unknown word {word!r}"), term("card:keep")],
                             lang="fr") == []


def test_catalog_mode_finds_glossary_terms_left_in_english():
    found = find_untranslated(lambda: ["Ana built a Tower in district 3"], lang="de",
                              messages=[])
    assert "Tower" in [f.text for f in found]
    # terms spelt the same in both languages are not English left behind
    assert "Pub" not in english_probes("fr", messages=[])
    assert "Bank" not in english_probes("de", messages=[])


def test_rendered_text_accepts_strings_lines_and_fragments():
    assert rendered_text("a\nb") == "a\nb"
    assert rendered_text(["a", "b"]) == "a\nb"
    assert rendered_text([("x", "a"), ("y", "b")]) == "ab"
    assert rendered_text([[("x", "a")], "b"]) == "a\nb"
