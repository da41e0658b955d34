"""Kill and rejoin with real processes: whatever state the killed peer's log is
in — intact, cut mid-record, one flipped byte, deleted — `rejoin` fetches what it lacks
from the others and the game ends exactly as the uninterrupted one, with no false alarm.
Also: a rejoin on another port, a data directory gone, and secrets gone."""

import socket

import pytest

from tests.session.test_e2e import misbehaving
from tests.session.uninterrupted import uninterrupted

pytestmark = pytest.mark.e2e

def start(spawn, n, secret, pace=0.0, label=""):
    d = spawn.dir
    host = spawn("host", "--name", "Ana", "--players", n, "--bind", "127.0.0.1", "--port", 0,
                 "--level", "random", "--data-dir", d / "host", "--timeout", 120,
                 "--pace", pace, "--test-secret", secret, label=f"host{label}")
    addr = host.wait_event("lobby", 20)["address"]
    bots = []
    for i in range(1, n):
        b = spawn("bot", "--join", addr, "--name", f"Bot{i}", "--bind", "127.0.0.1",
                  "--level", "random", "--data-dir", d / f"bot{i}", "--timeout", 120,
                  "--pace", pace, "--test-secret", secret, label=f"bot{i}{label}")
        b.wait_event("welcome", 20)
        bots.append(b)
    return [host] + bots


def damage(path, how):
    data = path.read_bytes()
    if how == "truncated":
        path.write_bytes(data[:len(data) * 3 // 5 + 3])
    elif how == "flipped":
        b = bytearray(data)
        b[len(b) // 2] ^= 0x10
        path.write_bytes(bytes(b))
    elif how == "deleted":
        path.unlink()


def no_false_alarm(r):
    bad = [a for a in r["alerts"] if a["kind"] in ("cheat", "desync")]
    assert not bad, (r.get("name"), bad)


def kill_damage_rejoin(spawn, n, how, secret, extra=()):
    ref = uninterrupted(n, secret)
    spawn.dir = spawn.dir / f"run-{how}"
    peers = start(spawn, n, secret, pace=0.01)
    victim = peers[-1]
    data = victim.wait_event("started", 20)["data"]
    victim.wait_round(2)
    assert victim.p.poll() is None, "the game ended before the kill"
    victim.kill()
    peers[0].wait_for(lambda ev: ev.get("kind") == "disconnect" and ev.get("seat") == n - 1)
    from pathlib import Path
    damage(Path(data) / "log", how)
    back = spawn("rejoin", "--dir", data, "--timeout", 120, "--pace", 0.01, *extra,
                 label="rejoined")
    back.wait_event("rejoined", 30)
    results = [p.result(120) for p in peers[:-1]] + [back.result(120)]
    for r in results:
        assert r["status"] == "over" and r["audit"] and r["audit"][0], r
        assert r["rc"] == 0, r
        no_false_alarm(r)
    assert {r["hash"] for r in results} == {ref["hash"]}
    assert [r["scores"] for r in results] == [ref["scores"]] * n
    return back, Path(data)


@pytest.mark.parametrize("n", [2, 3])
@pytest.mark.parametrize("how", ["intact", "truncated", "flipped", "deleted"])
def test_kill_and_rejoin_from_any_log(spawn, n, how):
    back, data = kill_damage_rejoin(spawn, n, how, f"mx-{n}")
    told = [ev["text"] for ev in back.events if ev.get("event") == "alert"
            and str(data / "log") in ev.get("text", "")]
    if how == "intact":
        assert not told, told
        assert not list(data.glob("log.damaged-*"))
    else:
        assert told, back.events[:5]
    if how in ("truncated", "flipped"):
        assert len(list(data.glob("log.damaged-*"))) == 1     # kept aside, not overwritten


def test_rejoin_on_another_port(spawn):
    """Our old port is taken (or the machine has another address): bind elsewhere,
    announce the new address signed, and the others reconnect."""
    ref = uninterrupted(3, "mv-3")
    spawn.dir = spawn.dir / "run"
    peers = start(spawn, 3, "mv-3", pace=0.01)
    victim = peers[-1]
    data = victim.wait_event("started", 20)["data"]
    victim.wait_round(2)
    victim.kill()
    peers[0].wait_for(lambda ev: ev.get("kind") == "disconnect" and ev.get("seat") == 2)
    from net.node.storage import GameStore
    meta = GameStore(data).load()[3]
    port = int(meta["mesh"].rsplit(":", 1)[1])
    blocker = socket.socket()
    blocker.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        blocker.bind(("0.0.0.0", port))
        blocker.listen()
        back = spawn("rejoin", "--dir", data, "--timeout", 120, "--pace", 0.01, label="moved")
        moved = back.wait_event("moved", 30)
        assert moved["endpoint"] != moved["was"]
        assert moved["endpoint"].startswith("tcp://127.0.0.1:")
        results = [p.result(120) for p in peers[:-1]] + [back.result(120)]
    finally:
        blocker.close()
    for r in results:
        assert r["status"] == "over" and r["audit"][0] and r["rc"] == 0, r
        no_false_alarm(r)
    assert {r["hash"] for r in results} == {ref["hash"]}


def test_data_directory_gone_is_told_plainly(spawn):
    d = spawn.dir
    host = spawn("host", "--name", "Ana", "--players", 3, "--bind", "127.0.0.1", "--port", 0,
                 "--level", "random", "--data-dir", d / "host", "--timeout", 60, "--pace", 0.05,
                 label="host")
    addr = host.wait_event("lobby", 20)["address"]
    args = ("join", addr, "--name", "Bo", "--bind", "127.0.0.1", "--level", "random",
            "--data-dir", d / "bo", "--timeout", 60, "--pace", 0.05)
    bo = spawn(*args, label="bo")
    cy = spawn("bot", "--join", addr, "--name", "Cy", "--bind", "127.0.0.1", "--level", "random",
               "--data-dir", d / "cy", "--timeout", 60, "--pace", 0.05, label="cy")
    bo.wait_event("started", 20)
    bo.wait_round(1)
    bo.kill()
    import shutil
    shutil.rmtree(d / "bo")
    again = spawn(*args, label="bo-again")
    r = again.result(30)
    assert r["rc"] == 2, r
    text = r["text"]
    assert "address unreachable" not in text.split(".")[0], text
    assert "no stored game" in text and str(d / "bo") in text and "handoff Bo" in text, text
    assert "Traceback" not in again.err_path.read_text()
    for p in (host, cy):
        p.kill()


def test_secrets_gone_is_told_plainly(spawn):
    peers = start(spawn, 3, "sg-3", pace=0.05)
    data = peers[2].wait_event("started", 20)["data"]
    peers[2].wait_round(1)
    peers[2].kill()
    from pathlib import Path
    (Path(data) / "secrets.msgpack").unlink()
    back = spawn("rejoin", "--dir", data, "--timeout", 30, label="nosecrets")
    r = back.result(30)
    assert r["rc"] == 2, r
    assert "secrets.msgpack: is missing" in r["text"] and "handoff Bot2" in r["text"], r
    assert "Traceback" not in back.err_path.read_text()
    for p in peers[:2]:
        p.kill()


def test_rejoin_on_a_new_ip_across_namespaces(spawn, tmp_path):
    """A laptop that comes back on a new IP address (198.18.0.0/15 only): it announces
    its new mesh address signed with its identity key, and the others reconnect."""
    from tests import netns
    netns.require()
    from tests.session.conftest import PeerProc
    ref = uninterrupted(2, "ns-2")
    procs = []
    with netns.Lan(2) as lan:
        def run(host, *args, label):
            p = PeerProc([str(a) for a in args], tmp_path, label,
                         prefix=["ip", "netns", "exec", lan.hosts[host]])
            procs.append(p)
            return p
        try:
            host = run(0, "host", "--name", "Ana", "--players", 2, "--bind", lan.addresses[0],
                       "--port", 5555, "--level", "random", "--data-dir", tmp_path / "ns-host",
                       "--timeout", 120, "--pace", 0.01, "--test-secret", "ns-2", label="ns-host")
            addr = host.wait_event("lobby", 20)["address"]
            bot = run(1, "bot", "--join", addr, "--name", "Bot1", "--level", "random", "--data-dir",
                      tmp_path / "ns-bot", "--timeout", 120, "--pace", 0.01,
                      "--test-secret", "ns-2", label="ns-bot")
            data = bot.wait_event("started", 20)["data"]
            bot.wait_round(2)
            bot.kill()
            host.wait_for(lambda ev: ev.get("kind") == "disconnect" and ev.get("seat") == 1)
            old = lan.addresses[1]
            new = lan.readdress(1, 99)
            back = run(1, "rejoin", "--dir", data, "--timeout", 120, "--pace", 0.01,
                       label="ns-back")
            moved = back.wait_event("moved", 30)
            assert moved["endpoint"].startswith(f"tcp://{new}:"), moved
            assert old in moved["was"], moved
            results = [host.result(120), back.result(120)]
        finally:
            for p in procs:
                p.kill()
                p.err.close()
    for r in results:
        assert r["status"] == "over" and r["audit"][0] and r["rc"] == 0, r
        no_false_alarm(r)
    assert {r["hash"] for r in results} == {ref["hash"]}



def test_full_disk_stops_one_peer_and_its_rejoin_finishes_the_game(spawn):
    """The disk under one peer's game log fills up mid-game: it stops for now saying so
    (exit 4), nobody is accused, the others wait for it; `rejoin` once there is space again
    ends the game with the uninterrupted game's result."""
    d = spawn.dir
    common = ("--level", "random", "--timeout", 120, "--pace", 0.02, "--test-secret", "df-3")
    host = spawn("host", "--name", "Ana", "--players", 3, "--bind", "127.0.0.1", "--port", 0,
                 "--data-dir", d / "host", *common, label="host")
    addr = host.wait_event("lobby", 20)["address"]
    bots = []
    for i, wrap in ((1, ()), (2, misbehaving("disk-full:60"))):
        b = spawn("bot", "--join", addr, "--name", f"Bot{i}", "--bind", "127.0.0.1",
                  "--data-dir", d / f"bot{i}", *common, label=f"bot{i}", prefix=wrap)
        b.wait_event("welcome", 20)
        bots.append(b)
    data = bots[1].wait_event("started", 20)["data"]
    r = bots[1].result(60)
    assert r["rc"] == 4 and r["status"] == "paused", r
    assert "the disk is full" in r["stop_reason"] and "belfort rejoin" in r["stop_reason"], r
    no_false_alarm(r)
    assert not [a for a in r["alerts"] if "internal error" in a["text"]], r["alerts"]
    host.wait_for(lambda ev: ev.get("kind") == "info" and "Bot2" in ev.get("text", "")
                  and "left" in ev.get("text", ""), 30, "Bot2 left for now")
    back = spawn("rejoin", "--dir", data, "--timeout", 120, "--pace", 0.02, label="back")
    results = [host.result(120), bots[0].result(120), back.result(120)]
    ref = uninterrupted(3, "df-3")
    for res in results:
        assert res["status"] == "over" and res["audit"][0] and res["rc"] == 0, res
        no_false_alarm(res)
    assert {res["hash"] for res in results} == {ref["hash"]}
