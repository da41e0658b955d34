"""The evening at one table (net/session/evening.py), in memory: the answers about
another game, checked like every control frame; the next game's config, the same on
every peer; the evening's results."""

import belfort
import pytest

from net.crypto import encode_envelope
from net.session.evening import Evening, next_config, next_players, start_order
from net.session.memnet import MemoryNetwork


def _finished(n, seed):
    net = MemoryNetwork.create(n, seed=seed, level="random")
    net.start()
    net.run(max_idle=400)
    assert all(p.status == "over" and p.audit_result[0] for p in net.peers)
    return net


def test_again_answers_reach_every_seat_and_a_yes_stands():
    net = _finished(3, "ev1")
    net.peers[1].again_answer(True, net.now)
    net._collect(net.peers[1])
    net.peers[2].again_answer(False, net.now)
    net._collect(net.peers[2])
    net.pump()
    a = net.peers[0].again.answers
    assert a == {1: True, 2: False}
    assert any("wants another game" in x.text for x in net.peers[0].alerts)
    assert next_players(3, {**a, 0: True}, range(3), lambda s: False) == [0, 1]
    # an answer not yet in, from a seat still there: not decided yet
    assert next_players(3, {0: True}, range(3), lambda s: False) is None
    assert next_players(3, {0: True}, range(3), lambda s: s == 2) is None
    assert next_players(3, {0: True, 1: True}, range(3), lambda s: s == 2) == [0, 1]


def test_a_forged_or_malformed_answer_is_refused():
    net = _finished(3, "ev2")
    p1, p0 = net.peers[1], net.peers[0]
    # seat 1 signs an answer claiming seat 2's seat: its own key does not check as seat 2's
    body = {"type": "ctl/again", "game": p1.cfg.game_id, "seat": 2, "seq": 0, "next": 2,
            "yes": True}
    net.inject(1, 0, encode_envelope(p1.identity.sign_message(body)))
    # a malformed one of its own
    bad = {**body, "seat": 1, "yes": "sure"}
    net.inject(1, 0, encode_envelope(p1.identity.sign_message(bad)))
    # one about another game at this table (stale): ignored quietly
    stale = {**body, "seat": 1, "next": 7}
    net.inject(1, 0, encode_envelope(p1.identity.sign_message(stale)))
    net.pump()
    assert p0.again.answers == {}
    cheats = [a.text for a in p0.alerts if a.kind == "cheat"]
    assert any("bad signature" in t for t in cheats), cheats
    assert any("malformed answer about another game" in t for t in cheats), cheats


@pytest.mark.parametrize("players", [[0, 1, 2], [0, 2], [1, 2]])
def test_the_next_config_is_the_same_everywhere_with_the_order_rotated(players):
    net = _finished(3, "ev3")
    cfgs = [next_config(p.cfg, p.seed, 2, players) for p in net.peers]
    assert len({c.game_id for c in cfgs}) == 1
    cfg, old = cfgs[0], net.peers[0].cfg
    assert cfg.game_id != old.game_id
    assert cfg.keys == [old.keys[s] for s in players]
    assert cfg.names == [old.names[s] for s in players]
    before = [s for s in start_order(old, net.peers[0].seed) if s in players]
    after = [players[i] for i in start_order(cfg, b"")]     # crests given: no seed needed
    assert after == before[1:] + before[:1]
    # a game of it deals with those crests
    g = belfort.new_game(cfg.names, cfg.options, seed=b"x", hidden=True)
    assert sorted(g.crest[:len(players)]) == list(range(1, len(players) + 1))
    # the game after that is another again
    assert next_config(cfg, b"seed", 3, list(range(len(players)))).game_id != cfg.game_id


def test_the_evening_counts_games_wins_and_points():
    net = _finished(2, "ev4")
    p = net.peers[0]
    ev = Evening()
    ev.record(p.cfg, p.game, ())
    ev.record(p.cfg, p.game, ())           # the same game twice counts once
    rows = ev.rows()
    assert [r["games"] for r in rows] == [1, 1]
    assert sum(r["wins"] for r in rows) >= 1
    assert {r["points"] for r in rows} == {pl["score"] for pl in
                                           belfort.public_view(p.game)["players"]}
    # a player who left gets no win, whatever the points
    ev2 = Evening()
    winner = p.game.result["winners"][0]
    ev2.record(p.cfg, p.game, {winner})
    rows2 = {r["name"]: r for r in ev2.rows()}
    assert rows2[p.cfg.names[winner]]["wins"] == 0
    assert rows2[p.cfg.names[1 - winner]]["wins"] == 1
    assert "after one game:" in str(ev2.text())
