"""Liveness: who is there, silent, back, away for now or finished, and how long a stall
may last.

A peer silent ``Timing.disconnected`` (2 s) is shown as disconnected ("waiting for Bo
(disconnected 12 s)") and "Bo is back" when it speaks again.  A seat silent past the
stall time (``Timing.timeout``, 180 s, ``--stall-timeout``) stalls the game no longer:
with 3-5 players it can be handed to a bot (handoff.py), and the waiting text counts
down to that moment; with 2 players, or when every other seat is away, the game is
paused ("… rejoin to continue") instead of waiting forever.

A peer that is done says so (``ctl/fin``, and the ``finished`` flag of its heartbeats),
but a finish is believed only once our own game has ended too (over or stopped): a seat
still playing that claims to be done and goes silent would otherwise switch every clock
off.  A peer that leaves for now says so too (``ctl/bye``): from then on its silence is
not a disconnection and the game waits for it to rejoin — up to the stall time, like any
other absence.

The stall clock of a seat starts at its first silence and is not reset by a heartbeat
alone: only ``Timing.steady`` seconds of presence without a gap clear it.  Heartbeats
prove that a process runs, not that it does its part, so a seat that speaks once every
few seconds (flapping between disconnected and back) is as stalled as a silent one.
Presence notices ("is back", "left for now") are rate-limited per seat (a few, then one
per ``NOTICE_GAP``), so a flapping seat cannot flood the others' screens.

Our own clock jumping (a suspended laptop, a stopped process) is not the others' silence:
when two checks are further apart than ``JUMP`` the time in between is not counted, and
we ask for what we missed before judging anyone.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from typing import TYPE_CHECKING

from .effects import Names, Out
from .limits import TokenBucket
from .msgs import N_, Joined, Msg

if TYPE_CHECKING:
    from .config import Timing
    from .dispatch import Dispatcher

JUMP = 4.0       # s between two checks (normally ≤ 0.1 s): our process was not running
# presence notices per seat: a few at once, then one per NOTICE_GAP s
NOTICE_BURST, NOTICE_GAP = 4.0, 30.0


def clock(seconds: float) -> str:
    """180 -> '3:00'"""
    s = max(0, int(seconds + 0.999))
    return f"{s // 60}:{s % 60:02d}"


def rejoin_hint() -> str:
    return Msg(N_("`belfort rejoin` on each machine continues it where it stopped"))


class Liveness:
    def __init__(self, n: int, seat: int, names: Names, timing: Timing, kinds: Iterable[str],
                 now: float = 0.0,
                 game_ended: Callable[[], bool] = lambda: True) -> None:
        """``game_ended()``: our own game is over or stopped (a finish can be believed)."""
        self.n, self.seat, self.names, self.timing, self.kinds = n, seat, names, timing, list(kinds)
        self._game_ended = game_ended
        self.last_seen = [now] * n
        self.connected = [True] * n
        self.claims_finished = [False] * n
        self.left_of = [False] * n          # said it leaves for now (ctl/bye)
        # the stall clock: since when each seat has been away (None: present, steadily);
        # when it last came back after a silence
        self.away_since: list[float | None] = [None] * n
        self.back_at = [now] * n
        self._notices = TokenBucket(1.0 / NOTICE_GAP, NOTICE_BURST)
        # heard from since our (re)start: a finished peer stays for a seat it heard that
        # has not finished, but not for one that may have finished and left while we were
        # away (view.TableView.may_leave)
        self.heard = [False] * n
        self.last_check = now

    def register(self, dispatch: Dispatcher) -> None:
        dispatch.on_control("ctl/hb", self.on_heartbeat)
        dispatch.on_control("ctl/fin", self.on_finished)
        dispatch.on_control("ctl/bye", self.on_bye)

    def reset(self, now: float) -> None:
        """After a (re)start: nobody has been silent yet."""
        self.last_seen = [now] * self.n
        self.heard = [False] * self.n
        self.away_since = [None] * self.n
        self.back_at = [now] * self.n
        self.last_check = now

    @property
    def finished_of(self) -> list[bool]:
        """Each seat said it finished, and our game has ended too (else it is not done)."""
        if not self._game_ended():
            return [False] * self.n
        return list(self.claims_finished)

    def _notice(self, seat: int, now: float) -> bool:
        """A presence notice about ``seat`` may be shown now (rate-limited per seat)."""
        return self._notices.allow(seat, now)

    def seen(self, seat: int, now: float) -> Out | None:
        """A frame of ``seat`` came: the alert that it is back, if it was away (None, the
        usual answer, for nothing: asked on every frame)."""
        self.last_seen[seat] = max(self.last_seen[seat], now)
        self.heard[seat] = True
        was_left, self.left_of[seat] = self.left_of[seat], False
        if self.connected[seat] and not was_left:
            return None
        self.connected[seat] = True
        self.back_at[seat] = now
        if not self._notice(seat, now):
            return None
        return Out().alert("reconnect", Msg(N_("{name} is back"), name=self.names[seat]), seat)

    def on_heartbeat(self, seat: int, body: dict, now: float) -> Out:
        self.claims_finished[seat] = bool(body.get("finished"))
        return Out()

    def on_finished(self, seat: int, body: dict, now: float) -> Out:
        self.claims_finished[seat] = True
        return Out()

    def on_bye(self, seat: int, body: dict, now: float) -> Out:
        """The seat's player left for now (the window asked): the game waits for them."""
        self.left_of[seat] = True
        self.connected[seat] = False
        if self.away_since[seat] is None:
            self.away_since[seat] = now
        if not self._notice(seat, now):
            return Out()
        return Out().alert("info", Msg(N_("{name} left the game for now; it goes on when "
                                          "they rejoin ({hint})"),
                                       name=self.names[seat], hint=rejoin_hint()), seat)

    def check(self, now: float, handed: Collection[int]) -> Out:
        """Disconnections: a seat silent too long (not one that finished, left for now or
        is a bot's).  After a jump of our own clock nobody is judged: the gap is not
        their silence, and we ask everyone for what we missed."""
        out = Out()
        gap, woke = now - self.last_check, self.woke(now)
        self.last_check = now
        if woke:
            self.last_seen = [min(now, t + gap) for t in self.last_seen]
            self.away_since = [None if t is None else min(now, t + gap) for t in self.away_since]
            self.back_at = [min(now, t + gap) for t in self.back_at]
            out.need_sync = True
            return out
        finished = self.finished_of
        for s in range(self.n):
            if s == self.seat:
                continue
            if self.connected[s] and now - self.last_seen[s] > self.timing.disconnected:
                self.connected[s] = False
                if self.away_since[s] is None:
                    self.away_since[s] = self.last_seen[s]
                if not finished[s] and s not in handed:
                    out.alert("disconnect", Msg(N_("{name} disconnected"), name=self.names[s]), s)
            elif self.connected[s] and self.away_since[s] is not None \
                    and now - self.back_at[s] >= self.timing.steady:
                self.away_since[s] = None         # present long enough: the stall is over
        return out

    def silent(self, seat: int, now: float) -> float:
        """How long since ``seat`` was last heard (its presence, not its stall)."""
        return now - self.last_seen[seat]

    def quiet(self, seat: int, now: float) -> float:
        """How long ``seat`` has stalled: since its first silence not followed by steady
        presence (a heartbeat now and then does not reset it), else since last heard."""
        since = self.away_since[seat]
        return now - (since if since is not None else self.last_seen[seat])

    def stalled(self, seat: int, now: float) -> float:
        """How long ``seat`` has stalled the game, counted only while it is not here now:
        a seat that is back is given its chance (its stall clock goes on until it stays),
        one that flaps is judged at its next silence."""
        return self.quiet(seat, now) if not self.connected[seat] else 0.0

    def absent(self, seat: int) -> bool:
        """Not steadily here: disconnected, left for now, or back only in between silences."""
        return not self.connected[seat] or self.left_of[seat] or self.away_since[seat] is not None

    def woke(self, now: float) -> bool:
        """Our clock jumped since the last check: judge nobody before the next one."""
        return now - self.last_check > JUMP

    def away(self, seat: int, now: float) -> bool:
        """Left for now, or stalled past the stall time."""
        return self.left_of[seat] or (not self.finished_of[seat] and not self.woke(now)
                                      and self.stalled(seat, now) > self.timing.timeout)

    def abandoned(self, now: float, handed: Collection[int]) -> bool:
        """Every other peer has been silent past the stall time: nobody is left to play with."""
        return not self.woke(now) and all(
            self.quiet(s, now) > self.timing.timeout for s in range(self.n)
            if s != self.seat and s not in handed)

    def pause_reason(self, now: float, handed: Collection[int], bot: bool = False,
                     can_hand: bool = False) -> str | None:
        """Why the game is paused now, or None (``can_hand``: a seat can still be handed to
        a bot, which the text then offers): every other seat is away (with 2 players:
        the other one); two or more seats away (a handoff needs every other seat's vote
        and share, so neither can be handed over); or, for a bot peer, every person."""
        finished = self.finished_of
        others = [s for s in range(self.n) if s != self.seat and s not in handed
                  and not finished[s]]
        people = [s for s in others if self.kinds[s] != "bot"]
        away = [s for s in others if self.away(s, now)]
        if not others:
            return None
        if away != others and len(away) < 2:
            if not (bot and people and all(s in away for s in people)):
                return None
            away = people
        who = []
        for s in away:
            if self.left_of[s]:
                who.append(Msg(N_("{name} left for now"), name=self.names[s]))
            else:
                who.append(Msg(N_("{name} has been away {time}"), name=self.names[s],
                               time=clock(self.quiet(s, now))))
        if can_hand:
            # a seat whose files are gone can never rejoin: say what is left to do then
            return Msg(N_("The game is paused: {who}. Quit when you like; {hint}. A player "
                          "who cannot come back (their game's files are lost) can be handed "
                          "to a bot: handoff NAME."), who=Joined(", ", who), hint=rejoin_hint())
        return Msg(N_("The game is paused: {who}. Quit when you like; {hint}."),
                   who=Joined(", ", who), hint=rejoin_hint())

    def waiting_text(self, seats: Iterable[int], now: float, handed: Collection[int],
                     handoff_in: Callable[[int], float | None] | None = None,
                     paused: bool = False) -> str:
        """E.g. "waiting for Bo (disconnected 12 s) — handoff possible in 2:48".
        ``handoff_in(seat)``: seconds until the seat may be handed to a bot (0: now), or
        None when it cannot be (2 players: the game is paused instead).  ``paused``: the
        caller says why the game is paused right after, so it is not said here too."""
        if not seats:
            return ""
        parts: list[Msg | str] = []
        notes = []
        for s in seats:
            if s == self.seat:
                parts.append(Msg(N_("you")))
                continue
            if s in handed:
                parts.append(Msg(N_("{name} (bot)"), name=self.names[s]))
                continue
            if self.left_of[s]:
                parts.append(Msg(N_("{name} (left for now, {secs} s)"), name=self.names[s],
                                 secs=f"{self.quiet(s, now):.0f}"))
            elif self.absent(s):
                parts.append(Msg(N_("{name} (disconnected {secs} s)"), name=self.names[s],
                                 secs=f"{self.quiet(s, now):.0f}"))
            else:
                parts.append(self.names[s])
                continue
            left = handoff_in(s) if handoff_in is not None else None
            if left is None:
                rest = self.timing.timeout - self.quiet(s, now)
                if rest > 0 and not self.left_of[s]:
                    notes.append(Msg(N_("paused in {time}"), time=clock(rest)))
                elif not paused:
                    notes.append(Msg(N_("the game is paused")))
            elif left <= 0:
                notes.append(Msg(N_("{name}'s seat can be handed to a bot: handoff {seat}"),
                                 name=self.names[s], seat=s))
            else:
                notes.append(Msg(N_("handoff possible in {time}"), time=clock(left)))
        if not notes:
            return Msg(N_("waiting for {who}"), who=Joined(", ", parts))
        return Msg(N_("waiting for {who} — {notes}"), who=Joined(", ", parts),
                   notes=Joined("; ", notes))

    def states(self, now: float, handed: Collection[int]) -> list[dict]:
        out, finished = [], self.finished_of
        for s in range(self.n):
            if s == self.seat:
                state = "here"
            elif s in handed:
                state = "bot"
            elif self.left_of[s]:
                state = "paused"
            elif finished[s] and not self.connected[s]:
                state = "left"
            elif self.connected[s]:
                state = "connected"
            else:
                state = "disconnected"
            out.append({"seat": s, "name": self.names[s],
                        "kind": "you" if s == self.seat else self.kinds[s], "state": state,
                        "quiet": 0.0 if s == self.seat else round(self.quiet(s, now), 1)})
        return out
