"""A LAN joiner's own draws name their cards, as a person reads them: `belfort join
--plain` through a pipe plays a whole game against peer processes, and its log says "You
drew #21 (Gatehouse), …" for every draw of its seat, each exactly once, in the order the
game made them (a joiner's deck reveals the drawn cards' types to it a moment after the
draw; the sentence waits for them).  The complete log the joiner writes after the audit is
the oracle: replayed, it gives every draw of our seat and every card's type."""

import os
import re
import subprocess
import sys
from pathlib import Path

import belfort
import pytest
from belfort import events as belfort_events

from client import gamelog
from client.words import TITLE

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]

DREW = re.compile(r"^You drew (.*)\.$")
NAMED = re.compile(r"^#(\d+) \((.+)\)$")


def our_draws(log_path, seat):
    """Every draw of ``seat`` in the game's complete log: [(card, type title), …] each."""
    log = gamelog.load(log_path)
    assert log.problem is None and log.cards, log.problem
    draws = []

    def on_step(_runner, _step, evs):
        for ev in belfort_events.named_known(evs):
            if ev.event == "draw" and ev.seat == seat:
                draws.append([(c, str(TITLE[belfort.CARD_TYPES[log.cards[c]]]))
                              for c in ev.cards])
    replayed = gamelog.replay(log, on_step=on_step)
    assert replayed.problem is None, replayed.problem
    return draws


def said_draws(out):
    """What the joiner's log said of its own draws: [(card, type title or None), …] each."""
    said = []
    for line in out.splitlines():
        m = DREW.match(line.strip())
        if not m:
            continue
        cards = []
        for item in m.group(1).split(", "):
            named = NAMED.match(item)
            cards.append((int(named.group(1)), named.group(2)) if named
                         else (int(item.lstrip("#")), None))
        said.append(cards)
    return said


@pytest.mark.parametrize("players", [2, 3])
def test_a_joiners_own_draws_name_every_card_once(spawn, players):
    d = spawn.dir
    host = spawn("host", "--name", "Ana", "--players", players, "--bind", "127.0.0.1",
                 "--port", 0, "--level", "random", "--data-dir", d / "host", "--timeout", 120,
                 label="host")
    addr = host.wait_event("lobby", 20)["address"]
    for i in range(2, players):
        spawn("bot", "--join", addr, "--name", f"Bot{i}", "--bind", "127.0.0.1",
              "--level", "random", "--data-dir", d / f"bot{i}", "--timeout", 120,
              label=f"bot{i}").wait_event("welcome", 20)
    env = dict(os.environ, NO_COLOR="1", PYTHONPATH=str(ROOT))
    for var in ("LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "BELFORT_LANG"):
        env.pop(var, None)
    # A pipe's lines wait for our decisions: at each, we buy the draw pile's top card when
    # we may (refused otherwise), then "1" picks our first choice
    p = subprocess.run([sys.executable, "-m", "client.main", "join", addr, "--name", "Bo",
                        "--bind", "127.0.0.1", "--data-dir", str(d / "me"), "--plain"],
                       input="buy-card top\n1\n" * 3000, capture_output=True, text=True,
                       timeout=240,
                       cwd=ROOT, env=env)
    assert p.returncode == 0, p.stderr[-2000:]
    out = p.stdout
    assert "Audit: PASSED" in out, out[-2000:]
    you = re.search(r"You are ([A-Z])\.", out)
    letters = re.search(r"Players: (.*)\. You are", out)
    assert you and letters, out[:500]
    seat = [x.split("=")[0] for x in letters.group(1).split(", ")].index(you.group(1))
    found = re.search(r"Game log: (\S+)", out)
    assert found, out[-1500:]
    expected = our_draws(found.group(1), seat)
    assert expected, "our seat drew no card in a whole game"
    said = said_draws(out)
    unnamed = [s for s in said if any(t is None for _c, t in s)]
    assert not unnamed, f"draws said without their cards' names: {unnamed}"
    assert said == expected, f"said:\n{said}\nthe game's draws:\n{expected}"
    r = host.result(60)
    assert r["status"] == "over" and r["audit"][0], r
