"""The catalogs speak the printed game's words (the glossary's), not a translator's own.

Each language lists the words its catalog must no longer use, with the printed word that
replaced it and the rulebook line printing that word (numbered as in client/i18n/glossary.py:
000 French, 001 Italian, 002 German, 004 Korean). A word found in any translation fails
with the message that holds it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("babel")
from babel.messages.pofile import read_po  # noqa: E402

from client.i18n import glossary  # noqa: E402

LOCALE = Path(__file__).resolve().parents[2] / "client" / "locale"

# language -> (pattern the catalog must not use, the printed word, its citation)
NOT_PRINTED = {
    "de": [
        (r"\bMarker\b", "Gebäudefigur", "002:585 eine seiner Gebäudefiguren"),
        (r"Rohstoff", "Ressourcen / Ressourcenfelder", "002:394 zu den Ressourcenfeldern"),
        (r"Grundstück", "Gebäudekarten / Gebäudesymbol", "002:134 50 GEBÄUDEKARTEN"),
        (r"Zugreihenfolge", "Zugabfolge", "002:398 in weiterer Zugabfolge"),
        (r"Kaufleute", "Kaufmanns-Gilde", "002:887 KAUFMANNS-GILDE"),
        (r"Gilde \{guild\}", "{guild} (the name already says Gilde)", "002:887 KAUFMANNS-GILDE"),
    ],
    "it": [
        (r"Carte proprietà|simbolo di proprietà", "Carte Edificio", "001:245 Carte Edificio"),
        (r"\b(?:i|gli altri|ogni|a) pari\b|\bun pari\b", "partecipante (pari reads 'tied')",
         "chosen"),
        (r"\bospite\b", "organizzatore (ospite reads 'guest')", "chosen"),
    ],
    "ko": [
        (r"벨포르", "벨포트", "004 prints 벨포트 ten times, 벨포르 never"),
        (r"자원 지역", "자원 구역", "004:286 패싱 및 자원 구역"),
        (r"예비", "공급처", "004:352 일꾼 공급처에서"),
        (r"마을", "도시", "004:1 도시의 열쇠"),
        (r"노움 \{n\}개|\{n\}개의 노움", "노움 {n}명", "004:143 22명의 노움"),
    ],
    "fr": [
        (r"\bengager un gnome|\bEngagez", "recruter un gnome", "000:649 RECRUTER UN GNOME"),
        (r"récolt", "collecte / collecter", "000:116 pour collecter des ressources"),
    ],
}


def _catalog(lang: str):
    with open(LOCALE / lang / "LC_MESSAGES" / "belfort.po", "rb") as fp:
        return read_po(fp, locale=lang)


@pytest.mark.parametrize("lang", sorted(NOT_PRINTED))
def test_the_catalog_uses_the_printed_words(lang):
    found = []
    for msg in _catalog(lang):
        if not msg.id:
            continue
        strings = msg.string if isinstance(msg.string, (tuple, list)) else (msg.string,)
        for s in strings:
            for pattern, printed, src in NOT_PRINTED[lang]:
                if s and re.search(pattern, s):
                    found.append(f"{pattern!r} (write {printed}; {src}) in {s[:90]!r}")
    assert not found, "\n".join(found)


@pytest.mark.parametrize("lang", sorted(NOT_PRINTED))
def test_every_citation_names_an_edition_of_that_language(lang):
    editions = {"fr": ("000", "003"), "it": ("001",), "de": ("002",), "ko": ("004",)}[lang]
    for _pattern, _printed, src in NOT_PRINTED[lang]:
        assert src == "chosen" or src[:3] in editions, src
        assert src == "chosen" or src[:3] in glossary.SEEDS


def test_the_printed_words_are_there():
    """The replacements are in the catalogs, not merely the old words gone."""
    def text(lang):
        return "\n".join(s for m in _catalog(lang) if m.id
                         for s in (m.string if isinstance(m.string, (tuple, list))
                                   else (m.string,)) if s)
    de, it, ko, fr = text("de"), text("it"), text("ko"), text("fr")
    for word in ("Gebäudefigur", "Ressourcenfelder", "Gebäudekarten", "Zugabfolge",
                 "Nachziehstapel", "Schmiede"):
        assert word in de, word
    for word in ("Carte Edificio", "Min. d'Oro", "organizzatore", "partecipanti"):
        assert word in it, word
    for word in ("벨포트", "자원 구역", "공급처", "도시", "노움 {n}명"):
        assert word in ko, word
    for word in ("recruter un gnome", "collecte"):
        assert word in fr, word
