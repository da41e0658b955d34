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

Message flow (types, fields and rules: docs/network.md):

* every sequenced envelope is checked by ``net.crypto.Verifier`` (signature, game,
  seat, exact sequence number) before anything else; refused ones are reported
  and dropped; a gap is filled from the other peers (``ctl/sync``);
* accepted envelopes go to a FIFO per seat; the head of a seat's FIFO is
  processed once this peer has caught up with what its sender had seen (a command
  made at game version v waits until our game is at version v), so messages of
  different seats may arrive in any order;
* the hidden deck work (private deals, public reveals, reshuffles) is derived from
  the engine state after every change, the same way on every peer.
"""

from __future__ import annotations

import json
import logging
from collections import deque
from typing import Any

import belfort
import msgpack
from belfort.data import SITE_TYPE
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from net.crypto import (CheatingError, ProtocolError, Signer, Verifier, commitment_hash,
                        encode_envelope, open_envelope, shared_seed, verify_reveal, wire)
from net.crypto.identity import SIG_DOMAIN

from .config import Alert, GameConfig, Timing, card_type
from .derive import derive_bytes, seeded_deck
from . import handoff as ho

log = logging.getLogger("belfort.session")

MAX_FUTURE = 512          # out-of-order envelopes held per seat
MAX_INBOX = 4096          # accepted envelopes waiting per seat
SYNC_BATCH = 256          # envelopes per ctl/sync answer
KEEP_VIEWS = 8            # public views kept for desync reports

# Session states
SETUP, PLAYING, OVER, STOPPED = "setup", "playing", "over", "stopped"


class Refused(Exception):
    """A message is refused: ``kind`` is the alert kind, ``seat`` who is named."""

    def __init__(self, kind: str, seat: int | None, text: str) -> None:
        super().__init__(text)
        self.kind, self.seat, self.text = kind, seat, text


def _diff(a: Any, b: Any, path: str = "", out: list | None = None, limit: int = 20) -> list:
    """Paths where two JSON-like values differ."""
    out = [] if out is None else out
    if len(out) >= limit:
        return out
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b), key=str):
            if k not in a or k not in b:
                out.append(f"{path}.{k}" if path else str(k))
            else:
                _diff(a[k], b[k], f"{path}.{k}" if path else str(k), out, limit)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            _diff(x, y, f"{path}[{i}]", out, limit)
    elif a != b:
        out.append(path or "(whole view)")
    return out


class SessionVerifier(Verifier):
    """Verifier whose key for a seat can change: after a handoff, the seat's messages
    from the cut on are signed by the hosting seat's identity key."""

    def rekey(self, seat: int, public_key: bytes) -> None:
        self._keys[seat] = Ed25519PublicKey.from_public_bytes(public_key)


class SimRound:
    """One simultaneous decision (keep-3, Spies' show, the shared seed) by commit-reveal."""

    def __init__(self, purpose: str, seats: list[int]) -> None:
        self.purpose = purpose
        self.seats = list(seats)
        self.commitments: dict[int, bytes] = {}
        self.values: dict[int, bytes] = {}
        self.own: tuple[bytes, bytes] | None = None   # (value, nonce)
        self.commit_seq: dict[int, int] = {}           # seat -> seq of its commitment
        self.revealed = False
        self.done = False

    @property
    def all_committed(self) -> bool:
        return len(self.commitments) == len(self.seats)

    @property
    def complete(self) -> bool:
        return len(self.values) == len(self.seats)

    def missing(self) -> list[int]:
        have = self.values if self.all_committed else self.commitments
        return [s for s in self.seats if s not in have]


class SessionPeer:
    def __init__(self, config: GameConfig, seat: int, identity, master: bytes, *,
                 store=None, timing: Timing | None = None, now: float = 0.0, clock=None) -> None:
        if not 0 <= seat < config.n:
            raise ValueError("seat out of range")
        if identity.public_bytes != config.keys[seat]:
            raise ValueError("this identity is not the one the roster has for this seat")
        self.cfg = config
        self.n = config.n
        self.seat = seat
        self.names = list(config.names)
        self.identity = identity
        self.master = master
        self.ruleset = config.ruleset()
        self.per = self.ruleset.cards_per_type
        self.timing = timing or Timing()
        self.signer = Signer(identity, config.game_id, seat)
        self.verifier = SessionVerifier(config.game_id, config.keys)
        self._pubkeys = [Ed25519PublicKey.from_public_bytes(k) for k in config.keys]
        self.clock = clock               # optional: a clock for latency measurements
        self.store_ = store              # on-disk log (storage.GameStore) or None
        self.replaying = False
        # transport side
        self.outbox: list[tuple[int | None, bytes]] = []
        self.sent: list[bytes] = []                       # our own envelopes, by seq
        self.accepted: list[list[bytes]] = [[] for _ in range(self.n)]   # others', by seq
        self.inbox: list[deque] = [deque() for _ in range(self.n)]
        self.future: list[dict[int, bytes]] = [{} for _ in range(self.n)]
        # the game
        self.status = SETUP
        self.stop_reason = ""
        self.game: belfort.GameState | None = None
        self.seed: bytes | None = None
        self.decks: list = []                             # DeckPeer per epoch
        self.loc: dict[int, tuple[int, int]] = {}         # engine id >= first epoch -> (epoch, pos)
        self.rounds: dict[str, SimRound] = {}
        self.rounds["seed"] = SimRound("seed", list(range(self.n)))
        self.events: list = []                            # engine events, for the UI
        self.history: list[tuple[int, tuple]] = []        # (seat, command) in applied order
        self.alerts: list[Alert] = []
        self.paused: tuple[int, str] | None = None        # (seat, text) after an illegal command
        self._boundary: tuple | None = None
        self.my_hashes: dict[int, tuple] = {}             # version -> (round, phase, hash, decks)
        self.my_views: dict[int, dict] = {}
        self.their_hashes: dict[int, dict[int, tuple]] = {}
        self.their_views: dict[int, dict[int, dict]] = {}
        self.desync: dict | None = None
        self.audit_result: tuple[bool, str] | None = None
        self._audit_sent = False
        self.apply_times: dict[tuple[int, int], float] = {}   # (seat, version) -> when applied
        self.t_first_place: float | None = None
        self.sent_times: dict[tuple[int, int], float] = {}    # our commands: when sent
        self.transmit = None       # optional callable(dest, bytes): send our envelopes at once
        self.sync_due = False      # a phase boundary passed: the transport fsyncs the log
        self.t_over: float | None = None
        # liveness
        self.last_seen = [now] * self.n
        self.connected = [True] * self.n
        self.have_of = [[0] * self.n for _ in range(self.n)]  # their last reported have-vector
        self._prev_len = [[0] * self.n for _ in range(self.n)]
        self.finished_of = [False] * self.n
        self._next_hb = now
        self._last_need = -1.0
        self._dirty = True
        self._alert_last: dict[tuple, float] = {}
        self.started = False
        # escrow and handoff (handoff.py; docs/network.md)
        self.auto_handoff: float | None = None    # vote by itself after this many s of silence
        self.handoff_level, self.handoff_think = "normal", 0.0
        self.esc_priv = ho.escrow_private(identity, config.game_id) if self.n >= ho.MIN_SEATS else None
        self.esc_pub: dict[int, bytes] = {}
        self.escrow: dict[int, dict] = {}          # owner -> its esc/shares fields
        self.my_shares: dict[int, bytes] = {}      # owner -> our (decrypted, checked) share
        self._esc_sent = False
        self.votes: dict[int, dict[int, int]] = {}     # target -> voter -> envelopes held
        self.shares_in: dict[int, dict[int, bytes]] = {}
        self._share_sent: set[int] = set()
        self.handed: dict[int, dict] = {}          # seat -> {host, cut, round, version}
        self.ghost: ho.Ghost | None = None         # the bot seat we host
        self.deck_log: list[list[dict]] = []       # processed deck bodies per epoch
        self._handed_told: dict[int, float] = {}

    # ================================================================ public API
    def start(self, now: float = 0.0) -> None:
        """Begin the game: commit to our share of the shared seed."""
        if self.started:
            return
        self.started = True
        if self.esc_priv is not None:
            pub = ho.public_bytes(self.esc_priv)
            self.esc_pub[self.seat] = pub
            self._send("esc/key", {"pub": pub})
        share = derive_bytes(self.master, "seed-share")
        self._commit(self.rounds["seed"], share)
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
            self._alert("error", f"internal error on a message ({type(exc).__name__}: {exc})",
                        src, now)

    def submit(self, command, now: float = 0.0) -> list:
        """Our seat's decision.  Raises belfort.CommandSyntaxError/IllegalCommandError,
        or RuntimeError when no decision of ours is awaited."""
        g = self.game
        if not self.decision_needed():
            raise RuntimeError("no decision of ours is awaited now")
        cmd, seat = belfort.check_legal(g, command, self.seat)
        self._dirty = True
        if self.store_ is not None and not self.replaying:
            self.store_.append("submit", list(_plain(cmd)))
        waiting = g.waiting_for()
        if len(waiting) > 1:
            rnd = self._sim_round()
            self._commit(rnd, wire.pack(_plain(cmd)))
            self._settle()
            return []
        for env in self._opens_for(cmd):
            self._emit(env)
        v = g.version
        if self.clock is not None:
            self.sent_times[(seat, v)] = self.clock()
        self._send("sess/cmd", {"v": v, "cmd": _plain(cmd)})
        events = self._apply(seat, cmd)
        self._settle()
        if self.ghost is not None:
            self._pump(now)
        return events

    def decision_needed(self) -> bool:
        """True when our seat must decide now (and knows its whole hand)."""
        g = self.game
        if g is None or self.status != PLAYING or self.desync:
            return False
        waiting = g.waiting_for()
        if self.seat not in waiting or not g.known_hand(self.seat):
            return False
        if len(waiting) > 1:
            rnd = self.rounds.get(f"sim/{g.version}")
            if rnd is not None and rnd.own is not None:
                return False
        return True

    def tick(self, now: float) -> None:
        """Heartbeats, connection state and time-outs."""
        if now >= self._next_hb:
            self._next_hb = now + self.timing.heartbeat
            self._heartbeat(None, need=False)
        for s in range(self.n):
            if s == self.seat:
                continue
            quiet = now - self.last_seen[s]
            if self.connected[s] and quiet > self.timing.disconnected:
                self.connected[s] = False
                if not self.finished_of[s] and s not in self.handed:
                    self._alert("disconnect", f"{self.names[s]} disconnected", s, now)
        if self.auto_handoff is not None and self.n >= ho.MIN_SEATS and self.status == PLAYING \
                and not self.handed:
            for s in range(self.n):
                if s != self.seat and s not in self.handed and not self.finished_of[s] \
                        and self.seat not in self.votes.get(s, {}) and s in self.escrow \
                        and now - self.last_seen[s] > self.auto_handoff:
                    self._vote(s, now)
        if self.ghost is not None:
            self._dirty = True
            self._pump(now)

    # ------------------------------------------------------------ handoff (public)
    def handoff(self, seat: int, now: float = 0.0) -> None:
        """Vote to hand ``seat`` (silent past the time-out) to a bot.  Raises
        handoff.HandoffError with the reason when it cannot be proposed."""
        if self.n < ho.MIN_SEATS:
            raise ho.HandoffError(ho.TWO_PLAYERS)
        if not (isinstance(seat, int) and 0 <= seat < self.n) or seat == self.seat:
            raise ho.HandoffError(f"seat {seat!r} is not another seat of this game")
        if seat in self.handed:
            raise ho.HandoffError(f"{self.names[seat]}'s seat is already played by a bot")
        if self.handed:
            raise ho.HandoffError(ho.ONE_ONLY)
        if self.seat in self.votes.get(seat, {}):
            raise ho.HandoffError(f"you already voted to hand {self.names[seat]}'s seat to a bot")
        if self.status != PLAYING:
            raise ho.HandoffError("the game is not running")
        if seat not in self.escrow:
            raise ho.HandoffError(f"{self.names[seat]} left before its escrow reached us: the seat "
                                  f"cannot be handed to a bot (it can still rejoin)")
        limit = self.auto_handoff if self.auto_handoff is not None else self.timing.timeout
        quiet = now - self.last_seen[seat]
        if quiet < limit:
            raise ho.HandoffError(f"{self.names[seat]} has been silent {quiet:.0f} s; a seat can "
                                  f"be handed to a bot after {limit:.0f} s of silence")
        self._vote(seat, now)

    def handoff_candidates(self, now: float) -> list[int]:
        """Seats that could be handed to a bot now."""
        if self.n < ho.MIN_SEATS or self.status != PLAYING or self.handed:
            return []
        limit = self.auto_handoff if self.auto_handoff is not None else self.timing.timeout
        return [s for s in range(self.n) if s != self.seat and s not in self.handed
                and s in self.escrow and now - self.last_seen[s] >= limit and self.seat not in self.votes.get(s, {})]

    def _vote(self, seat: int, now: float) -> None:
        if self.store_ is not None and not self.replaying:
            self.store_.append("handoff", seat)
        have = self.verifier.expected_seq(seat)
        self.votes.setdefault(seat, {})[self.seat] = have
        self._send("hand/vote", {"target": seat, "have": have})
        self._alert("info", f"you voted to hand {self.names[seat]}'s seat to a bot", seat, now)
        self._dirty = True
        self._pump(now)

    def take_outgoing(self) -> list[tuple[int | None, bytes]]:
        out, self.outbox = self.outbox, []
        return out

    def take_events(self) -> list:
        out, self.events = self.events, []
        return out

    @property
    def finished(self) -> bool:
        """Nothing more to do: the game is over and audited, or stopped."""
        return self.status == STOPPED or (self.status == OVER and self.audit_result is not None)

    def everyone_has_ours(self) -> bool:
        hosted = [self.ghost.seat] if self.ghost is not None else []
        return all(self.have_of[s][self.seat] >= len(self.sent) and
                   all(self.have_of[s][g] >= len(self.accepted[g]) for g in hosted) and
                   (self.finished_of[s] or self.status == STOPPED)
                   for s in range(self.n) if s != self.seat and s not in self.handed)

    def waiting_text(self, now: float) -> str:
        """E.g. "waiting for Bo (disconnected 12 s)"."""
        seats = self.waiting_seats()
        if not seats:
            return ""
        parts = []
        for s in seats:
            if s == self.seat:
                parts.append("you")
            elif s in self.handed:
                parts.append(f"{self.names[s]} (bot)")
            elif not self.connected[s]:
                parts.append(f"{self.names[s]} (disconnected {now - self.last_seen[s]:.0f} s)")
            else:
                parts.append(self.names[s])
        return "waiting for " + ", ".join(parts)

    def waiting_seats(self) -> list[int]:
        """Seats whose message the game needs next (decision, commitment or deck step)."""
        if self.status in (OVER, STOPPED) and self.audit_result is not None:
            return []
        g = self.game
        if g is None:
            rnd = self.rounds["seed"]
            return rnd.missing()
        for d in self.decks:
            w = d.waiting_for()
            if w:
                return w
        if g.reveal_queue:
            seats = set()
            for c in g.reveal_queue:
                e, pos = self._locate(c)
                if e < len(self.decks):
                    seats.update(self.decks[e].unreleased(pos))
            return sorted(seats)
        waiting = g.waiting_for()
        rnd = self.rounds.get(f"sim/{g.version}")
        if len(waiting) > 1 and rnd is not None:
            return rnd.missing()
        unknown = [s for s in range(self.n) if not self._hand_dealt(s)]
        return sorted(set(waiting) | set(unknown))

    def peer_states(self, now: float) -> list[dict]:
        out = []
        for s in range(self.n):
            if s == self.seat:
                state = "here"
            elif s in self.handed:
                state = "bot"
            elif self.finished_of[s] and not self.connected[s]:
                state = "left"
            elif self.connected[s]:
                state = "connected"
            else:
                state = "disconnected"
            out.append({"seat": s, "name": self.names[s], "kind": "you" if s == self.seat
                        else self.cfg.kinds[s], "state": state,
                        "quiet": 0.0 if s == self.seat else round(now - self.last_seen[s], 1)})
        return out

    def restore(self, records, now: float = 0.0) -> None:
        """Rebuild the state from our own log (rejoin): the same inputs in the same
        order give the same state and the same outgoing envelopes."""
        self.replaying = True
        try:
            self.start(now)
            for kind, payload in records:
                if kind == "in":
                    self._accept(payload, now, src=None, relayed=True)
                elif kind == "submit":
                    self.submit(payload, now)
                elif kind == "handoff":
                    self._vote(payload, now)
        finally:
            self.replaying = False
        if self.ghost is not None:
            self.ghost.resume()
        self.outbox = []
        self.events = []

    def announce(self) -> None:
        """After a (re)start: tell everyone what we have so they fill our gaps."""
        self._heartbeat(None, need=True)

    # ============================================================ receive side
    def _receive(self, data: bytes, now: float, src: int | None) -> None:
        who = f"a message from seat {src}" if src is not None else "a message"
        try:
            body = _peek(data)
        except ProtocolError as exc:
            raise Refused("cheat" if src is not None else "error", src,
                          f"{who} was malformed and dropped ({exc.detail})") from None
        seat = body["seat"]
        if src is not None and 0 <= src < self.n and src != self.seat:
            self._seen(src, now)
        if body["type"].startswith("ctl/"):
            self._control(body, data, now, src)
            return
        self._accept(data, now, src, relayed=False, opened=body)

    def _seen(self, s: int, now: float) -> None:
        self.last_seen[s] = max(self.last_seen[s], now)
        if not self.connected[s]:
            self.connected[s] = True
            self._alert("reconnect", f"{self.names[s]} is back", s, now)

    def _accept(self, data: bytes, now: float, src: int | None, relayed: bool,
                opened: dict | None = None) -> None:
        body = opened if opened is not None else _peek(data)
        seat, seq = body["seat"], body["seq"]
        by = "" if src is None or src == seat else f" (sent by seat {src})"
        if seat == self.seat:
            if seq < len(self.sent) and self.sent[seq] == data:
                return   # our own message came back in a resync
            raise Refused("cheat", src if src != seat else None,
                          f"a message claiming to be ours (seq {seq}) was refused{by}")
        if seat in self.votes and seat not in self.handed and 0 <= seat < self.n \
                and seq >= max(self.votes[seat].values()):
            return     # a handoff of this seat is under way: nothing past the cut counts
        try:
            body = self.verifier.verify(data)
        except ProtocolError as exc:
            if seat in self.handed and exc.reason == "sig/bad-signature":
                raise Refused("info", None, f"a message signed by {self.names[seat]} was ignored: "
                                            f"the seat is played by a bot now") from None
            if exc.reason == "sig/replayed":
                if seq < len(self.accepted[seat]) and self.accepted[seat][seq] == data:
                    if relayed:
                        return           # a duplicate from a resync: nothing to say
                    raise Refused("cheat", src if src is not None else seat,
                                  f"replayed message of {self._name(seat)} (seq {seq}) refused{by}")
                # a validly signed, different message with a used seq: equivocation
                raise Refused("cheat", seat, f"{self._name(seat)} signed two different "
                                             f"messages with seq {seq}{by}")
            if exc.reason == "sig/out-of-order":
                fut = self.future[seat]
                if len(fut) < MAX_FUTURE:
                    fut.setdefault(seq, data)
                if now - self._last_need >= 0.05 or self._last_need > now:
                    self._last_need = now
                    self._heartbeat(None, need=True)
                return
            if exc.reason == "sig/unknown-seat" or exc.reason == "sig/wrong-game":
                raise Refused("cheat" if src is not None else "error", src,
                              f"a message for another game or seat was refused{by}: {exc.detail}")
            raise Refused("cheat", src if src is not None else seat,
                          f"a message claiming to come from {self._name(seat)} was refused "
                          f"({exc.reason}){by}")
        self._take(seat, data, body, now)
        # anything held that now fits
        fut = self.future[seat]
        while fut:
            nxt = self.verifier.expected_seq(seat)
            held = fut.pop(nxt, None)
            if held is None:
                for q in [q for q in fut if q < nxt]:
                    del fut[q]
                break
            self._take(seat, held, self.verifier.verify(held), now)
        self._pump(now)

    def _take(self, seat: int, data: bytes, body: dict, now: float) -> None:
        if self.store_ is not None and not self.replaying:
            self.store_.append("in", data)
        self.accepted[seat].append(data)
        if len(self.inbox[seat]) >= MAX_INBOX:
            self._stop(f"{self.names[seat]} sent too many messages ahead of the game", now)
            return
        self.inbox[seat].append(body)

    def _pump(self, now: float) -> None:
        if self.status == STOPPED:
            # only the desync report goes on: state hashes and public views
            for s in range(self.n):
                keep = deque()
                for body in self.inbox[s]:
                    if body["type"] in ("sess/hash", "sess/view"):
                        try:
                            self._process(body, now)
                        except Refused as exc:
                            self._alert(exc.kind, exc.text, exc.seat, now)
                    else:
                        keep.append(body)
                self.inbox[s] = keep
            return
        progress = True
        while progress:
            progress = False
            for s in range(self.n):
                q = self.inbox[s]
                while q and self.status != STOPPED:
                    state = self._ready(q[0])
                    if state == "wait":
                        break
                    body = q.popleft()
                    progress = True
                    try:
                        self._process(body, now)
                    except Refused as exc:
                        self._alert(exc.kind, exc.text, exc.seat, now)
                    except CheatingError as exc:
                        self._alert("cheat", f"{self._name(exc.seat)} broke the deck protocol: "
                                             f"{exc}", exc.seat, now)
                        self._stop(f"cheating detected: {exc}", now)
                    except ProtocolError as exc:
                        self._alert("error", f"refused a message of {self._name(s)}: {exc}", s, now)
            if self._settle():
                progress = True
            if self.ghost is not None and not self.replaying and self.status != STOPPED:
                for env in self.ghost.step():
                    self._ghost_emit(encode_envelope(env), now)
                    progress = True

    def _ready(self, body: dict) -> str:
        t = body["type"]
        g = self.game
        if t.startswith("deck/"):
            e = body.get("epoch")
            if wire.is_int(e) and e >= len(self.decks) and e < 1 << 20:
                return "wait"
            if t == "deck/open" and wire.is_int(e) and 0 <= e < len(self.decks):
                # the holder opens a card once every other seat's key reached it; those
                # keys may still be on their way to us (another seat's queue)
                deck, pos, s = self.decks[e], body.get("pos"), body["seat"]
                if not deck.ready:
                    return "wait"
                if wire.is_int(pos) and 0 <= pos < deck.size and any(
                        q not in deck.released[pos] for q in range(self.n) if q != s):
                    return "wait"
            return "now"
        if t == "sess/cmd":
            v = body.get("v")
            if g is None or (wire.is_int(v) and g.version < v):
                return "wait"
            return "now"
        if t.startswith("commit/"):
            purpose = body.get("purpose")
            if isinstance(purpose, str) and purpose.startswith("sim/"):
                v = _int_suffix(purpose)
                if g is None or (v is not None and g.version < v):
                    return "wait"
            return "now"
        return "now"

    def _process(self, body: dict, now: float) -> None:
        t, seat = body["type"], body["seat"]
        self._dirty = True
        if self.status == STOPPED and t not in ("sess/hash", "sess/view"):
            return
        if t.startswith("deck/"):
            e = body["epoch"]
            if not (wire.is_int(e) and 0 <= e < len(self.decks)):
                raise Refused("cheat", seat, f"{self._name(seat)} sent a deck message for "
                                             f"an epoch that does not exist ({e!r})")
            for env in self.decks[e].handle(body):
                self._emit(env)
            self.deck_log[e].append(body)
            if self.ghost is not None:
                self.ghost.feed(body)
        elif t in ("commit/commit", "commit/reveal"):
            self._on_commit(body, now)
        elif t == "sess/cmd":
            self._on_cmd(body, now)
        elif t == "sess/hash":
            self._on_hash(body, now)
        elif t == "sess/view":
            self._on_view(body, now)
        elif t in ("esc/key", "esc/shares"):
            self._on_escrow(body, now)
        elif t in ("hand/vote", "hand/share"):
            self._on_hand(body, now)
        else:
            raise Refused("cheat", seat, f"{self._name(seat)} sent an unknown message type {t!r}")

    # ------------------------------------------------------------ commands
    def _on_cmd(self, body: dict, now: float) -> None:
        seat, g = body["seat"], self.game
        v, raw = body.get("v"), body.get("cmd")
        if not (wire.is_int(v) and isinstance(raw, list) and raw and isinstance(raw[0], str)):
            raise Refused("cheat", seat, f"{self._name(seat)} sent a malformed command message")
        text = _show(raw)
        if v != g.version:
            raise Refused("cheat", seat, f"{self._name(seat)} sent '{text}' for game version {v}, "
                                         f"but the game is at {g.version}")
        waiting = g.waiting_for()
        if seat not in waiting or len(waiting) > 1:
            why = "simultaneous decisions go by commit-reveal" if seat in waiting else \
                f"the game waits for {self._names(waiting) or 'a card reveal'}"
            self._illegal(seat, text, why, now)
            return
        self._check_and_apply(seat, raw, text, now)

    def _check_and_apply(self, seat: int, raw, text: str, now: float) -> bool:
        g = self.game
        try:
            cmd = belfort.normalize(_tuples(raw))
        except (belfort.CommandSyntaxError, TypeError, ValueError) as exc:
            self._illegal(seat, text, f"malformed: {exc}", now)
            return False
        problem = self._claim_problem(seat, cmd)
        if problem:
            raise Refused("cheat", seat, f"{self._name(seat)} sent '{belfort.command_text(cmd)}'"
                                         f" but {problem}")
        try:
            self._apply(seat, cmd, now)    # apply refuses an illegal command, changing nothing
        except belfort.BelfortError as exc:
            self._illegal(seat, text, str(exc), now)
            return False
        if self.paused and self.paused[0] == seat:
            self.paused = None
            self._alert("info", f"{self.names[seat]} sent a legal command: the game goes on", seat, now)
        return True

    def _illegal(self, seat: int, text: str, why: str, now: float) -> None:
        self.paused = (seat, text)
        raise Refused("cheat", seat, f"{self._name(seat)} sent an illegal command '{text}': {why}. "
                                     f"It was refused; the game waits for a legal one.")

    def _claims(self, seat: int, cmd: tuple) -> list[tuple[int, Any]]:
        verb = cmd[0]
        try:
            if verb == "build" and len(cmd) == 3:
                return [(cmd[1], SITE_TYPE[cmd[2]])]
            if verb in ("discard", "show") and len(cmd) == 3:
                return [(cmd[1], cmd[2])]
            if verb == "keep" and len(cmd) == 3:
                d = cmd[2]
                return [(d[i], d[i + 1]) for i in range(0, len(d) - 1, 2)]
        except (TypeError, IndexError):
            return []
        return []

    def _claim_problem(self, seat: int, cmd: tuple) -> str:
        """Every hand card the command names with its type must have been shown
        through the deck (deck/open), and be of that type."""
        g = self.game
        hand = g.players[seat].hand
        for card, t in self._claims(seat, cmd):
            if not wire.is_int(card) or card not in hand or g.types[card] is not None:
                continue   # not a hidden card of its hand: the engine decides
            e, pos = self._locate(card)
            deck = self.decks[e] if e < len(self.decks) else None
            if deck is None or not deck.ready or len(deck.released[pos]) < self.n \
                    or pos not in deck.known:
                return f"card #{card} was not shown through the deck"
            real = card_type(deck.known[pos], self.per)
            if real != t:
                return (f"card #{card} is a {belfort.CARD_TYPES[real]}, not "
                        f"{belfort.CARD_TYPES[t] if isinstance(t, int) and 0 <= t < 10 else t!r}")
        return ""

    def _opens_for(self, cmd: tuple) -> list[dict]:
        """deck/open envelopes for the hidden hand cards our command names."""
        g, out = self.game, []
        for card, _t in self._claims(self.seat, cmd):
            if card in g.players[self.seat].hand and not g.public[card]:
                e, pos = self._locate(card)
                deck = self.decks[e]
                if deck.holder(pos) == self.seat:
                    out.append(deck.open(pos))
        return out

    def _apply(self, seat: int, cmd: tuple, now: float = 0.0) -> list:
        g = self.game
        v = g.version
        events = belfort.apply(g, cmd, seat)
        self.history.append((seat, cmd))
        t = self.clock() if self.clock else now
        self.apply_times[(seat, v)] = t
        if self.t_first_place is None and cmd[0] == "place":
            self.t_first_place = t
        self._after_change(events)
        return events

    def _after_change(self, events: list) -> None:
        g = self.game
        self.events.extend(events)
        for ev in events:
            if ev[0] == "reshuffle":
                self._new_epoch(ev[1], ev[2], ev[3])
        self._check_boundary()

    # ------------------------------------------------------------ commit-reveal
    def _sim_round(self) -> SimRound:
        g = self.game
        purpose = f"sim/{g.version}"
        rnd = self.rounds.get(purpose)
        if rnd is None:
            rnd = self.rounds[purpose] = SimRound(purpose, g.waiting_for())
        return rnd

    def _commit(self, rnd: SimRound, value: bytes) -> None:
        nonce = derive_bytes(self.master, f"nonce/{rnd.purpose}/{len(self.sent)}")
        c = commitment_hash(value, nonce, self.cfg.game_id, self.seat, rnd.purpose)
        rnd.own = (value, nonce)
        rnd.commitments[self.seat] = c
        self._send("commit/commit", {"purpose": rnd.purpose, "commitment": c})

    def _on_commit(self, body: dict, now: float) -> None:
        seat, purpose = body["seat"], body.get("purpose")
        if not isinstance(purpose, str):
            raise Refused("cheat", seat, f"{self._name(seat)} sent a commitment without purpose")
        if purpose == "seed":
            rnd = self.rounds["seed"]
        elif purpose.startswith("sim/") and self.game is not None \
                and _int_suffix(purpose) == self.game.version and len(self.game.waiting_for()) > 1:
            rnd = self._sim_round()
        else:
            raise Refused("cheat", seat, f"{self._name(seat)} sent a commit-reveal message "
                                         f"for {purpose!r}, which is not open now")
        if seat not in rnd.seats:
            raise Refused("cheat", seat, f"{self._name(seat)} is not part of {purpose!r}")
        if body["type"] == "commit/commit":
            c = body.get("commitment")
            if not (isinstance(c, bytes) and len(c) == 32):
                raise Refused("cheat", seat, f"{self._name(seat)} sent a malformed commitment")
            if seat in rnd.commitments:
                raise Refused("cheat", seat, f"{self._name(seat)} committed twice to {purpose!r}")
            rnd.commitments[seat] = c
            rnd.commit_seq[seat] = body["seq"]
        else:
            value, nonce = body.get("value"), body.get("nonce")
            if not (isinstance(value, bytes) and len(value) <= 4096 and isinstance(nonce, bytes)
                    and len(nonce) == 32):
                raise Refused("cheat", seat, f"{self._name(seat)} sent a malformed reveal")
            if seat not in rnd.commitments or seat in rnd.values:
                raise Refused("cheat", seat, f"{self._name(seat)} revealed out of turn for {purpose!r}")
            try:
                verify_reveal(rnd.commitments[seat], value, nonce, purpose, self.cfg.game_id, seat)
            except CheatingError:
                raise Refused("cheat", seat, f"{self._name(seat)}'s reveal does not open its "
                                             f"commitment ({purpose!r})") from None
            rnd.values[seat] = value

    def _advance_rounds(self) -> bool:
        """Reveal once every commitment is in; finish a round once every value is in."""
        progress = False
        for rnd in list(self.rounds.values()):
            if rnd.done:
                continue
            if rnd.own is not None and rnd.all_committed and not rnd.revealed:
                rnd.revealed = True
                value, nonce = rnd.own
                if rnd.purpose.startswith("sim/"):
                    cmd = belfort.normalize(_tuples(wire.unpack(value, "x")))
                    for env in self._opens_for(cmd):
                        self._emit(env)
                rnd.values[self.seat] = value
                self._send("commit/reveal", {"purpose": rnd.purpose, "value": value, "nonce": nonce})
                progress = True
            if rnd.complete:
                rnd.done = True
                progress = True
                if rnd.purpose == "seed":
                    self._begin_game([rnd.values[s] for s in range(self.n)])
                else:
                    self._finish_sim(rnd)
        return progress

    def _finish_sim(self, rnd: SimRound) -> None:
        for s in rnd.seats:
            try:
                raw = wire.unpack(rnd.values[s], "x")
                if not isinstance(raw, list) or not raw or not isinstance(raw[0], str):
                    raise ProtocolError("x")
            except ProtocolError:
                self._stop(f"{self._name(s)} revealed something that is not a command", 0.0)
                self._alert("cheat", f"{self._name(s)} revealed something that is not a command", s)
                return
            text = _show(raw)
            try:
                ok = self._check_and_apply(s, raw, text, 0.0)
            except Refused as exc:
                self._alert(exc.kind, exc.text, exc.seat)
                ok = False
            if not ok:
                self._stop(f"{self._name(s)}'s simultaneous choice '{text}' was refused", 0.0)
                return

    # ------------------------------------------------------------ the game and deck
    def _begin_game(self, shares: list[bytes]) -> None:
        self.seed = shared_seed(shares)
        self.game = belfort.new_game(self.names, self.cfg.options, seed=self.seed,
                                     ruleset=self.ruleset, hidden=True)
        self.status = PLAYING
        total = len(self.game.types)
        deck = seeded_deck(self.signer, self.n, range(total), 0, self.master)
        self.decks.append(deck)
        self.deck_log.append([])
        for env in deck.start():
            self._emit(env)
        self.events.append(("started", self.seed.hex()))
        self._check_boundary()

    def _locate(self, card: int) -> tuple[int, int]:
        if card < 10 * self.per:
            return 0, card
        return self.loc[card]

    def _phys(self, card: int) -> int:
        e, pos = self._locate(card)
        return self.decks[e].known[pos]

    def _new_epoch(self, epoch: int, old: tuple, new: tuple) -> None:
        if epoch != len(self.decks):
            self._stop(f"reshuffle epoch {epoch} does not follow deck {len(self.decks) - 1}", 0.0)
            return
        try:
            cards = [self._phys(c) for c in old]
        except KeyError:
            self._stop("a discarded card was never shown through the deck", 0.0)
            return
        deck = seeded_deck(self.signer, self.n, cards, epoch, self.master)
        self.decks.append(deck)
        self.deck_log.append([])
        for j, c in enumerate(new):
            self.loc[c] = (epoch, j)
        if self.ghost is not None:
            self.ghost.new_epoch(epoch, cards)
        for env in deck.start():
            self._emit(env)

    def _hand_dealt(self, seat: int) -> bool:
        """Every other seat has released its key for every hidden card of seat's hand."""
        g = self.game
        for c in g.players[seat].hand:
            if g.public[c]:
                continue
            e, pos = self._locate(c)
            if e >= len(self.decks):
                return False
            rel = self.decks[e].released[pos]
            if any(s not in rel for s in range(self.n) if s != seat):
                return False
        return True

    def _settle(self) -> bool:
        """Deck work the engine state calls for, then commit-reveal steps.  True if
        anything changed."""
        if not self._dirty:
            return False
        self._dirty = False
        progress = self._advance_rounds()
        if self.n >= ho.MIN_SEATS:
            progress = self._escrow_step() or progress
            progress = self._handoff_step() or progress
        g = self.game
        if g is None or self.status == STOPPED:
            return progress
        progress = self._settle_deck(g) or progress
        if progress:
            self._dirty = True      # look once more: what changed may call for more
        return progress

    def _settle_deck(self, g) -> bool:
        progress = False
        again = True
        while again:
            again = False
            # 1. release our keys: for hidden cards in other hands, and for cards to reveal
            todo: dict[int, list[int]] = {}
            for s in range(self.n):
                if s == self.seat:
                    continue
                for c in g.players[s].hand:
                    if not g.public[c]:
                        self._want_release(c, todo)
            for c in g.reveal_queue:
                self._want_release(c, todo)
            for e, positions in todo.items():
                deck = self.decks[e]
                before = len(deck.alerts)
                self._emit(deck.release(positions))
                self._deck_alerts(deck, before)
                progress = True
            # 2. our own hand: learn what the deck told us
            for c in g.players[self.seat].hand:
                if g.types[c] is None:
                    e, pos = self._locate(c)
                    if e < len(self.decks) and pos in self.decks[e].known:
                        belfort.learn(g, c, card_type(self.decks[e].known[pos], self.per))
                        progress = True
            # 3. public reveals
            for c in list(g.reveal_queue):
                e, pos = self._locate(c)
                if e >= len(self.decks):
                    continue
                deck = self.decks[e]
                if len(deck.released[pos]) == self.n and pos in deck.known:
                    t = card_type(deck.known[pos], self.per)
                    try:
                        events = belfort.reveal(g, c, t)
                    except belfort.BelfortError as exc:
                        self._stop(f"the deck revealed an impossible card: {exc}", 0.0)
                        return True
                    self._after_change(events)
                    progress = again = True
            if self.status == STOPPED:
                return True
        if g.is_over() and self.status == PLAYING:
            self.status = OVER
            self.t_over = self.clock() if self.clock else None
            progress = True
        if self.status == OVER:
            progress |= self._audit_step()
        return progress

    def _want_release(self, card: int, todo: dict) -> None:
        e, pos = self._locate(card)
        if e >= len(self.decks):
            return
        deck = self.decks[e]
        if deck.ready and self.seat not in deck.released[pos]:
            lst = todo.setdefault(e, [])
            if pos not in lst:
                lst.append(pos)

    def _deck_alerts(self, deck, before: int) -> None:
        for a in deck.alerts[before:]:
            self._alert("cheat", f"the deck is inconsistent: {a}", a.seat)
            self._stop(f"deck problem: {a}", 0.0)

    def _audit_step(self) -> bool:
        if self.audit_result is not None:
            return False
        if not all(d.ready for d in self.decks):
            return False
        progress = False
        if not self._audit_sent:
            self._audit_sent = True
            for d in self.decks:
                self._emit(d.publish_audit())
            progress = True
        if all(d.audit_report is not None for d in self.decks):
            bad = [(e, d.audit_report) for e, d in enumerate(self.decks) if not d.audit_report.ok]
            if bad:
                e, rep = bad[0]
                faults = "; ".join(f"seat {s}: {r} {d}" for s, r, d in rep.faults[:5])
                self.audit_result = (False, f"deck audit FAILED (epoch {e}): {faults}")
                self._alert("cheat", self.audit_result[1])
            else:
                # every card the game made public must be the card the deck holds there
                wrong = self._check_public_cards()
                if wrong:
                    self.audit_result = (False, f"audit: {wrong}")
                else:
                    self.audit_result = (True, (
                        f"deck audit passed: {len(self.decks)} deck(s), every shuffle and key "
                        f"checked by all {self.n} peers; final state hash "
                        f"{belfort.state_hash(self.game)[:12]}"))
            self.events.append(("audit", self.audit_result[0]))
            progress = True
        return progress

    def _check_public_cards(self) -> str:
        g = self.game
        for c, t in enumerate(g.types):
            if t is None or not g.public[c]:
                continue
            e, pos = self._locate(c)
            rep = self.decks[e].audit_report
            phys = rep.cards[pos] if rep is not None and rep.cards else None
            if phys is not None and card_type(phys, self.per) != t:
                return f"card #{c} was played as {belfort.CARD_TYPES[t]} but the deck holds another card"
        return ""

    # ------------------------------------------------------------ phase hashes
    def _check_boundary(self) -> None:
        g = self.game
        key = (g.round, g.phase)
        if key == self._boundary:
            return
        self._boundary = key
        v = g.version
        h = belfort.state_hash(g)
        decks = [d.transcript_digest or b"" for d in self.decks]
        self.my_hashes[v] = (g.round, g.phase, h, decks)
        self.my_views[v] = belfort.public_view(g)
        for old in sorted(self.my_views)[:-KEEP_VIEWS]:
            del self.my_views[old]
        self._send("sess/hash", {"v": v, "round": g.round, "phase": g.phase, "hash": h})
        if self.store_ is not None and not self.replaying:
            self.sync_due = True
        if v in self.their_hashes:
            for s, theirs in list(self.their_hashes[v].items()):
                self._compare_hash(s, v, theirs)

    def _on_hash(self, body: dict, now: float) -> None:
        seat = body["seat"]
        v, r, ph, h = body.get("v"), body.get("round"), body.get("phase"), body.get("hash")
        if not (wire.is_int(v) and wire.is_int(r) and isinstance(ph, str) and isinstance(h, str)
                and len(h) == 64 and len(ph) < 32):
            raise Refused("cheat", seat, f"{self._name(seat)} sent a malformed state hash")
        theirs = (r, ph, h)
        self.their_hashes.setdefault(v, {})[seat] = theirs
        if len(self.their_hashes) > 64:
            del self.their_hashes[min(self.their_hashes)]
        if v in self.my_hashes:
            self._compare_hash(seat, v, theirs)

    def _compare_hash(self, seat: int, v: int, theirs: tuple) -> None:
        mine = self.my_hashes[v]
        if self.desync is None:
            if tuple(mine[:3]) == tuple(theirs):
                return
            self.desync = {"version": v, "round": mine[0], "phase": mine[1],
                           "hashes": {self.seat: mine[2]}, "verdict": ""}
            view = self.my_views.get(v)
            if view is not None:
                self._send("sess/view", {"v": v, "view": json.dumps(view, sort_keys=True)})
        elif self.desync["version"] != v:
            return
        hashes = self.desync["hashes"]
        hashes[seat] = theirs[2]
        for s, th in self.their_hashes.get(v, {}).items():
            hashes.setdefault(s, th[2])
        # who disagrees: the seats outside the largest group of equal hashes
        groups: dict[str, list[int]] = {}
        for s, h in sorted(hashes.items()):
            groups.setdefault(h, []).append(s)
        best = max(groups.values(), key=len)
        if len(best) * 2 <= len(hashes):
            odd = sorted(hashes)
            who = "the peers disagree: " + "; ".join(
                f"{self._names(g)} {'has' if len(g) == 1 else 'have'} {h[:12]}"
                for h, g in groups.items())
        else:
            odd = sorted(s for g in groups.values() if g is not best for s in g)
            who = f"{self._names(odd)} disagree{'s' if len(odd) == 1 else ''} with the others"
        if who == self.desync["verdict"]:
            return
        self.desync["verdict"] = who
        self.desync["odd"] = odd
        text = (f"DESYNC at round {mine[0]}, {mine[1]} (version {v}): {who} "
                f"({len(hashes)} of {self.n} state hashes in). The game is stopped.")
        self._alert("desync", text, odd[0] if len(odd) == 1 else None)
        self._stop(text, 0.0)

    def _on_view(self, body: dict, now: float) -> None:
        seat, v, text = body["seat"], body.get("v"), body.get("view")
        if not (wire.is_int(v) and isinstance(text, str)):
            raise Refused("cheat", seat, f"{self._name(seat)} sent a malformed view")
        try:
            theirs = json.loads(text)
        except ValueError:
            raise Refused("cheat", seat, f"{self._name(seat)} sent a view that is not JSON") from None
        self.their_views.setdefault(v, {})[seat] = theirs
        mine = self.my_views.get(v)
        if mine is None:
            return
        fields = _diff(json.loads(json.dumps(mine, sort_keys=True)), theirs)
        if fields:
            if self.desync is not None:
                self.desync.setdefault("fields", {})[seat] = fields
            self._alert("desync", f"{self.names[seat]}'s public state differs from ours in: "
                                  f"{', '.join(fields)}", seat)

    # ------------------------------------------------------------ escrow and handoff
    def _on_escrow(self, body: dict, now: float) -> None:
        seat, n = body["seat"], self.n
        if n < ho.MIN_SEATS:
            raise Refused("cheat", seat, f"{self._name(seat)} sent an escrow message in a "
                                         f"{n}-player game (escrow is for 3 to 5 players)")
        if body["type"] == "esc/key":
            pub = body.get("pub")
            if not (isinstance(pub, bytes) and len(pub) == 32):
                raise Refused("cheat", seat, f"{self._name(seat)} sent a malformed escrow key")
            if seat in self.esc_pub:
                raise Refused("cheat", seat, f"{self._name(seat)} sent its escrow key twice")
            self.esc_pub[seat] = pub
            return
        commit, sc, boxes = body.get("commit"), body.get("share_commits"), body.get("boxes")
        ok = (isinstance(commit, bytes) and len(commit) == 32 and isinstance(sc, list)
              and isinstance(boxes, list) and len(sc) == n and len(boxes) == n)
        if ok:
            for j in range(n):
                want_c, want_b = (0, 0) if j == seat else (32, 48)
                if not (isinstance(sc[j], bytes) and len(sc[j]) == want_c
                        and isinstance(boxes[j], bytes) and len(boxes[j]) == want_b):
                    ok = False
        if not ok:
            raise Refused("cheat", seat, f"{self._name(seat)} sent a malformed escrow")
        if seat in self.escrow:
            raise Refused("cheat", seat, f"{self._name(seat)} sent its escrow twice")
        if seat not in self.esc_pub:
            raise Refused("cheat", seat, f"{self._name(seat)} sent its escrow before its escrow key")
        self.escrow[seat] = {"commit": commit, "share_commits": sc, "boxes": boxes}
        share = ho.unseal(self.esc_priv, self.esc_pub[seat], self.cfg.game_id, seat, self.seat,
                          boxes[self.seat])
        if share is None or len(share) != 32 or \
                ho.share_commitment(share, self.cfg.game_id, seat, self.seat) != sc[self.seat]:
            raise Refused("cheat", seat, f"{self._name(seat)}'s escrow share for us does not open "
                                         f"its commitment: its seat could not be handed to a bot")
        self.my_shares[seat] = share

    def _escrow_step(self) -> bool:
        if self._esc_sent or len(self.esc_pub) < self.n or self.status == STOPPED:
            return False
        self._esc_sent = True
        gid = self.cfg.game_id
        shares = ho.split(self.master, self.n, self.seat)
        sc = [b"" if j == self.seat else ho.share_commitment(shares[j], gid, self.seat, j)
              for j in range(self.n)]
        boxes = [b"" if j == self.seat else ho.seal(self.esc_priv, self.esc_pub[j], gid, self.seat,
                                                    j, shares[j]) for j in range(self.n)]
        self._send("esc/shares", {"commit": ho.master_commitment(self.master, gid, self.seat),
                                  "share_commits": sc, "boxes": boxes})
        return True

    def _remaining(self, target: int) -> list[int]:
        return [s for s in range(self.n) if s != target and s not in self.handed]

    def _on_hand(self, body: dict, now: float) -> None:
        seat, target = body["seat"], body.get("target")
        if self.n < ho.MIN_SEATS:
            raise Refused("cheat", seat, f"{self._name(seat)} proposed a handoff: {ho.TWO_PLAYERS}")
        if not (wire.is_int(target) and 0 <= target < self.n) or target == seat \
                or self.handed or (body["type"] == "hand/share" and target not in self.votes):
            raise Refused("cheat", seat, f"{self._name(seat)} sent a handoff message for "
                                         f"seat {target!r}, which cannot be handed over")
        if body["type"] == "hand/vote":
            have = body.get("have")
            if not (wire.is_int(have) and 0 <= have < 1 << 32):
                raise Refused("cheat", seat, f"{self._name(seat)} sent a malformed handoff vote")
            votes = self.votes.setdefault(target, {})
            if seat in votes:
                raise Refused("cheat", seat, f"{self._name(seat)} voted twice on {self._name(target)}")
            votes[seat] = have
            if self.seat != target and self.seat not in votes:
                self._alert("info", f"{self.names[seat]} proposes to hand {self.names[target]}'s seat "
                                    f"to a bot (agree: handoff {target})", target, now)
        else:
            share = body.get("share")
            if not (isinstance(share, bytes) and len(share) == 32):
                raise Refused("cheat", seat, f"{self._name(seat)} sent a malformed escrow share")
            got = self.shares_in.setdefault(target, {})
            if seat in got:
                raise Refused("cheat", seat, f"{self._name(seat)} sent its share of "
                                             f"{self._name(target)} twice")
            got[seat] = share

    def _share_out(self, target: int, share: bytes) -> bytes:
        """The share we publish (a test can make a cheater by overriding this)."""
        return share

    def _handoff_step(self) -> bool:
        progress = False
        for target in sorted(self.votes):
            if target in self.handed or self.status == STOPPED:
                continue
            votes, remaining = self.votes[target], self._remaining(target)
            if not all(s in votes for s in remaining):
                continue
            cut = max(votes.values())
            if self.verifier.expected_seq(target) < cut:
                continue          # the envelopes up to the cut are on their way (resync)
            if self.seat != target and target not in self._share_sent:
                share = self.my_shares.get(target)
                if share is None:
                    self._stop(f"{self._name(target)}'s seat cannot be handed to a bot: its "
                               f"escrow share for us never arrived or was wrong", 0.0)
                    return True
                self._share_sent.add(target)
                self.shares_in.setdefault(target, {})[self.seat] = share
                self._send("hand/share", {"target": target, "share": self._share_out(target, share)})
                progress = True
            got = self.shares_in.get(target, {})
            if all(s in got for s in remaining):
                self._finish_handoff(target, cut, remaining)
                progress = True
        return progress

    def _finish_handoff(self, target: int, cut: int, remaining: list[int]) -> None:
        gid, name = self.cfg.game_id, self._name(target)
        esc = self.escrow.get(target)
        if self.verifier.expected_seq(target) != cut:
            self._stop(f"the handoff of {name} failed: we hold more of its messages than the cut", 0.0)
            return
        if esc is None:
            self._stop(f"{name}'s seat cannot be handed to a bot: its escrow never arrived", 0.0)
            return
        shares = self.shares_in[target]
        bad = [s for s in remaining
               if ho.share_commitment(shares[s], gid, target, s) != esc["share_commits"][s]]
        if bad:
            for s in bad:
                self._alert("cheat", f"{self._name(s)} published a wrong escrow share of {name}'s "
                                     f"seat (it does not match the commitment)", s)
            self._stop(f"the handoff of {name} failed: {self._names(bad)} published a wrong "
                       f"escrow share (cheating)", 0.0)
            return
        master = ho.combine(shares[s] for s in remaining)
        problem = "" if ho.master_commitment(master, gid, target) == esc["commit"] else \
            "its master secret does not match its commitment"
        problem = problem or ho.deck_check(master, gid, target, self.decks)
        if problem:
            self._alert("cheat", f"{name}'s escrow is wrong: {problem}", target)
            self._stop(f"the handoff of {name} failed: {problem}", 0.0)
            return
        host = min(remaining)
        g = self.game
        self.handed[target] = {"host": host, "cut": cut, "round": g.round if g else 0,
                               "version": g.version if g else 0}
        self.future[target].clear()
        self.verifier.rekey(target, self.cfg.keys[host])
        if target == self.seat:
            text = (f"your seat was handed to a bot at round {self.handed[target]['round']} (game "
                    f"version {self.handed[target]['version']}): it is played by a bot hosted by "
                    f"{self.names[host]}; you cannot rejoin this game")
            self._alert("info", text, target)
            self._stop(text, 0.0)
            return
        self._alert("info", f"{self.names[target]}'s seat is now played by a bot hosted by "
                            f"{self.names[host]} (its hand is known to everyone)", target)
        self.events.append(("handoff", target, host))
        if host == self.seat:
            self.ghost = ho.Ghost(self, target, master, cut, self.handoff_level, self.handoff_think)

    def _ghost_emit(self, data: bytes, now: float) -> None:
        """An envelope of the seat we host: to everyone, and into our own session."""
        s = self.ghost.seat
        body = self.verifier.verify(data)
        self._take(s, data, body, now)
        if not self.replaying:
            if self.transmit is not None:
                self.transmit(None, data)
            else:
                self.outbox.append((None, data))

    # ------------------------------------------------------------ control messages
    def _control(self, body: dict, data: bytes, now: float, src: int | None) -> None:
        seat = body["seat"]
        if body["game"] != self.cfg.game_id or not (0 <= seat < self.n) or seat == self.seat:
            raise Refused("cheat" if src is not None else "error", src,
                          f"a control message for another game or seat was dropped")
        env = wire.unpack(data, "sig/malformed")
        try:
            self._pubkeys[seat].verify(env["sig"], SIG_DOMAIN + env["body"])
        except InvalidSignature:
            raise Refused("cheat", src if src is not None else seat,
                          f"a control message claiming to come from {self._name(seat)} has a bad "
                          f"signature") from None
        if src is not None and src != seat:
            raise Refused("cheat", src, f"seat {src} sent a control message of {self._name(seat)}")
        t = body["type"]
        if seat in self.handed:
            # its owner is back, but the seat is a bot's now: tell it (at most once a second)
            if t == "ctl/hb" and now - self._handed_told.get(seat, -9.0) >= 1.0 and not self.replaying:
                self._handed_told[seat] = now
                h = self.handed[seat]
                told = {"type": "ctl/handed", "game": self.cfg.game_id, "seat": self.seat, "seq": 0,
                        "target": seat, "host": h["host"], "round": h["round"], "v": h["version"]}
                self.outbox.append((seat, encode_envelope(self.identity.sign_message(told))))
            return
        self._seen(seat, now)
        if t == "ctl/handed":
            target, host, r, v = body.get("target"), body.get("host"), body.get("round"), body.get("v")
            if not (wire.is_int(target) and wire.is_int(host) and 0 <= host < self.n
                    and wire.is_int(r) and wire.is_int(v)):
                raise Refused("cheat", seat, f"{self._name(seat)} sent a malformed handoff notice")
            if target == self.seat and self.status != STOPPED:
                text = (f"your seat was handed to a bot at round {r} (game version {v}): it is "
                        f"played by a bot hosted by {self.names[host]}; you cannot rejoin this game")
                self._alert("info", text, seat, now)
                self._stop(text, now)
            return
        if t == "ctl/hb":
            have, need, fin = body.get("have"), body.get("need"), body.get("finished")
            if not (isinstance(have, list) and len(have) == self.n and all(
                    wire.is_int(x) and x >= 0 for x in have)):
                raise Refused("cheat", seat, f"{self._name(seat)} sent a malformed heartbeat")
            self.have_of[seat] = have
            self.finished_of[seat] = bool(fin)
            self._resync(seat, have, bool(need))
            if have[seat] > self.verifier.expected_seq(seat) and not self.future[seat]:
                # they sent something we never got: ask (once per heartbeat of theirs)
                self._heartbeat(seat, need=True)
        elif t == "ctl/sync":
            envs = body.get("envelopes")
            if not (isinstance(envs, list) and len(envs) <= SYNC_BATCH and all(
                    isinstance(e, bytes) for e in envs)):
                raise Refused("cheat", seat, f"{self._name(seat)} sent a malformed resync")
            for e in envs:
                try:
                    self._accept(e, now, src=seat, relayed=True)
                except Refused as exc:
                    self._alert(exc.kind, exc.text, exc.seat, now, key=(exc.kind, exc.seat, "sync"))
        else:
            raise Refused("cheat", seat, f"{self._name(seat)} sent an unknown control message {t!r}")

    def _have(self) -> list[int]:
        return [len(self.sent) if s == self.seat else self.verifier.expected_seq(s)
                for s in range(self.n)]

    def _heartbeat(self, dest: int | None, need: bool) -> None:
        if self.replaying:
            return
        body = {"type": "ctl/hb", "game": self.cfg.game_id, "seat": self.seat, "seq": 0,
                "have": self._have(), "need": need, "finished": self.finished}
        self.outbox.append((dest, encode_envelope(self.identity.sign_message(body))))

    def _resync(self, seat: int, have: list[int], urgent: bool) -> None:
        """Send ``seat`` what it lacks and we have: at once when it asks, else only what
        it still lacked at its previous heartbeat (not what is merely in flight)."""
        prev = self._prev_len[seat]
        mine = [len(self.sent) if s == self.seat else len(self.accepted[s]) for s in range(self.n)]
        batch: list[bytes] = []
        for s in range(self.n):
            if s == seat:
                continue
            upto = mine[s] if urgent else min(mine[s], prev[s])
            src = self.sent if s == self.seat else self.accepted[s]
            if have[s] < upto:
                batch.extend(src[have[s]:min(upto, have[s] + SYNC_BATCH - len(batch))])
            if len(batch) >= SYNC_BATCH:
                break
        self._prev_len[seat] = mine
        if batch:
            body = {"type": "ctl/sync", "game": self.cfg.game_id, "seat": self.seat, "seq": 0,
                    "envelopes": batch[:SYNC_BATCH]}
            self.outbox.append((seat, encode_envelope(self.identity.sign_message(body))))

    # ------------------------------------------------------------ helpers
    def _send(self, type_: str, fields: dict) -> None:
        self._emit(self.signer.sign(type_, fields))

    def _emit(self, env: dict) -> None:
        data = encode_envelope(env)
        self.sent.append(data)
        if self.deck_log:
            body = wire.unpack(env["body"], "x")
            if body["type"].startswith("deck/") and body.get("epoch", -1) < len(self.deck_log):
                self.deck_log[body["epoch"]].append(body)
                if self.ghost is not None:
                    self.ghost.feed(body)
        if not self.replaying:
            if self.transmit is not None:
                self.transmit(None, data)
            else:
                self.outbox.append((None, data))

    def _stop(self, reason: str, now: float) -> None:
        if self.status != STOPPED:
            self.status = STOPPED
            self.stop_reason = reason
            self.events.append(("stopped", reason))

    def _name(self, seat) -> str:
        if isinstance(seat, int) and 0 <= seat < self.n:
            return f"{self.names[seat]} (seat {seat})"
        return f"seat {seat!r}"

    def _names(self, seats) -> str:
        return ", ".join(self._name(s) for s in seats)

    def _alert(self, kind: str, text: str, seat: int | None = None, now: float = 0.0,
               key: tuple | None = None) -> None:
        log.warning("[seat %s] %s: %s", self.seat, kind, text)
        if self.replaying:
            return
        if key is not None:
            last = self._alert_last.get(key)
            self._alert_last[key] = now
            if last is not None and now - last < 5.0 and now > 0:
                return
        self.alerts.append(Alert(kind, text, seat))
        if len(self.alerts) > 500:
            del self.alerts[:100]


def _peek(data: bytes) -> dict:
    """The header of an envelope, decoded without the (costly) canonical-form check;
    nothing is trusted from it: the full check (Verifier / open_envelope) follows."""
    if not isinstance(data, (bytes, bytearray)) or len(data) > wire.MAX_MESSAGE_BYTES:
        return open_envelope(data)[0]
    try:
        env = msgpack.unpackb(data, raw=False, strict_map_key=True)
        body = msgpack.unpackb(env["body"], raw=False, strict_map_key=True) \
            if isinstance(env, dict) and isinstance(env.get("body"), bytes) else None
    except Exception:
        body = None
    if isinstance(body, dict):
        t, g, st, q = body.get("type"), body.get("game"), body.get("seat"), body.get("seq")
        if isinstance(t, str) and isinstance(g, str) and wire.is_int(st) and wire.is_int(q) \
                and st >= 0 and q >= 0:
            return body
    return open_envelope(data)[0]     # raises the precise ProtocolError


def _int_suffix(purpose: str) -> int | None:
    try:
        return int(purpose.split("/", 1)[1])
    except (ValueError, IndexError):
        return None


def _plain(x):
    """Tuples to lists, for the wire."""
    if isinstance(x, (tuple, list)):
        return [_plain(v) for v in x]
    return x


def _tuples(x):
    if isinstance(x, list):
        return tuple(_tuples(v) for v in x)
    return x


def _show(raw) -> str:
    try:
        return belfort.command_text(belfort.normalize(_tuples(raw)))
    except Exception:
        return repr(raw)[:80]
