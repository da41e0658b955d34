"""No stall lasts forever, leaving for now, waking from suspend (in memory).

A seat the game waits for, silent past the stall time (Timing.timeout, 180 s by default,
``--stall-timeout``), can be handed to a bot (3-5 players) or, with 2 players, the game
is paused with a clear message; the countdown is part of the waiting state.  A peer that
leaves for now says so (``ctl/bye``): the others show it paused, never "disconnected", and
nobody hands its seat over by themselves.  A peer whose clock jumped (a suspended laptop,
SIGSTOP) does not conclude anything about the others before reading what is queued.
"""

import belfort
import pytest

from net.session.config import Timing
from net.session.effects import Names
from net.session.handoff import HandoffError
from net.session.liveness import Liveness
from net.session.memnet import MemoryNetwork


def _waiting_for(net, seat, seed):
    net.start()
    net.run(until=lambda: net.peers[0].game is not None and net.peers[0].game.version > 12
            and net.peers[0].view.waiting_seats() == [seat])
    assert net.peers[0].view.waiting_seats() == [seat], "the game never waited for that seat alone"


def _silence(net, seconds, step=0.5):
    """Time passes; the live peers tick (and exchange heartbeats), the down ones do not."""
    end = net.now + seconds
    while net.now < end:
        net.now = min(end, net.now + step)
        for p in net.peers:
            if p.seat not in net.down:
                p.tick(net.now)
                net._collect(p)
        net.pump()


def assert_agree(peers):
    for p in peers:
        assert p.status == "over", (p.seat, p.stop_reason, [a.text for a in p.alerts][-5:])
        assert p.audit_result and p.audit_result[0], p.audit_result
    assert len({belfort.state_hash(p.game) for p in peers}) == 1


def test_default_stall_time_is_a_few_minutes():
    assert 120 <= Timing().timeout <= 600


def test_countdown_to_a_handoff_in_the_waiting_state():
    net = MemoryNetwork.create(3, seed="st1")
    _waiting_for(net, 1, "st1")
    net.down.add(1)
    _silence(net, 12)
    p0 = net.peers[0]
    info = p0.view.stall(net.now)
    [bo] = info["seats"]
    assert bo["seat"] == 1 and bo["name"] == "P1" and not bo["left"]
    assert 11 <= bo["quiet"] <= 13
    assert 167 <= bo["handoff_in"] <= 169 and not bo["handoff_now"]
    assert info["paused"] is None
    text = p0.view.waiting_text(net.now)
    assert "P1 (disconnected 12 s)" in text and "handoff possible in 2:4" in text, text
    with pytest.raises(HandoffError, match="after 180 s"):
        p0.handoff(1, net.now)
    _silence(net, 170)
    bo = p0.view.stall(net.now)["seats"][0]
    assert bo["handoff_now"] and bo["handoff_in"] == 0
    assert "handoff 1" in p0.view.waiting_text(net.now)
    assert 1 in p0.view.handoff_candidates(net.now)


def test_stalled_seat_handed_over_with_a_bot_peer_agreeing():
    """A person proposes the handoff once the stall time is past; a bot peer has nobody
    to ask, so it agrees by itself (it never proposes)."""
    timing = Timing(timeout=20)
    net = MemoryNetwork.create(3, seed="st2")
    for p in net.peers:
        p.timing.timeout = timing.timeout
    _waiting_for(net, 1, "st2")
    net.peers[2].configure_handoff(follow=True)          # seat 2 is a bot peer
    net.down.add(1)
    _silence(net, 25)
    assert not net.peers[2].view.votes_cast(), "a bot peer never proposes a handoff"
    net.peers[0].handoff(1, net.now)
    live = [net.peers[0], net.peers[2]]
    v = net.peers[0].game.version
    net.run(max_idle=400, until=lambda: all(1 in p.handed for p in live)
            and min(p.game.version for p in live) > v + 10)
    assert all(1 in p.handed for p in live), [a.text for a in live[0].alerts]
    assert net.peers[2].view.votes_cast() == [1]
    for p in live:      # (games played to the end by a handed seat: test_handoff.py)
        assert p.status == "playing" and p.game.version > v + 10
        assert not [a for a in p.alerts if a.kind in ("cheat", "desync", "error")]


def test_two_players_paused_after_the_stall_time():
    net = MemoryNetwork.create(2, seed="st3")
    _waiting_for(net, 1, "st3")
    net.down.add(1)
    _silence(net, 60)
    p0 = net.peers[0]
    assert p0.view.pause_reason(net.now) is None
    assert "paused in 2:0" in p0.view.waiting_text(net.now), p0.view.waiting_text(net.now)
    _silence(net, 125)
    reason = p0.view.pause_reason(net.now)
    assert reason and "paused" in reason and "belfort rejoin" in reason and "P1" in reason
    assert p0.view.stall(net.now)["paused"] == reason
    text = p0.view.waiting_text(net.now)
    assert text.startswith("waiting for P1 (disconnected") and text.endswith(reason), text
    assert text.lower().count("paused") == 1, text       # said once, with the reason


def test_leaving_for_now_is_not_a_disconnection():
    net = MemoryNetwork.create(3, seed="st4")
    _waiting_for(net, 1, "st4")
    for p in net.peers:
        p.configure_handoff(auto=1.0)          # even so: a seat that left for now is not taken
    gone = net.peers[1]
    gone.leave_for_now(net.now)
    net._collect(gone)
    net.down.add(1)
    net.pump()
    _silence(net, 30)
    for p in (net.peers[0], net.peers[2]):
        texts = [a.text for a in p.alerts]
        assert any("P1 left the game for now" in t and "belfort rejoin" in t for t in texts), texts
        assert not [a for a in p.alerts if a.kind in ("disconnect", "cheat", "error")], texts
        assert p.view.peer_states(net.now)[1]["state"] == "paused"
        assert not p.handed and not p.view.votes_cast()
        assert "P1 (left for now" in p.view.waiting_text(net.now), p.view.waiting_text(net.now)
    # it comes back: the game goes on
    back = net.peers[1]
    net.down.discard(1)
    back.announce()
    net._collect(back)
    net.run()
    assert_agree(net.peers)
    assert any(a.kind == "reconnect" and a.seat == 1 for a in net.peers[0].alerts)


def test_bot_peer_pauses_when_every_person_is_away():
    net = MemoryNetwork.create(3, seed="st5")
    _waiting_for(net, 1, "st5")
    net.peers[2].liveness.kinds = ["human", "human", "bot"]
    for s in (0, 1):
        net.peers[s].leave_for_now(net.now)
        net._collect(net.peers[s])
        net.down.add(s)
    net.pump()
    bot = net.peers[2]
    reason = bot.view.pause_reason(net.now, bot=True)
    assert reason and "P0" in reason and "P1" in reason and "belfort rejoin" in reason


def test_liveness_clock_jump_is_not_everyone_leaving():
    """Unit: the clock jumps 70 s between two checks (suspended): nobody is declared
    disconnected or gone until they had a chance to speak after the wake."""
    t = Timing(timeout=60)
    lv = Liveness(3, 0, Names(["A", "B", "C"]), t, ["human"] * 3, now=100.0)
    for now in (100.5, 101.0, 101.5):
        lv.seen(1, now)
        lv.seen(2, now)
        assert not lv.check(now, {}).alerts
    out = lv.check(171.5, {})
    assert not out.alerts and out.need_sync       # ask for what we missed
    assert not lv.abandoned(171.5, {})
    assert lv.quiet(1, 171.5) < 1.0
    # after the wake, real silence counts again
    lv.seen(2, 172.0)
    out = lv.check(174.0, {})
    assert [a.seat for a in out.alerts if a.kind == "disconnect"] == [1]


def test_suspended_peer_wakes_reads_its_queue_and_goes_on():
    """Seat 2 is suspended 60 s: the frames sent to it wait (a socket buffer); when it wakes
    its first tick comes before it reads them (the worst order)."""
    net = MemoryNetwork.create(3, seed="st6")
    net.start()
    net.run(until=lambda: net.peers[0].game is not None and net.peers[0].game.version > 30)
    held = []
    real_pump = net.pump

    def pump_holding():
        while net.queue:
            src, dst, data = net.queue.popleft()
            if dst == 2:
                held.append((src, data))
                continue
            net.peers[dst].receive(data, net.now, src)
            net._collect(net.peers[dst])
    net.pump = pump_holding
    sleeper = net.peers[2]
    net.down.add(2)                         # no ticks, nothing sent: stopped
    _silence(net, 60, step=0.4)
    sleeper.timing.timeout = 30             # (its stall time is shorter than the suspend)
    net.down.discard(2)
    # its loop may ask before its first check after the wake: nobody is judged yet
    assert sleeper.view.pause_reason(net.now) is None and not sleeper.view.abandoned(net.now)
    sleeper.tick(net.now)                   # the clock jumped 60 s
    assert not [a for a in sleeper.alerts if a.kind == "disconnect"]
    assert not sleeper.view.abandoned(net.now)
    assert sleeper.view.pause_reason(net.now) is None
    net._collect(sleeper)
    for src, data in held:
        sleeper.receive(data, net.now, src)
    net._collect(sleeper)
    net.pump = real_pump
    net.run()
    assert_agree(net.peers)
    assert not [a.text for a in sleeper.alerts if a.kind in ("disconnect", "cheat", "error")]
    for p in net.peers[:2]:
        assert not [a.text for a in p.alerts if a.kind in ("cheat", "error", "desync")]


def test_everyone_stops_at_once_and_all_resume(tmp_path):
    """Resume another evening: every peer stops at the same moment; later all restart
    from their logs (a new clock) and the game ends as if nothing happened."""
    from net.session.core import SessionPeer
    from net.session.memnet import fixed_master
    from net.node.storage import GameStore
    ref = MemoryNetwork.create(2, seed="st7")
    ref.start()
    ref.run()
    net = MemoryNetwork.create(2, seed="st7")
    stores = []
    for s, p in enumerate(net.peers):
        st = GameStore.create(tmp_path / f"m{s}", p.cfg, s, {"master": fixed_master("st7", s)})
        p.log.store = st
        stores.append(st)
    net.start()
    net.run(until=lambda: net.delivered >= 500)
    for st in stores:
        st.close()
    net.queue.clear()                        # what was in flight is lost
    later = 50_000.0                         # another evening: another clock
    peers = []
    for _s, st in enumerate(stores):
        st2 = GameStore(st.dir)
        cfg, seat, sec, _ = st2.load()
        p = SessionPeer(cfg, seat, net.identities[seat], sec["master"], store=st2, now=later)
        p.restore(st2.records(), later)
        st2.open_log()
        peers.append(p)
    net.peers = peers
    net.bots = {}
    net.now = later
    for p in peers:
        p.announce()
        net._collect(p)
    net.run()
    assert_agree(peers)
    assert belfort.state_hash(peers[0].game) == belfort.state_hash(ref.peers[0].game)
    for p in peers:
        assert not [a.text for a in p.alerts if a.kind in ("cheat", "error", "desync")]
