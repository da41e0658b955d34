"""The ZeroMQ mesh: each peer binds one PULL socket and connects one PUSH socket
to every other peer, all with CurveZMQ (encrypted; each side authenticated by its
Curve key: the server key is pinned by the client, and a ZAP handler lets in only
the client keys of the roster).  ZAP's User-Id tells us which seat's connection
a frame came from, so a peer that sends garbage can be named.

``waker()`` gives any thread a way to end the current ``poll`` at once (an inproc
socket in the same poller): a person's command is sent without waiting for a poll
time-out.
"""

from __future__ import annotations

import os
import threading
import time

from collections.abc import Callable

import zmq
from zmq.utils.monitor import recv_monitor_message
from zmq.auth.thread import ThreadAuthenticator

from net.session.limits import MAX_BATCH_BYTES, MAX_FRAME, RCVHWM

from .addresses import endpoint as tcp_endpoint, endpoint_host, parse_ip

SNDHWM = 100000


def bound_context(ctx: zmq.Context) -> None:
    """Every socket the context creates from now on refuses frames over MAX_FRAME."""
    ctx.setsockopt(zmq.MAXMSGSIZE, MAX_FRAME)
    ctx.setsockopt(zmq.RCVHWM, RCVHWM)


def dual_stack(sock: zmq.Socket, bind: str | None = None) -> None:
    """Let this socket use IPv6 too: ZeroMQ's sockets are IPv4-only unless told, so a
    peer on an IPv6-only network (many VPN overlays) could neither listen nor connect.
    Bound to ``*`` it then listens on both (an IPv4 peer shows as ``::ffff:a.b.c.d``);
    where the system has no IPv6 at all, ZeroMQ falls back to IPv4.  A socket to be
    bound to an IPv4 address (``bind``) stays IPv4: with the option ZeroMQ would name
    its endpoint ``[::ffff:a.b.c.d]``, an address the others might not parse."""
    ip = parse_ip(bind) if bind is not None else None
    sock.setsockopt(zmq.IPV6, 0 if ip is not None and ip.version == 4 else 1)


def bound_socket(sock: zmq.Socket) -> None:
    """This socket refuses frames over MAX_FRAME and queues at most RCVHWM per peer."""
    sock.setsockopt(zmq.MAXMSGSIZE, MAX_FRAME)
    sock.setsockopt(zmq.RCVHWM, RCVHWM)


def curve_keypair() -> tuple[str, str]:
    pub, sec = zmq.curve_keypair()
    return pub.decode("ascii"), sec.decode("ascii")


class _Keys:
    """ZAP credentials provider: the roster's Curve keys."""

    def __init__(self) -> None:
        self.allowed: dict[bytes, int | None] = {}   # Curve key -> seat (None: not seated yet)
        self.lock = threading.Lock()

    def callback(self, domain: str, key: bytes) -> bool:
        with self.lock:
            return key in self.allowed


_auth_lock = threading.Lock()
_auths: dict[int, tuple[ThreadAuthenticator, _Keys]] = {}


def _authenticator(ctx: zmq.Context) -> _Keys:
    """One ZAP handler per context (ZAP is per context)."""
    with _auth_lock:
        got = _auths.get(id(ctx))
        if got is None:
            auth = ThreadAuthenticator(ctx)
            auth.start()
            keys = _Keys()
            auth.configure_curve_callback(domain="*", credentials_provider=keys)
            got = _auths[id(ctx)] = (auth, keys)
        return got[1]


def stop_authenticator(ctx: zmq.Context) -> None:
    with _auth_lock:
        got = _auths.pop(id(ctx), None)
    if got is not None:
        got[0].stop()


def end_context(ctx: zmq.Context, linger_ms: int) -> None:
    """End a context this process made for one peer, once its sockets are closed: waits
    until the frames still queued have left (or ``linger_ms`` passed for a socket).  A
    process that simply exits loses them: ZeroMQ's I/O thread, which writes them out, dies
    with it — a ``finished`` notice lost that way would keep the others waiting for us
    until the stall time."""
    stop_authenticator(ctx)
    ctx.destroy(linger=linger_ms)     # (a socket still open is closed with this linger)


class ZmqMesh:
    def __init__(self, ctx: zmq.Context, seat: int, curve_public: str, curve_secret: str,
                 bind: str | None = None, pull: zmq.Socket | None = None) -> None:
        self.ctx = ctx
        self.seat = seat
        self.public, self.secret = curve_public, curve_secret
        bound_context(ctx)        # every later socket of this context too (the lobby's)
        self.keys = _authenticator(ctx)
        if pull is None:
            pull = ctx.socket(zmq.PULL)
            pull.setsockopt(zmq.LINGER, 0)
            pull.setsockopt(zmq.CURVE_SERVER, True)
            pull.setsockopt(zmq.CURVE_PUBLICKEY, curve_public.encode())
            pull.setsockopt(zmq.CURVE_SECRETKEY, curve_secret.encode())
            bound_socket(pull)
            assert bind is not None, "a mesh without a socket is told where to bind one"
            dual_stack(pull, endpoint_host(bind))
            pull.bind(bind)
        self.pull = pull
        self.endpoint = pull.getsockopt_string(zmq.LAST_ENDPOINT)
        self.push: dict[int, zmq.Socket] = {}
        self.peers: dict[int, tuple[str, str]] = {}
        self._monitors: dict[zmq.Socket, int] = {}
        self._redo: dict[int, float] = {}
        self.poller = zmq.Poller()
        self.poller.register(pull, zmq.POLLIN)
        self.dropped = 0
        self._wake_rx: zmq.Socket | None = None
        self._wake_tx: zmq.Socket | None = None
        self._wake_lock = threading.Lock()
        # the push sockets: a window's thread sends our decision on them at once while the
        # network thread polls (and may reopen one); every use of them holds this lock
        self._push_lock = threading.RLock()

    def take_seat(self, seat: int) -> None:
        """A joiner's mesh learns its seat once the host started the game."""
        self.seat = seat

    @property
    def port(self) -> int:
        return int(self.endpoint.rsplit(":", 1)[1])

    def allow(self, curve_keys: dict[int, str]) -> None:
        """Let these seats' Curve keys connect to us."""
        with self.keys.lock:
            for s, k in curve_keys.items():
                if k:
                    self.keys.allowed[k.encode()] = s

    def admit(self, curve_key: str) -> None:
        """Let a lobby member's Curve key connect before it has a seat (its frames are
        attributed to no seat until the roster is final: lobby places change)."""
        if curve_key:
            with self.keys.lock:
                self.keys.allowed.setdefault(curve_key.encode(), None)

    def forget(self, curve_key: str) -> None:
        """A lobby member left: its key no longer gets in."""
        with self.keys.lock:
            self.keys.allowed.pop(curve_key.encode(), None)

    def connect(self, peers: dict[int, tuple[str, str]]) -> None:
        """Connect to every other peer: {seat: (endpoint, curve public key)}."""
        self.allow({s: k for s, (_e, k) in peers.items()})
        for s, (endpoint, key) in peers.items():
            if s == self.seat or s in self.push:
                continue
            self.peers[s] = (endpoint, key)
            self._open_push(s)

    _FAILED = (zmq.EVENT_HANDSHAKE_FAILED_AUTH | zmq.EVENT_HANDSHAKE_FAILED_PROTOCOL |
               zmq.EVENT_HANDSHAKE_FAILED_NO_DETAIL)

    def _open_push(self, s: int) -> None:
        endpoint, key = self.peers[s]
        sock = self.ctx.socket(zmq.PUSH)
        sock.setsockopt(zmq.LINGER, 0)
        sock.setsockopt(zmq.SNDHWM, SNDHWM)
        dual_stack(sock)
        sock.setsockopt(zmq.CURVE_SERVERKEY, key.encode())
        sock.setsockopt(zmq.CURVE_PUBLICKEY, self.public.encode())
        sock.setsockopt(zmq.CURVE_SECRETKEY, self.secret.encode())
        sock.setsockopt(zmq.RECONNECT_IVL, 100)
        sock.setsockopt(zmq.RECONNECT_IVL_MAX, 1000)
        # A handshake refused (the other side did not know our key yet) is not
        # retried by libzmq: watch for it and open the socket again.
        mon = sock.get_monitor_socket(self._FAILED)
        self._monitors[mon] = s
        self.poller.register(mon, zmq.POLLIN)
        sock.connect(endpoint)
        self.push[s] = sock

    def reseat(self, seat: int, peers: dict[int, tuple[str, str]]) -> None:
        """The next game at the same table (net/session/evening.py): our seat and the
        others' are numbered anew ({seat: (endpoint, curve public key)}); a player no
        longer at the table no longer gets in.  The connections are made again."""
        keep = {k.encode() for _e, k in peers.values()} | {self.public.encode()}
        with self.keys.lock:
            for k in [k for k in self.keys.allowed if k not in keep]:
                del self.keys.allowed[k]
        for s in list(self.push):
            self._redo.pop(s, None)
            self._close_push(s)
        self.peers = {}
        self.seat = seat
        self.connect(peers)

    def reconnect(self, s: int, endpoint: str) -> None:
        """Seat ``s`` announced a new address (a network change): connect there instead."""
        if s not in self.peers or self.peers[s][0] == endpoint:
            return
        self.peers[s] = (endpoint, self.peers[s][1])
        with self._push_lock:
            self._redo.pop(s, None)
            self._close_push(s)
            self._open_push(s)

    def rebind(self, host: str) -> str:
        """Listen on ``host`` (this machine's new IP) instead: the same port if it is free
        there, else any; the old address is let go.  The new endpoint."""
        old = self.endpoint
        port = self.port
        dual_stack(self.pull, host)
        try:
            self.pull.bind(tcp_endpoint(host, port))
        except zmq.ZMQError:
            self.pull.bind(tcp_endpoint(host, "*"))
        self.endpoint = self.pull.getsockopt_string(zmq.LAST_ENDPOINT)
        try:
            self.pull.unbind(old)
        except zmq.ZMQError:
            pass          # (that address is gone already)
        return self.endpoint

    def reopen(self) -> None:
        """Connect to every peer again: our connections left from an address this machine
        no longer has, and would wait for TCP to give up on them."""
        with self._push_lock:
            for s in list(self.push):
                self._redo.pop(s, None)
                self._close_push(s)
                self._open_push(s)

    def _close_push(self, s: int, linger_ms: int = 0) -> None:
        sock = self.push.pop(s, None)
        for mon, seat in list(self._monitors.items()):
            if seat == s:
                self.poller.unregister(mon)
                del self._monitors[mon]
                assert sock is not None, "a monitor watches an open push socket"
                try:
                    sock.disable_monitor()
                except zmq.ZMQError:
                    pass
                mon.close(0)
        if sock is not None:
            sock.close(linger_ms)

    def waker(self) -> Callable[[], None]:
        """A function any thread may call to end the current (or next) ``poll`` at once."""
        if self._wake_rx is None:
            addr = f"inproc://belfort-wake-{id(self)}"
            rx = self.ctx.socket(zmq.PULL)
            rx.setsockopt(zmq.LINGER, 0)
            rx.bind(addr)
            tx = self.ctx.socket(zmq.PUSH)
            tx.setsockopt(zmq.LINGER, 0)
            tx.connect(addr)
            self._wake_rx, self._wake_tx = rx, tx
            self.poller.register(rx, zmq.POLLIN)
        return self._wake

    def _wake(self) -> None:
        with self._wake_lock:
            if self._wake_tx is not None:
                try:
                    self._wake_tx.send(b"", zmq.NOBLOCK)
                except zmq.ZMQError:
                    pass       # a wake-up is already pending

    def send(self, dest: int | None, data: bytes) -> None:
        with self._push_lock:
            targets = list(self.push.items()) if dest is None else [(dest, self.push.get(dest))]
            for _s, sock in targets:
                if sock is None:
                    continue
                try:
                    sock.send(data, zmq.NOBLOCK)
                except zmq.Again:
                    self.dropped += 1   # the peer is gone, its queue full: resync will fix it
        # let our ZeroMQ I/O thread (which encrypts and writes the frame) have the core
        # now rather than after our next piece of work: no wait when a core is free
        os.sched_yield()

    def poll(self, timeout_ms: float) -> list[tuple[int | None, bytes]]:
        """Frames received within ``timeout_ms``: [(seat of the connection or None, bytes)]."""
        out = []
        if self._redo:
            now = time.monotonic()
            with self._push_lock:
                for s, when in list(self._redo.items()):
                    if now >= when:
                        del self._redo[s]
                        self._close_push(s)
                        self._open_push(s)
            timeout_ms = min(timeout_ms, 50)
        # pyzmq takes a float (its stubs say int)
        ready = dict(self.poller.poll(timeout_ms))  # type: ignore[arg-type]
        if self._wake_rx is not None and self._wake_rx in ready:
            try:
                while True:
                    self._wake_rx.recv(zmq.NOBLOCK)
            except zmq.ZMQError:
                pass
        for mon, s in list(self._monitors.items()):
            if mon in ready:
                try:
                    while True:
                        ev = recv_monitor_message(mon, zmq.NOBLOCK)
                        if ev["event"] & self._FAILED:
                            self._redo.setdefault(s, time.monotonic() + 0.2)
                except zmq.Again:
                    pass
                except zmq.ZMQError:
                    pass
        if self.pull in ready:
            held = 0
            while True:
                try:
                    frame = self.pull.recv(zmq.NOBLOCK, copy=False)
                except zmq.Again:
                    break
                src = None
                try:
                    uid = frame.get("User-Id")
                    key = uid.encode() if isinstance(uid, str) else uid
                    with self.keys.lock:
                        src = self.keys.allowed.get(key) if isinstance(key, bytes) else None
                except (zmq.ZMQError, AttributeError):
                    pass
                if frame.more:    # one frame per message: drain and drop the rest
                    while self.pull.getsockopt(zmq.RCVMORE):
                        self.pull.recv()
                    continue
                data = frame.bytes
                out.append((src, data))
                held += len(data)
                if len(out) >= 1000 or held >= MAX_BATCH_BYTES:
                    break        # the rest waits in the queue for the next poll
        return out

    def close(self, linger_ms: int = 0) -> None:
        """Close every socket; ``linger_ms`` lets frames still queued go out that long."""
        with self._push_lock:
            for s in list(self.push):
                self._close_push(s, linger_ms)
        self.pull.close(0)
        with self._wake_lock:
            for sock in (self._wake_rx, self._wake_tx):
                if sock is not None:
                    sock.close(0)
            self._wake_rx = self._wake_tx = None
