"""Deadlines of the automatic protocol steps: every step the game awaits has one, or a
seat could hold the table up for ever while looking alive.

Liveness (liveness.py) looks at silence; a peer can keep sending heartbeats and still
never send what the game waits for.  Every step a peer's software does by itself is
owed within ``Timing.step_deadline`` of becoming due:

    the seed commitment and reveal; each deck epoch's commitment, shuffle and re-key;
    a key for a card dealt to another seat or to be shown to everyone; the reveal of a
    simultaneous choice once every commitment is in; the deck audit.

Human decisions (a command, the commitment to a simultaneous choice) are not steps:
people think as long as they like (the stall time and handoff cover a person gone).  The clock
of a seat's step runs only while that seat is connected: a peer that crashed and comes
back (rejoin) gets the whole deadline to catch up, while silence itself is liveness's
business; and only while *our* process runs: a suspended peer waking does not count its
sleep as the others' delay (``asleep``).

``owed`` derives from the game state which seat owes which step (the same on every
honest peer); ``Deadlines.check`` returns each seat newly past a deadline with what it
withheld.  The peer then treats that seat as departed (core.SessionPeer._withheld).
"""

from __future__ import annotations

from .effects import Names
from .msgs import N_, Msg

CHECK_EVERY = 0.25           # s between two looks at what is owed (it walks the hands)


def owed(table, rounds, names: Names, skip, inbox=(), ready=None,
         gaps=None) -> dict[tuple, tuple[int, str]]:
    """{step key: (seat, what it owes)} for every automatic step due now; ``skip`` are
    seats not to look at (ours, a seat played by a bot).  A ``deck/open`` waiting at the
    head of its sender's queue (``inbox``, ``ready``) for keys nobody owes, because the
    card is not in the sender's hand, gets the key ``("open", seat, seq)``: once late,
    it is refused rather than waited for.  ``gaps``: {seat: the seq we lack while later
    envelopes of that seat wait for it} — a connected seat fills such a gap within a
    resync; one that does not (its message there was refused, say a badly shaped
    ``sess/view``, and it has no other) would stall every message after it for ever."""
    out: dict[tuple, tuple[int, str]] = {}

    def due(key: tuple, seat: int, what: str) -> None:
        if seat not in skip and key not in out:
            out[key] = (seat, what)

    for s, seq in sorted((gaps or {}).items()):
        due(("gap", s, seq), s, Msg(N_("a valid message with seq {seq} (its later messages "
                                       "wait behind it)"), seq=seq))
    g = table.game
    seed = rounds.get("seed")
    if g is None:
        if seed is not None and seed.all_committed:
            for s in seed.missing():
                due(("seed-reveal", s), s, Msg(N_("its reveal of its seed share")))
        elif seed is not None:
            for s in seed.missing():
                due(("seed-commit", s), s, Msg(N_("its commitment to its seed share")))
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
                    pos=pos, epoch=e))
    return out


class Deadlines:
    def __init__(self, n: int, names: Names, timing) -> None:
        self.n, self.names, self.timing = n, names, timing
        self.first_due: dict[tuple, float] = {}
        self.named: dict[int, str] = {}          # seat -> what it withheld (named once)
        self._next_check = 0.0

    def check(self, steps: dict[tuple, tuple[int, str]] | None, now: float,
              quiet, agrees=lambda seat: True) -> list[tuple[int, str, tuple]]:
        """Seats newly past the deadline of a step they owe: [(seat, what, key)].  ``steps``
        None = not looked at this time (see ``due``); ``quiet(seat)`` = its silence;
        ``agrees(seat)``: its heartbeats show it holds the messages we hold (doubt.py):
        after a fork it may owe nothing in its own game, and is not named."""
        if steps is None:
            return []
        for key in [k for k in self.first_due if k not in steps]:
            del self.first_due[key]
        late: dict[int, tuple[str, tuple]] = {}
        for key, (seat, what) in steps.items():
            since = self.first_due.setdefault(key, now)
            if quiet(seat) > self.timing.disconnected:
                self.first_due[key] = now          # silent: liveness's business, not ours
                continue
            if now - since > self.timing.step_deadline and seat not in self.named \
                    and seat not in late and agrees(seat):
                late[seat] = (what, key)
        for seat, (what, key) in late.items():
            if key[0] == "open":
                del self.first_due[key]      # refused, not a departure: it may go on
            else:
                self.named[seat] = what
        return [(s, w, k) for s, (w, k) in sorted(late.items())]

    def asleep(self, gap: float) -> None:
        """Our process did not run for ``gap`` seconds (a suspend, SIGSTOP): that time is
        nobody's delay, so every step's clock is moved on by it (as liveness.py does)."""
        for key in self.first_due:
            self.first_due[key] += gap

    def due(self, now: float) -> bool:
        """Time for another look at what is owed."""
        if now < self._next_check - CHECK_EVERY * 4:      # a clock from another run
            self._next_check = now
        if now < self._next_check:
            return False
        self._next_check = now + CHECK_EVERY
        return True
