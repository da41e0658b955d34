"""The late target of a handoff: seat 0 votes to hand seat 2 over, then seat 2's
late messages arrive before the other seats voted.  Whatever the order, the attempt ends
the same way on every peer, without waiting for the stall time: called off by a seat that
sees seat 2 playing (``hand/no``), or completed with a cut that includes what arrived
before the last vote.  In memory; the race reproduced exactly."""

import random

import belfort
import pytest

from net.session.core import SessionPeer
from net.session.memnet import MemoryNetwork, fixed_master
from net.node.storage import GameStore
from orders import run_shuffled

TARGET = 2


def _late_target(n, seed, store_dir=None):
    """A game where the target's messages (its decision included) are held back while
    seat 0 votes; returns (net, held frames).  ``store_dir``: seat 1 logs to disk there."""
    net = MemoryNetwork.create(n, seed=seed)
    if store_dir is not None:
        net.store = GameStore.create(store_dir, net.peers[1].cfg, 1,
                                     {"master": fixed_master(seed, 1)})
        net.store.open_log()
        net.peers[1].log.store = net.store
    net.start()
    net.run(until=lambda: all(p.game is not None and p.game.version > 30 for p in net.peers))
    held = []
    net.tamper[TARGET] = lambda dest, d: held.append((dest, d)) or None
    net.run(max_idle=3)
    t = net.peers[TARGET]
    if t.decision_needed():
        t.submit(net.bots[TARGET].choose(t.game, TARGET), net.now)
        net._collect(t)
    assert held, "the target had nothing late to deliver"
    net.peers[0]._vote(TARGET, net.now)
    net._collect(net.peers[0])
    del net.tamper[TARGET]
    return net, held


def _deliver_late_first(net, held):
    """The target's late frames reach everyone before seat 0's vote does."""
    rest = list(net.queue)
    net.queue.clear()
    for dest, data in held:
        for r in ([dest] if dest is not None else [s for s in range(len(net.peers))
                                                    if s != TARGET]):
            net.queue.append((TARGET, r, data))
    net.queue.extend(rest)


def _no_alarm(p):
    return not [a.text for a in p.alerts if a.kind in ("cheat", "desync", "error")]


@pytest.mark.parametrize("n", [3, 4])
def test_late_target_is_seen_playing_and_the_handoff_called_off(n):
    net, held = _late_target(n, f"late{n}")
    _deliver_late_first(net, held)
    stall = net.peers[0].timing.timeout
    net.run(max_idle=60)
    for p in net.peers:
        assert p.status == "over", (p.seat, p.stop_reason, [a.text for a in p.alerts][-4:])
        assert not p.handed and _no_alarm(p), [a.text for a in p.alerts]
        assert p.handoffs.attempt == {TARGET: 1} and not p.handoffs.votes[TARGET]
        assert "hand/share" not in [_type(e) for e in p.sent]
    assert any(_type(e) == "hand/no" for p in net.peers for e in p.sent)
    assert len({belfort.state_hash(p.game) for p in net.peers}) == 1
    assert net.now < stall / 10          # not a wait for the stall time


def test_late_target_then_every_vote_completes_the_handoff_with_it():
    """Seat 1 votes right after the late messages reached it: the cut is its ``have``,
    which includes them; seat 0 (which dropped them past its own vote) gets them by
    resync, and both rebuild the same seat."""
    net, held = _late_target(3, "late-yes")
    _deliver_late_first(net, held)
    net.pump()
    p0, p1 = net.peers[0], net.peers[1]
    p1._vote(TARGET, net.now)
    net._collect(p1)
    net.down.add(TARGET)
    for p in (p0, p1):
        p.configure_handoff(level="random")
    net.run(max_idle=60)
    cut = p1.handoffs.handed[TARGET]["cut"]
    assert cut > p0.handoffs.votes[TARGET][0]       # the late messages are below the cut
    for p in (p0, p1):
        assert p.status == "over" and _no_alarm(p), [a.text for a in p.alerts]
        assert p.handed[TARGET]["cut"] == cut
    assert belfort.state_hash(p0.game) == belfort.state_hash(p1.game)


def test_an_objection_is_made_again_byte_for_byte_on_rejoin(tmp_path):
    """The objection is a decision of the seat (it depends on when it heard from the
    target): it is logged, and a rejoin from the log makes every envelope again, the
    ``hand/no`` included, byte for byte."""
    net, held = _late_target(3, "late3", store_dir=tmp_path)
    _deliver_late_first(net, held)
    p1 = net.peers[1]
    v0 = p1.game.version
    net.run(until=lambda: "hand/no" in [_type(e) for e in p1.sent] and p1.game.version > v0 + 5)
    assert "hand/no" in [_type(e) for e in p1.sent]
    net.store.close()
    store = GameStore(net.store.dir)
    cfg, seat, sec, _meta = store.load()
    records, notes = store.recover_log(cfg, seat)
    assert notes == [] and any(r[0] == "handoff-no" for r in records)
    again = SessionPeer(cfg, seat, net.identities[seat], sec["master"], now=net.now)
    again.restore(records, net.now)
    assert again.sent == p1.sent[:len(again.sent)] and len(again.sent) >= \
        1 + [_type(e) for e in p1.sent].index("hand/no")
    assert again.handoffs.attempt == p1.handoffs.attempt


def _resolved(p):
    return TARGET in p.handed or p.handoffs.attempt.get(TARGET, 0) > 0


@pytest.mark.parametrize("seed", range(4))
def test_any_delivery_order_ends_the_same_way_on_every_peer(seed):
    """The same race under shuffled deliveries (every link FIFO): the outcome — called
    off or handed over — is the same on every peer, nobody is named, and the game goes on
    with the same state hash at every phase on every peer."""
    n = 3 + seed % 2
    net, held = _late_target(n, f"late-any{seed}")
    _deliver_late_first(net, held)
    rng = random.Random(seed)
    if seed >= 2:                    # another seat also votes, racing the late messages
        voter = net.peers[1]
        voter._vote(TARGET, net.now)
        net._collect(voter)
    for p in net.peers:
        p.configure_handoff(level="random")
    v0 = net.peers[0].game.version
    live = lambda: [p for p in net.peers if not p.handoffs.ours_handed]   # noqa: E731
    run_shuffled(net, rng, max_idle=80, until=lambda: all(
        _resolved(p) and (p.finished or p.game.version > v0 + 25) for p in live()))
    outcome = {(tuple(sorted(p.handed)), p.handoffs.attempt.get(TARGET, 0)) for p in live()}
    assert len(outcome) == 1, outcome
    for p in live():
        assert p.status in ("playing", "over"), (p.seat, p.stop_reason)
    for p in net.peers:              # the late target too: it is told, not alarmed
        assert _no_alarm(p), [a.text for a in p.alerts]
    versions = set.intersection(*(set(p.hashes.my_hashes) for p in live()))
    assert max(versions) > v0
    for v in versions:
        assert len({p.hashes.my_hashes[v][2] for p in live()}) == 1, v


def _type(frame):
    from orders import body_of
    return body_of(frame)["type"]
