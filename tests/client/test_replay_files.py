"""Every file read is validated. Damaged or foreign logs given to `belfort replay`
and `belfort play --resume` get a clear message naming the file and what is wrong — never a
traceback — and are never written to. A log cut mid-line replays up to the cut. The reader
is fuzzed (truncated and flipped bytes)."""

import hashlib
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import belfort
from belfort.bots import make_bot
from client import gamelog, main as cli
from client.driver import LocalDriver, resume_game
from client.replay import Replay, run_plain


def finished_log(directory, seed="f1", names=("You", "Bo", "Cy"), undo=True):
    """A whole local game (random bots, a scripted human who takes some actions back)."""
    d = LocalDriver(list(names), seed=seed, pace=0, bot_level="random",
                    log_path=Path(directory) / f"{seed}.jsonl")
    human = make_bot("random", "human")
    k = 0
    while not d.game.is_over():
        d.play_bots()
        if d.game.is_over():
            break
        d.submit(human.choose(d.game, 0))
        k += 1
        if undo and k % 4 == 0 and d.undo_refusal() is None:
            d.undo()
            d.submit(human.choose(d.game, 0))
    d.close()
    return d.log.path


@pytest.fixture(scope="module")
def good(tmp_path_factory):
    return finished_log(tmp_path_factory.mktemp("good"))


def digest(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest() if Path(path).is_file() else None


def run_cli(argv, capsys):
    code = cli.main(argv)
    out = capsys.readouterr()
    assert "Traceback" not in out.err and "Traceback" not in out.out
    return code, out.out, out.err


def lines_of(path):
    return Path(path).read_bytes().split(b"\n")


def damage(tmp_path, good, kind):
    """A damaged copy of the good log: (path, words the message must contain)."""
    p = tmp_path / f"{kind}.jsonl"
    data = Path(good).read_bytes()
    lines = data.split(b"\n")[:-1]
    head = json.loads(lines[0])
    if kind == "missing":
        return tmp_path / "nowhere.jsonl", ["cannot read", "nowhere.jsonl"]
    if kind == "directory":
        p.mkdir()
        return p, ["is a directory"]
    if kind == "empty":
        p.write_bytes(b"")
        return p, ["is empty"]
    if kind == "png":
        p.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
        return p, ["not a Belfort game log", "not text"]
    if kind == "other-json":
        p.write_text('{"name": "my notes", "items": [1, 2]}\n')
        return p, ["not a Belfort game log", '"format": "belfort-log"']
    if kind == "text":
        p.write_text("Dear diary,\ntoday we played Belfort.\n")
        return p, ["not a Belfort game log", "not a JSON header"]
    if kind == "newer-version":
        head["version"] = 3
        p.write_bytes(json.dumps(head).encode() + b"\n" + b"\n".join(lines[1:]) + b"\n")
        return p, ["newer Belfort", "log version 3"]
    if kind == "bad-version":
        head["version"] = "two"
        p.write_bytes(json.dumps(head).encode() + b"\n")
        return p, ["unknown log version"]
    if kind == "header-cut":
        p.write_bytes(lines[0][:200])
        return p, ["cut short inside its first line"]
    if kind == "no-players":
        del head["players"]
        p.write_bytes(json.dumps(head).encode() + b"\n")
        return p, ["damaged header", '"players"']
    if kind == "ruleset-edited":
        head["ruleset"]["hand_limit"] += 1
        p.write_bytes(json.dumps(head).encode() + b"\n" + b"\n".join(lines[1:]) + b"\n")
        return p, ["ruleset does not match"]
    if kind == "ruleset-garbage":
        head["ruleset"] = {"rounds": "many"}
        head.pop("ruleset_sha256")
        p.write_bytes(json.dumps(head).encode() + b"\n")
        return p, ["ruleset is not valid"]
    if kind == "bad-setup":
        head["options"] = {"guilds": "chaotic"}
        p.write_bytes(json.dumps(head).encode() + b"\n")
        return p, ["cannot start a game", "chaotic"]
    raise AssertionError(kind)


FATAL = ["missing", "directory", "empty", "png", "other-json", "text", "newer-version",
         "bad-version", "header-cut", "no-players", "ruleset-edited", "ruleset-garbage",
         "bad-setup"]


@pytest.mark.parametrize("kind", FATAL)
def test_a_file_that_is_no_usable_log_gets_a_clear_message(tmp_path, good, capsys, kind):
    path, words = damage(tmp_path, good, kind)
    before = digest(path)
    for argv in (["replay", str(path), "--plain"], ["replay", str(path)],
                 ["play", "--resume", str(path), "--plain"],
                 ["replay", str(path), "--chart", str(tmp_path / "c.svg")]):
        code, out, err = run_cli(argv, capsys)
        assert code == 1, (argv, out, err)
        assert err.startswith("belfort: ") and str(path) in err, err
        for w in words:
            assert w in err, (w, err)
        assert digest(path) == before                      # never written to
    assert not (tmp_path / "c.svg").exists()


def rewrite(tmp_path, good, name, edit):
    """A copy of the good log with its lines changed by edit(list of byte lines)."""
    lines = Path(good).read_bytes().split(b"\n")[:-1]
    data = edit(lines)
    p = tmp_path / name
    p.write_bytes(data)
    return p


def test_a_log_cut_mid_line_replays_up_to_the_cut_and_says_so(tmp_path, good, capsys):
    lines = lines_of(good)[:-1]
    steps = [i for i, ln in enumerate(lines) if ln.startswith(b'{"cmd"')]
    cut_at = steps[len(steps) // 2]
    p = rewrite(tmp_path, good, "cut.jsonl",
                lambda ls: b"\n".join(ls[:cut_at]) + b"\n" + ls[cut_at][:17])
    before = digest(p)
    r = Replay(p)
    assert "cut mid-line at line" in r.problem and "up to the cut" in r.problem
    good_log = gamelog.load(good)
    assert r.length == len(gamelog.load(p).steps) > 0
    r.goto(r.length)
    expected = gamelog.replay(good_log, upto=r.length).game
    assert belfort.state_hash(r.game) == belfort.state_hash(expected)
    code, out, err = run_cli(["replay", str(p), "--plain"], capsys)
    assert code == 1
    assert f"Note: the log is cut mid-line at line {cut_at + 1}" in out
    assert "(the log ends before the game does)" in out
    assert digest(p) == before


@pytest.mark.parametrize("case", ["flipped-line", "command-does-not-apply",
                                  "steps-out-of-order", "after-the-end", "two-logs-joined",
                                  "forged-undo", "wrong-end-hash"])
def test_damage_after_the_header_stops_the_replay_there(tmp_path, good, capsys, case):
    lines = lines_of(good)[:-1]
    cmd_lines = [i for i, ln in enumerate(lines) if ln.startswith(b'{"cmd"')]
    mid = cmd_lines[len(cmd_lines) // 2]

    def edit(ls):
        ls = list(ls)
        if case == "flipped-line":
            ls[mid] = ls[mid][:5] + b"\xff" + ls[mid][6:]
        elif case == "command-does-not-apply":
            row = json.loads(ls[mid])
            row["cmd"] = "build #49 tower@0"
            ls[mid] = json.dumps(row).encode()
        elif case == "steps-out-of-order":
            ls[mid], ls[mid + 1] = ls[mid + 1], ls[mid]
        elif case == "after-the-end":
            ls.append(b'{"cmd":"pass","n":99999,"seat":0}')
        elif case == "two-logs-joined":
            ls = ls[:-1] + ls                       # an unfinished log, then another
        elif case == "forged-undo":
            row = json.loads(ls[mid])
            ls.insert(mid + 1, json.dumps({"n": row["n"] + 1, "step": row["n"],
                                           "undo": (row["seat"] + 1) % 3}).encode())
        elif case == "wrong-end-hash":
            row = json.loads(ls[-1])
            row["hash"] = "0" * 64
            ls[-1] = json.dumps(row).encode()
        return b"\n".join(ls) + b"\n"
    p = rewrite(tmp_path, good, f"{case}.jsonl", edit)
    before = digest(p)
    r = Replay(p)
    expect = {"flipped-line": f"line {mid + 1} is damaged",
              "command-does-not-apply": f"line {mid + 1}: command 'build #49 tower@0'",
              "steps-out-of-order": f"line {mid + 1}: step number",
              "after-the-end": "comes after the end of the game",
              "two-logs-joined": "a second header",
              "forged-undo": "undo does not apply",
              "wrong-end-hash": "does not reach the final state"}[case]
    assert r.problem and expect in r.problem, r.problem
    r.goto(r.length)                                    # the good part replays
    code, out, err = run_cli(["replay", str(p), "--plain"], capsys)
    assert expect in out and code == 1
    assert digest(p) == before
    if case not in ("after-the-end", "wrong-end-hash", "two-logs-joined"):
        # resuming goes on from the good part in a new file; the damaged one stays as is
        d, new_path, notes = resume_game(p, pace=0)
        d.close()
        assert new_path != p and expect in notes[0]
        assert digest(p) == before
        assert gamelog.load(new_path).problem is None


def test_version_1_logs_still_replay_and_resume(tmp_path, capsys):
    """Logs written before this change (version 1: our seat and the bots in the header)."""
    game = belfort.new_game(["You", "Bo"], {"guilds": "normal"}, seed="old")
    head = {"format": "belfort-log", "version": 1, "players": ["You", "Bo"],
            "options": {"guilds": "normal"}, "seed": "old", "ruleset_sha256": game.rs.sha256,
            "ruleset": game.rs.raw, "you": 0, "bots": {"1": "random"},
            "started": "2024-05-01T12:00:00"}
    rows = [head]
    bot = make_bot("random", "x")
    for n in range(12):
        seat = game.waiting_for()[0]
        cmd = bot.choose(game, seat)
        belfort.apply(game, cmd, seat)
        rows.append({"n": n, "seat": seat, "cmd": belfort.command_text(cmd)})
    p = tmp_path / "v1.jsonl"
    p.write_text("".join(json.dumps(r) + "\n" for r in rows))
    code, out, err = run_cli(["replay", str(p), "--plain"], capsys)
    assert code == 0, err
    d, path, notes = resume_game(p, pace=0)
    assert belfort.state_hash(d.game) == belfort.state_hash(game) and d.bot_specs[1]["level"] \
        == "random"
    d.close()


# --- fuzzing -----------------------------------------------------------------------------------

@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_fuzzed_logs_never_crash_the_reader(tmp_path_factory, good, data):
    """Truncate the log anywhere and flip random bytes: reading, replaying (plain, every
    step, the screen) and resuming either work on the good part or raise LogError, and the
    file is never changed."""
    original = Path(good).read_bytes()
    cut = data.draw(st.integers(0, len(original)), label="cut")
    blob = bytearray(original[:cut])
    for _ in range(data.draw(st.integers(0, 4), label="flips")):
        if blob:
            i = data.draw(st.integers(0, len(blob) - 1), label="at")
            blob[i] = data.draw(st.integers(0, 255), label="byte")
    p = tmp_path_factory.mktemp("fuzz") / "f.jsonl"
    p.write_bytes(bytes(blob))
    try:
        r = Replay(p)
    except gamelog.LogError as exc:
        assert str(p) in str(exc)
    else:
        for k in (r.length, 0, r.length // 2):
            r.goto(k)
            assert len(r.lines(80, 24)) == 24
        r.goto(r.length)
        import io
        run_plain(p, out=io.StringIO())
    try:
        d, new_path, _ = resume_game(p, pace=0)
    except gamelog.LogError:
        assert p.read_bytes() == bytes(blob)
    else:
        d.close()
        if new_path == p:       # a whole unfinished log goes on in place: lines are added
            assert p.read_bytes().startswith(bytes(blob))
        else:
            assert p.read_bytes() == bytes(blob)
