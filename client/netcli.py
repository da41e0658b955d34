"""The ``belfort host|join|rejoin|bot`` commands, for the client (client/main.py):

    belfort host --name Ana [--players 4] [--bots 2] [--bind IP] [--port 5555] [--guilds normal |
                 --guild-list a,b,c,d,e] [--ruleset FILE] [--start-after S] [--level L]
                 [--advertise HOST[:PORT]]     # an address it cannot see: a forwarded port
    belfort join tcp://192.168.1.20:5555 --name Bo [--ruleset FILE] [--port PORT]
                 # also HOST:PORT, '[2001:db8::20]:5555', tcp://[2001:db8::20]:5555, a name
    belfort rejoin [--game ID] [--data-dir DIR]
    belfort bot --join tcp://192.168.1.20:5555 [--level beginner|random|easy|normal|hard]

The one seam between the client and a networked game::

    args = cli.parser().parse_args(argv)
    node = cli.start(args)              # the lobby, talking on standard output; an int
    if isinstance(node, int): ...       #   is the exit code of a failed lobby
    if node.bot is not None:            # a bot seat (or --level): no window
        return cli.play_text(node, args)
    driver = NetDriver(node)            # client.netdriver: the client's GameDriver
    ... the window ...; driver.leave()

(``net.node.node.host/join/rejoin`` are the same lobbies with keyword arguments.)
Exit codes: see client/peer.py.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from . import peer

if TYPE_CHECKING:
    from net.node.node import Node


def parser(prog: str = "belfort", tr: Callable[[str], str] | None = None,
           formatter: type[argparse.HelpFormatter] | None = None) -> argparse.ArgumentParser:
    """The argparse parser of all four subcommands (``args.mode`` is the subcommand);
    ``tr``: how its help texts are translated, ``formatter``: its argparse formatter class."""
    return peer.build_parser(prog, tr, formatter)


def start(args: argparse.Namespace,
          render: Callable[[str], Any] | None = None) -> Node | int:
    """Run the lobby ``args`` ask for; the started Node, or an exit code.  ``render``: how a
    line to print reaches the person (the client translates net's `msgs.Msg` texts)."""
    peer.setup_logging(args)
    return peer.start_node(args, peer.Printer(args.json, args.quiet, render))


def play_text(node: Node, args: argparse.Namespace,
              render: Callable[[str], Any] | None = None) -> int:
    """Play without the window (a bot seat, or commands typed on standard input);
    ``render`` as for `start`."""
    out = peer.Printer(args.json, args.quiet, render)
    try:
        return peer.run_node(node, args, out)
    except KeyboardInterrupt:
        return peer.leave_for_now(node, out, 130)


def main(argv: Sequence[str] | None = None) -> int:
    """``belfort host|join|rejoin|bot ...`` without a window (plain text)."""
    return peer.main(list(argv or []), prog="belfort")
