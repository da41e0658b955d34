"""Blame only with proof, even after a fork: accusations held until they rest
on what the accused itself signed.

After a seat equivocated (two signed messages with one seq, shown to different peers),
a deceived peer's game has forked: an honest seat's next command may look illegal to it,
a key that seat does not owe may look withheld, its state hash disagrees.  Naming that
seat then would name an honest seat.  So an accusation that rests on our game state
(a refused command, a deck message refused, a state hash that differs, a missed
deadline) is not shown at once: it is *held*, and the person sees only that the peers
are being checked.

Every heartbeat (and the finished notice) carries the sender's *claims*: for each seat,
how many of its envelopes the sender holds and the running hash of them (``have``,
``tips``; msglog.MessageLog.chain).  An accusation against seat X held when we held ``need``
of X's envelopes is judged on X's first claim with ``have[X] >= need`` (X made it after
the message we refused):

* every seat's running hash in it equals ours at the same count: X held exactly what we
  held — the accusation is X's own doing, and is shown (released);
* some hash differs: X and we hold different messages of some seat, so someone
  equivocated.  The heartbeats' echo (resync.py) brings the two signed messages to a
  peer that holds the other, which sends ``ctl/proof`` (forks.py): the proof's verdict
  names the equivocator, and every held accusation is dropped;
* X claims more than we hold: we wait for it (the resync brings it).

A claim that still disagrees past ``Timing.step_deadline`` with no proof come is X
withholding the messages it claims (an honest peer's echo produces the proof within a
few heartbeats): the accusation is released then, saying so.  An accusation whose seat
never claims anything (silent: liveness's business) is dropped after twice that,
unnamed, so the peer can finish.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from net.crypto import wire

from .effects import Names, Note, Out
from .msgs import N_, Joined, Msg

if TYPE_CHECKING:
    from .config import Timing
    from .dispatch import Dispatcher
    from .msglog import MessageLog
    from .table import GameTable

ACCUSING = ("cheat", "desync", "error")
MAX_HELD = 64             # accusations held at once (an honest fork makes a handful)
MAX_WATCH = 16            # snapshots kept per seat
CHECKING = Msg(N_("a message was refused here; checking with the other peers that everyone "
                  "holds the same messages before naming anyone"))


@dataclass
class Held:
    seat: int
    need: int
    since: float
    notes: list = field(default_factory=list)
    stop: str | None = None


def claims_of(body: dict, n: int) -> tuple[list[int], list[bytes]] | None:
    """(have, tips) from a heartbeat or finished notice, or None if it has none."""
    have, tips = body.get("have"), body.get("tips")
    if not (isinstance(have, list) and len(have) == n and all(
            wire.is_int(x) and 0 <= x < 1 << 32 for x in have)):
        return None
    if not (isinstance(tips, list) and len(tips) == n and all(
            isinstance(t, bytes) and len(t) <= 32 for t in tips)):
        return None
    return list(have), list(tips)


class Doubt:
    def __init__(self, n: int, seat: int, log: MessageLog, names: Names, timing: Timing,
                 table: GameTable, proven: Mapping[int, str]) -> None:
        self.n, self.seat, self.log, self.names, self.timing = n, seat, log, names, timing
        self.table, self.proven = table, proven          # proven: forks.Forks.proven
        self.latest: dict[int, tuple] = {}                 # seat -> its last claims
        self.snaps: dict[int, dict[int, tuple | None]] = {}   # seat -> need -> claims
        self.held: list[Held] = []
        self._differs_since: dict[int, float] = {}        # seat -> first disagreeing claim

    def register(self, dispatch: Dispatcher) -> None:
        dispatch.on_control("ctl/hb", self.on_claims)
        dispatch.on_control("ctl/fin", self.on_claims)

    @property
    def pending(self) -> bool:
        return bool(self.held)

    # ------------------------------------------------------------ claims
    def drop(self) -> None:
        """Our own seat was handed to a bot: what we held against others rested on the
        game they played on with the bot, which is not ours to judge any more."""
        self.held.clear()

    def on_claims(self, seat: int, body: dict, now: float) -> Out:
        got = claims_of(body, self.n)
        if got is None:
            return Out()
        self.latest[seat] = got
        watch = self.snaps.get(seat, {})
        for need in watch:
            if watch[need] is None and got[0][seat] >= need:
                watch[need] = got
        return self.recheck(now)

    def watch(self, seat: int, need: int) -> None:
        """Keep ``seat``'s first claim made once it had sent ``need`` envelopes."""
        watch = self.snaps.setdefault(seat, {})
        if need in watch:
            return
        if len(watch) >= MAX_WATCH:
            del watch[min(watch)]
        last = self.latest.get(seat)
        watch[need] = last if last is not None and last[0][seat] >= need else None

    def judge(self, seat: int, need: int) -> bool | None:
        """True: ``seat`` held what we hold once it had sent ``need`` envelopes; False: it
        held different messages of some seat; None: not known yet."""
        self.watch(seat, need)
        got = self.snaps[seat].get(need)
        if got is None:
            return None
        return self._compare(got)

    def _compare(self, got: tuple[list[int], list[bytes]]) -> bool | None:
        have, tips = got
        unknown = False
        for x in range(self.n):
            if have[x] > self.log.count(x):
                unknown = True
            elif have[x] and tips[x] != self.log.chain(x, have[x]):
                return False
        return None if unknown else True

    def agrees(self, seat: int, now: float) -> bool:
        """For a deadline: ``seat``'s last claims hold what we hold where both hold it (or
        disagree for longer than the step deadline with no proof: it withholds them)."""
        if self.proven:
            return False
        got = self.latest.get(seat)
        if got is None:
            return True           # never claimed anything: silence, liveness's business
        have, tips = got
        same = all(tips[x] == self.log.chain(x, min(have[x], self.log.count(x)))
                   for x in range(self.n) if have[x] <= self.log.count(x) and have[x])
        if same:
            self._differs_since.pop(seat, None)
            return True
        since = self._differs_since.setdefault(seat, now)
        return now - since > self.timing.step_deadline

    # ------------------------------------------------------------ held accusations
    def hold(self, note: Note, stop: str | None, now: float) -> Out:
        """Hold an accusation of ``note.seat`` (and the stop that came with it)."""
        seat = note.seat
        assert seat is not None, "only an accusation naming a seat is held (alerting.py)"
        need = self.log.count(seat)
        for i, h in enumerate(self.held):
            if h.seat == seat and h.need == need:
                h.notes.append(note)
                self.held[i] = replace(h, stop=h.stop or stop)
                return Out()
        if len(self.held) >= MAX_HELD:
            self.held.pop(0)
        self.held.append(Held(seat, need, now, [note], stop))
        self.watch(seat, need)
        return Out().alert("info", CHECKING, None, key=("checking",))

    def hold_stop(self, reason: str) -> None:
        """The game stopped with the accusation held last: its reason waits with it (the
        first one stays)."""
        if self.held and self.held[-1].stop is None:
            self.held[-1] = replace(self.held[-1], stop=reason)

    def recheck(self, now: float) -> Out:
        """Release what is proven, drop what a fork proof explains."""
        out = Out()
        if not self.held:
            return out
        if self.proven:
            self.held.clear()       # the proof names the equivocator: the rest followed
            return out
        keep = []
        for h in self.held:
            verdict = self.judge(h.seat, h.need)
            late = now - h.since > self.timing.step_deadline
            if verdict is True:
                out.add(self._release(h, ""))
            elif late and self.snaps[h.seat].get(h.need) is not None:
                out.add(self._release(h, Msg(N_(" ({who}'s heartbeats show messages that "
                                                "differ from ours or that we never got, and it "
                                                "did not show them within {secs} s)"),
                                             who=self.names.seat(h.seat),
                                             secs=f"{self.timing.step_deadline:.0f}")))
            elif now - h.since > 2 * self.timing.step_deadline:
                continue            # it never spoke again: nobody to name
            else:
                keep.append(h)
        self.held = keep
        return out

    def _release(self, h: Held, why: str) -> Out:
        out = Out()
        for note in h.notes:
            out.alerts.append(Note(note.kind, Joined("", [note.text, why]), note.seat, note.key,
                                   proof=True))
        if h.stop is not None:
            if self.table.status == "stopped":
                out.verdict(Joined("", [h.stop, why]))
            else:
                out.halt(Joined("", [h.stop, why]))
        return out
