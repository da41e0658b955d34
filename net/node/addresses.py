"""Which addresses friends can use to reach this machine, and reading the address a
person types after ``belfort join``.

Resolving the host name is not enough: on common Linux setups it maps to 127.0.1.1,
which nobody else can reach.  The route the system would use to reach
another network names the interface friends most likely share with us; every other
non-loopback interface address is listed after it, since a game night LAN may have no
route out at all.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable

from net.session.msgs import N_, Msg

NOT_AN_ADDRESS = N_("not a host address: {text} (expected HOST:PORT, e.g. 192.168.1.20:{port})")

DEFAULT_PORT = 5555
# a documentation address (RFC 5737): connecting a UDP socket picks the route, sends nothing
_ROUTE_PROBE = "192.0.2.255"
_ROUTE_PROBES = ("198.51.100.1", "10.255.255.255", _ROUTE_PROBE)


class AddressError(ValueError):
    """An address a person typed that cannot be a host's; the text says why."""


def usable(ip: str) -> bool:
    """An IPv4 address another machine on the LAN could reach us at."""
    try:
        a = ipaddress.IPv4Address(ip)
    except ValueError:
        return False
    return not (a.is_loopback or a.is_unspecified or a.is_multicast or a.is_link_local
                or a.is_reserved)


def route_address(probe: str = _ROUTE_PROBES[0]) -> str | None:
    """The source address of the route to ``probe`` (a UDP connect sends no packet)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect((probe, 9))
        return s.getsockname()[0]
    except OSError:
        return None
    finally:
        s.close()


def interface_addresses() -> list[str]:
    """Every IPv4 address of this machine's interfaces (ifaddr, installed with zeroconf;
    the host name's addresses without it)."""
    found: list[str] = []
    try:
        import ifaddr
        for adapter in ifaddr.get_adapters():
            for ip in adapter.ips:
                if isinstance(ip.ip, str):
                    found.append(ip.ip)
    except Exception:        # no ifaddr, or an odd interface: the host name's addresses
        try:
            found += [str(i[4][0]) for i in socket.getaddrinfo(socket.gethostname(), None,
                                                                socket.AF_INET)]
        except OSError:
            pass
    return found


def lan_addresses(route: Callable[[str], str | None] = route_address,
                  interfaces: Callable[[], list[str]] = interface_addresses) -> list[str]:
    """Every usable non-loopback IPv4 address, the route-based one first; [] if none."""
    out: list[str] = []
    candidates = [route(p) for p in _ROUTE_PROBES] + list(interfaces())
    for ip in candidates:
        if ip and usable(ip) and ip not in out:
            out.append(ip)
    return out


def normalize(text: str, default_port: int = DEFAULT_PORT) -> str:
    """``192.168.1.20:5555``, ``192.168.1.20``, ``tcp://host:5555`` or ``[fe80::1]:5555``
    as the ``tcp://HOST:PORT`` ZeroMQ connects to; AddressError says what is wrong."""
    t = (text or "").strip()
    if t.startswith("tcp://"):
        t = t[6:]
    elif "://" in t:
        raise AddressError(Msg(N_("not a host address: {text} (only tcp:// is used; e.g. "
                                  "192.168.1.20:{port})"), text=repr(text), port=default_port))
    if not t:
        raise AddressError(Msg(NOT_AN_ADDRESS, text=repr(text), port=default_port))
    if t.startswith("["):                              # [IPv6]:port
        host, _, rest = t[1:].partition("]")
        port_text = rest[1:] if rest.startswith(":") else ""
        host = f"[{host}]"
    elif t.count(":") == 1:
        host, port_text = t.split(":")
    else:
        host, port_text = t, ""
        if ":" in host:                                # a bare IPv6 address
            host = f"[{host}]"
    if not host or any(c.isspace() or c in "/?#@" for c in host):
        raise AddressError(Msg(NOT_AN_ADDRESS, text=repr(text), port=default_port))
    parts = host.split(".")
    if all(p.isascii() and p.isdigit() for p in parts):
        # digits and dots are meant as an IPv4 address (a name server would be asked for
        # "192.168.1.300" as a host name, and answer nothing after a long wait)
        try:
            ipaddress.IPv4Address(host)
        except ValueError:
            raise AddressError(Msg(N_("not an IP address: {host} in {text} (four numbers from "
                                      "0 to 255, e.g. 192.168.1.20)"),
                                   host=repr(host), text=repr(text))) from None
    if port_text == "":
        port = default_port
    elif port_text.isascii() and port_text.isdigit() and 0 < int(port_text) < 65536:
        port = int(port_text)
    else:
        raise AddressError(Msg(N_("not a port number: {port} in {text} (1 to 65535)"),
                               port=repr(port_text), text=repr(text)))
    return f"tcp://{host}:{port}"


def unknown_host(address: str, lookup: Callable[..., object] | None = None) -> str | None:
    """Why the host of a ``tcp://HOST:PORT`` address cannot be reached by name (no name
    server knows it), else None.  Checked before connecting: ZeroMQ retries an unknown name
    silently, which would read as a host that does not answer."""
    host, _, port = address[len("tcp://"):].rpartition(":")
    name = host[1:-1] if host.startswith("[") else host
    try:
        (lookup or socket.getaddrinfo)(name, int(port), type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError, ValueError):
        return Msg(N_("no host named {host} is known on this network (a typo? The host's "
                      "window shows its address, e.g. 192.168.1.20:{port})"),
                   host=repr(name), port=port)
    return None


def endpoint_host(endpoint: str) -> str:
    """The host part of ``tcp://HOST:PORT``."""
    return endpoint[len("tcp://"):].rsplit(":", 1)[0] if endpoint.startswith("tcp://") else ""


class AddressWatch:
    """Notices, while a game runs, that this machine no longer has the address its mesh
    endpoint was announced on (Wi-Fi reconnecting with a new lease, a cable moved to
    another network): ``check(now)`` compares this machine's usable addresses with it
    every ``every`` seconds and answers the address to move to.  Without any usable
    address (the network is away for now) it waits: nothing to announce yet."""

    def __init__(self, announced: str, source: Callable[[], list[str]] | None = None,
                 every: float = 2.0,
                 now: float = 0.0) -> None:
        self.announced = announced           # tcp://IP:PORT the others connect to
        self.source = source or lan_addresses
        self.every = every
        self._next = now + every
        # only an address this machine had can be lost: one the others see us at through
        # a NAT (a virtual machine's) is never among ours, and moving off it would cut us off
        self._ours = endpoint_host(announced) in self.source()

    def check(self, now: float) -> str | None:
        """The usable IP to move to, or None (nothing changed, not time yet, no network)."""
        if now < self._next and now >= self._next - self.every:
            return None
        self._next = now + self.every
        ip = endpoint_host(self.announced)
        if not usable(ip):
            return None           # bound to loopback (tests, one machine): nothing moves
        here = self.source()
        if ip in here:
            self._ours = True
            return None
        if not here or not self._ours:
            return None
        return here[0]

    def moved(self, endpoint: str) -> None:
        """We announced ``endpoint`` now (an address of ours)."""
        self.announced, self._ours = endpoint, True
