"""With processes (found by scripts/soak.py): the peer that makes the game's last
decision dies right after it (its last messages went out), so the other finishes and
audits while the dead one never saw the other's audit.  The other stays reachable for it:
its `rejoin`, started after the other saw it disconnected, finishes with the same hash,
scores and audit, and both exit 0."""

import functools
import time

import pytest

import belfort
from net.session.memnet import MemoryNetwork

from tests.session.test_e2e import misbehaving
from tests.session.test_e2e_rejoin import no_false_alarm

pytestmark = pytest.mark.e2e

SECRET = "endgame-e2e"


@functools.cache
def _uninterrupted():
    """The same game in memory (same secrets, names and bots): its hash and last decider."""
    net = MemoryNetwork.create(2, seed=SECRET, level="random", names=["Ana", "Bot1"])
    net.start()
    net.run(max_idle=400)
    g = net.peers[0].game
    return belfort.state_hash(g), [p["score"] for p in belfort.public_view(g)["players"]], \
        net.peers[0].history[-1][0]


def _both_finished_alike(results, want_hash):
    """Each peer ended the game normally (over, audit passed, exit 0, no false alarm) with
    the uninterrupted game's hash."""
    for r in results:
        assert r["status"] == "over" and r["audit"] and r["audit"][0] and r["rc"] == 0, r
        no_false_alarm(r)
    assert {r["hash"] for r in results} == {want_hash}


def test_the_last_decider_killed_after_its_decision_rejoins_and_finishes(spawn):
    want_hash, want_scores, last = _uninterrupted()
    d = spawn.dir
    common = ("--level", "random", "--timeout", 90, "--test-secret", SECRET)
    die = {"prefix": misbehaving("die-at-end")}
    host = spawn("host", "--name", "Ana", "--players", 2, "--bind", "127.0.0.1", "--port", 0,
                 "--data-dir", d / "host", *common, **(die if last == 0 else {}), label="host")
    addr = host.wait_event("lobby", 20)["address"]
    bot = spawn("bot", "--join", addr, "--name", "Bot1", "--bind", "127.0.0.1",
                "--data-dir", d / "bot", *common, **(die if last == 1 else {}), label="bot")
    victim, other = (host, bot) if last == 0 else (bot, host)
    data = victim.wait_event("started", 20)["data"]
    victim.p.wait(60)
    assert victim.p.returncode == 9, "it died at the end (the hook)"
    # the other has finished and seen it silent: before the fix it left here
    other.wait_for(lambda ev: ev.get("kind") == "disconnect" and ev.get("seat") == last, 30)
    back = spawn("rejoin", "--dir", data, "--timeout", 60, label="back")
    results = [other.result(60), back.result(60)]
    _both_finished_alike(results, want_hash)
    assert [r["scores"] for r in results] == [want_scores] * 2


def test_gone_past_the_stall_time_the_end_is_served_by_a_restarted_peer(spawn):
    """The dead one stays away past the stall time (here 3 s): the other leaves then,
    saying how it can get the end.  Back with nobody there, it says what it lacks and how
    to get it; `belfort rejoin --game ID` on the other machine gives it the end."""
    want_hash, _scores, last = _uninterrupted()
    d = spawn.dir
    common = ("--level", "random", "--timeout", 90, "--test-secret", SECRET,
              "--stall-timeout", 3)
    die = {"prefix": misbehaving("die-at-end")}
    host = spawn("host", "--name", "Ana", "--players", 2, "--bind", "127.0.0.1", "--port", 0,
                 "--data-dir", d / "host", *common, **(die if last == 0 else {}), label="host")
    addr = host.wait_event("lobby", 20)["address"]
    bot = spawn("bot", "--join", addr, "--name", "Bot1", "--bind", "127.0.0.1",
                "--data-dir", d / "bot", *common, **(die if last == 1 else {}), label="bot")
    victim, other, odir = (host, bot, "bot") if last == 0 else (bot, host, "host")
    started = victim.wait_event("started", 20)
    data, gid = started["data"], started["game"]
    first = other.result(60)
    assert first["rc"] == 0 and first["status"] == "over", first
    told = [ev["text"] for ev in other.events if ev.get("event") == "alert"
            and ev.get("kind") == "info" and "did not finish it with us" in ev["text"]]
    assert told and "belfort rejoin --game" in told[0], other.events[-5:]
    back = spawn("rejoin", "--dir", data, "--timeout", 60, label="back")
    back.wait_for(lambda ev: ev.get("kind") == "info" and "lacks the deck audit" in ev["text"],
                  30)
    server = spawn("rejoin", "--data-dir", d / odir, "--game", gid[:12], "--timeout", 60,
                   label="server")
    _both_finished_alike([back.result(60), server.result(60)], want_hash)


def _until(cond, timeout, what):
    deadline = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def test_a_window_closed_at_the_end_stays_until_the_killed_seat_has_the_end(spawn):
    """The survivor's person closes the window as soon as the end is shown (the client's
    window path: tests/session/window_peer.py).  The window is gone, but the process stays
    in the terminal, saying why, until the seat killed at the very end has rejoined and
    finished — then it leaves by itself, exit 0, with the same hash."""
    want_hash, want_scores, last = _uninterrupted()
    d = spawn.dir
    common = ("--level", "random", "--timeout", 90, "--test-secret", SECRET)
    die = {"prefix": misbehaving("die-at-end")}
    window = {"module": "tests.session.window_peer"}
    host = spawn("host", "--name", "Ana", "--players", 2, "--bind", "127.0.0.1", "--port", 0,
                 "--data-dir", d / "host", *common, **(die if last == 0 else {}), label="host",
                 **(window if last == 1 else {}))
    addr = host.wait_event("lobby", 20)["address"]
    joining = ("bot", "--join", addr) if last == 1 else ("join", addr)
    bot = spawn(*joining, "--name", "Bot1", "--bind", "127.0.0.1", "--data-dir", d / "bot", *common,
                **(die if last == 1 else {}), label="bot", **(window if last == 0 else {}))
    victim, other = (host, bot) if last == 0 else (bot, host)
    data = victim.wait_event("started", 20)["data"]
    victim.p.wait(60)
    assert victim.p.returncode == 9, "it died at the end (the hook)"
    staying = "The game is over. Staying until {} also has the end".format(
        "Ana" if last == 0 else "Bot1")
    _until(lambda: any(ln.startswith(staying) for ln in other.lines), 30, other.lines)
    assert other.p.poll() is None, "the window closed, the process stays"
    back = spawn("rejoin", "--dir", data, "--timeout", 60, label="back")
    results = [other.result(60), back.result(60)]
    _both_finished_alike(results, want_hash)
    assert not any("did not finish it with us" in ln for ln in other.lines), other.lines
