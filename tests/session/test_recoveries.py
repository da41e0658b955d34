"""Two recoveries after a rejoin whose log lost a decision:

* a simultaneous choice (commit-reveal, docs/network.md "Lockstep") whose commitment went
  out but whose reveal never did, while the log lost the choice itself: the rejoiner
  recovers the command from its commitment alone (the nonce comes from its master
  secret) and the game ends as the uninterrupted one;
* a handoff vote lost by a voter's crash, after or before it went out: the handoff
  still completes, with the same result as without the crash.
"""

import belfort
import pytest

from net.session.core import SessionPeer
from net.session.intake import peek
from net.session.memnet import MemoryNetwork, fixed_master
from net.node.storage import GameStore

from tests.session.test_rejoin import _Otherwise, _reference, no_false_alarm


def _stored(tmp_path, net, seat, seed):
    st = GameStore.create(tmp_path, net.peers[0].cfg, seat, {"master": fixed_master(seed, seat)})
    st.open_log()
    net.peers[seat].log.store = st
    return st


def _records(st, net, seat):
    st.close()
    store = GameStore(st.dir)
    records, _notes = store.recover_log(net.peers[0].cfg, seat)
    return records


def _back(net, seat, seed, records):
    """``seat`` restarted from ``records`` (its log, as far as the crash left it)."""
    old = net.peers[seat]
    p = SessionPeer(old.cfg, seat, net.identities[seat], fixed_master(seed, seat),
                    now=net.now)
    p.configure_handoff(auto=old.handoffs.auto, level=old.handoffs.level)
    p.restore(records, net.now)
    return net.rejoin(seat, p)


def _purpose(p):
    return f"sim/{p.game.version}"


def test_a_simultaneous_choice_is_recovered_from_its_commitment_alone(tmp_path):
    n, seed, victim = 2, "simcommit", 0
    ref = _reference(n, seed)
    net = MemoryNetwork.create(n, seed=seed, level="random")
    st = _stored(tmp_path, net, victim, seed)
    net.start()
    v = net.peers[victim]
    # the keep of the opening (every seat keeps 3 of its 5 cards at once)
    net.run(until=lambda: v.decision_needed() and len(v.game.waiting_for()) > 1)
    purpose = _purpose(v)
    net.step_bots()                       # every seat commits; ours first (seat 0)
    # the crash: our commitment went out, our reveal did not (nor anything after it)
    out = v.take_outgoing()
    net.down.add(victim)
    kept = [(d, x) for d, x in out if peek(x)["type"] != "commit/reveal"]
    for dest, data in kept:
        for r in ([dest] if dest is not None else [s for s in range(n) if s != victim]):
            net.queue.append((victim, r, data))
    records = _records(st, net, victim)
    assert records[-1][0] == "submit", [r[0] for r in records[-8:]]
    lost = records[:-1]                   # the log lost the choice too
    net.run(max_idle=8)
    for q in net.peers[1:]:
        rnd = q.rounds.get(purpose)
        assert rnd is not None and victim in rnd.commitments and victim not in rnd.values
    net.bots[victim] = _Otherwise(net.bots[victim], net.peers[1].game.version + 1)
    p = _back(net, victim, seed, lost)
    net.run(max_idle=200)
    for q in net.peers:
        assert q.status == "over", (q.seat, q.stop_reason, [a.text for a in q.alerts][-5:])
        assert q.audit_result and q.audit_result[0]
        no_false_alarm(q)
        assert not [a.text for a in q.alerts if a.kind == "error"]
    assert p.history == ref.peers[0].history
    assert {belfort.state_hash(q.game) for q in net.peers} == \
        {belfort.state_hash(ref.peers[0].game)}


_HANDED: dict = {}


def _handed_reference(n, seed, version, target):
    """The same game, the same seat handed to a bot at the same point, nobody crashing."""
    from tests.session.test_handoff import _game_until, _hand_over
    if (n, seed) not in _HANDED:
        net = _game_until(n, seed, version)
        _hand_over(net, target)
        _HANDED[(n, seed)] = belfort.state_hash(net.peers[0].game)
    return _HANDED[(n, seed)]


@pytest.mark.parametrize("sent,logged", [(True, False), (False, True), (False, False)],
                         ids=["sent-lost-from-log", "logged-not-sent", "neither"])
def test_a_lost_handoff_vote_is_cast_again_after_a_rejoin(tmp_path, sent, logged):
    """Seat 2 goes silent and is handed to a bot; the voter at seat 1 crashes as it votes
    (its vote sent but lost from its log, logged but not sent, or neither) and restarts
    at once: its vote is taken back from the others, sent from its log, or cast again by
    itself, and the handoff completes with the same result as without the crash."""
    n, seed, version, target, voter = 3, "hvote", 60, 2, 1
    want = _handed_reference(n, seed, version, target)
    net = MemoryNetwork.create(n, seed=seed, level="random")
    st = _stored(tmp_path, net, voter, seed)
    net.start()
    net.run(until=lambda: net.peers[0].game is not None and net.peers[0].game.version > version)
    net.down.add(target)
    for p in net.peers[:target]:
        p.configure_handoff(auto=1.0, level="random")
    v = net.peers[voter]
    while voter not in net.down:
        net.pump()
        net.step_bots()
        net.now += 0.3
        for p in net.peers:
            if p.seat in net.down:
                continue
            p.tick(net.now)
            if p is v and voter in v.handoffs.votes.get(target, {}):
                out = v.take_outgoing()          # the crash, as it votes
                net.down.add(voter)
                if sent:
                    for dest, data in out:
                        for r in ([dest] if dest is not None else
                                  [s for s in range(n) if s != voter]):
                            net.queue.append((voter, r, data))
            else:
                net._collect(p)
    records = _records(st, net, voter)
    cut = max(i for i, r in enumerate(records) if r[0] == "handoff")
    net.pump()
    net.now += 0.3
    p = _back(net, voter, seed, records if logged else records[:cut])
    net.run(max_idle=400)
    live = net.peers[:target]
    for q in live:
        assert q.status == "over", (q.seat, q.stop_reason, [a.text for a in q.alerts][-5:])
        assert q.audit_result and q.audit_result[0], q.audit_result
        assert target in q.handed and q.handed[target]["host"] == 0
        bad = [a.text for a in q.alerts if a.kind in ("cheat", "desync", "error")]
        assert not bad, (q.seat, bad)
    assert {belfort.state_hash(q.game) for q in live} == {want}
    assert voter in p.handoffs.votes[target]
    cast_again = [a.text for a in p.alerts if a.text == "you voted to hand P2's seat to a bot"]
    assert len(cast_again) == (0 if sent or logged else 1), cast_again


def test_a_suspended_peer_does_not_count_its_sleep_against_a_step_owed_to_it():
    """Found by scripts/soak.py: a peer stopped longer than the step deadline (15 s) while
    another seat owed it an automatic step woke and named that seat as withholding it,
    though that seat had been connected and sending all along.  The deadline's clock, like
    liveness's, does not run while our own process does not."""
    net = MemoryNetwork.create(3, seed="wake", level="random")
    # seat 2 heartbeats but has not committed to its seed share yet: a step it owes
    for p in net.peers[:2]:
        p.start(net.now)
        net._collect(p)
    net.pump()
    sleeper = net.peers[0]
    net.beat(4)
    assert sleeper.waits.clocks.since, "seat 2 owes its seed commitment"
    net.now += sleeper.timing.step_deadline + 5     # seat 0 is stopped (SIGSTOP, suspend)
    net.beat(4)
    named = [a.text for a in sleeper.alerts if a.kind == "cheat"]
    assert not named, named
    net.peers[2].start(net.now)           # it sends its step: the game goes on
    net._collect(net.peers[2])
    net.run(max_idle=200)
    assert all(p.status == "over" for p in net.peers)
