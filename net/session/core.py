"""The lockstep session of one peer, independent of any transport.

``SessionPeer`` consumes frames (bytes) with ``receive`` and local decisions with
``submit``, and produces frames to send in ``outbox`` as ``(dest, bytes)`` pairs
(``dest`` None = every other peer).  ``tick(now)`` drives heartbeats and time-outs.
It never reads a clock or a socket itself, so an in-memory network (tests, the
benchmark) and the ZeroMQ mesh drive exactly the same code.

Determinism: the state (engine, decks, rounds) is a pure function of the ordered
inputs — accepted envelopes and local decisions — and the peer's master secret
(see derive.py).  That is what makes rejoin work: replaying the log rebuilds the
same state and re-creates byte-identical outgoing messages.

The peer is the coordinator of parts (made with their collaborators in parts.py) that
each do one job and *return* what they produce (effects.Out: envelopes, frames, alerts,
engine changes, a reason to stop); the peer carries each Out out in order (``_apply``),
and a part whose next step depends on the last one yields them one at a time
(effects.Steps, ``_run``).  The parts, each with its one job and its entry points:
docs/network.md, "The parts of a session".

Message types are routed through a table the parts register into (dispatch.py).
Types, fields and rules: docs/network.md.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from belfort.undo import UndoRefused

from net.alerts import Alert
from net.crypto import Identity

from .catchup import replay
from .config import GameConfig, Timing
from .derive import derive_bytes
from .effects import Note, Out, Refused, Steps
from .msglog import LogWriteError, RecordStore, log_problem, logged
from .msgs import N_, Msg
from .parts import SessionParts
from .table import OVER, PLAYING, SETUP, STOPPED

log = logging.getLogger("belfort.session")

REPLAYED_KEPT = 400        # events of a rejoin's replay kept for the window's recap

T = TypeVar("T")

__all__ = ["SessionPeer", "Refused", "SETUP", "PLAYING", "OVER", "STOPPED"]


class SessionPeer(SessionParts):
    def __init__(self, config: GameConfig, seat: int, identity: Identity, master: bytes, *,
                 store: RecordStore | None = None, timing: Timing | None = None,
                 now: float = 0.0, clock: Callable[[], float] | None = None,
                 wall_ns: Callable[[], int] | None = None, number: int = 1) -> None:
        """``clock()``: seconds, to time our commands (benchmarks); ``wall_ns()``: the wall
        clock in ns, which numbers our chat lines across restarts (none: from 1).  The
        session reads no clock itself: every other time is the ``now`` it is given.
        ``number``: this game's number in the evening at one table (evening.py)."""
        super().__init__(config, seat, identity, master, store=store, timing=timing, now=now,
                         clock=clock, wall_ns=wall_ns, number=number)
        # what leaves the session
        self.outbox: list[tuple[int | None, bytes]] = []
        # our envelopes leave through this at once when set (transmit_with), else outbox
        self.transmit: Callable[[int | None, bytes], None] | None = None
        self.events: list = []     # engine events, for the UI
        self.replayed_events: list = []   # those of our log's replay (a rejoin), for a recap
        self.alerts: list[Alert] = self.alerting.shown
        self.restore_problems: list[str] = []
        self.started = False
        self._fin_sent = False
        self.log_failed: str | None = None        # why our log cannot be written: stopped

    def configure_handoff(self, **settings: Any) -> None:
        """Handoff settings: ``auto`` (vote by itself after this many s of silence, or
        None), ``follow`` (agree to a proposal by itself), ``level``/``think`` (the bot a
        handed seat gets)."""
        self.handoffs.configure(**settings)

    # ================================================================ entry points
    @logged()
    def start(self, now: float = 0.0) -> None:
        """Begin the game: commit to our share of the shared seed."""
        if self.started:
            return
        self.started = True
        self._apply(self.escrow.start(), now)
        self._emit(self.own.commit("seed", derive_bytes(self.master, "seed-share")))
        self._settle()

    @logged()
    def receive(self, data: bytes, now: float = 0.0, src: int | None = None) -> None:
        """One frame from the network.  ``src``: the seat the transport knows sent it
        (its CurveZMQ key), or None.  Never raises for anything the frame holds."""
        try:
            self._run(self.pump.receive(data, now, src), now)
        except Refused as exc:
            self._alert(exc.kind, exc.text, exc.seat, now, key=(exc.kind, exc.seat, exc.text[:40]))
        except LogWriteError:
            raise             # not the frame's fault: this peer stops (_logged)
        except Exception as exc:  # a bug must not let a frame crash the peer
            log.exception("unexpected error on a received frame")
            self._alert("error", Msg(N_("internal error on a message ({error})"),
                                     error=f"{type(exc).__name__}: {exc}"), src, now)
        if self.catchup.catching_up:
            self._run(self.ticker.caught_up(now), now)
        self._after_input()

    def confirm(self, now: float = 0.0) -> None:
        """Check the signatures of the commands a frame's own connection vouched for (they
        are in the game already) and log them.  Every entry point does it first; the node
        does it right after a frame, once the other peers on its cores had their turn."""
        if self.intake.unconfirmed:
            self._confirmed()

    @logged()
    def _confirmed(self) -> None:
        """(``logged`` confirms before any entry point, and stops us if the log fails)"""

    def _confirm(self) -> None:
        """Before anything leaves us or any entry point runs: a record is on disk before
        anything it allows is sent (msglog.LogWriteError)."""
        if self.intake.unconfirmed:
            self._apply(self.intake.confirm())

    @logged(empty=[])
    def submit(self, command: object, now: float = 0.0) -> list:
        """Our seat's decision.  Raises belfort.CommandSyntaxError/IllegalCommandError,
        or RuntimeError when no decision of ours is awaited."""
        if not self.decision_needed():
            raise RuntimeError("no decision of ours is awaited now")
        events = self._run(self.decisions.decide(command, now))
        # what the others sent while we decided may be waiting for this very decision
        self._pump(now)
        self._after_input()
        return events

    @logged()
    def take_back(self, now: float = 0.0) -> tuple:
        """Take back our last action (takeback.py): a signed ``sess/undo`` to everyone, and
        the state before that action here.  Returns the command taken back; raises
        belfort.undo.UndoRefused (with the reason, changing nothing) when it is not allowed."""
        why = self.undo_refusal()
        if why is not None:
            raise UndoRefused(why)
        cmd = self._run(self.decisions.undo())
        self._pump(now)
        self._after_input()
        return cmd

    @logged()
    def tick(self, now: float) -> None:
        """Heartbeats, connection state and time-outs (ticker.py)."""
        if self._run(self.ticker.tick(now, self._answer_handoffs), now):
            self._after_input()

    def transmit_with(self, send: Callable[[int | None, bytes], None] | None) -> None:
        """Our envelopes leave through ``send(dest, bytes)`` as soon as they are signed
        (the mesh), or, None, through ``outbox`` (one thread owns the sockets)."""
        self.transmit = send

    def take_outgoing(self) -> list[tuple[int | None, bytes]]:
        out, self.outbox = self.outbox, []
        return out

    def take_events(self) -> list:
        out, self.events = self.events, []
        return out

    # ================================================================ a rejoin
    def restore(self, records: Iterable[tuple], now: float = 0.0) -> None:
        """Rebuild the state from our own log (rejoin): the same inputs in the same
        order give the same state and the same outgoing envelopes.  ``records`` are
        ``(kind, payload[, checked])``: ``checked`` True = the record passed the log's
        integrity check (its envelope is not verified again), False = it failed it (an
        envelope is verified in full; a decision of ours ends the replay there)."""
        self.log.replay(True)
        try:
            # (the take-back log is made anew with the game: its last step read each time)
            replay(self, records, now, lambda: self.table.undo.stack.last_tag(),
                   self.restore_problems)
        finally:
            self.log.replay(False)
        if self.ghost is not None:
            self.ghost.resume()
        self.outbox = []
        # the window opens after the replay: it shows the latest of these as a recap
        self.replayed_events, self.events = self.events[-REPLAYED_KEPT:], []

    @logged()
    def announce(self, now: float = 0.0) -> None:
        """After a (re)start: tell everyone what we have so they fill our gaps.  Until
        every other peer has answered (or ``Timing.catch_up`` passed) and we hold every
        envelope of ours they hold, we make no new decision: ours from before the crash
        may be among what they send."""
        self.catchup.announce(now)
        self._apply(self.settle.sync_hold())
        self._apply(self.resync.heartbeat(None, need=True))
        self._run(self.ticker.caught_up(now), now)

    # ================================================================ the person, the table
    def leaving(self, now: float) -> None:
        """We leave the finished game now: say what a seat that did not finish can do."""
        note = self.view.farewell(now)
        if note is not None:
            self._alert("info", note, None, now)

    def leave_for_now(self, now: float = 0.0) -> None:
        """The person leaves the game for now (the window asked): tell the others, so they
        show us paused rather than disconnected, and wait for our rejoin."""
        if self.finished:
            return
        self._apply(self.resync.leave_notice(), now)

    @logged()
    def handoff(self, seat: int, now: float = 0.0) -> None:
        """Vote to hand ``seat`` (silent past the time-out) to a bot.  Raises
        handoff.HandoffError with the reason when it cannot be proposed."""
        quiet = self.liveness.stalled(seat, now) if isinstance(seat, int) and 0 <= seat < self.n \
            else 0.0
        self.handoffs.check_proposal(seat, quiet)
        self._vote(seat, now)

    @logged()
    def leave_for_good(self, now: float = 0.0) -> None:
        """The person leaves the game for good (departure.py): a signed ``sess/leave``.
        Raises departure.LeaveRefused with the reason when it is not possible now."""
        self._apply(self.departure.leave(), now)
        self.settle.touch()
        self._pump(now)
        self._after_input()

    def again_answer(self, yes: bool, now: float = 0.0) -> None:
        """Our answer about another game at this table once this one is over (evening.py)."""
        self._apply(self.again.answer(yes, now), now)

    def say(self, text: str, now: float = 0.0) -> None:
        """A chat line to the table (``say TEXT``); raises chat.ChatError if empty."""
        self._apply(self.chat.say(text), now)

    def _answer_handoffs(self, now: float) -> None:
        """Our yes or no to each open handoff attempt (a test's cheater replaces this)."""
        self._run(self.ticker.answers(now), now)

    def _vote(self, seat: int, now: float, why: str = "") -> None:
        self._run(self.ticker.vote(seat, now, why), now)

    def _object(self, seat: int, vote: bytes, proof: bytes, now: float) -> None:
        self._run(self.ticker.object(seat, vote, proof, now), now)

    # ================================================================ carrying out an Out
    def _accept(self, data: bytes, now: float, src: int | None, relayed: bool,
                opened: dict | None = None, trusted: bool = False,
                decoded: tuple | None = None) -> None:
        """An envelope in through the pump's door (a replay of our log uses it too)."""
        self._run(self.pump.accept(data, now, src, relayed, opened, trusted, decoded), now)

    def _catch_up(self, now: float) -> bool:
        if not self.decisions.catching_up():
            self._apply(self.settle.sync_hold())
            return False
        # (carried out without a time, as our own moves are: decide.py)
        return self._run(self.decisions.catch_up(now))

    def _pump(self, now: float) -> None:
        self._run(self.pump.pump(now), now)

    def _settle(self) -> bool:
        return self.settle.dirty and self._run(self.settle.settle())

    def _run(self, steps: Steps[T], now: float = 0.0) -> T:
        """Carry out each step a part yields, in order, before it takes the next (effects.py
        ``Steps``): what carrying one out raises is raised in the part at that step."""
        send, apply = steps.send, self._apply
        try:
            out = next(steps)
            while True:
                try:
                    held = apply(out, now) if out is not None else False
                except Exception as exc:
                    out = steps.throw(exc)
                else:
                    out = send(held)
        except StopIteration as done:
            return done.value

    def _apply(self, out: Out | None, now: float = 0.0) -> bool:
        """Carry out what a part returned; True if it held anything."""
        if not out:
            return False
        # first: the part found the real cause of a stop before anything else followed
        for text, over in out.verdicts:
            self.table.refine(text, over)
        for env in out.send:
            self._emit(env)
        for env in out.hosted:
            self._send(self._run(self.outgoing.hosted(env), now))
        if out.frames:
            self._confirm()
            self.outbox.extend(out.frames)
        for events in out.changes:
            self._run(self.settle.changed(events))
        self.events.extend(out.events)
        held = self.alerting.held
        for note in out.alerts:
            self._apply(self.alerting.alert(note, now), now)
        if out.stop is not None:
            self.events.extend(self.alerting.stop(out.stop, held))
        if out.need_sync:        # we lack envelopes (a gap, a clock jump, dropped ones): ask
            self._confirm()
            self.outbox.extend(self.resync.heartbeat(None, need=True).frames)
        for seat, text, why in out.departs:
            self._apply(self.handoffs.depart(seat, text, why, self.log.replaying), now)
        return True

    def _alert(self, kind: str, text: str, seat: int | None = None, now: float = 0.0,
               key: tuple | None = None) -> None:
        self._apply(self.alerting.alert(Note(kind, text, seat, key), now), now)

    def _emit(self, env: dict) -> None:
        """One of our envelopes: logged, seen by our own parts, sent (outgoing.py)."""
        data, body, differs = self.outgoing.keep(env)
        self._apply(differs)
        self.outgoing.seen(body)
        self._send(data)

    def _send(self, data: bytes) -> None:
        self._confirm()        # what it answers is on disk before it leaves (msglog.py)
        if not self.log.replaying:
            if self.transmit is not None:
                self.transmit(None, data)
            else:
                self.outbox.append((None, data))

    def _after_input(self) -> None:
        """Once finished, say so at once: the others stop expecting us."""
        if not self._fin_sent and self.finished and not self.log.replaying:
            self._fin_sent = True
            self._confirm()      # the notice's counts and tips are of what our log holds
            self._apply(self.resync.finished_notice())

    def _log_broken(self, exc: LogWriteError) -> None:
        """Our log cannot be written: stop playing here.  Nobody is named — every record
        before it is on disk and nothing that needed it was counted or sent — and the
        others are told we left for now, so they wait for our rejoin without alarm."""
        self.log_failed = log_problem(exc)
        self._alert("error", self.log_failed, None)
        self._apply(self.resync.leave_notice())

