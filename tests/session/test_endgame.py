"""A peer killed at the very end of the game (issue 9, found by scripts/soak.py): the
others already hold every message they need from it, finish and audit, while it never
saw their last messages.  A finished peer stays reachable for it (up to the stall time,
never longer than every seat needs), so its rejoin finishes with the same final hash,
scores and audit; a peer whose others are all gone for good says so plainly."""

import belfort

from net.session.config import Timing
from net.session.core import SessionPeer
from net.session.memnet import MemoryNetwork, fixed_master
from net.session.storage import GameStore

from tests.session.test_rejoin import _reference, no_false_alarm

N, SEED = 3, "endgame"


def _kill_at_the_end(tmp_path, timing=None):
    """Play until the victim has sent its very last envelope (the others then need
    nothing more from it), and kill it before the others' last messages reach it."""
    ref = _reference(N, SEED)
    victim = N - 1
    last = len(ref.peers[victim].sent)
    net = MemoryNetwork.create(N, seed=SEED, level="random")
    if timing is not None:
        for p in net.peers:
            p.timing = p.liveness.timing = p.resync.timing = timing
    st = GameStore.create(tmp_path, net.peers[0].cfg, victim,
                          {"master": fixed_master(SEED, victim)})
    st.open_log()
    net.peers[victim].log.store = st
    net.start()
    # one frame at a time, so the kill falls exactly after the victim's last envelope
    while not net.down:
        while net.queue and not net.down:
            src, dst, data = net.queue.popleft()
            net.peers[dst].receive(data, net.now, src)
            net.delivered += 1
            net._collect(net.peers[dst])
            if len(net.peers[victim].sent) >= last:
                net.down.add(victim)              # SIGKILL: messages to it are lost
        if not net.down and not net.step_bots():
            net.now += 0.3
            for p in net.peers:
                p.tick(net.now)
                net._collect(p)
    st.close()
    assert not net.peers[victim].finished, "the scenario: the victim lacks the end"
    return net, victim, st


def _pass(net, gone, seconds, step=0.3):
    """Time passes; a peer that may leave (SessionPeer.may_leave) leaves for good."""
    end = net.now + seconds
    while net.now < end:
        net.pump()
        net.step_bots()
        net.pump()
        for p in net.peers:
            if p.seat not in net.down and p.may_leave(net.now):
                gone.add(p.seat)
                net.down.add(p.seat)
        net.now += step
        for p in net.peers:
            if p.seat not in net.down:
                p.tick(net.now)
                net._collect(p)


def _rejoin(net, victim, st):
    store = GameStore(st.dir)
    cfg, seat, sec, _meta = store.load()
    records, _notes = store.recover_log(cfg, seat)
    p = SessionPeer(cfg, seat, net.identities[seat], sec["master"], store=store, now=net.now,
                    timing=net.peers[0].timing)
    p.restore(records, net.now)
    store.open_log()
    net.peers[victim] = p
    net.down.discard(victim)
    p.liveness.reset(net.now)
    p.announce(net.now)
    net._collect(p)
    return p


def test_a_peer_killed_at_the_end_rejoins_and_finishes_like_the_others(tmp_path):
    net, victim, st = _kill_at_the_end(tmp_path)
    gone: set = set()
    _pass(net, gone, 10.0)          # the others finish; the victim is restarted 10 s later
    others = [p for p in net.peers if p.seat != victim]
    assert all(p.finished for p in others)
    p = _rejoin(net, victim, st)
    _pass(net, gone, 8.0)
    ref = _reference(N, SEED).peers[0]
    assert p.finished and p.status == "over", (p.status, [a.text for a in p.alerts])
    assert belfort.state_hash(p.game) == belfort.state_hash(ref.game)
    assert p.history == ref.history
    assert p.audit_result and p.audit_result[0], p.audit_result
    assert belfort.public_view(p.game)["players"] == belfort.public_view(ref.game)["players"]
    for q in net.peers:
        no_false_alarm(q)
    # every seat said it finished: everyone leaves at once
    assert gone == set(range(N)), gone
