"""A small LAN of network namespaces for tests that must cross a real network.

Each host is a namespace with one interface, ``eth0``, plugged into a bridge that lives
in a namespace of its own, so the machine's own network is never touched.  Addresses
come only from 198.18.0.0/15 (the benchmarking range, RFC 2544).  Everything is
removed on exit, also when a test fails.

What a test can do with it: start a process on a host (``popen``), take a host's
link down and up (a Wi-Fi drop), and give a host a new address (a laptop that comes
back on another IP).  ``require()`` fails a test at once, saying why, where namespaces
cannot be used (not root, no ``ip``): such a test is never skipped (.ci/run installs
iproute2 where it is missing; the project's CI runs as root).
"""

from __future__ import annotations

import ipaddress
import os
import shutil
import subprocess
import sys
import itertools
from pathlib import Path
from typing import Self

PREFIX = "198.18"           # RFC 2544 benchmarking range: never a real network
_counter = itertools.count(1)


def _ip(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run(["ip", *args], capture_output=True, text=True, check=check,
                          timeout=10)


def unavailable() -> str | None:
    """Why namespaces cannot be used on this machine, or None when they can."""
    if shutil.which("ip") is None:
        return "the 'ip' command (iproute2) is not installed"
    if hasattr(os, "geteuid") and os.geteuid() != 0:
        return "creating network namespaces needs root"
    name = f"bfprobe{os.getpid()}"
    probe = _ip("netns", "add", name, check=False)
    if probe.returncode != 0:
        return f"'ip netns add' is refused here: {probe.stderr.strip()}"
    _ip("netns", "del", name, check=False)
    return None


def require() -> None:
    """Fail the calling test, with the reason, when namespaces cannot be used here."""
    why = unavailable()
    if why is not None:
        import pytest
        pytest.fail(f"this test needs network namespaces: {why}", pytrace=False)


class _Hosts:
    """What tests do inside the namespaces of a network (Lan, Routed): ``hosts`` are the
    namespaces' names, ``_procs`` what was started there (killed on close)."""
    hosts: list[str]
    _procs: list[subprocess.Popen]

    def _build(self) -> None:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        try:
            self._build()
        except BaseException:
            self.close()          # (what was made before the failure goes too)
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def popen(self, host: int, argv: list[str], **kw) -> subprocess.Popen:
        """Start ``argv`` inside host ``host``'s namespace (killed on close)."""
        p = subprocess.Popen(["ip", "netns", "exec", self.hosts[host], *argv], **kw)
        self._procs.append(p)
        return p

    def run(self, host: int, argv: list[str], timeout: float = 30, **kw):
        return subprocess.run(["ip", "netns", "exec", self.hosts[host], *argv],
                              timeout=timeout, **kw)


class Lan(_Hosts):
    """A bridge and ``hosts`` namespaces on 198.18.<net>.0/24.

    Host i (0-based) gets address 198.18.<net>.<11 + i>; with ``ipv6_only``, 2001:db8:<net>::
    <11 + i> and no IPv4 address at all (an IPv6-only home network or overlay).  Use as a
    context manager.
    """

    def __init__(self, hosts: int, ipv6_only: bool = False) -> None:
        self.ipv6_only = ipv6_only
        n = next(_counter)
        tag = f"{os.getpid() % 100000}x{n}"
        self.net = (os.getpid() + n) % 250 + 1   # a /24 of its own per Lan
        self.bridge_ns = f"bfbr{tag}"
        self.hosts = [f"bfh{tag}n{i}" for i in range(hosts)]
        self.addresses = [self.address(10 + 1 + i) for i in range(hosts)]
        self._procs: list[subprocess.Popen] = []

    def address(self, last: int) -> str:
        if self.ipv6_only:
            return str(ipaddress.IPv6Address(f"2001:db8:{self.net:x}::{last:x}"))
        return f"{PREFIX}.{self.net}.{last}"

    @property
    def _family(self) -> list[str]:
        return ["-6"] if self.ipv6_only else []

    def _address_up(self, ns: str, addr: str) -> None:
        if self.ipv6_only:
            # nodad: usable at once (duplicate detection would hold it back a second)
            _ip("-n", ns, "-6", "addr", "add", f"{addr}/64", "dev", "eth0", "nodad")
        else:
            _ip("-n", ns, "addr", "add", f"{addr}/24", "dev", "eth0")

    # -- lifetime ---------------------------------------------------------------
    def _build(self) -> None:
        b = self.bridge_ns
        _ip("netns", "add", b)
        _ip("-n", b, "link", "set", "lo", "up")
        _ip("-n", b, "link", "add", "br0", "type", "bridge")
        _ip("-n", b, "link", "set", "br0", "up")
        for i, (ns, addr) in enumerate(zip(self.hosts, self.addresses)):
            outer, inner = f"v{i}o", f"v{i}i"   # names live in our own namespaces
            _ip("netns", "add", ns)
            _ip("-n", ns, "link", "set", "lo", "up")
            # Created inside the bridge namespace, so no interface ever appears in ours.
            _ip("-n", b, "link", "add", outer, "type", "veth", "peer", "name", inner)
            _ip("-n", b, "link", "set", inner, "netns", ns)
            _ip("-n", ns, "link", "set", inner, "name", "eth0")
            self._address_up(ns, addr)
            _ip("-n", ns, "link", "set", "eth0", "up")
            # A default route lets multicast (mDNS) and any address pick eth0.
            _ip("-n", ns, *self._family, "route", "add", "default", "via", self.address(1),
                "dev", "eth0")
            _ip("-n", b, "link", "set", outer, "master", "br0")
            _ip("-n", b, "link", "set", outer, "up")
        self._outer = {ns: f"v{i}o" for i, ns in enumerate(self.hosts)}

    def close(self) -> None:
        for p in self._procs:
            if p.poll() is None:
                p.kill()
                try:
                    p.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    pass
        for ns in [*self.hosts, self.bridge_ns]:
            _ip("netns", "del", ns, check=False)

    # -- what tests do ----------------------------------------------------------
    def link(self, host: int, up: bool) -> None:
        """Take host's cable out (up=False) or put it back: its address stays."""
        _ip("-n", self.bridge_ns, "link", "set", self._outer[self.hosts[host]],
            "up" if up else "down")

    def readdress(self, host: int, last: int) -> str:
        """Give host a new address 198.18.<net>.<last> (its old one is gone)."""
        ns, new = self.hosts[host], self.address(last)
        _ip("-n", ns, "addr", "flush", "dev", "eth0", "scope", "global")
        self._address_up(ns, new)
        _ip("-n", ns, *self._family, "route", "replace", "default", "via", self.address(1),
            "dev", "eth0")
        self.addresses[host] = new
        return new


def python_argv(*args: str) -> list[str]:
    """``python -u`` with this checkout first on the path, for ``Lan.popen``."""
    return ["env", f"PYTHONPATH={Path(__file__).resolve().parents[1]}", sys.executable, "-u",
            *args]


V6_PREFIX = "2001:db8"      # RFC 3849 documentation range: never a real network
ETC_NETNS = Path("/etc/netns")      # `ip netns exec NS` reads NS/hosts there for /etc/hosts


def _sysctl(ns: str, key: str, value: str) -> None:
    subprocess.run(["ip", "netns", "exec", ns, "sysctl", "-q", "-w", f"{key}={value}"],
                   check=True, capture_output=True, timeout=10)


class Routed(_Hosts):
    """Hosts on subnets of their own, joined by a router namespace: a friend who is not
    in the room (another home network, a VPN overlay).  No multicast crosses the router.

    Host i is on link i, a /24 of 198.19.0.0/16 (``v4``) and a /64 of 2001:db8::/32
    (``v6``): the router is .1 / ::1 there, the host .11 / ::11.  ``v4=False`` gives an
    IPv6-only network.  ``outside`` is an address of the router's own (a home router's
    public one), for a forwarded port (``forward``).  Use as a context manager.
    """

    def __init__(self, hosts: int, *, v4: bool = True, v6: bool = False) -> None:
        n = next(_counter)
        tag = f"{os.getpid() % 100000}x{n}"
        self.v4, self.v6 = v4, v6
        self.router = f"bfrt{tag}"
        self.hosts = [f"bfh{tag}r{i}" for i in range(hosts)]
        self.base = (os.getpid() + n) % 200 + 1        # links base .. base+hosts
        self.site = f"{(os.getpid() + n) % 0xffff:x}"   # 2001:db8:<site>:<link>::/64
        self.addresses = [self.address(i, 11) for i in range(hosts)]
        self._procs: list[subprocess.Popen] = []
        self._made_etc = False

    def address(self, link: int, last: int) -> str:
        """The address ``last`` on link ``link`` (IPv4 unless the network is IPv6-only)."""
        return self.address4(link, last) if self.v4 else self.address6(link, last)

    def address4(self, link: int, last: int) -> str:
        return f"198.19.{self.base + link}.{last}"

    def address6(self, link: int, last: int) -> str:
        return str(ipaddress.IPv6Address(f"{V6_PREFIX}:{self.site}:{link:x}::{last:x}"))

    @property
    def outside(self) -> str:
        """The router's own address on its extra link (the home router's public one)."""
        return self.address(len(self.hosts), 1)

    def _addrs(self, ns: str, dev: str, link: int, last: int) -> None:
        if self.v4:
            _ip("-n", ns, "addr", "add", f"{self.address4(link, last)}/24", "dev", dev)
        if self.v6:
            # nodad: usable at once (duplicate detection would hold it back a second)
            _ip("-n", ns, "-6", "addr", "add", f"{self.address6(link, last)}/64", "dev", dev,
                "nodad")

    def _routes(self, ns: str, link: int) -> None:
        if self.v4:
            _ip("-n", ns, "route", "replace", "default", "via", self.address4(link, 1))
        if self.v6:
            _ip("-n", ns, "-6", "route", "replace", "default", "via", self.address6(link, 1))

    def _build(self) -> None:
        r = self.router
        _ip("netns", "add", r)
        _ip("-n", r, "link", "set", "lo", "up")
        if self.v4:
            _sysctl(r, "net.ipv4.ip_forward", "1")
        if self.v6:
            _sysctl(r, "net.ipv6.conf.all.forwarding", "1")
        for i, ns in enumerate(self.hosts):
            _ip("netns", "add", ns)
            _ip("-n", ns, "link", "set", "lo", "up")
            _ip("-n", r, "link", "add", f"l{i}", "type", "veth", "peer", "name", f"h{i}")
            _ip("-n", r, "link", "set", f"h{i}", "netns", ns)
            _ip("-n", ns, "link", "set", f"h{i}", "name", "eth0")
            self._addrs(r, f"l{i}", i, 1)
            self._addrs(ns, "eth0", i, 11)
            _ip("-n", r, "link", "set", f"l{i}", "up")
            _ip("-n", ns, "link", "set", "eth0", "up")
            self._routes(ns, i)
        # the router's outside address (its public one), on its loopback: reachable
        # from every host through its default route
        out = len(self.hosts)
        if self.v4:
            _ip("-n", r, "addr", "add", f"{self.address4(out, 1)}/32", "dev", "lo")
        if self.v6:
            _ip("-n", r, "-6", "addr", "add", f"{self.address6(out, 1)}/128", "dev", "lo",
                "nodad")

    def close(self) -> None:
        for p in self._procs:
            if p.poll() is None:
                p.kill()
                try:
                    p.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    pass
        for ns in [*self.hosts, self.router]:
            _ip("netns", "del", ns, check=False)
            shutil.rmtree(ETC_NETNS / ns, ignore_errors=True)
        if self._made_etc:
            try:
                ETC_NETNS.rmdir()            # (only if no other test's file is in it)
            except OSError:
                pass

    def name(self, host: int, name: str, address: str) -> None:
        """Host ``host`` resolves ``name`` to ``address`` (``ip netns exec`` puts
        /etc/netns/NS/hosts in place of /etc/hosts: a name server of its own)."""
        if not ETC_NETNS.exists():
            self._made_etc = True
        d = ETC_NETNS / self.hosts[host]
        d.mkdir(parents=True, exist_ok=True)
        with open(d / "hosts", "a") as f:
            f.write(f"127.0.0.1 localhost\n::1 localhost\n{address} {name}\n")

    def readdress(self, host: int, last: int) -> str:
        """Give host a new address ``last`` on its link (its old one is gone)."""
        ns = self.hosts[host]
        _ip("-n", ns, "addr", "flush", "dev", "eth0", "scope", "global")
        self._addrs(ns, "eth0", host, last)
        self._routes(ns, host)
        self.addresses[host] = self.address(host, last)
        return self.addresses[host]

    def forward(self, ports: list[int], to_host: int) -> None:
        """Forward TCP ``ports`` of the router's ``outside`` address to host ``to_host``
        (a home router's port forwarding).  The host sees each connection come from its
        real source, as with a router's destination NAT: the relay in the router opens
        its side transparently (IP_TRANSPARENT, bound to the client's address), and the
        host's answers to those ports are delivered to the router itself by a policy
        route."""
        r, target = self.router, self.addresses[to_host]
        six = not self.v4
        fam = ["-6"] if six else []
        for port in ports:
            _ip("-n", r, *fam, "rule", "add", "from", target, "ipproto", "tcp", "sport",
                str(port), "lookup", "100")
        _ip("-n", r, *fam, "route", "add", "local", "::/0" if six else "0.0.0.0/0", "dev", "lo",
            "table", "100")
        p = subprocess.Popen(["ip", "netns", "exec", r, sys.executable, "-u", "-c", _RELAY,
                              self.outside, target, *map(str, ports)],
                             stdout=subprocess.PIPE, text=True)
        self._procs.append(p)
        assert p.stdout is not None and p.stdout.readline().strip() == "ready", "relay failed"


# A port forwarder (run in the router's namespace): OUTSIDE TARGET PORT...
_RELAY = r"""
import socket, sys, threading
outside, target, ports = sys.argv[1], sys.argv[2], [int(p) for p in sys.argv[3:]]
fam = socket.AF_INET6 if ":" in target else socket.AF_INET
IP_TRANSPARENT = 19

def pipe(a, b):
    try:
        while True:
            data = a.recv(65536)
            if not data:
                break
            b.sendall(data)
    except OSError:
        pass
    for s in (a, b):
        try:
            s.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

def serve(ls, port):
    while True:
        c, peer = ls.accept()
        o = socket.socket(fam, socket.SOCK_STREAM)
        o.setsockopt(socket.SOL_IP if fam == socket.AF_INET else socket.IPPROTO_IPV6,
                     IP_TRANSPARENT if fam == socket.AF_INET else 75, 1)
        o.bind((peer[0], 0))
        try:
            o.connect((target, port))
        except OSError:
            c.close(); o.close(); continue
        threading.Thread(target=pipe, args=(c, o), daemon=True).start()
        threading.Thread(target=pipe, args=(o, c), daemon=True).start()

for port in ports:
    ls = socket.socket(fam, socket.SOCK_STREAM)
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind((outside, port)); ls.listen(16)
    threading.Thread(target=serve, args=(ls, port), daemon=True).start()
print("ready", flush=True)
threading.Event().wait()
"""
