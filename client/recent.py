"""What the other players changed since our last command, so the board can show it.

Filled from the engine's events as they arrive and emptied when we give a command: the
window highlights these places until then (the engine has no clock; nor does this).
"""

from __future__ import annotations

from belfort.data import CARD_PLANK, GATE_BASE, GUILD_PLANK, SITE_NAME
from belfort.events import named


class Recent:
    def __init__(self):
        self.sites = set()        # board symbols marked or swapped: 'tower@3', 'guild@2', …
        self.guilds = set()       # guild ids whose plank got a worker
        self.desk = set()         # seats that put a worker on the Recruiter's desk
        self.camp = set()         # … on the King's camp
        self.cards = set()        # built cards that are new, got a gnome or a worker
        self.areas = set()        # (seat, area name) of workers sent to the resource areas
        self.seats = set()        # who did something

    def __bool__(self):
        return bool(self.sites or self.guilds or self.desk or self.camp or self.cards or
                    self.areas)

    def clear(self):
        self.__init__()

    def add(self, events, you, guild_sites=()):
        """Take in a batch of events; ours (seat `you`) are left out. `guild_sites` maps a
        guild id to its district's guild symbol ('guild@D')."""
        from belfort.data import AREAS, SPREAD_AREAS
        guild_sites = dict(guild_sites)
        for ev in events:
            try:
                ev = named(ev)
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
            elif kind == "guild" and ev.guild in guild_sites:
                self.sites.add(guild_sites[ev.guild])
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
