"""Help in every language finds its topics by the language's own words, a card's name leads
to the card, and what the program says about typed commands is in the player's language."""

import belfort
import pytest

from client import rules_text
from client.i18n import canonical_line, using
from client.reasons import parser_text
from client.render import built_text, kind_letter

RS = belfort.load_ruleset(None)


def _lookup(lang, typed):
    with using(lang):
        canon = canonical_line("help " + typed, lang).split(None, 1)
        return rules_text.lookup(RS, canon[1] if len(canon) > 1 else typed)


@pytest.mark.parametrize("lang,typed,title_has", [
    ("de", "planke", "Planke"), ("de", "meister", "Meister"), ("de", "schloss", "Schl"),
    ("de", "gebäudefigur", "Gebäudefigur"), ("de", "arbeiter", "Arbeiter"),
    ("de", "ressourcenfelder", "Ressourcenfelder"), ("de", "kartenliste", "Gebäudekarten"),
    ("ko", "판자", "판자"), ("ko", "마스터", "마스터"), ("ko", "자물쇠", "자물쇠"),
    ("ko", "마커", "마커"), ("ko", "일꾼", "일꾼"), ("ko", "자원 구역", "자원 구역"),
    ("fr", "comptoir", "comptoir"), ("it", "stazione di scambio", "Stazione"),
])
def test_help_topics_are_found_by_the_language_s_words(lang, typed, title_has):
    found = _lookup(lang, typed)
    assert found is not None, typed
    with using(lang):
        assert title_has.lower() in found[0].lower()


@pytest.mark.parametrize("lang", ["fr", "de", "it", "ko"])
def test_the_topic_list_is_in_the_language(lang):
    with using(lang):
        names = rules_text.main_topics(RS, localized=True)
    english_only = {"glossary", "workers", "master", "plank", "lock", "marker", "crests",
                    "income", "areas", "trading-post", "months", "reserve", "card-list",
                    "guild-list", "setup", "placement", "screen", "commands"}
    left = [n for n in names if n in english_only and n != "placement"]
    assert not left, left


@pytest.mark.parametrize("lang,card", [("fr", "donjon"), ("de", "festung"), ("it", "fortezza"),
                                       ("ko", "키프"), ("en", "keep")])
def test_a_card_s_name_leads_to_the_card_s_help_alone(lang, card):
    title, text = _lookup(lang, card)
    with using(lang):
        assert rules_text.card_help(RS, "keep") == (title, text)
    assert ":type" not in text and "#D:" not in text


@pytest.mark.parametrize("lang,placeholder", [("fr", "#D:type"), ("de", "#D:Art"),
                                              ("it", "#D:tipo"), ("ko", "#D:종류")])
def test_the_keep_usage_names_the_type_in_the_language(lang, placeholder):
    with using(lang):
        usage, _what = rules_text.command_text(RS)["keep"]
    assert placeholder in usage
    if lang == "fr":
        assert "[jeter " in usage and "drop" not in usage


@pytest.mark.parametrize("lang,text", [
    ("fr", "« voleur » n'est pas une carte ; les cartes s'écrivent #17"),
    ("de", "„voleur“ ist keine Karte; Karten schreibt man #17"),
    ("ko", "'voleur'는 카드가 아닙니다. 카드는 #17처럼 씁니다"),
])
def test_the_engine_s_reader_is_answered_in_the_language(lang, text):
    with using(lang):
        assert parser_text("'voleur' is not a card; cards are written #17") == text
        # lists come in the words the player types
        assert "tour" in parser_text("unknown card type 'x'; types are pub, tower") or \
            lang != "fr"


@pytest.mark.parametrize("lang,letters,gnome_on_tower", [
    ("fr", ("e", "n", "E", "N"), "Tou[g]"), ("de", ("e", "z", "E", "Z"), "Trm[g]"),
    ("it", ("e", "n", "E", "N"), "Tor[g]"), ("ko", ("엘", "드", "엘⁺", "드⁺"), "타[노]"),
    ("en", ("e", "d", "E", "D"), "Twr[g]"),
])
def test_the_board_s_letters_are_the_glossary_s_short_forms(lang, letters, gnome_on_tower):
    with using(lang):
        assert tuple(kind_letter(k) for k in ("elf", "dwarf", "master-elf", "master-dwarf")) \
            == letters
        assert built_text({"type": "tower", "locks": 1, "gnomes": 1}, wide=False) == \
            gnome_on_tower


@pytest.mark.parametrize("lang,field_text,file_text", [
    ("de", "Regelwerk-Feld 'taxes': unbekanntes Feld", "Datei nicht gefunden"),
    ("fr", "champ 'taxes' des règles : champ inconnu", "fichier introuvable"),
    ("it", "campo 'taxes' delle regole: campo sconosciuto", "file inesistente"),
    ("ko", "규칙 세트 필드 'taxes': 알 수 없는 필드", "파일이 없음"),
    ("en", "ruleset field 'taxes': unknown field", "No such file or directory"),
])
def test_a_refused_ruleset_is_explained_in_the_language(lang, field_text, file_text,
                                                         tmp_path):
    from client.main import ruleset_message
    bad = tmp_path / "bad.toml"
    bad.write_text('[taxes]\nfoo = "x"\n', encoding="utf-8")
    with using(lang):
        with pytest.raises(belfort.RulesetError) as exc:
            belfort.load_ruleset(str(bad))
        assert field_text in ruleset_message(exc.value, str(bad))
        with pytest.raises(belfort.RulesetError) as exc:
            belfort.load_ruleset(str(tmp_path / "none.toml"))
        assert file_text in ruleset_message(exc.value, "none.toml")
