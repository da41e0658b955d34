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
