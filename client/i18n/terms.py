"""The glossary's words in the active language, for the screen and the log.

    term("card:tower")                 -> "Tour"        (French active)
    term("card:tower", "short")        -> "Tou"          (at most 3 cells)
    term("guild:miners", "brief")      -> "Mineurs"      (at most 10 cells; "Bergmann" in German)
    term("guild:miners", "full")       -> "Guilde des mineurs"
    term_count("kind:elf", 3)          -> "elfes"       (the form for a count of 3)
    term("card:tower", lang="de")      -> "Turm"        (any language, whatever is active)

In the pseudo-locale the English term comes back pseudo-translated (pseudo.mark), so the
harness can tell it went through here.
"""

from __future__ import annotations

import gettext
from typing import TYPE_CHECKING

from . import glossary, pseudo
from .catalog import active_language
from .language import PLURAL_FORMS

if TYPE_CHECKING:
    from client.i18n.glossary import Name

_FORMS = ("name", "plural", "short", "brief", "full", "word")
_RULES = {lang: gettext.c2py(spec.split("plural=", 1)[1].rstrip("; "))
          for lang, spec in PLURAL_FORMS.items()}


def _pick(name: Name, form: str) -> str:
    if form not in _FORMS:
        raise ValueError(f"unknown term form {form!r}; forms are {', '.join(_FORMS)}")
    value = getattr(name, form)
    if not value and form == "plural":
        value = name.name
    if not value and form == "full":
        value = name.name
    if not value and form in ("short", "brief"):
        value = name.name
    return value


def term(key: str, form: str = "name", lang: str | None = None) -> str:
    """Glossary term `key` ('card:tower', 'guild:spies', 'resource:gold', …) as `form` in
    `lang` (default: the active language). Raises KeyError for an unknown key."""
    lang = active_language() if lang is None else lang
    if lang == pseudo.CODE:
        return pseudo.mark(_pick(glossary.entry(key, "en"), form))
    return _pick(glossary.entry(key, lang), form)


def term_count(key: str, n: int, lang: str | None = None) -> str:
    """The singular or plural of `key` that goes with the number `n`, by the language's
    plural rule (French: 0 and 1 take the singular; Korean has one form)."""
    lang = active_language() if lang is None else lang
    rule = _RULES[lang if lang in _RULES else "en"]
    return term(key, "plural" if rule(n) else "name", lang)
