"""argparse's own words ('usage: ', 'belfort: error: …', 'options') in the player's language.

argparse translates its messages with the standard library's `gettext.gettext`, whose
domain is not ours; `install()` has it use the client's `_` and `ngettext`, which follow
the active language (English: the text unchanged).  The messages a player can meet are
listed here so that scripts/i18n.py extracts them into our catalog.
"""

from __future__ import annotations

import argparse

from .catalog import N_, _, ngettext

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


def install() -> None:
    """Let argparse word its messages through our catalog (in the active language)."""
    argparse._ = _
    argparse.ngettext = ngettext
