"""The complete log every peer writes after the end-of-game audit: the same bytes
on every peer, every hand and the draw pile in it, and `belfort replay` reaches the final
state hash with every hand shown. Damaged files get a clear message."""

import io
import json

import belfort
import pytest
from takeback_helpers import game_with_take_backs

from client import gamelog
from client import main as client_main
from client.replay import Replay, run_plain
from net.node import fulllog


def written(net, tmp_path):
    """Each peer writes its log in a directory of its own; the paths."""
    paths = []
    for p in net.peers:
        text = fulllog.complete_text(p)
        assert text is not None, (p.seat, p.status, p.audit_result)
        d = tmp_path / f"peer{p.seat}"
        d.mkdir()
        paths.append(fulllog.write(d, text))
    return paths


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_every_peer_writes_the_same_complete_log_and_it_replays(n, tmp_path):
    net = game_with_take_backs(n, f"full{n}", rounds=2)
    for p in net.peers:
        assert p.status == "over" and p.audit_result[0], (p.stop_reason, p.audit_result)
    paths = written(net, tmp_path)
    data = {p.read_bytes() for p in paths}
    assert len(data) == 1                                  # byte-identical on every peer
    log = gamelog.load(paths[-1])
    assert log.problem is None and log.head["hidden"] and log.finished
    assert any(s[0] == "undo" for s in log.steps)          # the take-backs are in it
    final = belfort.state_hash(net.peers[0].game)
    assert log.end["hash"] == final
    # every card id's type is the audited deck's, the draw pile's included
    truth = net.peers[0]
    assert len(log.cards) == truth.game.next_id
    for s, p in enumerate(net.peers):
        for c in p.game.players[s].hand:
            assert log.cards[c] == p.game.types[c]       # each seat knew its own hand
    r = Replay(paths[0])
    assert r.problem is None and r.complete
    r.goto(r.length)
    assert belfort.state_hash(r.game) == final
    hands = r.hands()
    assert sorted(hands) == list(range(n))                 # every hand is shown
    assert all(t is not None for hand in hands.values() for _c, t in hand)
    assert all(t is not None for _c, t in r.draw_top(3))
    # a month in the middle: the hands as they were, every card named
    r.goto(r.months[2])
    assert all(t is not None for hand in r.hands().values() for _c, t in hand)


def test_the_log_is_never_written_over(tmp_path):
    net = game_with_take_backs(2, "full-over", rounds=1)
    text = fulllog.complete_text(net.peers[0])
    path = fulllog.write(tmp_path, text)
    assert fulllog.write(tmp_path, text) == path           # the same game again: kept
    with pytest.raises(OSError, match="another game"):
        fulllog.write(tmp_path, text.replace('"end":true', '"end":true ', 1))
    assert path.read_text() == text


def test_no_complete_log_before_the_audit():
    from net.session.memnet import MemoryNetwork
    net = MemoryNetwork.create(2, seed="full-early")
    net.start()
    net.run(until=lambda: net.peers[0].game is not None and net.peers[0].game.version > 30)
    assert fulllog.complete_text(net.peers[0]) is None


@pytest.fixture(scope="module")
def good_log(tmp_path_factory):
    net = game_with_take_backs(3, "full-damage", rounds=1)
    d = tmp_path_factory.mktemp("good")
    return fulllog.write(d, fulllog.complete_text(net.peers[1]))


def replay_says(path, capsys):
    """`belfort replay PATH --plain`: (exit code, everything it printed)."""
    code = client_main.main(["replay", str(path), "--plain"])
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    return code, out.out + out.err


def test_the_good_log_replays_to_its_final_state(good_log, capsys):
    code, text = replay_says(good_log, capsys)
    assert code == 0 and "The replay reaches the logged final state." in text


def _damaged(good_log, tmp_path, change):
    lines = good_log.read_text().split("\n")
    path = tmp_path / "damaged.jsonl"
    path.write_text(change(lines))
    return path


def test_a_log_cut_mid_line_replays_up_to_the_cut(good_log, tmp_path, capsys):
    path = _damaged(good_log, tmp_path, lambda ls: "\n".join(ls)[:len("\n".join(ls)) // 2])
    code, text = replay_says(path, capsys)
    assert "cut mid-line" in text
    assert path.read_bytes() == good_log.read_bytes()[:len(path.read_bytes())]   # untouched


def test_a_wrong_card_in_the_audited_list_is_caught(good_log, tmp_path, capsys):
    def change(lines):
        head = json.loads(lines[0])
        c = gamelog.replay(gamelog.load(good_log)).game.pool[0]    # turned up from the deck
        head["cards"][c] = belfort.CARD_TYPES[(belfort.CARD_TYPES.index(head["cards"][c]) + 1)
                                              % len(belfort.CARD_TYPES)]
        return "\n".join([gamelog.canonical_line(head)] + lines[1:])
    code, text = replay_says(_damaged(good_log, tmp_path, change), capsys)
    assert code != 0 or "does not" in text
    assert "does not" in text


def test_a_wrong_type_for_a_built_card_is_caught(good_log, tmp_path, capsys):
    def change(lines):
        head = json.loads(lines[0])
        built = next(json.loads(ln)["cmd"] for ln in lines if '"cmd":"build #' in ln)
        c = int(built.split()[1][1:])
        other = (belfort.CARD_TYPES.index(head["cards"][c]) + 1) % len(belfort.CARD_TYPES)
        head["cards"][c] = belfort.CARD_TYPES[other]
        return "\n".join([gamelog.canonical_line(head)] + lines[1:])
    code, text = replay_says(_damaged(good_log, tmp_path, change), capsys)
    assert "in the log's card list" in text


def test_a_changed_command_is_named_with_its_line(good_log, tmp_path, capsys):
    def change(lines):
        k = next(i for i, ln in enumerate(lines) if '"cmd":"place' in ln)
        row = json.loads(lines[k])
        row["cmd"] = "build #0 tower@1"
        lines[k] = gamelog.canonical_line(row)
        return "\n".join(lines)
    code, text = replay_says(_damaged(good_log, tmp_path, change), capsys)
    assert "does not apply" in text and "line " in text


def test_a_changed_final_hash_is_reported(good_log, tmp_path, capsys):
    def change(lines):
        row = json.loads(lines[-2])
        row["hash"] = "0" * 64
        lines[-2] = gamelog.canonical_line(row)
        return "\n".join(lines)
    code, text = replay_says(_damaged(good_log, tmp_path, change), capsys)
    assert "does not reach the final state" in text


@pytest.mark.parametrize("header_change", [
    lambda h: h.update(cards=["castle"] * 3),
    lambda h: h.update(ruleset_sha256="0" * 64),
    lambda h: h.update(players=[]),
])
def test_a_damaged_header_gets_a_clear_message(good_log, tmp_path, capsys, header_change):
    def change(lines):
        head = json.loads(lines[0])
        header_change(head)
        return "\n".join([json.dumps(head)] + lines[1:])
    path = _damaged(good_log, tmp_path, change)
    code, text = replay_says(path, capsys)
    assert code == 1 and str(path) in text


def test_a_replay_of_a_damaged_log_is_plain_text(good_log, tmp_path):
    path = _damaged(good_log, tmp_path, lambda ls: "\n".join(ls[:-8]) + "\n{\"cmd\": 7}\n")
    out = io.StringIO()
    run_plain(path, out=out)
    assert "damaged" in out.getvalue()
