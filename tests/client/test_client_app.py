"""The full-screen window driven through prompt_toolkit's pipe input and DummyOutput."""

import asyncio

import belfort
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from client import render
from client.app import BelfortApp
from client.driver import Alert, LocalDriver


async def until(cond, timeout=10.0):
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not cond():
        if loop.time() > end:
            raise AssertionError("timed out")
        await asyncio.sleep(0.01)


def screen_text(ui, width=80, height=22):
    return render.as_text(ui.main_lines(width, height))


async def session(script, names=("You", "Bo", "Cy", "Di"), seed="1", prepare=None, **kw):
    """Run the window with a local driver; `script(ui, send)` drives it. `prepare(driver)`
    runs before the window (and the bots) start."""
    driver = LocalDriver(list(names), seed=seed, pace=0, think=0.01, bot_level="random")
    if prepare is not None:
        prepare(driver)
    with create_pipe_input() as inp:
        ui = BelfortApp(driver, colour=False, input=inp, output=kw.get("output") or DummyOutput(),
                        **{k: v for k, v in kw.items() if k != "output"})
        task = asyncio.ensure_future(ui.run_async())
        await until(lambda: ui.app.is_running)

        def send(text):
            inp.send_text(text)

        try:
            await script(ui, driver, send)
        finally:
            if ui.app.is_running:
                ui.app.exit()
            await asyncio.wait_for(task, 10)
    return driver


def test_typing_a_command_plays_it_and_logs_it():
    async def script(ui, driver, send):
        send("keep #4 #0 #2\r")
        await until(lambda: driver.game.phase != "keep")
        await until(lambda: 0 in driver.game.waiting_for())
        assert set(driver.game.players[0].hand) == {0, 2, 4}
        assert any("You kept 3 cards" in t for _, t in ui.log)
        assert "✓ keep" in ui.message[1]
        assert "Your placement" in ui.prompt()
        legal = driver.legal()
        place = next(c for c in legal if c[0] == "place")
        send(belfort.command_text(place) + "\r")
        await until(lambda: any(t.startswith("You placed") for _, t in ui.log))

    asyncio.run(session(script))


def test_a_refused_command_shows_its_reason():
    async def script(ui, driver, send):
        send("keep #0 #1 #2\r")
        await until(lambda: 0 in driver.game.waiting_for() and driver.game.phase == "placement")
        send("build #0 tower@3\r")
        await until(lambda: ui.message[1] != "" and "Refused" in ui.message[1])
        assert "§" in ui.message[1]
        send("plaice elf desk\r")
        await until(lambda: "Cannot read" in ui.message[1])
        assert "unknown command" in ui.message[1]

    asyncio.run(session(script))


def test_help_opens_a_panel_and_escape_closes_it():
    async def script(ui, driver, send):
        send("help tower\r")
        await until(lambda: ui.panel is not None)
        text = screen_text(ui)
        assert "Tower (card, §13)" in text and "Cost: 1 wood, 3 stone, 1 metal" in text
        send("\x1b")
        await until(lambda: ui.panel is None, timeout=5)
        send("?\r")
        await until(lambda: ui.panel is not None)
        assert "keep #0 #1 #2" in screen_text(ui)

    asyncio.run(session(script))


def test_ctrl_c_asks_before_leaving():
    async def script(ui, driver, send):
        send("\x03")
        await until(lambda: ui.confirm)
        assert "Leave" in ui.prompt()
        send("n")
        await until(lambda: not ui.confirm)
        assert ui.app.is_running
        send("\x03")
        await until(lambda: ui.confirm)
        send("y")
        await until(lambda: not ui.app.is_running)

    asyncio.run(session(script))


def test_alerts_are_shown_until_dismissed():
    async def script(ui, driver, send):
        driver.alerts.append(Alert("desync", "peer Bo disagrees about the state", 1))
        ui._on_events([])
        assert "DESYNC: peer Bo disagrees" in screen_text(ui)
        send("\x1b")
        await until(lambda: "DESYNC" not in screen_text(ui), timeout=5)

    asyncio.run(session(script))


def test_a_whole_game_ends_on_the_final_scoreboard():
    async def script(ui, driver, send):
        while not driver.game.is_over():
            await until(lambda: driver.game.is_over() or driver.legal())
            if driver.game.is_over():
                break
            legal = driver.legal()
            before = driver.game.version
            send(belfort.command_text(legal[-1]) + "\r")
            await until(lambda: driver.game.version != before)
        await until(lambda: ui.finished)
        text = screen_text(ui, 100, 60)
        assert "Final scores" in text and "   7   You" in text
        assert "Audit: PASSED" in text

    asyncio.run(session(script, names=("You", "Bo"), seed="7"))


def test_the_window_answers_while_a_bot_thinks():
    import threading

    release = threading.Event()

    class SlowBot:
        def choose(self, state, seat):
            release.wait(10)
            return belfort.legal_commands(state, seat)[0]

    def prepare(driver):
        for s in list(driver.bots):
            driver.bots[s] = SlowBot()

    async def script(ui, driver, send):
        send("keep #0 #1 #2\r")
        await until(lambda: driver._thinking)
        send("help spies\r")
        await until(lambda: ui.panel is not None, timeout=5)
        assert driver.game.phase == "keep", (driver.history, ui.log[-5:])
        send("\x1b")
        await until(lambda: ui.panel is None, timeout=5)
        assert "[thinking]" in screen_text(ui)
        release.set()
        await until(lambda: driver.game.phase != "keep")

    asyncio.run(session(script, prepare=prepare))


class DelayedDriver(LocalDriver):
    """A driver shaped like a networked one: submit only checks and queues; the command is
    applied later by run(), like a command that went round the peers first."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.queue = []
        self.state = {}

    def submit(self, command):
        cmd, seat = belfort.check_legal(self.game, command, self.seat)
        self.queue.append(cmd)

    def peers(self):
        out = super().peers()
        for p in out:
            p["kind"] = "you" if p["seat"] == self.seat else "human"
            p["state"] = self.state.get(p["seat"], p["state"])
        return out

    async def run(self):
        bots = asyncio.ensure_future(super().run())
        try:
            while not self._closed:
                await asyncio.sleep(0.05)
                while self.queue:
                    self._apply(self.queue.pop(0), self.seat)
        finally:
            bots.cancel()


def test_a_driver_that_applies_later_and_reports_peers():
    async def script(ui, driver, send):
        send("keep #0 #1 #2\r")
        await until(lambda: driver.game.phase != "keep")
        assert any("You kept 3 cards" in t for _, t in ui.log)
        driver.state[2] = "disconnected"
        driver.alerts.append(Alert("disconnect", "Cy lost the connection", 2))
        ui._on_events([])
        text = screen_text(ui)
        assert "[disconnected]" in text and "DISCONNECTED: Cy lost the connection" in text
        send("build #0 tower@1\r")
        await until(lambda: "Refused" in ui.message[1] or "Not your decision" in ui.message[1])

    async def run():
        d = DelayedDriver(["You", "Bo", "Cy"], seed="2", pace=0, think=0.01, bot_level="random")
        with create_pipe_input() as inp:
            ui = BelfortApp(d, colour=False, input=inp, output=DummyOutput())
            task = asyncio.ensure_future(ui.run_async())
            await until(lambda: ui.app.is_running)
            try:
                await script(ui, d, inp.send_text)
            finally:
                ui.app.exit()
                await asyncio.wait_for(task, 10)

    asyncio.run(run())
