"""The automatic protocol steps each seat owes now, derived from the game state.

Liveness (liveness.py) looks at silence; a peer can keep sending heartbeats and still
never send what the game waits for.  Every step a peer's software does by itself is
owed within ``Timing.step_deadline`` of becoming due (the clock and the consequence are
waits.py's):

    the seed commitment and reveal; each deck epoch's commitment, shuffle and re-key;
    a key for a card dealt to another seat or to be shown to everyone; the reveal of a
    simultaneous choice once every commitment is in; the deck audit.

Human decisions (a command, the commitment to a simultaneous choice) are not steps:
people think as long as they like, while they are there (the stall clock, liveness.py).

``owed`` derives from the game state which seat owes which step (the same on every
honest peer), as ``Owed`` obligations: what the seat owes, which clock its deadline reads
and what follows when it passes (waits.py keeps the clocks).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Container, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .effects import Names
from .msgs import N_, Msg

if TYPE_CHECKING:
    from .rounds import Rounds
    from .table import GameTable

DEPART, REFUSE, STOP = "depart", "refuse", "stop"
# which clock a deadline reads: the seat's presence (step_deadline) or its absence (the
# stall time)
PRESENCE, ABSENCE = "presence", "absence"


@dataclass(frozen=True)
class Owed:
    """One obligation: ``seat`` owes ``what``; past its deadline, ``then`` happens.
    ``clock``: PRESENCE — ``step_deadline`` of the seat's presence; ABSENCE — the stall
    time of its absence (a silent seat is late too)."""
    seat: int
    what: str
    then: str = DEPART
    clock: str = PRESENCE


@dataclass(frozen=True)
class Late:
    """A seat past the deadline of ``owed`` (the step's ``key``)."""
    key: tuple
    owed: Owed

    @property
    def seat(self) -> int:
        return self.owed.seat


SETUP_STALL = N_("the game could not start: {who} has been silent past the stall time "
                 "before the first deal, owing {what}. No card was dealt, so no hand is "
                 "at stake: start a new game without that seat")


def owed(table: GameTable, rounds: Rounds, names: Names, skip: Container[int],
         inbox: Sequence[deque] = (), ready: Callable[[dict], bool] | None = None,
         gaps: dict[int, int] | None = None) -> dict[tuple, Owed]:
    """{step key: Owed} for every automatic step due now; ``skip`` are
    seats not to look at (ours, a seat played by a bot).  A ``deck/open`` waiting at the
    head of its sender's queue (``inbox``, ``ready``) for keys nobody owes, because the
    card is not in the sender's hand, gets the key ``("open", seat, seq)``: once late,
    it is refused rather than waited for.  ``gaps``: {seat: the seq we lack while later
    envelopes of that seat wait for it} — a connected seat fills such a gap within a
    resync; one that does not (its message there was refused, say a badly shaped
    ``sess/view``, and it has no other) would stall every message after it for ever."""
    out: dict[tuple, Owed] = {}

    def due(key: tuple, seat: int, what: str, then: str = DEPART) -> None:
        if seat not in skip and key not in out:
            out[key] = Owed(seat, what, then)

    def setup(key: tuple, seat: int, what: str) -> None:
        """Before the first deal a silent seat is not waited for past the stall time: no
        hand is at stake, so the setup ends with that verdict instead."""
        due(key, seat, what)
        if seat not in skip:
            out[("setup", *key)] = Owed(seat, Msg(SETUP_STALL, who=names.seat(seat), what=what),
                                        STOP, ABSENCE)

    for s, seq in sorted((gaps or {}).items()):
        due(("gap", s, seq), s, Msg(N_("a valid message with seq {seq} (its later messages "
                                       "wait behind it)"), seq=seq))
    g = table.game
    seed = rounds.get("seed")
    if g is None:
        if seed is not None and seed.all_committed:
            for s in seed.missing():
                setup(("seed-reveal", s), s, Msg(N_("its reveal of its seed share")))
        elif seed is not None:
            for s in seed.missing():
                setup(("seed-commit", s), s, Msg(N_("its commitment to its seed share")))
        return out
    for d in table.decks:
        e = d.epoch
        if len(d.commits) < d.n:
            for s in d.waiting_for():
                due(("deck-commit", e, s), s, Msg(N_("its commitment to deck epoch {epoch}"),
                                                  epoch=e))
        elif len(d.shuffles) < d.n:
            s = len(d.shuffles)
            due(("shuffle", e, s), s, Msg(N_("its shuffle of deck epoch {epoch}"), epoch=e))
        elif len(d.rekeys) < d.n:
            s = len(d.rekeys)
            due(("rekey", e, s), s, Msg(N_("its re-keying of deck epoch {epoch}"), epoch=e))
        elif d.audits:
            for s in d.waiting_for():
                due(("audit", e, s), s, Msg(N_("its deck audit of epoch {epoch}"), epoch=e))
    for c in g.reveal_queue:
        e, pos = table.locate(c)
        if e < len(table.decks) and table.decks[e].ready:
            for s in table.decks[e].unreleased(pos):
                due(("key", e, pos, s), s, Msg(N_("its key to show card #{card} to everyone"),
                                               card=c))
    for holder in range(table.n):
        for c in g.players[holder].hand:
            if g.public[c]:
                continue
            e, pos = table.locate(c)
            if e >= len(table.decks) or not table.decks[e].ready:
                continue
            rel = table.decks[e].released[pos]
            for s in range(table.n):
                if s != holder and s not in rel:
                    due(("key", e, pos, s), s, Msg(N_("its key for card #{card} dealt to {name}"),
                                                   card=c, name=names[holder]))
    waiting = g.waiting_for()
    if len(waiting) > 1:
        rnd = rounds.get(f"sim/{g.version}")
        if rnd is not None and rnd.all_committed:
            for s in rnd.missing():
                due(("sim-reveal", g.version, s), s,
                    Msg(N_("its reveal of its simultaneous choice (game version {version})"),
                        version=g.version))
    for s, q in enumerate(inbox):
        head = q[0] if q else None
        if head is None or head["type"] != "deck/open" or ready is None or ready(head):
            continue
        e, pos = head.get("epoch"), head.get("pos")
        card = table.card_at(e, pos)
        if card is None or card not in g.players[s].hand:
            due(("open", s, head["seq"]), s,
                Msg(N_("an opening of position {pos} of deck epoch {epoch}, never dealt to it"),
                    pos=pos, epoch=e), REFUSE)
    return out
