"""The engine's events with named fields, for readers.

`apply` returns events as plain tuples `(event, *fields)` (see docs/engine.md, Events): that
is their form on the wire, in logs and wherever they are hashed, and making them costs the
engine's hot loop nothing. Code that reads an event turns it into its named form first:

    ev = events.named(("place", 1, 0, 100))   # Place(event='place', seat=1, kind=0, plank=100)
    ev.seat, ev.plank

A named event *is* the tuple (a `typing.NamedTuple`, a tuple subclass): it equals the plain
tuple, hashes like it and packs like it, so converting one changes nothing that is compared,
stored or sent.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple


class Command(NamedTuple):
    """First of every `apply`: the command carried out, normalized."""
    event: str
    seat: int
    command: tuple[Any, ...]


class Keep(NamedTuple):
    """§3: a seat's keep, revealed with every other seat's."""
    event: str
    seat: int
    dropped: tuple[Any, ...]


class Pool(NamedTuple):
    """A card dealt to the pool (§15)."""
    event: str
    card: int


class Round(NamedTuple):
    """A month begins (§5)."""
    event: str
    round: int


class NpDwarf(NamedTuple):
    """§12: a non-player's dwarf put on, or moved to, a district's guild."""
    event: str
    np_seat: int
    district: int


class Place(NamedTuple):
    """§6: a worker of `kind` (0 elf, 1 master-elf, 2 dwarf, 3 master-dwarf) on a plank."""
    event: str
    seat: int
    kind: int
    plank: int


class Pass(NamedTuple):
    """§6."""
    event: str
    seat: int


class Spread(NamedTuple):
    """§6: the workers of one kind over its three areas (`counts` in SPREAD_AREAS order)."""
    event: str
    seat: int
    kind: int
    counts: tuple[Any, ...]


class Area(NamedTuple):
    """§7: what a seat with workers in an area collected there, and its area bonus."""
    event: str
    seat: int
    area: str
    resource: str
    collected: int
    bonus: int


class Bonus(NamedTuple):
    """§7: the area bonus (`amount` None: an event written before it carried the amount)."""
    event: str
    seat: int
    area: str
    amount: int | None = None


class Collect(NamedTuple):
    """§7: a seat's total from the areas, bonuses included, as (wood, stone, metal, gold)."""
    event: str
    seat: int
    gains: tuple[Any, ...]


class GainWorker(NamedTuple):
    """A worker from the reserve (desk, Inn, Recruiters): `worker` is "elf" or "dwarf"."""
    event: str
    seat: int
    worker: str


class Crest(NamedTuple):
    """§7: a crest taken at the King's camp (from itself when kept)."""
    event: str
    seat: int
    crest: int
    from_seat: int


class Income(NamedTuple):
    """§7.7."""
    event: str
    seat: int
    income: int
    tax_paid: int
    vp_lost: int


class Build(NamedTuple):
    """§8."""
    event: str
    seat: int
    card: int
    type: int
    site: int


class Wall(NamedTuple):
    """§8."""
    event: str
    seat: int
    site: int


class Guild(NamedTuple):
    """§8: `guild` is the guild's id."""
    event: str
    seat: int
    guild: int


class Buy(NamedTuple):
    """§8: one unit of a resource (0 wood, 1 stone, 2 metal)."""
    event: str
    seat: int
    resource: int


class Sell(NamedTuple):
    """§8: one unit."""
    event: str
    seat: int
    resource: int


class Exchange(NamedTuple):
    """§14 Merchants: one wood or stone for one metal."""
    event: str
    seat: int
    resource: int


class Gnome(NamedTuple):
    """A gnome onto a card's lock (hire, Tower, Recruiters)."""
    event: str
    seat: int
    card: int


class SecondMarker(NamedTuple):
    """§13: the Gatehouse lock's second marker."""
    event: str
    seat: int
    site: int


class Bank(NamedTuple):
    """§13 Bank lock (`gold` None: an event written before it carried the amount)."""
    event: str
    seat: int
    card: int
    gold: int | None = None


class Smith(NamedTuple):
    """§13 Blacksmith lock (None: an event written before it carried the amounts)."""
    event: str
    seat: int
    card: int
    gold_paid: int | None = None
    metal: int | None = None


class Activate(NamedTuple):
    """§8: a worker activated; `args` are the command's choices."""
    event: str
    seat: int
    plank: int
    args: tuple[Any, ...]


class Architects(NamedTuple):
    """§14: a symbol marked by the Architects."""
    event: str
    seat: int
    site: int


class Steal(NamedTuple):
    """§14 Thieves and Bandits."""
    event: str
    to_seat: int
    from_seat: int
    resource: int
    amount: int


class Swap(NamedTuple):
    """§14 Wizards."""
    event: str
    site_a: int
    site_b: int


class Draw(NamedTuple):
    """Cards drawn into a hand."""
    event: str
    seat: int
    cards: tuple[Any, ...]


class BuyCard(NamedTuple):
    """§8: a card bought (-1: the top of the draw pile)."""
    event: str
    seat: int
    card: int


class EndTurn(NamedTuple):
    """§8."""
    event: str
    seat: int


class Discard(NamedTuple):
    """A card discarded."""
    event: str
    seat: int
    card: int
    type: int


class Show(NamedTuple):
    """§14: shown to the Spies (all revealed together)."""
    event: str
    seat: int
    card: int
    type: int


class Take(NamedTuple):
    """§14: the spy takes a shown card."""
    event: str
    seat: int
    card: int
    from_seat: int


class NpTake(NamedTuple):
    """§12."""
    event: str
    np_seat: int
    card: int


class NpMark(NamedTuple):
    """§12 (site -1: no legal symbol, the card is discarded)."""
    event: str
    np_seat: int
    card: int
    site: int


class NpSkip(NamedTuple):
    """§12: nothing left to take."""
    event: str
    np_seat: int


class Reshuffle(NamedTuple):
    """§15: the discards become a new draw pile under new ids."""
    event: str
    epoch: int
    old_cards: tuple[Any, ...]
    new_cards: tuple[Any, ...]


class Scoring(NamedTuple):
    """§10: a scoring phase (its record is `score_log[-1]`)."""
    event: str
    round: int


class GameOver(NamedTuple):
    """§11: the result is in `game.result`."""
    event: str


class Revealed(NamedTuple):
    """Returned by `reveal`: a card made public in a networked game."""
    event: str
    card: int
    type: int


class Undo(NamedTuple):
    """Not the engine's: a driver's take-back of `seat`'s last action (belfort.undo), which
    the client's log shows like an event."""
    event: str
    seat: int
    command: tuple[Any, ...]


# Every event the engine produces, by its first element (docs/engine.md's table, in order),
# then the drivers' own.
EVENTS: dict[str, type[tuple[Any, ...]]] = {
    "command": Command, "keep": Keep, "pool": Pool, "round": Round, "np-dwarf": NpDwarf,
    "place": Place, "pass": Pass, "spread": Spread, "area": Area, "bonus": Bonus,
    "collect": Collect, "gain-worker": GainWorker, "crest": Crest, "income": Income,
    "build": Build, "wall": Wall, "guild": Guild, "buy": Buy, "sell": Sell,
    "exchange": Exchange, "gnome": Gnome, "second-marker": SecondMarker, "bank": Bank,
    "smith": Smith, "activate": Activate, "architects": Architects, "steal": Steal,
    "swap": Swap, "draw": Draw, "buy-card": BuyCard, "end-turn": EndTurn, "discard": Discard,
    "show": Show, "take": Take, "np-take": NpTake, "np-mark": NpMark, "np-skip": NpSkip,
    "reshuffle": Reshuffle, "scoring": Scoring, "game-over": GameOver, "revealed": Revealed,
    "undo": Undo,
}


# Any: which NamedTuple depends on the event's first element, and readers pick their fields
# after reading it (`ev.event`), which no static type can follow.
def named(ev: Sequence[Any]) -> Any:
    """The event `ev` (a plain tuple, or a list as msgpack gives it) as its NamedTuple: equal
    to it and hashing like it. Raises ValueError for an event this engine does not make."""
    if isinstance(ev, tuple) and type(ev) is not tuple:
        return ev                       # already named
    try:
        cls = EVENTS[ev[0]]
    except (KeyError, IndexError, TypeError):
        raise ValueError(f"not an engine event: {ev!r}") from None
    try:
        return cls(*ev)
    except TypeError:
        fields = getattr(cls, "_fields", ())     # every class there has them
        raise ValueError(f"a {ev[0]!r} event has the fields {fields}: {ev!r}") from None


def named_all(events: Sequence[Sequence[Any]]) -> list[Any]:
    """Every event of a list (`apply`'s return value) in its named form."""
    return [named(ev) for ev in events]


def named_known(events: Sequence[Sequence[Any]]) -> list[Any]:
    """The named forms of the events of a list that this engine (or a driver's take-back)
    makes, leaving out any other: a networked session passes its own notices, such as
    `("started", seed)`, to the same subscribers."""
    out = []
    for ev in events:
        cls = EVENTS.get(ev[0]) if isinstance(ev, (tuple, list)) and ev else None
        if cls is not None:
            out.append(named(ev))
    return out


__all__ = ["EVENTS", "named", "named_all", "named_known",
           *(cls.__name__ for cls in EVENTS.values())]
