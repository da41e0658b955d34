"""A replay that helps — months and scoring phases to jump to, every hand once the
game is over, the score-over-time chart (text and SVG), a quiet end on a closed pipe — and
the complete log of a networked game (every card known after the audit), which every peer
writes byte for byte the same."""

import io
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import belfort
from belfort.bots import make_bot
from belfort.undo import UndoStack
from client import chart, gamelog, main as cli
from client.driver import LocalDriver
from client.replay import Replay, run_plain

ROOT = Path(__file__).resolve().parents[2]


def local_game(directory, seed="nav", names=("You", "Bo", "Cy"), stop_round=None):
    """A local game (random bots and a scripted human), whole or stopped at a month.
    Returns the path and the engine state after every step (the oracle)."""
    d = LocalDriver(list(names), seed=seed, pace=0, bot_level="random",
                    log_path=Path(directory) / f"{seed}.jsonl")
    human = make_bot("random", "h")
    states = [d.game.copy()]
    subs = []
    d.subscribe(lambda ev: subs.append(d.game.copy()))
    while not d.game.is_over():
        d.play_bots()
        if d.game.is_over() or (stop_round and d.game.round >= stop_round):
            break
        d.submit(human.choose(d.game, 0))
    d.close()
    states += subs
    return d.log.path, states, d


@pytest.fixture(scope="module")
def whole(tmp_path_factory):
    return local_game(tmp_path_factory.mktemp("nav"))


def test_every_step_of_the_replay_is_the_state_the_game_had(whole):
    path, states, _ = whole
    r = Replay(path)
    assert r.problem is None and r.length == len(states) - 1
    for k in (len(states) - 1, 0, 100, 99, 25, 26, 180, 3):
        r.goto(k)
        assert belfort.to_json(r.game) == belfort.to_json(states[k])


def test_jump_to_each_month_and_each_scoring_phase(whole):
    path, states, d = whole
    r = Replay(path)
    rs = d.game.rs
    assert sorted(r.months) == list(range(1, rs.rounds + 1))
    for m in range(1, rs.rounds + 1):
        r.goto_month(m)
        assert r.game.round == m and r.game.phase == "placement"
        # the step before is still the month before
        assert states[r.pos - 1].round == m - 1 or states[r.pos - 1].phase == "keep"
    assert [m for m, _ in r.scorings] == list(rs.scoring_rounds)
    for i, (m, pos) in enumerate(r.scorings):
        r.goto(0)
        for _ in range(i + 1):
            r.next_scoring(1)
        assert r.pos == pos and len(r.game.score_log) == i + 1
        assert r.scoring_text().startswith(f"Scoring phase after month {m}: You +")
    r.goto(r.months[4])
    r.next_month(-1)
    assert r.game.round == 3
    r.next_month(1)
    assert r.game.round == 4


def test_every_hand_is_shown_once_the_game_is_over(whole, tmp_path):
    path, states, _ = whole
    r = Replay(path)
    assert r.complete
    r.goto_month(3)
    truth = states[r.pos]
    hands = r.hands()
    assert sorted(hands) == [0, 1, 2]
    for s in range(3):
        assert [c for c, _ in hands[s]] == truth.players[s].hand
        assert [t for _, t in hands[s]] == [belfort.CARD_TYPES[truth.types[c]]
                                            for c in truth.players[s].hand]
    text = "\n".join(t for _, t in r.hand_lines())
    assert "Bo's hand: #" in text and "Cy's hand: #" in text
    assert "Next in the draw pile: " in text
    r.switch_view()
    assert r.seat == 1 and "seen by Bo" in r.step_text()
    screen = "\n".join(ln.text() for ln in r.lines(120, 40))
    assert "You's hand: #" in screen or "You's hand: (none)" in screen
    # the hand on the board is Bo's now, and says so (it said "Your hand")
    row = next(ln for ln in screen.splitlines() if ln.startswith("Bo's hand "))
    assert all(f"#{c} " in row for c in truth.players[1].hand), row
    assert not any(ln.startswith("Your hand") for ln in screen.splitlines())
    r.switch_view(), r.switch_view()
    screen = "\n".join(ln.text() for ln in r.lines(120, 40))
    assert r.seat == 0 and any(ln.startswith("Your hand ") for ln in screen.splitlines())


def test_an_unfinished_game_shows_only_our_hand(tmp_path):
    path, states, _ = local_game(tmp_path, seed="part", stop_round=3)
    r = Replay(path)
    assert not r.complete
    r.goto(r.length)
    assert sorted(r.hands()) == [0]
    assert r.hand_lines() == [] and r.draw_top() == []
    assert r.switch_view() == 0
    out = io.StringIO()
    run_plain(path, out=out, month=2)
    assert "(the other hands are shown once the game is over)" in out.getvalue()
    assert "Bo's hand" not in out.getvalue()


def test_the_score_chart_in_text_and_svg(whole, tmp_path, capsys):
    path, states, d = whole
    r = Replay(path)
    final = [p.score for p in states[-1].players]
    assert r.series.points[-1] == (7, final)
    assert [m for m, _ in r.series.points] == list(range(8))
    text = chart.as_text(chart.text_chart(r.series))
    assert "Score by month" in text and "3*" in text and "7*" in text
    assert f"Y=You {final[0]}" in text and f"B=Bo {final[1]}" in text
    svg_path = tmp_path / "chart.svg"
    assert cli.main(["replay", str(path), "--chart", str(svg_path)]) == 0
    root = ET.parse(svg_path).getroot()
    ns = "{http://www.w3.org/2000/svg}"
    lines = root.findall(f".//{ns}polyline")
    assert len(lines) == 3 and all(len(pl.get("points").split()) == 8 for pl in lines)
    assert "You — " + str(final[0]) in svg_path.read_text()
    # writing it again is fine (it is our SVG); a log is never written over
    assert cli.main(["replay", str(path), "--chart", str(svg_path)]) == 0
    assert cli.main(["replay", str(path), "--chart", str(path)]) == 1
    assert "not an SVG chart" in capsys.readouterr().err
    assert gamelog.load(path).finished


def test_chart_escapes_names_and_shows_the_series_so_far(tmp_path):
    g = belfort.new_game(["<Ann & Co>", "Bo"], {"guilds": "normal"}, seed=1)
    s = chart.new_series(g, ["A", "B"])
    s.add(1, [0, 3])
    s.add(2, [12, 5])
    doc = chart.svg_chart(s, "x < y")
    root = ET.fromstring(doc)
    assert root.tag.endswith("svg") and "&lt;Ann &amp; Co&gt;" in doc
    text = chart.as_text(chart.text_chart(s))
    rows = {ln.split("┤")[0].strip(): ln for ln in text.splitlines() if "┤" in ln}
    # the step is 2 (12 in six rows): A's 12 on the top row, B's 5 rounded to 6
    assert "A" in rows["12"] and "B" not in rows["12"]
    assert "B" in rows["6"] and "A" not in rows["6"]
    assert rows["0"].count("AB") == 1                   # month 0: both at 0
    # the axis (the 0 row) runs unbroken around the letters on it
    assert set(rows["0"].split("┤")[1].rstrip()) == {"─", "A", "B"}


def test_the_replay_screen_fits_and_shows_the_chart_panel(whole):
    path, _, _ = whole
    r = Replay(path)
    for w, h in ((80, 24), (160, 50)):
        for k in (0, r.length // 2, r.length):
            r.goto(k)
            lines = r.lines(w, h)
            assert len(lines) == h and all(ln.width() == w for ln in lines)
    r.goto(r.length)
    screen = "\n".join(ln.text() for ln in r.lines(100, 40, show_chart=True))
    assert "Score by month" in screen and "Y=You" in screen
    r.goto_month(2)
    screen = "\n".join(ln.text() for ln in r.lines(100, 40, show_chart=True))
    assert "7*" in screen and "Y=You 0" in screen       # only month 1 is over: all at 0


def test_plain_jumps_print_the_table_and_every_hand(whole, capsys):
    path, states, _ = whole
    assert cli.main(["replay", str(path), "--month", "4", "--plain"]) == 0
    out = capsys.readouterr().out
    assert "Month 4/7" in out and "Bo's hand: #" in out and "Cy's hand: #" in out
    assert cli.main(["replay", str(path), "--scoring", "2"]) == 0
    out = capsys.readouterr().out
    assert "Scoring phase after month 5" in out
    assert cli.main(["replay", str(path), "--scoring", "4"]) == 1
    assert "no scoring phase 4 (it has 3)" in capsys.readouterr().out
    assert cli.main(["replay", str(path), "--step", "0"]) == 0
    assert "Start of the game" in capsys.readouterr().out


@pytest.mark.e2e   # starts a process
def test_a_closed_pipe_ends_the_replay_quietly(whole):
    """`belfort replay LOG --plain | head` must not end in BrokenPipeError."""
    path, _, _ = whole
    env = dict(os.environ, NO_COLOR="1")
    proc = subprocess.Popen([sys.executable, "-m", "client.main", "replay", str(path),
                             "--plain"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            cwd=ROOT, env=env)
    first = proc.stdout.readline()
    proc.stdout.close()                     # what `head -1` does
    err = proc.stderr.read().decode()
    code = proc.wait(timeout=60)
    assert first.startswith(b"Replay of ")
    assert "BrokenPipeError" not in err and "Traceback" not in err and err == ""
    assert code == 0


# --- the complete log of a networked game ---------------------------------------------------

def lan_game(n=3, seed=b"\x01lan-seed", undo_every=6):
    """A networked game as its peers see it: each peer a hidden game that learns only its
    own hand (the deck protocol stands in as a table that knows every card), commands and
    take-backs applied by every peer alike. Returns (table, peers, steps, undos)."""
    table = belfort.new_game(n, {"guilds": "normal"}, seed=seed)
    peers = [belfort.new_game(n, {"guilds": "normal"}, seed=seed, hidden=True)
             for _ in range(n)]
    stacks = [UndoStack() for _ in peers]
    table_stack = UndoStack()

    def deck_protocol():
        for s, p in enumerate(peers):
            for c in p.players[s].hand:
                if p.types[c] is None:
                    belfort.learn(p, c, table.types[c])
            while p.reveal_queue:
                c = p.reveal_queue[0]
                before = p.copy()
                belfort.reveal(p, c, table.types[c])
                stacks[s].record_reveal(before)
    deck_protocol()
    bot = belfort.RandomBot(7)
    steps, undos, i = [], 0, 0
    while not table.is_over():
        seat = table.waiting_for()[0]
        cmd = bot.choose(table, seat)
        n_step = len(steps)
        table_stack.apply(table, cmd, seat, tag=n_step)
        for p, st in zip(peers, stacks):
            st.apply(p, cmd, seat, tag=n_step)
        steps.append(("cmd", seat, cmd))
        deck_protocol()
        i += 1
        if i % undo_every == 0 and all(st.refusal(seat) is None for st in stacks):
            taken = table_stack.take_back(table, seat)
            for p, st in zip(peers, stacks):
                st.take_back(p, seat)
            steps.append(("undo", seat, taken.tag))
            undos += 1
    return table, peers, steps, undos


def test_every_peer_writes_the_same_complete_log_and_it_replays_every_hand(tmp_path):
    """After the audit every card is known: each peer writes the canonical log (header with
    every card's type, the commands and take-backs, the end) — byte-identical on every peer —
    and `belfort replay` replays it to the final state hash and shows every hand."""
    table, peers, steps, undos = lan_game()
    assert undos > 3
    seed = b"\x01lan-seed"
    cards = table.types                  # what the audit tells every peer
    texts = []
    for p in peers:
        assert belfort.state_hash(p) == belfort.state_hash(table)
        head = gamelog.header(p.names, {"guilds": "normal"}, seed, p.rs, hidden=True,
                              cards=cards)
        texts.append(gamelog.canonical_text(head, steps, game=p))
    assert len(set(texts)) == 1
    paths = [gamelog.write_new(tmp_path / f"peer{i}.jsonl", t) for i, t in enumerate(texts)]
    assert len({p.read_bytes() for p in paths}) == 1
    with pytest.raises(gamelog.LogError, match="never written over"):
        gamelog.write_new(paths[0], texts[0])
    log = gamelog.load(paths[1])
    assert log.problem is None and log.head["hidden"] and "local" not in paths[1].read_text()
    assert log.digest() == gamelog.load(paths[0]).digest()
    r = Replay(paths[1])
    assert r.problem is None and r.complete
    r.goto(r.length)
    assert belfort.state_hash(r.game) == belfort.state_hash(table) == log.end["hash"]
    for k in (r.months[2], r.months[5], r.length):
        r.goto(k)
        truth = gamelog.replay(log, upto=k).game
        for s, hand in r.hands().items():
            assert [c for c, _ in hand] == truth.players[s].hand
            assert all(t == belfort.CARD_TYPES[table.types[c]] for c, t in hand)
    out = io.StringIO()
    assert run_plain(paths[1], out=out) == 0
    assert "The replay reaches the logged final state." in out.getvalue()
    assert "took back" in out.getvalue()


def test_a_networked_log_without_its_card_list_stops_at_the_first_reveal(tmp_path):
    table, peers, steps, _ = lan_game(undo_every=10**9)
    head = gamelog.header(table.names, {"guilds": "normal"}, b"\x01lan-seed", table.rs,
                          hidden=True)
    p = gamelog.write_new(tmp_path / "nocards.jsonl", gamelog.canonical_text(head, steps))
    r = Replay(p)
    assert not r.complete and r.problem and "does not apply" in r.problem
    r.goto(r.length)


def test_a_networked_log_with_a_wrong_card_list_is_caught(tmp_path):
    table, peers, steps, _ = lan_game(undo_every=10**9)
    cards = list(table.types)
    pool0 = table.pool[0]
    cards[pool0] = (cards[pool0] + 1) % 10     # the audit's list disagrees with a reveal
    head = gamelog.header(table.names, {"guilds": "normal"}, b"\x01lan-seed", table.rs,
                          hidden=True, cards=cards)
    p = gamelog.write_new(tmp_path / "bad.jsonl", gamelog.canonical_text(head, steps, table))
    r = Replay(p)
    assert r.problem is not None


def wait_for(cond, timeout=20.0):
    import time
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise AssertionError("timed out")
        time.sleep(0.01)


def test_the_full_screen_replay_keys(whole):
    """Keys through prompt_toolkit's pipe input: next month, next scoring phase, the chart,
    a month by its number, back, quit."""
    import threading
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput
    from client import replay
    path, states, _ = whole
    replay.run_fullscreen.last = None
    with create_pipe_input() as inp:
        done = {}
        t = threading.Thread(target=lambda: done.setdefault(
            "code", replay.run_fullscreen(path, colour=False, input=inp,
                                          output=DummyOutput())))
        t.start()
        wait_for(lambda: replay.run_fullscreen.last is not None)
        r = replay.run_fullscreen.last
        inp.send_text("]]")                 # month 1, month 2
        wait_for(lambda: r.game.round == 2)
        inp.send_text("s")                  # the first scoring phase
        wait_for(lambda: len(r.game.score_log) == 1)
        inp.send_text("4")                  # month 4
        wait_for(lambda: r.game.round == 4)
        assert r.pos == r.months[4] and r.game.phase == "placement"
        inp.send_text("p")                  # one step back: month 3's end
        wait_for(lambda: r.pos == r.months[4] - 1)
        inp.send_text("q")
        t.join(10)
    assert done.get("code") == 0 and not t.is_alive()


def test_the_end_of_a_game_shows_the_chart(tmp_path):
    """At the end of a local game: the window's final panel and plain mode's final text."""
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput
    from client.app import BelfortApp
    from client.plain import PlainUI
    _, _, d = local_game(tmp_path, seed="end")
    with create_pipe_input() as inp:
        ui = BelfortApp(d, colour=False, input=inp, output=DummyOutput())
        ui.show_final()
        text = "\n".join(ln.text() if hasattr(ln, "text") else str(ln) for ln in ui.panel[1])
    assert "Score by month" in text and "Y=You" in text
    out = io.StringIO()
    PlainUI(d, inp=io.StringIO(""), out=out).run()
    assert "Score by month (* = scoring)" in out.getvalue()


def test_the_replay_shows_the_scoring_breakdown_and_esc_asks_before_leaving(whole):
    """`s` shows the same breakdown panel as live play; Esc closes a panel ('Esc: back to
    the board'), and on the board asks before leaving: any key but y stays."""
    import threading
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput
    from client import panels, render, replay
    path, states, _ = whole
    replay.run_fullscreen.last = None
    with create_pipe_input() as inp:
        done = {}
        t = threading.Thread(target=lambda: done.setdefault(
            "code", replay.run_fullscreen(path, colour=False, input=inp,
                                          output=DummyOutput())))
        t.start()
        wait_for(lambda: replay.run_fullscreen.last is not None)
        r = replay.run_fullscreen.last
        inp.send_text("s")
        wait_for(lambda: len(r.game.score_log) == 1 and r.panel == "scoring")
        text = render.as_text(r.lines(100, 60))
        live = render.as_text(panels.score_lines(r.view(), r.namer, r.game.rs, width=100,
                                                 just=r.scoring_month()))
        assert "Scoring after month" in text
        for line in live.split("\n")[:6]:
            assert line.rstrip() in text, line
        inp.send_text("\x1b")
        wait_for(lambda: r.panel is None)
        assert t.is_alive()
        inp.send_text("\x1b")
        wait_for(lambda: r.asking)
        assert "Leave the replay?" in render.as_text(r.lines(80, 24))
        inp.send_text("x")
        wait_for(lambda: not r.asking)
        assert t.is_alive()
        inp.send_text("\x1b")
        wait_for(lambda: r.asking)
        inp.send_text("y")
        t.join(10)
    assert done.get("code") == 0 and not t.is_alive()


def test_replay_with_no_file_offers_the_last_games(tmp_path, monkeypatch, capsys):
    """Nobody types a 32-hex-digit path: `belfort replay` alone lists the last games
    played on this machine (local games and LAN games' complete logs) to choose from."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    games = tmp_path / "belfort" / "games"
    games.mkdir(parents=True)
    first, _s, _d = local_game(games, seed="old", stop_round=2)
    os.utime(first, (1_000_000_000, 1_000_000_000))
    second, _s, _d = local_game(games, seed="new", names=("Ana", "Bo"), stop_round=2)
    lan = games / ("ab" * 16 + "-1")
    lan.mkdir()
    (lan / "game.jsonl").write_bytes(second.read_bytes())
    os.utime(lan / "game.jsonl", (1_500_000_000, 1_500_000_000))
    monkeypatch.setattr(sys, "stdin", io.StringIO("3\n"))
    assert cli.main(["replay", "--plain"]) == 0
    out = capsys.readouterr().out
    listed = out.split("Replay of")[0]
    assert listed.index(str(second)) < listed.index(str(lan / "game.jsonl")) \
        < listed.index(str(first)), listed
    assert "You, Bo, Cy" in listed and "Ana, Bo" in listed
    assert f"Replay of {first}" in out
    # nothing stored yet: said plainly
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "none"))
    assert cli.main(["replay", "--plain"]) == 1
    assert "No game log" in capsys.readouterr().err
