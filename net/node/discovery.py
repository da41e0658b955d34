"""Finding a game on the LAN without typing an address (an IP is what a game night most
often trips on): the host announces
its lobby with DNS-SD over multicast DNS (the ``zeroconf`` package), ``belfort join``
without an address lists what it sees.

    _belfort._tcp.local.   one service per lobby, its TXT record:
        host     the host's name          players  seated names, comma-separated
        seats    seats in all             free     seats still free
        fp       the host's key fingerprint (to check aloud, as with a typed address)
        proto    the session protocol
        at       the address the host was told to advertise (``--advertise``), if any

The service's addresses are A and AAAA records: IPv4 and IPv6 alike (multicast DNS over
IPv6 uses ff02::fb), so a game is found on an IPv6-only network too.  Multicast never
crosses a router or a VPN overlay: from another subnet the list is empty, and the person
types the address the host printed.

Everything here is a convenience over the printed address: a network without multicast
(or a machine where zeroconf cannot start) gives a DiscoveryError whose text says to type
the address the host printed; nothing else fails.  What a TXT record says is untrusted
and shown only as printable text.  Anyone can announce: a game chosen from the list is
joined expecting the key its record names (``node.join(..., announced=(host, fp))``), and
the lobby that answers must prove that key (lobby.JoinLobby), or it is not joined.
"""

from __future__ import annotations

import ipaddress
import logging
import socket
import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .addresses import AddressError, endpoint, interface_addresses, normalize, parse_ip
from net.session.config import PROTOCOL
from net.session.msgs import N_, Msg
from net.session.text import MAX_NAME, printable

if TYPE_CHECKING:
    from zeroconf import IPVersion, ServiceInfo, Zeroconf

    from .lobby import HostLobby

SERVICE = "_belfort._tcp.local."
log = logging.getLogger("belfort.discovery")


class DiscoveryError(Exception):
    """Looking for games failed; the text is for a person."""


FALLBACK = Msg(N_("type the address the host printed instead, e.g. belfort join "
                   "192.168.1.20:5555"))


@dataclass
class Game:
    """A lobby seen on the LAN."""
    host: str
    players: list
    seats: int
    free: int
    fingerprint: str
    addresses: list          # tcp://IP:PORT, the most likely reachable first
    service: str

    @property
    def address(self) -> str:
        return self.addresses[0]

    def line(self) -> str:
        return Msg(N_("{host}'s game — players: {players}; {free} of {seats} seats free; key "
                      "{fingerprint}; {address}"), host=self.host,
                   players=", ".join(self.players) or self.host, free=self.free,
                   seats=self.seats, fingerprint=self.fingerprint, address=self.address)

    def as_dict(self) -> dict:
        return {"host": self.host, "players": self.players, "seats": self.seats,
                "free": self.free, "fingerprint": self.fingerprint,
                "addresses": self.addresses, "address": self.address}


def _txt(lobby: HostLobby, advertised: str | None = None) -> dict:
    seated = [s.name for s in lobby.seats]
    txt = {"host": seated[0], "players": ",".join(seated), "seats": str(lobby.players),
           "free": str(max(0, lobby.players - len(seated))), "fp": lobby.fingerprint,
           "proto": PROTOCOL}
    if advertised:
        txt["at"] = advertised[len("tcp://"):] if advertised.startswith("tcp://") \
            else advertised
    return txt


def _versions(ips: list[str]) -> IPVersion:
    """The zeroconf IP version for these addresses: both when we have both, else the one."""
    from zeroconf import IPVersion
    fours = [ip for ip in ips if _is_ipv4(ip)]
    if fours and len(fours) < len(ips):
        return IPVersion.All
    return IPVersion.V4Only if fours or not ips else IPVersion.V6Only


class Announcer:
    """Announce a HostLobby; ``update()`` after each lobby change, ``close()`` at the
    start.  Every zeroconf call runs on a thread of its own (probing and announcing take
    a second or more; the lobby must not wait), and any failure is only reported in
    ``problem``."""

    def __init__(self, lobby: HostLobby, ips: list[str], advertised: str | None = None) -> None:
        self.lobby = lobby
        # A and AAAA records hold addresses only: an advertised name goes in the TXT record
        self.ips = [ip for ip in ips if _packed(ip) is not None]
        self.advertised = advertised
        self.problem: str | None = None
        self._txt = _txt(lobby, advertised)
        self._wake = threading.Event()
        self._closed = False
        self.registered = threading.Event()
        self.thread = threading.Thread(target=self._run, name="belfort-announce", daemon=True)
        self.thread.start()

    def _service_info(self, name: str, txt: dict) -> ServiceInfo:
        from zeroconf import ServiceInfo
        host = socket.gethostname().split(".")[0] or "host"
        return ServiceInfo(SERVICE, name, port=self.lobby.port,
                           addresses=[p for p in map(_packed, self.ips) if p is not None],
                           properties=txt, server=f"belfort-{self.lobby.port}-{host}.local.")

    def _run(self) -> None:
        zc = info = None
        try:
            if not self.ips:
                raise DiscoveryError(Msg(N_("this machine has no LAN address to announce")))
            from zeroconf import Zeroconf
            version = _versions(self.ips)
            zc = Zeroconf(interfaces=_interfaces(version), ip_version=version)
            txt = self._txt
            label = printable(f"{txt['host']} on {socket.gethostname()}", 40)
            label = f"{label.replace('.', ' ')} {self.lobby.port}"
            info = self._service_info(f"{label}.{SERVICE}", txt)
            zc.register_service(info, allow_name_change=True)
            self.registered.set()
            shown = txt
            while not self._closed:
                self._wake.wait(0.5)
                self._wake.clear()
                txt = self._txt
                if txt != shown and not self._closed:
                    info = self._service_info(info.name, txt)
                    zc.update_service(info)
                    shown = txt
        except Exception as exc:         # no multicast, no interface: the address will do
            self.problem = Msg(N_("could not announce the game on the LAN ({error})"),
                               error=exc)
            log.warning("%s", self.problem)
        finally:
            if zc is not None:
                try:
                    if info is not None and self.registered.is_set():
                        zc.unregister_service(info)
                except Exception:
                    pass
                try:
                    zc.close()
                except Exception:
                    pass

    def update(self) -> None:
        """The lobby changed: announce its new roster (from the announcer's thread)."""
        self._txt = _txt(self.lobby, self.advertised)
        self._wake.set()

    def close(self, wait: float = 2.0) -> None:
        self._closed = True
        self._wake.set()
        self.thread.join(wait)


def _is_ipv4(ip: str) -> bool:
    return isinstance(parse_ip(ip), ipaddress.IPv4Address)


def _packed(ip: str) -> bytes | None:
    """An address as an A or AAAA record holds it; None for a link-local or odd one."""
    a = parse_ip(ip)
    if a is None or a.is_link_local or (isinstance(a, ipaddress.IPv6Address) and a.scope_id):
        return None
    return a.packed


def _order(ips: list[str], ours: list[str]) -> list[str]:
    """The announced addresses, those on one of our own networks (an IPv4 /24, an IPv6
    /64) first, then IPv4 before IPv6."""
    nets: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
    for ip in ours:
        a = parse_ip(ip)
        if a is not None and not a.is_link_local:
            nets.append(ipaddress.ip_network(f"{a}/{24 if a.version == 4 else 64}",
                                             strict=False))

    def near(ip: str) -> tuple[int, int]:
        a = parse_ip(ip)
        if a is None:
            return (2, 0)
        return (0 if any(a in n for n in nets if n.version == a.version) else 1, a.version)
    return sorted(ips, key=near)


def _game(info: ServiceInfo, ours: list[str]) -> Game | None:
    props = {}
    for k, v in (info.properties or {}).items():
        if isinstance(k, bytes) and isinstance(v, bytes) and len(v) <= 600:
            props[k.decode("utf-8", "replace")] = v.decode("utf-8", "replace")
    ips = [str(parse_ip(ip)) for ip in info.parsed_addresses() if _packed(ip) is not None]
    at = []
    try:         # untrusted like the rest: only ever an address to try, with the key above
        if props.get("at"):
            at = [normalize(props["at"][:300])]
    except AddressError:
        pass
    if not (ips or at) or not info.port:
        return None

    def number(key):
        t = props.get(key, "")
        return int(t) if t.isascii() and t.isdigit() and len(t) < 3 else 0
    players = [printable(p, MAX_NAME) for p in props.get("players", "").split(",")][:5]
    return Game(host=printable(props.get("host", "?"), MAX_NAME) or "?",
                players=[p for p in players if p], seats=number("seats"), free=number("free"),
                fingerprint=printable(props.get("fp", "?"), 40),
                addresses=[endpoint(ip, info.port) for ip in _order(ips, ours)] +
                [a for a in at if a not in (endpoint(ip, info.port) for ip in ips)],
                service=printable(info.name, 120))


def _interfaces(version: IPVersion) -> Any:
    """Where multicast DNS listens and sends: every interface for IPv4, as zeroconf does;
    for IPv6 every interface but the loopback, where sending to ff02::fb fails (zeroconf
    would print the error at each announcement)."""
    from zeroconf import InterfaceChoice, IPVersion
    if version == IPVersion.V4Only:
        return InterfaceChoice.All
    try:
        import ifaddr
        adapters = ifaddr.get_adapters()
    except Exception:
        return InterfaceChoice.All
    out: list[str | int] = []
    for adapter in adapters:
        for ip in adapter.ips:
            if isinstance(ip.ip, str):
                if version != IPVersion.V6Only:
                    out.append(ip.ip)
            else:
                a = parse_ip(str(ip.ip[0]))
                if a is not None and not a.is_loopback and adapter.index is not None and \
                        adapter.index not in out:
                    out.append(adapter.index)
    return out or InterfaceChoice.All


def _browser_zeroconf() -> Zeroconf:
    """Listen over IPv4 and IPv6 where both work, else over the one that does (an
    IPv6-only network, a machine without IPv6)."""
    from zeroconf import IPVersion, Zeroconf
    problem: Exception | None = None
    for v in (IPVersion.All, IPVersion.V4Only, IPVersion.V6Only):
        try:
            return Zeroconf(interfaces=_interfaces(v), ip_version=v)
        except Exception as exc:
            problem = problem or exc
    assert problem is not None, "each attempt failed"
    raise problem


def browse(timeout: float = 3.0, settle: float = 1.0) -> list[Game]:
    """The lobbies announced on the LAN, seen within ``timeout`` s (returning early once
    nothing new came for ``settle`` s after the first).  DiscoveryError if multicast
    DNS cannot be used here."""
    try:
        from zeroconf import ServiceBrowser, ServiceStateChange
    except ImportError:
        raise DiscoveryError(Msg(N_("the zeroconf package is not installed: {fallback}"),
                                 fallback=FALLBACK)) from None
    try:
        zc = _browser_zeroconf()
    except Exception as exc:
        raise DiscoveryError(Msg(N_("cannot look for games on this network ({error}): "
                                    "{fallback}"), error=str(exc), fallback=FALLBACK)) from None
    names: dict[str, None] = {}
    changed = threading.Event()

    def on_change(zeroconf, service_type, name, state_change):
        if state_change in (ServiceStateChange.Added, ServiceStateChange.Updated):
            names[name] = None
            changed.set()
    games: dict[str, Game] = {}
    try:
        browser = ServiceBrowser(zc, SERVICE, handlers=[on_change])
        ours = interface_addresses()
        deadline = time.monotonic() + timeout
        quiet_until = None
        while time.monotonic() < deadline:
            if changed.wait(0.1):
                changed.clear()
                quiet_until = time.monotonic() + settle
                for name in list(names):
                    info = zc.get_service_info(SERVICE, name, timeout=1000)
                    if info is not None:
                        g = _game(info, ours)
                        if g is not None and g.free > 0:
                            games[name] = g
            elif quiet_until is not None and games and time.monotonic() > quiet_until:
                break
        browser.cancel()
    except Exception as exc:
        raise DiscoveryError(Msg(N_("looking for games failed ({error}): {fallback}"),
                                 error=str(exc), fallback=FALLBACK)) from None
    finally:
        try:
            zc.close()
        except Exception:
            pass
    return sorted(games.values(), key=lambda g: (g.host.casefold(), g.address))
