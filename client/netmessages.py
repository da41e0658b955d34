"""Messages from the networked session (net/) in the player's language.

`net` must not import the client, so it cannot translate. The seam: an alert (or lobby
message) may carry `template` (an English message with {named} fields, marked for the
catalog where net defines it) and `params`; the client translates the template and fills
in the values. Net's own messages are `net.session.msgs.Msg`s: strings holding the English
text that also carry their template and params (`net_text` translates them). A param may
also be one of the engine's reasons or nouns (`belfort.reasons`), or an exception whose
reason or first argument is one of these. A plain string is shown as it is (English).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from belfort.reasons import Cost, Reason, Word, WordList

from .i18n import _
from .reasons import _word, translate_reason

if TYPE_CHECKING:
    from net.alerts import Alert


def net_text(value: object) -> Any:   # str, or a value that is not text as it is
    """A text from net in the active language: a `net.session.msgs.Msg` (a str with
    `template` and `params`) is translated, its params too; a `Joined` list item by item;
    an engine reason or noun by client/reasons; anything else is shown as it is."""
    if isinstance(value, BaseException):
        return _exception_text(value)
    if isinstance(value, (Reason, Word, WordList, Cost)):
        return _word(value) if not isinstance(value, Reason) else translate_reason(value)
    refusal = getattr(value, "refusal", None)
    if isinstance(value, str) and refusal is not None:       # a take-back refusal
        names = getattr(value, "names", [])
        return translate_reason(refusal, lambda s: names[s] if isinstance(s, int)
                                and 0 <= s < len(names) else str(s))
    items = getattr(value, "items", None)
    if isinstance(value, str) and isinstance(items, tuple):
        # a net.session.msgs.Joined: its items are translated one by one
        return value.sep.join(net_text(item) for item in items)  # type: ignore[attr-defined]
    template = getattr(value, "template", None)
    if not isinstance(value, str) or not template:
        return value
    return _filled(template, getattr(value, "params", None), value)


def _exception_text(exc):
    """An error named in a net message: the engine's reason translated, a net `Msg` it
    carries translated, else its English text."""
    if isinstance(getattr(exc, "reason", None), Reason):
        return translate_reason(exc.reason)
    refusal = getattr(exc, "refusal", None)
    if refusal is not None:
        return translate_reason(refusal)
    first = exc.args[0] if len(exc.args) == 1 else None
    if isinstance(first, str) and getattr(first, "template", None):
        return net_text(first)
    return str(exc)


def _filled(template, params, english):
    try:
        return _(template).format(**{k: net_text(v) for k, v in (params or {}).items()})
    except (KeyError, IndexError, ValueError, AttributeError):
        return str(english)


def alert_message(alert: Alert) -> str:
    """The text of `alert` in the active language (its template translated, if it has one,
    or its text's when that is a net `Msg`)."""
    template = getattr(alert, "template", None)
    if not template:
        return net_text(alert.text)
    return _filled(template, getattr(alert, "params", None), alert.text)
