"""End-to-end: real peer processes over loopback ZeroMQ (CurveZMQ mesh)."""

import sys

import pytest

from tests.session.uninterrupted import uninterrupted

pytestmark = pytest.mark.e2e


def misbehaving(how: str) -> list:
    """The prefix that runs a peer under tests/session/misbehave.py doing ``how``."""
    return [sys.executable, "-m", "tests.session.misbehave", how, "--"]


def start_game(spawn, n, *, secret=None, host_args=(), bot_args=(), names=None, pace=0.0,
               bot_extra=None, bot_level="random", misbehave=None):
    """Host + n-1 bot processes joined one after the other (so seats are reproducible).
    The bots play at ``bot_level`` (None: the `bot` command's default level, whose search
    costs seconds of CPU per game; the random bot makes the same protocol traffic).
    ``misbehave``: {seat: KIND[:VERSION]}, that seat's peer run by tests/session/misbehave.py."""
    d = spawn.dir
    extra = ["--test-secret", secret] if secret else []
    level = ["--level", bot_level] if bot_level else []
    wrap = {s: {"prefix": misbehaving(how)} for s, how in (misbehave or {}).items()}
    host = spawn("host", "--name", "Ana", "--players", n, "--bind", "127.0.0.1", "--port", 0,
                 "--level", "random", "--data-dir", d / "host", "--timeout", 90,
                 "--pace", pace, *extra, *host_args, label="host", **wrap.get(0, {}))
    addr = host.wait_event("lobby", 20)["address"]
    bots = []
    for i in range(1, n):
        more = list(bot_extra.get(i, ())) if bot_extra else []
        b = spawn("bot", "--join", addr, "--name", (names or {}).get(i, f"Bot{i}"),
                  "--bind", "127.0.0.1", "--data-dir", d / f"bot{i}", "--timeout", 90,
                  "--pace", pace, *level, *extra, *bot_args, *more, label=f"bot{i}",
                  **wrap.get(i, {}))
        b.wait_event("welcome", 20)
        bots.append(b)
    return host, bots


def check_agree(results):
    for r in results:
        assert r["status"] == "over", r
        assert r["audit"] and r["audit"][0], r
        assert r["rc"] == 0, r
        assert not [a for a in r["alerts"] if a["kind"] in ("cheat", "desync", "error")], r
        # nobody left early: a peer that finished says so (else the last one reads as gone)
        assert not [a for a in r["alerts"] if a["kind"] == "disconnect"], r
    assert len({r["hash"] for r in results}) == 1
    assert len({r["version"] for r in results}) == 1


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_complete_games(spawn, n):
    # once with the bot command's default level, as a person starting `belfort bot` gets
    host, bots = start_game(spawn, n, bot_level=None if n == 2 else "random")
    results = [p.result(90) for p in [host] + bots]
    check_agree(results)
    assert results[0]["result"]["winners"]


def test_host_starts_bots_as_peers(spawn):
    host = spawn("host", "--name", "Ana", "--players", 3, "--bots", 2, "--bot-level", "random",
                 "--bind", "127.0.0.1",
                 "--port", 0, "--level", "random", "--data-dir", spawn.dir / "h", "--timeout", 90)
    started = host.wait_event("started", 30)
    assert len(started["roster"]) == 3
    # real names, short enough for every column (not "bot-eb43", cut to "bot-eb")
    assert all(not n.startswith("bot") and len(n) <= 4 for n in started["roster"][1:]), started
    assert len(set(started["roster"])) == 3
    r = host.result(90)
    assert r["status"] == "over" and r["audit"][0] and r["rc"] == 0, r


def test_sigkill_and_rejoin_same_result(spawn):
    # the uninterrupted game from the same secrets (so the same seed, deck and bot choices)
    ref = uninterrupted(3, "kill-1")
    # the same game, with seat 1 killed mid-game and restarted with `rejoin`
    host, bots = start_game(spawn, 3, secret="kill-1", pace=0.01)
    victim = bots[0]
    data = victim.wait_event("started", 20)["data"]
    victim.wait_round(2)
    assert victim.p.poll() is None, "the game ended before the kill"
    victim.kill()
    host.wait_for(lambda ev: ev.get("kind") == "disconnect" and ev.get("seat") == 1)
    back = spawn("rejoin", "--dir", data, "--timeout", 90, "--pace", 0.01, label="rejoined")
    ev = back.wait_event("rejoined", 30)
    assert ev["records"] > 0
    results = [host.result(90), back.result(90), bots[1].result(90)]
    for r in results:
        assert r["status"] == "over" and r["audit"][0], r
    assert {r["hash"] for r in results} == {ref["hash"]}
    assert [r["scores"] for r in results] == [ref["scores"]] * 3
    # the others saw the victim leave and come back
    kinds = {a["kind"] for a in results[0]["alerts"] if a["seat"] == 1}
    assert "disconnect" in kinds and "reconnect" in kinds


def test_host_leaves_after_lobby(spawn):
    host, bots = start_game(spawn, 3, misbehave={0: "leave-after-lobby"})
    data = host.wait_event("started", 20)["data"]
    host.p.wait(timeout=20)
    assert all(b.p.poll() is None for b in bots)
    bots[0].wait_for(lambda ev: ev.get("kind") == "disconnect" and ev.get("seat") == 0)
    # the bots are meshed with each other; the host's seat comes back like any peer
    back = spawn("rejoin", "--dir", data, "--timeout", 90, label="host-again")
    results = [back.result(90)] + [b.result(90) for b in bots]
    check_agree_loose(results)
    assert any(a["kind"] == "disconnect" and a["seat"] == 0 for a in results[1]["alerts"])


def check_agree_loose(results):
    for r in results:
        assert r["status"] == "over" and r["audit"][0] and r["rc"] == 0, r
    assert len({r["hash"] for r in results}) == 1


def test_desync_detected_at_next_boundary(spawn):
    host, bots = start_game(spawn, 3, misbehave={2: "desync:40"})
    results = [p.result(60) for p in [host] + bots]
    honest = results[:2]
    for r in honest:
        assert r["status"] == "stopped", r
        assert r["desync"] and r["desync"]["odd"] == [2], r
        texts = [a["text"] for a in r["alerts"] if a["kind"] == "desync"]
        assert any("Bot2 (seat 2) disagrees" in t for t in texts), texts
        # after exchanging public views: which fields differ
        assert any("players[0].score" in t for t in texts), texts
        assert r["rc"] == 1


@pytest.mark.parametrize("kind", ["illegal", "garbage", "replay", "forge"])
def test_misbehaving_peer_refused_and_named(spawn, kind):
    host, bots = start_game(spawn, 3, misbehave={1: f"{kind}:30"})
    results = [p.result(90) for p in [host] + bots]
    honest = [results[0], results[2]]
    for r in honest:
        assert r["status"] == "over" and r["audit"][0], r
        named = [a for a in r["alerts"] if a["kind"] == "cheat" and a["seat"] == 1]
        if kind == "replay":    # byte-identical copies change nothing: no alarm
            assert not named, r["alerts"]
        else:
            assert named, r["alerts"]
    assert len({r["hash"] for r in results}) == 1
    if kind == "illegal":
        assert any("illegal command 'crest 9'" in a["text"] for a in honest[0]["alerts"])


def test_same_join_command_rejoins(spawn):
    d = spawn.dir
    host = spawn("host", "--name", "Ana", "--players", 2, "--bind", "127.0.0.1", "--port", 0,
                 "--level", "random", "--data-dir", d / "host", "--timeout", 90, "--pace", 0.01,
                 label="host")
    addr = host.wait_event("lobby", 20)["address"]
    args = ("join", addr, "--name", "Bo", "--bind", "127.0.0.1", "--level", "random",
            "--data-dir", d / "bo", "--timeout", 90, "--pace", 0.01)
    bo = spawn(*args, label="bo")
    bo.wait_event("started", 20)
    bo.wait_round(1)
    bo.kill()
    again = spawn(*args, label="bo-again")
    assert again.wait_event("rejoined", 30)["seat"] == 1
    results = [host.result(90), again.result(90)]
    check_agree_loose(results)
