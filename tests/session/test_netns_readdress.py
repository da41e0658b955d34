"""A new IP address while the program runs, across network namespaces (tests/netns.py:
198.18.0.0/15 only, removed afterwards): three peers on three hosts of a bridge; mid-game
one host's address is taken away and another given (a Wi-Fi reconnecting with a new
lease).  Its running peer notices, listens on the new address and announces the signed
move; the others reconnect there.  Nothing is restarted, and the game finishes on every
peer with the uninterrupted game's hash and no false alarm."""

import pytest

from tests import netns
from tests.session.uninterrupted import uninterrupted

pytestmark = pytest.mark.e2e

NO_FALSE_ALARM = ("cheat", "desync", "error")


@pytest.mark.parametrize("bind", ["its address", "every interface"])
def test_a_new_address_mid_game_is_followed_without_a_restart(spawn, bind):
    """Bound to its address, the peer listens on the new one; bound to every interface
    (the default) it already does, and only announces the move."""
    netns.require()
    names = ["Ana", "Bot1", "Bot2"]
    ref = uninterrupted(3, "ns-move", tuple(names))
    with netns.Lan(3) as lan:
        ns = lambda i: ["ip", "netns", "exec", lan.hosts[i]]   # noqa: E731
        common = ("--level", "random", "--pace", 0.02, "--timeout", 200,
                  "--test-secret", "ns-move")
        host = spawn("host", "--name", "Ana", "--players", 3, "--bind", lan.addresses[0],
                     "--port", 0, "--data-dir", spawn.dir / "h0", *common, label="host",
                     prefix=ns(0))
        addr = host.wait_event("lobby", 20)["address"]
        bots = []
        for i in (1, 2):
            where = lan.addresses[i] if bind == "its address" or i != 1 else "0.0.0.0"
            b = spawn("bot", "--join", addr, "--name", names[i], "--bind", where,
                      "--data-dir", spawn.dir / f"h{i}", *common, label=f"bot{i}", prefix=ns(i))
            b.wait_event("welcome", 20)
            bots.append(b)
        host.wait_round(2, 60)
        mover = bots[0]
        assert mover.p.poll() is None, "the game ended before the address changed"
        old = lan.addresses[1]
        new = lan.readdress(1, 99)
        moved = mover.wait_event("moved", 30)
        assert moved["endpoint"].startswith(f"tcp://{new}:"), moved
        assert old in moved["was"], moved
        results = [p.result(200) for p in [host] + bots]
    for r in results:
        assert r["status"] == "over" and r["audit"] and r["audit"][0] and r["rc"] == 0, r
        assert not [a for a in r["alerts"] if a["kind"] in NO_FALSE_ALARM], r["alerts"]
    assert {r["hash"] for r in results} == {ref["hash"]}
    round_moved = max(ev["round"] for ev in mover.events if ev.get("event") == "phase"
                      and mover.events.index(ev) < mover.events.index(moved))
    assert round_moved < max(ev["round"] for ev in mover.events if ev.get("event") == "phase"), \
        "the move came after the game's last round"
