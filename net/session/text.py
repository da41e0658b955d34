"""Text from other people (names, chat) as it may be shown: printable, bounded, and —
for names — told apart from look-alikes.

A name or a chat line travels to every terminal at the table: a control character or an
escape sequence in it would be the sender's way to redraw, recolour or hide what the
others see (issue 10, lobby).  Look-alike names (``Bo`` and ``Βo`` with a Greek capital
beta, ``ana`` and ``аna`` with a Cyrillic a, ``Bo`` and ``Ｂｏ``) would let a newcomer pass
for a seated player.
"""

from __future__ import annotations

import unicodedata

from .msgs import N_, Msg

MAX_NAME = 24
MAX_SAY = 200

# Letters of other scripts that look like Latin ones (a small table of the usual
# suspects; NFKC already folds full-width and compatibility forms).
_CONFUSABLE = str.maketrans({
    # Greek
    "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p",
    "τ": "t", "υ": "u", "χ": "x", "γ": "y", "ϲ": "c", "ϳ": "j", "ω": "w", "μ": "u",
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "ё": "e", "з": "3", "і": "i", "ї": "i", "ј": "j", "к": "k",
    "м": "m", "н": "h", "о": "o", "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s",
    "ԁ": "d", "һ": "h", "ԛ": "q", "ԝ": "w", "ь": "b", "ɡ": "g",
    # Latin look-alikes and digits that pass for letters
    "ı": "i", "ł": "l", "ø": "o", "ß": "ss", "0": "o", "1": "l", "|": "l", "5": "s",
})


def printable(text: str, limit: int) -> str:
    """``text`` without control, format or unassigned characters (escape sequences, bidi
    overrides, zero-width joiners), whitespace runs as one space, at most ``limit``
    characters."""
    out: list[str] = []
    for ch in str(text):
        cat = unicodedata.category(ch)
        if ch.isspace():
            if out and out[-1] != " ":
                out.append(" ")
        elif cat[0] == "C" or cat in ("Zl", "Zp"):
            continue
        else:
            out.append(ch)
    return "".join(out).strip()[:limit].strip()


def name_problem(name) -> str | None:
    """Why ``name`` cannot be a player's name, or None."""
    if not isinstance(name, str):
        return Msg(NAME_PROBLEMS["not-text"])
    if printable(name, 10 * MAX_NAME) != " ".join(name.split()):
        return Msg(NAME_PROBLEMS["control"])
    if not name.strip():
        return Msg(NAME_PROBLEMS["empty"])
    if len(name.strip()) > MAX_NAME:
        return Msg(NAME_PROBLEMS["too-long"], n=MAX_NAME)
    return None


# why a name is refused, by code (a host's refusal names the code: msgs.to_wire)
NAME_PROBLEMS = {
    "not-text": N_("a name must be text"),
    "control": N_("a name may hold no control characters or escape codes"),
    "empty": N_("the name is empty"),
    "too-long": N_("a name has at most {n} characters"),
}


def skeleton(name: str) -> str:
    """What ``name`` looks like: NFKC, case-folded, accents and spaces dropped, look-alike
    letters mapped to the Latin ones they resemble."""
    t = unicodedata.normalize("NFKC", name).casefold()
    t = "".join(c for c in unicodedata.normalize("NFKD", t) if not unicodedata.combining(c))
    t = t.translate(_CONFUSABLE)
    return "".join(c for c in t if c.isalnum())
