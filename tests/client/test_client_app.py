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
        assert ui.message[1] == "Esc returns to the board."
        send("\x1b")
        await until(lambda: ui.panel is None, timeout=5)
        # the status line no longer speaks of a panel that is gone
        assert ui.message == ui.hint and "Esc returns" not in screen_text(ui)
        send("?\r")
        await until(lambda: ui.panel is not None)
        assert "keep #0 #1 #2" in screen_text(ui)
        send("\r")                                 # Enter on an empty line closes it too
        await until(lambda: ui.panel is None, timeout=5)
        assert ui.message == ui.hint
        send("help\r")
        await until(lambda: ui.panel is not None)
        send("keep #0 #1 #7\r")     # refused: the refusal stays when the panel closes
        await until(lambda: "Refused" in ui.message[1])
        send("\x1b")
        await until(lambda: ui.panel is None, timeout=5)
        assert "Refused" in ui.message[1]

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
        # Esc goes to the board and back to the end, and the status line says which
        send("\x1b")
        await until(lambda: ui.panel is None, timeout=5)
        assert "Final scores" not in screen_text(ui, 100, 60)
        send("\x1b")
        await until(lambda: ui.panel is not None, timeout=5)
        assert "Final scores" in screen_text(ui, 100, 60)
        assert "Esc shows the board" in ui.message[1]
        send("\x1b")
        await until(lambda: ui.panel is None, timeout=5)
        assert "Esc shows the final scores again" in ui.message[1]

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


# --- the inline hint and messages --------------------------------------------------------

def test_the_inline_hint_is_taken_with_right_arrow_ctrl_f_and_ctrl_e():
    """The grey inline suggestion is taken with →, Ctrl-F or Ctrl-E."""
    for key in ("\x1b[C", "\x06", "\x05"):
        async def script(ui, driver, send, key=key):
            send("keep #0 #1")
            await until(lambda: ui.buffer.suggestion is not None)
            send(key)
            await until(lambda: ui.buffer.text.startswith("keep #0 #1 #2"), timeout=5)
            assert ui.buffer.text == belfort.command_text(driver.legal()[0])
            send("\r")
            await until(lambda: driver.game.phase != "keep" or 0 in driver.game.keep_choice)

        asyncio.run(session(script))


def test_without_colour_the_hint_does_not_look_typed():
    """Without colour the suggestion still differs from typed text (an attribute)."""
    async def script(ui, driver, send):
        style = ui.app.style
        hint = style.get_attrs_for_style_str("class:auto-suggestion")
        typed = style.get_attrs_for_style_str("")
        # what a monochrome terminal still shows: an attribute, not a colour
        shown = ("bold", "underline", "italic", "reverse", "dim")
        assert any(getattr(hint, a) != getattr(typed, a) for a in shown)

    asyncio.run(session(script))


def test_tab_after_a_whole_word_moves_to_the_next_word():
    """Tab after a complete word takes the completion and moves on to the next word."""
    async def script(ui, driver, send):
        send("keep #0 #1 #2\r")
        await until(lambda: 0 in driver.game.waiting_for() and driver.game.phase == "placement")
        send("place")
        await until(lambda: ui.buffer.complete_state is not None, timeout=5)
        send("\t")
        await until(lambda: ui.buffer.text == "place ", timeout=5)

    asyncio.run(session(script))


class BellOutput(DummyOutput):
    def __init__(self):
        super().__init__()
        self.bells = 0

    def bell(self):
        self.bells += 1


def test_a_bell_and_a_standing_out_prompt_when_our_decision_comes():
    out = BellOutput()

    async def script(ui, driver, send):
        assert not ui.attention
        send("keep #0 #1 #2\r")
        await until(lambda: 0 in driver.game.waiting_for() and driver.game.phase == "placement")
        await until(lambda: ui.attention, timeout=5)
        assert out.bells >= 1
        line = ui.app.layout.current_window.content.create_content(80, 1).get_line(0)
        assert line[0][0] == "class:prompt.attention" and "Your placement" in line[0][1]
        send("p")
        await until(lambda: not ui.attention, timeout=5)
        line = ui.app.layout.current_window.content.create_content(80, 1).get_line(0)
        assert line[0][0] == "class:prompt"

    asyncio.run(session(script, output=out))


def test_a_long_refusal_is_shown_whole():
    """A long message (an unknown command with what is possible) is shown whole."""
    async def script(ui, driver, send):
        ui.message = ("class:error", "word " * 60)       # 300 characters
        text = "".join(t for _, t in ui._message_fragments())
        assert text.split() == ["word"] * 60
        assert ui.message_height() == len(text.splitlines()) >= 4
        send("kep #0 #1 #2\r")
        await until(lambda: "unknown command" in ui.message[1])
        text = "".join(t for _, t in ui._message_fragments())
        assert text.replace("\n", " ").split() == ui.message[1].split()

    asyncio.run(session(script))


def play_until(driver, ui, cond, send_first=True):
    """Drive our seat with the first legal command until cond() holds."""
    async def go():
        while not cond():
            await until(lambda: cond() or driver.game.is_over() or driver.legal())
            if cond() or driver.game.is_over():
                break
            before = driver.game.version
            ui.submit_text(belfort.command_text(driver.legal()[0]))
            await until(lambda: driver.game.version != before)
    return go()


def test_the_scoring_breakdown_appears_when_a_scoring_happens_and_is_dismissed():
    async def script(ui, driver, send):
        await play_until(driver, ui, lambda: driver.game.score_log)
        await until(lambda: ui.panel is not None and ui.panel[0].startswith("Scoring"))
        for size in ((80, 22), (160, 48)):
            text = screen_text(ui, *size)
            assert "Scoring after month 3" in text
            for needle in ("Elves", "Dwarves", "Gnomes", "Taxes lost", "Scored"):
                assert needle in text, (needle, text)
            rec = driver.game.score_log[0]
            row = next(ln for ln in text.splitlines() if ln.startswith("Scored"))
            assert row.split()[1:3] == [f"+{rec['total'][0]}", "VP"]
        assert "Esc (or Enter) returns to the board" in ui.message[1]
        send("\x1b")
        await until(lambda: ui.panel is None, timeout=5)
        assert "returns to the board" not in ui.message[1]
        send("score\r")
        await until(lambda: ui.panel is not None)
        text = screen_text(ui, 80, 22)
        assert "If the scoring were now" in text and "VP now" in text

    asyncio.run(session(script, names=("You", "Bo", "Cy"), seed="3"))


def test_tableau_shows_a_players_built_cards_at_80x24():
    async def script(ui, driver, send):
        await play_until(driver, ui, lambda: any(p.built for p in driver.game.players[1:]))
        who = next(s for s in range(1, 3) if driver.game.players[s].built)
        send(f"tableau {driver.names[who]}\r")
        await until(lambda: ui.panel is not None)
        text = screen_text(ui, 80, 22)
        for c in driver.game.players[who].built:
            assert f"#{c}" in text
        send("\x1b")
        await until(lambda: ui.panel is None, timeout=5)
        send("tableau nobody\r")
        await until(lambda: "No player 'nobody'" in ui.message[1])

    asyncio.run(session(script, names=("You", "Bo", "Cy"), seed="3"))


def test_what_the_others_did_is_highlighted_until_our_next_command():
    def others_on_planks(game):
        return any(o >= 0 and o // 4 != 0 for o in list(game.desk) + list(game.camp) +
                   list(game.guild_plank))

    async def script(ui, driver, send):
        await play_until(driver, ui, lambda: driver.game.phase == "placement" and
                         others_on_planks(driver.game) and 0 in driver.game.waiting_for())
        assert ui.recent and 0 not in ui.recent.seats
        frags = [st for ln in ui.main_lines(80, 22) for st, _ in ln.frags]
        assert any("class:recent" in st for st in frags)
        ui.submit_text(belfort.command_text(driver.legal()[0]))
        assert not ui.recent
        frags = [st for ln in ui.main_lines(80, 22) for st, _ in ln.frags]
        assert not any("class:recent" in st for st in frags)

    asyncio.run(session(script, names=("You", "Bo", "Cy"), seed="3"))


def test_the_end_screen_shows_the_whole_game_log_path():
    """At 80 and 100 columns a long log path is shown whole (over several lines), not cut."""
    import sys
    sys.path.insert(0, "tests/client")
    from client_helpers import StateDriver, finished_game
    path = "/home/somebody/.local/share/belfort/games/" + "ac2b565ad6" * 3 + "ab-0/full.log"
    for width in (80, 100):
        with create_pipe_input() as inp:
            ui = BelfortApp(StateDriver(finished_game()), colour=False, input=inp,
                            output=DummyOutput(), log_path=path)
            ui.size = lambda width=width: (width, 24)
            ui.show_final()
            text = "".join(render.as_text(ui.main_lines(width, 200)).split())
            assert "Gamelog:" + path in text
            assert "belfortreplay" + path in text, width


def _state_app(inp):
    import sys
    sys.path.insert(0, "tests/client")
    from client_helpers import StateDriver, first_of
    game = belfort.new_game(["You", "Bo", "Cy"], {"guilds": "normal"}, seed=1)
    while game.phase == "keep":
        for s in list(game.waiting_for()):
            belfort.apply(game, belfort.legal_commands(game, s)[0], s)
    driver = StateDriver(game, seat=game.waiting_for()[0])
    return BelfortApp(driver, colour=False, input=inp, output=DummyOutput()), driver, first_of


def test_an_undo_is_logged_once_and_offers_one_more_only_when_there_is_one():
    with create_pipe_input() as inp:
        ui, driver, first_of = _state_app(inp)
        seat = driver.seat
        place = first_of(driver.game, seat, "place")
        ui.submit_text(belfort.command_text(place))
        ui.submit_text("undo")
        took = [t for _s, t in ui.log if "back" in t.lower()]
        assert len(took) == 1, took
        # nothing more of ours to take back: not "(Ctrl-Z takes back one more)"
        assert driver.undo_refusal() is not None
        assert "one more" not in ui.message[1], ui.message


def test_a_seat_back_clears_its_disconnected_banner():
    from net.alerts import Alert
    with create_pipe_input() as inp:
        ui, driver, _first = _state_app(inp)
        driver.alerts.append(Alert("disconnect", "Bo disconnected", seat=1))
        assert "DISCONNECTED" in screen_text(ui)
        driver.alerts.append(Alert("reconnect", "Bo is back", seat=1))
        text = screen_text(ui)
        assert "BACK" in text and "DISCONNECTED" not in text
        driver.alerts.append(Alert("disconnect", "Cy disconnected", seat=2))
        assert "DISCONNECTED" in screen_text(ui)      # another seat's still shows


def test_a_long_or_hostile_line_is_answered_short_and_shown_tame():
    with create_pipe_input() as inp:
        ui, driver, _first = _state_app(inp)
        logged = len(ui.log)
        ui.submit_text("x" * 3000)
        assert ui.message_height() <= 2 and "x" * 100 not in ui.message[1], ui.message
        assert len(ui.log) == logged
        ui.submit_text("place \x1b[31melf\x07 \x9bcamp\x00 " + "y" * 200)
        assert not any(ord(c) < 32 or 0x7f <= ord(c) < 0xa0 for c in ui.message[1]), ui.message
        assert "y" * 100 not in ui.message[1]
        assert "Window too small" not in screen_text(ui, 80, 22)
