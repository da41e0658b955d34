"""Net's player-visible messages, worded so the client can translate them.

`net` cannot import the client's gettext, so a message is a `Msg`: a `str` holding the
English text (what logs, tests and the wire see, unchanged) that also remembers its
`template` (marked with the no-op `N_` so scripts/i18n.py extracts it) and `params`.
client/netmessages.py translates the template and fills in the params, themselves
translated when they are `Msg`s or `Joined` lists.  The template never leaves this peer:
json, hashes and comparisons see only the English text.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Self


def N_(message: str) -> str:
    """Marks `message` for the catalog; the client translates it when it shows it."""
    return message


class Msg(str):
    """English text that remembers how it was made: ``Msg(N_("{name} is back"), name=n)``."""

    template: str
    params: dict

    def __new__(cls, template: str, **params: object) -> Self:
        msg = super().__new__(cls, template.format(**params))
        msg.template, msg.params = template, params
        return msg


class Joined(str):
    """Items (each a str or a Msg) joined by `sep`; each item is translated on its own."""

    items: tuple
    sep: str

    def __new__(cls, sep: str, items: Iterable[str]) -> Self:
        items = tuple(items)
        joined = super().__new__(cls, sep.join(items))
        joined.items, joined.sep = items, sep
        return joined


def recognize(text: str, templates: Iterable[str]) -> str:
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


def to_wire(msg: str, codes: dict[str, str]) -> dict | None:
    """`msg` as ``{"code", "args"}`` for a peer to word in its own language: ``codes`` maps
    each code to its template; nested messages go the same way, other values as text.
    None when a template is not among ``codes`` (the peer then has the English only)."""
    code = next((c for c, t in codes.items() if t == getattr(msg, "template", None)), None)
    if code is None:
        return None
    assert isinstance(msg, Msg), "only a Msg carries a template"
    args = {}
    for name, value in msg.params.items():
        if getattr(value, "template", None) is not None:
            value = to_wire(value, codes)
            if value is None:
                return None
        args[name] = value if isinstance(value, dict) else str(value)
    return {"code": code, "args": args}


def from_wire(data: object, codes: dict[str, str], clean: Callable[[str], str | None],
              depth: int = 2) -> Msg | None:
    """The `Msg` another peer sent with `to_wire`, or None unless it is exactly that: a
    known code, the template's fields and no other, each a text (passed through ``clean``)
    or, ``depth`` levels at most, a nested message.  Values are only shown, never read as
    templates."""
    if not (isinstance(data, dict) and set(data) == {"code", "args"}
            and isinstance(data["code"], str) and isinstance(data["args"], dict)):
        return None
    template = codes.get(data["code"])
    if template is None:
        return None
    fields = {f for _lit, f, _spec, _conv in _FORMATTER.parse(template) if f is not None}
    if set(data["args"]) != fields:
        return None
    values = {}
    for name, value in data["args"].items():
        if isinstance(value, dict) and depth > 1:
            value = from_wire(value, codes, clean, depth - 1)
        elif isinstance(value, str):
            value = clean(value)
        else:
            value = None
        if value is None:
            return None
        values[name] = value
    return Msg(template, **values)
