"""``belfort join`` without an address: list the games announced on the LAN and take
the one the person picks (the only one, without asking, when input is not a terminal).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, TextIO

from net.node.discovery import DiscoveryError, Game, browse
from net.session.msgs import N_, Msg


def choose_game(out: Callable[[dict[str, Any]], None], stdin: TextIO | None = None,
                timeout: float = 4.0, host: str | None = None,
                find: Callable[[float], list[Game]] | None = None) -> Game | None:
    """The game chosen (``host``: the one that person hosts), or None (the reason went to
    ``out``).  Its announcement is only a claim: join it expecting the key it names
    (``node.join(game.address, …, announced=(game.host, game.fingerprint))``)."""
    find = find or browse
    stdin = stdin if stdin is not None else sys.stdin
    render = getattr(out, "render", str)       # the prompts in the person's language
    out({"event": "lobby-change", "text": Msg(N_("Looking for games on the LAN…")),
         "roster": []})
    try:
        games = find(timeout)
    except DiscoveryError as exc:
        out({"event": "error", "text": exc.args[0] if exc.args else str(exc)})
        return None
    if host is not None:
        games = [g for g in games if g.host.casefold() == host.casefold()]
    out({"event": "games", "games": [dict(g.as_dict(), line=g.line()) for g in games]})
    if not games:
        # one line: announcements never cross a router or a VPN, where the address does
        text: str = Msg(N_("no game with a free seat was announced by {host} on this network "
                      "(announcements do not cross a router or a VPN, and multicast may be "
                      "blocked): type the address the host printed, e.g. belfort join "
                      "192.168.1.20:5555"), host=host) if host else \
            Msg(N_("no game with a free seat was announced on this network (announcements "
                   "do not cross a router or a VPN, and multicast may be blocked): type the "
                   "address the host printed, e.g. belfort join 192.168.1.20:5555"))
        out({"event": "error", "text": text})
        return None
    interactive = getattr(stdin, "isatty", lambda: False)()
    if len(games) == 1 and not interactive:
        return games[0]
    if not interactive:
        out({"event": "error", "text": Msg(N_("{n} games were found: choose one by its "
                                              "address, e.g. belfort join {address}"),
                                           n=len(games), address=games[0].address)})
        return None
    while True:
        prompt = Msg(N_("Join which game (1-{n}, Enter for 1, q to stop)? "), n=len(games)) \
            if len(games) > 1 else Msg(N_("Join {host}'s game (Enter, or q to stop)? "),
                                       host=games[0].host)
        sys.stdout.write(render(prompt))
        sys.stdout.flush()
        line = stdin.readline()
        text = line.strip().lower()
        if not line or text in ("q", "quit"):
            return None
        if text == "":
            return games[0]
        if text.isascii() and text.isdigit() and 1 <= int(text) <= len(games):
            return games[int(text) - 1]
        sys.stdout.write(render(Msg(N_("Type a number from 1 to {n}."), n=len(games))) + "\n")
