"""The language comes from --lang or the environment (LANGUAGE, LC_ALL,
LC_MESSAGES, LANG), else English; gettext with plural forms per language; lazy messages."""

import subprocess
import sys

import pytest

from client.i18n import (L_, Lp_, N_, UnknownLanguage, _, activate, active_language,
                         choose_language, language_of, ngettext, npgettext, parse_lang_option,
                         pgettext, using)
from client.i18n.language import LANG_OPTION_HELP

DID_YOU_MEAN = ("did you mean {choices}?", "did you mean one of {choices}?")


@pytest.mark.parametrize("env,lang", [
    ({}, "en"),
    ({"LANG": "fr_FR.UTF-8"}, "fr"),
    ({"LANG": "de_CH"}, "de"),
    ({"LANG": "ko_KR.eucKR"}, "ko"),
    ({"LANG": "it_IT@euro"}, "it"),
    ({"LANG": "es_ES.UTF-8"}, "en"),                         # not one of ours
    ({"LANG": "fr_FR.UTF-8", "LC_MESSAGES": "de_DE.UTF-8"}, "de"),
    ({"LANG": "fr_FR", "LC_MESSAGES": "de_DE", "LC_ALL": "it_IT.UTF-8"}, "it"),
    ({"LANG": "fr_FR", "LC_ALL": ""}, "fr"),                 # empty variables do not count
    ({"LANGUAGE": "ko:fr", "LANG": "de_DE.UTF-8"}, "ko"),     # LANGUAGE first
    ({"LANGUAGE": "es:pt_BR:it", "LANG": "de_DE.UTF-8"}, "it"),  # first one we have
    ({"LANGUAGE": "es:pt", "LANG": "de_DE.UTF-8"}, "de"),    # none we have: the locale
    ({"LANGUAGE": "fr", "LANG": "C"}, "en"),                 # GNU: LANGUAGE ignored in C
    ({"LANGUAGE": "fr", "LC_ALL": "C.UTF-8"}, "en"),
    ({"LANGUAGE": "fr"}, "fr"),                              # no locale set at all
    ({"LANGUAGE": "fr_CA:en", "LANG": "ko_KR.UTF-8"}, "fr"),
    ({"LANGUAGE": ":::", "LANG": "it_IT"}, "it"),
    ({"LANG": "POSIX"}, "en"),
    ({"LANG": "garbage.@.."}, "en"),
])
def test_language_from_the_environment(env, lang):
    assert choose_language(None, env) == lang


def test_the_option_wins_over_the_environment():
    env = {"LANGUAGE": "ko", "LANG": "de_DE.UTF-8"}
    assert choose_language("fr", env) == "fr"
    assert choose_language("EN", env) == "en"
    assert choose_language("it_IT.UTF-8", env) == "it"


@pytest.mark.parametrize("bad", ["es", "french", "", "C", "C.UTF-8", "POSIX", "xx_YY", "f r"])
def test_an_unknown_language_option_is_refused_with_the_choices(bad):
    with pytest.raises(UnknownLanguage) as info:
        parse_lang_option(bad)
    assert repr(bad) in str(info.value) and "fr, de, it, ko" in str(info.value)


def test_the_refusal_is_in_the_active_language():
    with using("de"):
        with pytest.raises(UnknownLanguage, match="unbekannte Sprache 'es'"):
            parse_lang_option("es")


def test_language_of_locale_names():
    assert language_of("fr-CA") == "fr"
    assert language_of("KO_kr.UTF-8") == "ko"
    assert language_of("C") == "en"
    assert language_of("pt_BR") is None
    assert language_of(None) is None


def test_activation_and_translation():
    assert active_language() == "en"
    with using("fr"):
        assert active_language() == "fr"
        assert _("unknown word {word!r}").format(word="x") == "mot inconnu 'x'"
        assert _("a message nobody translated") == "a message nobody translated"
        with using("ko"):
            assert _("unknown word {word!r}") == "알 수 없는 단어 {word!r}"
        assert active_language() == "fr"
    assert active_language() == "en"
    assert _("unknown word {word!r}") == "unknown word {word!r}"
    previous = activate("it")
    try:
        assert previous == "en" and _("unknown word {word!r}").startswith("parola")
    finally:
        activate(previous)


@pytest.mark.parametrize("lang,forms", [
    # (n=0, n=1, n=2) -> which msgstr form: French uses the singular for 0 and 1,
    # German and Italian the plural for 0, Korean has a single form.
    ("en", (1, 0, 1)),
    ("fr", (0, 0, 1)),
    ("de", (1, 0, 1)),
    ("it", (1, 0, 1)),
    ("ko", (0, 0, 0)),
])
def test_plural_forms_follow_each_language(lang, forms):
    with using(lang):
        got = [ngettext(*DID_YOU_MEAN, n) for n in (0, 1, 2)]
        both = [ngettext(*DID_YOU_MEAN, 1), ngettext(*DID_YOU_MEAN, 5)]
    for text, form in zip(got, forms):
        assert text == both[form]
    assert len(set(both)) == (1 if lang == "ko" else 2)


def test_contexts_and_lazy_messages():
    assert pgettext("card", "Bank") == "Bank"
    assert npgettext("worker", "elf", "elves", 2) == "elves"
    marked = N_("unknown word {word!r}")
    assert marked == "unknown word {word!r}"
    lazy = L_("unknown word {word!r}")
    table = {"x": lazy}
    assert str(table["x"]) == "unknown word {word!r}"
    with using("fr"):
        assert str(table["x"]) == "mot inconnu {word!r}"
        assert table["x"].format(word="y") == "mot inconnu 'y'"
        assert f"{lazy:>25}".endswith("mot inconnu {word!r}")
        assert "inconnu" in lazy and lazy == "mot inconnu {word!r}" and len(lazy) == 20
        assert lazy + "!" == "mot inconnu {word!r}!" and "» " + lazy == "» mot inconnu {word!r}"
    assert str(Lp_("card", "Bank")) == "Bank"
    assert {lazy: 1}[L_("unknown word {word!r}")] == 1     # usable as a key


def test_the_option_help_is_translated():
    with using("it"):
        assert _(LANG_OPTION_HELP).format(choices="fr, de").startswith("la lingua della partita")


@pytest.mark.e2e   # starts a process
def test_importing_has_no_side_effects():
    """No environment read, no builtins._, English until activate(), no gettext globals."""
    code = (
        "import builtins, gettext, os\n"
        "os.environ['LANGUAGE'] = 'fr'\n"
        "before = gettext._current_domain\n"
        "import client.i18n as i\n"
        "from client.i18n import glossary, vocabulary, translate, width, harness, terms\n"
        "assert not hasattr(builtins, '_')\n"
        "assert i.active_language() == 'en'\n"
        "assert i._('unknown word {word!r}') == 'unknown word {word!r}'\n"
        "assert gettext._current_domain == before\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60)
    assert out.stdout.strip() == "ok", out.stderr
