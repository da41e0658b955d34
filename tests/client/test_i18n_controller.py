"""Commands typed in the player's language (with or without accents, in
any case) or in English reach the engine as the same canonical command; `--lang` and the
environment choose the language of every command; engine refusals are translated."""

import unicodedata

import belfort
import pytest

from client import main as belfort_main
from client.app import localized_complete
from client.commands import Hinter
from client.controller import Controller
from client.i18n import LANGUAGES, active_language, localize_line, using
from client_helpers import StateDriver, random_states

TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]


def plain_letters(text):
    """`text` without its accents (é -> e), as a player without the keys types it."""
    return "".join(ch for ch in unicodedata.normalize("NFKD", text)
                   if not unicodedata.combining(ch))


def sample_states():
    return random_states(players=4, seed=7, every=11, limit=20) + \
        random_states(players=2, seed=8, every=17, limit=8)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_commands_typed_in_each_language_reach_the_same_canonical_command(lang):
    tried = 0
    for game, seat in sample_states():
        legal = belfort.legal_commands(game, seat)
        for cmd in legal[:: max(1, len(legal) // 6)]:
            english = belfort.command_text(cmd)
            typed = localize_line(english, lang)
            for variant in (typed, typed.upper(), plain_letters(typed), english):
                driver = StateDriver(game, seat, apply_commands=False)
                with using(lang):
                    reply = Controller(driver).handle(variant)
                assert reply.kind == "ok", (lang, variant, reply.text)
                assert driver.submitted == [cmd], (lang, variant)
                tried += 1
    assert tried > 100


@pytest.mark.parametrize("lang", TRANSLATED)
def test_completion_offers_the_active_language(lang):
    game, seat = next((g, s) for g, s in sample_states()
                      if any(c[0] == "place" for c in belfort.legal_commands(g, s)))
    legal = belfort.legal_commands(game, seat)
    hinter = Hinter(legal, belfort.seat_view(game, seat), game.rs)
    with using(lang):
        verbs = [w.strip() for w, _start, _meta in localized_complete(hinter, "")]
        place = localize_line("place", lang)
        assert place in verbs and (place == "place" or "place" not in verbs)
        # the next word after the localized verb: the workers, in the active language
        words = [w.strip() for w, _s, _m in localized_complete(hinter, place + " ")]
        assert localize_line("place elf", lang).split()[1] in words
        # English typed so far is read too: the next word is offered after it
        assert words == [w.strip() for w, _s, _m in localized_complete(hinter, "place ")]


def test_lang_option_and_environment_choose_the_language(capsys, monkeypatch):
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    assert belfort_main.main(["rules", "--lang", "fr", "corps de garde"]) == 0
    assert capsys.readouterr().out.startswith("Corps de garde")
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    assert belfort_main.main(["rules", "tower"]) == 0
    assert capsys.readouterr().out.startswith("Turm")
    monkeypatch.setenv("LANGUAGE", "es:ko")
    assert belfort_main.main(["rules", "tower"]) == 0
    assert capsys.readouterr().out.startswith("타워")
    assert belfort_main.main(["--lang=it", "rules", "tower"]) == 0     # before the command
    assert capsys.readouterr().out.startswith("Torre")
    assert belfort_main.main(["rules", "--lang", "xx"]) == 2
    assert "unknown language 'xx'" in capsys.readouterr().err
    assert active_language() == "en"          # main() leaves the process as it found it


def test_the_lang_option_is_taken_out_before_the_networked_commands_parse():
    assert belfort_main.take_lang_option(["join", "10.0.0.1", "--lang", "de", "--name", "X"]) \
        == ("de", ["join", "10.0.0.1", "--name", "X"])
    assert belfort_main.take_lang_option(["host", "--lang=ko"]) == ("ko", ["host"])


def test_an_engine_refusal_is_translated_with_the_glossarys_words():
    """The engine gives English with its template; the client says it in French."""
    for game, seat in sample_states():
        if game.phase != "placement" or game.step:
            continue
        p = game.players[seat]
        if p.res[3] >= game.rs.fee_recruiter_desk:
            continue
        driver = StateDriver(game, seat, apply_commands=False)
        with using("en"):
            english = Controller(driver).submit("place elf desk", None).text
        with using("fr"):
            french = Controller(driver).submit("place elf desk", None).text
        if "costs" not in english:
            continue
        assert english == ("Refused (§6): the Recruiter's desk costs "
                           f"{game.rs.fee_recruiter_desk} gold.")
        assert "bureau du recruteur" in french and "Refused" not in french
        return
    pytest.fail("no placement state where the desk is too dear")
