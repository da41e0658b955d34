"""A friend who is not in the room: peers on different subnets joined by a router
namespace (tests/netns.py Routed: 198.18.0.0/15 and 2001:db8::/32 only, removed
afterwards), as a VPN overlay or two home networks are.  No multicast crosses the router.

- IPv4 across the router: a whole game with one peer SIGKILLed and rejoined and another's
  address changed mid-game; the same hash as the uninterrupted game, no false alarm.
  Looking for games from another subnet finds nothing and says so in one line, with how
  to join by address.
- IPv6 only (no IPv4 address anywhere): the host prints a quoted ``[address]:port`` join
  command; joiners type ``[v6]:port`` and ``tcp://[v6]:port``; a kill + rejoin and an
  address change over IPv6; the game finishes the same.
- A forwarded port: the host is told ``--advertise`` the router's outside address, whose
  ports 5555 and 5556 the router forwards to it (a home router's port forwarding); the
  joiner types that address and the game is played through it.
"""

import pytest

from tests import netns
from tests.session.uninterrupted import uninterrupted

pytestmark = pytest.mark.e2e

NO_FALSE_ALARM = ("cheat", "desync", "error")


def _ns(net, i):
    return ["ip", "netns", "exec", net.hosts[i]]


def _finish_alike(procs, ref):
    results = [p.result(240) for p in procs]
    for r in results:
        assert r["status"] == "over" and r["audit"] and r["audit"][0] and r["rc"] == 0, r
        assert not [a for a in r["alerts"] if a["kind"] in NO_FALSE_ALARM], r["alerts"]
    assert {r["hash"] for r in results} == {ref["hash"]}
    return results


def _kill_rejoin_and_move(spawn, net, host, bots, common, victim_at=2, mover_at=1,
                          new_last=99):
    """Mid-game: the bot on host ``victim_at`` is killed and rejoins; then the one on
    host ``mover_at`` gets a new address, which its running peer follows."""
    victim, mover = bots[victim_at - 1], bots[mover_at - 1]
    data = victim.wait_event("started", 30)["data"]
    victim.wait_round(2, 90)
    assert victim.p.poll() is None, "the game ended before the kill"
    victim.kill()
    host.wait_for(lambda ev: ev.get("kind") == "disconnect" and ev.get("seat") == victim_at,
                  60, "disconnect")
    back = spawn("rejoin", "--dir", data, *common, label="rejoined", prefix=_ns(net, victim_at))
    assert back.wait_event("rejoined", 30)["records"] > 0
    host.wait_for(lambda ev: ev.get("kind") == "reconnect" and ev.get("seat") == victim_at,
                  60, "reconnect")
    assert mover.p.poll() is None, "the game ended before the address changed"
    old = net.addresses[mover_at]
    new = net.readdress(mover_at, new_last)
    moved = mover.wait_event("moved", 30)
    assert new in moved["endpoint"] and old in moved["was"], moved
    return back


def test_a_game_across_a_router_survives_a_kill_and_a_new_address(spawn):
    netns.require()
    names = ("Ana", "Bot1", "Bot2")
    ref = uninterrupted(3, "routed-4", names)
    with netns.Routed(3) as net:
        common = ("--level", "random", "--pace", 0.02, "--timeout", 240,
                  "--test-secret", "routed-4")
        host = spawn("host", "--name", "Ana", "--players", 3, "--port", 0,
                     "--data-dir", spawn.dir / "h0", *common, label="host", prefix=_ns(net, 0))
        lobby = host.wait_event("lobby", 20)
        # listening on every interface, it prints its own routed address
        assert lobby["address"].startswith(f"tcp://{net.addresses[0]}:"), lobby
        assert lobby["interfaces"][0] == "eth0", lobby
        # from another subnet the LAN announcement is not seen: one line, what to type
        look = spawn("join", "--name", "Cy", "--data-dir", spawn.dir / "look",
                     label="look", prefix=_ns(net, 1))
        r = look.result(60)
        assert r["rc"] == 2 and "type the address the host printed" in r["text"], r
        assert "\n" not in r["text"], r
        bots = []
        for i in (1, 2):
            b = spawn("bot", "--join", lobby["address"][len("tcp://"):], "--name", names[i],
                      "--data-dir", spawn.dir / f"h{i}", *common, label=f"bot{i}",
                      prefix=_ns(net, i))
            b.wait_event("welcome", 20)
            bots.append(b)
        back = _kill_rejoin_and_move(spawn, net, host, bots, ("--pace", 0.02, "--timeout", 240))
        _finish_alike([host, bots[0], back], ref)


def test_an_ipv6_only_game_with_bracketed_addresses_a_rejoin_and_a_move(spawn):
    netns.require()
    names = ("Ana", "Bot1", "Bot2")
    ref = uninterrupted(3, "routed-6", names)
    with netns.Routed(3, v4=False, v6=True) as net:
        common = ("--level", "random", "--pace", 0.02, "--timeout", 240,
                  "--test-secret", "routed-6")
        host = spawn("host", "--name", "Ana", "--players", 3, "--port", 0,
                     "--data-dir", spawn.dir / "h0", *common, label="host", prefix=_ns(net, 0))
        lobby = host.wait_event("lobby", 20)
        port = lobby["address"].rsplit(":", 1)[1]
        assert lobby["address"] == f"tcp://[{net.addresses[0]}]:{port}", lobby
        # quoted: a shell would take [...] for a file pattern
        assert lobby["join"] == f"belfort join '[{net.addresses[0]}]:{port}'", lobby
        typed = [f"[{net.addresses[0]}]:{port}", f"tcp://[{net.addresses[0]}]:{port}"]
        bots = []
        for i in (1, 2):
            b = spawn("bot", "--join", typed[i - 1], "--name", names[i],
                      "--data-dir", spawn.dir / f"h{i}", *common, label=f"bot{i}",
                      prefix=_ns(net, i))
            b.wait_event("welcome", 20)
            bots.append(b)
        back = _kill_rejoin_and_move(spawn, net, host, bots, ("--pace", 0.02, "--timeout", 240),
                                     new_last=0x99)
        _finish_alike([host, bots[0], back], ref)


@pytest.mark.parametrize("v4, by_name", [(True, False), (False, False), (False, True)],
                         ids=["ipv4", "ipv6", "ipv6-by-name"])
def test_joining_by_a_forwarded_address_the_host_was_told_to_advertise(spawn, v4, by_name):
    """The router's outside address, or a name for it (a dynamic DNS name) that only the
    joiner's name server knows."""
    netns.require()
    names = ("Ana", "Bo")
    ref = uninterrupted(2, "forwarded", names)
    with netns.Routed(2, v4=v4, v6=not v4) as net:
        net.forward([5555, 5556], 0)          # the lobby's port and the next (the mesh's)
        outside = net.outside if v4 else f"[{net.outside}]"
        if by_name:
            net.name(1, "ana-home.example", net.outside)
            outside = "ana-home.example"
        common = ("--level", "random", "--pace", 0.02, "--timeout", 240,
                  "--test-secret", "forwarded")
        host = spawn("host", "--name", "Ana", "--players", 2, "--advertise", outside,
                     "--data-dir", spawn.dir / "h0", *common, label="host", prefix=_ns(net, 0))
        lobby = host.wait_event("lobby", 20)
        assert lobby["address"] == f"tcp://{outside}:5555", lobby
        assert lobby["ports"] == [5555, 5556], lobby
        # the machine's own address is still listed, after the advertised one
        assert any(net.addresses[0] in a for a in lobby["addresses"][1:]), lobby
        joiner = spawn("bot", "--join", f"{outside}:5555", "--name", "Bo",
                       "--data-dir", spawn.dir / "h1", *common, label="bo", prefix=_ns(net, 1))
        joiner.wait_event("welcome", 20)
        _finish_alike([host, joiner], ref)
