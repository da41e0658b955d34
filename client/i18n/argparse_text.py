"""argparse's own words ('usage: ', 'belfort: error: …', 'options') in the player's language.

argparse translates its messages with the standard library's `gettext.gettext`, whose
domain is not ours; `install()` has it use the client's `_` and `ngettext`, which follow
the active language (English: the text unchanged).  The messages a player can meet are
listed here so that scripts/i18n.py extracts them into our catalog.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterable
from typing import Any

from .catalog import N_, _, ngettext
from .width import cell_width, wrap

MESSAGES = (
    N_("usage: "),
    N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("show this help message and exit"),
    N_("positional arguments"),
    N_("options"),
    N_("subcommands"),
    N_("unrecognized arguments: %s"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
    N_("can't open '%(filename)s': %(error)s"),
)


def _plural_messages(n):
    """Never called: marks argparse's plural messages for the catalog."""
    return ngettext("expected %s argument", "expected %s arguments", n)


class CellWidthHelpFormatter(argparse.HelpFormatter):
    """argparse's help laid out in terminal cells: argparse measures with `len`, so a
    Korean metavar (2 cells a character) would push its help column and usage lines past
    the width.  The help is wrapped by cells, the column after a wide option is
    re-aligned, and the usage is formatted narrower until it fits."""

    def _split_lines(self, text, width):
        return wrap(re.sub(r"\s+", " ", text).strip(), max(width, 11))

    def _format_usage(self, usage: str | None, actions: Iterable[argparse.Action],
                      groups: Iterable[Any], prefix: str | None) -> str:
        target = self._width
        text = super()._format_usage(usage, actions, groups, prefix)
        try:
            for _attempt in range(8):
                over = max(cell_width(line) for line in text.splitlines()) - target
                if over <= 0 or self._width - over < 20:
                    break
                self._width -= over
                text = super()._format_usage(usage, actions, groups, prefix)
        finally:
            self._width = target
        return text

    def _format_action(self, action):
        text = super()._format_action(action)
        header = " " * self._current_indent + self._format_action_invocation(action)
        extra = cell_width(header) - len(header)
        pad = " " * (extra + 2)
        if extra > 0 and text.startswith(header + pad):
            text = header + text[len(header) + extra:]
        return text


def install() -> None:
    """Let argparse word its messages through our catalog (in the active language)."""
    argparse._ = _  # type: ignore[attr-defined]
    argparse.ngettext = ngettext  # type: ignore[attr-defined]
