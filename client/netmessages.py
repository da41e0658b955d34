"""Messages from the networked session (net/) in the player's language.

`net` must not import the client, so it cannot translate. The seam: an alert (or lobby
message) may carry `template` (an English message with {named} fields, marked for the
catalog where net defines it) and `params`; the client translates the template and fills
in the values. An alert with text only is shown as it is (English), which is what every
net message does today: wording them as templates is follow-up work in net/.
"""

from __future__ import annotations

from .i18n import _


def alert_message(alert):
    """The text of `alert` in the active language (its template translated, if it has one)."""
    template = getattr(alert, "template", None)
    if not template:
        return alert.text
    try:
        return _(template).format(**(getattr(alert, "params", None) or {}))
    except (KeyError, IndexError, ValueError):
        return alert.text
