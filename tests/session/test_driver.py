"""NetDriver: the client's GameDriver interface over a real networked game."""

import asyncio

import belfort
import pytest
import zmq

from net.session import node as nodemod
from net.session.driver import NetDriver


@pytest.mark.e2e
def test_net_driver_plays_a_game(spawn):
    host = spawn("host", "--name", "Ana", "--players", 2, "--bind", "127.0.0.1", "--port", 0,
                 "--level", "random", "--data-dir", spawn.dir / "host", "--timeout", 60,
                 label="host")
    addr = host.wait_event("lobby", 20)["address"]
    ctx = zmq.Context()
    node = nodemod.join(addr, "Bo", data_dir=spawn.dir / "me", bind="127.0.0.1",
                        on_event=lambda ev: None, ctx=ctx)
    driver = NetDriver(node)
    assert driver.start(20)
    assert driver.names == ["Ana", "Bo"] and driver.seat == 1
    seen = []
    bot = belfort.RandomBot(7)

    async def play():
        changed = asyncio.Event()
        task = asyncio.create_task(driver.run())
        task.add_done_callback(lambda _t: changed.set())

        def on_change(evs):
            seen.append(len(evs))
            changed.set()
        driver.subscribe(on_change)
        for _ in range(20000):
            if task.done():
                break
            changed.clear()
            cmds = driver.legal()
            if cmds:
                with driver._lock:
                    cmd = bot.choose(driver.peer.game, driver.seat)
                driver.submit(cmd)
            else:    # the driver tells us when a peer's message changed something
                await asyncio.wait_for(changed.wait(), 30)
        await asyncio.wait_for(task, 30)

    asyncio.run(play())
    ok, text = driver.audit()
    assert ok, text
    assert driver.view()["phase"] == "over"
    assert seen, "subscribers were never called"
    assert [p["state"] for p in driver.peers()][1] == "here"
    r = host.result(30)
    assert r["status"] == "over" and r["audit"][0]
    assert r["hash"] == belfort.state_hash(driver.peer.game)
    ctx.destroy(linger=0)
