"""The receive pump: a frame from the network, taken as far as the game can take it.

``receive`` opens a frame (once: the decoded envelope goes on to the intake), notes that
its sender is there, and sends it to one of two doors: a control frame (``ctl/``:
heartbeats, sync requests, claims, chat) is checked by ``Intake.control`` and handed to
every part registered for its type; an envelope is checked and queued by
``Intake.accept``.  ``pump`` then processes every queued envelope that is ready — in
sequence order per seat, each routed by type (dispatch.py) to the one part that handles
it — and, between rounds, lets the game settle, our relayed envelopes be adopted, and
the bot we host for a departed seat play.

A refused message becomes an alert naming its sender (and a strike against it); a broken
deck protocol stops the game; a card that does not decode starts a deck dispute.  While
pumping we are *judging* (alerting.py): accusations resting on our own state are held.

``receive``, ``accept`` and ``pump`` are ``Steps`` (effects.py).  The settle loop and our
catch-up are the peer's to run (``settled``, ``caught_up``): it carries out what they
return without the frame's time, as it does our own moves.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from net.crypto import CheatingError, ProtocolError

from .dispute import is_decode_problem
from .effects import Names, Out, Refused, Steps
from .intake import peek_decoded
from .msgs import N_, Msg
from .table import STOPPED

if TYPE_CHECKING:
    from .departure import Departure
    from .alerting import Alerting
    from .dispatch import Dispatcher
    from .dispute import Dispute
    from .doubt import Doubt
    from .desync import DesyncCheck
    from .handoff import Handoff
    from .intake import Intake
    from .liveness import Liveness
    from .msglog import MessageLog
    from .settle import Settle
    from .table import GameTable


class Pump:
    def __init__(self, n: int, seat: int, who: Names, *, intake: Intake, dispatch: Dispatcher,
                 table: GameTable, log: MessageLog, liveness: Liveness, handoffs: Handoff,
                 doubt: Doubt, hashes: DesyncCheck, dispute: Dispute, settle: Settle,
                 alerting: Alerting, departure: Departure, settled: Callable[[], bool],
                 caught_up: Callable[[float], bool]) -> None:
        """``settled()``: run the settle loop (True if anything changed);
        ``caught_up(now)``: adopt or redo our relayed envelopes as far as our state has
        come (True if anything was done)."""
        self.n, self.seat, self.who, self.intake, self.dispatch = n, seat, who, intake, dispatch
        self.table, self.log, self.liveness, self.handoffs = table, log, liveness, handoffs
        self.doubt, self.hashes, self.dispute, self.settle = doubt, hashes, dispute, settle
        self.departure = departure
        self.alerting, self.settled, self.caught_up = alerting, settled, caught_up

    def receive(self, data: bytes, now: float, src: int | None) -> Steps[None]:
        """One frame; raises Refused for one that does not open."""
        try:
            body, decoded = peek_decoded(data)
        except ProtocolError as exc:
            text = Msg(N_("a message from seat {seat} was malformed and dropped ({detail})"),
                       seat=src, detail=exc.detail) if src is not None else \
                Msg(N_("a message was malformed and dropped ({detail})"), detail=exc.detail)
            raise Refused("cheat" if src is not None else "error", src, text) from None
        if src is not None and 0 <= src < self.n and src != self.seat:
            yield self.liveness.seen(src, now)
        if body["type"].startswith("ctl/"):
            yield from self._control(body, data, now, src)
            return
        # a command on its seat's own connection reaches the game before its signature is
        # checked (Intake.confirm checks it next), unless a handoff is or was under way:
        # it reads the seats' logs, and a bot we host would log its decisions first
        yield from self.accept(data, now, src, relayed=False, opened=body, decoded=decoded,
                               on_word=self.handoffs.untouched())

    def accept(self, data: bytes, now: float, src: int | None, relayed: bool,
               opened: dict | None = None, trusted: bool = False,
               decoded: tuple | None = None, on_word: bool = False) -> Steps[None]:
        """An envelope (received, relayed, or replayed from our log): checked, queued, and
        what is ready processed."""
        if self.handoffs.ours_handed:
            return          # the game goes on with a bot in our seat: nothing is ours
        taken, out = self.intake.accept(data, now, src, relayed, opened, trusted, decoded,
                                        on_word)
        yield out
        if taken and self.intake.votes_on_us and not self.handoffs.ours_handed:
            yield from self._handed_away()
        if taken:
            yield from self.pump(now)

    def _handed_away(self) -> Steps[None]:
        """Every other seat's signed vote to hand our seat to a bot is in (handoff.py
        ``handed_away``): our part of the game is over, calmly — the notice replaces a
        verdict our state reached first on messages the others played with the bot."""
        out = self.handoffs.handed_away(self.intake.votes_on_us)
        if out.stop is None:
            return
        self.doubt.drop()
        yield out.verdict(out.stop)

    def _control(self, body: dict, data: bytes, now: float, src: int | None) -> Steps[None]:
        seat, name = self.intake.control(body, data, src), self.who.seat
        if self.handoffs.is_handed(seat):
            yield self.handoffs.answer_owner(seat, body, now)
            return
        yield self.liveness.seen(seat, now)
        if body["type"] == "ctl/hb":
            self.handoffs.note_heartbeat(seat, data)
        handlers = self.dispatch.control(body["type"])
        if not handlers:
            raise Refused("cheat", seat, Msg(N_("{who} sent an unknown control message {type}"),
                                             who=name(seat), type=repr(body["type"])))
        for handler in handlers:
            out = handler(seat, body, now)
            yield out
            if handler == self.doubt.on_claims:
                yield self.hashes.recheck(now)
            for relayer, envelope in out.relayed:
                try:
                    yield from self.accept(envelope, now, src=relayer, relayed=True)
                except Refused as exc:
                    yield Out().alert(exc.kind, exc.text, exc.seat,
                                      key=(exc.kind, exc.seat, "sync"))

    def pump(self, now: float) -> Steps[None]:
        """Process every queued message that is ready, and what the game then calls for."""
        if self.handoffs.ours_handed:
            return          # what the others played with the bot in our seat: not ours
        with self.alerting.judging:
            if self.table.status == STOPPED:
                yield from self._after_stop(now)
            else:
                yield from self._in_order(now)

    def _after_stop(self, now: float) -> Steps[None]:
        """Only the desync report goes on: state hashes and public views."""
        inbox = self.intake.inbox
        for s in range(self.n):
            keep = type(inbox[s])()
            for body in inbox[s]:
                if self.dispatch.after_stop(body["type"]):
                    try:
                        yield from self._process(body, now)
                    except Refused as exc:
                        yield from self._refused(s, exc)
                else:
                    keep.append(body)
            inbox[s] = keep

    def _in_order(self, now: float) -> Steps[None]:
        inbox = self.intake.inbox
        yield self.settle.sync_hold()
        progress = True
        while progress:
            progress = False
            for s in range(self.n):
                q = inbox[s]
                while q and self.table.status != STOPPED:
                    if not self.dispatch.ready(q[0]):
                        break
                    body = q.popleft()
                    progress = True
                    try:
                        yield from self._process(body, now)
                    except Refused as exc:
                        yield from self._refused(s, exc)
                    except CheatingError as exc:
                        yield Out().alert("cheat", Msg(N_("{who} broke the deck protocol: "
                                                          "{error}"),
                                                       who=self.who.seat(exc.seat),
                                                       error=str(exc)), exc.seat).halt(
                            Msg(N_("cheating detected: {error}"), error=str(exc)))
                    except ProtocolError as exc:
                        if is_decode_problem(exc):
                            # not the sender's fault: find whose stage was wrong (dispute.py)
                            where = body.get("positions") if body["type"] == "deck/keys" \
                                else [body.get("pos")]
                            yield self.dispute.start(body.get("epoch"), exc,
                                                     where if isinstance(where, list) else [])
                            continue
                        yield Out().alert("error", Msg(N_("refused a message of {who}: {error}"),
                                                       who=self.who.seat(s), error=str(exc)), s)
            if self.settled():
                progress = True
            if self.table.status != STOPPED and self.caught_up(now):
                progress = True
            bot = self.handoffs.bot
            if bot is not None and not self.log.replaying and self.table.status != STOPPED:
                if (yield bot.step()):
                    progress = True

    def _refused(self, s: int, exc: Refused) -> Steps[None]:
        """A queued envelope of seat ``s`` was refused: an alert and, if it names ``s``, a
        strike against it."""
        yield Out().alert(exc.kind, exc.text, exc.seat)
        if exc.seat == s:
            yield self.intake.strike(s)

    def _process(self, body: dict, now: float) -> Steps[None]:
        t, seat = body["type"], body["seat"]
        self.settle.touch()
        if self.table.status == STOPPED and not self.dispatch.after_stop(t):
            return
        self.departure.check(body)       # nothing of a seat counts after it left for good
        route = self.dispatch.route(t)
        if route is None:
            raise Refused("cheat", seat, Msg(N_("{who} sent an unknown message type {type}"),
                                             who=self.who.seat(seat), type=repr(t)))
        yield route[0](body, now)
