"""Finding the game without typing an address, between processes: the host
announces its lobby (mDNS / DNS-SD), `join` without an address finds it and plays.  Also
across network namespaces joined by a bridge (tests/netns.py, 198.18.0.0/15)."""

import json
import queue
import secrets
import subprocess
import threading
import time

import pytest

from tests import netns

pytestmark = pytest.mark.e2e


def test_join_without_an_address_finds_the_game_on_this_machine(spawn):
    d = spawn.dir
    ana = f"Ana{secrets.token_hex(3)}"          # other games may be announced here too
    host = spawn("host", "--name", ana, "--players", 2, "--port", 0, "--level", "random",
                 "--pace", 0.01, "--data-dir", d / "h", "--timeout", 120, label="host")
    host.wait_event("lobby", 20)
    bo = spawn("join", "--name", "Bo", "--host", ana, "--level", "random", "--pace", 0.01,
               "--data-dir", d / "b", "--timeout", 120, label="bo")
    games = bo.wait_event("games", 30)["games"]
    assert [g["host"] for g in games] == [ana]
    assert games[0]["free"] == 1 and games[0]["seats"] == 2
    assert games[0]["fingerprint"] == host.wait_event("lobby")["fingerprint"]
    assert bo.wait_event("started", 30)["roster"] == [ana, "Bo"]
    assert host.result(120)["rc"] == 0 and bo.result(60)["rc"] == 0


class NsPeer:
    """A peer process inside a namespace; its '@ {json}' lines are events."""

    def __init__(self, lan, host, args):
        self.p = lan.popen(host, netns.python_argv("-m", "client.peer", *map(str, args),
                                                   "--json"),
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.q = queue.Queue()
        self.lines = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.p.stdout:
            self.lines.append(line)
            if line.startswith("@ "):
                try:
                    self.q.put(json.loads(line[2:]))
                except ValueError:
                    pass
        self.q.put(None)

    def wait_event(self, name, timeout):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                ev = self.q.get(timeout=max(0.01, end - time.monotonic()))
            except queue.Empty:
                break
            if ev is None:
                break
            if ev.get("event") == name:
                return ev
        raise AssertionError(f"no {name!r} event; output: {''.join(self.lines[-20:])}")


def test_join_without_an_address_across_a_bridged_lan(tmp_path):
    netns.require()
    with netns.Lan(2) as lan:
        host = NsPeer(lan, 0, ["host", "--name", "Ana", "--players", 2, "--port", 0,
                               "--level", "random", "--pace", 0.05, "--data-dir", tmp_path / "h",
                               "--timeout", 120])
        lobby = host.wait_event("lobby", 30)
        # the host prints its LAN address, never loopback (nobody else could reach it)
        port = lobby["address"].rsplit(":", 1)[1]
        assert lobby["addresses"] == [f"tcp://{lan.addresses[0]}:{port}"]
        bo = NsPeer(lan, 1, ["join", "--name", "Bo", "--level", "random", "--pace", 0.05,
                             "--data-dir", tmp_path / "b", "--timeout", 120])
        games = bo.wait_event("games", 30)["games"]
        assert [(g["host"], g["address"]) for g in games] == [("Ana", lobby["address"])]
        assert bo.wait_event("started", 30)["roster"] == ["Ana", "Bo"]
        assert host.wait_event("started", 30)["roster"] == ["Ana", "Bo"]


def test_an_ipv6_only_lan_finds_the_game_by_its_aaaa_record(spawn):
    """No IPv4 address anywhere: the host announces over IPv6 multicast DNS (ff02::fb)
    with AAAA records, `join` without an address finds the game and joins it at its
    bracketed IPv6 address."""
    netns.require()
    with netns.Lan(2, ipv6_only=True) as lan:
        ns = lambda i: ["ip", "netns", "exec", lan.hosts[i]]   # noqa: E731
        common = ("--level", "random", "--pace", 0.01, "--timeout", 120)
        host = spawn("host", "--name", "Ana", "--players", 2, "--port", 0,
                     "--data-dir", spawn.dir / "h", *common, label="host", prefix=ns(0))
        lobby = host.wait_event("lobby", 20)
        assert lobby["address"].startswith(f"tcp://[{lan.addresses[0]}]:"), lobby
        bo = spawn("join", "--name", "Bo", "--data-dir", spawn.dir / "b", *common,
                   label="bo", prefix=ns(1))
        games = bo.wait_event("games", 30)["games"]
        assert [g["address"] for g in games] == [lobby["address"]], games
        assert bo.wait_event("started", 30)["roster"] == ["Ana", "Bo"]
        assert host.result(120)["rc"] == 0 and bo.result(60)["rc"] == 0
