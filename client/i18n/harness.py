"""Finding English left untranslated on a rendered screen (a test tool for the client).

    problems = find_untranslated(lambda: render_frame(view, 80, 24), allow={"Ana", "Bo"})
    assert problems == [], "\n".join(map(str, problems))

Pseudo-locale mode (the default, lang=pseudo.CODE): `render` runs with every `_()` message
and glossary term pseudo-translated (accented look-alike letters inside ⟦ ⟧). Any run of
plain ASCII letters left outside the brackets did not go through the translation functions
and is reported — whatever language it is in.

Catalog mode (lang='fr', 'de', …): `render` runs in that language and the English text of
every catalog message (the literal parts between its placeholders) and every glossary term
is searched for in the output; one found means a message that was not translated (missing
from the catalog, or shown without `_()`). Parts whose translation is the same English
words ("Pub", "Actions" in French) are not searched.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any
from dataclasses import dataclass
from string import Formatter

from . import glossary, pseudo
from .catalog import translations, using

# Runs of 2+ ASCII letters (with inner apostrophes or hyphens): English-looking words.
_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*[A-Za-z]")


@dataclass(frozen=True)
class Finding:
    line: int        # 0-based line of the rendered text
    column: int      # 0-based character offset in that line
    text: str        # the untranslated word or message part
    context: str     # the whole line

    def __str__(self) -> str:
        return f"line {self.line + 1}, col {self.column + 1}: {self.text!r} in {self.context!r}"


def rendered_text(result: str | Iterable[Any]) -> str:
    """Text of what a render function returned: a str; a list of lines, each a str or a
    list of prompt_toolkit style fragments [(style, text), …]; or one line of fragments."""
    if isinstance(result, str):
        return result
    items = list(result)
    if items and all(isinstance(i, tuple) for i in items):
        return "".join(frag[1] for frag in items)
    return "\n".join(i if isinstance(i, str) else "".join(frag[1] for frag in i)
                     for i in items)


def _outside_markers(line):
    """(offset, text) runs of `line` outside ⟦ ⟧ (nesting allowed; each line is marked on
    its own, so the depth starts at 0 on every line)."""
    runs, depth, start = [], 0, 0
    for i, ch in enumerate(line):
        if ch == pseudo.OPEN:
            if depth == 0 and i > start:
                runs.append((start, line[start:i]))
            depth += 1
        elif ch == pseudo.CLOSE and depth:
            depth -= 1
            if depth == 0:
                start = i + 1
    if depth == 0 and start < len(line):
        runs.append((start, line[start:]))
    return runs


def _pseudo_findings(text, allow):
    out = []
    for n, line in enumerate(text.split("\n")):
        for offset, run in _outside_markers(line):
            for m in _WORD.finditer(run):
                if m.group(0) not in allow:
                    out.append(Finding(n, offset + m.start(), m.group(0), line))
    return out


def _literal_parts(message):
    """The literal stretches of a format string, split at its {fields}."""
    try:
        parts = [lit for lit, *_rest in Formatter().parse(message)]
    except ValueError:
        parts = [message]
    return [p for part in parts for p in part.split("\n")]


def english_probes(lang: str, messages: Iterable[str] | None = None,
                   min_words: int = 2) -> list[str]:
    """English texts whose presence in a `lang` screen means an untranslated message: the
    literal parts (of `min_words`+ words) of the catalog's messages and every glossary term,
    except where the translation is the same."""
    tr = translations(lang)
    catalog = getattr(tr, "_catalog", {})
    if messages is None:
        messages = [k if isinstance(k, str) else k[0] for k in catalog if k]
        messages = [m.split("\x04", 1)[-1] for m in messages]
    probes = set()
    for msg in messages:
        translated = tr.gettext(msg)
        for part in _literal_parts(msg):
            part = part.strip(" .,:;!?—-()[]")
            if len(part.split()) >= min_words and part not in translated:
                probes.add(part)
    for term in glossary.TERMS:
        en, local = term.names["en"], term.names.get(lang)
        if local is None:
            continue
        for form in ("name", "plural", "full"):
            word = getattr(en, form)
            if word and len(word) > 2 and word.lower() not in (
                    getattr(local, form) or local.name).lower():
                probes.add(word)
    return sorted(probes, key=len, reverse=True)


def _catalog_findings(text, probes, allow):
    probes = [p for p in probes if p not in allow]
    if not probes:
        return []
    # compiled once: hundreds of probes overflow re's cache, recompiling on every line
    checks = {p: re.compile(r"(?<![A-Za-z])" + re.escape(p) + r"(?![A-Za-z])")
              for p in probes}
    out = []
    for n, line in enumerate(text.split("\n")):
        for probe in probes:
            if probe in line:
                for m in checks[probe].finditer(line):
                    out.append(Finding(n, m.start(), probe, line))
    return out


def find_untranslated(render: Callable[[], str | Iterable[Any]], lang: str = pseudo.CODE,
                      allow: Iterable[str] = (),
                      messages: Iterable[str] | None = None) -> list[Finding]:
    """Findings of English left on the screen `render()` draws in `lang` (see the module
    doc). `allow`: words that may stay as they are (player names, '#17', command examples
    in English). `messages`: the English messages to look for in catalog mode (default:
    every message of the language's catalog)."""
    allow = set(allow)
    with using(lang):
        text = rendered_text(render())
    if lang == pseudo.CODE:
        return _pseudo_findings(text, allow)
    return _catalog_findings(text, english_probes(lang, messages), allow)
