"""End to end: the real program in tmux (send-keys, capture-pane), as a person plays it.

The game log the program writes is the oracle: at each of our decisions the game waits for
us, so replaying the log with the engine gives the state the screen must show.
"""

import os
import re
import secrets
import shutil
import subprocess
import sys
import time
from pathlib import Path

import belfort
import pytest

from client import gamelog

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.e2e       # the real program in tmux: processes, a terminal


class Pane:
    def __init__(self, tmp_path, width, height, args, env_extra=None):
        if shutil.which("tmux") is None:
            pytest.fail("tmux is needed for the end-to-end test (apt-get install tmux)")
        self.sock = f"belfort-test-{os.getpid()}-{secrets.token_hex(4)}"   # a server per pane
        self.log = tmp_path / "game.jsonl"
        cmd = (f"{sys.executable} -m client.main play --log {self.log} {args}; "
               "echo EXITED $?; sleep 60")
        env = dict(os.environ, TERM="xterm-256color", XDG_DATA_HOME=str(tmp_path))
        env.pop("NO_COLOR", None)
        env.pop("TMUX", None)
        env.update(env_extra or {})
        subprocess.run(["tmux", "-L", self.sock, "-f", "/dev/null", "new-session", "-d",
                        "-s", "t", "-x", str(width), "-y", str(height), "-c", str(ROOT), cmd],
                       check=True, env=env)

    def tmux(self, *args):
        return subprocess.run(["tmux", "-L", self.sock, *args], capture_output=True,
                              text=True)

    def text(self):
        return self.tmux("capture-pane", "-p", "-t", "t").stdout

    def styled(self):
        """The screen with its SGR escape sequences (colours, underline, reverse)."""
        return self.tmux("capture-pane", "-p", "-e", "-t", "t").stdout

    def send(self, text):
        """Type without Enter."""
        self.tmux("send-keys", "-t", "t", "-l", text)

    def lines(self):
        return self.text().splitlines()

    def prompt(self, text=None):
        lines = [ln for ln in (self.text() if text is None else text).splitlines()
                 if ln.strip()]
        return lines[-1] if lines else ""

    def type(self, text):
        self.tmux("send-keys", "-t", "t", "-l", text)
        self.tmux("send-keys", "-t", "t", "Enter")

    def key(self, key):
        self.tmux("send-keys", "-t", "t", key)

    def wait(self, cond, timeout=30, what=""):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            text = self.text()
            if (cond(text) if callable(cond) else cond in text):
                return text
            time.sleep(0.1)
        raise AssertionError(f"timed out waiting for {what or cond!r}; screen:\n{self.text()}")

    def wait_prompt(self, start, timeout=30):
        return self.wait(lambda t: self.prompt(t).startswith(start), timeout,
                         f"a prompt starting {start!r}")

    def game(self):
        head, steps, _end = gamelog.read(self.log)
        game = gamelog.new_game_from(head)
        for step in steps:
            gamelog.apply_step(game, step)
        return game

    def close(self):
        self.tmux("kill-server")


@pytest.fixture
def pane_factory(tmp_path):
    panes = []

    def make(width, height, args, env_extra=None):
        p = Pane(tmp_path, width, height, args, env_extra)
        panes.append(p)
        return p
    yield make
    for p in panes:
        p.close()


def my_row(text, letter="Y", name="You"):
    """(crest, VP, tax, wood, stone, metal, gold) read off our row of the players table."""
    for ln in text.splitlines():
        m = re.match(rf"^[▶ ]{letter} {name}\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+"
                     r"(\d+)", ln)
        if m:
            return tuple(int(x) for x in m.groups())
    raise AssertionError("no row for us on the screen:\n" + text)


def until_my_turn(p, timeout=60):
    """Answer any other decision of ours (Spies, discards) with the first legal command,
    until our Actions turn."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        prompt = p.prompt()
        if prompt.startswith("Your turn"):
            return p.text()
        if prompt.startswith(("Show a card", "Discard", "Take one", "King's camp")):
            game = p.game()
            legal = belfort.legal_commands(game, 0)
            if legal:
                version = len(gamelog.read(p.log)[1])
                p.type(belfort.command_text(legal[0]))
                p.wait(lambda _t: len(gamelog.read(p.log)[1]) > version, 20, "our command")
                continue
        time.sleep(0.1)
    raise AssertionError("never got our Actions turn; screen:\n" + p.text())


def district_cell(text, district, label):
    lines = text.splitlines()
    head = next(ln for ln in lines if "Guild" in ln and "Markers" in ln)
    col = head.index(" " + label + " ") + 1
    row = next(ln for ln in lines if ln.startswith(f" {district} "))
    return row[col]


def test_play_a_month_in_tmux_at_80x24(pane_factory):
    p = pane_factory(80, 24, "--seed 1 --pace 0 --bot random --think 0.01")
    text = p.wait_prompt("Keep 3 of your 5 cards")
    assert "Your hand #0" in text and "BELFORT" in text
    p.type("keep #0 #1 #2")

    text = p.wait_prompt("Your placement — 6 workers left")
    game = p.game()
    me = game.players[0]
    assert "Month 1/7" in text
    assert my_row(text)[3:] == tuple(me.res)           # 1 wood 1 stone 1 metal 5 gold
    assert sorted(me.hand) == [0, 1, 2]
    legal = belfort.legal_commands(game, 0)
    plank, fee = ("desk", game.rs.fee_recruiter_desk) if ("place", 0, 0) in legal else ("camp", 0)
    p.type(f"place elf {plank}")

    text = p.wait_prompt("Your placement — 5 workers left")
    assert "You placed an elf on the " in text
    assert my_row(text)[6] == me.res[3] - fee           # the fee was paid
    board_line = next(ln for ln in text.splitlines() if ln.startswith("Desk"))
    assert "Ye" in board_line                           # our elf on the desk / camp
    p.type("pass")

    for _ in range(2):
        text = p.wait_prompt("Spread your")
        n = int(re.search(r"Spread your (\d+)", p.prompt(text)).group(1))
        p.type(f"spread {n} 0 0")                       # all to the forest / the quarry
        p.wait(lambda t: not p.prompt(t).startswith(f"Spread your {n} elves" if _ == 0
                                                    else "Spread your"), 20, "the next step")
    if plank == "camp":
        p.wait_prompt("King's camp")
        p.type("crest 1")

    text = until_my_turn(p)
    game = p.game()
    assert game.phase == "actions" and game.current == 0
    row = my_row(text)
    assert row[3:] == tuple(game.players[0].res)        # collection as the engine says
    assert row[3:] != (1, 1, 1, 5)                      # collection changed them

    legal = belfort.legal_commands(game, 0)
    build = next((c for c in legal if c[0] == "build" and belfort.CARD_TYPES[
        game.types[c[1]]] not in ("keep", "gatehouse")), None)
    if build:
        t = belfort.CARD_TYPES[game.types[build[1]]]
        d = int(belfort.SITE_NAME[build[2]].split("@")[1])
        p.type(belfort.command_text(build))
        text = p.wait(f"You built {'an' if t[0] in 'aeiou' else 'a'} {t.capitalize()} in "
                      f"district {d}")
        from client.render import HEAD_SHORT
        assert district_cell(text, d, HEAD_SHORT[t]) == "Y"
    else:
        wood = row[3]
        p.type("buy wood")
        text = p.wait("You bought 1 wood")
        assert my_row(text)[3] == wood + 1
    p.type("plaice elf desk")
    p.wait("Cannot read 'plaice elf desk'")
    p.type("end")
    p.wait(lambda t: "✓ end" in t or "You ended your turn." in t, 20, "the end of our turn")

    p.key("C-c")
    p.wait("Leave the running game?")
    p.key("y")
    text = p.wait("EXITED 0")
    assert "Game log:" in text
    steps = gamelog.read(p.log)[1]
    assert ("cmd", 0, "end") in steps


def test_wide_layout_at_160x50(pane_factory):
    p = pane_factory(160, 50, "--seed 2 --pace 0 --bot random --think 0.01 --players 5")
    text = p.wait_prompt("Keep 3 of your 5 cards")
    assert "│ Log" in text and "Gardens" in text and "Library" in text
    p.type("help wizards")
    text = p.wait("The Wizards (interactive guild, §14)")
    p.key("Escape")
    p.wait(lambda t: "Guild" in t and "Markers" in t, 10, "the board again")
    p.type("keep #2 #3 #4")
    text = p.wait_prompt("Your placement")
    assert "You kept 3 cards" in text
    assert len(text.splitlines()[0]) <= 160
    p.type("score")
    text = p.wait("If the scoring were now (month 1)")
    assert "Would score" in text and "VP now" in text and "Elves" in text
    p.key("Escape")
    p.wait(lambda t: "Markers" in t, 10, "the board again")
    p.type("tableau")
    text = p.wait("Built cards")
    for name in ("Bo", "Cy", "Di", "Ed"):
        assert f" {name} — 0 built cards" in text, text
    p.key("Escape")
    p.wait(lambda t: "Markers" in t, 10, "the board again")
    p.key("C-c")
    p.wait("Leave the running game?")
    p.key("n")
    p.wait("Still playing.")
    p.type("quit")
    p.wait("Leave the running game?")
    p.key("y")
    p.wait("EXITED 0")


# --- the inline hint ---------------------------------------------------------------------

def test_the_hint_is_underlined_without_colour_and_right_arrow_takes_it(pane_factory):
    """Under NO_COLOR the suggestion is underlined (not like typed text), and → takes it."""
    p = pane_factory(80, 24, "--seed 1 --pace 0 --bot random --think 0.01",
                     {"NO_COLOR": "1"})
    p.wait_prompt("Keep 3 of your 5 cards")
    p.send("keep #0 #1")
    p.wait(lambda t: "keep #0 #1 #2 drop" in self_prompt(p, t), 10, "the hint")
    styled = [ln for ln in p.styled().splitlines() if "›" in ln][-1]
    typed, hint = styled.rsplit("›", 1)[1].split("keep #0 #1", 1)
    underline = re.compile(r"\x1b\[(?:[0-9;]*;)?4(?:;[0-9;]*)?m")
    assert underline.search(hint) and "#2 drop" in hint, styled
    assert not underline.search(typed), styled
    p.key("Right")
    p.key("Enter")
    p.wait_prompt("Your placement")
    steps = gamelog.read(p.log)[1]
    assert steps[-1][1] == 0 or any(s[1] == 0 and s[2].startswith("keep #0 #1 #2")
                                    for s in steps)
    # Tab after a whole word goes on to the next word
    p.send("place")
    p.wait("put a worker on a plank", 10, "the completion menu")
    p.key("Tab")
    p.send("elf")                      # typed right after Tab: Tab gave the space
    p.wait(lambda t: "› place elf" in self_prompt(p, t), 10, "'place elf' after Tab")
    p.key("C-u")
    p.key("C-c")
    p.wait("Leave the running game?")
    p.key("y")
    p.wait("EXITED 0")


def self_prompt(p, text):
    lines = [ln for ln in text.splitlines() if "›" in ln]
    return lines[-1] if lines else ""


def test_a_scoring_shows_its_breakdown_at_80x24(pane_factory):
    """Numbers everywhere: '1' (the first choice, no list needed) plays the game until the
    first scoring; its breakdown is on the screen until Esc."""
    p = pane_factory(80, 24, "--seed 3 --players 3 --pace 0 --bot random --think 0.01")
    p.wait_prompt("Keep 3 of your 5 cards")
    end = time.monotonic() + 150
    while time.monotonic() < end:
        # The log is the oracle: when it says the game waits for us, nothing can move
        # before our '1' (the bots' simultaneous choices aside), and a scoring that came
        # before our turn is in it; so '1' never lands on a scoring panel drawn meanwhile.
        game = p.game()
        if game.score_log:
            break
        text = p.text()
        if 0 in game.waiting_for() and "›" in self_prompt(p, text) \
                and not p.prompt(text).startswith("Waiting"):
            before = len(gamelog.read(p.log)[1])
            p.type("1")
            p.wait(lambda t: len(gamelog.read(p.log)[1]) > before or "Cannot" in t, 20,
                   "our command")
        else:
            time.sleep(0.05)
    text = p.wait("Scoring after month 3 (", 5)
    for needle in ("Elves", "Dwarves", "Gnomes", "Taxes lost", "Scored", "n rank VP"):
        assert needle in text, text
    assert all(len(ln) <= 80 for ln in text.splitlines())
    game = p.game()
    rec = game.score_log[0]
    scored = next(ln for ln in text.splitlines() if ln.startswith("Scored"))
    assert scored.split()[1] == f"+{rec['total'][0]}"
    p.key("Escape")
    p.wait(lambda t: "Markers" in t and "Scoring after month 3 (" not in t, 10, "the board")
    p.key("C-c")
    p.wait("Leave the running game?")
    p.key("y")
    p.wait("EXITED 0")
