"""Liveness: who is there, who is silent, who has finished.

A peer silent ``Timing.disconnected`` (2 s) is shown as disconnected ("waiting for Bo
(disconnected 12 s)") and "Bo is back" when it speaks again; every other peer silent
``Timing.timeout`` means nobody is left to play with.  A peer that is done says so
(``ctl/fin``, and the ``finished`` flag of its heartbeats): from then on its silence is
not a disconnection and nobody waits for it.
"""

from __future__ import annotations

from .effects import Names, Out


class Liveness:
    def __init__(self, n: int, seat: int, names: Names, timing, kinds, now: float = 0.0) -> None:
        self.n, self.seat, self.names, self.timing, self.kinds = n, seat, names, timing, list(kinds)
        self.last_seen = [now] * n
        self.connected = [True] * n
        self.finished_of = [False] * n

    def register(self, dispatch) -> None:
        dispatch.on_control("ctl/hb", self.on_heartbeat)
        dispatch.on_control("ctl/fin", self.on_finished)

    def reset(self, now: float) -> None:
        """After a (re)start: nobody has been silent yet."""
        self.last_seen = [now] * self.n

    def seen(self, seat: int, now: float) -> Out:
        self.last_seen[seat] = max(self.last_seen[seat], now)
        if self.connected[seat]:
            return Out()
        self.connected[seat] = True
        return Out().alert("reconnect", f"{self.names[seat]} is back", seat)

    def on_heartbeat(self, seat: int, body: dict, now: float) -> Out:
        self.finished_of[seat] = bool(body.get("finished"))
        return Out()

    def on_finished(self, seat: int, body: dict, now: float) -> Out:
        self.finished_of[seat] = True
        return Out()

    def check(self, now: float, handed) -> Out:
        """Disconnections: a seat silent too long (not one that finished or a bot's)."""
        out = Out()
        for s in range(self.n):
            if s == self.seat:
                continue
            if self.connected[s] and now - self.last_seen[s] > self.timing.disconnected:
                self.connected[s] = False
                if not self.finished_of[s] and s not in handed:
                    out.alert("disconnect", f"{self.names[s]} disconnected", s)
        return out

    def quiet(self, seat: int, now: float) -> float:
        return now - self.last_seen[seat]

    def abandoned(self, now: float, handed) -> bool:
        """Every other peer has been silent past the time-out: nobody is left to play with."""
        return all(now - self.last_seen[s] > self.timing.timeout for s in range(self.n)
                   if s != self.seat and s not in handed)

    def waiting_text(self, seats, now: float, handed) -> str:
        """E.g. "waiting for Bo (disconnected 12 s)"."""
        if not seats:
            return ""
        parts = []
        for s in seats:
            if s == self.seat:
                parts.append("you")
            elif s in handed:
                parts.append(f"{self.names[s]} (bot)")
            elif not self.connected[s]:
                parts.append(f"{self.names[s]} (disconnected {now - self.last_seen[s]:.0f} s)")
            else:
                parts.append(self.names[s])
        return "waiting for " + ", ".join(parts)

    def states(self, now: float, handed) -> list[dict]:
        out = []
        for s in range(self.n):
            if s == self.seat:
                state = "here"
            elif s in handed:
                state = "bot"
            elif self.finished_of[s] and not self.connected[s]:
                state = "left"
            elif self.connected[s]:
                state = "connected"
            else:
                state = "disconnected"
            out.append({"seat": s, "name": self.names[s],
                        "kind": "you" if s == self.seat else self.kinds[s], "state": state,
                        "quiet": 0.0 if s == self.seat else round(now - self.last_seen[s], 1)})
        return out
