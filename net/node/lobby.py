"""The lobby: the host gathers players over a plain ZeroMQ ROUTER socket, then sends
everyone the final roster (GameConfig); from then on the peers talk over the mesh.

Every lobby message is an envelope signed with the sender's identity key (game
"lobby", seq 0): the host checks a joiner holds the key it presents; a joiner pins
the host's key from the welcome and shows its fingerprint.  Messages:

    joiner -> host  lobby/hello  {protocol, name, key, curve, mesh_port, via, kind, ruleset,
                                  nonce, challenge}
    host -> joiner  lobby/challenge {challenge}     a hello without this connection's
                                                   fresh challenge gets one, nothing else
    host -> joiner  lobby/welcome {your_seat, host, fingerprint, roster, options, ruleset_sha,
                                   nonce}          (the joiner's nonce: a fresh answer)
    host -> joiner  lobby/refused {reason}
    host -> all     lobby/roster  {roster}             on every change, and every second
    joiner -> host  lobby/ping    {}                   every second (a silent joiner has left)
    joiner -> host  lobby/bye     {}
    host -> all     lobby/closed  {}                   the host closed the lobby unstarted
    host -> joiner  lobby/start   {config}             the GameConfig, endpoints as seen by it
    joiner -> host  lobby/started {}                   acknowledges start

A hello counts only with the challenge the host gave that very connection, once: a
hello captured on the LAN and replayed cannot rebind a seat.  Names are
printable text of bounded length and no look-alike of a seated name (net.session.text).
The host's socket refuses frames over ``MAX_LOBBY_FRAME`` (ZMQ_MAXMSGSIZE).
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field
from collections.abc import Callable

import belfort
import zmq
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from net.crypto import ProtocolError, encode_envelope, fingerprint, open_envelope, wire
from net.crypto.identity import SIG_DOMAIN, Identity

from .addresses import (WILDCARDS, AddressError, endpoint, endpoint_host, endpoint_port,
                        labelled_addresses, lan_addresses, normalize, peer_address,
                        unknown_host)
from .transport import dual_stack
from net.session.config import COLOURS, PROTOCOL, GameConfig, game_id_for
from net.node.names import looks_alike
from net.session.text import NAME_PROBLEMS, name_problem, printable
from net.session.msgs import N_, Msg, from_wire, recognize, to_wire

# The host's refusals by code.  A refusal goes as a code and its values (``msg``:
# msgs.to_wire), which the joiner words in its own language, and as English text
# (``reason``) for a joiner that knows no codes (version 1), which recognizes it.
REFUSAL_CODES = {
    "started": N_("the game has already started ({players}); only its players can rejoin"),
    "version": N_("wrong version: the host runs {host}, you run {you}"),
    "full": N_("game full ({seats} of {players} seats taken)"),
    "taken": N_("the name {name} is taken"),
    "alike": N_("the name {name} looks like {seated}, who is seated; choose another with "
                "--name"),
    "bad-name": N_("{problem}; choose another with --name"),
    "hello": N_("your hello is not valid ({detail})"),
    "malformed": N_("malformed hello"),
    "ruleset": N_("different ruleset: yours has sha256 {yours}…, the host's {host}…"),
}
LOBBY_TEXTS = {**REFUSAL_CODES, **{"name/" + c: t for c, t in NAME_PROBLEMS.items()}}
REFUSALS = tuple(REFUSAL_CODES.values())
# what the lobby lines call each kind of seat
KINDS = {"human": N_("human"), "bot": N_("bot")}


def kind_word(kind: object) -> str:
    """A seat's kind as the lobby lines show it (translatable), or the value as it came."""
    return Msg(KINDS[kind]) if kind in KINDS else printable(str(kind), 20)


def refusal_from(body: dict) -> str:
    """A host's refusal in words the joiner can translate: its code and values, else its
    English text (recognized when it is one of ours)."""
    def clean(v: object) -> str:
        return printable(v, 100)
    return from_wire(body.get("msg"), LOBBY_TEXTS, clean) or \
        recognize(printable(body.get("reason"), 300), REFUSALS)

PING = 1.0
JOINER_SILENT = 6.0
MAX_LOBBY_FRAME = 16 * 1024       # a hello is ~400 bytes; the host takes nothing bigger
MAX_START_FRAME = 1 << 20         # the start carries the ruleset text to the joiners
CHALLENGES = 256                  # outstanding challenges kept (the oldest go first)
CLOSED_LINGER_MS = 500            # how long a closing lobby tries to deliver lobby/closed


class LobbyError(Exception):
    """A lobby step failed; the text is for a person."""


def _sign(identity: Identity, type_: str, fields: dict) -> bytes:
    body = dict(fields, type=type_, game="lobby", seat=0, seq=0)
    return encode_envelope(identity.sign_message(body))


def _open(data: bytes, key: bytes | None = None) -> dict:
    """Decode a lobby envelope; check its signature with ``key`` (or with the key it
    carries in ``key``, for a hello)."""
    body, raw, sig = open_envelope(data)
    if body["game"] != "lobby":
        raise ProtocolError("sig/wrong-game", None, "not a lobby message")
    k = key if key is not None else body.get("key")
    if not (isinstance(k, bytes) and len(k) == 32):
        raise ProtocolError("sig/malformed", None, "no key")
    try:
        Ed25519PublicKey.from_public_bytes(k).verify(sig, SIG_DOMAIN + raw)
    except (InvalidSignature, ValueError):
        raise ProtocolError("sig/bad-signature", None, "bad signature") from None
    return body


def lan_address() -> str:
    """This machine's LAN address for the join command (no packet is sent); loopback only
    when the machine has no other address at all."""
    found = lan_addresses()
    return found[0] if found else "127.0.0.1"


def join_command(address: str) -> str:
    """What a person types to join ``address`` (``tcp://HOST:PORT``): an IPv6 one in
    quotes, since a shell reads ``[...]`` as a file pattern (zsh refuses it outright)."""
    if address.startswith("tcp://["):
        return f"belfort join '{address[len('tcp://'):]}'"
    return f"belfort join {address}"


@dataclass
class Seat:
    name: str
    key: bytes
    curve: str
    kind: str
    mesh_port: int
    ip: str
    via_host: str
    rid: bytes | None = None           # ROUTER routing id (None: the host itself)
    last: float = field(default_factory=time.monotonic)
    started: bool = False              # it acknowledged the start (lobby/started)

    def public(self, seat: int) -> dict:
        return {"seat": seat, "name": self.name, "kind": self.kind, "colour": COLOURS[seat],
                "fingerprint": fingerprint(self.key), "curve": self.curve}


class HostLobby:
    def __init__(self, ctx: zmq.Context, identity: Identity, name: str, curve: tuple[str, str],
                 mesh_port: int, *, bind: str = "0.0.0.0", port: int = 5555, players: int = 5,
                 options: dict | None = None, ruleset_text: str | None = None,
                 advertise: str | None = None,
                 on_join: Callable[[str], None] | None = None,
                 on_leave: Callable[[str], None] | None = None) -> None:
        bad = name_problem(name)
        if bad is not None:
            raise LobbyError(Msg(N_("{problem} (--name)"), problem=bad))
        name = " ".join(name.split())
        self.ctx = ctx
        self.identity = identity
        self.players = players
        self.options = dict(options or {"guilds": "normal"})
        self.ruleset_text = ruleset_text
        rs = belfort.parse_ruleset(ruleset_text) if ruleset_text else belfort.standard_ruleset()
        self.ruleset_sha = rs.sha256
        # check the options now: a bad guild list fails here, not on every peer
        belfort.new_game(max(2, players), self.options, seed=b"check", ruleset=rs)
        self.router = ctx.socket(zmq.ROUTER)
        self.router.setsockopt(zmq.LINGER, 1000)
        self.router.setsockopt(zmq.ROUTER_MANDATORY, False)
        self.router.setsockopt(zmq.MAXMSGSIZE, MAX_LOBBY_FRAME)
        dual_stack(self.router, bind)
        self.router.bind(endpoint(bind, port))
        self.port = endpoint_port(self.router.getsockopt_string(zmq.LAST_ENDPOINT))
        found = labelled_addresses() if bind in WILDCARDS else [(bind, "")]
        if bind == "0.0.0.0":           # every IPv4 interface, and only those
            found = [(ip, name) for ip, name in found if ":" not in ip]
        # every usable address with its interface's name, the most likely first
        self.labelled = [(endpoint(ip, self.port), name) for ip, name in found] or \
            [(endpoint("127.0.0.1", self.port), "")]
        self.advertised: str | None = None
        if advertise:
            # an address this machine cannot see (a forwarded port, a name): first
            try:
                self.advertised = normalize(advertise, self.port)
            except AddressError as exc:
                raise LobbyError(Msg(N_("--advertise {address}: {problem}"),
                                     address=advertise, problem=exc.args[0])) from None
            self.labelled = [(self.advertised, "--advertise")] + [
                e for e in self.labelled if e[0] != self.advertised]
        self.address = self.labelled[0][0]
        self.addresses = [a for a, _n in self.labelled]
        ip = endpoint_host(self.address)
        self.seats: list[Seat] = [Seat(name, identity.public_bytes, curve[0], "human", mesh_port,
                                       ip, ip)]
        self.started = False
        self.on_join = on_join              # on_join(curve key): let its mesh link in
        self.on_leave = on_leave            # on_leave(curve key): and out again
        self.challenges: dict[bytes, bytes] = {}     # routing id -> its fresh challenge
        self.admitted: set[str] = set()              # Curve keys ever let into our mesh
        self.events: list[str] = []
        self._last_roster = 0.0

    @property
    def fingerprint(self) -> str:
        return self.identity.fingerprint

    def join_command(self) -> str:
        return join_command(self.address)

    def join_commands(self) -> list[str]:
        """One join command per usable address of this machine (the route's first)."""
        return [join_command(a) for a in self.addresses]

    def interfaces(self) -> list[str]:
        """The interface each join command's address is on ("" unknown), in their order."""
        return [n for _a, n in self.labelled]

    def roster(self) -> list[dict]:
        return [s.public(i) for i, s in enumerate(self.seats)]

    def poll(self, timeout_ms: int = 100) -> list[str]:
        """Handle lobby traffic for up to ``timeout_ms``; returns what happened (text)."""
        events: list[str] = []
        if self.router.poll(timeout_ms):
            while True:
                try:
                    parts = self.router.recv_multipart(zmq.NOBLOCK, copy=False)
                except zmq.Again:
                    break
                if len(parts) != 2:
                    continue
                rid, frame = parts[0].bytes, parts[1]
                try:
                    peer_ip = peer_address(frame.get("Peer-Address"))
                except (zmq.ZMQError, AttributeError):
                    peer_ip = None
                self._handle(rid, frame.bytes, peer_ip, events)
        now = time.monotonic()
        for _i, s in list(enumerate(self.seats))[1:]:
            if now - s.last > JOINER_SILENT:
                self._remove(s)
                events.append(Msg(N_("{name} left (no answer)"), name=s.name))
                self._broadcast_roster()
        if now - self._last_roster > PING:
            self._broadcast_roster()
        self.events += events
        return events

    def _send(self, rid: bytes, type_: str, fields: dict) -> None:
        try:
            self.router.send_multipart([rid, _sign(self.identity, type_, fields)], zmq.NOBLOCK)
        except zmq.ZMQError:
            pass

    def _refuse(self, rid: bytes, reason: str, events: list) -> None:
        fields: dict[str, object] = {"reason": str(reason)}   # English, for version 1 peers
        coded = to_wire(reason, LOBBY_TEXTS) if isinstance(reason, Msg) else None
        if coded is not None:
            fields["msg"] = coded
        self._send(rid, "lobby/refused", fields)
        events.append(Msg(N_("refused a joiner: {reason}"), reason=reason))

    def _broadcast_roster(self) -> None:
        self._last_roster = time.monotonic()
        roster = self.roster()
        for s in self.seats[1:]:
            assert s.rid is not None, "only the host's own seat has no routing id"
            self._send(s.rid, "lobby/roster", {"roster": roster})

    def _handle(self, rid: bytes, data: bytes, peer_ip: str | None, events: list) -> None:
        try:
            body, _raw, _sig = open_envelope(data)
        except ProtocolError:
            return        # garbage on the lobby port: ignore
        seat = next((s for s in self.seats[1:] if s.rid == rid), None)
        t = body.get("type")
        if t == "lobby/hello":
            self._hello(rid, data, peer_ip, events)
            return
        if seat is None:
            return
        try:
            _open(data, seat.key)
        except ProtocolError:
            return
        seat.last = time.monotonic()
        if t == "lobby/bye":
            self._remove(seat)
            events.append(Msg(N_("{name} left"), name=seat.name))
            self._broadcast_roster()
        elif t == "lobby/started":
            seat.started = True

    def _remove(self, seat: Seat) -> None:
        """A joiner left: its seat, and its key's way into our mesh, go."""
        self.seats.remove(seat)
        if self.on_leave is not None:
            self.on_leave(seat.curve)

    def _challenge(self, rid: bytes) -> None:
        if len(self.challenges) >= CHALLENGES:
            del self.challenges[next(iter(self.challenges))]
        c = self.challenges[rid] = secrets.token_bytes(16)
        self._send(rid, "lobby/challenge", {"challenge": c})

    def _hello(self, rid: bytes, data: bytes, peer_ip: str | None, events: list) -> None:
        try:
            body = _open(data)
        except ProtocolError as exc:
            self._refuse(rid, Msg(REFUSAL_CODES["hello"], detail=exc.detail), events)
            return
        if self.started:
            # before the version: a probe of a started game learns that it started
            self._refuse(rid, Msg(REFUSAL_CODES["started"],
                                  players=", ".join(s.name for s in self.seats)), events)
            return
        proto = body.get("protocol")
        if proto != PROTOCOL:
            self._refuse(rid, Msg(REFUSAL_CODES["version"], host=PROTOCOL, you=repr(proto)),
                         events)
            return
        challenge = body.get("challenge")
        if challenge is None or challenge != self.challenges.get(rid):
            self._challenge(rid)          # a replayed hello gets no further than this
            return
        del self.challenges[rid]          # used once
        nonce = body.get("nonce")
        name, key, curve = body.get("name"), body.get("key"), body.get("curve")
        port, via, kind = body.get("mesh_port"), body.get("via"), body.get("kind", "human")
        rs = body.get("ruleset")
        bad_name = name_problem(name)
        if bad_name is not None:
            self._refuse(rid, Msg(REFUSAL_CODES["bad-name"], problem=bad_name), events)
            return
        assert isinstance(name, str), "name_problem() refuses anything but a text"
        assert isinstance(key, bytes), "_open() checked the hello's signature with its key"
        if not (isinstance(nonce, bytes) and len(nonce) == 16 and
                isinstance(curve, str) and len(curve) == 40 and wire.is_int(port) and
                0 < port < 65536 and isinstance(via, str) and len(via) <= 300 and
                kind in ("human", "bot")):
            self._refuse(rid, Msg(REFUSAL_CODES["malformed"]), events)
            return
        if rs is not None and rs != self.ruleset_sha:
            self._refuse(rid, Msg(REFUSAL_CODES["ruleset"], yours=str(rs)[:16],
                                  host=self.ruleset_sha[:16]), events)
            return
        existing = next((s for s in self.seats if s.key == key), None)
        if existing is not None and existing.rid not in (None, rid):
            existing.rid = rid            # the same joiner again (reconnected): keep its seat
        elif existing is None:
            if len(self.seats) >= self.players:
                self._refuse(rid, Msg(REFUSAL_CODES["full"], seats=len(self.seats),
                                      players=self.players), events)
                return
            name = " ".join(name.split())
            alike = next((s for s in self.seats if looks_alike(name, s.name)), None)
            if alike is not None:
                same = alike.name.casefold() == name.casefold()
                self._refuse(rid, Msg(REFUSAL_CODES["taken"], name=repr(name)) if same else
                             Msg(REFUSAL_CODES["alike"], name=repr(name),
                                 seated=repr(alike.name)), events)
                return
            ip = peer_ip or endpoint_host(via)
            self.seats.append(Seat(name, key, curve, kind, port, ip, endpoint_host(via), rid))
            self.admitted.add(curve)
            if self.on_join is not None:
                self.on_join(curve)
            events.append(Msg(N_("{name} joined ({kind}, key {fingerprint})"), name=name,
                              kind=kind_word(kind), fingerprint=fingerprint(key)))
        seat_no = next(i for i, s in enumerate(self.seats) if s.key == key)
        self._send(rid, "lobby/welcome", {
            "your_seat": seat_no, "host": self.seats[0].name, "fingerprint": self.fingerprint,
            "hostkey": self.identity.public_bytes, "roster": self.roster(),
            "options": self.options, "ruleset_sha": self.ruleset_sha, "players": self.players,
            "nonce": nonce})
        self._broadcast_roster()

    def start(self, wait_acks: float = 5.0) -> GameConfig:
        """Close the lobby and send everyone the final roster; returns the host's config."""
        if len(self.seats) < 2:
            raise LobbyError(Msg(N_("at least 2 players are needed")))
        self.started = True
        import secrets as _secrets
        keys = [s.key for s in self.seats]
        names = [s.name for s in self.seats]
        gid = game_id_for(keys, names, self.options, self.ruleset_sha, _secrets.token_bytes(16))

        def config_for(viewer: Seat | None) -> GameConfig:
            endpoints = []
            for i, s in enumerate(self.seats):
                ip = s.ip if i else (viewer.via_host if viewer is not None else s.ip)
                endpoints.append(endpoint(ip, s.mesh_port))
            return GameConfig(game_id=gid, names=names, keys=keys,
                              curve=[s.curve for s in self.seats], endpoints=endpoints,
                              kinds=[s.kind for s in self.seats],
                              colours=list(COLOURS[: len(names)]), options=self.options,
                              ruleset_text=self.ruleset_text, ruleset_sha=self.ruleset_sha,
                              lobby=self.address)

        for s in self.seats[1:]:
            s.started = False
            assert s.rid is not None, "only the host's own seat has no routing id"
            self._send(s.rid, "lobby/start", {"config": config_for(s).to_dict()})
        deadline = time.monotonic() + wait_acks
        while time.monotonic() < deadline and not all(getattr(s, "started", False)
                                                      for s in self.seats[1:]):
            if self.router.poll(50):
                try:
                    parts = self.router.recv_multipart(zmq.NOBLOCK)
                except zmq.Again:
                    continue
                if len(parts) == 2:
                    self._handle(parts[0], parts[1], None, [])
        return config_for(None)

    def answer_late(self) -> None:
        """After the start: answer whoever still knocks that the game has started (a
        closed port would read as "address unreachable"); never blocks."""
        if self.router.closed:
            return
        for _ in range(16):
            try:
                parts = self.router.recv_multipart(zmq.NOBLOCK)
            except zmq.ZMQError:
                return
            if len(parts) == 2:
                try:
                    body, _raw, _sig = open_envelope(parts[1])
                except ProtocolError:
                    continue
                if body.get("type") == "lobby/hello":
                    self._hello(parts[0], parts[1], None, [])

    def close(self) -> None:
        """Close the lobby; unstarted, the seated joiners are told the host closed the
        game (signed, like every host message) instead of waiting for its silence."""
        linger = 0
        if not self.started and not self.router.closed:
            for s in self.seats[1:]:
                if s.rid is not None:
                    self._send(s.rid, "lobby/closed", {})
                    linger = CLOSED_LINGER_MS
        self.router.close(linger)


class RosterChanges:
    """The host repeats the roster every second (its keep-alive); a joiner shows it only
    when it changed (a roster printed every second would bury everything else)."""

    def __init__(self) -> None:
        self.last: list | None = None

    def changed(self, roster: list) -> bool:
        if roster == self.last:
            return False
        self.last = list(roster)
        return True


class JoinLobby:
    """The joiner's side: hello, then roster updates until the host starts."""

    def __init__(self, ctx: zmq.Context, address: str, identity: Identity, name: str,
                 curve: tuple[str, str],
                 mesh_port: int, *, kind: str = "human", ruleset_sha: str | None = None,
                 protocol: str = PROTOCOL, expect: tuple[str, str] | None = None) -> None:
        """``expect``: (host name, key fingerprint) a LAN announcement gave for this
        address — the lobby must prove that key, or we do not join."""
        try:
            address = normalize(address)
        except AddressError as exc:
            raise LobbyError(exc.args[0]) from None
        why = unknown_host(address)
        if why is not None:
            raise LobbyError(why)
        self.address = address
        self.identity = identity
        self.dealer = ctx.socket(zmq.DEALER)
        self.dealer.setsockopt(zmq.LINGER, 0)
        self.dealer.setsockopt(zmq.MAXMSGSIZE, MAX_START_FRAME)
        dual_stack(self.dealer)
        self.dealer.connect(address)
        self.nonce = secrets.token_bytes(16)
        self.hello_fields = {
            "protocol": protocol, "name": name, "key": identity.public_bytes, "curve": curve[0],
            "mesh_port": mesh_port, "via": address, "kind": kind, "ruleset": ruleset_sha,
            "nonce": self.nonce}
        self.hello = _sign(identity, "lobby/hello", self.hello_fields)
        self.expect = expect
        self.host_key: bytes | None = None
        self.welcome: dict | None = None
        self.roster: list[dict] = []
        self._last_ping = 0.0

    def connect(self, timeout: float = 5.0) -> dict:
        """Send the hello and wait for the welcome; raises LobbyError with the reason."""
        self.dealer.send(self.hello)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self.dealer.poll(100):
                continue
            body = self._recv()
            if body is None:
                continue
            if body["type"] == "lobby/refused":
                raise LobbyError(Msg(N_("refused by the host: {reason}"),
                                     reason=refusal_from(body)))
            if body["type"] == "lobby/challenge" and isinstance(body.get("challenge"), bytes):
                self.dealer.send(_sign(self.identity, "lobby/hello",
                                       dict(self.hello_fields, challenge=body["challenge"])))
                continue
            if body["type"] == "lobby/welcome" and body.get("nonce") == self.nonce:
                self._check_announced_key()
                self.welcome = body
                self.roster = body.get("roster", [])
                return body
        raise LobbyError(Msg(N_("address unreachable: no answer from {address} within {secs} s "
                                "(is the host running, and the address right? A game that "
                                "started or ended answers too, so nothing listens there)"),
                             address=self.address, secs=f"{timeout:.0f}"))

    def _check_announced_key(self) -> None:
        """A game chosen from the LAN's announcements: the key this lobby has just proved
        (its welcome, signed over our fresh nonce) must be the key announced.  Anyone can
        announce a game under the host's name and fingerprint with their own address;
        only the host holds the key."""
        if self.expect is None:
            return
        host, announced = self.expect
        # _recv kept the key of the welcome this is asked of
        assert self.host_key is not None, "no welcome yet"
        proved = fingerprint(self.host_key)
        if "".join(str(announced).split()).upper() == proved:
            return
        self.leave()                     # seated in a lobby we do not trust: leave it now
        raise LobbyError(Msg(N_("the game announced as {host} {announced} answered with key "
                                "{proved}: not joined"), host=printable(host, 40),
                             announced=printable(announced, 40), proved=proved))

    def _recv(self) -> dict | None:
        try:
            data = self.dealer.recv(zmq.NOBLOCK)
        except zmq.Again:
            return None
        try:
            body, _raw, _sig = open_envelope(data)
            key = self.host_key
            if key is None:
                key = body.get("hostkey")
                if not isinstance(key, bytes):
                    key = b"\0" * 32 if body.get("type") != "lobby/refused" else None
            if body.get("type") in ("lobby/refused", "lobby/challenge") and \
                    self.host_key is None:
                # neither can be pinned to a key we never saw; a false one costs nothing:
                # a refusal is only shown, a challenge only gets our hello sent again
                return body
            body = _open(data, key)
            if self.host_key is None and body.get("type") == "lobby/welcome":
                self.host_key = key
            return body
        except ProtocolError:
            return None

    def wait_start(self, timeout: float | None = None,
                   on_roster: Callable[[list[dict]], object] | None = None) -> GameConfig:
        deadline = None if timeout is None else time.monotonic() + timeout
        last_heard = time.monotonic()
        while deadline is None or time.monotonic() < deadline:
            now = time.monotonic()
            if now - self._last_ping > PING:
                self._last_ping = now
                self.dealer.send(_sign(self.identity, "lobby/ping",
                                       {"key": self.identity.public_bytes}))
            if now - last_heard > 3 * JOINER_SILENT:
                raise LobbyError(Msg(N_("the host stopped answering (peer timed out)")))
            if not self.dealer.poll(100):
                continue
            body = self._recv()
            if body is None:
                continue
            last_heard = time.monotonic()
            t = body["type"]
            if t == "lobby/roster":
                self.roster = body.get("roster", [])
                if on_roster:
                    on_roster(self.roster)
            elif t == "lobby/refused":
                raise LobbyError(Msg(N_("refused by the host: {reason}"),
                                     reason=refusal_from(body)))
            elif t == "lobby/closed":
                # signed with the key pinned at the welcome (_recv): nobody else can say it
                raise LobbyError(Msg(N_("the host closed the game")))
            elif t == "lobby/start":
                try:
                    cfg = GameConfig.from_dict(body["config"])
                except (KeyError, TypeError, ValueError) as exc:
                    raise LobbyError(Msg(N_("the host sent a bad game config: {error}"),
                                         error=str(exc))) from None
                self.dealer.send(_sign(self.identity, "lobby/started",
                                       {"key": self.identity.public_bytes}))
                return cfg
        raise LobbyError(Msg(N_("the host did not start the game in time")))

    def leave(self) -> None:
        try:
            self.dealer.send(_sign(self.identity, "lobby/bye", {"key": self.identity.public_bytes}),
                             zmq.NOBLOCK)
        except zmq.ZMQError:
            pass

    def close(self) -> None:
        self.dealer.close(0)
