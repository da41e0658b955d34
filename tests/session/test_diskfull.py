"""A full disk while the game log is written (in memory): the peer whose log cannot be
written stops playing for now with a clear message, nobody is accused, nothing it sent
is missing from its log, and a rejoin once space is freed continues the game to the
uninterrupted game's result."""

import errno
import os

import belfort
import pytest

from net.session.core import SessionPeer
from net.session.memnet import MemoryNetwork, fixed_master
from net.node.storage import GameStore
from tests.session.test_rejoin import _reference, no_false_alarm


class FullDisk(GameStore):
    """A store whose disk fills up at its ``fail_at``-th write: that record is half
    written (a short write, as the kernel does when the space runs out in the middle),
    then it and every later write fail with ENOSPC."""

    fail_at = 1 << 30
    writes = 0

    def _write(self, data: bytes) -> None:
        self.writes += 1
        if self.writes >= self.fail_at:
            if self.writes == self.fail_at:
                os.write(self._fd, data[:len(data) // 2])
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        super()._write(data)


def _no_alarm_anywhere(net):
    for q in net.peers:
        no_false_alarm(q)
        bad = [a.text for a in q.alerts if "internal error" in a.text]
        assert not bad, (q.seat, bad)


def _restart(net, seat, cls=GameStore):
    """The victim's files, loaded again as `belfort rejoin` does (``cls`` its new store)."""
    st = GameStore(net.peers[seat].log.store.dir)
    cfg, _seat, sec, _meta = st.load()
    records, notes = st.recover_log(cfg, seat)
    store = cls(st.dir)
    store.load()
    p = SessionPeer(cfg, seat, net.identities[seat], sec["master"], store=store, now=net.now)
    p.restore(records, net.now)
    store.open_log()
    return p, notes


def _halted(net, seat):
    p = net.peers[seat]
    net.run(max_idle=40, until=lambda: getattr(p, "log_failed", None) is not None)
    assert getattr(p, "log_failed", None), "the disk never filled up"
    assert p.status == "playing"
    text = str(p.log_failed)
    assert "the disk is full" in text and "belfort rejoin" in text, text
    assert any("the disk is full" in str(a.text) for a in p.alerts)
    assert not p.decision_needed()
    # the others go on without it as with a player who left for now; nobody is named
    net.run(max_idle=20)
    for q in net.peers:
        if q.seat != seat:
            assert q.status == "playing", (q.seat, q.stop_reason)
            assert q.liveness.left_of[seat]
    _no_alarm_anywhere(net)


@pytest.mark.parametrize("when,n,seed,at", [("mid-game", 3, "df3", 0.4),
                                            ("mid-game", 2, "df2", 0.6),
                                            ("rejoin", 3, "df3r", 0.5)])
def test_full_disk_stops_the_peer_and_a_rejoin_finishes_the_game(tmp_path, when, n, seed, at):
    ref = _reference(n, seed)
    net = MemoryNetwork.create(n, seed=seed, level="random")
    victim = n - 1
    st = FullDisk.create(tmp_path, net.peers[0].cfg, victim,
                         {"master": fixed_master(seed, victim)})
    st.open_log()
    net.peers[victim].log.store = st
    net.start()
    net.run(until=lambda: net.delivered >= int(ref.delivered * at))
    if when == "mid-game":
        st.fail_at = st.writes + 40
    else:
        # killed, then its rejoin runs out of space while catching up from the others
        net.down.add(victim)
        st.close()
        net.run(max_idle=8)
        p, notes = _restart(net, victim, FullDisk)
        assert notes == []
        p.log.store.fail_at = p.log.store.writes + 12
        net.rejoin(victim, p)
    _halted(net, victim)
    net.peers[victim].log.store.close()
    # space freed: `belfort rejoin`
    p, notes = _restart(net, victim)
    assert notes == [], notes          # the log stayed whole: nothing to set aside
    net.rejoin(victim, p)
    net.run(max_idle=200)
    for q in net.peers:
        assert q.status == "over", (q.seat, q.stop_reason, [a.text for a in q.alerts][-5:])
        assert q.audit_result and q.audit_result[0], q.audit_result
    _no_alarm_anywhere(net)
    assert {belfort.state_hash(q.game) for q in net.peers} == \
        {belfort.state_hash(ref.peers[0].game)}
