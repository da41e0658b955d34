"""Net's player-visible messages, worded so the client can translate them.

`net` cannot import the client's gettext, so a message is a `Msg`: a `str` holding the
English text (what logs, tests and the wire see, unchanged) that also remembers its
`template` (marked with the no-op `N_` so scripts/i18n.py extracts it) and `params`.
client/netmessages.py translates the template and fills in the params, themselves
translated when they are `Msg`s or `Joined` lists.  The template never leaves this peer:
json, hashes and comparisons see only the English text.
"""

from __future__ import annotations


def N_(message: str) -> str:
    """Marks `message` for the catalog; the client translates it when it shows it."""
    return message


class Msg(str):
    """English text that remembers how it was made: ``Msg(N_("{name} is back"), name=n)``."""

    template: str
    params: dict

    def __new__(cls, template: str, **params):
        msg = super().__new__(cls, template.format(**params))
        msg.template, msg.params = template, params
        return msg


class Joined(str):
    """Items (each a str or a Msg) joined by `sep`; each item is translated on its own."""

    items: tuple
    sep: str

    def __new__(cls, sep: str, items):
        items = tuple(items)
        joined = super().__new__(cls, sep.join(items))
        joined.items, joined.sep = items, sep
        return joined


def recognize(text: str, templates) -> str:
    """`text` as the `Msg` of the first of `templates` that reads exactly like it (its
    placeholders matching anything), else `text` itself.  For English texts that arrive
    over the wire (a host's refusal): the template stays on this peer, and what fills its
    placeholders is still only shown, never interpreted."""
    import re
    for template in templates:
        pattern, names = "", []
        for literal, field, _spec, _conv in _FORMATTER.parse(template):
            pattern += re.escape(literal)
            if field is not None:
                pattern += f"(?P<{field}>.+?)" if field not in names else f"(?P={field})"
                names.append(field)
        found = re.fullmatch(pattern, text, re.S)
        if found:
            msg = Msg(template, **found.groupdict())
            if msg == text:
                return msg
    return text


_FORMATTER = __import__("string").Formatter()
