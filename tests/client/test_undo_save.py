"""In local games: undo (the command, Ctrl-Z, refusals with the reason, the log),
leaving a game (keep / abandon / stay) and `belfort play --resume` continuing it exactly."""

import asyncio
import io
import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

import belfort
from belfort.bots import make_bot
from client import gamelog
from client.app import BelfortApp
from client.controller import Controller
from client.driver import LocalDriver, resume_game

ROOT = Path(__file__).resolve().parents[2]
NAMES = ["You", "Bo", "Cy", "Di"]


def new_driver(tmp_path, names=NAMES, seed="12", level="random", ruleset=None, name="g"):
    return LocalDriver(list(names), seed=seed, pace=0, think=0.01, bot_level=level,
                       ruleset=ruleset, log_path=tmp_path / f"{name}.jsonl")


def canonical_lines(path):
    """The log's lines without this machine's notes."""
    return [ln for ln in Path(path).read_text(encoding="utf-8").splitlines()
            if not ln.startswith('{"local"')]


def to_our_placement(driver, ctl):
    """Bots keep, we keep, then play on until it is our placement with a worker to place."""
    driver.play_bots()
    assert ctl.handle("keep #0 #1 #2").kind == "ok"
    driver.play_bots()
    assert driver.game.phase == "placement" and driver.game.waiting_for() == [0]


# --- undo ------------------------------------------------------------------------------------

def test_undo_takes_back_our_placement_and_the_log_records_it(tmp_path):
    driver = new_driver(tmp_path)
    ctl = Controller(driver)
    to_our_placement(driver, ctl)
    before = belfort.to_json(driver.game)
    place = next(c for c in driver.legal() if c[0] == "place")
    assert ctl.handle(belfort.command_text(place)).kind == "ok"
    assert belfort.to_json(driver.game) != before
    reply = ctl.handle("undo")
    assert reply.kind == "undo" and reply.text == f"Taken back: {belfort.command_text(place)}"
    assert belfort.to_json(driver.game) == before
    assert driver.game.waiting_for() == [0]
    rows = [json.loads(x) for x in canonical_lines(driver.log.path)]
    assert rows[-1]["undo"] == 0 and rows[-1]["step"] == rows[-2]["n"]
    # once the next player has placed, the take-back is refused with their name
    assert ctl.handle(belfort.command_text(place)).kind == "ok"
    nxt = driver.game.waiting_for()[0]
    driver.play_bots()
    reply = ctl.handle("undo")
    assert reply.kind == "error"
    assert reply.text == f"Cannot undo: {NAMES[nxt]} has played since."
    driver.close()


def test_undo_is_refused_after_the_keep_reveal_and_at_the_start(tmp_path):
    driver = new_driver(tmp_path)
    ctl = Controller(driver)
    reply = ctl.handle("undo")
    assert reply.kind == "error" and "nothing of yours to take back" in reply.text
    to_our_placement(driver, ctl)
    reply = ctl.handle("undo")
    assert reply.text == "Cannot undo: the kept cards were revealed since."
    driver.close()


def test_a_game_with_undos_replays_and_audits(tmp_path):
    """The log's undo lines make the replay exact: the audit re-runs the log (take-backs
    included) and reaches the same final state; so does `belfort replay`."""
    driver = new_driver(tmp_path, names=["You", "Bo", "Cy"], seed="7")
    human = make_bot("random", "human")
    undos = 0
    while not driver.game.is_over():
        driver.play_bots()
        if driver.game.is_over():
            break
        cmd = human.choose(driver.game, 0)
        driver.submit(cmd)
        if driver.undo_refusal() is None:
            driver.undo()
            undos += 1
            driver.submit(cmd)
    assert undos > 10
    ok, text = driver.audit()
    assert ok, text
    driver.close()
    log = gamelog.load(driver.log.path)
    assert log.problem is None and log.finished
    assert sum(1 for s in log.steps if s[0] == "undo") == undos
    done = gamelog.replay(log)
    assert done.problem is None
    assert belfort.state_hash(done.game) == belfort.state_hash(driver.game)


def test_bots_never_undo_and_undo_needs_our_own_action(tmp_path):
    driver = new_driver(tmp_path)
    driver.play_bots()                       # the three bots keep
    assert len(driver.steps) == 3
    assert driver.undo_refusal().code == "undo/nothing"
    assert all(kind == "cmd" for kind, _, _ in driver.steps)
    driver.close()


async def until(cond, timeout=10.0):
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not cond():
        if loop.time() > end:
            raise AssertionError("timed out")
        await asyncio.sleep(0.01)


async def window(driver, script):
    with create_pipe_input() as inp:
        ui = BelfortApp(driver, colour=False, input=inp, output=DummyOutput())
        task = asyncio.ensure_future(ui.run_async())
        await until(lambda: ui.app.is_running)
        try:
            await script(ui, inp.send_text)
        finally:
            if ui.app.is_running:
                ui.app.exit()
            await asyncio.wait_for(task, 10)
    return ui


def test_ctrl_z_in_the_window_takes_back_our_action(tmp_path):
    driver = new_driver(tmp_path, names=["You", "Bo", "Cy"], seed="3")

    async def script(ui, send):
        await until(lambda: driver.game.phase == "keep" and driver.game.waiting_for() == [0])
        hand = sorted(driver.game.players[0].hand)
        send(f"keep #{hand[0]} #{hand[1]} #{hand[2]}\r")
        await until(lambda: driver.game.phase != "keep")
        send("\x1a")                         # Ctrl-Z: the keep reveal is final
        await until(lambda: "Cannot undo" in ui.message[1])
        assert "the kept cards were revealed since" in ui.message[1]
        await until(lambda: driver.game.phase == "placement" and
                    driver.game.waiting_for() == [0])
        driver.pace = 30.0                   # the bots wait now: there is time to undo
        before = belfort.state_hash(driver.game)
        place = next(c for c in driver.legal() if c[0] == "place")
        send(belfort.command_text(place) + "\r")
        await until(lambda: belfort.state_hash(driver.game) != before)
        send("\x1a")
        await until(lambda: belfort.state_hash(driver.game) == before)
        assert ui.message[1].startswith("↶ Taken back: place")
        assert any(t.startswith("↶ Taken back: place") for _, t in ui.log)
        assert driver.game.waiting_for() == [0]

    asyncio.run(window(driver, script))


# --- leaving: keep, abandon, stay -------------------------------------------------------------

@pytest.mark.parametrize("key,kept", [("k", True), ("y", True), ("a", False)])
def test_ctrl_c_offers_keep_abandon_or_stay(tmp_path, key, kept):
    driver = new_driver(tmp_path)

    async def script(ui, send):
        send("\x03")
        await until(lambda: ui.confirm)
        assert "keep it for later" in ui.prompt() and "abandon" in ui.prompt()
        send("x")                            # any other key: stay
        await until(lambda: not ui.confirm)
        assert ui.app.is_running and ui.left is None
        send("\x03")
        await until(lambda: ui.confirm)
        send(key)
        await until(lambda: not ui.app.is_running)

    ui = asyncio.run(window(driver, script))
    assert ui.left == ("kept" if kept else "abandoned")
    log = gamelog.load(driver.log.path)
    assert log.abandoned is (not kept)
    found = [g.path for g in gamelog.unfinished_games(tmp_path)]
    assert (driver.log.path in found) is kept


# --- resume ------------------------------------------------------------------------------------

def scripted_game(driver, human, stop_at=None, undo_every=5):
    """Play to the end (or until our `stop_at`-th decision): bots as the driver plays them,
    our seat by `human`, taking back and replaying some of our actions."""
    decisions = sum(1 for s, _ in driver.history if s == driver.seat)
    while not driver.game.is_over():
        driver.play_bots()
        if driver.game.is_over():
            return True
        if stop_at is not None and decisions >= stop_at:
            return False
        cmd = human.choose(driver.game, driver.seat)
        driver.submit(cmd)
        decisions += 1
        if decisions % undo_every == 0 and driver.undo_refusal() is None:
            driver.undo()
            driver.submit(human.choose(driver.game, driver.seat))
    return True


def play_whole(tmp_path, name, seed, level, players, ruleset=None):
    d = new_driver(tmp_path, names=NAMES[:players], seed=seed, level=level, ruleset=ruleset,
                   name=name)
    scripted_game(d, make_bot("random", f"human-{seed}"))
    d.close()
    return d


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**6), players=st.integers(2, 5),
       level=st.sampled_from(["random", "easy"]),
       stops=st.lists(st.integers(0, 60), min_size=1, max_size=3))
def test_resumed_games_end_exactly_like_uninterrupted_ones(tmp_path_factory, seed, players,
                                                           level, stops):
    """Save (quit) and resume at random points of seeded games, bots included: the final
    state and the log's canonical lines equal those of the game played in one go."""
    tmp = tmp_path_factory.mktemp("resume")
    whole = play_whole(tmp, "whole", str(seed), level, players)
    d = new_driver(tmp, names=NAMES[:players], seed=str(seed), level=level, name="parts")
    human = make_bot("random", f"human-{seed}")
    for stop in sorted(stops):
        if scripted_game(d, human, stop_at=stop):
            break
        d.leave(keep=True)
        d, path, notes = resume_game(d.log.path, pace=0)
        assert notes == []
    scripted_game(d, human)
    d.close()
    assert belfort.state_hash(d.game) == belfort.state_hash(whole.game)
    assert canonical_lines(d.log.path)[1:] == canonical_lines(whole.log.path)[1:]


def short_ruleset(rounds=3):
    text = (Path(belfort.__file__).parent / "standard.toml").read_text(encoding="utf-8")
    text = text.replace("rounds = 7", f"rounds = {rounds}").replace(
        "scoring_rounds = [3, 5, 7]", f"scoring_rounds = [{rounds}]")
    return belfort.parse_ruleset(text)


def test_searching_bots_resume_exactly(tmp_path):
    """The normal bot (Monte Carlo search from its seed) chooses after a resume exactly as
    it would have: checked on a short (3-month) game, stopped twice."""
    rs = short_ruleset()
    whole = play_whole(tmp_path, "whole", "s1", "normal", 3, ruleset=rs)
    d = new_driver(tmp_path, names=NAMES[:3], seed="s1", level="normal", ruleset=rs,
                   name="parts")
    human = make_bot("random", "human-s1")
    for stop in (4, 11):
        assert not scripted_game(d, human, stop_at=stop)
        d.leave(keep=True)
        d, _, _ = resume_game(d.log.path, pace=0)
    scripted_game(d, human)
    d.close()
    assert d.game.is_over()
    assert belfort.state_hash(d.game) == belfort.state_hash(whole.game)


def test_a_log_cut_mid_line_resumes_in_a_new_file_and_ends_the_same(tmp_path):
    """The program was killed while writing a line: resuming reads up to the cut, leaves the
    damaged file untouched, goes on in a new file, and the game ends as it would have."""
    whole = play_whole(tmp_path, "whole", "cut", "easy", 3)
    d = new_driver(tmp_path, names=NAMES[:3], seed="cut", level="easy", name="parts")
    human = make_bot("random", "human-cut")
    assert not scripted_game(d, human, stop_at=20)
    d.close()
    path = d.log.path
    data = path.read_bytes()
    lines = data.split(b"\n")
    assert not lines[-2].startswith(b'{"local"')
    damaged = b"\n".join(lines[:-2]) + b"\n" + lines[-2][:len(lines[-2]) // 2]
    path.write_bytes(damaged)
    d2, new_path, notes = resume_game(path, pace=0)
    assert new_path != path and path.read_bytes() == damaged
    assert "cut mid-line" in notes[0] and str(new_path) in notes[1]
    scripted_game(d2, human)
    d2.close()
    assert belfort.state_hash(d2.game) == belfort.state_hash(whole.game)
    # the damaged original is no longer offered: its continuation is
    assert [g.path for g in gamelog.unfinished_games(tmp_path)] == []


def test_resume_default_is_the_last_unfinished_local_game(tmp_path):
    old = new_driver(tmp_path, name="old")
    old.play_bots()
    old.leave(keep=True)
    over = play_whole(tmp_path, "over", "o", "random", 2)
    gone = new_driver(tmp_path, name="gone")
    gone.leave(keep=False)
    (tmp_path / "junk.jsonl").write_bytes(b"\x89PNG\r\n\x1a\n")
    os.utime(old.log.path, (1, 1))
    newest = new_driver(tmp_path, name="newest", seed="99")
    newest.play_bots()
    newest.leave(keep=True)
    found = gamelog.unfinished_games(tmp_path)
    assert [g.path.name for g in found] == ["newest.jsonl", "old.jsonl"]
    d, path, _ = resume_game(directory=tmp_path, pace=0)
    assert path.name == "newest.jsonl" and d.seed == "99"
    d.close()
    assert over.game.is_over()
    with pytest.raises(gamelog.LogError, match="no unfinished game"):
        resume_game(directory=tmp_path / "empty", pace=0)
    with pytest.raises(gamelog.LogError, match="that game is over"):
        resume_game(over.log.path, pace=0)


def test_a_log_is_never_written_over_and_one_window_per_game(tmp_path):
    d = new_driver(tmp_path)
    with pytest.raises(gamelog.LogError, match="already exists"):
        gamelog.GameLogWriter(d.log.path, {"format": "belfort-log"})
    d.play_bots()
    d.leave(keep=True)
    first, _, _ = resume_game(d.log.path, pace=0)
    with pytest.raises(gamelog.LogError, match="open in another belfort window"):
        resume_game(d.log.path, pace=0)
    first.close()
    again, _, _ = resume_game(d.log.path, pace=0)
    again.close()


def test_plain_mode_undo_and_keep(tmp_path):
    from client.plain import PlainUI
    d = new_driver(tmp_path, names=["You", "Bo"], seed="4")
    inp = io.StringIO("undo\nquit\nn\nquit\nk\n")
    out = io.StringIO()
    assert PlainUI(d, inp=inp, out=out, log_path=d.log.path).run() == 0
    text = out.getvalue()
    assert "Cannot undo: there is nothing of yours to take back." in text
    assert "Still playing." in text
    assert f"The game is kept: belfort play --resume {d.log.path} continues it." in text
    assert not gamelog.load(d.log.path).abandoned


def run_cli(args, stdin="", env=None, timeout=120):
    env = dict(os.environ, NO_COLOR="1", **(env or {}))
    return subprocess.run([sys.executable, "-m", "client.main", *args], input=stdin,
                          capture_output=True, text=True, timeout=timeout, cwd=ROOT, env=env)


@pytest.mark.e2e   # starts a process
def test_cli_quit_then_resume_continues_the_same_game(tmp_path):
    env = {"XDG_DATA_HOME": str(tmp_path)}
    p = run_cli(["play", "--players", "2", "--seed", "8", "--plain", "--bot", "easy"],
                "keep #0 #1 #2\n?\n1\nundo\nquit\nk\n", env)
    assert p.returncode == 0, p.stderr
    assert "Cannot undo: Bo has played since." in p.stdout and "The game is kept" in p.stdout
    logs = list((tmp_path / "belfort" / "games").glob("*.jsonl"))
    assert len(logs) == 1
    before = gamelog.load(logs[0])
    p = run_cli(["play", "--resume", "--plain"], "?\n1\nquit\nk\n", env)
    assert p.returncode == 0, p.stderr
    assert f"Resuming {logs[0]}" in p.stdout
    after = gamelog.load(logs[0])
    assert after.steps[:len(before.steps)] == before.steps
    assert len(after.steps) > len(before.steps)
    p = run_cli(["play", "--resume", "--seed", "3", "--plain"], "", env)
    assert p.returncode == 2 and "leave out --seed" in p.stderr
    p = run_cli(["play", "--plain", "--log", str(logs[0])], "", env)
    assert p.returncode == 2 and "never written over" in p.stderr
    assert gamelog.load(logs[0]).steps == after.steps


def test_an_action_taken_just_before_leaving_can_be_undone_after_resuming(tmp_path):
    """The undo stack is rebuilt from the log: our last placement, made just before we left
    (the bots had not moved yet), can still be taken back after `--resume`."""
    driver = new_driver(tmp_path)
    ctl = Controller(driver)
    to_our_placement(driver, ctl)
    before = belfort.state_hash(driver.game)
    place = next(c for c in driver.legal() if c[0] == "place")
    ctl.handle(belfort.command_text(place))
    driver.leave(keep=True)
    resumed, _, _ = resume_game(driver.log.path, pace=0)
    reply = Controller(resumed).handle("undo")
    assert reply.kind == "undo", reply.text
    assert belfort.state_hash(resumed.game) == before
    resumed.close()
    done = gamelog.replay(gamelog.load(driver.log.path))
    assert done.problem is None and belfort.state_hash(done.game) == before


# --- the real program in tmux: a slip undone, the game quit and resumed ----------------------

class Pane:
    def __init__(self, tmp_path, name, cmd, width=100, height=34):
        import shutil
        if shutil.which("tmux") is None:
            pytest.fail("tmux is needed for the end-to-end test (apt-get install tmux)")
        self.sock = f"belfort-save-{os.getpid()}-{name}-{secrets.token_hex(4)}"
        env = dict(os.environ, TERM="xterm-256color", XDG_DATA_HOME=str(tmp_path))
        env.pop("TMUX", None)
        subprocess.run(["tmux", "-L", self.sock, "-f", "/dev/null", "new-session", "-d", "-s",
                        "t", "-x", str(width), "-y", str(height), "-c", str(ROOT),
                        f"{sys.executable} -m client.main {cmd}; echo EXITED $?; sleep 60"],
                       check=True, env=env)

    def text(self):
        return subprocess.run(["tmux", "-L", self.sock, "capture-pane", "-p", "-t", "t"],
                              capture_output=True, text=True).stdout

    def send(self, *keys, literal=False):
        subprocess.run(["tmux", "-L", self.sock, "send-keys", "-t", "t"] +
                       (["-l"] if literal else []) + list(keys))

    def wait(self, cond, timeout=30):
        import time
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            text = self.text()
            if cond(text) if callable(cond) else cond in text:
                return text
            time.sleep(0.1)
        raise AssertionError(f"timed out waiting for {cond!r}; screen:\n{self.text()}")

    def close(self):
        subprocess.run(["tmux", "-L", self.sock, "kill-server"], capture_output=True)


@pytest.mark.e2e
def test_in_tmux_a_slip_is_undone_then_the_game_is_kept_and_resumed(tmp_path):
    # seed 3: we place first, so only the bots' keeps (3 s) come before our placement
    p = Pane(tmp_path, "a", "play --players 3 --seed 3 --bot random --pace 3")
    try:
        p.wait("Keep 3 of your 5 cards")
        p.send("keep #0 #1 #2", literal=True)
        p.send("Enter")
        p.wait("Your placement — 6 workers left", 60)
        p.send("place elf camp", literal=True)
        p.send("Enter")
        p.wait("✓ place elf camp")
        p.send("C-z")                       # the bots wait 3 s: undo before they move
        p.wait("Taken back: place elf camp")
        p.wait("Your placement — 6 workers left")
        p.send("C-c")
        p.wait("k keeps it for later")
        p.send("k")
        text = p.wait("EXITED 0")
        assert "The game is kept: belfort play --resume" in text
    finally:
        p.close()
    logs = list((tmp_path / "belfort" / "games").glob("*.jsonl"))
    steps = gamelog.load(logs[0]).steps
    assert steps[-1][0] == "undo" and steps[-2][2] == "place elf camp"
    q = Pane(tmp_path, "b", "play --resume --pace 0")
    try:
        text = q.wait("Your placement — 6 workers left")
        assert "Month 1/7" in text
        q.send("C-c")
        q.wait("k keeps it for later")
        q.send("a")
        text = q.wait("EXITED 0")
        assert "abandoned" in text
    finally:
        q.close()
    assert gamelog.unfinished_games(tmp_path / "belfort" / "games") == []
