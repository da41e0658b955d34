"""Commands typed in the player's language, read as the engine's English words.

The engine, the wire and the game log only ever see canonical English commands; this module
is the pure translation layer in front of the client's parser:

    canonical_line("placer elfe bureau", "fr")            -> "place elf desk"
    canonical_line("Construire #17 TOUR@3", "fr")         -> "build #17 tower@3"
    canonical_line("activer voleurs chez 2", "fr")        -> "activate thieves from 2"
    canonical_line("place elfe camp du roi", "fr")        -> "place elf camp"
    canonical_line("setze meisterzwerg bergmanns-gilde", "de")
                                                          -> "place master-dwarf miners"
    canonical_line("aide corps de garde", "fr")           -> "help gatehouse"
    canonical_line("dire bonne chance", "fr")             -> "say bonne chance"  (text kept)
    localize_line("build #17 tower@3", "fr")              -> "construire #17 tour@3"

English is always accepted too, and words that are not in the vocabulary (numbers, #17,
typing mistakes) pass through (lower-cased, as the parser reads them), so the parser's own
error messages still name them. Word order stays the English command's order.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

from . import vocabulary
from .catalog import _, ngettext
from .vocabulary import key

_MAX_PHRASE = 4
_GATE = re.compile(r"(\D+?)(\d+)")
_STRUCTURE = "#@=:"
_FREE_TEXT = ("say",)
_TOPIC_VERBS = ("help", "rules")


def _lookup(word: str, lang: str, context: str) -> str | None:
    return vocabulary.table(lang, context).get(key(word))


def _phrase(words: list[str], i: int, lang: str,
            context: str) -> tuple[str, int] | tuple[None, int]:
    """(canonical, number of words) of the longest phrase starting at words[i]."""
    tab = vocabulary.table(lang, context)
    longest = min(_MAX_PHRASE, len(words) - i)
    for n in range(longest, 0, -1):
        chunk = words[i:i + n]
        if n > 1 and any(any(c in w for c in _STRUCTURE) for w in chunk):
            continue
        canon = tab.get("".join(key(w) for w in chunk))
        if canon is not None:
            return canon, n
    return None, 1


def _gate(word: str, lang: str) -> str | None:
    m = _GATE.fullmatch(word)
    if m and _lookup(m.group(1), lang, "gate"):
        return f"gate{m.group(2)}"
    return None


def _rewrite(word, context, name_of, gate_of, keep):
    """A command argument with its words mapped, in the shapes the engine's text has:
    '#17:TYPE', 'SITE@D', 'gateN@D', 'AREA=N', 'discount=CODE', 'SEAT:RESOURCE',
    'guild:NAME', 'gateN' and plain words. `name_of(word, context)` maps one word (None: unknown),
    `gate_of(word)` a
    gate word with its number, `keep(word)` is what an unmapped part becomes."""
    if word.startswith("#"):
        card, sep, kind = word.partition(":")
        return f"{card}:{name_of(kind, 'card') or keep(kind)}" if sep else word
    if "@" in word:
        prefix, _sep, where = word.partition("@")
        return f"{gate_of(prefix) or name_of(prefix, 'site') or keep(prefix)}@{keep(where)}"
    if "=" in word:
        name, _sep, value = word.partition("=")
        mapped = name_of(name, "area")
        if "discount" in (name.lower(), mapped):
            value = name_of(value, "code") or value
        return f"{mapped or keep(name)}={keep(value)}"
    if ":" in word:
        # '2:wood' (the Bandits' seat:resource), or 'guild:miners' (kind:name)
        head, _sep, name = word.partition(":")
        if not head.isdigit():
            head = name_of(head, "site") or keep(head)
        return f"{head}:{name_of(name, 'arg') or keep(name)}"
    if word.isdigit():
        return word
    return name_of(word, context) or (gate_of(word) if context == "arg" else None) or \
        keep(word)


def canonical_token(word: str, lang: str, context: str = "arg") -> str:
    """One argument in English: '#17:tour' -> '#17:tower', 'tour@3' -> 'tower@3',
    'porte4@0' -> 'gate4@0', 'forêt=2' -> 'forest=2', 'remise=bp' -> 'discount=ws',
    '1:bois' -> '1:wood', 'porte1' -> 'gate1', 'elfe' -> 'elf'. The untranslated parts are
    lower-cased ('MUR@1B' -> 'wall@1b', 'Bureuu' -> 'bureuu'), as the parser reads them."""
    return _rewrite(word, context, lambda w, ctx: _lookup(w, lang, ctx),
                    lambda w: _gate(w, lang), str.lower)


def canonical_line(text: str, lang: str) -> str:
    """`text` typed in `lang` (or English) as the canonical English command text, in lower
    case like the parser reads it (the text after 'say' is kept as typed)."""
    words = text.split()
    if not words:
        return ""
    verb, used = _phrase(words, 0, lang, "verb")
    if verb is None:
        verb, used = words[0].lower(), 1
    if verb in _FREE_TEXT:
        rest = text.strip()
        for w in words[:used]:
            rest = rest[len(w):].lstrip()
        return f"{verb} {rest}" if rest else verb
    context = "topic" if verb in _TOPIC_VERBS else "arg"
    out = [verb]
    i = used
    while i < len(words):
        w = words[i]
        if any(c in w for c in _STRUCTURE) or w.isdigit():
            out.append(canonical_token(w, lang, context))
            i += 1
            continue
        canon, n = _phrase(words, i, lang, context)
        if canon is None:
            out.append(canonical_token(w, lang, context))
            i += 1
        else:
            out.append(canon)
            i += n
    return " ".join(out)


# --- English -> the player's language ---------------------------------------------------------

def _word_in(canon, lang, context):
    return vocabulary.primary(lang, context).get(canon)


def localize_token(word: str, lang: str, context: str = "arg") -> str:
    """One English word or argument as `lang` shows it (the inverse of canonical_token):
    'tower@3' -> 'tour@3', 'gate4@0' -> 'porte4@0', 'forest=2' -> 'forêt=2', '#3:pub' ->
    '#3:pub', 'miners' -> 'mineurs'. Unknown words come back unchanged."""
    if lang == "en":
        return word

    def gate_of(w):
        m = _GATE.fullmatch(w)
        # a language without its own gate word (the pseudo-locale) keeps the English one
        gate = _word_in("gate", lang, "gate") or "gate"
        return f"{gate}{m.group(2)}" if m and m.group(1) == "gate" else None

    return _rewrite(word, context, lambda w, ctx: _word_in(w, lang, ctx), gate_of,
                    lambda w: w)


def localize_line(text: str, lang: str) -> str:
    """Canonical English command text as the player's language writes it (for the '?' list,
    examples and hints). canonical_line(localize_line(t, lang), lang) == t."""
    words = text.split()
    if not words or lang == "en":
        return " ".join(words)
    verb = words[0]
    out = [_word_in(verb, lang, "verb") or verb]
    if verb in _FREE_TEXT:
        rest = text.strip()[len(verb):].strip()
        return f"{out[0]} {rest}" if rest else out[0]
    context = "topic" if verb in _TOPIC_VERBS else "arg"
    out += [localize_token(w, lang, context) for w in words[1:]]
    return " ".join(out)


def localize_completion(word: str, lang: str, first: bool = False) -> str:
    """A completion the client's Hinter offers (English) as `lang` shows it. `first`: the
    word is a command verb (the first word of the line)."""
    return localize_token(word, lang, "verb" if first else "arg")


def complete_word(partial: str, candidates: Iterable[str], lang: str,
                  first: bool = False) -> list[tuple[str, str]]:
    """[(shown, english)] for the English `candidates` that the typed `partial` begins,
    comparing without accents or case. The localized form is shown when the partial is
    empty or begins it; the English one when only that matches (a player typing English)."""
    p = key(partial)
    out = []
    for english in candidates:
        shown = localize_completion(english, lang, first)
        if key(shown).startswith(p):
            out.append((shown, english))
        elif key(english).startswith(p):
            out.append((english, english))
    return out


# --- unknown words ------------------------------------------------------------------------------

def unknown_words(text: str, lang: str) -> list[str]:
    """The words of a command line that are neither in the vocabulary (in `lang` or English)
    nor numbers or structured arguments: what a refusal should point at."""
    words = text.split()
    if not words:
        return []
    verb, used = _phrase(words, 0, lang, "verb")
    bad = [] if verb is not None else [words[0]]
    if verb in _FREE_TEXT:
        return bad
    context = "topic" if verb in _TOPIC_VERBS else "arg"
    i = used
    while i < len(words):
        w = words[i]
        if any(c in w for c in _STRUCTURE) or w.isdigit():
            i += 1
            continue
        canon, n = _phrase(words, i, lang, context)
        if canon is None and canonical_token(w, lang, context) == w:
            bad.append(w)
        i += n
    return bad


def suggest(word: str, lang: str, first: bool = False, limit: int = 3) -> list[str]:
    """Up to `limit` words close to a mistyped `word`: those of `lang` when any is close,
    else English ones; only the closest few (a near miss hides the far ones)."""
    context = "verb" if first else "arg"
    typed = key(word)
    for one in (lang, "en") if lang != "en" else ("en",):
        scored: dict[str, float] = {}
        for _canon, forms in vocabulary.entries(one, context):
            if forms:
                ratio = difflib.SequenceMatcher(None, typed, key(forms[0])).ratio()
                if ratio >= 0.6:
                    scored[forms[0]] = max(ratio, scored.get(forms[0], 0))
        if scored:
            best = max(scored.values())
            close = sorted((w for w, r in scored.items() if r >= best - 0.05),
                           key=lambda w: (-scored[w], w))
            return close[:limit]
    return []


def unknown_word_message(word: str, lang: str, first: bool = False) -> str:
    """A translated refusal for a word we cannot read, with suggestions when there are."""
    choices = suggest(word, lang, first)
    text = _("unknown word {word!r}").format(word=word)
    if choices:
        text += "; " + ngettext("did you mean {choices}?", "did you mean one of {choices}?",
                                len(choices)).format(choices=", ".join(choices))
    return text


def typing_help(lang: str) -> str:
    """A few translated lines on typing commands in `lang` or in English."""
    example = "place elf desk"
    if lang == "en":
        # Shown only in English sessions, so not a catalog message.
        return ("Commands are typed in English. With --lang fr, de, it or ko you can type "
                "them in French, German, Italian or Korean as well.")
    return _("You can type commands in your language or in English, with or without "
             "accents, in capitals or not: {example} and {english} are the same command. "
             "Tab completion offers the words of your language.").format(
        example=localize_line(example, lang), english=example)
