"""The session core on the in-memory network: the same code as the ZeroMQ peers."""

import functools
import os

import belfort
import pytest

from net.crypto import encode_envelope
from net.session.core import SessionPeer
from net.session.memnet import MemoryNetwork, fixed_master
from net.node.storage import GameStore


def play(n, seed="m1", **kw):
    net = MemoryNetwork.create(n, seed=seed, **kw)
    net.start()
    net.run()
    return net


@functools.cache
def uninterrupted(n, seed):
    """(final hash, command history) of the game from ``seed``, played once per process."""
    net = play(n, seed=seed)
    return belfort.state_hash(net.peers[0].game), net.peers[0].history


def assert_agree(net, honest=None):
    peers = [net.peers[s] for s in (honest if honest is not None else range(len(net.peers)))]
    for p in peers:
        assert p.status == "over", (p.seat, p.stop_reason, [a.text for a in p.alerts])
        assert p.audit_result and p.audit_result[0], p.audit_result
    assert len({belfort.state_hash(p.game) for p in peers}) == 1
    assert len({p.game.version for p in peers}) == 1


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_full_games_agree_and_audit(n):
    net = play(n)
    assert_agree(net)
    for p in net.peers:
        assert not p.alerts, [a.text for a in p.alerts]
        # every peer ends with the same command history
        assert p.history == net.peers[0].history


def test_same_secrets_same_game():
    a, b = play(3, seed="det"), play(3, seed="det")
    assert belfort.state_hash(a.peers[0].game) == belfort.state_hash(b.peers[0].game)
    assert a.peers[0].history == b.peers[0].history


def test_hidden_hands_stay_hidden():
    net = MemoryNetwork.create(3, seed="hid")
    net.start()
    net.run(until=lambda: net.peers[0].game is not None and net.peers[0].game.version > 20)
    g0, g1 = net.peers[0].game, net.peers[1].game
    for c in g1.players[1].hand:
        if not g1.public[c]:
            assert g0.types[c] is None          # seat 0 does not know seat 1's hidden cards
            assert g1.types[c] is not None      # seat 1 does
    # and the draw pile's order is known to nobody
    for p in net.peers:
        assert all(p.game.types[c] is None for c in p.game.draw)


@pytest.mark.parametrize("kill_after", [30, 400, 1500])
def test_rejoin_from_log_same_result(tmp_path, kill_after):
    ref_hash, ref_history = uninterrupted(4, "rj")
    net = MemoryNetwork.create(4, seed="rj")
    victim = 2
    st = GameStore.create(tmp_path, net.peers[0].cfg, victim, {"master": fixed_master("rj",
                                                                                      victim)})
    net.peers[victim].log.store = st
    net.start()
    net.run(until=lambda: net.delivered >= kill_after)
    net.down.add(victim)          # crash: messages to it are lost
    st.close()
    net.run(max_idle=8)
    others = [p for p in net.peers if p.seat != victim]
    assert any(a.kind == "disconnect" and a.seat == victim for a in others[0].alerts)
    assert "disconnected" in others[0].view.waiting_text(net.now) \
        or not others[0].view.waiting_seats() or victim not in others[0].view.waiting_seats()
    st2 = GameStore(st.dir)
    cfg, seat, sec, _ = st2.load()
    p = SessionPeer(cfg, seat, net.identities[seat], sec["master"], store=st2, now=net.now)
    p.restore(st2.records(), net.now)
    st2.open_log()
    net.peers[victim] = p
    net.down.discard(victim)
    p.announce()
    net._collect(p)
    net.run()
    assert_agree(net)
    assert belfort.state_hash(p.game) == ref_hash
    assert p.history == ref_history


def test_rejoin_with_its_last_decision_lost_goes_on(tmp_path):
    """A rejoining peer whose log lacks its own last decision (a machine crash
    before the fsync, a cut log) takes it back from the others (they hold it, signed)
    and makes it again exactly; it must then process what the others sent meanwhile,
    which waited for that decision (SessionPeer.submit did not pump)."""
    ref_hash, ref_history = uninterrupted(3, "lost")
    net = MemoryNetwork.create(3, seed="lost")
    victim = 1
    st = GameStore.create(tmp_path, net.peers[0].cfg, victim, {"master": fixed_master("lost",
                                                                                      victim)})
    net.peers[victim].log.store = st
    net.start()
    net.run(until=lambda: net.delivered >= 500)
    net.down.add(victim)
    st.close()
    net.run(max_idle=8)
    records = GameStore(st.dir).records()
    # cut the log before its last decision that the others answered (their messages
    # after it are what must not stay stuck in the rejoiner's queue)
    cut = max(i for i, r in enumerate(records) if r[0] == "submit" and
              any(q[0] == "in" for q in records[i + 1:]))
    cfg, seat, sec, _ = GameStore(st.dir).load()
    p = SessionPeer(cfg, seat, net.identities[seat], sec["master"], now=net.now)
    p.restore(records[:cut], net.now)
    net.peers[victim] = p
    net.down.discard(victim)
    p.announce(net.now)
    net._collect(p)
    net.run()
    assert_agree(net)
    assert belfort.state_hash(p.game) == ref_hash
    assert p.history == ref_history


def test_finished_peers_are_not_reported_disconnected():
    """A peer that finishes says so at once (ctl/fin), so once every process has
    exited nobody reports the last one to finish as disconnected, or waits for it."""
    for n in (2, 3):
        net = play(n, seed=f"fin{n}")
        assert all(p.finished for p in net.peers)
        for _ in range(20):                       # the processes are gone: only silence
            net.now += 0.3
            for p in net.peers:
                p.tick(net.now)
                p.take_outgoing()
        for p in net.peers:
            assert not [a.text for a in p.alerts if a.kind == "disconnect"]
            assert p.view.may_leave(net.now)
            assert {s["state"] for s in p.view.peer_states(net.now)} <= {"here", "left"}


def test_waiting_text_names_disconnected_peer():
    net = MemoryNetwork.create(3, seed="wt")
    net.start()
    net.run(until=lambda: net.peers[0].game is not None and net.peers[0].game.version > 10)
    net.down.add(1)
    net.run(max_idle=10)
    texts = net.peers[0].view.waiting_text(net.now)
    assert "P1 (disconnected" in texts, texts


def test_desync_detected_and_fields_reported():
    net = MemoryNetwork.create(3, seed="ds")
    net.start()
    net.run(until=lambda: net.peers[2].game is not None and net.peers[2].game.version > 30)
    net.peers[2].game.players[1].score += 5      # a state the others do not have
    net.run()
    for p in net.peers[:2]:
        assert p.status == "stopped"
        assert p.desync["odd"] == [2]
        texts = [a.text for a in p.alerts if a.kind == "desync"]
        assert any("P2 (seat 2) disagrees" in t for t in texts), texts
        assert any("players[1].score" in t for t in texts), texts
    assert net.peers[2].desync["odd"] == [2]     # it knows it is the odd one


def _misbehave(net, seat, kind):
    from tests.session import misbehave
    p = net.peers[seat]
    misbehave.act(type("N", (), {"peer": p})(), kind)
    net._collect(p)


@pytest.mark.parametrize("kind", ["illegal", "garbage", "forge"])
def test_misbehaviour_refused_named_honest_unharmed(kind):
    net = MemoryNetwork.create(3, seed="mb-" + kind)
    net.start()
    bad = 1

    def ready():
        p = net.peers[bad]
        return p.game is not None and p.game.version > 25 and (
            kind != "illegal" or (p.decision_needed() and len(p.game.waiting_for()) == 1))
    net.run(until=ready)
    _misbehave(net, bad, kind)
    net.run()
    assert_agree(net)
    for s in (0, 2):
        named = [a for a in net.peers[s].alerts if a.kind == "cheat" and a.seat == bad]
        assert named, [a.text for a in net.peers[s].alerts]


def test_a_byte_identical_replay_is_harmless_and_not_reported():
    """An old message sent again byte for byte changes nothing: it is dropped
    without a cheat alert (a false alarm in 9 of 27 kill/rejoin runs)."""
    net = MemoryNetwork.create(3, seed="mb-replay")
    net.start()
    net.run(until=lambda: net.peers[1].game is not None and net.peers[1].game.version > 25)
    _misbehave(net, 1, "replay")
    net.run()
    assert_agree(net)
    for p in net.peers:
        assert not [a for a in p.alerts if a.kind == "cheat"], [a.text for a in p.alerts]


def test_equivocation_named():
    net = MemoryNetwork.create(3, seed="eq")
    net.start()
    net.run(until=lambda: net.peers[1].game is not None and net.peers[1].game.version > 10)
    net.pump()
    _misbehave(net, 1, "equivocate")
    net.pump()
    for s in (0, 2):
        assert any("signed two different messages" in a.text and a.seat == 1
                   for a in net.peers[s].alerts)


def test_deck_claim_lie_is_caught():
    """A peer that builds claiming a type its card does not have is refused and named."""
    net = MemoryNetwork.create(3, seed="lie")
    net.start()
    bad = net.peers[0]
    # skip to seat 0's first plain decision
    net.run(until=lambda: bad.decision_needed() and len(bad.game.waiting_for()) == 1
            and bad.game.version > 5)
    g = bad.game
    hand = [c for c in g.players[0].hand if not g.public[c]]
    card = hand[0]
    real = g.types[card]
    fake = (real + 1) % 10
    e, pos = bad.table.locate(card)
    bad._emit(bad.decks[e].open(pos))
    bad._emit(bad.signer.sign("sess/cmd", {"v": g.version, "cmd": ["discard", card, fake]}))
    net._collect(bad)
    net.pump()
    net.beat()              # named once its heartbeat shows it held what we hold
    for s in (1, 2):
        assert any(a.kind == "cheat" and a.seat == 0 and f"#{card}" in a.text
                   for a in net.peers[s].alerts), [a.text for a in net.peers[s].alerts]


def test_garbage_never_crashes_a_peer():
    net = MemoryNetwork.create(2, seed="fz")
    net.start()
    net.run(until=lambda: net.peers[0].game is not None and net.peers[0].game.version > 3)
    p = net.peers[0]
    rng = __import__("random").Random(5)
    samples = [os.urandom(rng.randrange(0, 300)) for _ in range(200)]
    samples += [encode_envelope({"body": b"\x80", "sig": b"x" * 64}), b"", b"\xc1",
                encode_envelope({"body": 5, "sig": 1})]
    # well-signed nonsense of every session type
    for t in ("sess/cmd", "sess/hash", "sess/view", "commit/commit", "commit/reveal",
              "deck/keys", "deck/open", "ctl/hb", "ctl/sync", "what/ever"):
        for fields in ({}, {"v": "x", "cmd": 5, "epoch": -1, "purpose": 3, "have": [1]},
                       {"v": 10 ** 9, "cmd": ["place", "x"], "epoch": 99, "purpose": "sim/x"}):
            body = {"type": t, "game": p.cfg.game_id, "seat": 1, "seq": 0, **fields}
            samples.append(encode_envelope(net.identities[1].sign_message(body)))
    for data in samples:
        p.receive(data, net.now, 1)
    # well-signed nonsense with a used seq is seat 1 signing two different messages:
    # that is proof of equivocation, and the only verdict allowed names seat 1
    assert p.status in ("playing", "over") or \
        p.stop_reason.startswith("P1 (seat 1) signed two different messages"), p.stop_reason


def test_a_rejoin_keeps_the_events_of_its_replay_for_the_window(tmp_path):
    """The window of a rejoined seat opens after the replay of its log: the replay's engine
    events are kept (the latest REPLAYED_KEPT) so that it can show what happened earlier,
    and they are the very events the seat saw before its crash."""
    from net.session.core import REPLAYED_KEPT
    net = MemoryNetwork.create(3, seed="recap")
    victim = 1
    st = GameStore.create(tmp_path, net.peers[0].cfg, victim,
                          {"master": fixed_master("recap", victim)})
    net.peers[victim].log.store = st
    net.start()
    net.run(until=lambda: len(net.peers[victim].history) >= 60)
    seen = list(net.peers[victim].events)        # nothing took them: all since the start
    net.down.add(victim)
    st.close()
    st2 = GameStore(st.dir)
    cfg, seat, sec, _ = st2.load()
    p = SessionPeer(cfg, seat, net.identities[seat], sec["master"], store=st2, now=net.now)
    p.restore(st2.records(), net.now)
    assert any(e[0] == "round" for e in seen)
    assert p.replayed_events == seen[-REPLAYED_KEPT:]
    assert p.take_events() == []                 # not delivered twice as new ones
