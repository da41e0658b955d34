"""Resync: heartbeats with what we hold, and filling the others' gaps from it.

Every ``Timing.heartbeat`` (0.4 s) each peer sends ``ctl/hb`` with its have-vector (how
many envelopes of each seat it holds) and whether it is finished.  On a heartbeat, a
peer sends what the other still lacked at its previous heartbeat (or at once when
``need`` is set) as ``ctl/sync``: any peer can relay any seat's envelopes, since they are
signed (its own ones included: a peer that rejoined with part of its log lost takes
its own last envelopes back from the others).  A peer that finishes says so at once (``ctl/fin``),
so the others stop
expecting it.  Control messages are signed but not sequenced and change no game state.

Answers are rate-limited per seat (limits.TokenBucket): a seat flooding heartbeats that
ask for everything gets a few batches, not one per heartbeat (no amplification).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from typing import TYPE_CHECKING

from net.crypto import encode_envelope, wire

from .effects import Names, Out, Refused
from .limits import TokenBucket
from .msgs import N_, Msg

if TYPE_CHECKING:
    from net.crypto import Identity

    from .config import GameConfig, Timing
    from .dispatch import Dispatcher
    from .intake import Intake
    from .msglog import MessageLog

SYNC_BATCH = 256          # envelopes per ctl/sync answer
FILL_RATE, FILL_BURST = 8.0, 4.0      # sync answers per second per seat, and at once
ASK_RATE, ASK_BURST = 4.0, 2.0        # our own requests provoked by one seat's heartbeats


def valid_endpoint(text: object) -> bool:
    """``tcp://<IPv4 address>:<port>`` or ``tcp://[<IPv6 address>]:<port>``: no host names
    (nothing to resolve), no IPv6 zone (an interface name means nothing on another
    machine)."""
    if not isinstance(text, str) or len(text) > 60 or not text.startswith("tcp://"):
        return False
    host, _, port = text[6:].rpartition(":")
    if not (port.isascii() and port.isdigit() and 0 < int(port) < 65536):
        return False
    try:
        if host.startswith("[") and host.endswith("]"):
            ipaddress.IPv6Address(host[1:-1])
            return "%" not in host
        ipaddress.IPv4Address(host)
        return True
    except ValueError:
        return False


class Resync:
    def __init__(self, config: GameConfig, identity: Identity, log: MessageLog, intake: Intake,
                 names: Names, timing: Timing, finished: Callable[[], bool],
                 now: float = 0.0) -> None:
        self.game_id, self.n, self.seat = config.game_id, config.n, log.seat
        self.identity, self.log, self.intake, self.names, self.timing = (identity, log, intake,
                                                                         names, timing)
        self.finished = finished             # () -> bool: this peer is done
        self.have_of = [[0] * self.n for _ in range(self.n)]   # their last reported have-vector
        self._prev_len = [[0] * self.n for _ in range(self.n)]
        self.heard_at: list[float | None] = [None] * self.n   # each seat's last heartbeat
        # mesh addresses announced after a network change: seat -> (number, endpoint); the
        # number grows with each move, so an old heartbeat sent again cannot move a seat back
        self.address: tuple[int, str] | None = None          # ours, once we moved
        self.addr_of: dict[int, tuple[int, str]] = {}
        self.moved: list[tuple[int, str]] = []                # for the transport to reconnect
        self._next_hb = now
        self._fills = TokenBucket(FILL_RATE, FILL_BURST)
        # (their seat, seat x) -> the largest count at which their running hash of x's
        # envelopes matched ours, and where our next echo batch of x's envelopes starts
        self._agreed: dict[tuple[int, int], int] = {}
        self._cursor: dict[tuple[int, int], int] = {}
        self._asks = TokenBucket(ASK_RATE, ASK_BURST)

    def register(self, dispatch: Dispatcher) -> None:
        dispatch.on_control("ctl/hb", self.on_heartbeat)
        dispatch.on_control("ctl/fin", self.on_finished)
        dispatch.on_control("ctl/bye", self.on_finished)      # (its have-vector)
        dispatch.on_control("ctl/sync", self.on_sync)

    # ------------------------------------------------------------ sending
    def _frame(self, dest: int | None, type_: str, fields: dict) -> Out:
        body = {"type": type_, "game": self.game_id, "seat": self.seat, "seq": 0, **fields}
        return Out(frames=[(dest, encode_envelope(self.identity.sign_message(body)))])

    def heartbeat(self, dest: int | None, need: bool) -> Out:
        if self.log.replaying:
            return Out()
        have = self.intake.have()
        fields = {"have": have, "need": need, "finished": self.finished(),
                  "tips": [self.log.chain(s, have[s]) for s in range(self.n)]}
        if self.address is not None:
            fields["addr"] = list(self.address)     # signed with our identity key
        return self._frame(dest, "ctl/hb", fields)

    def finished_notice(self) -> Out:
        """We are done: tell everyone (with what we hold), once."""
        if self.log.replaying:
            return Out()
        have = self.intake.have()
        return self._frame(None, "ctl/fin", {"have": have, "tips": [
            self.log.chain(s, have[s]) for s in range(self.n)]})

    def leave_notice(self) -> Out:
        """We leave for now and will rejoin (the others wait, without alarm)."""
        return self._frame(None, "ctl/bye", {"have": self.intake.have()})

    def tick(self, now: float) -> Out:
        if now < self._next_hb:
            return Out()
        self._next_hb = now + self.timing.heartbeat
        return self.heartbeat(None, need=False)

    # ------------------------------------------------------------ receiving
    def _have_field(self, seat: int, body: dict) -> list[int]:
        have = body.get("have")
        if not (isinstance(have, list) and len(have) == self.n and all(
                wire.is_int(x) and x >= 0 for x in have)):
            what = {"ctl/fin": N_("{who} sent a malformed finished notice"),
                    "ctl/bye": N_("{who} sent a malformed leaving notice")}.get(
                body["type"], N_("{who} sent a malformed heartbeat"))
            raise Refused("cheat", seat, Msg(what, who=self.names.seat(seat)))
        return have

    def on_heartbeat(self, seat: int, body: dict, now: float) -> Out:
        have = self._have_field(seat, body)
        self.have_of[seat] = have
        self.heard_at[seat] = now
        self._moved(seat, body.get("addr"))
        need = bool(body.get("need"))
        out = self._fill(seat, have, need, now)
        if need and self.finished() and self._fills.allow(("fin", seat), now):
            # a rejoiner asking: it missed our notice, and we may leave as soon as it
            # has what it lacks, before our next heartbeat would tell it
            out.add(self._frame(seat, "ctl/fin", {"have": self.intake.have()}))
        out.add(self._echo(seat, have, body.get("tips"), now))
        if have[seat] > self.intake.expected_seq(seat) and not self.intake.future[seat] \
                and self._asks.allow(seat, now):
            # they sent something we never got: ask (once per heartbeat of theirs)
            out.add(self.heartbeat(seat, need=True))
        return out

    def _echo(self, seat: int, have: list[int], tips: object, now: float) -> Out:
        """Their running hash of some seat's envelopes differs from ours at the same
        count: one of us holds a different message.  Send them ours; their intake finds
        the one that differs and makes it a proof (forks.py)."""
        if not (isinstance(tips, list) and len(tips) == self.n):
            return Out()
        mine = self.log.counts()
        for x in range(self.n):
            if x == seat or not isinstance(tips[x], bytes):
                continue
            k = min(have[x], mine[x])
            if k == 0 or have[x] > mine[x]:
                continue
            if tips[x] == self.log.chain(x, k):
                self._agreed[(seat, x)] = max(k, self._agreed.get((seat, x), 0))
                continue
            if not self._fills.allow(("echo", seat), now):
                return Out()
            # the first difference is past the last count where we agreed: send from
            # there, a batch at a time, so even a long-hidden fork is found
            agreed = min(self._agreed.get((seat, x), 0), k - 1)
            start = self._cursor.get((seat, x), agreed)
            if not agreed <= start < k:
                start = agreed
            self._cursor[(seat, x)] = start + SYNC_BATCH
            envs = self.log.envelopes(x)[start:min(k, start + SYNC_BATCH)]
            return self._frame(seat, "ctl/sync", {"envelopes": envs})
        return Out()

    def move(self, number: int, endpoint: str) -> None:
        """We came back on another address: every heartbeat carries it from now on."""
        self.address = (number, endpoint)

    def take_moved(self) -> list[tuple[int, str]]:
        """Seats that announced a new address since the last call: (seat, endpoint)."""
        out, self.moved = self.moved, []
        return out

    def _moved(self, seat: int, addr: object) -> None:
        """A seat's new mesh address (it came back on another IP or port)."""
        if addr is None:
            return
        if not (isinstance(addr, list) and len(addr) == 2 and wire.is_int(addr[0])
                and valid_endpoint(addr[1])):
            raise Refused("cheat", seat, Msg(N_("{who} announced a malformed mesh address"),
                                             who=self.names.seat(seat)))
        number, endpoint = addr
        if number > self.addr_of.get(seat, (0, ""))[0]:
            self.addr_of[seat] = (number, endpoint)
            # only each seat's latest address waits for the transport (bounded)
            self.moved = [m for m in self.moved if m[0] != seat] + [(seat, endpoint)]

    def on_finished(self, seat: int, body: dict, now: float) -> Out:
        self.have_of[seat] = self._have_field(seat, body)
        self.heard_at[seat] = now
        return Out()

    def on_sync(self, seat: int, body: dict, now: float) -> Out:
        envs = body.get("envelopes")
        if not (isinstance(envs, list) and len(envs) <= SYNC_BATCH and all(
                isinstance(e, bytes) for e in envs)):
            raise Refused("cheat", seat, Msg(N_("{who} sent a malformed resync"),
                                             who=self.names.seat(seat)))
        return Out(relayed=[(seat, e) for e in envs])

    def _fill(self, seat: int, have: list[int], urgent: bool, now: float = 0.0) -> Out:
        """Send ``seat`` what it lacks and we have: at once when it asks, else only what
        it still lacked at its previous heartbeat (not what is merely in flight)."""
        prev = self._prev_len[seat]
        mine = self.log.counts()
        if not any(have[s] < mine[s] for s in range(self.n)):
            self._prev_len[seat] = mine
            return Out()
        if not self._fills.allow(seat, now):
            return Out()          # answered lately: its next heartbeat gets the rest
        batch: list[bytes] = []
        for s in range(self.n):
            upto = mine[s] if urgent else min(mine[s], prev[s])
            src = self.log.envelopes(s)
            if have[s] < upto:
                batch.extend(src[have[s]:min(upto, have[s] + SYNC_BATCH - len(batch))])
            if len(batch) >= SYNC_BATCH:
                break
        self._prev_len[seat] = mine
        if not batch:
            return Out()
        return self._frame(seat, "ctl/sync", {"envelopes": batch[:SYNC_BATCH]})

    # ------------------------------------------------------------ queries
    def has_ours(self, seat: int, hosted: list[int]) -> bool:
        """``seat`` has reported holding every envelope of ours (and of the seat we host)."""
        return self.have_of[seat][self.seat] >= len(self.log.sent) and \
            all(self.have_of[seat][g] >= len(self.log.accepted[g]) for g in hosted)
