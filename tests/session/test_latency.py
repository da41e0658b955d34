"""Friends far apart: the lockstep does not assume a LAN's latency.

In memory (net/session/memnet.py ``delay``): every frame takes 80 ms to arrive, on the
network's own clock, and every peer is ticked each 0.1 s as a peer process polls.  A
5-player game finishes, every peer agrees, nobody is reported disconnected, late or
cheating, and the time from a bot's decision to the last screen showing it is one trip (a
simultaneous decision, committed then revealed: one round trip) — never more, since
processing takes no time on that clock.

With processes in network namespaces (tests/netns.py): the same 80 ms on every link, each
peer's frames held 40 ms on their way out (tests/session/slow_link.py)."""

import statistics

import belfort
import pytest

from net.session.memnet import MemoryNetwork

DELAY = 0.08


def test_five_players_80_ms_apart_finish_with_no_false_alarm_one_trip_to_every_screen():
    net = MemoryNetwork.create(5, seed="far-apart", level="random", delay=DELAY)
    net.start()
    net.run(max_idle=400)
    for p in net.peers:
        assert p.status == "over", (p.seat, p.stop_reason, [a.text for a in p.alerts])
        assert not p.alerts, [(a.kind, a.text) for a in p.alerts]
    assert len({belfort.state_hash(p.game) for p in net.peers}) == 1
    # each bot decision: until every peer's screen shows its outcome (the next version)
    waits = []
    for t, _seat, version in net.decided:
        shown = [min(at for v, at in seen.items() if v > version)
                 for seen in net.applied.values()]
        waits.append(round(max(shown) - t, 6))
    assert len(waits) > 100
    # a command: one trip; a simultaneous decision (commit, then reveal): one round trip
    assert set(waits) == {DELAY, 2 * DELAY}, sorted(set(waits))
    assert statistics.median(waits) == DELAY


def test_without_delay_nothing_waits_in_flight():
    net = MemoryNetwork.create(2, seed="near", level="random")
    net.start()
    net.run(max_idle=400)
    assert not net.in_flight and all(p.status == "over" for p in net.peers)


@pytest.mark.e2e
def test_five_peer_processes_80_ms_apart_finish_alike(spawn):
    """Five processes on a bridge, each one's frames held 40 ms on their way out (80 ms
    between any two); the game ends with the uninterrupted game's hash, no false alarm."""
    import json
    import sys

    from tests import netns
    from tests.session.uninterrupted import uninterrupted
    netns.require()
    names = ("Ana", "Bot1", "Bot2", "Bot3", "Bot4")
    ref = uninterrupted(5, "far-80", names)
    with netns.Lan(5) as lan:
        ns = lambda i: ["ip", "netns", "exec", lan.hosts[i], sys.executable,   # noqa: E731
                        "-m", "tests.session.slow_link", str(DELAY * 1000 / 2), "--"]
        common = ("--level", "random", "--pace", 0.01, "--timeout", 400,
                  "--test-secret", "far-80")
        host = spawn("host", "--name", "Ana", "--players", 5, "--port", 0,
                     "--data-dir", spawn.dir / "h0", "--latency-out", spawn.dir / "t0.json",
                     *common, label="host", prefix=ns(0))
        addr = host.wait_event("lobby", 20)["address"]
        bots = []
        for i in range(1, 5):
            b = spawn("bot", "--join", addr, "--name", names[i], "--data-dir",
                      spawn.dir / f"h{i}", "--latency-out", spawn.dir / f"t{i}.json",
                      *common, label=f"bot{i}", prefix=ns(i))
            b.wait_event("welcome", 30)
            bots.append(b)
        results = [p.result(400) for p in [host] + bots]
    for r in results:
        assert r["status"] == "over" and r["audit"] and r["audit"][0] and r["rc"] == 0, r
        assert not [a for a in r["alerts"] if a["kind"] in ("cheat", "desync", "error",
                                                            "disconnect")], r["alerts"]
    assert {r["hash"] for r in results} == {ref["hash"]}
    # each command reached every other peer no sooner than its sender's link let it out
    # (one clock: the namespaces share CLOCK_MONOTONIC)
    times = [json.loads((spawn.dir / f"t{i}.json").read_text()) for i in range(5)]
    sent = {(s, v): t for d in times for s, v, t in d["sent"]}
    trips = [t - sent[(s, v)] for d in times for s, v, t in d["apply"]
             if s != d["seat"] and (s, v) in sent]
    assert len(trips) > 100 and min(trips) >= DELAY / 2, (len(trips), min(trips))
