"""What the other players changed since our last command, so the board can show it.

Filled from the engine's events as they arrive and emptied when we give a command: the
window highlights these places until then (the engine has no clock; nor does this).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from belfort.data import CARD_PLANK, GATE_BASE, GUILD_PLANK, SITE_NAME
from belfort.events import named

if TYPE_CHECKING:
    from belfort.commands import Event


class Recent:
    def __init__(self) -> None:
        # board symbols marked or swapped: 'tower@3', 'guild@2', …
        self.sites: set[str] = set()
        self.guilds: set[int] = set()   # guild ids whose plank got a worker
        self.desk: set[int | None] = set()   # seats that put a worker on the Recruiter's desk
        self.camp: set[int | None] = set()   # … on the King's camp
        self.cards: set[int] = set()    # built cards that are new, got a gnome or a worker
        # (seat, area name) of workers sent to the resource areas
        self.areas: set[tuple[int | None, str]] = set()
        self.seats: set[int] = set()    # who did something

    def __bool__(self) -> bool:
        return bool(self.sites or self.guilds or self.desk or self.camp or self.cards or
                    self.areas)

    def clear(self) -> None:
        self.__init__()  # type: ignore[misc]

    def add(self, events: Sequence[Event], you: int,
            guild_sites: Mapping[int, str] | Iterable[tuple[int, str]] = ()) -> None:
        """Take in a batch of events; ours (seat `you`) are left out. `guild_sites` maps a
        guild id to its district's guild symbol ('guild@D')."""
        from belfort.data import AREAS, SPREAD_AREAS
        sites_of = dict(guild_sites)
        for event in events:
            try:
                ev = named(event)
            except ValueError:
                continue             # not an engine event: nothing on the board changed
            kind = ev.event
            fields = ev._fields
            seat = ev.seat if "seat" in fields else ev.np_seat if "np_seat" in fields else None
            if seat == you and kind not in ("swap",):
                continue
            if kind == "place":
                plank = ev.plank
                if plank == 0:
                    self.desk.add(seat)
                elif plank == 1:
                    self.camp.add(seat)
                elif plank >= CARD_PLANK:
                    self.cards.add(plank - CARD_PLANK)
                else:
                    self.guilds.add(plank - GUILD_PLANK)
            elif kind == "build":
                self.sites.add(SITE_NAME[ev.site])
                self.cards.add(ev.card)
            elif kind in ("wall", "architects", "second-marker"):
                self.sites.add(SITE_NAME[ev.site])
            elif kind == "np-mark" and ev.site >= 0:
                self.sites.add(SITE_NAME[ev.site])
            elif kind == "guild" and ev.guild in sites_of:
                self.sites.add(sites_of[ev.guild])
            elif kind == "swap":
                for x in (ev.site_a, ev.site_b):
                    self.sites.add(SITE_NAME[x])
                    if x >= GATE_BASE:          # a gatehouse swaps both its symbols
                        self.sites.add(SITE_NAME[x ^ 1])
            elif kind == "gnome":
                self.cards.add(ev.card)
            elif kind == "spread":
                for area, n in zip(SPREAD_AREAS[ev.kind], ev.counts):
                    if n:
                        self.areas.add((seat, AREAS[area]))
            else:
                continue
            if seat is not None and kind != "swap":
                self.seats.add(seat)
