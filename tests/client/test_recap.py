"""A resumed or rejoined game's window starts with what happened earlier in the month (the
window only hears of changes after it opens, so its log used to start empty mid-month)."""

import asyncio

from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from belfort.bots import make_bot
from client import recap
from client.app import BelfortApp
from client.driver import LocalDriver, resume_game

NAMES = ["You", "Bo", "Cy"]


def test_earlier_is_the_current_month_or_everything_in_the_first():
    first = [("keep", 0, [3, 4]), ("round", 1), ("place", 0, 0, 1)]
    assert recap.earlier(first) == first          # month 1: the kept cards too
    later = first + [("scoring", 3), ("round", 2), ("place", 1, 2, 3), ("pass", 2)]
    assert recap.earlier(later) == [("round", 2), ("place", 1, 2, 3), ("pass", 2)]
    many = [("round", 2)] + [("pass", 0)] * 500
    assert len(recap.earlier(many)) == recap.MAX_EVENTS
    assert recap.earlier([]) == []


def _played(tmp_path, decisions):
    d = LocalDriver(NAMES, you=0, seed="7", bot_level="random", pace=0,
                    log_path=tmp_path / "g.jsonl")
    human = make_bot("random", "human-7")
    mine = 0
    while True:
        d.play_bots()
        assert not d.game.is_over()
        if mine == decisions:
            break
        d.submit(human.choose(d.game, 0))
        mine += 1
    d.leave(keep=True)
    return d


async def _opened(driver):
    with create_pipe_input() as inp:
        ui = BelfortApp(driver, colour=False, input=inp, output=DummyOutput())
        task = asyncio.ensure_future(ui.run_async())
        while not ui.app.is_running:
            await asyncio.sleep(0.01)
        ui.app.exit()
        await asyncio.wait_for(task, 10)
    return ui


def test_a_resumed_game_shows_this_month_so_far(tmp_path):
    d = _played(tmp_path, 40)                     # past month 1: the recap starts there
    again, _, _ = resume_game(d.log.path, pace=0)
    past = again.past_events()
    months = [e[1] for e in past if e[0] == "round"]
    assert months and months[-1] >= 2
    shown = recap.earlier(past)
    assert shown[0] == ("round", months[-1]) and len(shown) > 1
    ui = asyncio.run(_opened(again))
    texts = [t for _, t in ui.log]
    at = texts.index("Earlier in this game:")
    expected = ui.describer.sentences(shown, again.view())
    assert expected[0].startswith(f"── Month {months[-1]} of 7")
    assert texts[at + 1:at + 1 + len(expected)] == expected
    again.close()


def test_a_new_game_has_no_recap(tmp_path):
    d = LocalDriver(NAMES, you=0, seed="7", bot_level="random", pace=0)
    assert d.past_events() == []
    ui = asyncio.run(_opened(d))
    assert "Earlier in this game:" not in [t for _, t in ui.log]
    d.close()
