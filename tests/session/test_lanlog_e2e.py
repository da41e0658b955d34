"""Take-backs and the complete log with real peer processes over loopback ZeroMQ:
take-backs through NetDriver (the window's `undo` / Ctrl-Z), and the complete log every
peer writes after the audit."""

import asyncio
import pathlib

import belfort
import pytest
import zmq
from belfort.state import ACTIONS, STEP_NONE
from belfort.undo import UndoRefused, learned
from takeback_helpers import undoable
from test_e2e import check_agree, start_game

from client import gamelog
from net.node import node as nodemod
from client.netdriver import NetDriver
from net.node.transport import end_context

pytestmark = pytest.mark.e2e


def test_three_processes_write_byte_identical_complete_logs(spawn):
    host, bots = start_game(spawn, 3)
    results = [p.result(90) for p in [host] + bots]
    check_agree(results)
    paths = [pathlib.Path(r["log"]) for r in results]
    assert len(set(paths)) == 3                         # each peer its own file
    assert len({p.read_bytes() for p in paths}) == 1    # the same bytes
    log = gamelog.load(paths[0])
    assert log.problem is None and len(log.cards) > 0
    replayed = gamelog.replay(log)
    assert replayed.problem is None
    assert belfort.state_hash(replayed.game) == results[0]["hash"] == log.end["hash"]


DRAWS = ("undo/drawn", "undo/turned-up")


def _learns(game, cmd, seat):
    """The refusal code a take-back of `cmd` would meet at once (None: none)."""
    after = game.copy()
    belfort.apply(after, cmd, seat)
    why = learned(game, after, seat)
    return why.code if why is not None else None


def test_take_backs_over_the_network_agree_on_every_peer(spawn):
    """Our seat (a NetDriver in this process, as the window uses it) takes actions back in
    its Actions-phase turns; the two peer processes apply each take-back, nobody is named a
    cheat, every peer ends on the same state hash and writes the same log, take-backs
    included. A take-back after a draw is refused with the reason."""
    host = spawn("host", "--name", "Ana", "--players", 3, "--bind", "127.0.0.1", "--port", 0,
                 "--level", "random", "--data-dir", spawn.dir / "host", "--timeout", 90,
                 label="host")
    addr = host.wait_event("lobby", 20)["address"]
    bot = spawn("bot", "--join", addr, "--name", "Cy", "--bind", "127.0.0.1", "--level", "random",
                "--data-dir", spawn.dir / "bot", "--timeout", 90, label="bot")
    ctx = zmq.Context()
    node = nodemod.join(addr, "Bo", data_dir=spawn.dir / "me", bind="127.0.0.1",
                        on_event=lambda ev: None, ctx=ctx)
    driver = NetDriver(node)
    assert driver.start(30)
    taken, refused = [], []
    chooser = belfort.RandomBot(12)

    async def play():
        changed = asyncio.Event()
        task = asyncio.create_task(driver.run())
        task.add_done_callback(lambda _t: changed.set())
        driver.subscribe(lambda evs: changed.set())
        for _ in range(20000):
            if task.done():
                break
            changed.clear()
            if not driver.legal():
                await asyncio.wait_for(changed.wait(), 30)
                continue
            with driver._lock:
                p = driver.peer
                g = p.game
                free = undoable(p) if (g.phase, g.step) == (ACTIONS, STEP_NONE) else []
                draw = [c for c in belfort.legal_commands(g, p.seat)
                        if c[0] == "buy-card" and _learns(g, c, p.seat) in DRAWS]
                before = belfort.state_hash(g)
            if free and len(taken) < 6:
                driver.submit(free[0])
                assert driver.undo() == free[0]
                with driver._lock:
                    assert belfort.state_hash(driver.peer.game) == before
                taken.append(free[0])
            elif draw and not refused:
                driver.submit(draw[0])
                try:
                    driver.undo()
                except UndoRefused as exc:
                    refused.append(exc.refusal.code)
            else:
                with driver._lock:
                    cmd = chooser.choose(driver.peer.game, driver.seat)
                driver.submit(cmd)
        await asyncio.wait_for(task, 60)

    try:
        asyncio.run(play())
        ok, text = driver.audit()
        assert ok, text
        assert taken, "no action was taken back"
        assert refused and refused[0] in DRAWS
        mine = driver.game_log
        assert mine is not None
        results = [host.result(60), bot.result(60)]
        for r in results:
            assert r["status"] == "over" and r["audit"][0], r
            assert not [a for a in r["alerts"] if a["kind"] in ("cheat", "desync", "error")], r
            assert r["hash"] == belfort.state_hash(driver.peer.game)
        texts = {pathlib.Path(p).read_bytes() for p in [mine] + [r["log"] for r in results]}
        assert len(texts) == 1
        log = gamelog.load(mine)
        assert sum(1 for s in log.steps if s[0] == "undo") == len(taken)
        assert gamelog.replay(log).problem is None
    finally:
        driver.leave()
        end_context(ctx, 0)


def test_play_lan_plain_undo_and_the_log_it_points_to(tmp_path):
    """`belfort play --lan --plain`: `undo` typed in a LAN game takes the action back (or says
    why not), the game runs to its audit, and the end names the complete log, which
    replays with the take-backs in it."""
    import os
    import re
    import subprocess
    import sys
    root = pathlib.Path(__file__).resolve().parents[2]
    env = dict(os.environ, NO_COLOR="1")
    typed = ("?\n1\n" * 3 + "undo\n") * 500
    p = subprocess.run([sys.executable, "-m", "client.main", "play", "--lan", "--players", "2",
                        "--seed", "8", "--plain", "--bot", "random", "--data-dir", str(tmp_path)],
                       input=typed, capture_output=True, text=True, timeout=300, cwd=root,
                       env=env)
    assert p.returncode == 0, p.stderr[-2000:]
    out = p.stdout
    assert "Taken back: " in out
    assert "Audit: PASSED" in out
    found = re.search(r"Game log: (\S+)\s+\(belfort replay \1\)", out)
    assert found, out[-1500:]
    log = gamelog.load(found.group(1))
    assert log.head["hidden"] and log.cards and any(s[0] == "undo" for s in log.steps)
    assert gamelog.replay(log).problem is None
