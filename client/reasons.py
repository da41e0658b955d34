"""The engine's reasons (refusals, unreadable commands, undo refusals) in the player's
language.

The engine writes English and attaches the template and its values (belfort.reasons); here
the template goes through the catalog and each game noun (a `Word`, a `Cost`) is replaced
by the glossary's word, so a French player reads a French refusal. Anything else (a plain
str, e.g. a reason that came over the network as text) is shown as it is.
"""

from __future__ import annotations

import re

from belfort import undo
from belfort.reasons import Cost, Reason, Word, WordList

from .i18n import N_, _, active_language, localize_line, localize_token, term
from collections.abc import Callable

# The undo refusals by code (belfort.undo.Refusal), as the client words them.
UNDO_REASONS = {
    undo.NOTHING: N_("there is nothing of yours to take back"),
    undo.OTHER_SEAT: N_("{who} has played since"),
    undo.DRAWN: N_("a card was drawn since"),
    undo.TURNED_UP: N_("a new card was turned up for the pool since"),
    undo.RESHUFFLED: N_("the discard pile was reshuffled since"),
    undo.REVEALED: N_("a card was revealed since"),
    undo.KEPT: N_("the kept cards were revealed since"),
    undo.GAME_OVER: N_("the game is over"),
    # a networked game's own (net.session.takeback.SessionRefusal)
    "undo/turn-passed": N_("your turn has passed: the game waits for {who} now"),
    "undo/not-playing": N_("the game is not being played now"),
    "undo/catching-up": N_("this game is still catching up with the others after a rejoin"),
}

_GLOSSARY_KIND = {"card": "card", "guild": "guild", "resource": "resource", "kind": "kind",
                  "phase": "phase"}


def _word(value: object) -> object:
    """A game noun in the active language ('tower' -> 'Tour'); any other value as it is."""
    lang = active_language()
    if isinstance(value, WordList):
        return ", ".join(str(_word(Word(value.kind, n))) for n in value.names)
    if isinstance(value, Cost):
        from .words import cost_text
        return cost_text(value.cost)
    if isinstance(value, Reason):
        # a part of the sentence with its own template ("expected {what} after …")
        return translate_reason(value)
    if not isinstance(value, Word):
        return value
    if value.kind == "phase" and value.name in PHASE_WORDS:
        return _(PHASE_WORDS[value.name])
    if value.kind in _TOKEN_KINDS:
        return _token(value.name, _TOKEN_KINDS[value.kind])
    if value.kind in ("tokens", "codes", "verbs"):
        context = {"tokens": "arg", "codes": "code", "verbs": "verb"}[value.kind]
        return ", ".join(_token(w.strip(), context) for w in value.name.split(","))
    if value.kind in _GLOSSARY_KIND:
        try:
            return term(f"{_GLOSSARY_KIND[value.kind]}:{value.name}")
        except KeyError:
            return str(value)
    if value.kind in ("kinds", "cards"):
        # plural nouns: 'elfs' -> the glossary's plural
        from .i18n.terms import term as term_of
        base = value.name[:-1]
        prefix = "kind" if value.kind == "kinds" else "card"
        try:
            return term_of(f"{prefix}:{base}", "plural")
        except KeyError:
            return str(value)
    if value.kind in ("site", "verb"):
        return localize_token(value.name, lang, value.kind if value.kind == "site" else "verb")
    return str(value)


# The steps of a round that are not the glossary's phases, as the reasons name them.
PHASE_WORDS = {"keep": N_("keeping cards"), "np-setup": N_("placing the non-player dwarves"),
               "camp": N_("the King's camp"), "np-turn": N_("the non-player turns"),
               "over": N_("the end of the game")}

# The engine quotes what it could not read in its own English words (the reader sees the
# line after the player's words were read as English); the player reads their own words.
_TOKEN_KINDS = {"token": "arg", "line": "line", "args": "args", "code": "code"}
_GATE_ALONE = re.compile(r"gate\d")


def _token(word: str, context: str) -> str:
    """An engine word, argument or line as the player types it ('dwarf' -> 'nain')."""
    lang = active_language()
    if lang == "en":
        return word
    if context == "line":
        return localize_line(word, lang)
    if context == "args":
        return " ".join(_token(w, "arg") for w in word.split())
    name, eq, value = word.partition("=")
    if eq and name and "@" not in name:
        # 'wood=1' (an area and a count): the name in the player's words, the count as it is
        return f"{_token(name, context)}={value}"
    left, at, right = word.partition("@")
    if at and right and not right[0].isdigit():
        # 'wall@keep': what the player wrote after a symbol word, in their words too
        return f"{_token(left + '@0', context)[:-2]}@{_token(right, context)}"
    if context == "arg" and _GATE_ALONE.fullmatch(word):
        return localize_token(word + "@0", lang, "arg")[:-2]
    if context == "code" and word in ("w", "s"):
        # one letter of a code ('w' for wood): the letter the player's codes use for it
        return localize_token(word * 2, lang, context)[:1]
    return localize_token(word, lang, context)


def translate_reason(reason: object, name_of: Callable[[int], str] | None = None) -> str:
    """`reason` (a belfort Reason, an undo Refusal, an exception or a str) as text in the
    active language."""
    if isinstance(reason, undo.Refusal):
        return _refusal(reason, name_of)
    if isinstance(reason, BaseException):
        inner = getattr(reason, "reason", None)
        return translate_reason(inner, name_of) if inner is not None else str(reason)
    if active_language() != "en" and isinstance(reason, str) and not isinstance(reason, Reason):
        return parser_text(reason)
    if active_language() == "en" or not isinstance(reason, Reason):
        return str(reason)
    try:
        return _(reason.template).format(**{k: _word(v) for k, v in reason.params.items()})
    except (KeyError, IndexError, ValueError):
        return str(reason)


def _refusal(refusal: undo.Refusal, name_of: Callable[[int], str] | None) -> str:
    if refusal.code == undo.PHASE:
        if refusal.round:
            return _("month {m} is over").format(m=refusal.round)
        return _("the phase is over")
    template = UNDO_REASONS.get(refusal.code)
    if template is None:
        return refusal.text(name_of)
    if name_of is not None and refusal.seat is not None:
        who = name_of(refusal.seat)
    elif refusal.code == "undo/turn-passed" and refusal.seat is None:
        return _("your turn has passed: the game waits for the next player now")
    else:
        who = _("seat {n}").format(n=refusal.seat)
    return _(template).format(who=who)


# The engine's command reader gives Reasons (translated above); a refusal that arrives as a
# plain English string (one that lost its template on the way) is recognized here and
# worded in the player's language, with the examples and lists in the words the player types.
def _local_list(text: str, context: str) -> str:
    lang = active_language()
    return ", ".join(localize_token(w.strip(), lang, context) for w in text.split(","))


def _local(word: str, context: str = "arg") -> str:
    return localize_token(word, active_language(), context)


PARSER_TEXTS: tuple[tuple[re.Pattern[str], str, Callable[[re.Match[str]], dict[str, str]]], ...] = (
    (re.compile(r"'(?P<word>[^']*)' is not a card; cards are written #17"),
     N_("'{word}' is not a card; cards are written #17"), lambda m: {}),
    (re.compile(r"'(?P<word>[^']*)' needs its type, like #17:tower"),
     N_("'{word}' needs its type, like {example}"),
     lambda m: {"example": "#17:" + _local("tower", "card")}),
    (re.compile(r"unknown card type '(?P<word>[^']*)'; types are (?P<list>.*)"),
     N_("unknown card type '{word}'; types are {list}"),
     lambda m: {"list": _local_list(m["list"], "card")}),
    (re.compile(r"unexpected '(?P<word>.*)' at the end"),
     N_("unexpected '{word}' at the end"), lambda m: {}),
    (re.compile(r"name the guild's symbol as guild@D \(district\), not '(?P<word>.*)'"),
     N_("name the guild's symbol as {example} (D the district), not '{word}'"),
     lambda m: {"example": _local("guild", "site") + "@D"}),
    (re.compile(r"unknown board symbol '(?P<word>[^']*)'; symbols look like (?P<list>.*)"),
     N_("unknown board symbol '{word}'; symbols look like {list}"),
     lambda m: {"list": _local_list(m["list"], "site")}),
    (re.compile(r"unknown guild '(?P<word>[^']*)'; guilds are (?P<list>.*)"),
     N_("unknown guild '{word}'; guilds are {list}"),
     lambda m: {"list": _local_list(m["list"], "arg")}),
    (re.compile(r"'(?P<word>[^']*)' is not one of (?P<list>.*)"),
     N_("'{word}' is not one of {list}"), lambda m: {"list": _local_list(m["list"], "arg")}),
    (re.compile(r"'(?P<word>[^']*)' is not a worker; use elf, dwarf, master-elf or master-dwarf"),
     N_("'{word}' is not a worker; use {kinds}"),
     lambda m: {"kinds": _local_list("elf, dwarf, master-elf, master-dwarf", "arg")}),
)


def parser_text(reason: str) -> str:
    """An unreadable-command reason of the engine's reader in the active language; any
    other text as it is."""
    for pattern, template, values in PARSER_TEXTS:
        m = pattern.fullmatch(reason)
        if m:
            return _(template).format(word=m["word"], **values(m))
    return reason


# The engine refuses a ruleset file in English (belfort.errors.RulesetError: the field and a
# reason); the reasons a person editing a ruleset meets are worded here in their language.
_OS_ERRORS = {"No such file or directory": N_("no such file"),
              "Permission denied": N_("permission denied"),
              "Is a directory": N_("it is a folder")}

RULESET_TEXTS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"unknown field"), N_("unknown field")),
    (re.compile(r"unknown field \(not in the ruleset it is based on\)"),
     N_("unknown field (not in the ruleset it is based on)")),
    (re.compile(r"missing"), N_("missing")),
    (re.compile(r"expected an integer, got (?P<value>.*)"),
     N_("expected a whole number, got {value}")),
    (re.compile(r"expected an integer from (?P<low>-?\d+) to (?P<high>-?\d+), got (?P<value>.*)"),
     N_("expected a whole number from {low} to {high}, got {value}")),
    (re.compile(r"expected a table, got (?P<value>.*)"), N_("expected a table, got {value}")),
    (re.compile(r"expected a list of integers, got (?P<value>.*)"),
     N_("expected a list of whole numbers, got {value}")),
    (re.compile(r"expected (?P<n>\d+) entries, got (?P<got>\d+)"),
     N_("expected {n} entries, got {got}")),
    (re.compile(r"expected a non-empty string"), N_("expected a text that is not empty")),
    (re.compile(r"cannot read (?P<path>.*): (?P<why>[^;]*); the shipped rulesets are (?P<list>.*)"),
     N_("cannot read {path}: {why}; the shipped rulesets are {list}")),
    (re.compile(r"(?P<path>.*) is not UTF-8 text"), N_("{path} is not UTF-8 text")),
    (re.compile(r"(?P<path>.*) is not valid TOML: (?P<error>.*)"),
     N_("{path} is not valid TOML: {error}")),
)


def ruleset_text(field: str, reason: str) -> str:
    """A refused ruleset's reason in the active language: `field` '(file)' for the file
    itself, else the field at fault ('taxes', 'scoring.taxes')."""
    said = reason
    for pattern, template in RULESET_TEXTS if active_language() != "en" else ():
        m = pattern.fullmatch(reason)
        if m:
            values = m.groupdict()
            if "why" in values:
                why = values["why"]
                values["why"] = _(_OS_ERRORS[why]) if why in _OS_ERRORS else why
            said = _(template).format(**values)
            break
    if field == "(file)":
        return said
    # i18n: a ruleset field and what is wrong with it
    return _("ruleset field {field!r}: {reason}").format(field=field, reason=said)
