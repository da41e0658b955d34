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

import os
import shutil
import subprocess
import sys
import itertools
from pathlib import Path

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


class Lan:
    """A bridge and ``hosts`` namespaces on 198.18.<net>.0/24.

    Host i (0-based) gets address 198.18.<net>.<11 + i>.  Use as a context manager.
    """

    def __init__(self, hosts: int) -> None:
        n = next(_counter)
        tag = f"{os.getpid() % 100000}x{n}"
        self.net = (os.getpid() + n) % 250 + 1   # a /24 of its own per Lan
        self.bridge_ns = f"bfbr{tag}"
        self.hosts = [f"bfh{tag}n{i}" for i in range(hosts)]
        self.addresses = [self.address(10 + 1 + i) for i in range(hosts)]
        self._procs: list[subprocess.Popen] = []

    def address(self, last: int) -> str:
        return f"{PREFIX}.{self.net}.{last}"

    # -- lifetime ---------------------------------------------------------------
    def __enter__(self) -> Lan:
        try:
            self._build()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.close()

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
            _ip("-n", ns, "addr", "add", f"{addr}/24", "dev", "eth0")
            _ip("-n", ns, "link", "set", "eth0", "up")
            # A default route lets multicast (mDNS) and any address pick eth0.
            _ip("-n", ns, "route", "add", "default", "via", self.address(1), "dev", "eth0")
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
    def popen(self, host: int, argv: list[str], **kw) -> subprocess.Popen:
        """Start ``argv`` inside host ``host``'s namespace (killed on close)."""
        p = subprocess.Popen(["ip", "netns", "exec", self.hosts[host], *argv], **kw)
        self._procs.append(p)
        return p

    def run(self, host: int, argv: list[str], timeout: float = 30, **kw):
        return subprocess.run(["ip", "netns", "exec", self.hosts[host], *argv],
                              timeout=timeout, **kw)

    def link(self, host: int, up: bool) -> None:
        """Take host's cable out (up=False) or put it back: its address stays."""
        _ip("-n", self.bridge_ns, "link", "set", self._outer[self.hosts[host]],
            "up" if up else "down")

    def readdress(self, host: int, last: int) -> str:
        """Give host a new address 198.18.<net>.<last> (its old one is gone)."""
        ns, new = self.hosts[host], self.address(last)
        _ip("-n", ns, "addr", "flush", "dev", "eth0")
        _ip("-n", ns, "addr", "add", f"{new}/24", "dev", "eth0")
        _ip("-n", ns, "route", "replace", "default", "via", self.address(1), "dev", "eth0")
        self.addresses[host] = new
        return new


def python_argv(*args: str) -> list[str]:
    """``python -u`` with this checkout first on the path, for ``Lan.popen``."""
    return ["env", f"PYTHONPATH={Path(__file__).resolve().parents[1]}", sys.executable, "-u",
            *args]
