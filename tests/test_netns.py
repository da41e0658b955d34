"""The namespace LAN used by the networked tests really behaves like a LAN (tests/netns.py)."""

import subprocess

import pytest

from tests import netns

pytestmark = pytest.mark.e2e

ECHO_SERVER = """
import socket, sys
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind((sys.argv[1], 7000)); s.listen(); print('ready', flush=True)
while True:
    c, _ = s.accept(); c.sendall(c.recv(100)); c.close()
"""
ECHO_CLIENT = """
import socket, sys
try:
    c = socket.create_connection((sys.argv[1], 7000), timeout=1.5); c.sendall(b'hi')
    print(c.recv(100).decode())
except OSError as e:
    print('unreachable')
"""


def _ask(lan, host, addr):
    out = lan.run(host, netns.python_argv("-c", ECHO_CLIENT, addr), capture_output=True,
                  text=True)
    return out.stdout.strip()


def _serve(lan, host, addr):
    p = lan.popen(host, netns.python_argv("-c", ECHO_SERVER, addr), stdout=subprocess.PIPE,
                  text=True)
    assert p.stdout.readline().strip() == "ready"
    return p


def test_hosts_reach_each_other_lose_the_link_and_change_address():
    netns.require()
    with netns.Lan(2) as lan:
        a, b = lan.addresses
        assert a.startswith("198.18.") and b.startswith("198.18.")
        server = _serve(lan, 1, b)
        assert _ask(lan, 0, b) == "hi"
        lan.link(1, up=False)
        assert _ask(lan, 0, b) == "unreachable"
        lan.link(1, up=True)
        assert _ask(lan, 0, b) == "hi"
        server.kill()
        new = lan.readdress(1, 99)
        assert new != b and new.startswith("198.18.")
        _serve(lan, 1, new)
        assert _ask(lan, 0, new) == "hi"
        assert _ask(lan, 0, b) == "unreachable"
        names = [*lan.hosts, lan.bridge_ns]
    listed = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    assert not any(n in listed for n in names), "namespaces are removed afterwards"


def test_a_machine_without_namespaces_fails_these_tests_saying_why(monkeypatch):
    # never a silent skip: the test fails at once with the reason
    monkeypatch.setattr(netns, "unavailable", lambda: "creating network namespaces needs root")
    with pytest.raises(pytest.fail.Exception, match="needs network namespaces: creating"):
        netns.require()
