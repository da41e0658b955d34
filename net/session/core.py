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
    deadlines.Deadlines  automatic steps owed too long: the seat is named and departs

Message types are routed through a table the parts register into (dispatch.py).
Types, fields and rules: docs/network.md.
"""

from __future__ import annotations

import functools
import logging

import belfort
from belfort.undo import UndoRefused
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from net.alerts import Alert
from net.crypto import CheatingError, ProtocolError, Signer, encode_envelope, shared_seed, wire
from net.crypto.identity import SIG_DOMAIN

from .audit import AuditCheck
from .catchup import CatchUp
from .chat import Chat
from .commands import Commands, plain, show, tuples
from .config import GameConfig, Timing
from .deadlines import Deadlines, owed
from .deckwork import DeckWork
from . import endgame
from .dispute import Dispute, is_decode_problem
from .doubt import ACCUSING, Doubt
from .forks import Forks
from .derive import derive_bytes
from .desync import DesyncCheck
from .dispatch import Dispatcher
from .effects import Names, Note, Out, Refused
from .escrow import Escrow
from .handoff import Handoff, HandoffError
from .intake import Intake, peek_decoded
from .liveness import Liveness
from .msglog import MessageLog
from .msgs import N_, Msg
from .resync import Resync
from .rounds import Rounds
from .seat import SeatActor
from .table import OVER, PLAYING, SETUP, STOPPED, GameTable
from .takeback import CATCHING_UP, SessionRefusal, TakeBack

log = logging.getLogger("belfort.session")

REPLAYED_KEPT = 400        # events of a rejoin's replay kept for the window's recap

HELD_STOP = Msg(N_("a message was refused; the game is stopped while the peers check that "
                   "everyone holds the same messages (nobody is named yet)"))

__all__ = ["SessionPeer", "Refused", "SETUP", "PLAYING", "OVER", "STOPPED"]


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
    def __init__(self, config: GameConfig, seat: int, identity, master: bytes, *,
                 store=None, timing: Timing | None = None, now: float = 0.0, clock=None) -> None:
        if not 0 <= seat < config.n:
            raise ValueError("seat out of range")
        if identity.public_bytes != config.keys[seat]:
            raise ValueError("this identity is not the one the roster has for this seat")
        self.cfg, self.n, self.seat, self.names = config, config.n, seat, list(config.names)
        self.identity, self.master, self.clock = identity, master, clock
        self.timing = timing or Timing()
        self.signer = Signer(identity, config.game_id, seat)
        self._pubkeys = [Ed25519PublicKey.from_public_bytes(k) for k in config.keys]
        who = self.who = Names(config.names)
        # the parts (see the module docstring)
        self.log = MessageLog(self.n, seat, store)
        self.intake = Intake(config, seat, self.log, who)
        self.own = SeatActor(self.signer, self.n, master, config.ruleset().cards_per_type)
        self.table = GameTable(config, seat, self.own.decks, clock)
        self.ruleset = self.table.ruleset
        self.rounds = Rounds(config.game_id, self.n, who, self.table)
        self.commands = Commands(self.table, who)
        self.takebacks = TakeBack(self.table, who)
        self.hashes = DesyncCheck(self.signer, self.n, who)
        self.audit = AuditCheck(self.table)
        self.escrow = Escrow(self.signer, identity, self.n, master, who)
        self.handoffs = Handoff(config, self.signer, identity, who, self.timing, log=self.log,
                                intake=self.intake, table=self.table, escrow=self.escrow,
                                rounds=self.rounds, commands=self.commands, hashes=self.hashes)
        self.deckwork = DeckWork(self.table, self.own, who, self.handoffs)
        self.dispute = self.deckwork.dispute = Dispute(self.table, self.own, who, self.deckwork)
        self.resync = Resync(config, identity, self.log, self.intake, who, self.timing,
                             lambda: self.finished, now)
        self.liveness = Liveness(self.n, seat, who, self.timing, config.kinds, now)
        self.catchup = CatchUp(self.log, self.own, self.table, self.rounds, self.hashes,
                               self.escrow, self.handoffs, master)
        self._held = False            # holding back new envelopes (catchup.py)
        self.forks = self.intake.forks = Forks(config, identity, seat, who, self.table)
        self.intake.stopped = lambda: self.table.status == STOPPED
        self.doubt = Doubt(self.n, seat, self.log, who, self.timing, self.table, self.forks.proven)
        self.hashes.confirmed = lambda s, need: self.doubt.judge(s, need) is True
        self.hashes.timing = self.timing
        self.hashes.stopped = lambda: self.table.status == STOPPED
        self.hashes.set_reason = self._refine_reason
        self._judging_depth = 0       # > 0: in _pump/_settle (accusations are held)
        self._held_count = 0
        self.hashes.proven = self.forks.proven
        self.deadlines = Deadlines(self.n, who, self.timing)
        self.dispatch = Dispatcher()
        self.chat = Chat(identity, config.game_id, seat, who)
        for part in (self.deckwork, self.dispute, self.rounds, self.commands, self.takebacks,
                     self.hashes, self.escrow, self.handoffs, self.resync, self.liveness, self.chat,
                     self.forks, self.doubt):
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
    verifier = property(lambda self: self.intake.verifier)
    last_seen = property(lambda self: self.liveness.last_seen)
    paused = property(lambda self: self.commands.paused)

    # handoff settings (--auto-handoff; the bot a handed seat gets)
    def _setting(name):
        return property(lambda self: getattr(self.handoffs, name),
                        lambda self, value: setattr(self.handoffs, name, value))
    auto_handoff = _setting("auto")
    handoff_level = _setting("level")
    handoff_think = _setting("think")
    handoff_follow = _setting("follow")     # a bot peer agrees to a proposal by itself
    del _setting

    @property
    def finished(self) -> bool:
        """Nothing more to do: the game is over and audited, or stopped — and no accusation
        is still being checked (doubt.py)."""
        if self.doubt.pending:
            return False
        return self.status == STOPPED or (self.status == OVER and self.audit.result is not None)

    @property
    def sync_due(self) -> bool:
        return self.log.sync_due

    # ================================================================ the boundary
    def start(self, now: float = 0.0) -> None:
        """Begin the game: commit to our share of the shared seed."""
        if self.started:
            return
        self.started = True
        self._apply(self.escrow.start(), now)
        self._emit(self.own.commit("seed", derive_bytes(self.master, "seed-share")))
        self._settle()

    def receive(self, data: bytes, now: float = 0.0, src: int | None = None) -> None:
        """One frame from the network.  ``src``: the seat the transport knows sent it
        (its CurveZMQ key), or None.  Never raises for anything the frame holds."""
        try:
            self._receive(data, now, src)
        except Refused as exc:
            self._alert(exc.kind, exc.text, exc.seat, now, key=(exc.kind, exc.seat, exc.text[:40]))
        except Exception as exc:  # a bug must not let a frame crash the peer
            log.exception("unexpected error on a received frame")
            self._alert("error", Msg(N_("internal error on a message ({error})"),
                                     error=f"{type(exc).__name__}: {exc}"), src, now)
        self._check_caught_up(now)
        self._after_input()

    def submit(self, command, now: float = 0.0) -> list:
        """Our seat's decision.  Raises belfort.CommandSyntaxError/IllegalCommandError,
        or RuntimeError when no decision of ours is awaited."""
        if not self.decision_needed():
            raise RuntimeError("no decision of ours is awaited now")
        events = self._decide(command, now)
        # what the others sent while we decided may be waiting for this very decision
        self._pump(now)
        self._after_input()
        return events

    def _decide(self, command, now: float) -> list:
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

    def take_back(self, now: float = 0.0):
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

    def _undo(self):
        """Our take-back, once allowed: logged, sent, applied."""
        self._dirty = True
        self.log.record("undo", self.table.undo.stack.last_tag())
        self._emit(self.takebacks.message(self.signer))
        events, cmd = self.takebacks.apply(self.seat)
        self._changed(events)
        self._settle()
        return cmd

    def undo_refusal(self):
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
        if self._ours_missing():
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
        if self.seat not in waiting or not g.known_hand(self.seat):
            return False
        return not (len(waiting) > 1 and f"sim/{g.version}" in self.own.choices)

    def tick(self, now: float) -> None:
        """Heartbeats, connection state and time-outs."""
        self._check_caught_up(now)
        self._apply(self.resync.tick(now), now)
        gap = now - self.liveness.last_check
        woke = self.liveness.check(now, self.handed)
        self._apply(woke, now)
        if woke.need_sync:       # our clock jumped (suspended): we asked for what we missed
            self.deadlines.asleep(gap)
            return
        self._recheck(now)
        self._check_deadlines(now)
        for s in self.handoffs.auto_targets(now, self.liveness.last_seen,
                                            self.liveness.finished_of, self.liveness.left_of):
            self._vote(s, now)
        for s in self.handoffs.objections(lambda q: self.liveness.quiet(q, now)):
            self._object(s, now)
        if self.ghost is not None:
            self._dirty = True
            self._pump(now)
        self._after_input()

    def take_outgoing(self) -> list[tuple[int | None, bytes]]:
        out, self.outbox = self.outbox, []
        return out

    def take_events(self) -> list:
        out, self.events = self.events, []
        return out

    def restore(self, records, now: float = 0.0) -> None:
        """Rebuild the state from our own log (rejoin): the same inputs in the same
        order give the same state and the same outgoing envelopes.  ``records`` are
        ``(kind, payload[, checked])``: ``checked`` True = the record passed the log's
        integrity check (its envelope is not verified again), False = it failed it (an
        envelope is verified in full; a decision of ours ends the replay there)."""
        self.log.replaying = True
        try:
            self.start(now)
            for rec in records:
                kind, payload = rec[0], rec[1]
                checked = rec[2] if len(rec) > 2 else None
                if kind == "in":
                    try:
                        self._accept(payload, now, src=None, relayed=True, trusted=checked is True)
                    except Refused as exc:
                        self.restore_problems.append(Msg(N_("a logged message was refused: "
                                                            "{reason}"), reason=exc.text))
                    except Exception as exc:   # our own log must never stop a rejoin
                        log.exception("unexpected error replaying a logged message")
                        self.restore_problems.append(Msg(N_("a logged message could not be "
                                                            "replayed ({error})"),
                                                         error=type(exc).__name__))
                    continue
                if checked is False:
                    self.restore_problems.append(Msg(N_("the log's record of our {kind} is "
                                                        "damaged: the replay stops there"),
                                                     kind=repr(kind)))
                    break
                if kind == "submit":
                    try:
                        self.submit(payload, now)
                    except (RuntimeError, belfort.BelfortError) as exc:
                        # what it answered did not reach the log: the others have it
                        self.restore_problems.append(Msg(N_("our logged decision {command} "
                                                            "does not fit the game here "
                                                            "({error}): the replay stops there"),
                                                         command=repr(payload),
                                                         error=exc))
                        break
                elif kind == "handoff":
                    if isinstance(payload, list) and len(payload) == 2:
                        self._vote(payload[0], now, str(payload[1]))   # a cited deadline
                    else:
                        self._vote(payload, now)
                elif kind == "handoff-no":
                    if isinstance(payload, int):
                        self._object(payload, now)
                elif kind == "undo":
                    try:
                        if payload != self.table.undo.stack.last_tag():
                            raise RuntimeError(f"our last step is not step {payload!r}")
                        self.take_back(now)
                    except (RuntimeError, UndoRefused) as exc:
                        self.restore_problems.append(Msg(N_("our logged take-back of step "
                                                            "{step} does not fit the game here "
                                                            "({error}): the replay stops there"),
                                                         step=repr(payload),
                                                         error=exc))
                        break
        finally:
            self.log.replaying = False
        if self.ghost is not None:
            self.ghost.resume()
        self.outbox = []
        # the window opens after the replay: it shows the latest of these as a recap
        self.replayed_events, self.events = self.events[-REPLAYED_KEPT:], []

    def move(self, endpoint: str, number: int) -> None:
        """We came back on another address: every heartbeat now carries it (signed), and
        the others reconnect to it."""
        self.resync.address = (number, endpoint)

    def take_moved(self) -> list[tuple[int, str]]:
        """Seats that announced a new mesh address since the last call: (seat, endpoint)."""
        out, self.resync.moved = self.resync.moved, []
        return out

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
            lacking = self.lacking(now)
            if lacking is not None:
                self._alert("info", lacking, None, now)

    # ================================================================ queries
    def may_leave(self, now: float) -> bool:
        """Finished, and nobody needs us any more (endgame.py): every other seat has all
        of our envelopes and said it finished (or the game stopped); a seat that went
        silent without finishing keeps us reachable up to the stall time (it may rejoin
        and fetch the end of the game from us), one that said it finished, or that we
        never heard since our (re)start, only up to the disconnection time."""
        if not self.finished:
            return False
        if self.handoffs.ours_handed:
            return True           # our seat is a bot's now: nothing of ours is wanted
        return not any(self._keeps_us(s, now) for s in self._others())

    def _others(self) -> list[int]:
        return [s for s in range(self.n) if s != self.seat and s not in self.handed]

    def _keeps_us(self, s: int, now: float) -> bool:
        lv = self.liveness
        hosted = [self.ghost.seat] if self.ghost is not None else []
        return endgame.keeps(lv.quiet(s, now), lv.heard[s],
                             lv.finished_of[s] or self.status == STOPPED,
                             self.resync.has_ours(s, hosted), self.timing)

    def farewell(self, now: float) -> str | None:
        """Leaving a finished game while a seat we heard has not finished (silent past the
        stall time): what it can do to get the end of the game later, or None."""
        if self.status != OVER or not self.finished:
            return None
        return endgame.farewell(self.names, self._unfinished(),
                                lambda s: self.liveness.quiet(s, now), self.cfg.game_id)

    def _unfinished(self) -> list[int]:
        """Other seats we heard since our (re)start that have not said they finished."""
        lv = self.liveness
        return [s for s in self._others() if lv.heard[s] and not lv.finished_of[s]]

    def staying_for(self, now: float) -> list[int]:
        """Finished, and seats we heard that have not finished still keep us reachable
        (they may fetch the end of the game from us): those seats."""
        if not self.finished or self.handoffs.ours_handed:
            return []
        return [s for s in self._unfinished() if self._keeps_us(s, now)]

    def staying(self, now: float) -> str | None:
        """What a person closing the window now is told while we stay for ``staying_for``
        seats (endgame.py), or None when nobody needs us."""
        seats = self.staying_for(now)
        at_most = max((self.timing.timeout - self.liveness.quiet(s, now) for s in seats),
                      default=0.0)
        return endgame.staying(self.names, seats, max(0.0, at_most))

    def leaving(self, now: float) -> None:
        """We leave the finished game now: say what a seat that did not finish can do."""
        note = self.farewell(now)
        if note is not None:
            self._alert("info", note, None, now)

    def _unanswered(self) -> bool:
        """We rejoined and nobody has answered since."""
        return self.rejoined_at is not None and not any(
            self.liveness.heard[s] for s in self._others())

    def lacking(self, now: float) -> str | None:
        """Rejoined, not finished, and nobody answers: what this machine lacks and how to
        get it (endgame.py), or None."""
        if self.finished or self.status == STOPPED or not self._unanswered():
            return None
        seats = [s for s in self.waiting_seats() if s != self.seat] or self._others()
        return endgame.lacking(self.names, seats, self.status == OVER, now - self.rejoined_at,
                               self.cfg.game_id)

    def abandoned(self, now: float) -> bool:
        """Every other peer has been silent past the time-out."""
        return self.liveness.abandoned(now, self.handed)

    def waiting_seats(self) -> list[int]:
        """Seats whose message the game needs next (decision, commitment or deck step)."""
        return self.table.waiting_seats(self.rounds, self.audit.result is not None)

    def seat_view(self) -> dict:
        """``belfort.seat_view`` of our seat ({} before the shared seed), with what only the
        session knows: in a simultaneous step (the keep, the Spies' showing) the engine
        learns every choice at once when they are revealed, but a seat that committed to
        its choice has made it — as in a game on one machine, it is no longer waited for,
        and at the keep it is marked as having chosen."""
        g = self.table.game
        if g is None:
            return {}
        view = belfort.seat_view(g, self.seat)
        waiting = view["waiting_for"]
        rnd = self.rounds.get(f"sim/{g.version}") if len(waiting) > 1 else None
        if rnd is not None:
            chosen = [s for s in waiting if s in rnd.commitments]
            view["waiting_for"] = [s for s in waiting if s not in chosen]
            if view["phase"] == "keep":
                view["keep_submitted"] = sorted(set(view["keep_submitted"]) | set(chosen))
        return view

    def waiting_text(self, now: float) -> str:
        """E.g. "waiting for Bo (disconnected 12 s) — handoff possible in 2:48"."""
        paused = self.pause_reason(now)
        text = self.liveness.waiting_text(self.waiting_seats(), now, self.handed,
                                          self._handoff_in(now), paused=bool(paused))
        return Msg(N_("{waiting}. {paused}"), waiting=text, paused=paused) if paused and text \
            else (paused or text)

    def _handoff_in(self, now: float):
        """seat -> seconds until it may be handed to a bot (0: now), None if it cannot be."""
        if not self.handoffs.possible():
            return None
        limit = self.handoffs.limit()
        return lambda s: max(0.0, limit - self.liveness.quiet(s, now)) \
            if s in self.escrow.escrow else None

    def stall(self, now: float) -> dict:
        """The waiting state, for the window: every seat the game waits for that is not
        here — ``{"seat", "name", "quiet" (s silent), "left" (said it left for now),
        "handoff_in" (s until it may be handed to a bot, 0: now; None: it cannot be),
        "handoff_now"}`` — ``"paused"`` (the reason the game is paused, or None),
        ``"stall_timeout"`` and ``"text"`` (as waiting_text)."""
        handoff_in = self._handoff_in(now)
        seats = []
        for s in self.waiting_seats():
            if s == self.seat or s in self.handed:
                continue
            lv = self.liveness
            if lv.connected[s] and not lv.left_of[s]:
                continue
            left = handoff_in(s) if handoff_in is not None else None
            seats.append({"seat": s, "name": self.names[s], "quiet": round(lv.quiet(s, now), 1),
                          "left": lv.left_of[s],
                          "handoff_in": None if left is None else round(left, 1),
                          "handoff_now": left is not None and left <= 0})
        return {"seats": seats, "paused": self.pause_reason(now),
                "stall_timeout": self.timing.timeout, "text": self.waiting_text(now)}

    def pause_reason(self, now: float, bot: bool = False) -> str | None:
        """Why the game cannot go on until someone rejoins (every other seat away — with
        2 players, the other one — or, ``bot``: every person), or None."""
        if self.finished or self.status == STOPPED:
            return None
        why = self.liveness.pause_reason(now, self.handed, bot)
        return (self.lacking(now) or why) if why is not None else None

    def leave_for_now(self, now: float = 0.0) -> None:
        """The person leaves the game for now (the window asked): tell the others, so they
        show us paused rather than disconnected, and wait for our rejoin."""
        if self.finished:
            return
        self._apply(self.resync.leave_notice(), now)

    def votes_cast(self) -> list[int]:
        """Seats we voted to hand to a bot."""
        return [t for t, votes in self.handoffs.votes.items() if self.seat in votes]

    def peer_states(self, now: float) -> list[dict]:
        return self.liveness.states(now, self.handed)

    # ------------------------------------------------------------ handoff (public)
    def handoff(self, seat: int, now: float = 0.0) -> None:
        """Vote to hand ``seat`` (silent past the time-out) to a bot.  Raises
        handoff.HandoffError with the reason when it cannot be proposed."""
        quiet = self.liveness.quiet(seat, now) if isinstance(seat, int) and 0 <= seat < self.n \
            else 0.0
        self.handoffs.check_proposal(seat, quiet)
        self._vote(seat, now)

    def say(self, text: str, now: float = 0.0) -> None:
        """A chat line to the table (``say TEXT``); raises chat.ChatError if empty."""
        self._apply(self.chat.say(text), now)

    def handoff_candidates(self, now: float) -> list[int]:
        """Seats that could be handed to a bot now."""
        return self.handoffs.candidates(now, self.liveness.last_seen)

    def _check_deadlines(self, now: float) -> None:
        if self.log.replaying or not self.started or not self.deadlines.due(now):
            return
        if (self.status == STOPPED and not self.dispute.active) or \
                (self.status == OVER and self.audit.result is not None):
            return
        skip = {self.seat, *self.handed}
        if self.ghost is not None:
            skip.add(self.ghost.seat)
        gaps = {s: self.intake.expected_seq(s) for s in range(self.n) if self.intake.future[s]}
        steps = owed(self.table, self.rounds, self.who, skip, self.intake.inbox,
                     self.dispatch.ready, gaps)
        for s, what, key in self.deadlines.check(steps, now,
                                                 lambda q: self.liveness.quiet(q, now),
                                                 lambda q: self.doubt.agrees(q, now)):
            if key[0] == "open":
                self._refuse_head(s, what, now)
            else:
                self._withheld(s, what, now)

    def _refuse_head(self, seat: int, what: str, now: float) -> None:
        """A message that can never be processed, at the head of ``seat``'s queue: drop it
        (its sender signed it: it is named), so the game is not stalled behind it."""
        q = self.intake.inbox[seat]
        if q:
            q.popleft()
        self._alert("cheat", Msg(N_("{who} sent {what}: refused"), who=self.who.seat(seat),
                                 what=what), seat, now)
        self._dirty = True
        self._pump(now)

    def _withheld(self, seat: int, what: str, now: float) -> None:
        """``seat`` keeps talking but has not sent ``what`` past the deadline: it is named
        and treated as departed (handed to a bot with 3-5 players, else the game stops)."""
        limit = self.timing.step_deadline
        text = Msg(N_("{who} withheld {what} for more than {limit} s while still connected"),
                   who=self.who.seat(seat), what=what, limit=f"{limit:.0f}")
        self._depart(seat, text, f"withheld {what}", now)
        self._pump(now)

    def _depart(self, seat: int, text: str, why: str, now: float) -> None:
        """``seat`` is named (``text``) and treated as departed: our vote to hand it to a
        bot (3-5 players, citing ``why``), else the game stops with that verdict."""
        if self.seat in self.handoffs.votes.get(seat, {}) or seat in self.handed:
            self._alert("cheat", text, seat, now, proof=True)
            return
        try:
            self.handoffs.check_proposal(seat, float("inf"))
        except HandoffError as exc:
            self._alert("cheat", Msg(N_("{text}: the game is stopped"), text=text), seat, now,
                        proof=True)
            self._stop(Msg(N_("{text}; it cannot be handed to a bot ({why})"), text=text,
                           why=exc))
            return
        self._alert("cheat", Msg(N_("{text}: it is treated as departed (vote to hand it to a "
                                    "bot)"), text=text), seat, now, proof=True)
        if self.log.replaying:
            return          # our vote is in the log (a "handoff" record): made again there
        self._apply(self.handoffs.vote(seat, why), now)
        self._dirty = True

    def _object(self, seat: int, now: float) -> None:
        """The seat others voted to hand over is playing: call the handoff off."""
        self._apply(self.handoffs.object(seat), now)
        self._dirty = True
        self._pump(now)

    def _recheck(self, now: float) -> None:
        """Held accusations and a desync verdict, against the claims and proofs now in."""
        self._apply(self.doubt.recheck(now), now)
        self._apply(self.hashes.recheck(now), now)

    def _refine_reason(self, text: str) -> None:
        """A desync verdict refined: it replaces a first verdict or a held stop's reason."""
        if self.table.stop_reason.startswith(("DESYNC", HELD_STOP)):
            self.table.stop_reason = text

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
        taken, out = self.intake.accept(data, now, src, relayed, opened, trusted, decoded)
        self._apply(out, now)
        if taken:
            self._pump(now)

    def _control(self, body: dict, data: bytes, now: float, src: int | None) -> None:
        seat, name = body["seat"], self.who.seat
        if body["game"] != self.cfg.game_id or not (0 <= seat < self.n) or seat == self.seat:
            raise Refused("cheat" if src is not None else "error", src,
                          Msg(N_("a control message for another game or seat was dropped")))
        env = wire.unpack(data, "sig/malformed")
        try:
            self._pubkeys[seat].verify(env["sig"], SIG_DOMAIN + env["body"])
        except InvalidSignature:
            raise Refused("cheat", src if src is not None else seat,
                          Msg(N_("a control message claiming to come from {who} has a bad "
                                 "signature"), who=name(seat))) from None
        if src is not None and src != seat:
            raise Refused("cheat", src, Msg(N_("seat {seat} sent a control message of {who}"),
                                            seat=src, who=name(seat)))
        if self.handoffs.is_handed(seat):
            self._apply(self.handoffs.answer_owner(seat, body, now), now)
            return
        self._apply(self.liveness.seen(seat, now), now)
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
        for d in self.own.decks:
            d.hold = held
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
        """Our next envelope is one the others relayed back (a rejoin lost it): if it is a
        decision (possibly after the card opens it needs), make exactly that decision
        again; its envelopes then come out byte for byte the same.  An automatic message
        needs nothing: it is re-made when its turn comes."""
        ahead, nxt = self.log.ahead, len(self.log.sent)
        if nxt not in ahead or self.table.game is None or not self._may_decide():
            return False
        g, q = self.table.game, nxt
        while q in ahead and ahead[q][1]["type"] == "deck/open":
            q += 1
        if q not in ahead:
            return False
        body = ahead[q][1]
        steps = len(self.table.undo.steps)
        if body["type"] == "sess/undo" and q == nxt:
            # a take-back of ours the others hold: made again, the same bytes
            if body.get("v") != g.version or body.get("n") != steps:
                return False
            why = self.takebacks.refusal(self.seat)
            if why is None and body.get("step") == self.table.undo.stack.last_tag():
                self._undo()
            else:
                self._alert("error", Msg(N_("our own take-back as the others hold it (seq "
                                            "{seq}) does not fit the game here"), seq=q),
                            None, now)
                del ahead[q]
            return True
        if body["type"] == "sess/cmd" and body.get("v") == g.version \
                and body.get("n") in (None, steps):
            command = body.get("cmd")
        elif body["type"] == "commit/commit" and body.get("purpose") == f"sim/{g.version}":
            command = self.catchup.choice(body, q, g, self.cfg.game_id)
        else:
            return False
        try:
            self._decide(tuples(command) if isinstance(command, list) else command, now)
        except (belfort.BelfortError, TypeError, ValueError) as exc:
            self._alert("error", Msg(N_("our own decision as the others hold it (seq {seq}) "
                                        "does not fit the game here: {error}"), seq=q,
                                     error=exc), None, now)
            del ahead[q]
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

    def _finish_sim(self, rnd) -> None:
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
                self._apply(self.deckwork.new_epoch(ev[1], ev[2], ev[3], self.log.replaying,
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
            self._depart(seat, text, why, now)
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

    def _stop(self, reason: str, now: float = 0.0) -> None:
        self.events.extend(self.table.stop(reason))

    def _accuse(self, kind: str, text: str, seat, now: float = 0.0, stop: str = "") -> None:
        """An alert naming ``seat`` and the game stopped: both held while it is checked."""
        held = self._held_count
        self._alert(kind, text, seat, now)
        if self._held_count > held:
            self._hold_stop(stop)
        else:
            self._stop(stop)

    def _hold_stop(self, reason: str) -> None:
        """The game stops at once, but the reason naming a seat waits with its accusation."""
        h = self.doubt.held[-1] if self.doubt.held else None
        if h is not None and h.stop is None:
            h.stop = reason
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
