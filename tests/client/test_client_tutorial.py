"""The guided first game (belfort tutorial / play --learn), the first-game suggestion and
the bot level for first-timers (a first game that can be won)."""

import asyncio
import io
import os
import subprocess
import sys
from pathlib import Path

import belfort
import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from client import main as cli
from client import render
from client.app import BelfortApp
from client.coach import Coach
from client.driver import LocalDriver, seat_names
from client.plain import PlainUI

ROOT = Path(__file__).resolve().parents[2]
ORDER = ["Welcome: your first game", "Placement", "Spreading your workers", "Collection",
         "Actions: your turn", "Month 2", "Scoring", "You have seen every phase"]


def test_the_coach_explains_each_phase_once_as_it_comes_in_plain_mode():
    driver = LocalDriver(seat_names("You", 3), seed="4", bot_level="random", pace=0)
    out = io.StringIO()
    # '?' then '1': the first legal choice, until after the first scoring
    rc = PlainUI(driver, inp=io.StringIO("?\n1\n" * 90 + "quit\ny\n"), out=out,
                 coach=Coach(driver.ruleset, 0)).run()
    text = out.getvalue()
    assert rc == 0
    titles = [ln[4:-4] for ln in text.splitlines() if ln.startswith("=== ")]
    assert [t for t in titles if t in ORDER] == ORDER, titles
    assert len(titles) == len(set(titles))           # each lesson once
    # a lesson says what to type, with a command legal at that moment
    placement = text.split("=== Placement ===")[1].split("===")[0]
    assert "Try: place " in placement
    # the scoring lesson comes with the breakdown of that scoring
    assert text.index("Scoring after month 3 (") < text.index("=== Scoring ===")


@pytest.mark.e2e   # starts a process
def test_belfort_tutorial_through_a_pipe(tmp_path):
    env = dict(os.environ, NO_COLOR="1", XDG_DATA_HOME=str(tmp_path))
    p = subprocess.run([sys.executable, "-m", "client.main", "tutorial", "--plain", "--seed",
                        "4"], input="?\n1\n" * 40 + "quit\ny\n", capture_output=True,
                       text=True, timeout=120, cwd=ROOT, env=env)
    assert p.returncode == 0, p.stderr[-2000:]
    out = p.stdout
    for title in ORDER[:5]:
        assert f"=== {title} ===" in out, title
    assert "Players: Y=You, B=Bo, C=Cy" in out          # three players by default
    level = "beginner" if "beginner" in cli.engine_levels() else "easy"
    head = (tmp_path / "belfort" / "games")
    logs = list(head.glob("*.jsonl"))
    assert len(logs) == 1
    from client import gamelog                # the bots are in the log's local notes
    assert gamelog.load(logs[0]).local["bots"]["1"]["level"] == level
    if level == "easy":
        assert "The beginner bots are not in this version" in out


def test_a_first_game_suggests_the_tutorial_and_the_gentle_bots(tmp_path, monkeypatch,
                                                                capsys):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\ny\n"))
    assert cli.main(["play", "--plain", "--seed", "1", "--no-log"]) == 0
    out = capsys.readouterr().out
    assert "First game? 'belfort tutorial'" in out and "--bot beginner" in out
    assert "'help screen' explains this board" in out
    # the first game is three players (a less crowded board at 80x24, shorter waits)
    assert "Players: Y=You, B=Bo, C=Cy. You are Y." in out
    # once a game log exists it is not the first game any more
    (tmp_path / "belfort" / "games").mkdir(parents=True)
    (tmp_path / "belfort" / "games" / "game-1.jsonl").write_text("{}\n")
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\ny\n"))
    assert cli.main(["play", "--plain", "--seed", "1", "--no-log"]) == 0
    assert "First game?" not in capsys.readouterr().out


def test_help_for_play_names_the_levels_for_a_first_game(capsys):
    with pytest.raises(SystemExit):
        cli.main(["play", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "beginner (for a first game)" in out and "random (the gentlest" in out
    assert "--learn" in out


def test_a_missing_level_falls_back_to_easy_and_says_so(monkeypatch):
    monkeypatch.setattr(cli, "engine_levels", lambda: ("random", "easy", "normal", "hard"))
    level, note = cli.bot_level("beginner")
    assert level == "easy" and "beginner bots are not in this version" in note
    assert cli.bot_level("hard") == ("hard", None)


async def until(cond, timeout=10.0):
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not cond():
        if loop.time() > end:
            raise AssertionError("timed out")
        await asyncio.sleep(0.01)


def test_the_window_shows_each_lesson_in_a_panel_that_fits_80x24_and_160x50():
    async def run():
        driver = LocalDriver(seat_names("You", 3), seed="4", bot_level="random", pace=0)
        with create_pipe_input() as inp:
            ui = BelfortApp(driver, colour=False, input=inp, output=DummyOutput(),
                            coach=Coach(driver.ruleset, 0))
            task = asyncio.ensure_future(ui.run_async())
            await until(lambda: ui.app.is_running)
            try:
                seen = []
                while "Actions: your turn" not in seen:
                    await until(lambda: driver.legal() or ui.panel is not None)
                    if ui.panel is not None and ui.panel[0].startswith("Tutorial: "):
                        title = ui.panel[0][len("Tutorial: "):]
                        if title not in seen:
                            seen.append(title)
                            for w, h in ((80, 22), (160, 48)):
                                lines = ui.main_lines(w, h)
                                assert len(lines) == h and all(ln.width() == w for ln in lines)
                                text = render.as_text(lines)
                                assert title in text
                        shown = ui.panel
                        inp.send_text("\r")          # Enter closes the lesson
                        await until(lambda: ui.panel is not shown)
                        if ui.panel is None:         # the last one: no "Read this" left
                            assert "Read this" not in ui.message[1], ui.message
                        continue
                    before = driver.game.version
                    ui.submit_text(belfort.command_text(driver.legal()[0]))
                    await until(lambda: driver.game.version != before or ui.panel is not None)
                assert seen[:2] == ["Welcome: your first game", "Placement"]
                assert "Collection" in seen and "Spreading your workers" in seen
            finally:
                ui.app.exit()
                await asyncio.wait_for(task, 10)

    asyncio.run(run())


def test_data_dir_without_lan_is_refused_with_what_it_is_for(tmp_path, capsys, monkeypatch):
    """--data-dir only means something for a LAN session: a game on this machine given one
    is refused with the reason, instead of writing its log elsewhere without a word."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert cli.main(["play", "--plain", "--seed", "1", "--data-dir", str(tmp_path / "d")]) == 2
    err = capsys.readouterr().err
    assert "--data-dir" in err and "--lan" in err and "--log" in err
    assert not (tmp_path / "d").exists()
    assert cli.main(["play", "--resume", "--data-dir", str(tmp_path / "d")]) == 2
    assert "leave out --data-dir" in capsys.readouterr().err


def test_play_refuses_a_pace_or_think_that_is_no_time(capsys):
    for option, value in (("--pace", "-1"), ("--think", "inf")):
        with pytest.raises(SystemExit):
            cli.main(["play", "--plain", "--no-log", option, value])
        assert f"argument {option}: not a number of seconds" in capsys.readouterr().err
