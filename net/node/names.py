"""Names told apart from look-alikes, for the lobby: a newcomer must not pass for a
seated player.

Look-alike names (``Bo`` and ``Βo`` with a Greek capital beta, ``ana`` and ``аna`` with a
Cyrillic a, ``Bo`` and ``Ｂｏ``, ``Ana`` and ``Ꭺna`` with a Cherokee A, ``Bo`` and ``ʙo``
with a small capital): ``looks_alike`` compares names by Unicode's own confusables data
(UTS #39, as the ``confusable-homoglyphs`` package ships it), and by a short table of
lowercase shapes that data leaves apart once case is ignored.
"""

from __future__ import annotations

import functools
import importlib.resources
import json
import re
import unicodedata

# Letters of other scripts that look like lowercase Latin ones.  Unicode's confusables
# (below) cover far more, but case-sensitively: it takes Cyrillic к and м for small
# capitals, not for k and m, and does not pair 5 with s.  NFKC already folds full-width
# and compatibility forms.
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


def skeleton(name: str) -> str:
    """What ``name`` looks like by the short table above: NFKC, case-folded, accents and
    spaces dropped, look-alike letters mapped to the Latin ones they resemble."""
    t = unicodedata.normalize("NFKC", name).casefold()
    t = "".join(c for c in unicodedata.normalize("NFKD", t) if not unicodedata.combining(c))
    t = t.translate(_CONFUSABLE)
    return "".join(c for c in t if c.isalnum())


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each confusable character -> the text standing for everything that looks like it
    (UTS #39 confusables.txt, as the ``confusable-homoglyphs`` package ships it).

    The package keeps each line of confusables.txt (a character -> its prototype) in both
    directions, without saying which side is the prototype.  A prototype is never itself
    mapped, so each group is a star: the character confusable with several others is the
    prototype, and so is a sequence (``rn`` for ``m``).  In a group of two single
    characters either could stand for both; the lower code point does, so that the
    choice never depends on the order of the data file.  Loaded on first use (only a
    hosting lobby needs it), straight from the package's data file with each entry's
    character name dropped as it is read: the package's own module keeps all of it, some
    9 MB for as long as the process runs."""
    text = (importlib.resources.files("confusable_homoglyphs") / "confusables.json") \
        .read_text(encoding="utf-8")
    data: dict[str, list[str]] = json.loads(
        text, object_hook=lambda entry: entry["c"] if entry.keys() == {"c", "n"} else entry)
    marks = "\u200e\u200f"        # the package wraps right-to-left letters in these

    def clean(text):
        return text.strip(marks) or text
    proto: dict[str, str] = {}
    for key, alikes in data.items():
        k = clean(key)
        if len(alikes) >= 2:                       # a prototype and its confusables
            for entry in alikes:
                c = clean(entry)
                if len(c) == 1 and c != k:
                    proto[c] = k
            continue
        other = clean(alikes[0])
        if len(k) != 1 or len(data.get(alikes[0], ())) >= 2:
            if len(k) == 1:
                proto[k] = other                   # k is one of other's confusables
        elif len(other) == 1:
            proto[k] = min(k, other)
        else:
            proto[k] = other                       # a sequence is the prototype
    return proto


_SMALL_CAPITAL = re.compile(r"(\w+) LETTER SMALL CAPITAL (.+)")


def _capital(c: str) -> str:
    """``c`` as a capital letter: its uppercase, or for a small capital (``ʙ``, ``ᴏ``,
    which have none) the capital letter it is a small form of, by its Unicode name."""
    up = c.upper()
    if up != c:
        return up
    small = _SMALL_CAPITAL.fullmatch(unicodedata.name(c, ""))
    if small is not None:
        try:
            return unicodedata.lookup(f"{small[1]} CAPITAL LETTER {small[2]}")
        except KeyError:
            pass
    return c


def _no_marks(text: str) -> str:
    """``text`` without accents (Hangul syllables stay whole)."""
    bare = "".join(c for c in unicodedata.normalize("NFD", text)
                   if not unicodedata.combining(c))
    return unicodedata.normalize("NFC", bare)


def confusable_skeleton(name: str) -> str:
    """What ``name`` looks like by Unicode's confusables (UTS #39 skeletons), ignoring case
    and accents: each character replaced by its prototype, then by its capital, then the
    capital by its prototype (``в`` -> ``ʙ`` -> ``B``; ``ᴏ`` -> ``o`` -> ``O``), spaces and
    punctuation dropped.  Case is ignored by capitals rather than by case folding: folded,
    ``I`` (a prototype ``l``) and ``L`` would meet, and ``Lia`` pass for ``Ila``."""
    proto = _prototypes()

    def mapped(text):
        return "".join(proto.get(c, c) for c in text)
    t = _no_marks(unicodedata.normalize("NFKC", name))
    t = "".join(_capital(c) for c in mapped(t))
    t = _no_marks(mapped(t))
    return "".join(c for c in t if c.isalnum())


def looks_alike(name: str, other: str) -> bool:
    """Whether ``name`` could be taken for ``other`` on a terminal (names differing only by
    case, accents or spacing included)."""
    return skeleton(name) == skeleton(other) or \
        confusable_skeleton(name) == confusable_skeleton(other)
