"""Nobody can make the table wait for ever (in memory; waits.py, liveness.py, handoff.py).

Each test is one way a cheating or broken seat used to hold the others up: an objection
without evidence, a vote never cast, a finish claimed while still playing, a heartbeat
every few seconds and nothing else, silence before the first deal, "left for now" and
never back, and presence notices as a flood.  The cheater is an ordinary in-memory peer
made to misbehave by the test.
"""

import pytest

from net.session.config import Timing
from net.session.effects import Names
from net.session.liveness import Liveness
from net.session.memnet import MemoryNetwork
from net.session.table import STOPPED
from net.session.deadlines import ABSENCE, DEPART, STOP, Owed
from net.session.waits import Waits

from test_stall import _silence, _waiting_for

TARGET = 3


def _handoff_opened(seed: str) -> MemoryNetwork:
    """Four players, seat 3 silent past a short stall time, seat 0 votes to hand it over."""
    net = MemoryNetwork.create(4, seed=seed)
    for p in net.peers:
        p.timing.timeout = 20.0
    _waiting_for(net, TARGET, seed)
    net.down.add(TARGET)
    _silence(net, 25)
    net.peers[0].handoff(TARGET, net.now)
    net._collect(net.peers[0])
    net.pump()
    return net


def _send_as(net: MemoryNetwork, seat: int, type_: str, fields: dict) -> None:
    peer = net.peers[seat]
    peer._emit(peer.signer.sign(type_, fields))
    net._collect(peer)
    net.pump()


def _alerts(peer, kind: str = "cheat") -> list[str]:
    return [a.text for a in peer.alerts if a.kind == kind]


def test_an_objection_without_evidence_is_refused_and_the_handoff_goes_on():
    """A ``hand/no`` used to call off any attempt: with a seat killed and another answering
    each vote with a bare no, the table looped for ever.  A no now needs a vote of the
    attempt and a newer signed message of the target; without them it is refused and the
    cheater is named."""
    net = _handoff_opened("w1")
    cheater = net.peers[1]
    vote = net.peers[0].handoffs.vote_envs[TARGET][0]
    _send_as(net, 1, "hand/no", {"target": TARGET, "k": 0, "vote": vote, "proof": vote})
    net.beat(4)          # (an accusation waits for the accused's heartbeat: doubt.py)
    for p in (net.peers[0], net.peers[2]):
        assert any("without evidence" in t for t in _alerts(p)), _alerts(p)
        assert p.handoffs.attempt.get(TARGET, 0) == 0, "the attempt was called off"
    live = [net.peers[s] for s in range(3)]
    net.run(max_idle=200, until=lambda: all(TARGET in p.handed for p in live))
    assert all(TARGET in p.handed for p in live), [a.text for a in live[0].alerts][-5:]
    assert cheater.view.votes_cast() == [TARGET]      # its own software agreed by itself


def test_a_bare_objection_of_the_old_shape_is_refused():
    net = _handoff_opened("w2")
    _send_as(net, 1, "hand/no", {"target": TARGET, "k": 0})
    net.beat(4)
    p0 = net.peers[0]
    assert any("hand/no" in t for t in _alerts(p0)), _alerts(p0)
    assert p0.handoffs.attempt.get(TARGET, 0) == 0


def test_an_objection_with_the_targets_newer_heartbeat_calls_the_attempt_off():
    """The target is alive after the vote (its signed heartbeat holds the vote): the
    software objects by itself, with that evidence, and every peer calls the attempt off."""
    net = _handoff_opened("w3")
    net.down.discard(TARGET)
    _silence(net, 2, step=0.4)
    for p in net.peers:
        assert p.handoffs.attempt.get(TARGET, 0) == 1, (p.seat, p.handoffs.votes)
        assert not p.handed
        assert not _alerts(p), _alerts(p)


def test_a_seat_that_neither_votes_nor_objects_is_named_and_the_game_stops():
    """A remaining seat owes an answer to each attempt within the step deadline; one that
    stays silent about it (while heartbeating) no longer holds the table up."""
    net = _handoff_opened("w4")
    silent = net.peers[1]
    silent._answer_handoffs = lambda now: None          # never answers
    _silence(net, 40, step=0.4)
    for p in (net.peers[0], net.peers[2]):
        assert p.status == STOPPED, (p.seat, p.status)
        assert "P1 (seat 1) neither agreed nor objected" in p.stop_reason, p.stop_reason


def test_a_finish_claimed_while_playing_is_not_believed():
    """Two players: seat 1 says it finished while the game is running and goes silent.
    That switched liveness off (no notice, no pause); now the game pauses as for any
    silent seat."""
    net = MemoryNetwork.create(2, seed="w5")
    for p in net.peers:
        p.timing.timeout = 20.0
    _waiting_for(net, 1, "w5")
    liar = net.peers[1]
    liar._apply(liar.resync.finished_notice())
    net._collect(liar)
    net.pump()
    net.down.add(1)
    _silence(net, 25)
    p0 = net.peers[0]
    assert any(a.kind == "disconnect" and a.seat == 1 for a in p0.alerts)
    assert p0.liveness.claims_finished[1] and not p0.liveness.finished_of[1]
    reason = p0.view.pause_reason(net.now)
    assert reason and "P1" in reason, reason


def _flap(net: MemoryNetwork, seat: int, seconds: float, every: float = 3.0,
          watch=lambda: None) -> list:
    """``seat`` sends one heartbeat every ``every`` s and nothing else; ``watch()`` is
    called at each step and its results returned."""
    end, next_beat, seen = net.now + seconds, net.now, []
    net.down.add(seat)
    while net.now < end:
        net.now += 0.5
        for p in net.peers:
            if p.seat not in net.down:
                p.tick(net.now)
                net._collect(p)
        if net.now >= next_beat:
            next_beat = net.now + every
            flapper = net.peers[seat]
            net.queue.extend((seat, r, data) for dest, data in
                             flapper.resync.heartbeat(None, need=False).frames
                             for r in range(len(net.peers)) if r != seat)
        net.pump()
        seen.append(watch())
    return seen


def test_a_heartbeat_every_three_seconds_does_not_dodge_the_stall_time():
    """Two players: the seat the game waits for speaks once every 3 s and never decides.
    A quiet spell used to restart its stall clock at each heartbeat: the game waited for
    ever.  Now only steady presence clears it, and the game pauses."""
    net = MemoryNetwork.create(2, seed="w6")
    for p in net.peers:
        p.timing.timeout = 30.0
    _waiting_for(net, 1, "w6")
    p0 = net.peers[0]
    paused = _flap(net, 1, 45, watch=lambda: p0.view.pause_reason(net.now))
    assert p0.liveness.quiet(1, net.now) > 30, p0.liveness.quiet(1, net.now)
    assert not any(paused[:40]), "paused before the stall time"
    assert any(paused), "never paused for a seat that flaps"


def test_a_heartbeat_every_three_seconds_does_not_dodge_a_step_deadline():
    """Three players: seat 2 never commits to its seed share but heartbeats every 3 s.
    The step's clock restarted after each quiet spell; now it only stands still while the
    seat is silent, so the seat is named."""
    net = MemoryNetwork.create(3, seed="w7")
    for p in net.peers[:2]:
        p.start(net.now)
        net._collect(p)
    net.pump()
    _flap(net, 2, 60)
    for p in net.peers[:2]:
        assert p.status == STOPPED, (p.seat, p.status)
        assert "P2 (seat 2) withheld its commitment to its seed share" in p.stop_reason, \
            p.stop_reason


def test_silence_before_the_seed_reveal_ends_the_setup_with_a_verdict():
    """Three players: seat 2 commits to its seed share and falls silent before revealing
    it.  Deadlines skip silent seats and a pause needs every other seat away, so the other
    two waited for ever; before the first deal no hand is at stake, so the setup ends."""
    net = MemoryNetwork.create(3, seed="w8")
    for p in net.peers:
        p.timing.timeout = 20.0
    for p in net.peers[:2]:
        p.start(net.now)
        net._collect(p)
    net.pump()
    net.peers[2].start(net.now)                        # its commitment goes out ...
    net._collect(net.peers[2])
    net.tamper[2] = lambda dest, data: None            # ... its reveal never does
    net.pump()
    net.down.add(2)
    _silence(net, 30)
    for p in net.peers[:2]:
        assert p.game is None
        assert p.status == STOPPED, (p.seat, p.status)
        assert "could not start" in p.stop_reason and "P2 (seat 2)" in p.stop_reason, \
            p.stop_reason
        assert "no hand is at stake" in p.stop_reason


def test_left_for_now_and_never_back_is_handed_over_after_the_stall_time():
    """A seat that left for now is given the whole stall time to come back, then
    ``--auto-handoff`` takes it like any other: with nobody else to decide, "for now"
    meant for ever."""
    net = MemoryNetwork.create(3, seed="w9")
    for p in net.peers:
        p.timing.timeout = 30.0
    _waiting_for(net, 1, "w9")
    net.peers[0].configure_handoff(auto=5.0)
    net.peers[2].configure_handoff(follow=True)            # a bot peer
    gone = net.peers[1]
    gone.leave_for_now(net.now)
    net._collect(gone)
    net.down.add(1)
    net.pump()
    _silence(net, 20)
    assert not net.peers[0].view.votes_cast(), "taken before the stall time"
    _silence(net, 20)
    live = [net.peers[0], net.peers[2]]
    net.run(max_idle=200, until=lambda: all(1 in p.handed for p in live))
    assert all(1 in p.handed for p in live)


def test_leave_and_return_notices_are_rate_limited():
    lv = Liveness(3, 0, Names(["Ana", "Bo", "Cy"]), Timing(), ["human"] * 3, now=0.0)
    shown = 0
    for cycle in range(300):
        now = cycle * 0.2
        shown += len(lv.on_bye(1, {}, now).alerts)
        back = lv.seen(1, now + 0.1)
        shown += len(back.alerts) if back is not None else 0
    assert shown <= 8, shown          # a few at once, then one per 30 s (60 s of cycles)
    assert lv.connected[1] and not lv.left_of[1]      # the state itself is always current


def test_waits_count_presence_only_and_never_restart_on_a_quiet_spell():
    timing = Timing(step_deadline=10.0)
    waits = Waits(3, Names(["A", "B", "C"]), timing)
    owed = {("shuffle", 0, 1): Owed(1, "its shuffle", DEPART)}
    present = {1: True}
    late = []
    for tick in range(0, 200):
        now = tick * 0.25
        present[1] = (tick // 4) % 3 != 2          # silent one second in three
        late += waits.check(owed, now, lambda s: present[s], lambda s: 0.0)
    assert [x.seat for x in late] == [1], late
    assert waits.named == {1: "its shuffle"}


def test_waits_absence_deadline_and_asleep():
    timing = Timing(timeout=20.0)
    waits = Waits(3, Names(["A", "B", "C"]), timing)
    owed = {("setup", "seed-reveal", 2): Owed(2, "the setup ends", STOP, ABSENCE)}
    assert not waits.check(owed, 0.0, lambda s: False, lambda s: 19.0)
    [late] = waits.check(owed, 1.0, lambda s: False, lambda s: 21.0)
    assert late.owed.then == STOP and late.key == ("setup", "seed-reveal", 2)
    # a step's clock does not count our own sleep
    step = {("rekey", 0, 1): Owed(1, "its re-keying")}
    w2 = Waits(3, Names(["A", "B", "C"]), Timing(step_deadline=10.0))
    w2.check(step, 0.0, lambda s: True, lambda s: 0.0)
    w2.asleep()
    assert not w2.check(step, 60.0, lambda s: True, lambda s: 0.0)
    assert w2.check(step, 71.0, lambda s: True, lambda s: 0.0)


@pytest.mark.parametrize("n", [3, 4])
def test_no_false_alarm_in_an_ordinary_game(n):
    """Every remaining seat now answers each attempt by itself: an ordinary game with no
    attempt sees none of it."""
    net = MemoryNetwork.create(n, seed=f"w10-{n}")
    net.start()
    net.run(max_idle=400)
    for p in net.peers:
        assert p.status == "over" and p.audit_result and p.audit_result[0]
        assert not [a for a in p.alerts if a.kind in ("cheat", "desync", "error")]


def test_a_deck_dispute_is_not_abandoned_before_the_withholder_is_named():
    """Seat 2 tampered with its shuffle and never publishes its audit of that deck.  The
    honest peers used to stop and leave within ~2 s, before the deadline that names the
    withholder: the cheater was never named.  They now stay until the dispute is decided."""
    from net.session.effects import Out

    from test_attacks import _tamper_stage
    net = MemoryNetwork.create(3, seed="dp-shuffle")
    _tamper_stage(net.peers[2], "shuffle")
    net.peers[2].dispute.start = lambda *args, **kw: Out()     # never shows its secrets
    net.start()
    net.run(max_idle=30, until=lambda: all(p.status == STOPPED for p in net.peers[:2]))
    honest = net.peers[:2]
    assert all(p.status == STOPPED for p in honest), [p.status for p in honest]
    assert not any(p.finished for p in honest), "left before the dispute was decided"
    _silence(net, 20, step=0.4)
    for p in honest:
        assert p.finished
        assert "P2 (seat 2) withheld its deck audit" in p.stop_reason, p.stop_reason
        assert 2 in {a.seat for a in p.alerts if a.kind == "cheat"}


def test_a_seat_shown_alive_is_not_proposed_again_at_once():
    """Seat 0 votes by itself (``--auto-handoff``) on a seat its own view still shows
    silent, but the others see it alive and object with its heartbeat: seat 0 used to vote
    again at its next tick, and the vote-and-objection loop flooded every screen.  The
    seat is not proposed again before the automatic time has passed since."""
    net = _handoff_opened("w11")
    p0 = net.peers[0]
    p0.configure_handoff(auto=20.0)
    real = p0.liveness.stalled
    p0.liveness.stalled = lambda seat, now: 1000.0 if seat == TARGET else real(seat, now)
    net.down.discard(TARGET)
    _silence(net, 10, step=0.4)
    assert p0.handoffs.attempt.get(TARGET, 0) == 1, p0.handoffs.attempt
    calls = [a for a in net.peers[1].alerts if "called off" in a.text]
    assert len(calls) == 1, [a.text for a in calls]


def test_a_pause_with_3_players_offers_the_handoff_for_a_player_who_cannot_come_back():
    """Everyone else away: the game pauses and says to rejoin — but a player whose game
    files are gone never can; with 3-5 players the text says what is left then."""
    net = MemoryNetwork.create(3, seed="w12")
    for p in net.peers:
        p.timing.timeout = 20.0
    _waiting_for(net, 1, "w12")
    net.down.update({1, 2})
    _silence(net, 25)
    reason = net.peers[0].view.pause_reason(net.now)
    assert reason and "belfort rejoin" in reason and "handoff NAME" in reason, reason
    two = MemoryNetwork.create(2, seed="w13")
    for p in two.peers:
        p.timing.timeout = 20.0
    _waiting_for(two, 1, "w13")
    two.down.add(1)
    _silence(two, 25)
    reason = two.peers[0].view.pause_reason(two.now)
    assert reason and "handoff" not in reason, reason      # 2 players: no handoff to offer


def test_a_seat_back_from_a_long_silence_is_present_at_once_but_still_stalled():
    """The stall clock keeps running until the seat has stayed (a flapping seat cannot
    reset it), but presence — who keeps a finished peer here, whether a handoff's target
    is silent to us — reads the time since it was last heard."""
    lv = Liveness(3, 0, Names(["Ana", "Bo", "Cy"]), Timing(), ["human"] * 3, now=0.0)
    for t in range(0, 71):
        lv.seen(2, float(t))
        lv.check(float(t), {})
    lv.seen(1, 70.5)                     # Bo back after 70 s of silence
    lv.check(71.0, {})
    assert lv.silent(1, 71.0) < 1.0 and lv.stalled(1, 71.0) == 0.0
    assert lv.quiet(1, 71.0) > 70.0 and lv.absent(1)
    for t in range(72, 83):              # it stays: the stall is over
        lv.seen(1, float(t))
        lv.seen(2, float(t))
        lv.check(float(t), {})
    assert lv.quiet(1, 82.0) < 1.0 and not lv.absent(1)


def test_a_seat_that_left_for_now_during_a_handoff_is_not_accused_the_game_pauses():
    """Four players: seat 3 silent, seat 0 votes to hand it over, and seat 1 leaves for
    now before it answers.  It owes its answer only while it is there: with two seats away
    neither can be handed over, so the game pauses — nobody is named."""
    net = _handoff_opened("w14")
    gone = net.peers[1]
    gone.leave_for_now(net.now)
    net._collect(gone)
    net.down.add(1)
    net.pump()
    _silence(net, 40, step=0.4)
    for p in (net.peers[0], net.peers[2]):
        assert p.status == "playing", (p.seat, p.stop_reason)
        assert not _alerts(p), _alerts(p)
        reason = p.view.pause_reason(net.now)
        assert reason and "P1 left for now" in reason, reason
