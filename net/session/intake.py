"""Intake: from a frame to an accepted envelope waiting in its seat's queue.

Every sequenced envelope is checked by ``SessionVerifier`` (signature, game, seat,
exact next seq) before anything else — but for one: a command brought by its own seat's
connection, which the transport authenticated with that seat's key, reaches the game
with every check but its signature's, and ``confirm`` checks the signature before the
envelope is logged (``_on_word``: the one message a table waits on, move after move).
A byte-identical copy of one we hold (a resync, a reconnecting socket, a rejoining peer)
is dropped quietly: it changes nothing; a different message with a used seq is
equivocation; a seq ahead of the next is held (``MAX_FUTURE`` per seat) and the others
are asked for the gap (``Out.need_sync``).  Accepted envelopes go to the message log,
then to a FIFO per seat (``inbox``) that the peer drains once each head is ready
(dispatch.py).

Records of our own log whose integrity check passed (storage.py) are admitted without
checking their signature again: we checked it when we received them.  Our own envelopes
relayed back to us (a rejoin that lost part of our log) go to ``MessageLog.ahead`` once
their signature checks with our key (catchup.py adopts them).

Every envelope's fields are checked against its type's shape (schemas.py) right after
its signature, before it is logged or queued: a badly shaped one is refused, naming its
signer, and does not use up its sequence number.

Bounded memory: per seat at most ``MAX_FUTURE`` held envelopes (``MAX_FUTURE_BYTES``),
``MAX_INBOX`` queued, ``MAX_ENVELOPES`` kept in a game, ``MAX_VIEWS`` views, and
``AFTER_STOP`` taken once our game stopped.  A seat past ``MAX_ENVELOPES``, or with more
than ``MAX_STRIKES`` messages refused once processed (``strike``), is cut off: nothing
more of it is taken, not even checked, and the peer treats it as departed
(``Out.departs``: a handoff vote, or the game stops naming it).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

import msgpack
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from net.crypto import ProtocolError, Verifier, open_envelope, wire
from net.crypto.identity import SIG_DOMAIN

from .effects import Names, Out, Refused
from .msglog import LogWriteError, MessageLog
from .msgs import N_, Msg
from .schemas import problem as shape_problem

if TYPE_CHECKING:
    from .config import GameConfig

MAX_FUTURE = 512          # out-of-order envelopes held per seat
MAX_FUTURE_BYTES = 8 << 20    # and their bytes
MAX_INBOX = 4096          # accepted envelopes waiting per seat
# Bounds on what one seat can make us keep (a cheater must not exhaust us).  An honest seat
# sends ~150-200 envelopes in a whole 5-player game, one view at most (after a desync),
# nothing refused, and little once the game stopped (its audits, hash, view).
MAX_ENVELOPES = 8192      # envelopes of one seat kept in a game
MAX_VIEWS = 4             # its sess/view messages
MAX_STRIKES = 64          # its messages refused once processed
AFTER_STOP = 256          # its envelopes taken once our game stopped


class SessionVerifier(Verifier):
    """Verifier whose key for a seat can change (after a handoff, the seat's messages from
    the cut on are signed by the hosting seat's identity key), and which admits records
    of our own checked log without a second signature check."""

    def rekey(self, seat: int, public_key: bytes) -> None:
        self._keys[seat] = Ed25519PublicKey.from_public_bytes(public_key)

    def unverify(self, seat: int, seq: int) -> None:
        """Give back ``seq``: the envelope just verified was refused after all."""
        if self._next.get(seat) == seq + 1:
            self._next[seat] = seq

    def signed_by(self, data: bytes) -> tuple[dict, int | None]:
        """(body, the seat whose roster key signed it, or None): for a message of our own
        seat, whose sequence the verifier does not follow."""
        body, signed, sig = open_envelope(data)
        if body["game"] != self.game_id:
            raise ProtocolError("sig/wrong-game", body["seat"], f"game {body['game']!r}")
        for seat in [body["seat"]] + [s for s in self._keys if s != body["seat"]]:
            try:
                self._keys[seat].verify(sig, SIG_DOMAIN + signed)
                return body, seat
            except (InvalidSignature, KeyError):
                continue
        return body, None

    def admit(self, body: dict) -> dict | None:
        """``body`` of a record we verified before (its log record passed its MAC): accept
        it if it is the next of its seat, else None (then it is verified in full)."""
        seat, seq = body["seat"], body["seq"]
        if body["game"] != self.game_id or seat not in self._keys or seq != self._next[seat]:
            return None
        self._next[seat] = seq + 1
        return body


def peek(data: bytes) -> dict:
    """The header of an envelope, decoded without the (costly) canonical-form check;
    nothing is trusted from it: the full check (Verifier / open_envelope) follows."""
    return peek_decoded(data)[0]


def peek_decoded(data: bytes) -> tuple[dict, tuple | None]:
    """``peek``, and the (envelope, body) maps it decoded (None if it did not): handed to
    the full check so that each received frame is unpacked once, not twice."""
    if not isinstance(data, (bytes, bytearray)) or len(data) > wire.MAX_MESSAGE_BYTES:
        return open_envelope(data)[0], None
    try:
        env = msgpack.unpackb(data, raw=False, strict_map_key=True, use_list=True)
        body = msgpack.unpackb(env["body"], raw=False, strict_map_key=True, use_list=True) \
            if isinstance(env, dict) and isinstance(env.get("body"), bytes) else None
    except Exception:
        body = None
    if isinstance(body, dict):
        t, g, st, q = body.get("type"), body.get("game"), body.get("seat"), body.get("seq")
        if isinstance(t, str) and isinstance(g, str) and wire.is_int(st) and wire.is_int(q) \
                and st >= 0 and q >= 0:
            return body, (env, body)
    return open_envelope(data)[0], None     # raises the precise ProtocolError


class Unconfirmed(NamedTuple):
    """An envelope taken before its signature was checked (``Intake._on_word``)."""
    seat: int
    data: bytes                # the frame, to log once the signature checks
    signed: bytes              # its body's bytes and their signature
    sig: bytes


class Intake:
    def __init__(self, config: GameConfig, seat: int, log: MessageLog, names: Names, *,
                 stopped: Callable[[], bool] = lambda: False,
                 found: Callable[[int, int, bytes, bytes], Out] | None = None,
                 beyond_cut: Callable[[int, int], bool] = lambda seat, seq: False,
                 below_cut: Callable[[int, int], bool] = lambda seat, seq: False,
                 is_handed: Callable[[int], bool] = lambda seat: False) -> None:
        """``stopped``: our game has stopped.  ``found``: equivocation made proof
        (forks.Forks.found).  From the handoff (handoff.Handoff, made after us):
        ``beyond_cut``/``below_cut`` (a seat being handed over: past its cut nothing
        counts; below it the handoff needs the envelope) and ``is_handed``."""
        self.n, self.seat, self.log, self.names = config.n, seat, log, names
        self.verifier = SessionVerifier(config.game_id, config.keys)
        self.game_id = config.game_id
        self._pubkeys = [Ed25519PublicKey.from_public_bytes(k) for k in config.keys]
        self.future: list[dict[int, bytes]] = [{} for _ in range(self.n)]
        self.inbox: list[deque] = [deque() for _ in range(self.n)]
        self.cut_off: set[int] = set()       # seats that flooded us: nothing more is taken
        self.views = [0] * self.n
        self.strikes = [0] * self.n
        self.after_stop = [0] * self.n
        self.stopped = stopped
        self._last_need = -1.0
        self.found = found
        self.beyond_cut, self.below_cut, self.is_handed = beyond_cut, below_cut, is_handed
        # the signed votes naming our own seat as the one to hand to a bot, as taken:
        # the evidence that our seat was handed while we were away (handoff.py)
        self.votes_on_us: list[tuple[dict, bytes]] = []
        # envelopes taken on their connection's word, in order: ``confirm`` checks their
        # signatures and logs them before the peer does anything else
        self.unconfirmed: list[Unconfirmed] = []

    def drop_head(self, seat: int) -> None:
        """Drop the message at the head of ``seat``'s queue (one that can never be
        processed: waits.py refuses it)."""
        if self.inbox[seat]:
            self.inbox[seat].popleft()

    def control(self, body: dict, data: bytes, src: int | None) -> int:
        """A control frame (``ctl/*``: signed, not sequenced) checked at the door: of this
        game, from another seat, its signature that seat's, and sent by that seat's own
        connection (``src``, when the transport knows it).  Its seat; Refused if not."""
        seat, name = body["seat"], self.names.seat
        if body["game"] != self.game_id or not (0 <= seat < self.n) or seat == self.seat:
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
        return int(seat)

    def expected_seq(self, seat: int) -> int:
        return self.verifier.expected_seq(seat)

    def have(self) -> list[int]:
        """How many envelopes of each seat we hold (ours: how many we sent)."""
        return [self.log.held_ours() if s == self.seat else self.verifier.expected_seq(s)
                for s in range(self.n)]

    def accept(self, data: bytes, now: float, src: int | None, relayed: bool,
               opened: dict | None = None, trusted: bool = False,
               decoded: tuple | None = None, on_word: bool = False) -> tuple[bool, Out | None]:
        """Check one sequenced envelope: (taken into a queue, Out); raises Refused with
        the reason.  Nothing is taken for a copy of what we hold, an envelope past a
        handoff's cut, or one held until the gap before it is filled.  ``on_word``: the
        transport's word for ``src`` may stand in for the signature until ``confirm``
        (see ``_on_word``)."""
        body = opened if opened is not None else peek(data)
        seat, seq = body["seat"], body["seq"]
        by = "" if src is None or src == seat else Msg(N_(" (sent by seat {seat})"), seat=src)
        if seat == self.seat:
            out = self._ours(data, seq, src, by)
            return seq in self.log.ahead, out     # a relayed one of ours: the peer adopts it
        if self.beyond_cut(seat, seq) or (seat in self.cut_off and not self.below_cut(seat, seq)):
            # a handoff of this seat is under way (nothing past the cut counts), or the
            # seat flooded us (nothing more of it is kept, not even checked)
            return False, Out()
        if self.stopped() and self.after_stop[seat] >= AFTER_STOP and 0 <= seat < self.n:
            return False, Out()   # the game is over for us: a flood is not kept either
        later = on_word and not relayed and not trusted and decoded is not None \
            and self._on_word(body, src)
        try:
            checked = self.verifier.admit(body) if trusted else None
            if checked is None:
                checked = self.verifier.verify(data, decoded, signature=not later)
        except ProtocolError as exc:
            return False, self._refused(exc, data, seat, seq, src, by, relayed, now)
        self._shape(checked, by)
        quota = self._quota(checked)
        if quota is not None and quota.departs:
            return False, quota
        if later:
            assert decoded is not None
            self.unconfirmed.append(Unconfirmed(seat, data, decoded[0]["body"], decoded[0]["sig"]))
            queued = self.queue(seat, checked)
            return True, queued if quota is None else quota.add(queued)
        out = quota if quota is not None else Out()
        out.add(self.take(seat, data, checked))
        fut = self.future[seat]
        while fut:               # anything held that now fits
            nxt = self.verifier.expected_seq(seat)
            held = fut.pop(nxt, None)
            if held is None:
                for q in [q for q in fut if q < nxt]:
                    del fut[q]
                break
            try:
                nbody = self.verifier.verify(held)
                self._shape(nbody, "")
                quota = self._quota(nbody)
            except (ProtocolError, Refused) as exc:
                fut.clear()
                if isinstance(exc, Refused):
                    out.alert(exc.kind, exc.text, exc.seat)
                break
            out.add(quota)
            if quota is not None and quota.departs:
                break
            out.add(self.take(seat, held, nbody))
        return True, out

    def _shape(self, body: dict, by: str) -> None:
        """Refuse a verified body whose fields are not of its type's shape; its seq is
        given back (nothing of it is kept)."""
        why = shape_problem(body)
        if why:
            seat = body["seat"]
            self.verifier.unverify(seat, body["seq"])
            raise Refused("cheat", seat, Msg(N_("{who} signed {what}: refused{by}"),
                                             who=self.names.seat(seat), what=why, by=by))

    def _quota(self, body: dict) -> Out | None:
        """Bounds on what one seat makes us keep: past them its envelope is not taken
        (its seq is given back) and, for a flood, the seat is cut off."""
        seat = body["seat"]
        if self.log.count(seat) >= MAX_ENVELOPES:
            self.verifier.unverify(seat, body["seq"])
            return self.flooded(seat, Msg(N_("{who} sent more than {n} messages: nothing more "
                                             "of it is taken"), who=self.names.seat(seat),
                                          n=MAX_ENVELOPES),
                                f"sent more than {MAX_ENVELOPES} messages")
        if body["type"] == "sess/view":
            if self.views[seat] >= MAX_VIEWS:
                self.verifier.unverify(seat, body["seq"])
                raise Refused("cheat", seat, Msg(N_("{who} sent more than {n} public views: "
                                                    "refused"), who=self.names.seat(seat),
                                                 n=MAX_VIEWS))
            self.views[seat] += 1
        if self.stopped():
            self.after_stop[seat] += 1
        return None

    def strike(self, seat: int) -> Out:
        """One of ``seat``'s messages was refused once processed: too many and the seat
        is cut off (an honest peer's are never refused)."""
        if not 0 <= seat < self.n or seat == self.seat or seat in self.cut_off:
            return Out()
        self.strikes[seat] += 1
        if self.strikes[seat] <= MAX_STRIKES:
            return Out()
        return self.flooded(seat, Msg(N_("{who} sent more than {n} messages that were refused: "
                                         "nothing more of it is taken"),
                                      who=self.names.seat(seat), n=MAX_STRIKES),
                            f"sent more than {MAX_STRIKES} messages that were refused")

    def flooded(self, seat: int, text: str, why: str) -> Out:
        """Nothing more of ``seat`` is taken; the peer treats it as departed (``text`` names
        it for the players, ``why`` is what a handoff vote cites)."""
        self.cut_off.add(seat)
        self.future[seat].clear()
        out = Out()
        out.departs.append((seat, text, why))
        return out

    def _ours(self, data: bytes, seq: int, src: int | None, by: str) -> Out:
        """A message of our own seat, relayed back to us: after a rejoin that lost part of
        our log, the others hold our last envelopes, which we take to re-make them."""
        if self.log.holds(self.seat, seq, data) or self.log.ahead.get(seq, (None,))[0] == data:
            return Out()                 # our own message came back in a resync
        try:
            body, signer = self.verifier.signed_by(data)
        except ProtocolError as exc:
            raise Refused("cheat", src, Msg(N_("a malformed message claiming to be ours was "
                                               "refused{by} ({reason})"), by=by,
                                            reason=exc.reason)) from None
        host = min(s for s in range(self.n) if s != self.seat)
        if signer == host:
            # signed by the seat that would host our seat for a bot: a handoff while we
            # were away or late (from its cut on, which may be below what we sent), which
            # its notice (ctl/handed) tells us; nobody cheats here
            return Out()
        if signer != self.seat:
            raise Refused("cheat", src, Msg(N_("a message claiming to be ours (seq {seq}) has a "
                                               "bad signature{by}"), seq=seq, by=by))
        if seq < len(self.log.sent):
            return Out().alert("error", Msg(N_("the others hold a different message of ours "
                                               "with seq {seq} than the one we made after "
                                               "rejoining (a lost decision made again "
                                               "differently)"), seq=seq), key=("ours-differ",))
        if seq < len(self.log.sent) + MAX_INBOX:
            self.log.fetched(seq, data, body)
        return Out()

    def _refused(self, exc: ProtocolError, data: bytes, seat: int, seq: int, src: int | None,
                 by: str,
                 relayed: bool, now: float) -> Out:
        name = self.names.seat
        if self.is_handed(seat) and exc.reason == "sig/bad-signature":
            raise Refused("info", None, Msg(N_("a message signed by {name} was ignored: the "
                                               "seat is played by a bot now"),
                                            name=self.names[seat])) from None
        if exc.reason == "sig/replayed":
            if self.log.holds(seat, seq, data):
                # a byte-identical copy (a resync, a reconnecting socket, a rejoining
                # peer sending again what it re-made): harmless, nothing to say
                return Out()
            # a validly signed, different message with a used seq: equivocation, and
            # the two messages are the proof of it (forks.py)
            held = self.log.envelopes(seat)
            if self.found is not None and 0 <= seq < len(held):
                return self.found(seat, seq, held[seq], data)
            raise Refused("cheat", seat, Msg(N_("{who} signed two different messages with seq "
                                                "{seq}{by}"), who=name(seat), seq=seq, by=by))
        if exc.reason == "sig/out-of-order":
            fut = self.future[seat]
            if len(fut) < MAX_FUTURE and \
                    sum(map(len, fut.values())) + len(data) <= MAX_FUTURE_BYTES:
                fut.setdefault(seq, data)
            out = Out()
            if now - self._last_need >= 0.05 or self._last_need > now:
                self._last_need = now
                out.need_sync = True
            return out
        if exc.reason in ("sig/unknown-seat", "sig/wrong-game"):
            raise Refused("cheat" if src is not None else "error", src,
                          Msg(N_("a message for another game or seat was refused{by}: "
                                 "{detail}"), by=by, detail=exc.detail))
        raise Refused("cheat", src if src is not None else seat,
                      Msg(N_("a message claiming to come from {who} was refused ({reason}){by}"),
                          who=name(seat), reason=exc.reason, by=by))

    def _on_word(self, body: dict, src: int | None) -> bool:
        """Whether this envelope may reach the game before its signature is checked: a
        command (the one message a table waits on, move after move) brought by its own
        seat's connection — CurveZMQ authenticated that connection with the seat's key,
        so nobody else can have sent it — and the very next of that seat, with nothing of
        it held out of order and nothing else waiting for its check (the log keeps their
        order).  Its signature is checked by
        ``confirm``, before it is logged, relayed or used as evidence."""
        seat = body["seat"]
        return body["type"] == "sess/cmd" and src == seat and seat != self.seat \
            and 0 <= seat < self.n and not self.future[seat] \
            and body["seq"] == self.verifier.expected_seq(seat) and not self.unconfirmed

    def confirm(self) -> Out | None:
        """Check the signatures of the envelopes taken on their connection's word, then
        log them.  One that does not check stops the game naming its seat: only that
        seat's own connection could have brought it, and the game already holds it."""
        while self.unconfirmed:
            u = self.unconfirmed.pop(0)
            try:
                self.verifier.check_signature(u.seat, u.signed, u.sig)
            except ProtocolError:
                self.unconfirmed.clear()
                text = Msg(N_("{who} sent a command with a bad signature over its own "
                              "connection"), who=self.names.seat(u.seat))
                return Out().alert("cheat", text, u.seat).halt(text)
            try:
                self.log.add_theirs(u.seat, u.data)
            except LogWriteError:
                self.unconfirmed.clear()
                raise
        return None

    def take(self, seat: int, data: bytes, body: dict) -> Out | None:
        """An accepted envelope: into the log, then into its seat's queue.  If the log
        cannot be written, its seq is given back: it was never taken (a copy of it that
        comes again is not a second message with the same seq)."""
        try:
            self.log.add_theirs(seat, data)
        except LogWriteError:
            self.verifier.unverify(seat, body["seq"])
            raise
        if body["type"] == "hand/vote" and body.get("target") == self.seat \
                and len(self.votes_on_us) < 4 * self.n:
            self.votes_on_us.append((body, data))
        return self.queue(seat, body)

    def queue(self, seat: int, body: dict) -> Out | None:
        """An accepted envelope into its seat's queue (None: nothing more to do)."""
        if len(self.inbox[seat]) >= MAX_INBOX:
            return Out().halt(Msg(N_("{name} sent too many messages ahead of the game"),
                                  name=self.names[seat]))
        self.inbox[seat].append(body)
        return None

    def rekey(self, seat: int, public_key: bytes) -> None:
        """The seat is played by a bot now, its messages signed by the host: a flood of
        its owner's is over."""
        self.future[seat].clear()
        self.verifier.rekey(seat, public_key)
        self.cut_off.discard(seat)
        self.strikes[seat] = self.views[seat] = 0
