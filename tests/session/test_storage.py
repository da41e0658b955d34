"""The on-disk log: each record carries a MAC chained to the previous one, so a rejoin
trusts what it wrote itself (no second signature check) and checks in full anything
damaged or foreign (storage.py: re-verifying its own log cost a rejoin a third of its
replay)."""

import belfort
import pytest

from net.session.core import SessionPeer
from net.session.intake import SessionVerifier
from net.session.memnet import MemoryNetwork, fixed_master
from net.node.storage import GameStore


def _logged_game(tmp_path, seed, seat=1, upto=None):
    net = MemoryNetwork.create(3, seed=seed)
    st = GameStore.create(tmp_path, net.peers[0].cfg, seat, {"master": fixed_master(seed, seat)})
    net.peers[seat].log.store = st
    net.start()
    net.run(until=(lambda: net.delivered >= upto) if upto else None)
    st.close()
    return net, st


def _count_verifies(monkeypatch):
    calls = []
    real = SessionVerifier.verify

    def counting(self, envelope, decoded=None, **checks):
        calls.append(1)
        return real(self, envelope, decoded, **checks)
    monkeypatch.setattr(SessionVerifier, "verify", counting)
    return calls


def _rebuild(net, st, seat=1):
    store = GameStore(st.dir)
    cfg, _seat, sec, _ = store.load()
    p = SessionPeer(cfg, seat, net.identities[seat], sec["master"])
    return p, store.records()


def test_an_intact_log_is_replayed_without_checking_signatures_again(tmp_path, monkeypatch):
    net, st = _logged_game(tmp_path, "st1")
    p, records = _rebuild(net, st)
    assert records and all(checked is True for _k, _p, checked in records)
    calls = _count_verifies(monkeypatch)
    p.restore(records)
    assert calls == []                      # every envelope was admitted by its MAC
    assert belfort.state_hash(p.game) == belfort.state_hash(net.peers[1].game)
    assert not p.restore_problems


def test_a_flipped_byte_is_not_trusted(tmp_path, monkeypatch):
    net, st = _logged_game(tmp_path, "st2", upto=300)
    path = st.dir / "log"
    data = bytearray(path.read_bytes())
    records = GameStore(st.dir).records()
    # flip a byte inside the signature of the last record's envelope
    target = len(records) - 1
    assert records[target][0] == "in"
    offset = 0
    for _ in range(target + 1):        # the head record first
        offset += 4 + int.from_bytes(data[offset:offset + 4], "big")
    size = int.from_bytes(data[offset:offset + 4], "big")
    data[offset + 4 + size - 30] ^= 0x01          # inside the record, before its MAC
    path.write_bytes(bytes(data))
    p, records = _rebuild(net, st)
    assert records[target][2] is False
    assert all(r[2] is True for i, r in enumerate(records) if i != target)
    calls = _count_verifies(monkeypatch)
    p.restore(records)
    assert calls, "the damaged record was not checked"
    assert p.restore_problems and "refused" in p.restore_problems[0]


def test_a_damaged_decision_of_ours_ends_the_replay_there(tmp_path):
    net, st = _logged_game(tmp_path, "st3", upto=300)
    records = GameStore(st.dir).records()
    first_submit = next(i for i, r in enumerate(records) if r[0] == "submit")
    records[first_submit] = (records[first_submit][0], records[first_submit][1], False)
    p, _ = _rebuild(net, st)
    p.restore(records)
    assert p.restore_problems == ["the log's record of our 'submit' is damaged: "
                                  "the replay stops there"]
    assert len(p.history) < len(net.peers[1].history)


def test_another_seats_log_is_checked_in_full(tmp_path, monkeypatch):
    net, st = _logged_game(tmp_path, "st4")
    # the same file under another master secret (another seat's directory, say)
    store = GameStore(st.dir)
    store._key = b"\x00" * 32
    assert all(checked is False for _k, _p, checked in store.records())


@pytest.mark.parametrize("cut", [1, 7])
def test_a_torn_last_record_is_kept_aside_and_the_chain_goes_on(tmp_path, cut):
    """Nothing is cut off on disk; the torn file is kept as log.damaged-1."""
    net, st = _logged_game(tmp_path, "st5", upto=100)
    path = st.dir / "log"
    whole = len(GameStore(st.dir).records())
    torn = path.read_bytes()[:-cut]
    path.write_bytes(torn)                         # power lost during the last write
    again = GameStore(st.dir)
    records, notes = again.recover_log()
    assert len(records) == whole - 1
    assert notes and "ends inside record" in notes[0] and "log.damaged-1" in notes[0]
    assert (st.dir / "log.damaged-1").read_bytes() == torn
    again.open_log()
    again.append("submit", ["pass"])
    again.close()
    records = GameStore(st.dir).records()
    assert len(records) == whole                   # the torn one gone, the new one in
    assert all(checked is True for _k, _p, checked in records)
