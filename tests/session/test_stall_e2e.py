"""Stalls with real peer processes on loopback: a stopped (suspended) peer, everyone
stopped at once and resuming, a 2-player game paused and resumed, host-started bots that
outlive the host's terminal.  Each waits for the events the peers print; the only fixed
durations are the scenario's own (how long a process stays stopped)."""

import os
import signal
import time
from pathlib import Path

import pytest

from net.node.running import holder
from net.node.storage import GameStore
from tests.session.test_e2e import start_game
from tests.session.uninterrupted import uninterrupted

pytestmark = pytest.mark.e2e

NO_FALSE_ALARM = ("cheat", "desync", "error")


def reference(n, secret):
    """The uninterrupted game from the same secrets: its final hash."""
    return uninterrupted(n, secret)["hash"]


def assert_finished(results, ref_hash, false=NO_FALSE_ALARM):
    for r in results:
        assert r["status"] == "over" and r["audit"] and r["audit"][0], r
        assert r["rc"] == 0, r
        assert not [a for a in r["alerts"] if a["kind"] in false], r["alerts"]
    assert {r["hash"] for r in results} == {ref_hash}


def stopped_for(proc, seconds, watcher, seat):
    """SIGSTOP ``proc`` for ``seconds`` (the scenario's length), once a peer has seen it gone."""
    proc.p.send_signal(signal.SIGSTOP)
    t0 = time.monotonic()
    try:
        watcher.wait_for(lambda ev: ev.get("kind") == "disconnect" and ev.get("seat") == seat,
                         seconds + 20, "disconnect")
        time.sleep(max(0.0, seconds - (time.monotonic() - t0)))
    finally:
        proc.p.send_signal(signal.SIGCONT)


def test_stopped_past_the_stall_time_wakes_and_goes_on(spawn):
    """A laptop suspended longer than the stall time (here 12 s): on waking it reads what is
    queued, resyncs and plays on; it reports nobody gone, and the game ends as uninterrupted."""
    ref = reference(3, "stop-1")
    args = ("--stall-timeout", 12)
    host, bots = start_game(spawn, 3, secret="stop-1", pace=0.01, host_args=args, bot_args=args)
    sleeper = bots[0]
    sleeper.wait_round(2)
    assert sleeper.p.poll() is None, "the game ended before the stop"
    stopped_for(sleeper, 16, host, 1)
    results = [host.result(90), sleeper.result(90), bots[1].result(90)]
    tails = {p.label: [e for e in p.events if e.get("event") != "phase"][-8:] +
             [e for e in p.events if e.get("event") == "phase"][-1:] for p in [host] + bots}
    for r in results:
        assert r["status"] == "over", (r, tails)
    assert_finished(results, ref)
    assert not [a for a in results[1]["alerts"] if a["kind"] == "disconnect"], results[1]["alerts"]


def test_everyone_killed_at_once_all_rejoin(spawn):
    """Resume another evening: every peer stops at the same moment, then each one runs
    `rejoin`; the game goes on where it stopped, to the same end."""
    ref = reference(3, "all-1")
    host, bots = start_game(spawn, 3, secret="all-1", pace=0.03)   # (as below: the stop's margin)
    peers = [host] + bots
    data = [p.wait_event("started", 20)["data"] for p in peers]
    host.wait_round(2)
    assert all(p.p.poll() is None for p in peers), "the game ended before the stop"
    for p in peers:
        p.p.send_signal(signal.SIGKILL)
    for p in peers:
        p.kill()
    back = [spawn("rejoin", "--dir", d, "--timeout", 90, "--pace", 0.01, label=f"back{i}")
            for i, d in enumerate(data)]
    for b in back:
        assert b.wait_event("rejoined", 30)["records"] > 0
    assert_finished([b.result(90) for b in back], ref)


@pytest.mark.parametrize("how", ["leave", "silent"])
def test_two_players_paused_then_resumed(spawn, how):
    """2 players: one leaves for now (SIGTERM: the window's quit) or goes silent past the
    stall time (SIGKILL): the other pauses with a clear message (exit 4), nothing is
    lost, and both rejoining finish the game."""
    ref = reference(2, f"pause-{how}")
    args = ("--stall-timeout", 4)
    # paced so that the rest of the game after round 2 takes seconds: under a heavy load
    # the events reach this test late, and at 0.01 s the game once ended before the stop
    # (a bot peer now stays at the final table a moment for another game, so its process
    # being alive does not prove the game had not ended: its events say it)
    host, bots = start_game(spawn, 2, secret=f"pause-{how}", pace=0.05, host_args=args,
                            bot_args=args)
    bo = bots[0]
    data = [p.wait_event("started", 20)["data"] for p in (host, bo)]
    bo.wait_round(2)
    assert bo.p.poll() is None, "the game ended before the stop"
    bo.kill(signal.SIGTERM if how == "leave" else signal.SIGKILL)
    bo.reader.join(timeout=10)          # every line it printed has been read
    assert not [e for e in bo.events if e.get("event") == "game-over"], \
        "the game ended before the stop"
    r = host.result(60)
    assert r["status"] == "paused" and r["rc"] == 4, (r, host.events[-4:])
    assert "paused" in r["stop_reason"] and "belfort rejoin" in r["stop_reason"], r
    assert ("Bot1 left for now" if how == "leave" else "Bot1 has been away") in r["stop_reason"]
    if how == "leave":
        assert any("Bot1 left the game for now" in a["text"] for a in r["alerts"]), r["alerts"]
        assert not [a for a in r["alerts"] if a["kind"] == "disconnect"], r["alerts"]
    back = [spawn("rejoin", "--dir", d, "--timeout", 90, "--pace", 0.01, label=f"back{i}")
            for i, d in enumerate(data)]
    assert_finished([b.result(90) for b in back], ref)


def _bot_stores(host_data: str) -> dict:
    """seat -> GameStore of the bots the host started (``<host data>/bots``)."""
    game = Path(host_data)
    root = game.parent.parent / "bots" / "games"
    return {int(d.name.rsplit("-", 1)[1]): GameStore(d) for d in root.iterdir()
            if d.name.startswith(game.name.rsplit("-", 1)[0] + "-")}


def _wait(cond, timeout, what):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if cond():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def _finished_hash(store: GameStore, timeout=90):
    _wait(lambda: store.is_finished, timeout, f"{store.dir.name} to finish")
    import msgpack
    return msgpack.unpackb((store.dir / "finished").read_bytes(), raw=False)["hash"]


@pytest.mark.parametrize("bots_die", [(), (1,), (1, 2)])
def test_host_terminal_closed_bots_survive_or_are_restarted(spawn, bots_die):
    """The host's terminal closes (its whole process group killed): the bots it started
    live in sessions of their own and keep their seats.  `rejoin --data-dir …/bots`
    restarts a dead bot by its seat (never a live seat's directory), and the host's own
    `rejoin` re-attaches to its bots, restarting any that died."""
    host = spawn("host", "--name", "Ana", "--players", 3, "--bots", 2, "--bot-level", "random",
                 "--bind", "127.0.0.1", "--port", 0, "--level", "random", "--pace", 0.02,
                 "--data-dir", spawn.dir / "h", "--timeout", 120, "--test-secret", "term-1",
                 label="host", session=True)
    data = host.wait_event("started", 30)["data"]
    host.wait_round(2)
    stores = _bot_stores(data)
    assert sorted(stores) == [1, 2]
    pids = {s: holder(st.dir) for s, st in stores.items()}
    assert all(pid and pid > 0 for pid in pids.values()), pids
    os.killpg(host.p.pid, signal.SIGKILL)          # the terminal closes
    host.p.wait(timeout=10)
    for s in bots_die:
        os.kill(pids[s], signal.SIGKILL)
    _wait(lambda: all(holder(stores[s].dir) is None for s in bots_die), 10, "the bots to die")
    assert all(holder(stores[s].dir) == pids[s] for s in stores if s not in bots_die), \
        "the host's bots outlive its terminal"
    if bots_die == (1,):
        # a bot restarted by hand: the dead seat is picked, not the live one
        again = spawn("rejoin", "--data-dir", spawn.dir / "h" / "bots", "--timeout", 120,
                      label="bot-again")
        assert again.wait_event("rejoined", 30)["seat"] == 1
    back = spawn("rejoin", "--dir", data, "--timeout", 120, label="host-again")
    ev = back.wait_event("rejoined", 30)
    assert ev["seat"] == 0
    bots_ev = back.wait_event("bots", 5)
    assert bots_ev["restarted"] == (2 if bots_die == (1, 2) else 0), bots_ev
    r = back.result(120)
    assert r["status"] == "over" and r["audit"][0] and r["rc"] == 0, r
    assert not [a for a in r["alerts"] if a["kind"] in NO_FALSE_ALARM], r["alerts"]
    assert {_finished_hash(st) for st in stores.values()} == {r["hash"]}
