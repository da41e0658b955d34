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

The peer is the coordinator of parts that each do one job and *return* what they
produce (effects.Out: envelopes, frames, alerts, engine changes, a reason to stop):

    intake.Intake        frame -> checked envelope -> per-seat queue
    msglog.MessageLog    every envelope held, and the disk log
    table.GameTable      the engine state, status, and where each card is in the deck
    seat.SeatActor       our seat's part: deck secrets, releases, opens, commit-reveal
    deckwork.DeckWork    deck messages, epochs, keys owed, reveals
    rounds.Rounds        commit-reveal rounds (seed, simultaneous decisions)
    commands.Commands    sess/cmd checked and applied
    desync.DesyncCheck   phase hashes and views
    audit.AuditCheck     the end-of-game deck verdict
    escrow.Escrow / handoff.Handoff / botseat.BotSeat    a departed seat to a bot
    liveness.Liveness    who is there; resync.Resync   heartbeats and gap filling
    waits.Waits          who the table waits for: every obligation's clock and consequence
    departure.Departure / evening.Again    leaving for good; another game at this table

Message types are routed through a table the parts register into (dispatch.py).
Types, fields and rules: docs/network.md.
"""

from __future__ import annotations

import errno
import functools
import logging
from collections.abc import Callable, Iterable
from typing import Any

import belfort
from belfort.events import named as named_event
from belfort.undo import Refusal, UndoRefused

from net.alerts import Alert
from net.crypto import (CheatingError, CommitRevealRound, Identity, ProtocolError, Signer,
                        encode_envelope, shared_seed, wire)

from .audit import AuditCheck
from .catchup import CatchUp, replay_steps
from .chat import Chat
from .commands import Commands, plain, show, tuples
from .config import GameConfig, Timing
from .deckwork import DeckWork
from .departure import LEFT_FOR_GOOD, Departure, LeaveRefused
from .dispute import Dispute, is_decode_problem
from .doubt import ACCUSING, Doubt
from .forks import Forks
from .derive import derive_bytes
from .desync import DesyncCheck
from .dispatch import Dispatcher
from .effects import Names, Note, Out, Refused
from .escrow import Escrow
from .evening import Again
from .handoff import Handoff, HandoffError
from .intake import Intake, peek_decoded
from .liveness import Liveness
from .msglog import LogWriteError, MessageLog, RecordStore
from .msgs import N_, Msg
from .resync import Resync
from .rounds import Rounds
from .seat import SeatActor
from .table import OVER, PLAYING, SETUP, STOPPED, GameTable
from .takeback import CATCHING_UP, SessionRefusal, TakeBack
from .view import TableView
from .waits import TableWaits

log = logging.getLogger("belfort.session")

REPLAYED_KEPT = 400        # events of a rejoin's replay kept for the window's recap

HELD_STOP = Msg(N_("a message was refused; the game is stopped while the peers check that "
                   "everyone holds the same messages (nobody is named yet)"))

LOG_FULL = N_("the disk is full: this game's log ({file}) cannot be written, so this machine "
             "stops playing for now (nobody did anything wrong; the others wait for it). Free "
             "some space and run `belfort rejoin`: the game goes on from where it stopped")
LOG_BROKEN = N_("this game's log ({file}) cannot be written ({error}), so this machine stops "
                "playing for now (nobody did anything wrong; the others wait for it). Once "
                "that is fixed, run `belfort rejoin`: the game goes on from where it stopped")

__all__ = ["SessionPeer", "Refused", "SETUP", "PLAYING", "OVER", "STOPPED"]


def log_problem(exc: LogWriteError) -> str:
    """What the person is told when the game's log cannot be written."""
    if getattr(exc.error, "errno", None) in (errno.ENOSPC, errno.EDQUOT):
        return Msg(LOG_FULL, file=str(exc.path))
    return Msg(LOG_BROKEN, file=str(exc.path),
               error=getattr(exc.error, "strerror", None) or str(exc.error))


def _logged(empty=None):
    """An entry point whose work may need a record of the game log: if that record cannot
    be written (a full disk), this peer stops playing (``log_failed``) rather than go on
    from a state its log does not hold; from then on the entry point does nothing."""
    def wrap(method):
        @functools.wraps(method)
        def guarded(self, *args, **kwargs):
            if self.log_failed is not None:
                return empty
            try:
                return method(self, *args, **kwargs)
            except LogWriteError as exc:
                self._log_broken(exc)
                return empty
        return guarded
    return wrap


def _judging(method):
    """What ``method`` finds against a seat rests on our game state: its accusations are
    held until that seat's claims show it held what we hold (doubt.py, ``_alert``)."""
    @functools.wraps(method)
    def judged(self, *args):
        self._judging_depth += 1
        try:
            return method(self, *args)
        finally:
            self._judging_depth -= 1
    return judged


class SessionPeer:
    def __init__(self, config: GameConfig, seat: int, identity: Identity, master: bytes, *,
                 store: RecordStore | None = None, timing: Timing | None = None,
                 now: float = 0.0, clock: Callable[[], float] | None = None,
                 wall_ns: Callable[[], int] | None = None, number: int = 1) -> None:
        """``clock()``: seconds, to time our commands (benchmarks); ``wall_ns()``: the wall
        clock in ns, which numbers our chat lines across restarts (none: from 1).  The
        session reads no clock itself: every other time is the ``now`` it is given.
        ``number``: this game's number in the evening at one table (evening.py)."""
        if not 0 <= seat < config.n:
            raise ValueError("seat out of range")
        if identity.public_bytes != config.keys[seat]:
            raise ValueError("this identity is not the one the roster has for this seat")
        self.cfg, self.n, self.seat, self.names = config, config.n, seat, list(config.names)
        self.identity, self.master, self.clock = identity, master, clock
        self.timing = timing or Timing()
        self.signer = Signer(identity, config.game_id, seat)
        who = self.who = Names(config.names)
        # the parts (see the module docstring): each gets its collaborators here, a part
        # made later through a lambda, so nothing is wired into a part after it is made
        self.log = MessageLog(self.n, seat, store)
        self.own = SeatActor(self.signer, self.n, master, config.ruleset().cards_per_type)
        self.table = GameTable(config, seat, self.own.decks, clock)
        self.ruleset = self.table.ruleset

        def stopped() -> bool:
            return self.table.status == STOPPED
        self.forks = Forks(config, identity, seat, who, self.table)
        self.intake = Intake(config, seat, self.log, who, stopped=stopped, found=self.forks.found,
                             beyond_cut=lambda s, q: self.handoffs.beyond_cut(s, q),
                             below_cut=lambda s, q: self.handoffs.below_cut(s, q),
                             is_handed=lambda s: self.handoffs.is_handed(s))
        self.rounds = Rounds(config.game_id, self.n, who, self.table)
        self.commands = Commands(self.table, who)
        self.takebacks = TakeBack(self.table, who)
        self.doubt = Doubt(self.n, seat, self.log, who, self.timing, self.table, self.forks.proven)
        self.hashes = DesyncCheck(self.signer, self.n, who, timing=self.timing,
                                  confirmed=lambda s, need: self.doubt.judge(s, need) is True,
                                  stopped=stopped, proven=self.forks.proven,
                                  provisional=("DESYNC", HELD_STOP))
        self.audit = AuditCheck(self.table)
        self.escrow = Escrow(self.signer, identity, self.n, master, who)
        self.handoffs = Handoff(config, self.signer, identity, who, self.timing, log=self.log,
                                intake=self.intake, table=self.table, escrow=self.escrow,
                                rounds=self.rounds, commands=self.commands, hashes=self.hashes)
        self.departure = Departure(self.signer, who, table=self.table, log=self.log,
                                   escrow=self.escrow, handoffs=self.handoffs,
                                   steps=lambda: len(self.table.undo.steps))
        self.deckwork = DeckWork(self.table, self.own, who, self.handoffs,
                                 dispute=lambda epoch, problem: self.dispute.start(epoch, problem))
        self.dispute = Dispute(self.table, self.own, who, self.deckwork)
        self.resync = Resync(config, identity, self.log, self.intake, who, self.timing,
                             lambda: self.finished, now)
        self.liveness = Liveness(self.n, seat, who, self.timing, config.kinds, now,
                                 game_ended=lambda: self.table.status in (OVER, STOPPED))
        self.catchup = CatchUp(self.log, self.own, self.table, self.rounds, self.hashes,
                               self.escrow, self.handoffs, master)
        self._held = False            # holding back new envelopes (catchup.py)
        self._judging_depth = 0       # > 0: in _pump/_settle (accusations are held)
        self._held_count = 0
        self.dispatch = Dispatcher()
        self.waits = TableWaits(self.n, seat, who, self.timing, table=self.table,
                                rounds=self.rounds, intake=self.intake,
                                ready=self.dispatch.ready, handoffs=self.handoffs,
                                dispute=self.dispute, liveness=self.liveness,
                                agrees=self.doubt.agrees)
        self.chat = Chat(identity, config.game_id, seat, who, clock_ns=wall_ns)
        self.again = Again(identity, config.game_id, seat, who, number)
        for part in (self.deckwork, self.dispute, self.rounds, self.commands, self.takebacks,
                     self.hashes, self.escrow, self.handoffs, self.resync, self.liveness,
                     self.chat, self.forks, self.doubt, self.departure, self.again):
            part.register(self.dispatch)
        # what leaves the session
        self.outbox: list[tuple[int | None, bytes]] = []
        self.transmit = None       # optional callable(dest, bytes): send our envelopes at once
        self.events: list = []     # engine events, for the UI
        self.replayed_events: list = []   # those of our log's replay (a rejoin), for a recap
        self.alerts: list[Alert] = []
        self._alert_last: dict[tuple, float] = {}
        self.sent_times: dict[tuple[int, int], float] = {}    # our commands: when sent
        self.restore_problems: list[str] = []
        self.started = False
        self._dirty = True
        self._fin_sent = False
        self.catching_up = False      # rejoined: waiting to learn what the others hold of ours
        self._announced = 0.0
        self.rejoined_at: float | None = None     # announce(): we (re)joined a running game
        self.view = TableView(config, seat, self.timing, table=self.table, rounds=self.rounds,
                              audit=self.audit, liveness=self.liveness, handoffs=self.handoffs,
                              escrow=self.escrow, resync=self.resync,
                              finished=lambda: self.finished,
                              rejoined_at=lambda: self.rejoined_at)
        self.log_failed: str | None = None        # why our log cannot be written: stopped

    # ================================================================ state, read-only
    game = property(lambda self: self.table.game)
    seed = property(lambda self: self.table.seed)
    status = property(lambda self: self.table.status)
    stop_reason = property(lambda self: self.table.stop_reason)
    decks = property(lambda self: self.table.decks)
    history = property(lambda self: self.table.history)
    apply_times = property(lambda self: self.table.apply_times)
    t_first_place = property(lambda self: self.table.t_first_place)
    t_over = property(lambda self: self.table.t_over)
    desync = property(lambda self: self.hashes.desync)
    audit_result = property(lambda self: self.audit.result)
    handed = property(lambda self: self.handoffs.handed)
    ghost = property(lambda self: self.handoffs.bot)
    sent = property(lambda self: self.log.sent)
    accepted = property(lambda self: self.log.accepted)
    paused = property(lambda self: self.commands.paused)

    def configure_handoff(self, **settings: Any) -> None:
        """Handoff settings: ``auto`` (vote by itself after this many s of silence, or
        None), ``follow`` (agree to a proposal by itself), ``level``/``think`` (the bot a
        handed seat gets)."""
        self.handoffs.configure(**settings)

    @property
    def finished(self) -> bool:
        """Nothing more to do: the game is over and audited, or stopped — and no accusation
        is still being checked (doubt.py)."""
        if self.handoffs.ours_handed:
            return True           # our seat is a bot's: nothing is ours to do or judge
        if self.doubt.pending or self.dispute.active:
            return False       # a deck dispute is decided before anyone leaves
        return self.status == STOPPED or (self.status == OVER and self.audit.result is not None)

    @property
    def sync_due(self) -> bool:
        return self.log.sync_due

    # ================================================================ the boundary
    @_logged()
    def start(self, now: float = 0.0) -> None:
        """Begin the game: commit to our share of the shared seed."""
        if self.started:
            return
        self.started = True
        self._apply(self.escrow.start(), now)
        self._emit(self.own.commit("seed", derive_bytes(self.master, "seed-share")))
        self._settle()

    @_logged()
    def receive(self, data: bytes, now: float = 0.0, src: int | None = None) -> None:
        """One frame from the network.  ``src``: the seat the transport knows sent it
        (its CurveZMQ key), or None.  Never raises for anything the frame holds."""
        try:
            self._receive(data, now, src)
        except Refused as exc:
            self._alert(exc.kind, exc.text, exc.seat, now, key=(exc.kind, exc.seat, exc.text[:40]))
        except LogWriteError:
            raise             # not the frame's fault: this peer stops (_logged)
        except Exception as exc:  # a bug must not let a frame crash the peer
            log.exception("unexpected error on a received frame")
            self._alert("error", Msg(N_("internal error on a message ({error})"),
                                     error=f"{type(exc).__name__}: {exc}"), src, now)
        self._check_caught_up(now)
        self._after_input()

    @_logged(empty=[])
    def submit(self, command: object, now: float = 0.0) -> list:
        """Our seat's decision.  Raises belfort.CommandSyntaxError/IllegalCommandError,
        or RuntimeError when no decision of ours is awaited."""
        if not self.decision_needed():
            raise RuntimeError("no decision of ours is awaited now")
        events = self._decide(command, now)
        # what the others sent while we decided may be waiting for this very decision
        self._pump(now)
        self._after_input()
        return events

    def _decide(self, command: object, now: float) -> list:
        g = self.table.game
        cmd, seat = belfort.check_legal(g, command, self.seat)
        self._dirty = True
        self.log.record("submit", list(plain(cmd)))
        events: list = []
        if len(g.waiting_for()) > 1:
            self._emit(self.own.commit(self.rounds.sim().purpose, wire.pack(plain(cmd))))
        else:
            for env in self.own.opens(cmd, g, self.table.locate):
                self._emit(env)
            v = g.version
            if self.clock is not None:
                self.sent_times[(seat, v)] = self.clock()
            self._emit(self.own.command(v, cmd, len(self.table.undo.steps)))
            events = self.table.execute(seat, cmd, now)   # checked above: not again
            self._changed(events)
        self._settle()
        return events

    @_logged()
    def take_back(self, now: float = 0.0) -> tuple:
        """Take back our last action (takeback.py): a signed ``sess/undo`` to everyone, and
        the state before that action here.  Returns the command taken back; raises
        belfort.undo.UndoRefused (with the reason, changing nothing) when it is not allowed."""
        why = self.undo_refusal()
        if why is not None:
            raise UndoRefused(why)
        cmd = self._undo()
        self._pump(now)
        self._after_input()
        return cmd

    def _undo(self) -> tuple:
        """Our take-back, once allowed: logged, sent, applied."""
        self._dirty = True
        self.log.record("undo", self.table.undo.stack.last_tag())
        self._emit(self.takebacks.message(self.signer))
        events, cmd = self.takebacks.apply(self.seat)
        self._changed(events)
        self._settle()
        return cmd

    def undo_refusal(self) -> Refusal | None:
        """None when ``take_back`` would work now, else the belfort.undo.Refusal."""
        if self._ours_missing() and not self.log.replaying:
            return SessionRefusal(CATCHING_UP)
        return self.takebacks.refusal(self.seat)

    @property
    def steps(self) -> list:
        """Every step applied, for the complete log: ("cmd", seat, command) and
        ("undo", seat, n), n the index of the command taken back."""
        return self.table.undo.steps

    def decision_needed(self) -> bool:
        """True when our seat must decide now (and knows its whole hand) — not while,
        after a rejoin, the others may still hold a decision of ours that we lost: it is
        then taken from them (``_redo_fetched``), never made again differently."""
        if self._ours_missing() or self.log_failed is not None:
            return False
        return self._may_decide()

    def _ours_missing(self) -> bool:
        """After a rejoin that lost part of our log: the others may hold envelopes of ours
        (decisions, key releases) that we have not made again yet."""
        return self.catching_up or self.log.held_ours() > len(self.log.sent)

    def _may_decide(self) -> bool:
        g = self.table.game
        if g is None or self.status != PLAYING or self.hashes.desync:
            return False
        waiting = g.waiting_for()
        if self.seat not in waiting or not g.known_hand(self.seat) \
                or not self.departure.decides(self.seat):
            return False
        return not (len(waiting) > 1 and f"sim/{g.version}" in self.own.choices)

    @_logged()
    def tick(self, now: float) -> None:
        """Heartbeats, connection state and time-outs."""
        self._check_caught_up(now)
        self._apply(self.resync.tick(now), now)
        self._apply(self.again.tick(now), now)
        woke = self.liveness.check(now, self.handed)
        self._apply(woke, now)
        if woke.need_sync:       # our clock jumped (suspended): we asked for what we missed
            self.waits.asleep()
            return
        self._recheck(now)
        self._check_deadlines(now)
        if not self._ours_missing():
            # (never while the others may hold envelopes of ours we lost: a vote made now
            # would take the sequence number of one of them)
            lv = self.liveness
            for s in self.handoffs.auto_targets(lambda q: lv.stalled(q, now),
                                                lv.finished_of, lv.left_of, now):
                self._vote(s, now)
            for s in self.departure.to_vote():     # a seat that left for good: at once
                self._vote(s, now, LEFT_FOR_GOOD)
            self._answer_handoffs(now)
        if self.ghost is not None:
            self._dirty = True
            self._pump(now)
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

    def restore(self, records: Iterable[tuple], now: float = 0.0) -> None:
        """Rebuild the state from our own log (rejoin): the same inputs in the same
        order give the same state and the same outgoing envelopes.  ``records`` are
        ``(kind, payload[, checked])``: ``checked`` True = the record passed the log's
        integrity check (its envelope is not verified again), False = it failed it (an
        envelope is verified in full; a decision of ours ends the replay there)."""
        self.log.replay(True)
        try:
            self.start(now)
            for step in replay_steps(records):
                if step.kind == "in":
                    try:
                        self._accept(step.payload, now, src=None, relayed=True,
                                     trusted=step.trusted)
                    except Refused as exc:
                        self.restore_problems.append(Msg(N_("a logged message was refused: "
                                                            "{reason}"), reason=exc.text))
                    except Exception as exc:   # our own log must never stop a rejoin
                        log.exception("unexpected error replaying a logged message")
                        self.restore_problems.append(Msg(N_("a logged message could not be "
                                                            "replayed ({error})"),
                                                         error=type(exc).__name__))
                elif step.kind == "damaged":
                    self.restore_problems.append(Msg(N_("the log's record of our {kind} is "
                                                        "damaged: the replay stops there"),
                                                     kind=repr(step.payload)))
                elif step.kind == "submit":
                    try:
                        self.submit(step.payload, now)
                    except (RuntimeError, belfort.BelfortError) as exc:
                        # what it answered did not reach the log: the others have it
                        self.restore_problems.append(Msg(N_("our logged decision {command} "
                                                            "does not fit the game here "
                                                            "({error}): the replay stops there"),
                                                         command=repr(step.payload),
                                                         error=exc))
                        break
                elif step.kind == "vote":
                    self._vote(step.payload, now, step.why)
                elif step.kind == "object":
                    self._object(*step.payload, now)
                elif step.kind == "leave":
                    try:
                        self.leave_for_good(now)
                    except LeaveRefused:
                        pass          # (the game had ended before: nothing was sent)
                elif step.kind == "undo":
                    try:
                        if step.payload != self.table.undo.stack.last_tag():
                            raise RuntimeError(f"our last step is not step {step.payload!r}")
                        self.take_back(now)
                    except (RuntimeError, UndoRefused) as exc:
                        self.restore_problems.append(Msg(N_("our logged take-back of step "
                                                            "{step} does not fit the game here "
                                                            "({error}): the replay stops there"),
                                                         step=repr(step.payload),
                                                         error=exc))
                        break
        finally:
            self.log.replay(False)
        if self.ghost is not None:
            self.ghost.resume()
        self.outbox = []
        # the window opens after the replay: it shows the latest of these as a recap
        self.replayed_events, self.events = self.events[-REPLAYED_KEPT:], []

    def move(self, endpoint: str, number: int) -> None:
        """We came back on another address: every heartbeat now carries it (signed), and
        the others reconnect to it."""
        self.resync.move(number, endpoint)

    def take_moved(self) -> list[tuple[int, str]]:
        """Seats that announced a new mesh address since the last call: (seat, endpoint)."""
        return self.resync.take_moved()

    @_logged()
    def announce(self, now: float = 0.0) -> None:
        """After a (re)start: tell everyone what we have so they fill our gaps.  Until
        every other peer has answered (or ``Timing.catch_up`` passed) and we hold every
        envelope of ours they hold, we make no new decision: ours from before the crash
        may be among what they send."""
        self.catching_up = True
        self._announced = self.rejoined_at = now
        self._sync_hold()
        self._apply(self.resync.heartbeat(None, need=True))
        self._check_caught_up(now)

    def _check_caught_up(self, now: float) -> None:
        if self.catching_up and self.catchup.caught_up(now, self._announced, self.resync,
                                                       self.handed, self.timing.catch_up):
            self.catching_up = False
            self._dirty = True
            self._pump(now)
            lacking = self.view.lacking(now)
            if lacking is not None:
                self._alert("info", lacking, None, now)

    # ================================================================ queries
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

    @_logged()
    def leave_for_good(self, now: float = 0.0) -> None:
        """The person leaves the game for good (departure.py): a signed ``sess/leave``.
        Raises departure.LeaveRefused with the reason when it is not possible now."""
        self._apply(self.departure.leave(), now)
        self._dirty = True
        self._pump(now)
        self._after_input()

    # ------------------------------------------------------------ handoff (public)
    @_logged()
    def handoff(self, seat: int, now: float = 0.0) -> None:
        """Vote to hand ``seat`` (silent past the time-out) to a bot.  Raises
        handoff.HandoffError with the reason when it cannot be proposed."""
        quiet = self.liveness.stalled(seat, now) if isinstance(seat, int) and 0 <= seat < self.n \
            else 0.0
        self.handoffs.check_proposal(seat, quiet)
        self._vote(seat, now)

    def again_answer(self, yes: bool, now: float = 0.0) -> None:
        """Our answer about another game at this table once this one is over (evening.py)."""
        self._apply(self.again.answer(yes, now), now)

    def say(self, text: str, now: float = 0.0) -> None:
        """A chat line to the table (``say TEXT``); raises chat.ChatError if empty."""
        self._apply(self.chat.say(text), now)

    def _check_deadlines(self, now: float) -> None:
        """Ask waits.py who is late, and carry out what follows."""
        if self.log.replaying or not self.started or not self.waits.due(now):
            return
        if (self.status == STOPPED and not self.dispute.active) or \
                (self.status == OVER and self.audit.result is not None):
            return
        if self._apply(self.waits.check(now, self.log.replaying), now):
            self._dirty = True
            self._pump(now)

    def _answer_handoffs(self, now: float) -> None:
        """Our yes or no to each open handoff attempt (waits.py)."""
        if not self.log.replaying and self._apply(self.waits.answers(now), now):
            self._dirty = True
            self._pump(now)

    def _object(self, seat: int, vote: bytes, proof: bytes, now: float) -> None:
        """The seat others voted to hand over is alive: call the handoff off."""
        self._apply(self.handoffs.object(seat, vote, proof, now), now)
        self._dirty = True
        self._pump(now)

    def _recheck(self, now: float) -> None:
        """Held accusations and a desync verdict, against the claims and proofs now in."""
        self._apply(self.doubt.recheck(now), now)
        self._apply(self.hashes.recheck(now), now)

    def _vote(self, seat: int, now: float, why: str = "") -> None:
        self._apply(self.handoffs.vote(seat, why), now)
        self._dirty = True
        self._pump(now)

    # ================================================================ receiving
    def _receive(self, data: bytes, now: float, src: int | None) -> None:
        try:
            body, decoded = peek_decoded(data)
        except ProtocolError as exc:
            text = Msg(N_("a message from seat {seat} was malformed and dropped ({detail})"),
                       seat=src, detail=exc.detail) if src is not None else \
                Msg(N_("a message was malformed and dropped ({detail})"), detail=exc.detail)
            raise Refused("cheat" if src is not None else "error", src, text) from None
        if src is not None and 0 <= src < self.n and src != self.seat:
            self._apply(self.liveness.seen(src, now), now)
        if body["type"].startswith("ctl/"):
            self._control(body, data, now, src)
            return
        self._accept(data, now, src, relayed=False, opened=body, decoded=decoded)

    def _accept(self, data: bytes, now: float, src: int | None, relayed: bool,
                opened: dict | None = None, trusted: bool = False,
                decoded: tuple | None = None) -> None:
        if self.handoffs.ours_handed:
            return          # the game goes on with a bot in our seat: nothing is ours
        taken, out = self.intake.accept(data, now, src, relayed, opened, trusted, decoded)
        self._apply(out, now)
        if taken and self.intake.votes_on_us and not self.handoffs.ours_handed:
            self._handed_away(now)
        if taken:
            self._pump(now)

    def _handed_away(self, now: float) -> None:
        """Every other seat's signed vote to hand our seat to a bot is in (handoff.py
        ``handed_away``): our part of the game is over, calmly — the notice replaces a
        verdict our state reached first on messages the others played with the bot."""
        out = self.handoffs.handed_away(self.intake.votes_on_us)
        if out.stop is None:
            return
        self.doubt.drop()
        self._apply(out.verdict(out.stop), now)

    def _control(self, body: dict, data: bytes, now: float, src: int | None) -> None:
        seat, name = self.intake.control(body, data, src), self.who.seat
        if self.handoffs.is_handed(seat):
            self._apply(self.handoffs.answer_owner(seat, body, now), now)
            return
        self._apply(self.liveness.seen(seat, now), now)
        if body["type"] == "ctl/hb":
            self.handoffs.note_heartbeat(seat, data)
        handlers = self.dispatch.control(body["type"])
        if not handlers:
            raise Refused("cheat", seat, Msg(N_("{who} sent an unknown control message {type}"),
                                             who=name(seat), type=repr(body["type"])))
        for handler in handlers:
            out = handler(seat, body, now)
            self._apply(out, now)
            if handler == self.doubt.on_claims:
                self._apply(self.hashes.recheck(now), now)
            for relayer, envelope in out.relayed:
                try:
                    self._accept(envelope, now, src=relayer, relayed=True)
                except Refused as exc:
                    self._alert(exc.kind, exc.text, exc.seat, now, key=(exc.kind, exc.seat, "sync"))

    @_judging
    def _pump(self, now: float) -> None:
        """Process every queued message that is ready, and what the game then calls for."""
        inbox = self.intake.inbox
        if self.handoffs.ours_handed:
            return          # what the others played with the bot in our seat: not ours
        if self.status == STOPPED:
            # only the desync report goes on: state hashes and public views
            for s in range(self.n):
                keep = type(inbox[s])()
                for body in inbox[s]:
                    if self.dispatch.after_stop(body["type"]):
                        try:
                            self._process(body, now)
                        except Refused as exc:
                            self._alert(exc.kind, exc.text, exc.seat, now)
                            if exc.seat == s:
                                self._apply(self.intake.strike(s), now)
                    else:
                        keep.append(body)
                inbox[s] = keep
            return
        self._sync_hold()
        progress = True
        while progress:
            progress = False
            for s in range(self.n):
                q = inbox[s]
                while q and self.status != STOPPED:
                    if not self.dispatch.ready(q[0]):
                        break
                    body = q.popleft()
                    progress = True
                    try:
                        self._process(body, now)
                    except Refused as exc:
                        self._alert(exc.kind, exc.text, exc.seat, now)
                        if exc.seat == s:
                            self._apply(self.intake.strike(s), now)
                    except CheatingError as exc:
                        self._accuse("cheat", Msg(N_("{who} broke the deck protocol: {error}"),
                                                  who=self.who.seat(exc.seat), error=str(exc)),
                                     exc.seat, now,
                                     stop=Msg(N_("cheating detected: {error}"), error=str(exc)))
                    except ProtocolError as exc:
                        if is_decode_problem(exc):
                            # not the sender's fault: find whose stage was wrong (dispute.py)
                            where = body.get("positions") if body["type"] == "deck/keys" \
                                else [body.get("pos")]
                            self._apply(self.dispute.start(body.get("epoch"), exc,
                                                           where if isinstance(where, list)
                                                           else []), now)
                            continue
                        self._alert("error", Msg(N_("refused a message of {who}: {error}"),
                                                 who=self.who.seat(s), error=str(exc)), s, now)
            if self._settle():
                progress = True
            if self.status != STOPPED and self._catch_up(now):
                progress = True
            if self.ghost is not None and not self.log.replaying and self.status != STOPPED:
                if self._apply(self.ghost.step(), now):
                    progress = True

    def _process(self, body: dict, now: float) -> None:
        t, seat = body["type"], body["seat"]
        self._dirty = True
        if self.status == STOPPED and not self.dispatch.after_stop(t):
            return
        self.departure.check(body)
        route = self.dispatch.route(t)
        if route is None:
            raise Refused("cheat", seat, Msg(N_("{who} sent an unknown message type {type}"),
                                             who=self.who.seat(seat), type=repr(t)))
        self._apply(route[0](body, now), now)

    def _holding(self) -> bool:
        """Send nothing new: we are rejoining and the others may hold envelopes of ours
        that we lost (catchup.py)."""
        return self.catching_up or len(self.log.sent) in self.log.ahead

    def _sync_hold(self) -> None:
        held = self._holding()
        self.own.hold(held)
        if self._held and not held and self.status != STOPPED and not self.log.replaying:
            self._held = False
            for env in self.catchup.resume():
                self._emit(env)
            self._dirty = True
        self._held = held

    def _catch_up(self, now: float) -> bool:
        """Adopt our relayed envelopes, and make our relayed decisions again, as far as
        our state has come."""
        progress = False
        while self.catchup.next_body() is not None and self.status != STOPPED:
            adopted, bodies = self.catchup.adopt()
            if adopted:
                for body in bodies:
                    self._own_seen(body)
                self._dirty = progress = True
                continue
            if not self._redo_fetched(now):
                break
            progress = True
        self._sync_hold()
        return progress

    def _redo_fetched(self, now: float) -> bool:
        """Make again the decision or take-back of ours the others relayed back (catchup.py
        ``redo``); True if something was done."""
        if not self._may_decide():
            return False
        redo = self.catchup.redo(self.table.game, len(self.table.undo.steps),
                                 self.table.undo.stack.last_tag(),
                                 self.takebacks.refusal(self.seat) is not None, self.cfg.game_id)
        if redo is None:
            return False
        if redo.kind == "undo":
            self._undo()
            return True
        problem = redo.problem
        if redo.kind == "decide":
            try:
                self._decide(redo.command, now)
            except (belfort.BelfortError, TypeError, ValueError) as exc:
                problem = Msg(N_("our own decision as the others hold it (seq {seq}) does not "
                                 "fit the game here: {error}"), seq=redo.seq, error=exc)
        if problem is not None:
            self._alert("error", problem, None, now)
            self.log.drop_fetched(redo.seq)
        return True

    # ================================================================ what the game calls for
    @_judging
    def _settle(self) -> bool:
        """Commit-reveal steps, escrow and handoff steps, then the deck work the engine
        state calls for.  True if anything changed."""
        if not self._dirty:
            return False
        self._dirty = False
        progress = self._advance_rounds()
        if self.escrow.active and not self._holding():
            progress = self._apply(self.escrow.step(self.status == STOPPED)) or progress
            progress = self._apply(self.handoffs.step()) or progress
        if self.table.game is None or self.status == STOPPED:
            return progress
        progress = self._settle_deck() or progress
        if progress:
            self._dirty = True      # look once more: what changed may call for more
        return progress

    def _advance_rounds(self) -> bool:
        """Reveal once every commitment is in; finish a round once every value is in."""
        progress = False
        for rnd in self.rounds.pending():
            if rnd.all_committed and rnd.purpose in self.own.choices \
                    and rnd.purpose not in self.own.revealed and not self._holding():
                for env in self.own.reveal(rnd.purpose, self.table.game, self.table.locate):
                    self._emit(env)
                progress = True
            if rnd.complete:
                self.rounds.close(rnd.purpose)
                progress = True
                if rnd.purpose == "seed":
                    self._begin_game(rnd.result())
                else:
                    self._finish_sim(rnd)
        return progress

    def _begin_game(self, shares: list[bytes]) -> None:
        events = self.table.begin(shared_seed(shares), self.names)
        self._apply(self.deckwork.first_epoch(start=not self._holding()))
        self._sync_hold()
        self.events.extend(events)
        self._boundary()

    def _finish_sim(self, rnd: CommitRevealRound) -> None:
        """Every simultaneous choice is revealed: apply them in seat order."""
        for s in rnd.seats:
            try:
                raw = wire.unpack(rnd.values[s], "x")
                if not isinstance(raw, list) or not raw or not isinstance(raw[0], str):
                    raise ProtocolError("x")
            except ProtocolError:
                text = Msg(N_("{who} revealed something that is not a command"),
                           who=self.who.seat(s))
                self._accuse("cheat", text, s, stop=text)
                return
            try:
                self._apply(self.commands.check_and_apply(s, raw, 0.0))
            except Refused as exc:
                self._accuse(exc.kind, exc.text, exc.seat,
                             stop=Msg(N_("{who}'s simultaneous choice '{command}' was refused"),
                                      who=self.who.seat(s), command=show(raw)))
                return

    def _settle_deck(self) -> bool:
        progress, again = False, True
        while again:
            again = False
            if not self._holding():
                progress = self._apply(self.deckwork.releases()) or progress
            progress = self.deckwork.learn_hand() or progress
            for card in self.deckwork.revealable():
                out = self.deckwork.reveal(card)
                if out is None:
                    continue
                self._apply(out)
                if out.stop:
                    return True
                progress = again = True
            if self.status == STOPPED:
                return True
        if self.table.check_over():
            progress = True
        if self.status == OVER:
            progress = self._audit_step() or progress
        return progress

    def _audit_step(self) -> bool:
        if self.audit.result is not None or not all(d.ready for d in self.decks):
            return False
        envs = [] if self._holding() else self.own.audits()
        for env in envs:
            self._emit(env)
        return self._apply(self.audit.verdict()) or bool(envs)

    def _changed(self, events: list) -> None:
        """After every change of the game: the events to show, a new deck epoch for a
        reshuffle, our state hash at a phase boundary."""
        self.events.extend(events)
        for ev in events:
            if ev[0] == "reshuffle":
                ev = named_event(ev)
                self._apply(self.deckwork.new_epoch(ev.epoch, ev.old_cards, ev.new_cards,
                                                    self.log.replaying,
                                                    start=not self._holding()))
                self._sync_hold()
        self._boundary()

    def _boundary(self) -> None:
        out = self.hashes.boundary(self.table.game, self.decks, send=not self._holding())
        if out is not None:
            self.log.boundary()
            self._apply(out)

    # ================================================================ applying results
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
            self._emit_hosted(env, now)
        self.outbox.extend(out.frames)
        for events in out.changes:
            self._changed(events)
        self.events.extend(out.events)
        held = self._held_count
        for note in out.alerts:
            self._alert(note.kind, note.text, note.seat, now, note.key, note.proof)
        if out.stop is not None:
            if self._held_count > held:
                self._hold_stop(out.stop)
            else:
                self._stop(out.stop)
        if out.need_sync:        # we lack envelopes (a gap, a clock jump, dropped ones): ask
            self.outbox.extend(self.resync.heartbeat(None, need=True).frames)
        for seat, text, why in out.departs:
            self._apply(self.handoffs.depart(seat, text, why, self.log.replaying), now)
        return True

    def _emit(self, env: dict) -> None:
        """One of our envelopes: log it, let our own parts see it, send it."""
        data = encode_envelope(env)
        body = wire.unpack(env["body"], "x")
        if not self.log.add_ours(data):
            self._alert("error", Msg(N_("our message {type} (seq {seq}) made again after the "
                                        "rejoin differs from the one the others hold"),
                                     type=body["type"], seq=body["seq"]), key=("ours-differ",))
        self._own_seen(body)
        if not self.log.replaying:
            if self.transmit is not None:
                self.transmit(None, data)
            else:
                self.outbox.append((None, data))

    def _own_seen(self, body: dict) -> None:
        """One of our envelopes, made or adopted: where our parts keep the transcript."""
        t = body["type"]
        if t.startswith("deck/") and body.get("epoch", -1) < len(self.table.deck_log):
            self.table.deck_log[body["epoch"]].append(body)
            if self.ghost is not None:
                self.ghost.absorb(body)
        elif t.startswith("commit/"):
            self.rounds.on_message(body)        # our own choices go through the same checks
        elif t == "sess/leave":
            self.departure.own(body)

    def _emit_hosted(self, env: dict, now: float) -> None:
        """An envelope of the seat we host for a bot: to everyone, and into our session."""
        data = encode_envelope(env)
        s = self.ghost.seat
        self._apply(self.intake.take(s, data, self.intake.verifier.verify(data)), now)
        if not self.log.replaying:
            if self.transmit is not None:
                self.transmit(None, data)
            else:
                self.outbox.append((None, data))

    def _after_input(self) -> None:
        """Once finished, say so at once: the others stop expecting us."""
        if not self._fin_sent and self.finished and not self.log.replaying:
            self._fin_sent = True
            self._apply(self.resync.finished_notice())

    def _log_broken(self, exc: LogWriteError) -> None:
        """Our log cannot be written: stop playing here.  Nobody is named — every record
        before it is on disk and nothing that needed it was counted or sent — and the
        others are told we left for now, so they wait for our rejoin without alarm."""
        self.log_failed = log_problem(exc)
        self._alert("error", self.log_failed, None)
        self._apply(self.resync.leave_notice())

    def _stop(self, reason: str, now: float = 0.0) -> None:
        self.events.extend(self.table.stop(reason))

    def _accuse(self, kind: str, text: str, seat: int | None, now: float = 0.0,
                stop: str = "") -> None:
        """An alert naming ``seat`` and the game stopped: both held while it is checked."""
        held = self._held_count
        self._alert(kind, text, seat, now)
        if self._held_count > held:
            self._hold_stop(stop)
        else:
            self._stop(stop)

    def _hold_stop(self, reason: str) -> None:
        """The game stops at once, but the reason naming a seat waits with its accusation."""
        self.doubt.hold_stop(reason)
        self._stop(HELD_STOP)

    def _alert(self, kind: str, text: str, seat: int | None = None, now: float = 0.0,
               key: tuple | None = None, proof: bool = False) -> None:
        log.warning("[seat %s] %s: %s", self.seat, kind, text)
        if self.log.replaying:
            return
        if self._judging_depth and not proof and kind in ACCUSING and isinstance(seat, int) \
                and 0 <= seat < self.n and seat != self.seat:
            self._held_count += 1
            self._apply(self.doubt.hold(Note(kind, text, seat, key), None, now), now)
            return
        if key is not None:
            last = self._alert_last.get(key)
            self._alert_last[key] = now
            if last is not None and now - last < 5.0 and now > 0:
                return
        self.alerts.append(Alert(kind, text, seat))
        if len(self.alerts) > 500:
            del self.alerts[:100]
        if len(self._alert_last) > 1000:      # keys made of message text: bounded too
            self._alert_last.clear()


# kept importable from here: the handoff's refusal and the wire helpers
__all__ += ["HandoffError", "plain", "tuples"]
