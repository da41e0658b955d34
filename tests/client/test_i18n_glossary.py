"""The printed game's own terms in each language, each cited from its edition's rulebook
(by file and line, client/i18n/glossary.py) or marked as chosen where the edition prints
none."""

import importlib.util
import pathlib
import re

import pytest
from belfort.data import AREAS, CARD_TYPES, GUILDS, KINDS, RESOURCES

from client.i18n import cell_width, glossary, term, term_count, using
from client.i18n.vocabulary import fold

ROOT = pathlib.Path(__file__).resolve().parents[2]
LOCAL = ("fr", "de", "it", "ko")


def load_tool():
    spec = importlib.util.spec_from_file_location("i18n_tool", ROOT / "scripts" / "i18n.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    return tool


def test_the_glossary_covers_the_game_s_vocabulary():
    keys = set(glossary.BY_KEY)
    wanted = {f"card:{t}" for t in CARD_TYPES} | {f"guild:{g}" for g in GUILDS} | \
        {f"resource:{r}" for r in RESOURCES} | {f"kind:{k}" for k in KINDS} | \
        {f"area:{a}" for a in AREAS} | {
            "kind:gnome", "board:wall", "board:guild", "board:desk", "board:camp",
            "board:trading-post", "board:district", "board:crest", "board:score-track",
            "board:tax", "board:non-player", "time:month", "time:round", "score:vp",
            "season:spring", "season:summer", "season:autumn", "season:winter",
            "phase:placement", "phase:collection", "phase:actions", "phase:scoring"}
    assert wanted <= keys
    assert len(glossary.TERMS) == len(keys)          # no key twice


@pytest.mark.parametrize("term_", glossary.TERMS, ids=lambda t: t.key)
def test_every_term_has_every_language_with_a_source_or_a_reason(term_):
    assert set(term_.names) == set(glossary.LANGS)
    for lang in LOCAL:
        n = term_.names[lang]
        assert n.name.strip() == n.name and n.name
        assert bool(n.src) != bool(n.chosen), f"{lang}: cite a source or say why it was chosen"
        if n.src:
            assert re.fullmatch(r"00[0-4]:\d+ .+", n.src), n.src
            quote = fold(n.src.split(" ", 1)[1])
            shorts = (n.short,) if len(n.short) >= 2 else ()
            spellings = [fold(f) for f in (n.name, n.word, n.full, *shorts, *n.aliases) if f]
            assert "OCR" in n.note or any(s.replace("-", " ") in quote.replace("-", " ")
                                 for s in spellings), f"{lang}: {n.src!r} does not show it"
        if n.short:
            assert cell_width(n.short) <= 3, n.short
        if term_.key == "card:keep":
            # the compact board's keep column heading is two cells wide
            assert cell_width(n.short or n.name) <= 2, n.short
        if term_.category == "guild":
            # the board's guild column and the score table give a guild 10 cells: a name
            # longer than that has a brief form chosen for it, never a cut
            assert cell_width(n.brief or n.name) <= 10, n.brief or n.name


def test_the_citation_check_finds_a_line_that_does_not_quote_its_term(tmp_path):
    """`scripts/i18n.py sources --seeds DIR` holds the citations against the rulebooks'
    text files, which are not in the repository; here against files made from the
    citations themselves: every citation passes, and one line changed is reported."""
    tool = load_tool()
    lines = {f: {} for f in glossary.SEEDS}
    for t in glossary.TERMS:
        for n in t.names.values():
            if n.src:
                ref, _, quote = n.src.partition(" ")
                f, _, k = ref.partition(":")
                lines[f].setdefault(int(k), []).append(quote)
    for f, by_line in lines.items():
        text = [" / ".join(by_line.get(k, ["-"])) for k in range(1, max(by_line, default=0) + 1)]
        (tmp_path / glossary.SEEDS[f]).write_text("\n".join(text), encoding="utf-8")
    assert tool.check_sources(tmp_path) == []
    tower = glossary.BY_KEY["card:tower"].names["fr"].src
    f, k = tower.split(" ", 1)[0].split(":")
    path = tmp_path / glossary.SEEDS[f]
    text = path.read_text(encoding="utf-8").split("\n")
    text[int(k) - 1] = "nothing here"
    path.write_text("\n".join(text), encoding="utf-8")
    bad = tool.check_sources(tmp_path)
    assert bad and all(f"line {k} does not contain" in b for b in bad), bad
    assert any(b.startswith("card:tower [fr]") for b in bad), bad


def test_which_edition_is_which():
    assert glossary.SEEDS == {"000": "000_634eb4ed259be09d.txt",
                              "001": "001_71a5de21426a9d6c.txt",
                              "002": "002_a0ec3690b1c2bf58.txt",
                              "003": "003_311cec5fe4640119.txt",
                              "004": "004_5b6acc0b0800d87a.txt"}
    # the languages cite their own rulebook (003 is the French aid)
    files = {"fr": {"000", "003"}, "it": {"001"}, "de": {"002"}, "ko": {"004"}}
    for t in glossary.TERMS:
        for lang in LOCAL:
            src = t.names[lang].src
            if src:
                assert src[:3] in files[lang], (t.key, lang, src)


def test_terms_in_the_active_language():
    with using("fr"):
        assert term("card:tower") == "Tour"
        assert term("guild:miners", "full") == "Guilde des mineurs"
        assert term("card:gatehouse", "short") == "CdG"
        assert term("guild:librarians", "brief") == "Biblioth."
        assert term("guild:miners", "brief") == "Mineurs"
        assert term_count("kind:elf", 0) == "elfe"         # French: 0 takes the singular
        assert term_count("kind:elf", 2) == "elfes"
    with using("de"):
        assert term("card:keep") == "Festung"
        assert term("guild:miners") == "Bergmanns-Gilde"
        assert term("guild:miners", "brief") == "Bergmann"
        assert term_count("kind:dwarf", 0) == "Zwerge"
    with using("ko"):
        assert term("card:keep") == "키프"
        assert term_count("kind:elf", 5) == "엘프"          # one form
    with using("en"):
        assert term("area:gold") == "gold mine" and term_count("kind:dwarf", 2) == "dwarves"
    assert term("resource:gold", lang="it") == "oro"
    with pytest.raises(KeyError):
        term("card:castle")
    with pytest.raises(ValueError):
        term("card:tower", "genitive")


def test_the_markdown_table_lists_every_term():
    table = load_tool().glossary_markdown()
    for t in glossary.TERMS:
        assert f"`{t.key}`" in table
    assert "Corps de garde" in table and "게이트하우스" in table and "Bänker-Gilde" in table
    # docs/i18n.md shows the current glossary (regenerate: python scripts/i18n.py glossary)
    assert table in (ROOT / "docs" / "i18n.md").read_text(encoding="utf-8")
