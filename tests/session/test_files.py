"""Every damaged stored file gets a clear message naming the file and what is wrong, never a
traceback; nothing is dropped or overwritten.  No processes: node.rejoin's
checks run before anything listens."""

import os

import msgpack
import pytest

from net.node import node
from net.node.files import pack_file, read_file
from net.node.lobby import LobbyError
from net.session.memnet import local_config
from net.node.storage import GameStore, find_games


@pytest.fixture
def stored(tmp_path):
    cfg, ids = local_config(3, names=["Ana", "Bo", "Cy"], kinds=["human"] * 3)
    secrets = {"identity": ids[1].private_bytes(), "curve_public": "x" * 40,
               "curve_secret": "y" * 40, "master": b"\x07" * 32}
    st = GameStore.create(tmp_path / "data", cfg, 1, secrets, {"mesh": "tcp://127.0.0.1:1"})
    st.open_log()
    st.append("submit", ["pass"])
    st.close()
    return st


def _rejoin_error(st) -> str:
    with pytest.raises(LobbyError) as got:
        node.rejoin(st.dir, on_event=lambda ev: None)
    return str(got.value)


def test_intact_files_load(stored):
    cfg, seat, secrets, meta = GameStore(stored.dir).load()
    assert seat == 1 and cfg.names[1] == "Bo" and secrets["master"] == b"\x07" * 32


@pytest.mark.parametrize("damage,expected", [
    (lambda b: b[:len(b) - 9], "is truncated"),
    (lambda b: b[:-20] + bytes([b[-20] ^ 1]) + b[-19:], "checksum does not match"),
    (lambda b: b"", "is empty"),
    (lambda b: b"hello, this is a text file\n", "is not a belfort secrets file"),
    (lambda b: pack_file("config", {"x": 1}), "is a belfort config file, not a secrets file"),
])
def test_a_damaged_secrets_file_is_named_with_what_can_be_done(stored, damage, expected):
    path = stored.dir / "secrets.msgpack"
    path.write_bytes(damage(path.read_bytes()))
    text = _rejoin_error(stored)
    assert str(path) in text and expected in text, text
    # what is still possible: the others hand the seat to a bot (3 players)
    assert "handoff Bo" in text, text


def test_missing_secrets_say_so_plainly(stored):
    (stored.dir / "secrets.msgpack").unlink()
    text = _rejoin_error(stored)
    assert f"{stored.dir / 'secrets.msgpack'}: is missing" in text
    assert "master secret" in text and "handoff Bo" in text


def test_secrets_of_another_game_are_refused_by_name(stored, tmp_path):
    cfg2, ids2 = local_config(3)
    other = GameStore.create(tmp_path / "other", cfg2, 1, {"master": b"\x01" * 32})
    os.replace(other.dir / "secrets.msgpack", stored.dir / "secrets.msgpack")
    text = _rejoin_error(stored)
    assert "secrets.msgpack" in text and "another game's file" in text


@pytest.mark.parametrize("damage", ["flip", "cut", "delete"])
def test_a_damaged_config_is_rebuilt_from_the_secrets_file(stored, damage):
    path = stored.dir / "config.msgpack"
    data = path.read_bytes()
    if damage == "flip":
        path.write_bytes(data[:-5] + bytes([data[-5] ^ 0x40]) + data[-4:])
    elif damage == "cut":
        path.write_bytes(data[:len(data) // 2])
    else:
        path.unlink()
    st = GameStore(stored.dir)
    cfg, seat, _secrets, _meta = st.load()
    assert seat == 1 and cfg.names == ["Ana", "Bo", "Cy"]
    assert st.notes and str(path) in st.notes[0] and "rebuilt" in st.notes[0]
    if damage != "delete":
        assert (stored.dir / "config.msgpack.damaged-1").read_bytes() != path.read_bytes()
    read_file(path, "config")          # the rebuilt one is whole


def test_a_config_of_another_game_or_seat_is_named_and_replaced(stored, tmp_path):
    cfg, _ = local_config(3)
    path = stored.dir / "config.msgpack"
    path.write_bytes(pack_file("config", {"config": cfg.to_dict(), "seat": 2}))
    st = GameStore(stored.dir)
    cfg1, seat, _s, _m = st.load()
    assert seat == 1 and cfg1.names == ["Ana", "Bo", "Cy"]
    assert f"{path}: is the config of game {cfg.game_id} seat 2" in st.notes[0]
    assert (stored.dir / "config.msgpack.damaged-1").exists()


@pytest.mark.parametrize("how,what", [
    ("other-seat", "not of this game's seat 1"),
    ("garbage", "record 1 is damaged"),
])
def test_a_foreign_or_garbage_log_is_kept_aside(stored, tmp_path, how, what):
    log = stored.dir / "log"
    if how == "other-seat":
        cfg = GameStore(stored.dir).load()[0]
        other = GameStore.create(tmp_path / "o", cfg, 2, {"master": b"\x09" * 32})
        other.open_log()
        other.append("submit", ["pass"])
        other.close()
        log.write_bytes((other.dir / "log").read_bytes())
    else:
        log.write_bytes(b"\x00\x00\x00\x05hello")
    before = log.read_bytes()
    st = GameStore(stored.dir)
    cfg, seat, _s, _m = st.load()
    records, notes = st.recover_log(cfg, seat)
    assert records == []
    assert len(notes) == 1 and str(log) in notes[0] and what in notes[0], notes
    assert (stored.dir / "log.damaged-1").read_bytes() == before


def test_nothing_to_rejoin_names_the_data_directory(tmp_path):
    with pytest.raises(LobbyError) as got:
        node.rejoin(data_dir=tmp_path / "gone", on_event=lambda ev: None)
    text = str(got.value)
    assert str(tmp_path / "gone") in text and "does not exist" in text
    assert "handoff" in text


def test_a_game_with_its_secrets_gone_is_still_found(stored):
    (stored.dir / "secrets.msgpack").unlink()
    found = find_games(stored.dir.parent.parent)
    assert [g.dir for g in found] == [stored.dir]       # so rejoin can say what is missing


def test_old_files_without_a_header_are_still_read(stored):
    meta = read_file(stored.dir / "config.msgpack", "config")
    (stored.dir / "config.msgpack").write_bytes(msgpack.packb(meta, use_bin_type=True))
    cfg, seat, _s, _m = GameStore(stored.dir).load()
    assert seat == 1 and not GameStore(stored.dir).notes
