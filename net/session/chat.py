"""``say TEXT`` at the table: a chat line signed like every message, so nobody can put
words in another player's mouth.

Each line is an unsequenced control frame ``ctl/say {n, text}`` signed with the sender's
identity key: the session checks the signature and that it comes from the seat it claims
before this part sees it.  ``n`` grows with every line a seat says (its clock in
nanoseconds), so a replayed frame is not shown twice.  The text is shown only as
printable text of bounded length (net.session.text): a line cannot redraw anyone's
screen.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from net.crypto import encode_envelope

from .effects import Names, Out
from .msgs import N_, Msg
from .text import MAX_SAY, printable

if TYPE_CHECKING:
    from net.crypto import Identity

    from .dispatch import Dispatcher

KEEP = 200                 # lines kept for the windows
BURST = 5                  # at most this many lines a seat gets shown per BURST_S
BURST_S = 10.0


class ChatError(ValueError):
    """A line we cannot say; the text says why."""


class Chat:
    def __init__(self, identity: Identity, game_id: str, seat: int, names: Names,
                 clock_ns: Callable[[], int] | None = None) -> None:
        """``clock_ns()``: the wall clock (ns), so that our lines keep growing numbers
        after a restart; without it they are numbered from 1."""
        self.identity, self.game_id, self.seat, self.names = identity, game_id, seat, names
        self.clock_ns = clock_ns or (lambda: 0)
        self.lines: list[tuple[int, str]] = []      # (seat, text), oldest first
        self.count = 0                               # lines ever added (the UI's cursor)
        self._last_n = [0] * len(names)
        self._recent: list[list[float]] = [[] for _ in range(len(names))]

    def register(self, dispatch: Dispatcher) -> None:
        dispatch.on_control("ctl/say", self.on_say)

    def _add(self, seat: int, text: str) -> None:
        self.lines.append((seat, text))
        self.count += 1
        del self.lines[:-KEEP]

    def since(self, count: int) -> list[tuple[int, str]]:
        """The lines added after the first ``count`` (as many as are still kept)."""
        new = self.count - count
        return self.lines[-new:] if new > 0 else []

    def say(self, text: str) -> Out:
        clean = printable(text, MAX_SAY)
        if not clean:
            raise ChatError(Msg(N_("say what? e.g. say good luck")))
        n = max(self.clock_ns(), self._last_n[self.seat] + 1)
        self._last_n[self.seat] = n
        body = {"type": "ctl/say", "game": self.game_id, "seat": self.seat, "seq": 0,
                "n": n, "text": clean}
        self._add(self.seat, clean)
        return Out(frames=[(None, encode_envelope(self.identity.sign_message(body)))])

    def on_say(self, seat: int, body: dict, now: float) -> Out:
        n, text = body.get("n"), body.get("text")
        if not (isinstance(n, int) and not isinstance(n, bool) and isinstance(text, str)
                and len(text) <= 4 * MAX_SAY):
            return Out().alert("error", Msg(N_("{who} sent a malformed chat line (dropped)"),
                                            who=self.names.seat(seat)), seat, key=("say", seat))
        if n <= self._last_n[seat]:
            return Out()                  # a replay, or an old line relayed again
        self._last_n[seat] = n
        recent = [t for t in self._recent[seat] if now - t < BURST_S]
        if len(recent) >= BURST:
            self._recent[seat] = recent
            return Out()                  # flooding: the table is not the sender's screen
        self._recent[seat] = recent + [now]
        clean = printable(text, MAX_SAY)
        if clean:
            self._add(seat, clean)
        return Out()
