"""Commands typed in the player's language (with or without accents, any case) or
in English read as the engine's canonical English, and parse with the client's parser."""

import functools
import unicodedata

import belfort
import pytest
from belfort import command_text, legal_commands, parse_command
from belfort.commands import VERBS

from client.commands import resolve
from client.i18n import (canonical_line, complete_word, localize_completion, localize_line,
                         suggest, unknown_word_message, unknown_words, using)
from client.i18n.vocabulary import fold
from client_helpers import random_states

LANGS = ("fr", "de", "it", "ko")


def strip_accents(text):
    """What a player without accent keys types: 'forêt' -> 'foret' (Hangul untouched)."""
    text = unicodedata.normalize("NFKD", text)
    return unicodedata.normalize("NFC", "".join(c for c in text
                                                if not unicodedata.combining(c)))


def umlauts(text):
    return text.translate(str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue"}))


def variants(text):
    """The spellings a player may use for a localized command."""
    return {text, text.upper(), text.title(), strip_accents(text), umlauts(text),
            strip_accents(text).upper()}


@functools.lru_cache(maxsize=1)
def sample():
    """(state, seat, legal commands) from random games of 2–5 players with every guild."""
    out = []
    for players, seed in [(2, 1), (2, 7), (3, 2), (4, 3), (5, 4), (4, 11), (5, 12), (2, 13)]:
        for game, _seat in random_states(players, seed, every=3, limit=400):
            for s in game.waiting_for():
                out.append((game, s, legal_commands(game, s)))
    return out


# Every syntax of docs/engine.md's command table, including forms random games rarely reach.
SYNTAX = (
    "keep #0 #1 #2 drop #3:pub #4:inn", "np-dwarf merchants", "place elf desk",
    "place master-dwarf camp", "place elf miners", "place dwarf #17", "pass",
    "spread elf forest=2 mine=1 gold=0", "spread master-dwarf quarry=1 mine=0 gold=3", "crest 2",
    "build #17 tower@3", "build #5 keep@1", "build #7 gate4@0",
    "wall wall@2a", "wall 2b", "guild spies",
    "activate miners", "activate #17", "activate #17 gnome #20", "activate #17 gnome #20 gate1@2",
    "activate #18 elf", "activate #18 dwarf", "activate architects tower@2 discount=ws",
    "activate architects wall@1b discount=m", "activate architects guild@4 discount=ss",
    "activate recruiters elf", "activate recruiters gnome #20", "activate thieves from 2",
    "activate thieves each 1 3", "activate bandits from 2 wood stone",
    "activate bandits from 2 metal", "activate bandits each 1:wood 3:stone",
    "activate wizards tower@1 tower@3", "activate wizards gate1 gate3 gate1@2 gate3@4",
    "activate wizards guild@0 guild@2", "activate wizards wall@0a wall@3b",
    "buy wood", "sell metal", "exchange stone", "hire #20", "hire #20 gate1@2", "bank #21",
    "smith #22", "buy-card #30", "buy-card top", "end", "discard #3:pub", "show #3:library",
    "take #3", "np-take #30", "np-take top", "np-mark tower@2", "np-mark none", "np-skip",
)


@functools.lru_cache(maxsize=1)
def all_texts():
    texts = {command_text(c) for _g, _s, legal in sample() for c in legal}
    return sorted(texts | set(SYNTAX))


def test_the_syntax_list_is_valid_engine_text():
    for text in SYNTAX:
        parse_command(text)


def test_the_sample_covers_every_engine_verb_and_every_argument_shape():
    texts = all_texts()
    assert {t.split()[0] for t in texts} == set(VERBS)
    for shape in ("@", "=", "#", ":", "discount=", " gate", " from ", " each ", " gnome ",
                  " drop ", " top", " none", "master-"):
        assert any(shape in t for t in texts), shape


@pytest.mark.parametrize("lang", LANGS)
def test_every_legal_command_round_trips_through_the_language(lang):
    """localize_line shows a command in the language; canonical_line reads it back exactly,
    also typed without accents, in capitals, or with ae/oe/ue for umlauts."""
    changed = 0
    for text in all_texts():
        local = localize_line(text, lang)
        changed += local != text
        for typed in variants(local):
            assert canonical_line(typed, lang) == text, (typed, lang)
    assert changed > len(all_texts()) * 0.9      # almost every command has a localized word


@pytest.mark.parametrize("lang", LANGS + ("en",))
def test_english_always_passes_unchanged(lang):
    for text in all_texts():
        assert canonical_line(text, lang) == text
        assert canonical_line(text.upper(), lang) == text


@pytest.mark.parametrize("lang", LANGS)
def test_localized_commands_parse_with_the_client_parser(lang):
    """The translation layer's output goes to the existing parser unchanged: client
    resolve() and the engine's parse_command find the same legal command."""
    checked = 0
    for _game, _seat, legal in sample()[::5]:
        for cmd in legal[:60]:
            typed = strip_accents(localize_line(command_text(cmd), lang)).upper()
            line = canonical_line(typed, lang)
            assert parse_command(line) == cmd
            assert resolve(line, legal) == cmd
            checked += 1
    assert checked > 500


@pytest.mark.parametrize("lang,typed,meant", [
    ("fr", "garder #4 #0 #2", "keep"),            # keep in any order, 'drop …' added
    ("de", "behalte #4 #0 #2", "keep"),
    ("it", "tieni #4 #0 #2", "keep"),
    ("ko", "보관 #4 #0 #2", "keep"),
])
def test_shorthands_work_in_every_language(lang, typed, meant):
    game = belfort.new_game(4, {}, seed=1)
    legal = legal_commands(game, 0)
    cmd = resolve(canonical_line(typed, lang), legal)
    assert cmd in legal and cmd[0] == meant and set(cmd[1]) == {0, 2, 4}


def test_spread_shorthands_in_french_and_korean():
    game = belfort.new_game(3, {}, seed=4)
    for s in range(3):
        belfort.apply(game, legal_commands(game, s)[0], s)
    seat = game.waiting_for()[0]
    belfort.apply(game, "pass", seat)
    legal = legal_commands(game, seat)
    kind, total = legal[0][1], sum(legal[0][2:5])
    assert resolve(canonical_line(f"répartir {total} 0 0", "fr"), legal) == \
        ("spread", kind, total, 0, 0)
    assert resolve(canonical_line(f"배분 {total} 0 0", "ko"), legal) == \
        ("spread", kind, total, 0, 0)
    # by area names (one word each: 'or' or 'mine-d-or' for the gold mine)
    area = "forêt" if kind < 2 else "carrière"
    for gold in ("or", "mine-d-or", "MINE-D'OR"):
        assert resolve(canonical_line(f"REPARTIR {area}=0 {gold}={total}", "fr"), legal) \
            == ("spread", kind, 0, 0, total)


@pytest.mark.parametrize("lang,typed,english", [
    ("fr", "placer elfe bureau", "place elf desk"),
    ("fr", "Place Elfe Camp du Roi", "place elf camp"),
    ("fr", "poser maitre nain guilde des mineurs", "place master-dwarf miners"),
    ("fr", "placer elfe guilde:mineurs", "place elf guild:miners"),     # kind:name spelling
    ("de", "setze elb gilde:bergmann", "place elf guild:miners"),
    ("fr", "construire #17 TOUR@3", "build #17 tower@3"),
    ("fr", "mur 2a", "wall 2a"),
    ("fr", "activer voleurs chez 2", "activate thieves from 2"),
    ("fr", "activer bandits de 2 bois pierre", "activate bandits from 2 wood stone"),
    ("fr", "activer architectes tour@2 remise=bp", "activate architects tower@2 discount=ws"),
    ("fr", "activer sorciers porte1 corps-de-garde3 porte1@2",
     "activate wizards gate1 gate3 gate1@2"),
    ("fr", "acheter une carte pioche", "buy-card top"),
    ("fr", "nj-marquer aucun", "np-mark none"),
    ("fr", "aide corps de garde", "help gatehouse"),
    ("fr", "règles guilde des espions", "rules spies"),
    ("de", "setze meisterzwerg bergmanns-gilde", "place master-dwarf miners"),
    ("de", "setze elb anwerber-pult", "place elf desk"),
    ("de", "bauen #3 gaerten@1", "build #3 gardens@1"),
    ("de", "verteile zwerg steinbruch=1 bergwerk=0 goldmine=2",
     "spread dwarf quarry=1 mine=0 gold=2"),
    ("de", "schmieden #22", "smith #22"),
    ("de", "hilfe schmiede", "help blacksmith"),
    ("de", "karte kaufen oben", "buy-card top"),
    ("it", "piazza nano gilda dei minatori", "place dwarf miners"),
    ("it", "piazza elfo campo reale", "place elf camp"),
    ("it", "attiva #18 elfo", "activate #18 elf"),
    ("it", "compra-carta mazzo", "buy-card top"),
    ("it", "aiuto biblioteca", "help library"),
    ("ko", "배치 엘프 모집자의 책상", "place elf desk"),
    ("ko", "배치 마스터 드워프 광산 개발자 길드", "place master-dwarf miners"),
    ("ko", "건설 #3 타워@2", "build #3 tower@2"),
    ("ko", "활성화 #17 노움 #20 성문1@2", "activate #17 gnome #20 gate1@2"),
    ("ko", "도움말 도서관 길드", "help librarians"),
    ("ko", "도움말 도서관", "help library"),
    ("ko", "카드 구매 맨위", "buy-card top"),
])
def test_examples_typed_by_players(lang, typed, english):
    assert canonical_line(typed, lang) == english


def test_say_keeps_the_message_as_typed():
    assert canonical_line("dire  Bonne chance, place elfe!", "fr") == \
        "say Bonne chance, place elfe!"
    assert canonical_line("말 안녕하세요", "ko") == "say 안녕하세요"
    assert canonical_line("say hello", "de") == "say hello"
    assert localize_line("say place elf desk", "fr") == "dire place elf desk"


def test_unknown_words_pass_through_for_the_parser_to_quote():
    assert canonical_line("placer elfe Bureuu", "fr") == "place elf bureuu"
    assert canonical_line("Xyzzy 3 #4", "de") == "xyzzy 3 #4"
    assert canonical_line("?", "it") == "?"
    assert canonical_line("7", "ko") == "7"
    assert canonical_line("   ", "fr") == ""
    with pytest.raises(belfort.CommandSyntaxError, match="bureuu"):
        parse_command(canonical_line("placer elfe bureuu", "fr"))


def test_unknown_words_are_found_and_suggestions_offered():
    assert unknown_words("placer elfe bureuu", "fr") == ["bureuu"]
    assert unknown_words("contruire #17 tour@3", "fr") == ["contruire"]
    assert unknown_words("dire n'importe quoi", "fr") == []
    assert unknown_words("place elf desk", "fr") == []
    assert "construire" in suggest("contruire", "fr", first=True)
    assert "tour" in suggest("tuor", "fr")
    with using("fr"):
        assert unknown_word_message("tuor", "fr") == \
            "mot inconnu 'tuor'; vouliez-vous dire tour ?"
    with using("en"):
        assert unknown_word_message("qqqq", "en") == "unknown word 'qqqq'"


def test_completion_offers_the_active_language():
    assert localize_completion("place", "fr", first=True) == "placer"
    assert localize_completion("miners", "de") == "bergmann"
    assert localize_completion("tower@3", "it") == "torre@3"
    assert localize_completion("gate4@0", "ko") == "성문4@0"
    assert localize_completion("forest=", "fr") == "forêt="
    assert localize_completion("#3:gatehouse", "fr") == "#3:corps-de-garde"
    assert localize_completion("#17", "fr") == "#17"
    # a typed beginning matches without accents; English still completes in English
    assert complete_word("fo", ["forest=", "mine="], "fr") == [("forêt=", "forest=")]
    assert complete_word("fores", ["forest="], "fr") == [("forest=", "forest=")]
    assert complete_word("", ["place", "pass"], "ko", first=True) == \
        [("배치", "place"), ("패스", "pass")]
    assert complete_word("BAU", ["build", "buy"], "de", first=True) == [("bauen", "build")]
    assert complete_word("bu", ["build", "buy"], "de", first=True) == \
        [("build", "build"), ("buy", "buy")]


def test_localized_listing_reads_naturally():
    assert localize_line("spread elf forest=2 mine=1 gold=0", "fr") == \
        "répartir elfe forêt=2 mine=1 or=0"
    assert localize_line("activate wizards gate1 gate3 gate1@2", "de") == \
        "aktivieren zauberer tor1 tor3 tor1@2"
    assert localize_line("keep #0 #1 #2 drop #3:pub #4:inn", "it") == \
        "tieni #0 #1 #2 scarta #3:pub #4:locanda"
    assert localize_line("help two-player", "ko") == "도움말 2인"
    assert localize_line("place elf guild:miners", "it") == "piazza elfo gilda:minatori"
    assert localize_line("build #17 tower@3", "en") == "build #17 tower@3"


def test_folding_is_what_the_vocabulary_compares():
    assert fold("Forêt") == fold("FORET") == "foret"
    assert fold("Gärten") == "garten"
    assert fold("Maçons") == "macons"
    assert fold("게이트하우스") == "게이트하우스"
