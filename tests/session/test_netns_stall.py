"""Stalls across network namespaces (tests/netns.py: 198.18.0.0/15 only, removed
afterwards): three peers on three hosts of a bridge; one host's link goes down for a short
drop mid-game, later another's for longer than a protocol step may be owed (so its steps
fall due while it is cut off), shorter than the stall time.  The game finishes on every
peer with the hash of the uninterrupted game, and nobody is accused of anything.

The protocol's times are scaled down together (stall time 180 s -> 20 s, step deadline
15 s -> 5 s; outages 20 s and 70 s -> 3 s and 8 s), so the same order of events takes
seconds rather than minutes; the outages are the scenario's own durations."""

import time

import pytest

from tests import netns

pytestmark = pytest.mark.e2e

NO_FALSE_ALARM = ("cheat", "desync", "error")
STALL, STEP_DEADLINE = 20, 5            # s: --stall-timeout, --step-deadline
SHORT_DROP, LONG_DROP = 3, 8            # s: past the disconnection time (2 s) / the step deadline


def link_down(lan, host, seconds, watcher, seat):
    lan.link(host, up=False)
    t0 = time.monotonic()
    try:
        watcher.wait_for(lambda ev: ev.get("kind") == "disconnect" and ev.get("seat") == seat,
                         seconds + 20, "disconnect")
        time.sleep(max(0.0, seconds - (time.monotonic() - t0)))   # the outage's length
    finally:
        lan.link(host, up=True)


def test_links_down_short_and_past_the_step_deadline(spawn):
    netns.require()
    from net.session.memnet import MemoryNetwork
    import belfort
    names = ["Ana", "Bot1", "Bot2"]
    ref = MemoryNetwork.create(3, seed="ns-1", level="random", names=names)
    ref.start()
    ref.run(max_idle=400)
    ref_hash = belfort.state_hash(ref.peers[0].game)
    with netns.Lan(3) as lan:
        ns = lambda i: ["ip", "netns", "exec", lan.hosts[i]]   # noqa: E731
        common = ("--level", "random", "--pace", 0.02, "--timeout", 240, "--test-secret", "ns-1",
                  "--stall-timeout", STALL, "--step-deadline", STEP_DEADLINE)
        host = spawn("host", "--name", "Ana", "--players", 3, "--bind", lan.addresses[0],
                     "--port", 0, "--data-dir", spawn.dir / "h0", *common, label="host",
                     prefix=ns(0))
        addr = host.wait_event("lobby", 20)["address"]
        assert lan.addresses[0] in addr
        bots = []
        for i in (1, 2):
            b = spawn("bot", "--join", addr, "--name", names[i], "--bind", lan.addresses[i],
                      "--data-dir", spawn.dir / f"h{i}", *common, label=f"bot{i}", prefix=ns(i))
            b.wait_event("welcome", 20)
            bots.append(b)
        host.wait_round(2, 60)
        assert bots[0].p.poll() is None, "the game ended before the outage"
        link_down(lan, 1, SHORT_DROP, host, 1)
        host.wait_for(lambda ev: ev.get("kind") == "reconnect" and ev.get("seat") == 1, 120,
                      "reconnect")
        round_now = max(ev["round"] for ev in host.events if ev.get("event") == "phase")
        host.wait_round(round_now + 1, 120)
        assert bots[1].p.poll() is None, "the game ended before the second outage"
        link_down(lan, 2, LONG_DROP, host, 2)
        results = [p.result(200) for p in [host] + bots]
    for r in results:
        assert r["status"] == "over" and r["audit"] and r["audit"][0] and r["rc"] == 0, r
        assert not [a for a in r["alerts"] if a["kind"] in NO_FALSE_ALARM], r["alerts"]
    assert {r["hash"] for r in results} == {ref_hash}
    assert any(a["kind"] == "disconnect" and a["seat"] == 2 for a in results[0]["alerts"])
