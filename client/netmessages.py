"""Messages from the networked session (net/) in the player's language.

`net` must not import the client, so it cannot translate. The seam: an alert (or lobby
message) may carry `template` (an English message with {named} fields, marked for the
catalog where net defines it) and `params`; the client translates the template and fills
in the values. Net's own messages are `net.session.msgs.Msg`s: strings holding the English
text that also carry their template and params (`net_text` translates them). A plain
string is shown as it is (English).
"""

from __future__ import annotations

from .i18n import _


def net_text(value):
    """A text from net in the active language: a `net.session.msgs.Msg` (a str with
    `template` and `params`) is translated, its params too; a `Joined` list item by item;
    anything else is shown as it is."""
    items = getattr(value, "items", None)
    if isinstance(value, str) and isinstance(items, tuple):
        return value.sep.join(net_text(item) for item in items)
    template = getattr(value, "template", None)
    if not isinstance(value, str) or not template:
        return value
    return _filled(template, getattr(value, "params", None), value)


def _filled(template, params, english):
    try:
        return _(template).format(**{k: net_text(v) for k, v in (params or {}).items()})
    except (KeyError, IndexError, ValueError, AttributeError):
        return str(english)


def alert_message(alert):
    """The text of `alert` in the active language (its template translated, if it has one,
    or its text's when that is a net `Msg`)."""
    template = getattr(alert, "template", None)
    if not template:
        return net_text(alert.text)
    return _filled(template, getattr(alert, "params", None), alert.text)
