"""N session peers in one process, exchanging their frames in memory.

For tests and for the first half of scripts/bench_net.py: all the work of a
networked game (five engines, signatures, the deck) without the network.
"""

from __future__ import annotations

import hashlib
import secrets
from collections import deque
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Self

import belfort

from net.crypto import Identity, curve

from .config import COLOURS, GameConfig, game_id_for
from .core import SessionPeer

if TYPE_CHECKING:
    from belfort.bots import Bot


def local_config(n: int, options: dict | None = None, ruleset_text: str | None = None,
                 names: Iterable[str] | None = None, kinds: Iterable[str] | None = None,
                 identities: list[Identity] | None = None) -> tuple[GameConfig, list[Identity]]:
    """A GameConfig as a lobby would make it, for n peers in this process."""
    identities = identities or [Identity.generate() for _ in range(n)]
    names = list(names or [f"P{i}" for i in range(n)])
    options = dict(options or {"guilds": "normal"})
    rs = belfort.parse_ruleset(ruleset_text) if ruleset_text else belfort.standard_ruleset()
    keys = [i.public_bytes for i in identities]
    gid = game_id_for(keys, names, options, rs.sha256, secrets.token_bytes(16))
    cfg = GameConfig(game_id=gid, names=names, keys=keys, curve=[""] * n, endpoints=[""] * n,
                     kinds=list(kinds or ["bot"] * n), colours=list(COLOURS[:n]), options=options,
                     ruleset_text=ruleset_text, ruleset_sha=rs.sha256)
    return cfg, identities


def fixed_master(seed: str, seat: int) -> bytes:
    """A reproducible master secret — for tests and benchmarks only (it makes the
    whole game, deck order included, a function of ``seed``)."""
    return hashlib.sha256(f"belfort-test-master/{seed}/{seat}".encode()).digest()


class _OwnCachePeer(SessionPeer):
    """A SessionPeer whose every entry point works with its own point cache."""

    def __init__(self, cfg: GameConfig, seat: int, identity: Identity, master: bytes,
                 clock: Callable[[], float] | None) -> None:
        self.point_cache = curve.PointCache()
        with curve.use_cache(self.point_cache):
            super().__init__(cfg, seat, identity, master, clock=clock)

    def start(self, *args: Any, **kwargs: Any) -> None:
        with curve.use_cache(self.point_cache):
            return super().start(*args, **kwargs)

    def receive(self, *args: Any, **kwargs: Any) -> None:
        with curve.use_cache(self.point_cache):
            return super().receive(*args, **kwargs)

    def submit(self, *args: Any, **kwargs: Any) -> list:
        with curve.use_cache(self.point_cache):
            return super().submit(*args, **kwargs)

    def tick(self, *args: Any, **kwargs: Any) -> None:
        with curve.use_cache(self.point_cache):
            return super().tick(*args, **kwargs)

    def take_back(self, *args: Any, **kwargs: Any) -> tuple:
        with curve.use_cache(self.point_cache):
            return super().take_back(*args, **kwargs)


def bot_for(level: str, seed: object, seat: int) -> Bot:
    from belfort.bots import make_bot
    return make_bot(level, f"{seed}/bot{seat}", think=0.0)


class MemoryNetwork:
    """Delivers every frame in FIFO order.  ``tamper[seat](dest, data) -> data | None``
    rewrites (or drops) a seat's outgoing frames; ``down`` holds seats cut off.

    ``delay`` (seconds, on the network's own clock ``now``): every frame takes that long
    to arrive, as between friends on different continents; frames wait in ``in_flight``
    and ``run`` lets the time pass, ticking every peer each ``tick_every`` s as a peer
    process polls.  ``applied`` then records when each peer reached each game version."""

    def __init__(self, peers: list[SessionPeer], bots: dict | None = None,
                 tamper: dict[int, Callable] | None = None, *, seed: str | None = None,
                 identities: list | None = None, level: str = "random",
                 delay: float = 0.0, tick_every: float = 0.1) -> None:
        """``seed``, ``identities``, ``level``: what ``create`` made the peers from."""
        self.peers = peers
        self.delay, self.tick_every = delay, tick_every
        self.in_flight: deque = deque()        # (due, src, dst, data), in due order
        # seat -> {game version: the time this peer first had it}
        self.applied: dict[int, dict[int, float]] = {p.seat: {} for p in peers}
        # (time, seat, the game version it decided at): every bot decision
        self.decided: list[tuple[float, int, int]] = []
        self.seed, self.identities, self.level = seed, identities, level
        self.bots = bots or {}
        self.tamper = tamper or {}
        self.queue: deque = deque()
        self.down: set[int] = set()
        self.now = 0.0
        self.delivered = 0

    @classmethod
    def create(cls, n: int, *, seed: str | None = None, options: dict | None = None,
               level: str = "random", names: Iterable[str] | None = None,
               ruleset_text: str | None = None, clock: Callable[[], float] | None = None,
               own_point_caches: bool = False, delay: float = 0.0) -> Self:
        """``own_point_caches``: each peer validates the curve points it receives with a
        cache of its own, as a peer process does (benchmarks); by default the peers share
        the process's cache, which checks each point once for all of them (faster tests)."""
        cfg, ids = local_config(n, options, ruleset_text, names)
        seed = seed or secrets.token_hex(8)
        peers: list[SessionPeer]
        if own_point_caches:
            peers = [_OwnCachePeer(cfg, s, ids[s], fixed_master(seed, s), clock)
                     for s in range(n)]
        else:
            peers = [SessionPeer(cfg, s, ids[s], fixed_master(seed, s), clock=clock)
                     for s in range(n)]
        return cls(peers, seed=seed, identities=ids, level=level, delay=delay)

    def _collect(self, p: SessionPeer) -> None:
        for dest, data in p.take_outgoing():
            if p.seat in self.down:
                continue
            targets = [dest] if dest is not None else \
                [s for s in range(len(self.peers)) if s != p.seat]
            for r in targets:
                d = data
                fn = self.tamper.get(p.seat)
                if fn is not None:
                    d = fn(r, d)
                    if d is None:
                        continue
                if self.delay:
                    self.in_flight.append((self.now + self.delay, p.seat, r, d))
                else:
                    self.queue.append((p.seat, r, d))
        self._note(p)

    def _note(self, p: SessionPeer) -> None:
        if self.delay and p.game is not None:
            self.applied.setdefault(p.seat, {}).setdefault(p.game.version, self.now)

    def rejoin(self, seat: int, peer: SessionPeer) -> SessionPeer:
        """``peer`` (restarted from its files) takes ``seat`` back, as node.rejoin does:
        nobody counts as silent yet, and it tells the others it is back."""
        self.peers[seat] = peer
        self.down.discard(seat)
        peer.liveness.reset(self.now)
        peer.announce(self.now)
        self._collect(peer)
        return peer

    def inject(self, src: int, dest: int, data: bytes) -> None:
        """Queue a frame as if `src` had sent it (tests forge and replay frames with it)."""
        self.queue.append((src, dest, data))

    def start(self) -> None:
        for p in self.peers:
            p.start(self.now)
            self._collect(p)

    def pump(self) -> None:
        while self.queue or (self.in_flight and self.in_flight[0][0] <= self.now):
            if self.queue:
                self.deliver(*self.queue.popleft())
            else:
                self.deliver(*self.in_flight.popleft()[1:])

    def deliver(self, src: int, dst: int, data: bytes) -> None:
        """One frame reaches ``dst`` (lost if it is down); what it sends in answer is queued."""
        if dst in self.down:
            return
        p = self.peers[dst]
        p.receive(data, self.now, src)
        p.confirm(self.now)         # as a node does after each frame
        self.delivered += 1
        self._collect(p)

    def beat(self, times: int = 3) -> None:
        """Let time pass for ``times`` heartbeats, bots not playing: the peers exchange
        what they hold (an accusation waits for its seat's heartbeat, doubt.py)."""
        for _ in range(times):
            self.now += 0.5
            for p in self.peers:
                if p.seat not in self.down:
                    p.tick(self.now)
                    self._collect(p)
            self.pump()

    def step_bots(self) -> bool:
        acted = False
        for p in self.peers:
            bot = self.bots.get(p.seat)
            if bot is None and getattr(self, "level", None) and p.game is not None:
                bot = self.bots[p.seat] = bot_for(self.level, p.seed.hex(), p.seat)
            if bot is not None and p.seat not in self.down and p.decision_needed():
                self.decided.append((self.now, p.seat, p.game.version))
                p.submit(bot.choose(p.game, p.seat), self.now)
                self._collect(p)
                acted = True
        return acted

    def run(self, max_idle: int = 40, until: Callable[[], bool] | None = None,
            pump: Callable[[], None] | None = None) -> None:
        """Deliver and let bots play until every peer is finished (or nothing moves).
        `pump` replaces the in-order delivery (tests shuffle the order between links)."""
        idle = 0
        while True:
            (pump or self.pump)()
            if until is not None and until():
                return
            if self.step_bots():
                idle = 0
                continue
            live = [p for p in self.peers if p.seat not in self.down]
            if all(p.finished for p in live):
                return
            if self.delay:
                # frames keep arriving (heartbeats): a stuck game is one where no bot
                # decided for a long while of arrivals and polls
                idle += 1
                if idle > max_idle * 25:
                    return
                self._pass_time(live)
                continue
            idle += 1
            if idle > max_idle:
                return
            self.now += 0.3
            for p in live:
                p.tick(self.now)
                self._collect(p)

    def _pass_time(self, live: list[SessionPeer]) -> None:
        """On to the next frame's arrival or the next poll, whichever comes first; every
        peer is ticked at each poll (``tick_every``), as a peer process's loop does."""
        tick = (int(self.now / self.tick_every + 1e-9) + 1) * self.tick_every
        due = self.in_flight[0][0] if self.in_flight else tick
        self.now = min(due, tick)
        if self.now >= tick - 1e-9:
            for p in live:
                p.tick(self.now)
                self._collect(p)
