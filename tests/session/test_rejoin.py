"""Rejoin from any local state, in memory: a peer whose log is intact, cut
mid-record, has one flipped byte, or is gone fetches what it lacks from the others (its
own signed messages included), checks every signature and ends with the same result as
an uninterrupted game, with no false alarm on any peer."""

import belfort
import pytest

from net.session.core import SessionPeer
from net.session.memnet import MemoryNetwork, fixed_master
from net.node.storage import GameStore


def damage(path, how):
    """Do to the log file what a crash, a disk or a person might."""
    data = path.read_bytes()
    if how == "intact":
        return
    if how == "truncated":       # cut in the middle of a record, past half the file
        path.write_bytes(data[:len(data) * 3 // 5 + 3])
    elif how == "flipped":
        b = bytearray(data)
        b[len(b) // 2] ^= 0x10
        path.write_bytes(bytes(b))
    elif how == "deleted":
        path.unlink()
    else:
        raise ValueError(how)


class _Otherwise:
    """A bot that would decide differently from the original one (a person deciding
    again): if the session let it re-make a decision the others already hold, the game
    would diverge from the uninterrupted one."""

    def __init__(self, bot, before_version):
        self.bot, self.before = bot, before_version

    def choose(self, game, seat):
        first = self.bot.choose(game, seat)
        if game.version >= self.before:
            return first
        others = [c for c in belfort.legal_commands(game, seat)
                  if belfort.command_text(c) != belfort.command_text(first)]
        return others[0] if others else first


def no_false_alarm(peer):
    bad = [a.text for a in peer.alerts if a.kind in ("cheat", "desync")]
    assert not bad, (peer.seat, bad)


_REFS: dict = {}


def _reference(n, seed):
    """The uninterrupted game (the same secrets, so the same seed, deck and bots)."""
    if (n, seed) not in _REFS:
        ref = MemoryNetwork.create(n, seed=seed, level="random")
        ref.start()
        ref.run()
        _REFS[(n, seed)] = ref
    return _REFS[(n, seed)]


def _kill_and_rejoin(tmp_path, n, seed, how, kill_at):
    ref = _reference(n, seed)
    kill_after = int(ref.delivered * kill_at)
    net = MemoryNetwork.create(n, seed=seed, level="random")
    victim = n - 1
    st = GameStore.create(tmp_path, net.peers[0].cfg, victim,
                          {"master": fixed_master(seed, victim)})
    st.open_log()
    net.peers[victim].log.store = st
    net.start()
    net.run(until=lambda: net.delivered >= kill_after)
    net.down.add(victim)          # SIGKILL: messages to it are lost
    st.close()
    net.run(max_idle=8)
    damage(st.dir / "log", how)
    store = GameStore(st.dir)
    cfg, seat, sec, _meta = store.load()
    records, notes = store.recover_log(cfg, seat)
    p = SessionPeer(cfg, seat, net.identities[seat], sec["master"], store=store, now=net.now)
    p.restore(records, net.now)
    store.open_log()
    net.peers[victim] = p
    # every decision before the others' version was made already: made again, it
    # would differ
    net.bots[victim] = _Otherwise(net.bots[victim], net.peers[0].game.version)
    net.down.discard(victim)
    p.announce(net.now)
    net._collect(p)
    net.run(max_idle=200)
    for q in net.peers:
        assert q.status == "over", (q.seat, q.stop_reason, [a.text for a in q.alerts])
        assert q.audit_result and q.audit_result[0], q.audit_result
        no_false_alarm(q)
    want = belfort.state_hash(ref.peers[0].game)
    assert {belfort.state_hash(q.game) for q in net.peers} == {want}
    assert p.history == ref.peers[0].history
    return p, store, notes


MATRIX = [(how, 2, "rj2", 0.5) for how in ("intact", "truncated", "flipped", "deleted")] + \
    [(how, 3, "rj3", 0.3) for how in ("truncated", "deleted")] + [("flipped", 4, "rj4", 0.8)]
# (kept small: the whole matrix with processes is test_e2e_rejoin.py's)


@pytest.mark.parametrize("how,n,seed,kill_at", MATRIX)
def test_rejoin_from_any_log_gives_the_same_game(tmp_path, how, n, seed, kill_at):
    p, store, notes = _kill_and_rejoin(tmp_path, n, seed, how, kill_at)
    if how == "intact":
        assert notes == []
        assert not list(store.dir.glob("log.damaged-*"))
    else:
        assert notes and all(str(store.dir / "log") in t for t in notes), notes
        if how != "deleted":
            kept = list(store.dir.glob("log.damaged-*"))
            assert len(kept) == 1, "the damaged log is kept aside, not overwritten"


def test_a_byte_identical_copy_is_dropped_silently():
    """A duplicate of an accepted message (a reconnecting socket, a rejoiner re-sending
    what it re-made) is not a replay attack: no alert."""
    net = MemoryNetwork.create(3, seed="dup", level="random")
    net.start()
    net.run(until=lambda: net.delivered >= 200)
    sent = net.peers[1].sent[5]
    net.inject(1, 0, sent)
    net.inject(2, 0, sent)         # relayed by another seat, not in a resync
    net.pump()
    assert not net.peers[0].alerts, [a.text for a in net.peers[0].alerts]


def test_a_handed_back_owner_gets_no_false_alarm(tmp_path):
    """The owner of a seat handed to a bot rejoins from its log: it is told its
    seat is a bot's, without cheat alerts for the bot's messages of its seat (signed by
    the host) and without a false DESYNC; the others raise no alarm either."""
    from tests.session.test_handoff import _hand_over
    net = MemoryNetwork.create(3, seed="hb", level="random")
    gone = 2
    st = GameStore.create(tmp_path, net.peers[0].cfg, gone, {"master": fixed_master("hb", gone)})
    st.open_log()
    net.peers[gone].log.store = st
    net.start()
    net.run(until=lambda: net.peers[0].game is not None and net.peers[0].game.version > 60)
    st.close()
    _hand_over(net, gone)
    assert net.peers[0].status == "over"
    store = GameStore(st.dir)
    cfg, seat, sec, _ = store.load()
    records, _notes = store.recover_log(cfg, seat)
    back = SessionPeer(cfg, seat, net.identities[seat], sec["master"], now=net.now)
    back.restore(records, net.now)
    net.peers[gone] = back
    net.down.discard(gone)
    back.announce(net.now)
    net._collect(back)
    for _ in range(20):
        net.now += 0.5
        for p in net.peers:
            p.tick(net.now)
            net._collect(p)
        net.pump()
    assert back.status == "stopped" and "handed to a bot" in back.stop_reason
    for p in net.peers:
        bad = [a.text for a in p.alerts if a.kind in ("cheat", "desync")]
        assert not bad, (p.seat, bad)
    assert back.desync is None


def test_a_new_address_is_taken_from_signed_heartbeats_and_only_forward():
    """A peer back on another IP/port announces it in its heartbeats (signed with its
    identity key); the others reconnect there; an older announcement sent again cannot
    move it back, and a malformed one is refused by name."""
    net = MemoryNetwork.create(3, seed="mv", level="random")
    net.start()
    net.run(until=lambda: net.delivered >= 100)
    a, b = net.peers[0], net.peers[1]
    b.resync.move(1, "tcp://198.18.0.99:4000")
    b.announce(net.now)
    first = [d for _dest, d in b.take_outgoing()]
    net.now += 1
    a.receive(first[-1], net.now, 1)
    assert a.resync.take_moved() == [(1, "tcp://198.18.0.99:4000")]
    b.resync.move(2, "tcp://198.18.0.77:4001")
    b.tick(net.now + 5)
    second = [d for _dest, d in b.take_outgoing()]
    a.receive(second[-1], net.now + 5, 1)
    assert a.resync.take_moved() == [(1, "tcp://198.18.0.77:4001")]
    a.receive(first[-1], net.now + 6, 1)          # the old heartbeat again
    assert a.resync.take_moved() == []
    b.resync.move(3, "tcp://some.host.name:4000")         # names are never resolved
    b.tick(net.now + 10)
    third = [d for _dest, d in b.take_outgoing()]
    a.receive(third[-1], net.now + 10, 1)
    assert a.resync.take_moved() == []
    assert any(x.kind == "cheat" and x.seat == 1 and "mesh address" in x.text
               for x in a.alerts)
