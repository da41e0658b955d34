"""A pseudo-locale for finding English that bypasses the translation functions.

In the pseudo-locale (code `qps`, as in Microsoft's qps-ploc) every translated message comes
out with its letters swapped for accented look-alikes and each line wrapped in ⟦ ⟧:

    _("Your turn — {n} workers left")  ->  "⟦Ẏǿŭř ŧŭřƞ — {n} ẇǿřķḗřş ŀḗƒŧ⟧"

Placeholders ({n}, {who!r}, %s, %(name)s) are kept, so formatting still works. A screen
rendered in the pseudo-locale contains plain ASCII words only where something did not go
through `_()` — `harness.find_untranslated` reports those.
"""

from __future__ import annotations

import gettext
import re

CODE = "qps"
OPEN, CLOSE = "⟦", "⟧"

_PLAIN = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
_LOOK = "ȧƀƈḓḗƒɠħīĵķŀḿƞǿƥɋřşŧŭṽẇẋẏẑȦƁƇḒḖƑƓĦĪĴĶĿḾȠǾƤɊŘŞŦŬṼẆẊẎẐ"
_TABLE = str.maketrans(_PLAIN, _LOOK)
# Format fields that must survive untouched: {name}, {name!r:>5}, {{ }}, %s, %(name)d, %%.
_FIELDS = re.compile(r"\{\{|\}\}|\{[^{}]*\}|%\([^)]*\)[-#0 +]*\d*(?:\.\d+)?[a-zA-Z%]|"
                     r"%[-#0 +]*\d*(?:\.\d+)?[a-zA-Z%]")


def accent(text: str) -> str:
    """`text` with every ASCII letter outside format fields replaced by a look-alike."""
    out, pos = [], 0
    for m in _FIELDS.finditer(text):
        out.append(text[pos:m.start()].translate(_TABLE))
        out.append(m.group(0))
        pos = m.end()
    out.append(text[pos:].translate(_TABLE))
    return "".join(out)


def mark(text: str, grow: float = 0.0) -> str:
    """The pseudo-translation of `text`: each line accented and wrapped in ⟦ ⟧, padded with
    `~` by the fraction `grow` (0.3 makes it 30% longer, to try layouts with long text)."""
    lines = []
    for line in text.split("\n"):
        pad = "~" * int(round(len(line) * grow)) if line else ""
        lines.append(f"{OPEN}{accent(line)}{pad}{CLOSE}" if line else line)
    return "\n".join(lines)


class PseudoTranslations(gettext.NullTranslations):
    """gettext translations that pseudo-translate every message (see the module doc)."""

    def __init__(self, grow: float = 0.0) -> None:
        super().__init__()
        self.grow = grow

    def gettext(self, message: str) -> str:
        return mark(message, self.grow)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return mark(msgid1 if n == 1 else msgid2, self.grow)

    def pgettext(self, context: str, message: str) -> str:
        return mark(message, self.grow)

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        return mark(msgid1 if n == 1 else msgid2, self.grow)
