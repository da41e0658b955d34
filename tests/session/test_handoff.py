"""Handing a departed seat to a bot (docs/network.md, "Handing a departed seat to a bot")."""

import belfort
import pytest

from net.session.handoff import HandoffError
from net.session.memnet import MemoryNetwork


def _game_until(n, seed, version, level="random"):
    net = MemoryNetwork.create(n, seed=seed, level=level)
    net.start()
    net.run(until=lambda: net.peers[0].game is not None and net.peers[0].game.version > version)
    return net


def _hand_over(net, seat, after=1.0, max_idle=400):
    net.down.add(seat)
    for p in net.peers:
        if p.seat != seat:
            p.configure_handoff(auto=after)
            p.configure_handoff(level="random")
    net.run(max_idle=max_idle)


@pytest.mark.parametrize("n,version,seed", [(3, 40, "h1"), (3, 300, "h2"), (4, 150, "h3")])
def test_departed_seat_played_by_bot_to_the_end(n, version, seed):
    net = _game_until(n, seed, version)
    gone = n - 1
    _hand_over(net, gone)
    live = [p for p in net.peers if p.seat != gone]
    for p in live:
        assert p.status == "over", (p.seat, p.stop_reason, [a.text for a in p.alerts][-5:])
        assert p.audit_result and p.audit_result[0], p.audit_result
        assert gone in p.handed and p.handed[gone]["host"] == 0
        assert p.view.peer_states(net.now)[gone]["state"] == "bot"
        assert not [a for a in p.alerts if a.kind in ("cheat", "desync", "error")], \
            [a.text for a in p.alerts]
    assert len({belfort.state_hash(p.game) for p in live}) == 1
    assert len({p.game.version for p in live}) == 1
    assert live[0].ghost is not None and live[1].ghost is None
    # the bot made decisions for the seat after the cut
    cut = live[0].handed[gone]["cut"]
    assert len(live[1].accepted[gone]) > cut


def test_owner_coming_back_is_refused():
    net = _game_until(3, "h4", 60)
    _hand_over(net, 2)
    assert net.peers[0].status == "over"
    net.down.discard(2)
    back = net.peers[2]
    for _ in range(5):
        net.now += 0.5
        back.tick(net.now)
        net._collect(back)
        net.pump()
    assert back.status == "stopped"
    assert "your seat was handed to a bot at round" in back.stop_reason


class _Suspending(MemoryNetwork):
    """Frames to a suspended peer wait (its socket buffers) instead of being lost."""

    asleep = None

    def deliver(self, src, dst, data):
        if dst == self.asleep:
            self.held.append((src, data))
            return
        super().deliver(src, dst, data)


@pytest.mark.parametrize("n,version,seed", [(3, 60, "hw1"), (4, 90, "hw2")])
def test_owner_waking_after_the_end_is_told_calmly(n, version, seed):
    """The owner's laptop was suspended; the others handed its seat to a bot, finished
    and left.  Waking, it reads what they sent meanwhile: their signed votes on its
    seat are the notice — no desync, no accusation, the game ends as handed for it."""
    net = _Suspending.create(n, seed=seed, level="random")
    net.held = []
    net.start()
    net.run(until=lambda: net.peers[0].game is not None and net.peers[0].game.version > version)
    owner = n - 1
    net.asleep = owner
    _hand_over(net, owner)
    live = [p for p in net.peers if p.seat != owner]
    assert all(p.status == "over" and owner in p.handed for p in live)
    net.down = {p.seat for p in live}          # they finished and left
    net.asleep = None
    back = net.peers[owner]
    net.down.discard(owner)
    net.now += 3600                            # the clock jumped while it slept
    back.tick(net.now)
    for src, data in net.held:
        back.receive(data, net.now, src)
    net.run(max_idle=60)                       # its bot would play on: nothing is asked
    assert back.handoffs.ours_handed and back.finished
    assert not [a.text for a in back.alerts if a.kind in ("cheat", "desync", "error")], \
        [a.text for a in back.alerts]
    voters = ", ".join(f"P{s} (seat {s})" for s in range(n - 1))
    [told] = [a.text for a in back.alerts if "your seat was handed to a bot" in a.text]
    assert f"by the votes of {voters}" in told and "level random" in told, told
    assert "hosted by P0" in told, told
    assert back.stop_reason == told and "DESYNC" not in back.stop_reason
    assert back.view.may_leave(net.now)


def test_wrong_share_names_the_sender():
    net = _game_until(3, "h5", 50)
    liar = net.peers[1]
    liar.handoffs._share_out = lambda target, share: bytes(32 - 1) + b"\x01"
    _hand_over(net, 2, max_idle=80)
    p0 = net.peers[0]
    assert p0.status == "stopped"
    assert "P1 (seat 1) published a wrong escrow share" in p0.stop_reason
    assert any(a.kind == "cheat" and a.seat == 1 for a in p0.alerts)
    assert p0.ghost is None


def test_two_players_refused():
    net = _game_until(2, "h6", 30)
    net.down.add(1)
    p0 = net.peers[0]
    with pytest.raises(HandoffError, match="3 to 5 players"):
        p0.handoff(1, net.now + 1000)
    # and no escrow was ever sent in a 2-player game
    assert not p0.escrow.pub and not p0.escrow.escrow


def test_handoff_needs_silence_past_the_timeout():
    net = _game_until(3, "h7", 30)
    with pytest.raises(HandoffError, match="silent"):
        net.peers[0].handoff(2, net.now)
    with pytest.raises(HandoffError, match="another seat"):
        net.peers[0].handoff(0, net.now)


@pytest.mark.e2e
def test_e2e_sigkilled_bot_handed_over(spawn):
    """Real processes on loopback: seat 2 is SIGKILLed mid-game; the two others (started
    with --auto-handoff) hand it to a bot hosted by seat 0 and finish the game."""
    from tests.session.test_e2e import start_game
    args = ("--auto-handoff", 3)
    host, bots = start_game(spawn, 3, pace=0.01, host_args=args, bot_args=args)
    victim = bots[1]
    data = victim.wait_event("started", 20)["data"]
    victim.wait_round(2)
    assert victim.p.poll() is None, "the game ended before the kill"
    victim.kill()
    # once the seat is a bot's, its owner's `rejoin` is refused
    try:
        host.wait_for(lambda ev: "played by a bot" in ev.get("text", ""), 60, "handoff")
    except AssertionError:
        pass                 # (the result below says what went wrong)
    back = None
    if host.p.poll() is None:
        back = spawn("rejoin", "--dir", data, "--timeout", 60, label="owner")
    results = [host.result(120), bots[0].result(120)]
    if back is not None:
        r = back.result(60)
        if r["status"] != "over":        # (the game may have ended before it came back)
            assert r["status"] == "handed", r
            assert "your seat was handed to a bot at round" in r["stop_reason"], r
            assert r["rc"] == 5
            assert not [a for a in r["alerts"] if a["kind"] in ("cheat", "desync", "error")]
    for r in results:
        assert r["status"] == "over" and r["audit"] and r["audit"][0], r
        assert r["rc"] == 0, r
        assert not [a for a in r["alerts"] if a["kind"] in ("cheat", "desync", "error")], r
        assert any("seat is now played by a bot hosted by Ana" in a["text"] for a in r["alerts"])
    assert len({r["hash"] for r in results}) == 1
    assert len({r["version"] for r in results}) == 1


def test_commitment_without_reveal_is_recovered():
    """The seat committed to a simultaneous choice (keep-3, Spies' show) and died before
    revealing it: the bot finds the committed command from the rebuilt master."""
    import msgpack
    net = MemoryNetwork.create(3, seed="br0", level="random")
    state = {"cut": False}

    def tamper(dest, data):
        if state["cut"]:
            return None
        body = msgpack.unpackb(msgpack.unpackb(data, raw=False)["body"], raw=False)
        if body["type"] == "commit/reveal" and body.get("purpose", "").startswith("sim/"):
            state["cut"] = True
            net.down.add(2)
            for p in net.peers[:2]:
                p.configure_handoff(auto=1.0, level="random")
            return None
        return data
    net.tamper[2] = tamper
    net.start()
    net.run(max_idle=400)
    assert state["cut"]
    live = net.peers[:2]
    for p in live:
        assert p.status == "over" and p.audit_result[0], (p.stop_reason, p.audit_result)
    assert len({belfort.state_hash(p.game) for p in live}) == 1


@pytest.mark.parametrize("extra", [20, 150])
def test_host_of_the_bot_rejoins_from_its_log(tmp_path, extra):
    """The peer hosting the bot seat crashes and rejoins: it rebuilds the bot seat from its
    log (the handoff, the bot's own envelopes) and the game still completes."""
    from net.session.core import SessionPeer
    from net.session.memnet import fixed_master
    from net.node.storage import GameStore
    net = MemoryNetwork.create(3, seed="hr", level="random")
    st = GameStore.create(tmp_path, net.peers[0].cfg, 0, {"master": fixed_master("hr", 0)})
    net.peers[0].log.store = st
    net.start()
    net.run(until=lambda: net.peers[0].game is not None and net.peers[0].game.version > 60)
    net.down.add(2)
    for p in net.peers[:2]:
        p.configure_handoff(auto=1.0, level="random")
    target = net.peers[0].game.version + extra
    net.run(until=lambda: net.peers[0].ghost is not None and net.peers[0].game.version > target,
            max_idle=400)
    assert net.peers[0].ghost is not None
    net.down.add(0)
    st.close()
    net.run(max_idle=8)
    st2 = GameStore(st.dir)
    cfg, seat, sec, _ = st2.load()
    p = SessionPeer(cfg, seat, net.identities[seat], sec["master"], store=st2, now=net.now)
    p.configure_handoff(level="random")
    p.restore(st2.records(), net.now)
    st2.open_log()
    assert p.ghost is not None and 2 in p.handed
    net.peers[0] = p
    net.down.discard(0)
    p.announce()
    net._collect(p)
    net.run(max_idle=400)
    live = net.peers[:2]
    for q in live:
        assert q.status == "over" and q.audit_result[0], (q.seat, q.stop_reason, q.audit_result,
                                                          [a.text for a in q.alerts][-4:])
        assert not [a for a in q.alerts if a.kind in ("cheat", "desync")], \
            [a.text for a in q.alerts]
    assert len({belfort.state_hash(q.game) for q in live}) == 1
