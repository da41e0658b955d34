"""Text from other people (names, chat) as it may be shown: printable and bounded, and a
chat line never in the shape of an alert.

A name or a chat line travels to every terminal at the table: a control character or an
escape sequence in it would be the sender's way to redraw, recolour or hide what the
others see.  (Names told apart from look-alikes: net/node/names.py, the lobby's.)
"""

from __future__ import annotations

import re
import unicodedata

from .msgs import N_, Msg

MAX_NAME = 24
MAX_SAY = 200

def printable(text: object, limit: int) -> str:
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


def name_problem(name: object) -> str | None:
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


# What alert lines start with, wherever they are shown: `[cheat] …` (a peer without a
# window), `!!! CHEAT CAUGHT: …` (--plain), `⚠ CHEAT CAUGHT: …` (the window's banner).  A
# chat line holds none of them as such, anywhere: a long line wraps (or a terminal wraps
# it), and its middle may start a line of the screen.
_CHAT_MARKS = str.maketrans({"[": "(", "]": ")", "［": "(", "］": ")", "【": "(", "】": ")",
                             "〔": "(", "〕": ")", "⟦": "(", "⟧": ")", "⚠": " ", "‼": "!",
                             "！": "!", "❗": "!", "❕": "!"})
_EXCLAIMS = re.compile(r"!(\s*!)+")


def neutral_chat(text: str) -> str:
    """A chat line as it may be shown: printable, bounded, its brackets made parentheses,
    ``!!!`` one ``!``, no warning sign."""
    t = printable(text, MAX_SAY).translate(_CHAT_MARKS)
    return printable(_EXCLAIMS.sub("!", t), MAX_SAY)


def chat_line(name: str, text: str) -> Msg:
    """How a chat line is shown everywhere (the window's log, --plain, a peer without a
    window): the speaker first, the words quoted — a line of chat, never an alert.  The
    name leads the line, so it is neutralised too (a player named ``!!! CHEAT``)."""
    return Msg(N_("{name} says: “{text}”"), name=neutral_chat(printable(name, MAX_NAME)),
               text=neutral_chat(text))
