"""Two recoveries after a rejoin whose log lost a decision (issue 9):

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
from net.session.storage import GameStore

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
    p.auto_handoff, p.handoff_level = old.auto_handoff, old.handoff_level
    p.restore(records, net.now)
    net.peers[seat] = p
    net.down.discard(seat)
    p.liveness.reset(net.now)
    p.announce(net.now)
    net._collect(p)
    return p


def _purpose(p):
    return f"sim/{p.game.version}"


def test_a_simultaneous_choice_is_recovered_from_its_commitment_alone(tmp_path):
    n, seed, victim = 3, "simcommit", 0
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
