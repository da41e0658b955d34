"""What the session's parts hand back to the peer instead of calling into it.

Every part of a session (intake, commands, commit-reveal, desync, escrow, handoff,
liveness, resync ...) answers a message or a tick with an ``Out``: the envelopes it
signed (already in sequence order), unsequenced control frames, alerts for the person,
the engine events of each change it made to the game (the peer follows each with the
deck epochs and the phase hash), at most one reason to stop the game, and the verdicts
that replace the reason of a game already stopped for a provisional cause.
``SessionPeer`` applies an ``Out`` at once, in order, so a part never needs a reference to
the peer, nor writes into another part.

A part whose later steps depend on its earlier ones being carried out (the settle loop,
the receive pump) is a generator of ``Steps``: it yields the ``Out`` of each step, the peer
carries that out at once and sends back whether it held anything, and the part goes on
from the state that left.  An exception raised while carrying a step out is raised in the
part at that ``yield``, as if it had carried it out itself.

A message that must be refused raises ``Refused`` instead: its kind and text become an
alert naming the seat.  ``Names`` words seats the same way in every part.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable
from dataclasses import dataclass, field
from typing import TypeVar

from .msgs import N_, Joined, Msg


class Refused(Exception):
    """A message is refused: ``kind`` is the alert kind, ``seat`` who is named."""

    def __init__(self, kind: str, seat: int | None, text: str) -> None:
        super().__init__(text)
        self.kind, self.seat, self.text = kind, seat, text


@dataclass
class Note:
    """An alert to show.  ``key``: alerts with the same key are shown at most every 5 s."""
    kind: str
    text: str
    seat: int | None = None
    key: tuple | None = None
    proof: bool = False      # rests on signed messages alone: shown at once (doubt.py)


@dataclass
class Out:
    send: list = field(default_factory=list)       # our signed envelopes (dicts), seq order
    hosted: list = field(default_factory=list)     # signed envelopes of the seat we host for a bot
    frames: list = field(default_factory=list)     # (dest or None, bytes): unsequenced control
    relayed: list = field(default_factory=list)    # (seat, bytes): envelopes a peer relayed to us
    alerts: list = field(default_factory=list)     # Note
    changes: list = field(default_factory=list)    # engine events of each change of the game
    events: list = field(default_factory=list)     # other events to show ("audit", "handoff")
    stop: str | None = None                        # the first reason to stop the game
    need_sync: bool = False                        # ask the others for what we miss, now
    departs: list = field(default_factory=list)    # (seat, text, why): treat as departed
    # (text, over): a verdict that replaces the reason of a game already stopped — when
    # that reason starts with one of ``over`` (empty: whatever it is); in order, the last
    # one applied wins (a part finds the real cause after a provisional stop)
    verdicts: list = field(default_factory=list)

    def alert(self, kind: str, text: str, seat: int | None = None, key: tuple | None = None,
              proof: bool = False) -> Out:
        self.alerts.append(Note(kind, text, seat, key, proof))
        return self

    def halt(self, reason: str) -> Out:
        if self.stop is None:
            self.stop = reason
        return self

    def verdict(self, text: str, over: tuple[str, ...] = ()) -> Out:
        """``text`` replaces the reason of the game, which is already stopped (``over``: only
        a reason starting with one of these)."""
        self.verdicts.append((text, tuple(over)))
        return self

    def add(self, other: Out | None) -> Out:
        if other is not None:
            self.send += other.send
            self.hosted += other.hosted
            self.frames += other.frames
            self.relayed += other.relayed
            self.alerts += other.alerts
            self.changes += other.changes
            self.events += other.events
            if other.stop is not None:
                self.halt(other.stop)
            self.need_sync = self.need_sync or other.need_sync
            self.departs += other.departs
            self.verdicts += other.verdicts
        return self

    def __bool__(self) -> bool:
        return bool(self.send or self.hosted or self.frames or self.relayed or self.alerts
                    or self.changes or self.departs or self.verdicts
                    or self.events or self.stop is not None or self.need_sync)


T = TypeVar("T")

# a part's steps: it yields each step's Out, is sent whether that held anything, and
# returns its result (effects carried out in order, see the module docstring)
Steps = Generator["Out | None", bool, T]


class Names:
    """Seats as the alerts name them: "Bo (seat 1)"."""

    def __init__(self, names: Iterable[str]) -> None:
        self.names = list(names)

    def __getitem__(self, seat: int) -> str:
        return self.names[seat]

    def __len__(self) -> int:
        return len(self.names)

    def seat(self, seat: object) -> str:
        if isinstance(seat, int) and 0 <= seat < len(self.names):
            return Msg(N_("{name} (seat {seat})"), name=self.names[seat], seat=seat)
        return Msg(N_("seat {seat}"), seat=repr(seat))

    def seats(self, seats: Iterable[object]) -> str:
        return Joined(", ", [self.seat(s) for s in seats])
