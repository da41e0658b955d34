"""Which addresses friends can use to reach this machine, and reading the address a
person types after ``belfort join``.

Resolving the host name is not enough: on common Linux setups it maps to 127.0.1.1,
which nobody else can reach.  The route the system would use to reach
another network names the interface friends most likely share with us; every other
non-loopback interface address is listed after it, since a game night LAN may have no
route out at all.  A friend elsewhere reaches us through a VPN overlay (WireGuard,
Tailscale, ZeroTier, a company VPN): its address (100.64.0.0/10, an fd7a:… unique-local
one, anything else) is just another interface's, listed with the interface's name so the
person knows which one to read out.

IPv6 addresses count as much as IPv4 ones (an overlay or a home network may have only
IPv6): global and unique-local ones are listed after the IPv4 ones.  Link-local ones
(fe80::/10) are never listed: they need the *joiner's* interface name as their zone
(``fe80::1%wlan0``), which this machine cannot know; a person may still type one with
its zone.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable, Iterable

from net.session.msgs import N_, Msg

NOT_AN_ADDRESS = N_("not a host address: {text} (expected HOST:PORT, e.g. 192.168.1.20:{port})")

DEFAULT_PORT = 5555
# documentation addresses (RFC 5737, RFC 3849): connecting a UDP socket picks the route,
# sends nothing
_ROUTE_PROBE = "192.0.2.255"
_ROUTE_PROBES = ("198.51.100.1", "10.255.255.255", _ROUTE_PROBE)
_ROUTE_PROBES6 = ("2001:db8::1",)
WILDCARDS = ("0.0.0.0", "*", "", "::")

IP = ipaddress.IPv4Address | ipaddress.IPv6Address
# an interface address as found: the IP alone, or (IP, the interface's name)
Found = str | tuple[str, str]


class AddressError(ValueError):
    """An address a person typed that cannot be a host's; the text says why."""


def parse_ip(text: object) -> IP | None:
    """``text`` as an IP address (an IPv6 one may carry its zone, ``fe80::1%eth0``; an
    IPv4-mapped IPv6 address is its IPv4 address), or None."""
    if not isinstance(text, str) or not text or len(text) > 64:
        return None
    t = text[1:-1] if text.startswith("[") and text.endswith("]") else text
    try:
        ip = ipaddress.ip_address(t)
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    return ip


def usable(ip: str) -> bool:
    """An address another machine could reach us at: IPv4 or IPv6, not loopback,
    unspecified, multicast or reserved; a link-local one only with its zone."""
    a = parse_ip(ip)
    if a is None or a.is_loopback or a.is_unspecified or a.is_multicast or a.is_reserved:
        return False
    if isinstance(a, ipaddress.IPv4Address):
        return not a.is_link_local
    if a.is_site_local:
        return False                  # deprecated (RFC 3879): nothing routes it
    return not a.is_link_local or bool(a.scope_id)


def _rank(ip: str) -> int:
    """IPv4 first (the shortest to read out), then global IPv6, then unique-local IPv6."""
    a = parse_ip(ip)
    if isinstance(a, ipaddress.IPv4Address):
        return 0
    return 2 if a is not None and a in ipaddress.IPv6Network("fc00::/7") else 1


def listed(ip: str) -> bool:
    """Worth printing in a join command: usable, and not link-local (see above)."""
    a = parse_ip(ip)
    return usable(ip) and a is not None and not a.is_link_local


def route_address(probe: str = _ROUTE_PROBES[0]) -> str | None:
    """The source address of the route to ``probe`` (a UDP connect sends no packet); the
    probe's family (IPv4 or IPv6) is the route's."""
    a = parse_ip(probe)
    family = socket.AF_INET6 if isinstance(a, ipaddress.IPv6Address) else socket.AF_INET
    try:
        s = socket.socket(family, socket.SOCK_DGRAM)
    except OSError:
        return None                   # no IPv6 on this machine at all
    try:
        s.connect((probe if a is None else str(a).split("%")[0], 9))
        return s.getsockname()[0]
    except OSError:
        return None
    finally:
        s.close()


def labelled_interface_addresses() -> list[tuple[str, str]]:
    """Every address of this machine's interfaces with the interface's name (ifaddr,
    installed with zeroconf; the host name's addresses, unnamed, without it)."""
    found: list[tuple[str, str]] = []
    try:
        import ifaddr
        for adapter in ifaddr.get_adapters():
            name = str(adapter.nice_name or adapter.name)
            for ip in adapter.ips:
                if isinstance(ip.ip, str):
                    found.append((ip.ip, name))
                elif isinstance(ip.ip, tuple) and ip.ip:        # IPv6: (address, flow, scope)
                    addr = str(ip.ip[0]).split("%")[0]
                    a = parse_ip(addr)
                    if a is not None and a.is_link_local:
                        addr = f"{addr}%{name}"
                    found.append((addr, name))
    except Exception:        # no ifaddr, or an odd interface: the host name's addresses
        try:
            found += [(str(i[4][0]), "") for i in socket.getaddrinfo(socket.gethostname(),
                                                                     None)]
        except OSError:
            pass
    return found


def interface_addresses() -> list[str]:
    """Every address of this machine's interfaces (IPv4 and IPv6)."""
    return [ip for ip, _name in labelled_interface_addresses()]


def _pairs(found: Iterable[Found]) -> list[tuple[str, str]]:
    return [(f, "") if isinstance(f, str) else (str(f[0]), str(f[1])) for f in found]


def labelled_addresses(route: Callable[[str], str | None] = route_address,
                       interfaces: Callable[[], Iterable[Found]] = labelled_interface_addresses,
                       every: bool = False) -> list[tuple[str, str]]:
    """Every address worth printing, with its interface's name ("" when unknown): the
    routes' own first (IPv4, then IPv6), then IPv4, global IPv6, unique-local IPv6; of an
    interface's IPv6 addresses one of each kind unless ``every``."""
    have = _pairs(interfaces())
    names: dict[str, str] = {}
    for ip, name in have:
        names.setdefault(ip, name)
    routed = [route(p) for p in _ROUTE_PROBES + _ROUTE_PROBES6]
    candidates = [(ip, True) for ip in routed if ip] + [(ip, False) for ip, _n in have]
    out: list[tuple[str, str, bool]] = []
    seen: set[str] = set()
    kinds: set[tuple[str, int]] = set()
    for ip, by_route in candidates:
        a = parse_ip(ip)
        if a is None or not listed(ip):
            continue
        key = str(a)
        name = names.get(ip, names.get(key, ""))
        if key in seen:
            continue
        seen.add(key)
        if a.version == 6 and name and not every:
            # an interface often has several IPv6 addresses of a kind (stable, temporary):
            # one global and one unique-local per interface is enough to read out
            if (name, _rank(key)) in kinds:
                continue
            kinds.add((name, _rank(key)))
        out.append((key, name, by_route))
    out.sort(key=lambda e: (not e[2], _rank(e[0])))     # stable: found order within
    return [(ip, name) for ip, name, _r in out]


def lan_addresses(route: Callable[[str], str | None] = route_address,
                  interfaces: Callable[[], Iterable[Found]] = labelled_interface_addresses
                  ) -> list[str]:
    """Every usable non-loopback address, the route-based ones first; [] if none."""
    return [ip for ip, _name in labelled_addresses(route, interfaces, every=True)]


def bare(host: str) -> str:
    """A host without the brackets an IPv6 address wears in an endpoint."""
    return host[1:-1] if host.startswith("[") and host.endswith("]") else host


def endpoint(host: str, port: int | str) -> str:
    """``tcp://HOST:PORT``, an IPv6 address in brackets."""
    h = bare(host)
    return f"tcp://[{h}]:{port}" if ":" in h else f"tcp://{h}:{port}"


def endpoint_host(endpoint: str) -> str:
    """The host part of ``tcp://HOST:PORT``, without brackets."""
    return bare(endpoint[len("tcp://"):].rsplit(":", 1)[0]) if endpoint.startswith("tcp://") \
        else ""


def endpoint_port(endpoint: str) -> int:
    """The port of ``tcp://HOST:PORT`` (0 when there is none)."""
    port = endpoint.rsplit(":", 1)[-1]
    return int(port) if port.isascii() and port.isdigit() else 0


def peer_address(text: object) -> str | None:
    """The address ZeroMQ says a connection came from (``Peer-Address``), as a bare IP: an
    IPv4 client of a dual-stack socket shows as ``::ffff:a.b.c.d``, which is its IPv4
    address.  None for anything else."""
    a = parse_ip(text)
    return None if a is None else str(a)


def normalize(text: str, default_port: int = DEFAULT_PORT) -> str:
    """``192.168.1.20:5555``, ``192.168.1.20``, ``tcp://host:5555``, ``[2001:db8::1]:5555``
    or a bare IPv6 address as the ``tcp://HOST:PORT`` ZeroMQ connects to; AddressError
    says what is wrong."""
    t = (text or "").strip()
    if t.startswith("tcp://"):
        t = t[6:]
    elif "://" in t:
        raise AddressError(Msg(N_("not a host address: {text} (only tcp:// is used; e.g. "
                                  "192.168.1.20:{port})"), text=repr(text), port=default_port))
    if not t:
        raise AddressError(Msg(NOT_AN_ADDRESS, text=repr(text), port=default_port))
    six = False
    if t.startswith("["):                              # [IPv6]:port
        host, close, rest = t[1:].partition("]")
        if not close or (rest and not rest.startswith(":")):
            raise AddressError(Msg(NOT_AN_ADDRESS, text=repr(text), port=default_port))
        port_text = rest[1:] if rest else ""
        six = True
    elif t.count(":") == 1:
        host, port_text = t.split(":")
    else:
        host, port_text = t, ""
        six = ":" in host                              # a bare IPv6 address
    if six:
        _check_ipv6(host, text)
    elif not host or any(c.isspace() or c in "/?#@[]%" for c in host):
        raise AddressError(Msg(NOT_AN_ADDRESS, text=repr(text), port=default_port))
    else:
        parts = host.split(".")
        if all(p.isascii() and p.isdigit() for p in parts):
            # digits and dots are meant as an IPv4 address (a name server would be asked
            # for "192.168.1.300" as a host name, and answer nothing after a long wait)
            try:
                ipaddress.IPv4Address(host)
            except ValueError:
                raise AddressError(Msg(N_("not an IP address: {host} in {text} (four numbers "
                                          "from 0 to 255, e.g. 192.168.1.20)"),
                                       host=repr(host), text=repr(text))) from None
    if port_text == "":
        port = default_port
    elif port_text.isascii() and port_text.isdigit() and 0 < int(port_text) < 65536:
        port = int(port_text)
    else:
        raise AddressError(Msg(N_("not a port number: {port} in {text} (1 to 65535)"),
                               port=repr(port_text), text=repr(text)))
    return endpoint(host, port)


def _check_ipv6(host: str, text: str) -> None:
    """An IPv6 address as typed: valid, and a link-local one with the interface it is
    reached through (its zone), since without one the system cannot tell which link."""
    try:
        a = ipaddress.IPv6Address(host)
    except ValueError:
        raise AddressError(Msg(N_("not an IPv6 address: {host} in {text} (e.g. "
                                  "[2001:db8::20]:5555)"),
                               host=repr(host), text=repr(text))) from None
    if a.is_link_local and not a.scope_id:
        raise AddressError(Msg(N_("{host} is a link-local address: add this machine's "
                                  "interface to it, e.g. [{host}%eth0]:5555, or use the "
                                  "host's other address"), host=host))


def unknown_host(address: str, lookup: Callable[..., object] | None = None) -> str | None:
    """Why the host of a ``tcp://HOST:PORT`` address cannot be reached by name (no name
    server knows it), else None.  Checked before connecting: ZeroMQ retries an unknown name
    silently, which would read as a host that does not answer."""
    name = endpoint_host(address)
    port = endpoint_port(address)
    if parse_ip(name) is not None and "%" not in name:
        return None                      # an address: nothing to look up
    try:
        (lookup or socket.getaddrinfo)(name, int(port), type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError, ValueError):
        return Msg(N_("no host named {host} is known on this network (a typo? The host's "
                      "window shows its address, e.g. 192.168.1.20:{port})"),
                   host=repr(name), port=port)
    return None


class AddressWatch:
    """Notices, while a game runs, that this machine no longer has the address its mesh
    endpoint was announced on (Wi-Fi reconnecting with a new lease, a cable moved to
    another network): ``check(now)`` compares this machine's usable addresses with it
    every ``every`` seconds and answers the address to move to (one of the same family
    when there is one: the others reached us over that one).  Without any usable address
    (the network is away for now) it waits: nothing to announce yet."""

    def __init__(self, announced: str, source: Callable[[], list[str]] | None = None,
                 every: float = 2.0,
                 now: float = 0.0) -> None:
        self.announced = announced           # tcp://IP:PORT the others connect to
        self.source = source or lan_addresses
        self.every = every
        self._next = now + every
        # only an address this machine had can be lost: one the others see us at through
        # a NAT (a virtual machine's, a forwarded port's) or by a name is never among
        # ours, and moving off it would cut us off
        self._ours = _same_ip(endpoint_host(announced), self.source())

    def check(self, now: float) -> str | None:
        """The usable IP to move to, or None (nothing changed, not time yet, no network)."""
        if now < self._next and now >= self._next - self.every:
            return None
        self._next = now + self.every
        ip = endpoint_host(self.announced)
        if not usable(ip):
            return None           # bound to loopback (tests, one machine): nothing moves
        here = self.source()
        if _same_ip(ip, here):
            self._ours = True
            return None
        if not here or not self._ours:
            return None
        was = parse_ip(ip)
        same = [h for h in here if type(parse_ip(h)) is type(was)]
        return (same or here)[0]

    def moved(self, endpoint: str) -> None:
        """We announced ``endpoint`` now (an address of ours)."""
        self.announced, self._ours = endpoint, True


def _same_ip(ip: str, among: list[str]) -> bool:
    a = parse_ip(ip)
    return ip in among or (a is not None and any(parse_ip(h) == a for h in among))
