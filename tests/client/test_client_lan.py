"""`belfort play --lan`: the same peer-to-peer session as a LAN game, on loopback, with the
bots as peer processes — driven through a pipe in --plain mode."""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.e2e
def test_play_lan_plain_runs_a_whole_session_with_an_audit(tmp_path):
    env = dict(os.environ, NO_COLOR="1")
    # '?' then '1': always the first legal command, so the game runs to its end.
    p = subprocess.run([sys.executable, "-m", "client.main", "play", "--lan", "--players", "2",
                        "--seed", "5", "--plain", "--bot", "random", "--data-dir", str(tmp_path)],
                       input="?\n1\n" * 600, capture_output=True, text=True, timeout=240,
                       cwd=ROOT, env=env)
    assert p.returncode == 0, p.stderr[-2000:]
    out = p.stdout
    assert "You kept 3 cards" in out
    assert "Scoring after month 3" in out and "Scoring after month 7" in out
    assert "Final scores" in out
    assert "Audit: PASSED" in out
    # the bot peer processes do not outlive the game: once every seat has finished they
    # leave by themselves (a finished peer stays only while a seat may still need the end,
    # net/session/endgame.py), so they are waited for, with a deadline, not expected gone
    # at the very moment the host's process ends
    deadline = time.monotonic() + 30
    while True:
        left = subprocess.run(["pgrep", "-f", "--", f"client.peer bot .*{tmp_path}"],
                              capture_output=True, text=True)
        if left.returncode == 1 or time.monotonic() > deadline:   # pgrep: 1 = none
            break
        time.sleep(0.1)
    assert left.returncode == 1, left.stdout
