"""A peer killed at the very end of the game (found by scripts/soak.py): the
others already hold every message they need from it, finish and audit, while it never
saw their last messages.  A finished peer stays reachable for it (up to the stall time,
never longer than every seat needs), so its rejoin finishes with the same final hash,
scores and audit; a peer whose others are all gone for good says so plainly."""

import belfort

from net.session.config import Timing
from net.session.core import SessionPeer
from net.session.memnet import MemoryNetwork, fixed_master
from net.node.storage import GameStore

from tests.session.test_rejoin import _reference, no_false_alarm

N, SEED = 2, "endgame"


def _kill_at_the_end(tmp_path, stall=None, finished=False, stored=()):
    """Play until the victim has sent its very last envelope (the others then need
    nothing more from it), and kill it before the others' last messages reach it (or,
    ``finished``, right after it finished).  ``stall``: the stall time; ``stored``: more
    seats that keep a log (they can be restarted)."""
    ref = _reference(N, SEED)
    victim = N - 1
    last = len(ref.peers[victim].sent)
    net = MemoryNetwork.create(N, seed=SEED, level="random")
    stores = {}
    for s in (victim, *stored):
        stores[s] = GameStore.create(tmp_path, net.peers[0].cfg, s,
                                     {"master": fixed_master(SEED, s)})
        stores[s].open_log()
        net.peers[s].log.store = stores[s]
        if stall is not None:
            net.peers[s].timing.timeout = stall
    for p in net.peers:
        if stall is not None:
            p.timing.timeout = stall
    dead = (lambda v: v.finished) if finished else (lambda v: len(v.sent) >= last)
    net.start()
    # one frame at a time, so the kill falls exactly where it should
    while not net.down:
        while net.queue and not net.down:
            src, dst, data = net.queue.popleft()
            net.peers[dst].receive(data, net.now, src)
            net.delivered += 1
            net._collect(net.peers[dst])
            if dead(net.peers[victim]):
                net.down.add(victim)              # SIGKILL: messages to it are lost
        if not net.down and not net.step_bots():
            net.now += 0.3
            for p in net.peers:
                p.tick(net.now)
                net._collect(p)
    stores[victim].close()
    assert net.peers[victim].finished == finished, "the scenario"
    return net, victim, stores


def _pass(net, gone, seconds, step=0.3):
    """Time passes; a peer that may leave (SessionPeer.may_leave) leaves for good."""
    end = net.now + seconds
    while net.now < end:
        net.pump()
        net.step_bots()
        net.pump()
        for p in net.peers:
            if p.seat not in net.down and p.view.may_leave(net.now):
                p.leaving(net.now)
                gone.add(p.seat)
                net.down.add(p.seat)
        net.now += step
        for p in net.peers:
            if p.seat not in net.down:
                p.tick(net.now)
                net._collect(p)


def _rejoin(net, victim, st):
    """``victim`` restarted from its files (belfort rejoin)."""
    store = GameStore(st.dir)
    cfg, seat, sec, _meta = store.load()
    records, _notes = store.recover_log(cfg, seat)
    p = SessionPeer(cfg, seat, net.identities[seat], sec["master"], store=store, now=net.now,
                    timing=net.peers[0].timing)
    p.restore(records, net.now)
    store.open_log()
    return net.rejoin(victim, p)


def test_a_peer_killed_at_the_end_rejoins_and_finishes_like_the_others(tmp_path):
    net, victim, stores = _kill_at_the_end(tmp_path)
    gone: set = set()
    _pass(net, gone, 10.0)          # the others finish; the victim is restarted 10 s later
    others = [p for p in net.peers if p.seat != victim]
    assert all(p.finished for p in others)
    p = _rejoin(net, victim, stores[victim])
    _pass(net, gone, 8.0)
    _same_as_uninterrupted(p)
    for q in net.peers:
        no_false_alarm(q)
    # every seat said it finished: everyone leaves at once
    assert gone == set(range(N)), gone


def _same_as_uninterrupted(p):
    ref = _reference(N, SEED).peers[0]
    assert p.finished and p.status == "over", (p.status, [a.text for a in p.alerts])
    assert belfort.state_hash(p.game) == belfort.state_hash(ref.game)
    assert p.history == ref.history
    assert p.audit_result and p.audit_result[0], p.audit_result
    assert belfort.public_view(p.game)["players"] == belfort.public_view(ref.game)["players"]


def test_a_normal_end_leaves_at_once():
    """Every seat said it finished: nobody stays a moment longer."""
    net = _reference(N, SEED)
    assert all(p.view.may_leave(net.now) for p in net.peers)
    assert all(p.view.farewell(net.now) is None for p in net.peers)
    assert all(p.view.staying(net.now) is None for p in net.peers)


def test_closing_the_window_while_a_seat_lacks_the_end_says_we_stay_for_it(tmp_path):
    """What the window's person is told as it closes (NetDriver.staying): the seat killed
    at the very end is named, with how long we stay at most; once it rejoined and
    finished, nothing — the window closes and the peer leaves at once."""
    net, victim, stores = _kill_at_the_end(tmp_path)
    gone: set = set()
    _pass(net, gone, 10.0)
    p0 = net.peers[0]
    assert p0.finished and p0.view.staying_for(net.now) == [victim]
    text = p0.view.staying(net.now)
    assert text.startswith("The game is over. Staying until P1 also has the end of the game "
                           "(at most 2:5"), text
    assert text.endswith("— Ctrl-C leaves now.")
    _rejoin(net, victim, stores[victim])
    _pass(net, gone, 8.0)
    assert p0.view.staying_for(net.now) == [] and p0.view.staying(net.now) is None


def test_gone_for_good_the_others_leave_at_the_stall_time_and_say_how_to_finish(tmp_path):
    """The victim stays away past the stall time: the others leave then, saying how it can
    get the end.  Back later with nobody there, it says plainly what it lacks and how to
    get it (not merely "paused"); one of the others restarted (`belfort rejoin --game`)
    gives it the end, and both leave once it finished."""
    stall = 20.0
    net, victim, stores = _kill_at_the_end(tmp_path, stall=stall, stored=(0,))
    gone: set = set()
    _pass(net, gone, stall - 3)
    assert not gone, "a finished peer stays reachable while a seat has not finished"
    _pass(net, gone, 6.0)
    assert gone == {0}
    for q in net.peers[:victim]:
        said = [a.text for a in q.alerts if a.kind == "info"]     # as it left
        assert len(said) == 1 and "but P1 (silent 0:2" in said[0], said
        assert "`belfort rejoin --game " + q.cfg.game_id[:12] + "` on this machine" in said[0]
    p = _rejoin(net, victim, stores[victim])
    _pass(net, gone, 4.0)          # the catch-up time passes: nobody answered
    assert not p.finished
    said = [a.text for a in p.alerts if a.kind == "info"]
    assert said and "the deck audit of P0" in said[-1], said
    assert "belfort rejoin --game " + p.cfg.game_id[:12] in said[-1]
    _pass(net, gone, stall)
    why = p.view.pause_reason(net.now)
    assert why is not None and "lacks the deck audit of P0 " in why, why
    assert not p.view.may_leave(net.now)
    stores[0].close()
    server = _rejoin(net, 0, stores[0])     # a finished game's peer, restarted
    assert server.finished
    gone.discard(0)
    _pass(net, gone, 4.0)
    _same_as_uninterrupted(p)
    assert {0, victim} <= gone, gone
    for q in (p, server):
        no_false_alarm(q)


def test_a_peer_killed_once_finished_finishes_alone_from_its_log(tmp_path):
    """Killed right after it finished: the others leave at once (it said so); back with
    nobody there, it replays to the same end and leaves without waiting."""
    net, victim, stores = _kill_at_the_end(tmp_path, finished=True)
    gone: set = set()
    _pass(net, gone, 3.0)
    assert gone == {0}
    p = _rejoin(net, victim, stores[victim])
    assert p.finished
    _pass(net, gone, 4.0)
    assert victim in gone
    _same_as_uninterrupted(p)
    assert p.view.farewell(net.now) is None and p.view.lacking(net.now) is None


def test_who_keeps_a_finished_peer_here():
    """A seat that finished (and holds ours) never keeps us; one we heard that has not
    finished keeps us up to the stall time; one never heard since our (re)start, or one
    that said it finished without holding all of ours, only the disconnection time."""
    from net.session.endgame import keeps
    t = Timing()
    assert not keeps(0.0, True, True, True, t)
    assert keeps(t.timeout - 1, True, False, True, t)
    assert not keeps(t.timeout + 1, True, False, True, t)
    assert keeps(t.disconnected - 0.5, False, False, False, t)
    assert not keeps(t.disconnected + 0.5, False, False, False, t)
    assert not keeps(t.disconnected + 0.5, True, True, False, t)


class _Proc:
    """A bot process the host started (only what stop_own_bots uses)."""

    def __init__(self):
        self.calls = []

    def terminate(self):
        self.calls.append("terminate")

    def wait(self, timeout=None):
        self.calls.append("wait")

    def kill(self):
        self.calls.append("kill")


def test_the_host_leaves_its_finished_bots_to_serve_the_end():
    """The host's person closes the window once the game is over: the bots it started
    (detached peers) are neither waited for nor killed — each leaves by its own rule, so
    it too can give the end to a seat killed at the very end.  Before the end, with no
    other person left, they are stopped as before."""
    from types import SimpleNamespace

    from net.node.node import Node
    cfg = SimpleNamespace(kinds=["human", "bot", "bot"])
    for status, want in (("over", []), ("running", ["terminate", "wait"])):
        procs = [_Proc(), _Proc()]
        host = SimpleNamespace(peer=SimpleNamespace(cfg=cfg, seat=0, status=status),
                               procs=procs)
        Node.stop_own_bots(host)
        assert [p.calls for p in procs] == [want, want], status


def test_stopping_the_bots_asks_them_all_before_waiting_for_any():
    """The person closes the window before the end with nobody else in the game: every
    bot is told to stop first, then they are waited for together (5 s in all, not 5 s
    each: two slow bots kept a closing window blank for 10 s), and one that does not
    stop in time is killed."""
    import subprocess
    from types import SimpleNamespace

    from net.node.node import Node
    calls = []

    class Proc:
        def __init__(self, name, stubborn):
            self.name, self.stubborn = name, stubborn

        def terminate(self):
            calls.append(("terminate", self.name))

        def wait(self, timeout=None):
            calls.append(("wait", self.name, timeout))
            if self.stubborn:
                raise subprocess.TimeoutExpired("bot", timeout)

        def kill(self):
            calls.append(("kill", self.name))

    cfg = SimpleNamespace(kinds=["human", "bot", "bot"])
    host = SimpleNamespace(peer=SimpleNamespace(cfg=cfg, seat=0, status="running"),
                           procs=[Proc("b1", True), Proc("b2", False)])
    Node.stop_own_bots(host)
    assert [c[:2] for c in calls] == [("terminate", "b1"), ("terminate", "b2"), ("wait", "b1"),
                                      ("kill", "b1"), ("wait", "b2")]
    waits = [c[2] for c in calls if c[0] == "wait"]
    assert 0 <= waits[1] <= waits[0] <= 5
