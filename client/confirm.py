"""The host confirms the start, so that fake joiners cannot start a game.

Seats filling up used to start the game by itself, so a few fake joiners could start a
table nobody meant to play.  A person hosting now sees each joiner's name and key
fingerprint and types ``start`` when the table is right; ``--auto-start`` (scripts),
``--start-after`` and a bot playing the host's seat keep starting by themselves.

The typed line is read without a thread (``select`` on standard input): a thread left
reading would steal the keys of the window that follows the lobby.
"""

from __future__ import annotations

import os
import select
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TextIO

from net.session.msgs import N_, Joined, Msg

if TYPE_CHECKING:
    from net.node.lobby import HostLobby

START_WORDS = ("start", "s", "go")


class StartConfirmation:
    """``should_start(lobby)`` for node.host: True once the person typed ``start`` with
    at least two players seated.  ``out`` gets the events to show."""

    def __init__(self, out: Callable[[dict[str, Any]], None],
                 stdin: TextIO | None = None) -> None:
        self.out = out
        self.stdin = stdin if stdin is not None else sys.stdin
        self._pending = b""
        self._told: object = None
        self._closed = False

    def _lines(self) -> list[str]:
        """Whole lines typed since the last call (never blocks)."""
        if self._closed:
            return []
        try:
            fd = self.stdin.fileno()
            ready, _, _ = select.select([fd], [], [], 0)
        except (OSError, ValueError, AttributeError):
            self._closed = True
            return []
        if not ready:
            return []
        try:
            data = os.read(fd, 4096)
        except OSError:
            data = b""
        if not data:                      # end of input: nobody will type start
            self._closed = True
            return []
        self._pending += data
        *lines, self._pending = self._pending.split(b"\n")
        return [ln.decode("utf-8", "replace").strip() for ln in lines]

    def _tell(self, lobby: HostLobby) -> None:
        seats = len(lobby.seats)
        state = (seats, tuple(s.key for s in lobby.seats))
        if state == self._told:
            return
        self._told = state
        who = Joined("; ", [Msg(N_("{name} (key {fingerprint})"), name=s.name,
                                fingerprint=r["fingerprint"])
                            for s, r in zip(lobby.seats, lobby.roster())])
        if seats < 2:
            text = Msg(N_("Waiting for players (1 of {players} seats taken)."),
                       players=lobby.players)
        elif seats >= lobby.players:
            text = Msg(N_("{seats} of {players} seats taken — every seat is taken: {who}. "
                          "Check each key with its player, then type start and Enter to "
                          "begin."), seats=seats, players=lobby.players, who=who)
        else:
            text = Msg(N_("{seats} of {players} seats taken: {who}. Check each key with its "
                          "player, then type start and Enter to begin."),
                       seats=seats, players=lobby.players, who=who)
        self.out({"event": "lobby-confirm", "text": text, "seats": seats,
                  "players": lobby.players})

    def __call__(self, lobby: HostLobby) -> bool:
        self._tell(lobby)
        for line in self._lines():
            if line.lower() not in START_WORDS:
                if line:
                    self.out({"event": "lobby-confirm", "text": Msg(N_(
                        "'{line}' is not a lobby command: type start (Enter) to begin "
                        "with these players."), line=line),
                              "seats": len(lobby.seats), "players": lobby.players})
                continue
            if len(lobby.seats) < 2:
                self.out({"event": "lobby-confirm",
                          "text": Msg(N_("At least 2 players are needed to start.")),
                          "seats": len(lobby.seats), "players": lobby.players})
                continue
            return True
        return False
