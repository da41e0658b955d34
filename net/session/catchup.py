"""Rejoining: replaying our own log, and catching up after a rejoin whose log lost our
last envelopes (cut, damaged, deleted).

``replay_steps`` reads our log's records into the steps the peer takes again, in order
(a message received, a decision of ours, a vote, an objection, a take-back), stopping
where a record of ours is damaged.

The others hold every envelope we sent, and relay them back (resync.py, intake.py put
them in ``MessageLog.ahead``).  We cannot simply make them again: which keys a
``deck/keys`` batch holds, and where a state hash falls among our messages, depend on
the order in which the others' messages reached us, and that order is not the same on
the second run.  So while the others hold more of ours than we do, we *send nothing new*
(``holding``) and *adopt* our own envelopes in sequence order, each once our state has
reached the point where it was made: it is applied to our parts exactly as if we had
just made it (the deck, the commit-reveal rounds, the state hashes, the escrow).  Our
decisions among them are made again from their command (``redo``: the peer makes exactly
that decision again), which gives the same bytes.  Once we hold all of ours, what was due
meanwhile is sent (``resume``).
"""

from __future__ import annotations

import logging
from collections.abc import Container, Iterable, Iterator
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, cast

import belfort
from belfort.undo import UndoRefused

from net.crypto import commitment_hash, wire

from .commands import plain, tuples
from .departure import LeaveRefused
from .derive import derive_bytes
from .effects import Refused
from .msgs import N_, Msg
from .table import STOPPED

if TYPE_CHECKING:
    from .desync import DesyncCheck
    from .escrow import Escrow
    from .handoff import Handoff
    from .msglog import MessageLog
    from .resync import Resync
    from .rounds import Rounds
    from .seat import SeatActor
    from .table import GameTable


log = logging.getLogger("belfort.session")


class Replayable(Protocol):
    """The peer's entry points a replay of our log takes again, in the log's order."""

    def start(self, now: float = 0.0) -> None: ...

    def submit(self, command: object, now: float = 0.0) -> list: ...

    def take_back(self, now: float = 0.0) -> tuple: ...

    def leave_for_good(self, now: float = 0.0) -> None: ...

    # (the peer's own doors for a logged message, vote and objection: not public, since
    # only the peer's own log may take them without the checks of their public doors)
    def _accept(self, data: bytes, now: float, src: int | None, relayed: bool,
                opened: dict | None = None, trusted: bool = False,
                decoded: tuple | None = None) -> None: ...

    def _vote(self, seat: int, now: float, why: str = "") -> None: ...

    def _object(self, seat: int, vote: bytes, proof: bytes, now: float) -> None: ...


class Replayed(NamedTuple):
    """One step of our log taken again: ``kind`` "in" (a message, ``trusted``: it passed
    the log's integrity check), "submit", "vote" (``why``: a cited deadline), "object"
    (``payload``: target, cited vote, evidence), "undo", "leave" (we left for good), or
    "damaged" (our record failed
    the check: the replay stops there, ``payload`` the record's kind)."""
    kind: str
    payload: object
    trusted: bool = False
    why: str = ""


def replay_steps(records: Iterable) -> Iterator[Replayed]:
    """Our log's records ``(kind, payload[, checked])`` as the steps to take again."""
    for rec in records:
        kind, payload = rec[0], rec[1]
        checked = rec[2] if len(rec) > 2 else None
        if kind == "in":
            yield Replayed("in", payload, trusted=checked is True)
        elif checked is False:
            yield Replayed("damaged", kind)
            return
        elif kind == "submit":
            yield Replayed("submit", payload)
        elif kind == "handoff":
            if isinstance(payload, list) and len(payload) == 2:
                yield Replayed("vote", payload[0], why=str(payload[1]))
            else:
                yield Replayed("vote", payload)
        elif kind == "handoff-no":
            if isinstance(payload, list) and len(payload) == 3 and isinstance(payload[0], int):
                yield Replayed("object", tuple(payload))
        elif kind == "undo":
            yield Replayed("undo", payload)
        elif kind == "leave":
            yield Replayed("leave", payload)


class Redo(NamedTuple):
    """What to make again of our next envelope the others relayed back: ``kind`` "decide"
    (``command``), "undo", or "drop" (it does not fit the game here: ``problem`` says
    why, and it is given up)."""
    kind: str
    seq: int
    command: object = None
    problem: str | None = None


class CatchUp:
    def __init__(self, log: MessageLog, own: SeatActor, table: GameTable, rounds: Rounds,
                 hashes: DesyncCheck, escrow: Escrow, handoffs: Handoff, master: bytes) -> None:
        self.log, self.own, self.table, self.rounds = log, own, table, rounds
        self.hashes, self.escrow, self.handoffs, self.master = hashes, escrow, handoffs, master
        self.catching_up = False      # rejoined: waiting to learn what the others hold of ours
        self.announced = 0.0
        self.rejoined_at: float | None = None     # we (re)joined a running game then
        self._held = False            # holding back new envelopes

    def announce(self, now: float) -> None:
        """We (re)started and asked the others what they hold: catch up from now."""
        self.catching_up = True
        self.announced = self.rejoined_at = now

    def holding(self) -> bool:
        """Send nothing new: we are rejoining and the others may hold envelopes of ours
        that we lost."""
        return self.catching_up or len(self.log.sent) in self.log.ahead

    def ours_missing(self) -> bool:
        """After a rejoin that lost part of our log: the others may hold envelopes of ours
        (decisions, key releases) that we have not made again yet."""
        return self.catching_up or self.log.held_ours() > len(self.log.sent)

    def sync_hold(self) -> list[dict] | None:
        """Our seat holds back new envelopes while ``holding``; once it stops, what fell due
        meanwhile, to send (``resume``); None if the hold was not just released."""
        held = self.holding()
        self.own.hold(held)
        released = self._held and not held and self.table.status != STOPPED \
            and not self.log.replaying
        self._held = held
        return self.resume() if released else None

    def finish(self, now: float, resync: Resync, handed: Container[int], wait: float) -> bool:
        """True once, when the catch-up after ``announce`` is over (``caught_up``)."""
        if self.catching_up and self.caught_up(now, self.announced, resync, handed, wait):
            self.catching_up = False
            return True
        return False

    def caught_up(self, now: float, since: float, resync: Resync, handed: Container[int],
                  wait: float) -> bool:
        """Every other peer has answered since ``since`` (or ``wait`` passed), and none
        holds more of ours than we do (or 3 x ``wait`` passed: a peer may claim what it
        never sends)."""
        ours, me = self.log.held_ours(), self.log.seat
        for s in range(self.log.n):
            if s == me or s in handed:
                continue          # (a finished peer still holds our envelopes: asked too)
            heard = resync.heard_at[s]
            if heard is None or heard < since:
                if now - since < wait:
                    return False
            elif resync.have_of[s][me] > ours and now - since < 3 * wait:
                return False
        return True

    def redo(self, game: belfort.GameState | None, steps: int, last_tag: object,
             undo_refused: bool, game_id: str) -> Redo | None:
        """Our next envelope is one the others relayed back (a rejoin lost it), and we may
        decide: if it is a decision (possibly after the card opens it needs) or a
        take-back, what to make again — its envelopes then come out byte for byte the
        same.  None: nothing to redo now (an automatic message is re-made when its turn
        comes).  ``steps``, ``last_tag``: the take-back log's count and last step;
        ``undo_refused``: a take-back of ours would be refused now."""
        ahead, nxt = self.log.ahead, len(self.log.sent)
        if nxt not in ahead or game is None:
            return None
        q = nxt
        while q in ahead and ahead[q][1]["type"] == "deck/open":
            q += 1
        if q not in ahead:
            return None
        body = ahead[q][1]
        if body["type"] == "sess/undo" and q == nxt:
            if body.get("v") != game.version or body.get("n") != steps:
                return None
            if not undo_refused and body.get("step") == last_tag:
                return Redo("undo", q)
            return Redo("drop", q, problem=Msg(N_("our own take-back as the others hold it "
                                                  "(seq {seq}) does not fit the game here"),
                                               seq=q))
        if body["type"] == "sess/cmd" and body.get("v") == game.version \
                and body.get("n") in (None, steps):
            command = body.get("cmd")
        elif body["type"] == "commit/commit" and body.get("purpose") == f"sim/{game.version}":
            command = self.choice(body, q, game, game_id)
        else:
            return None
        return Redo("decide", q, tuples(command) if isinstance(command, list) else command)

    def choice(self, commit: dict, seq: int, game: belfort.GameState, game_id: str) -> object:
        """The command of our simultaneous choice committed before the crash: from its
        reveal if the others hold it, else tried against the commitment (the nonce comes
        from our master secret)."""
        purpose, me = commit["purpose"], self.log.seat
        for _data, body in self.log.ahead.values():
            if body["type"] == "commit/reveal" and body.get("purpose") == purpose:
                return wire.unpack(body["value"], "x")
        nonce = derive_bytes(self.master, f"nonce/{purpose}/{seq}")
        for cmd in belfort.legal_commands(game, me):
            value = wire.pack(plain(belfort.check_legal(game, cmd, me)[0]))
            if commitment_hash(value, nonce, game_id, me, purpose) == commit.get("commitment"):
                return wire.unpack(value, "x")
        return None

    def next_body(self) -> dict | None:
        got = self.log.ahead.get(len(self.log.sent))
        return None if got is None else got[1]

    def adopt(self) -> tuple[bool, list[dict]]:
        """Adopt our next relayed envelope if our state has reached it: (adopted, its body
        for the peer's bookkeeping as one of ours).  Decisions are not adopted here."""
        seq = len(self.log.sent)
        # decoded msgpack, its fields read as they come: an envelope we made and signed
        body: Any
        data, body = self.log.ahead[seq]
        t = body["type"]
        if t.startswith("deck/"):
            ok = self.own.adopt_deck(body)
        elif t == "commit/commit" and body.get("purpose") == "seed":
            self.own.adopt("seed", derive_bytes(self.master, "seed-share"),
                           derive_bytes(self.master, f"nonce/seed/{seq}"))
            ok = True
        elif t == "commit/reveal":
            rnd = self.rounds.get(body.get("purpose"))
            ok = rnd is not None and rnd.all_committed
            if ok:
                self.own.adopt_reveal(body["purpose"])
        elif t == "sess/hash":
            ok = self.hashes.adopt_hash(body.get("v"))
        elif t == "esc/shares":
            self.escrow.adopt_sent()
            ok = True
        elif t == "hand/share":
            target = body.get("target")
            ok = self.handoffs.adopt_share(target, self.escrow.my_shares.get(target))
        elif t == "hand/vote":
            self.handoffs.adopt_vote(body.get("target"), body.get("k", 0), body.get("have"))
            ok = True
        elif t == "hand/no":
            # what calling the attempt off asks for (a resync, the next attempt's early
            # messages) is not applied here: the catch-up goes on with our next envelope
            self.handoffs.adopt_no(body.get("target"), body.get("k"))
            ok = True
        elif t in ("esc/key", "sess/view", "sess/leave"):
            ok = True
        else:
            return False, []      # a decision (sess/cmd, a simultaneous commitment)
        if not ok:
            return False, []
        self.log.add_ours(data)
        self.own.adopt_seq(seq + 1)
        return True, [body]

    def resume(self) -> list[dict]:
        """We hold every envelope of ours again: what fell due meanwhile (our deck
        commitments and stages, the state hashes of the phases we passed)."""
        return self.own.resume_decks() + self.hashes.take_unsent()


def replay(peer: Replayable, records: Iterable[tuple], now: float, last_step: Any,
           problems: list[str]) -> None:
    """Take our log's ``records`` again through ``peer``'s entry points (the peer has its
    log replaying).  What does not fit is added to ``problems``; a decision or take-back
    of ours that does not fit ends the replay there (the others hold what it answered).
    ``last_step()``: the tag of the last step a take-back would take back."""
    peer.start(now)
    for step in replay_steps(records):
        if step.kind == "in":
            try:
                peer._accept(cast(bytes, step.payload), now, src=None, relayed=True,
                             trusted=step.trusted)
            except Refused as exc:
                problems.append(Msg(N_("a logged message was refused: {reason}"),
                                    reason=exc.text))
            except Exception as exc:   # our own log must never stop a rejoin
                log.exception("unexpected error replaying a logged message")
                problems.append(Msg(N_("a logged message could not be replayed ({error})"),
                                    error=type(exc).__name__))
        elif step.kind == "damaged":
            problems.append(Msg(N_("the log's record of our {kind} is damaged: the replay "
                                   "stops there"), kind=repr(step.payload)))
        elif step.kind == "submit":
            try:
                peer.submit(step.payload, now)
            except (RuntimeError, belfort.BelfortError) as exc:
                # what it answered did not reach the log: the others have it
                problems.append(Msg(N_("our logged decision {command} does not fit the game "
                                       "here ({error}): the replay stops there"),
                                    command=repr(step.payload), error=exc))
                break
        elif step.kind == "vote":
            peer._vote(cast(int, step.payload), now, step.why)
        elif step.kind == "object":
            seat, vote, proof = cast(tuple, step.payload)
            peer._object(seat, vote, proof, now)
        elif step.kind == "leave":
            try:
                peer.leave_for_good(now)
            except LeaveRefused:
                pass          # (the game had ended before: nothing was sent)
        elif step.kind == "undo":
            try:
                if step.payload != last_step():
                    raise RuntimeError(f"our last step is not step {step.payload!r}")
                peer.take_back(now)
            except (RuntimeError, UndoRefused) as exc:
                problems.append(Msg(N_("our logged take-back of step {step} does not fit the "
                                       "game here ({error}): the replay stops there"),
                                    step=repr(step.payload), error=exc))
                break
