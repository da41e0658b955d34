"""NetDriver: the client's GameDriver interface over a real networked game."""

import asyncio

import belfort
import pytest
import zmq

from net.node import node as nodemod
from client.netdriver import NetDriver
from net.node.transport import end_context


def bot_host_and_our_driver(spawn, *host_args):
    """A 2-player game: a bot host process (Ana) and our seat (Bo) behind a NetDriver."""
    host = spawn("host", "--name", "Ana", "--players", 2, "--bind", "127.0.0.1", "--port", 0,
                 "--level", "random", "--data-dir", spawn.dir / "host", "--timeout", 60,
                 *host_args, label="host")
    addr = host.wait_event("lobby", 20)["address"]
    ctx = zmq.Context()
    node = nodemod.join(addr, "Bo", data_dir=spawn.dir / "me", bind="127.0.0.1",
                        on_event=lambda ev: None, ctx=ctx)
    driver = NetDriver(node)
    assert driver.start(20)
    return host, ctx, driver


@pytest.mark.e2e
def test_net_driver_plays_a_game(spawn):
    host, ctx, driver = bot_host_and_our_driver(spawn)
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
    end_context(ctx, 0)


def test_the_window_follows_a_seat_that_came_back_on_a_new_address():
    """A peer back on a new IP announces it (signed); the node's loop reconnects
    to it, and the window's loop (NetDriver) must too, or a window player never hears a
    moved peer again."""
    from types import SimpleNamespace

    reconnected, watched = [], []

    class Peer:
        seat, names, ruleset, alerts, transmit = 0, ["Ana", "Bo"], None, [], None
        moved = [(1, "tcp://198.18.0.7:5555")]

        def receive(self, data, now, src):
            pass

        def transmit_with(self, send):
            self.transmit = send

        @property
        def resync(self):        # (the part that keeps the moves: resync.py)
            return SimpleNamespace(take_moved=self.take_moved)

        def take_moved(self):
            out, self.moved = self.moved, []
            return out

        def tick(self, now):
            pass

        def confirm(self, now):
            pass

        def take_events(self):
            return []

    node = SimpleNamespace(peer=Peer(), tend_lobby=lambda: None, flush=lambda: None,
                           note_finished=lambda now: None, watch_address=watched.append,
                           mesh=SimpleNamespace(poll=lambda ms: [(1, b"hb")],
                                                reconnect=lambda s, e: reconnected.append((s, e))))
    node.follow_moves = lambda: nodemod.Node.follow_moves(node)
    node.deliver = lambda src, data, now: node.peer.receive(data, now, src)
    node.evening_step = lambda now: None
    NetDriver(node)._step(0)
    assert reconnected == [(1, "tcp://198.18.0.7:5555")]
    assert len(watched) == 1       # and it watches this machine's own address (a new lease)


def test_the_window_is_handed_a_move_before_its_signature_is_checked():
    """A frame's events go to the window's loop as soon as the frame is delivered; the
    signature check of the command it held (SessionPeer.confirm) comes after, on the
    network thread, so it does not delay the move on screen."""
    from types import SimpleNamespace

    order: list = []

    class Peer:
        seat, names, ruleset, alerts, transmit = 0, ["Ana", "Bo"], None, [], None
        events: list = []
        status = "playing"
        resync = SimpleNamespace(take_moved=lambda: [])

        def receive(self, data, now, src):
            self.events = self.events + [("command", 1, ("pass",))]

        def transmit_with(self, send):
            self.transmit = send

        def confirm(self, now):
            order.append("confirm")

        def tick(self, now):
            pass

        def take_events(self):
            out, self.events = self.events, []
            return out

    class Loop:
        def call_soon_threadsafe(self, fn, events):
            order.append(("shown", list(events)))

    node = SimpleNamespace(peer=Peer(), tend_lobby=lambda: None, flush=lambda: None,
                           note_finished=lambda now: None, watch_address=lambda now: None,
                           follow_moves=lambda: None, evening_step=lambda now: None,
                           mesh=SimpleNamespace(poll=lambda ms: [(1, b"cmd")]))
    node.deliver = lambda src, data, now: node.peer.receive(data, now, src)
    driver = NetDriver(node)
    driver._loop = Loop()
    assert driver._step(0) == []
    assert order == [("shown", [("command", 1, ("pass",))]), "confirm"]
    # once the game is over, the step stays whole (the window must not see the audit's
    # result before the game's log is written): its events come at its end
    order.clear()
    node.peer.status = "over"
    assert driver._step(0) == [("command", 1, ("pass",))]
    assert order == ["confirm"]


@pytest.mark.e2e
def test_closing_the_window_mid_game_tells_the_others_we_left_for_now(spawn):
    """The window (or --plain) closes on a game that goes on: the others must read "Bo
    left the game for now" and pause at once (2 players), not wait out a disconnection
    (the driver's loop closed the node before leave() could say it)."""
    host, ctx, driver = bot_host_and_our_driver(spawn, "--stall-timeout", 120)

    async def window_open_then_closed():
        task = asyncio.create_task(driver.run())
        for _ in range(500):                 # until the game is dealt and waits for us
            if driver.legal():
                break
            await asyncio.sleep(0.02)
        assert driver.legal(), "our keep was never asked for"
        driver.close()                       # what the window does as it goes away
        await asyncio.wait_for(task, 10)

    asyncio.run(window_open_then_closed())
    driver.leave()
    assert driver.left_for_now
    r = host.result(30)
    assert r["status"] == "paused" and "Bo left for now" in r["stop_reason"], r
    assert any("Bo left the game for now" in a["text"] for a in r["alerts"]), r["alerts"]
    assert not [a for a in r["alerts"] if a["kind"] == "disconnect"], r["alerts"]
    end_context(ctx, 0)


def test_the_net_driver_has_every_member_of_the_game_driver_protocol():
    """The window calls every GameDriver member plainly: a NetDriver over a real session
    peer (the in-memory network's) has them all, with a LAN game's answers."""
    import inspect
    from types import SimpleNamespace

    from client.driver import GameDriver
    from net.session.memnet import MemoryNetwork

    net = MemoryNetwork.create(3, seed="proto", level="random")
    net.start()
    net.pump()
    node = SimpleNamespace(peer=net.peers[0], wake=lambda: None, game_log=None,
                           left_for_good=False, table_open=lambda now: False)
    driver = NetDriver(node)
    assert isinstance(driver, GameDriver)
    members = set(GameDriver.__annotations__) | {
        n for n, v in vars(GameDriver).items() if not n.startswith("_") and callable(v)}
    for name in members:
        assert hasattr(driver, name), name
    assert driver.networked is True and driver.can_keep is False and driver.seed is None
    assert "keep" in inspect.signature(driver.leave).parameters
    assert driver.score_series() is None and driver.game_log is None
    assert isinstance(driver.view(), dict) and isinstance(driver.legal(), list)
    assert isinstance(driver.waiting(), str) and isinstance(driver.stall(), dict)
    assert driver.handoff_candidates() == [] and driver.chat_since(0) == (0, [])
    assert driver.text_command("hello") is None and driver.past_events() == []


def test_a_decision_leaves_from_the_submitting_thread_before_submit_returns():
    """The window's thread sends our decision itself, under the driver's lock: waking the
    network thread to send it would make it wait for the interpreter lock the window holds
    while it redraws."""
    import threading
    from types import SimpleNamespace
    from net.session.intake import peek
    from net.session.memnet import MemoryNetwork

    net = MemoryNetwork.create(3, seed="send-now", level="random")
    net.start()
    net.pump()
    peer = next(p for p in net.peers if p.decision_needed())
    sent, woken = [], []
    node = SimpleNamespace(peer=peer, store=None, game_log=None, wake=lambda: woken.append(1),
                           mesh=SimpleNamespace(send=lambda dest, data: sent.append(
                               (threading.get_ident(), dest, peek(data)["type"]))))
    node.flush = lambda: nodemod.Node.flush(node)
    driver = NetDriver(node)
    driver.submit(driver.legal()[0])
    assert (threading.get_ident(), None, "sess/cmd") in sent or \
        (threading.get_ident(), None, "commit/commit") in sent      # (a simultaneous choice)
    assert {t for t, _d, _k in sent} == {threading.get_ident()}
    assert woken == [] and peer.take_outgoing() == []
