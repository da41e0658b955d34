"""Every glossary term and every program word is typable in every language (with or
without accents, in any case, Korean too), and no spelling means two things."""

import itertools
import re
import unicodedata

import pytest
from belfort.commands import VERBS as ENGINE_VERBS
from belfort.data import AREAS, CARD_TYPES, GUILDS, KINDS, RESOURCES

from client.i18n import canonical_line, glossary, vocabulary
from client.i18n.translate import canonical_token
from client.i18n.vocabulary import CONTEXTS, entries, key, primary, spellings, table

LANGS = ("en", "fr", "de", "it", "ko")
LOCAL = ("fr", "de", "it", "ko")


def typed_variants(form):
    """How players type a form: as printed, capitals, lower case, no accents, ae/oe/ue."""
    stripped = unicodedata.normalize("NFC", "".join(
        c for c in unicodedata.normalize("NFKD", form) if not unicodedata.combining(c)))
    return {form, form.upper(), form.lower(), stripped, stripped.upper(), *spellings(form)}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("context", CONTEXTS)
def test_no_spelling_means_two_things(lang, context):
    """Within one context, the language's words and the English ones never disagree."""
    assert vocabulary.collisions(lang, context) == []


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("context", ("verb", "arg", "topic"))
def test_no_two_words_run_together_into_a_third(lang, context):
    """Phrases are matched greedily ('camp du roi'); two words typed one after the other must
    not spell a third term, except where that phrase is exactly what is meant."""
    tab = table(lang, context)
    # A phrase is intended when one of its spellings is the two words joined by a space or a
    # hyphen: 'np dwarf' is the np-dwarf command, 'gold mine' the gold mine, '도서관 길드'
    # the Librarians (as the Korean rulebook prints it).
    compounds = set()
    for one in {lang, "en"}:
        for _canon, forms in entries(one, context):
            for form in forms:
                parts = re.split(r"[\s\-]+", form)
                if len(parts) == 2:
                    compounds.add((key(parts[0]), key(parts[1])))
    bad = []
    for a, b in itertools.product(tab, repeat=2):
        joined = a + b
        if joined in tab and tab[joined] not in (tab[a], tab[b]) and \
                (a, b) not in compounds:
            bad.append((a, b, tab[joined]))
    assert bad == []


@pytest.mark.parametrize("lang", LOCAL)
def test_every_game_term_is_typable_in_every_language(lang):
    """Cards, guilds, resources, workers and areas, in every spelling a player may use,
    read as the engine's word in the contexts where the engine takes them."""
    checks = [("card", t, "card:" + t) for t in CARD_TYPES] + \
        [("arg", g, "guild:" + g) for g in GUILDS] + \
        [("arg", r, "resource:" + r) for r in RESOURCES] + \
        [("arg", k, "kind:" + k) for k in KINDS] + [("arg", "gnome", "kind:gnome")] + \
        [("area", a, "area:" + a) for a in AREAS] + \
        [("arg", "desk", "board:desk"), ("arg", "camp", "board:camp"),
         ("site", "wall", "board:wall"), ("site", "guild", "board:guild")]
    for context, english, term_key in checks:
        name = glossary.entry(term_key, lang)
        for form in name.forms():
            for typed in typed_variants(form):
                assert table(lang, context).get(key(typed)) == english, (typed, term_key)
        assert " " not in primary(lang, context)[english]


@pytest.mark.parametrize("lang", LOCAL)
def test_board_symbols_in_every_language(lang):
    for t in CARD_TYPES:
        word = primary(lang, "card")[t]
        if t == "gatehouse":
            assert canonical_token(f"{word}2@3", lang) == "gate2@3"
        else:
            assert canonical_token(f"{word}@3", lang) == f"{t}@3"
            assert canonical_token(f"{word.upper()}@3", lang) == f"{t}@3"
        assert canonical_token(f"#12:{word}", lang) == f"#12:{t}"
    wall = primary(lang, "site")["wall"]
    assert canonical_token(f"{wall}@2a", lang) == "wall@2a"
    gate = primary(lang, "gate")["gate"]
    assert canonical_token(f"{gate}4@0", lang) == "gate4@0"
    assert canonical_token(f"{gate}3", lang) == "gate3"


@pytest.mark.parametrize("lang", LOCAL)
def test_every_command_word_has_a_word_in_every_language(lang):
    verbs = dict(entries(lang, "verb"))
    assert set(ENGINE_VERBS) <= set(verbs)
    assert set(vocabulary.ENGLISH_VERBS) == set(verbs)
    keywords = {c for c, _f in entries(lang, "arg")}
    assert set(vocabulary.ENGLISH_KEYWORDS) <= keywords
    for verb, forms in verbs.items():
        for form in forms:
            for typed in typed_variants(form):
                assert canonical_line(typed + " 3", lang) == f"{verb} 3", typed


@pytest.mark.parametrize("lang", LANGS)
def test_every_help_topic_word_reads_as_a_topic(lang):
    for canon, forms in entries(lang, "topic"):
        for form in forms:
            for typed in typed_variants(form):
                assert canonical_line(f"help {typed}", lang) == f"help {canon}"


@pytest.mark.parametrize("lang", LANGS)
def test_shown_words_are_one_token_and_read_back(lang):
    for context in CONTEXTS:
        for canon, word in primary(lang, context).items():
            assert word and not any(ch.isspace() for ch in word), (context, word)
            assert table(lang, context)[key(word)] == canon


def test_discount_codes_use_each_language_s_resource_letters():
    assert canonical_token("remise=bb", "fr") == "discount=ww"
    assert canonical_token("rabatt=HS", "de") == "discount=ws"
    assert canonical_token("sconto=pp", "it") == "discount=ss"
    assert canonical_token("할인=m", "ko") == "discount=m"
    assert canonical_token("discount=sw", "en") == "discount=ws"


@pytest.mark.parametrize("lang,typed,canon", [
    ("fr", "rejouer", "again"), ("fr", "soirée", "evening"), ("de", "nochmal", "again"),
    ("de", "abend", "evening"), ("it", "ancora", "again"), ("it", "serata", "evening"),
    ("ko", "한판더", "again"), ("ko", "저녁", "evening")])
def test_the_evening_commands_are_typed_in_every_language(lang, typed, canon):
    from client.i18n import canonical_line
    assert canonical_line(typed, lang) == canon
