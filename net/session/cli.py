"""Entry points for the ``belfort`` command (client/main.py wires its subcommands here):

    belfort host --name Ana [--players 4] [--bots 2] [--bind IP] [--port 5555] [--guilds normal |
                 --guild-list a,b,c,d,e] [--ruleset FILE] [--start-after S] [--level L]
    belfort join tcp://192.168.1.20:5555 --name Bo [--ruleset FILE]
    belfort rejoin [--game ID] [--data-dir DIR]
    belfort bot --join tcp://192.168.1.20:5555 [--level random|easy|normal|hard]

``main_host(argv, ui=None)`` etc. take the arguments after the subcommand.  The lobby
talks on standard output (plain text).  Then, if ``ui`` is given, it is called as
``ui(driver)`` with a started ``NetDriver`` (the client's full-screen program) and its
return value is the exit code; without ``ui`` the game is played in plain text
(commands typed on standard input).  Exit codes: see net/session/peer.py.
"""

from __future__ import annotations

from . import peer


def main(argv=None, ui=None) -> int:
    """``belfort host|join|rejoin|bot ...``: the whole argument list, subcommand first.
    ``ui(driver, plain=..., colour=...)`` (or ``ui(driver)``) runs the window."""
    return peer.main(list(argv or []), prog="belfort", ui=ui)


def main_host(argv=None, ui=None) -> int:
    return peer.main(["host", *(argv or [])], prog="belfort", ui=ui)


def main_join(argv=None, ui=None) -> int:
    return peer.main(["join", *(argv or [])], prog="belfort", ui=ui)


def main_rejoin(argv=None, ui=None) -> int:
    return peer.main(["rejoin", *(argv or [])], prog="belfort", ui=ui)


def main_bot(argv=None) -> int:
    return peer.main(["bot", *(argv or [])], prog="belfort")


def host_parser():
    """The argparse parser of all four subcommands (for the client's help text)."""
    return peer.build_parser("belfort")
