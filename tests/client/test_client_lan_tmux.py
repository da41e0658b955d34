"""Nothing writes behind the window's back, end to end: a LAN game between two windows in
tmux; one peer is killed and rejoins (with the same join command).  At each step the other
screens are compared line by line with a fresh render (Ctrl-L redraws everything): a raw
log line written behind the window's back would shift the rows until that redraw."""

import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.e2e

STRAY = re.compile(r"belfort\.\w+:|\[seat \d\]|Traceback|disconnect:")


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Tmux:
    def __init__(self, tag):
        if shutil.which("tmux") is None:
            pytest.fail("tmux is needed for the end-to-end test (apt-get install tmux)")
        self.sock = f"belfort-lan-{os.getpid()}-{tag}-{secrets.token_hex(4)}"
        self.env = dict(os.environ, TERM="xterm-256color", NO_COLOR="1")
        self.env.pop("TMUX", None)
        self.started = False

    def run(self, *args):
        return subprocess.run(["tmux", "-L", self.sock, *args], capture_output=True, text=True,
                              env=self.env)

    def window(self, name, command):
        args = ["-d", "-x", "80", "-y", "24", "-c", str(ROOT)]
        if not self.started:
            subprocess.run(["tmux", "-L", self.sock, "-f", "/dev/null", "new-session", *args,
                            "-s", "t", "-n", name, command], check=True, env=self.env)
            self.started = True
        else:
            self.run("new-window", "-d", "-t", "t", "-n", name, "-c", str(ROOT), command)
        self.run("set-option", "-t", "t", "remain-on-exit", "on")

    def text(self, name):
        return self.run("capture-pane", "-p", "-t", f"t:{name}").stdout

    def keys(self, name, *keys):
        self.run("send-keys", "-t", f"t:{name}", *keys)

    def type(self, name, text):
        self.run("send-keys", "-t", f"t:{name}", "-l", text)
        self.run("send-keys", "-t", f"t:{name}", "Enter")

    def wait(self, name, cond, timeout=60, what=""):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            text = self.text(name)
            if cond(text):
                return text
            time.sleep(0.1)
        raise AssertionError(f"{name}: timed out waiting for {what}; screen:\n{self.text(name)}")

    def close(self):
        self.run("kill-server")


def norm(t):
    return [re.sub(r"\d+", "#", ln.rstrip()) for ln in t.splitlines()]


def settled(tmux, name, timeout=30):
    """The screen once the game stopped changing it for a moment (the deal, a move).
    Stray text would stay through this: only a full redraw removes it."""
    end = time.monotonic() + timeout
    last = tmux.text(name)
    while time.monotonic() < end:
        time.sleep(0.5)
        now = tmux.text(name)
        if norm(now) == norm(last):
            return now
        last = now
    raise AssertionError(f"{name}'s screen kept changing:\n{last}")


def same_as_fresh_render(tmux, name):
    """The screen now, and after Ctrl-L redrew all of it, agree line by line (numbers
    aside: a counter may tick in between)."""
    before = settled(tmux, name)
    assert not STRAY.search(before), f"stray text on {name}'s screen:\n{before}"
    tmux.keys(name, "C-l")
    time.sleep(0.3)      # the redraw itself has no event to wait for; nothing is asserted on time
    after = tmux.text(name)
    b, a = norm(before), norm(after)
    assert len(b) == len(a) == 24
    diff = [(i, x, y) for i, (x, y) in enumerate(zip(b, a)) if x != y]
    assert not diff, f"{name}'s screen differs from a fresh render:\n" + \
        "\n".join(f"{i:2}: {x!r}\n    {y!r}" for i, x, y in diff)


@pytest.fixture
def tmux():
    t = Tmux("kill")
    yield t
    t.close()


def test_killing_and_rejoining_a_peer_leaves_every_screen_clean(tmux, tmp_path):
    port = free_port()
    py = sys.executable
    host_dir, bo_dir = tmp_path / "ana", tmp_path / "bo"
    tmux.window("ana", f"{py} -m client.main host --name Ana --players 2 --bind 127.0.0.1 "
                       f"--port {port} --auto-start --data-dir {host_dir}")
    tmux.window("bo", "bash --norc --noprofile")
    join = (f"{py} -m client.main join 127.0.0.1:{port} --name Bo "
            f"--data-dir {bo_dir}")
    tmux.type("bo", join)
    for who in ("ana", "bo"):
        tmux.wait(who, lambda t: "Keep 3 of your 5 cards" in t, 90, "the window, hand dealt")
    same_as_fresh_render(tmux, "ana")
    same_as_fresh_render(tmux, "bo")

    # Bo's machine dies
    pids = subprocess.run(["pgrep", "-f", f"client.main join .*--data-dir {bo_dir}"],
                          capture_output=True, text=True).stdout.split()
    assert pids
    for pid in pids:
        os.kill(int(pid), signal.SIGKILL)
    tmux.wait("ana", lambda t: "Bo disconnected" in t or "disconnected" in t, 60,
              "Ana's window to show the disconnect")
    same_as_fresh_render(tmux, "ana")
    log = (host_dir / "belfort.log")
    assert "disconnect" in log.read_text()     # the record went to the file, not the screen

    # Bo types the same join command again: it rejoins the game
    tmux.wait("bo", lambda t: t.strip().endswith(("$", "#")), 30, "the shell prompt")
    tmux.type("bo", join)
    tmux.wait("bo", lambda t: "Welcome," in t and "›" in t, 90, "Bo's window again")
    tmux.wait("ana", lambda t: "Bo is back" in t, 60, "Ana's window to show Bo is back")
    same_as_fresh_render(tmux, "ana")
    same_as_fresh_render(tmux, "bo")


def short_ruleset(directory):
    """The standard ruleset, one month long (its scoring ends the game)."""
    import belfort
    text = (Path(belfort.__file__).parent / "standard.toml").read_text(encoding="utf-8")
    short = text.replace("rounds = 7\nscoring_rounds = [3, 5, 7]",
                         "rounds = 1\nscoring_rounds = [1]")
    assert short != text
    path = directory / "one-month.toml"
    path.write_text(short, encoding="utf-8")
    return path


def prompt_line(text):
    lines = [ln for ln in text.splitlines() if "›" in ln]
    return lines[-1] if lines else ""


def play_to_the_end(tmux, name, timeout=120):
    """Play our seat with '1' (our first choice) at each of our decisions until the final
    panel shows the audit; the screen then.  A '1' that lands a moment late (the game moved
    on meanwhile) is our next decision's first choice, or refused: either way harmless."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        text = tmux.text(name)
        if " The end " in text and "Audit: PASSED" in text:
            return text
        prompt = prompt_line(text)
        if prompt and not prompt.startswith(("Waiting", "Game over")):
            tmux.type(name, "1")
            try:
                tmux.wait(name, lambda t, was=text: t != was, 5)
            except AssertionError:
                pass          # (a refused '1' may leave the screen as it was)
        else:
            time.sleep(0.1)
    raise AssertionError(f"{name}: the game did not end; screen:\n{tmux.text(name)}")


def final_panel_again(tmux, name):
    """Esc until the board shows (an alert is dismissed first), then Esc: the final panel
    drawn afresh, with its status line (a '1' typed as the game ended answered there)."""
    for _ in range(4):
        was = tmux.text(name)
        if " The end " not in was:
            break
        tmux.keys(name, "Escape")
        tmux.wait(name, lambda t: t != was, 10, "Esc to act")
    tmux.keys(name, "Escape")
    return tmux.wait(name, lambda t: " The end " in t, 10, "the final panel again")


def test_another_game_from_the_full_screen_window(tmux, tmp_path):
    """A person at a LAN game's final panel presses a: the host's peer (which plays two
    games, --again 2) agrees, the window of game 2 opens on the same node, and after it
    the final panel and `evening` show the evening's two games.  When the only other player
    has left the table, the panel no longer offers another game and a says there is none.
    One-month games (a ruleset file) keep it short."""
    from tests.session.conftest import PeerProc
    py = sys.executable
    # (a short path: the final panel's game log lines fit in 80 columns)
    short = Path(tempfile.mkdtemp(prefix="bw", dir="/tmp"))
    host = PeerProc(["host", "--name", "Ana", "--players", "2", "--bind", "127.0.0.1",
                     "--port", "0", "--level", "random", "--data-dir", str(tmp_path / "ana"),
                     "--timeout", "120", "--again", "2", "--ruleset",
                     str(short_ruleset(tmp_path))], tmp_path, "host")
    try:
        addr = host.wait_event("lobby", 20)["address"]
        me = short / "bo"
        tmux.window("bo", f"{py} -m client.main join {addr} --name Bo --bind 127.0.0.1 "
                          f"--data-dir {me}; echo EXITED $?; sleep 60")
        tmux.wait("bo", lambda t: "Keep 3 of your 5 cards" in t, 60, "the hand dealt")
        first = play_to_the_end(tmux, "bo")
        first = tmux.wait("bo", lambda t: "This evening, after one game:" in t, 30,
                          "the evening under the final table")
        # the key is said on the status line (the panel's own line may be below the fold)
        first = final_panel_again(tmux, "bo")
        assert "Game over. a: another game · Esc: the board" in first, first

        tmux.keys("bo", "a")
        second = tmux.wait("bo", lambda t: "Welcome, Bo!" in t and "Keep 3 of your 5" in t,
                           60, "the window of the second game")
        assert " The end " not in second and "Game over" not in second
        play_to_the_end(tmux, "bo")
        final = tmux.wait("bo", lambda t: "This evening, after 2 games:" in t, 30,
                          "the evening's two games under the final table")
        rows = [ln.strip() for ln in final.splitlines() if " of 2 won, " in ln]
        assert sorted(r.split(":")[0] for r in rows) == ["Ana", "Bo"], final
        tmux.type("bo", "evening")
        # (the answer shows under the panel, its lines run together)
        tmux.wait("bo", lambda t: any(ln.startswith("This evening, after 2 games:") and
                                      " of 2 won" in ln for ln in t.splitlines()), 10,
                  "the answer to evening")

        # the host's peer played its two games and left the table: no third game
        r = host.result(60)
        assert r["rc"] == 0 and r["number"] == 2, r
        tmux.wait("bo", lambda t: " The end " in t and "after 2 games:" in t
                  and "press a" not in t and "another game" not in t, 60,
                  "the final panel without another game")
        tmux.keys("bo", "a")
        tmux.wait("bo", lambda t: "There is no next game" in t, 10, "why there is none")
        tmux.type("bo", "quit")
        tmux.wait("bo", lambda t: "EXITED 0" in t, 30, "the window to close")

        games = sorted((me / "games").glob("*/game.jsonl"))
        assert len(games) == 2, games
        from client import gamelog
        for path in games:
            log = gamelog.load(path)
            assert log.end is not None and gamelog.replay(log).problem is None
    finally:
        host.kill()
        host.err.close()
        shutil.rmtree(short, ignore_errors=True)


@pytest.mark.parametrize("lang,word", [("fr", "rejouer"), ("ko", "한판더")])
def test_another_game_typed_in_the_players_language(tmux, tmp_path, lang, word):
    """The window in the person's language: at the final panel they type their language's
    word for again, and the window of the second game opens."""
    from client.i18n import _, using
    from tests.session.conftest import PeerProc
    with using(lang):
        ended = _("This evening, after one game:")
        welcome = _("Welcome, {name}! You play {letter} (seat {seat}). Players: {players}.") \
            .split("{name}")[0]
    host = PeerProc(["host", "--name", "Ana", "--players", "2", "--bind", "127.0.0.1",
                     "--port", "0", "--level", "random", "--data-dir", str(tmp_path / "ana"),
                     "--timeout", "120", "--again", "2", "--ruleset",
                     str(short_ruleset(tmp_path))], tmp_path, "host")
    try:
        addr = host.wait_event("lobby", 20)["address"]
        tmux.window("bo", f"{sys.executable} -m client.main --lang {lang} join {addr} "
                          f"--name Bo --bind 127.0.0.1 --data-dir {tmp_path / 'bo'}")
        tmux.wait("bo", lambda t: welcome in t, 60, "the window")
        end = time.monotonic() + 120
        while ended not in tmux.text("bo"):
            assert time.monotonic() < end, tmux.text("bo")
            was = tmux.text("bo")
            if prompt_line(was):
                tmux.type("bo", "1")     # (refused while others decide: harmless)
                try:
                    tmux.wait("bo", lambda t: t != was, 5)
                except AssertionError:
                    pass
            else:
                time.sleep(0.1)
        tmux.type("bo", word)
        tmux.wait("bo", lambda t: welcome in t and ended not in t, 60,
                  "the window of the second game")
        host.wait_event("next-game", 30)
    finally:
        host.kill()
        host.err.close()
