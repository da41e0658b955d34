"""Which language the program speaks: `--lang`, else the usual environment, else English.

The environment is read the way gettext programs read it:

1. `LANGUAGE`, a colon-separated list of preferences (`fr:de`), unless the locale below is
   explicitly `C` or `POSIX` (GNU gettext ignores LANGUAGE then, so we do too);
2. the locale: the first non-empty of `LC_ALL`, `LC_MESSAGES`, `LANG` (`fr_FR.UTF-8`,
   `de_CH`, `ko_KR.eucKR`, `it_IT@euro`, …).

The first entry naming a language we have wins; an entry we do not have (`es`, `pt_BR`) is
skipped, so `LANGUAGE=es:fr` gives French. Nothing usable gives English.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from .catalog import N_, _

LANGUAGES = ("en", "fr", "de", "it", "ko")
DEFAULT = "en"

# Each language's name in itself: what a player looks for in a list of languages.
AUTONYMS = {"en": "English", "fr": "Français", "de": "Deutsch", "it": "Italiano",
            "ko": "한국어"}

# The single source of each catalog's Plural-Forms header (scripts/i18n.py writes it; the
# tests check the compiled catalogs carry it).
PLURAL_FORMS = {
    "en": "nplurals=2; plural=(n != 1);",
    "fr": "nplurals=2; plural=(n > 1);",
    "de": "nplurals=2; plural=(n != 1);",
    "it": "nplurals=2; plural=(n != 1);",
    "ko": "nplurals=1; plural=0;",
}

# Catalogs whose new messages the translators have not done yet: untranslated (and fuzzy)
# entries are shown in English and are not counted as errors by `scripts/i18n.py check` and
# the tests (anything else still is). Remove a language once its .po is complete.
AWAITING_TRANSLATION: tuple[str, ...] = ()

LANG_OPTION_HELP = N_("the language to play in: {choices} (default: from LANGUAGE, LC_ALL, "
                      "LC_MESSAGES or LANG, else English)")

_ENV_LOCALE = ("LC_ALL", "LC_MESSAGES", "LANG")


class UnknownLanguage(ValueError):
    """`--lang` named a language we do not have."""

    def __init__(self, value: object) -> None:
        self.value = value
        super().__init__(_("unknown language {lang!r}: choose one of {choices}").format(
            lang=value, choices=", ".join(LANGUAGES)))


def language_of(value: str) -> str | None:
    """The supported language a locale name or language tag stands for, or None.

    'fr', 'fr_FR', 'fr_FR.UTF-8', 'fr-CA', 'de_DE@euro', 'KO_kr.eucKR' -> 'fr', 'fr', …, 'ko';
    'C' and 'POSIX' -> 'en'; unsupported or malformed -> None.
    """
    if not isinstance(value, str):
        return None
    text = value.strip()
    if text in ("C", "POSIX") or text.startswith(("C.", "C@", "POSIX.")):
        return DEFAULT
    base = text.split("@", 1)[0].split(".", 1)[0].replace("-", "_")
    lang = base.split("_", 1)[0].lower()
    return lang if lang in LANGUAGES else None


def parse_lang_option(value: object) -> str:
    """The language `--lang VALUE` asks for; raises UnknownLanguage (its message is
    translated) for anything we do not have. Accepts the same spellings as the
    environment ('fr', 'fr_FR.UTF-8', 'FR')."""
    text = value.strip() if isinstance(value, str) else ""
    is_c = text in ("C", "POSIX") or text.startswith(("C.", "C@", "POSIX."))
    lang = None if is_c else language_of(text)
    if lang is None:
        raise UnknownLanguage(value)
    return lang


def choose_language(option: str | None = None,
                    environ: Mapping[str, str] | None = None) -> str:
    """The language to speak: `option` (the value of --lang) if given, else the environment
    (`environ`, default os.environ), else English."""
    if option is not None:
        return parse_lang_option(option)
    env = os.environ if environ is None else environ
    locale_value = next((env[v] for v in _ENV_LOCALE if env.get(v)), "")
    explicit_c = locale_value.strip() in ("C", "POSIX") or \
        locale_value.strip().startswith(("C.", "POSIX."))
    if not explicit_c:
        for item in (env.get("LANGUAGE") or "").split(":"):
            lang = language_of(item) if item.strip() else None
            if lang is not None:
                return lang
    return language_of(locale_value) or DEFAULT
