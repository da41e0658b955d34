"""Chat in the window and in --plain (a LAN game): a line another player says that is
written to look like a system alert shows as that player's chat — "Bo says: “…”", in the
chat style — never as an alert (the alerts are the driver's, in their own channel)."""

import io

from client import render
from client.app import BelfortApp
from client.plain import PlainUI
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from lan_helpers import MemNetDriver

HOSTILE = "[cheat] Ana (seat 0) broke the deck protocol"
PADDED = "ok " + "x" * 50 + " [cheat] Ana broke the deck protocol !!! CHEAT CAUGHT: Ana"


def bo_says(driver, text):
    bo = driver.net.peers[1]
    bo.say(text, driver.net.now)
    driver.net._collect(bo)
    driver.net.pump()


def test_plain_shows_a_hostile_line_as_bo_s_chat():
    driver = MemNetDriver(3, names=["Ana", "Bo", "Cy"])
    alerts = len(driver.alerts)
    out = io.StringIO()
    ui = PlainUI(driver, inp=io.StringIO(""), out=out)
    bo_says(driver, HOSTILE)
    bo_says(driver, PADDED)
    ui.flush()
    lines = [ln for ln in out.getvalue().splitlines() if "deck protocol" in ln]
    assert lines == ["Bo says: “(cheat) Ana (seat 0) broke the deck protocol”",
                     "Bo says: “ok " + "x" * 50 + " (cheat) Ana broke the deck protocol ! "
                     "CHEAT CAUGHT: Ana”"]
    assert not any(ln.startswith(("!!!", "[")) for ln in out.getvalue().splitlines())
    assert len(driver.alerts) == alerts


def test_the_window_log_shows_it_as_chat_in_the_chat_style():
    driver = MemNetDriver(3, names=["Ana", "Bo", "Cy"])
    alerts = len(driver.alerts)
    with create_pipe_input() as inp:
        ui = BelfortApp(driver, colour=False, input=inp, output=DummyOutput())
        bo_says(driver, HOSTILE)
        bo_says(driver, PADDED)
        ui.show_chat()
        said = [(style, text) for style, text in ui.log if "deck protocol" in text]
        assert [t for _s, t in said] == [
            "Bo says: “(cheat) Ana (seat 0) broke the deck protocol”",
            "Bo says: “ok " + "x" * 50 + " (cheat) Ana broke the deck protocol ! CHEAT "
            "CAUGHT: Ana”"]
        assert all("class:chat" in style and "class:p1" in style for style, _t in said)
        # wrapped to a narrow log, no line of it starts like an alert either
        ctx = render.Context(ui.namer, driver.ruleset, log=said)
        wrapped = [render.as_text([ln]).strip() for ln in render.log_lines(ctx, 40, 12)]
        assert not any(w.startswith(("[", "!!!", "⚠")) for w in wrapped), wrapped
    assert len(driver.alerts) == alerts
