"""Leaving a game for good (net/session/departure.py), in memory: at 3-5 players the seat
goes to a bot at once, at 2 the game ends with a final table — calmly on both sides."""

import belfort
import pytest

from net.session.departure import LeaveRefused
from net.session.memnet import MemoryNetwork, fixed_master

BAD = ("cheat", "desync", "error")


def _game_until(n, seed, version):
    net = MemoryNetwork.create(n, seed=seed, level="random")
    net.start()
    net.run(until=lambda: net.peers[0].game is not None and net.peers[0].game.version > version)
    return net


def _leave(net, seat):
    """``seat``'s player leaves for good: its leave goes out, then its machine is gone."""
    leaver = net.peers[seat]
    leaver.leave_for_good(net.now)
    net._collect(leaver)
    net.down.add(seat)
    return leaver


@pytest.mark.parametrize("n,seat,version,seed", [(3, 2, 40, "lv1"), (3, 1, 200, "lv2"),
                                                 (4, 0, 120, "lv3")])
def test_leaving_for_good_hands_the_seat_to_a_bot_at_once(n, seat, version, seed):
    net = _game_until(n, seed, version)
    t_left = net.now
    _leave(net, seat)
    live = [p for p in net.peers if p.seat != seat]
    net.run(max_idle=400, until=lambda: all(seat in p.handed for p in live))
    for p in live:
        assert seat in p.handed, (p.seat, [a.text for a in p.alerts][-5:])
    # at once: well before the stall time a silent seat must wait out
    assert net.now - t_left < live[0].timing.timeout / 10
    net.run(max_idle=400)
    host = min(s for s in range(n) if s != seat)
    for p in live:
        assert p.status == "over", (p.seat, p.stop_reason)
        assert p.audit_result and p.audit_result[0], p.audit_result
        assert p.handed[seat]["host"] == host
        assert not [a for a in p.alerts if a.kind in BAD], [a.text for a in p.alerts]
        assert any("left the game for good" in a.text for a in p.alerts)
    assert len({belfort.state_hash(p.game) for p in live}) == 1


@pytest.mark.parametrize("seat,version,seed", [(1, 40, "le1"), (0, 150, "le2")])
def test_leaving_for_good_at_two_players_ends_the_game_calmly(seat, version, seed):
    net = _game_until(2, seed, version)
    leaver = net.peers[seat]
    leaver.leave_for_good(net.now)
    net.run(max_idle=400)
    for p in net.peers:
        assert p.status == "over", (p.seat, p.stop_reason)
        assert p.finished
        # every seat's deck secrets are published and checked, as at a normal end
        assert p.audit_result and p.audit_result[0], p.audit_result
        assert not [a for a in p.alerts if a.kind in BAD], [a.text for a in p.alerts]
    # both end at the same step, with the same table
    assert len({belfort.state_hash(p.game) for p in net.peers}) == 1
    assert not leaver.game.is_over()          # the rules did not end it: the leave did
    assert "because you left" in leaver.departure.ended
    other = net.peers[1 - seat]
    assert "left the game for good" in other.departure.ended
    assert "Nobody did anything wrong" in other.departure.ended
    assert not leaver.decision_needed() and not other.decision_needed()


def test_leaving_for_good_twice_or_after_the_end_is_refused():
    net = _game_until(2, "le3", 30)
    net.peers[0].leave_for_good(net.now)
    with pytest.raises(LeaveRefused):
        net.peers[0].leave_for_good(net.now)
    net.run(max_idle=400)
    with pytest.raises(LeaveRefused):
        net.peers[1].leave_for_good(net.now)


def test_no_decision_counts_after_leaving():
    """A leaver that goes on sending commands: refused on every peer, at the same place."""
    net = _game_until(3, "lv4", 40)
    leaver = net.peers[2]
    leaver.leave_for_good(net.now)
    g = leaver.game
    # a signed command of the leaver's seat after its leave, as a cheater would send it
    body = {"v": g.version, "cmd": ["pass"], "n": len(leaver.table.undo.steps)}
    leaver._emit(leaver.signer.sign("sess/cmd", body))
    net._collect(leaver)
    net.down.add(2)
    net.run(max_idle=400)
    for p in net.peers[:2]:
        assert p.status == "over", (p.seat, p.stop_reason)
        assert 2 in p.handed
    assert len({belfort.state_hash(p.game) for p in net.peers[:2]}) == 1


def test_an_end_nobody_asked_for_is_refused():
    """At 2 players a seat that 'ends' the game while the other has not left is named,
    and the game goes on."""
    net = _game_until(2, "le4", 30)
    cheat = net.peers[0]
    cheat._emit(cheat.signer.sign("sess/end", {"left": 1, "n": len(cheat.table.undo.steps),
                                               "v": cheat.game.version}))
    net._collect(cheat)
    net.pump()
    net.beat()          # (an accusation waits for the accused's heartbeat, doubt.py)
    other = net.peers[1]
    assert other.status == "playing"
    assert any(a.kind == "cheat" and "nobody left" in a.text for a in other.alerts)


def test_rejoin_after_leaving_replays_the_leave(tmp_path):
    """The leave is in the others' logs: a remaining peer that crashes after the handoff
    and rejoins from its log knows the seat left and is a bot's, and finishes the game
    like the others."""
    from net.node.storage import GameStore
    from net.session.core import SessionPeer
    from net.session.memnet import fixed_master
    net = MemoryNetwork.create(3, seed="lv5", level="random")
    st = GameStore.create(tmp_path, net.peers[0].cfg, 1, {"master": fixed_master("lv5", 1)})
    st.open_log()
    net.peers[1].log.store = st
    net.start()
    net.run(until=lambda: net.peers[0].game is not None and net.peers[0].game.version > 50)
    _leave(net, 2)
    net.run(max_idle=400, until=lambda: 2 in net.peers[1].handed)
    st.close()
    store = GameStore(st.dir)
    cfg, seat, sec, _meta = store.load()
    records, _notes = store.recover_log(cfg, seat)
    back = SessionPeer(cfg, seat, net.identities[seat], sec["master"], store=store, now=net.now)
    back.restore(records, net.now)
    store.open_log()
    assert 2 in back.departure.left and 2 in back.handed
    net.rejoin(1, back)
    net.run(max_idle=400)
    live = net.peers[:2]
    for p in live:
        assert p.status == "over", (p.seat, p.stop_reason)
        assert p.audit_result and p.audit_result[0]
        assert not [a for a in p.alerts if a.kind in BAD], [a.text for a in p.alerts]
    assert len({belfort.state_hash(p.game) for p in live}) == 1


def test_the_leavers_own_log_replays_its_leave(tmp_path):
    """The leave is a logged decision of the leaver: its peer restarted from its log (2
    players) ends the game at the same step, having sent the same leave again."""
    from net.node.storage import GameStore
    from net.session.core import SessionPeer
    net = MemoryNetwork.create(2, seed="le5", level="random")
    st = GameStore.create(tmp_path, net.peers[0].cfg, 1, {"master": fixed_master("le5", 1)})
    st.open_log()
    net.peers[1].log.store = st
    net.start()
    net.run(until=lambda: net.peers[0].game is not None and net.peers[0].game.version > 40)
    net.peers[1].leave_for_good(net.now)
    net.run(max_idle=400)
    sent = list(net.peers[1].sent)
    st.close()
    store = GameStore(st.dir)
    cfg, seat, sec, _meta = store.load()
    records, _notes = store.recover_log(cfg, seat)
    back = SessionPeer(cfg, seat, net.identities[seat], sec["master"], now=net.now)
    back.restore(records, net.now)
    assert back.departure.ours and back.status == "over"
    assert "because you left" in back.departure.ended
    assert back.sent == sent          # the same envelopes, the leave among them, byte for byte
    assert belfort.state_hash(back.game) == belfort.state_hash(net.peers[0].game)
