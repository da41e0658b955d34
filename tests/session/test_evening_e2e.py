"""Three games in a row at one table, without a new lobby (net/session/evening.py): the
same peer processes play again, each game with its own jointly drawn seed and its own
audit; each peer keeps the evening's results."""

import json
import subprocess
import time
import sys

import pytest

from tests.session.test_e2e import start_game

BAD = ("cheat", "desync", "error")


@pytest.mark.e2e
def test_three_games_in_one_evening(spawn):
    again = ("--again", 3)
    host, bots = start_game(spawn, 3, host_args=again, bot_args=again)
    peers = [host, *bots]
    results = [p.result(150) for p in peers]
    for p, r in zip(peers, results):
        assert r["rc"] == 0, r
        ends = [ev for ev in p.events if ev.get("event") == "game-over"]
        assert len(ends) == 3, [e.get("game") for e in ends]
        for ev in ends:
            assert ev["status"] == "over" and ev["audit"] and ev["audit"][0], ev
            assert not [a for a in ev["alerts"] if a["kind"] in BAD], ev
        starts = [ev for ev in p.events if ev.get("event") == "next-game"]
        assert [ev["number"] for ev in starts] == [2, 3]
        # the evening's table: three games for everyone, one winner (or a tie) a game
        rows = r["evening"]
        assert sorted(row["name"] for row in rows) == ["Ana", "Bot1", "Bot2"]
        assert all(row["games"] == 3 for row in rows)
        assert sum(row["wins"] for row in rows) >= 3
    # every peer saw the same three games end the same way
    for i in range(3):
        games = {[ev for ev in p.events if ev.get("event") == "game-over"][i]["game"]
                 for p in peers}
        hashes = {[ev for ev in p.events if ev.get("event") == "game-over"][i]["hash"]
                  for p in peers}
        assert len(games) == 1 and len(hashes) == 1
    ids = [ev["game"] for ev in host.events if ev.get("event") == "game-over"]
    assert len(set(ids)) == 3
    # each game's complete log replays to its final hash (the audit's record of it)
    logs = [ev["log"] for ev in host.events if ev.get("event") == "game-over"]
    for log in logs:
        assert log, "the complete log of every game is written"
    # the starting order rotates: each game after the first starts with the player after
    # the one who started the game before (the crests of its start, in its log's header)
    orders = []
    for log in logs[1:]:
        with open(log) as f:
            crests = json.loads(f.readline())["options"]["crests"]
        orders.append(sorted(range(3), key=lambda s: crests[s]))
    assert orders[1] == orders[0][1:] + orders[0][:1], orders
    out = subprocess.run([sys.executable, "-m", "client.main", "replay", logs[2], "--plain",
                          "--month", "1"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr[-2000:]


@pytest.mark.e2e
def test_a_player_who_left_is_not_in_the_next_game(spawn):
    """Seat 1 leaves the first game for good (a bot finishes it); the second game is
    played by the two others, seat 2 now seat 1 of the new game, without a new lobby."""
    again = ("--again", 2)
    host, bots = start_game(spawn, 3, host_args=again, bot_args=again,
                            misbehave={1: "leave-for-good:60"})
    gone = bots[0].result(60)
    assert gone["status"] == "left" and gone["rc"] == 0, gone
    results = [host.result(120), bots[1].result(120)]
    for p, r in zip([host, bots[1]], results):
        assert r["rc"] == 0, r
        starts = [ev for ev in p.events if ev.get("event") == "next-game"]
        assert len(starts) == 1 and starts[0]["roster"] == ["Ana", "Bot2"], starts
        ends = [ev for ev in p.events if ev.get("event") == "game-over"]
        assert len(ends) == 2
        for ev in ends:
            assert ev["status"] == "over" and ev["audit"] and ev["audit"][0], ev
            assert not [a for a in ev["alerts"] if a["kind"] in BAD], ev
        rows = {row["name"]: row for row in r["evening"]}
        assert rows["Ana"]["games"] == rows["Bot2"]["games"] == 2
        assert rows["Bot1"]["games"] == 1 and rows["Bot1"]["wins"] == 0
    assert [ev["seat"] for ev in bots[1].events if ev.get("event") == "next-game"] == [1]
    assert len({r["hash"] for r in results}) == 1


@pytest.mark.e2e
def test_two_players_one_leaving_has_no_next_game(spawn):
    host, bots = start_game(spawn, 2, host_args=("--again", 2),
                            misbehave={1: "leave-for-good:60"})
    r = host.result(90)
    assert r["status"] == "over" and r["rc"] == 0, r
    said = [ev for ev in host.events if ev.get("event") == "evening-over"]
    assert said and "no next game" in said[0]["text"] and "Bot1" in said[0]["text"], said
    assert not [ev for ev in host.events if ev.get("event") == "next-game"]
    bots[0].result(60)


@pytest.mark.e2e
def test_the_windows_driver_plays_again(spawn):
    """The window's path: our NetDriver plays a game against a peer process; at its final
    table the driver keeps the node going, `again` is asked, and once the other peer agrees
    (--again 2) a new NetDriver on the same node plays the second game to its audit."""
    import asyncio

    import belfort
    import zmq

    from client.netdriver import NetDriver
    from net.node import node as nodemod
    from net.node.transport import end_context
    host = spawn("host", "--name", "Ana", "--players", 2, "--bind", "127.0.0.1", "--port", 0,
                 "--level", "random", "--data-dir", spawn.dir / "host", "--timeout", 120,
                 "--again", 2, label="host")
    addr = host.wait_event("lobby", 20)["address"]
    ctx = zmq.Context()
    node = nodemod.join(addr, "Bo", data_dir=spawn.dir / "me", bind="127.0.0.1",
                        on_event=lambda ev: None, ctx=ctx)
    bot = belfort.RandomBot(3)

    async def play(driver):
        task = asyncio.create_task(driver.run())
        for _ in range(40000):
            if task.done() or driver.audit() is not None:
                break
            if driver.legal():
                with driver._lock:
                    cmd = bot.choose(driver.peer.game, driver.seat)
                driver.submit(cmd)
            else:
                await asyncio.sleep(0.005)
        await asyncio.wait_for(task, 30)

    driver = NetDriver(node)
    assert driver.start(20)
    asyncio.run(play(driver))
    assert driver.audit() and driver.audit()[0]
    assert driver.at_table
    assert "another game" in str(driver.again())
    for _ in range(3000):           # (the driver's own thread keeps the table meanwhile)
        if driver.next_game:
            break
        time.sleep(0.01)
    assert driver.next_game, "the next game never began"
    driver.close()
    second = NetDriver(node)
    assert second.start(20)
    assert second.peer.cfg.game_id != driver.peer.cfg.game_id
    asyncio.run(play(second))
    ok, text = second.audit()
    assert ok, text
    assert "after 2 games:" in str(second.evening_text()) or len(node.evening.games) == 2
    second.close()
    r = host.result(60)
    assert r["rc"] == 0 and r["number"] == 2, r
    assert r["hash"] == belfort.state_hash(second.peer.game)
    end_context(ctx, 0)


@pytest.mark.e2e
def test_a_plain_joiner_at_the_table_is_told_when_the_others_left_it(spawn):
    """`belfort join --plain` at the final table, its input still open: the host's peer
    plays one game and leaves the table; the joiner says there is no next game and ends,
    rather than waiting at an empty table for an answer nobody can give."""
    import os
    import threading
    from pathlib import Path

    from tests.session.test_attacks_e2e import short_ruleset
    root = Path(__file__).resolve().parents[2]
    host = spawn("host", "--name", "Ana", "--players", 2, "--bind", "127.0.0.1", "--port", 0,
                 "--level", "random", "--data-dir", spawn.dir / "host", "--timeout", 120,
                 "--ruleset", short_ruleset(spawn.dir), label="host")
    addr = host.wait_event("lobby", 20)["address"]
    env = dict(os.environ, NO_COLOR="1", PYTHONPATH=str(root))
    for var in ("LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "BELFORT_LANG"):
        env.pop(var, None)
    err_path = spawn.dir / "me.err"
    with open(err_path, "wb") as err:
        me = subprocess.Popen([sys.executable, "-m", "client.main", "join", addr, "--name",
                               "Bo", "--bind", "127.0.0.1", "--data-dir", str(spawn.dir / "me"),
                               "--plain"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=err, text=True, cwd=root, env=env)
    got = []
    reader = threading.Thread(target=lambda: got.append(me.stdout.read()), daemon=True)
    reader.start()
    try:
        me.stdin.write("1\n" * 2000)       # our first choice at each decision; kept open
        me.stdin.flush()
        try:
            me.wait(timeout=60)
        except subprocess.TimeoutExpired:
            me.kill()
            reader.join(10)
            raise AssertionError("the joiner stayed at the empty table:\n" +
                                 "".join(got)[-1500:]) from None
    finally:
        me.stdin.close()
    reader.join(10)
    out = got[0]
    assert me.returncode == 0, err_path.read_text()[-2000:]
    assert "Audit: PASSED" in out and "This evening, after one game:" in out, out[-2000:]
    assert out.rstrip().endswith("There is no next game: nobody else at the table wants one."), \
        out[-1500:]
    assert host.result(60)["rc"] == 0
