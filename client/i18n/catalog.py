"""The translation functions and the active language (standard-library gettext).

    from client.i18n import _, ngettext, pgettext, N_, L_

    _("Your turn")                                   # translated now, in the active language
    ngettext("{n} worker left", "{n} workers left", n).format(n=n)
    pgettext("card", "Bank")                         # same English, different meaning
    VERB_META = {"pass": L_("stop placing")}         # module level: translated when used
    TITLE = {"bank": Lp_("card", "Bank")}            # lazy, with a context
    TOPICS = [N_("setup"), N_("scoring")]            # only marked; call _(x) when shown

Catalogs are compiled `.mo` files inside the package (`client/locale/LANG/LC_MESSAGES/`,
domain "belfort"); English is the source language and needs none. Nothing happens at
import: the active language is English until `activate()` is called.
"""

from __future__ import annotations

import gettext
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources
from importlib.abc import Traversable
from typing import Any, TypedDict

from . import korean, pseudo

DOMAIN = "belfort"

_ENGLISH = gettext.NullTranslations()


class _Active(TypedDict):
    lang: str
    translations: gettext.NullTranslations


_active: _Active = {"lang": "en", "translations": _ENGLISH}
_loaded: dict[str, gettext.NullTranslations] = {}


def catalog_path(lang: str) -> Traversable:
    """Where the compiled catalog of `lang` lives inside the installed package."""
    return resources.files("client").joinpath("locale", lang, "LC_MESSAGES", f"{DOMAIN}.mo")


def translations(lang: str) -> gettext.NullTranslations:
    """The gettext translations object for `lang` (cached). English and unknown languages
    get the identity; `pseudo.CODE` gets the pseudo-locale used by the tests."""
    if lang in _loaded:
        return _loaded[lang]
    tr: gettext.NullTranslations
    if lang == pseudo.CODE:
        tr = pseudo.PseudoTranslations()
    elif lang == "en":
        tr = _ENGLISH
    else:
        path = catalog_path(lang)
        try:
            with path.open("rb") as fp:
                tr = gettext.GNUTranslations(fp)
        except (FileNotFoundError, OSError) as exc:
            warnings.warn(f"no {lang!r} catalog ({exc}); speaking English", RuntimeWarning,
                          stacklevel=2)
            tr = _ENGLISH
    _loaded[lang] = tr
    return tr


def activate(lang: str) -> str:
    """Make `lang` the language of every later `_()` call; returns the previous one."""
    previous = _active["lang"]
    _active["translations"] = translations(lang)
    _active["lang"] = lang
    return previous


def active_language() -> str:
    return _active["lang"]


@contextmanager
def using(lang: str) -> Iterator[None]:
    """`with using("fr"): …` speaks French inside the block (tests, the harness)."""
    previous = activate(lang)
    try:
        yield
    finally:
        activate(previous)


class KoreanText(str):
    """A Korean message: its particles written in the double form (`{who}이(가)`) take the
    form the word before them needs, when the message is filled in (`korean.particles`)."""

    __slots__ = ()

    def format(self, *args: object, **kwargs: object) -> str:
        return korean.particles(str.format(self, *args, **kwargs))


def _spoken(text: str) -> str:
    # Korean particles follow the sound of what the program inserts; the other languages'
    # messages are plain strings
    if _active["lang"] == "ko":
        return KoreanText(korean.particles(text) if "{" not in text else text)
    return text


def _(message: str) -> str:
    return _spoken(_active["translations"].gettext(message))


def ngettext(singular: str, plural: str, n: int) -> str:
    return _spoken(_active["translations"].ngettext(singular, plural, n))


def pgettext(context: str, message: str) -> str:
    return _spoken(_active["translations"].pgettext(context, message))


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    return _spoken(_active["translations"].npgettext(context, singular, plural, n))


def N_(message: str) -> str:
    """Marks `message` for extraction only; translate it with `_()` where it is shown."""
    return message


class LazyString:
    """A message translated each time it is used as text, so module-level tables follow
    the language active at the time of use. Behaves like a str where one is needed
    (formatting, concatenation, comparison, len, methods)."""

    __slots__ = ("message", "context")

    def __init__(self, message: str, context: str | None = None) -> None:
        self.message = message
        self.context = context

    def __str__(self) -> str:
        if self.context is None:
            return _(self.message)
        return pgettext(self.context, self.message)

    def __repr__(self) -> str:
        return f"L_({self.message!r})"

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LazyString):
            return (self.message, self.context) == (other.message, other.context)
        return str(self) == other

    def __hash__(self) -> int:
        return hash((self.message, self.context))

    def __lt__(self, other: object) -> bool:
        return str(self) < str(other)

    def __add__(self, other: object) -> str:
        return str(self) + str(other)

    def __radd__(self, other: object) -> str:
        return str(other) + str(self)

    def __mod__(self, args: object) -> str:
        return str(self) % args

    def __len__(self) -> int:
        return len(str(self))

    def __contains__(self, item: str) -> bool:
        return item in str(self)

    def __iter__(self) -> Iterator[str]:
        return iter(str(self))

    def __getitem__(self, index: int | slice) -> str:
        return str(self)[index]

    def __getattr__(self, name: str) -> Any:
        # str methods: .format(), .upper(), .split(), …
        if name in LazyString.__slots__ or name.startswith("__"):
            raise AttributeError(name)
        return getattr(str(self), name)


def L_(message: str) -> LazyString:
    """A lazily translated message (module-level constants); see LazyString."""
    return LazyString(message)


def Lp_(context: str, message: str) -> LazyString:
    """A lazily translated message with a context (like pgettext)."""
    return LazyString(message, context)
