"""A game found on the LAN is joined only if the lobby that answers proves the key the
announcement named.  A DNS-SD record is anyone's to send: one copying the host's name
and key fingerprint with an attacker's address would otherwise lead the joiner into the
attacker's lobby.  In this process, real lobbies on 127.0.0.1 (random ports): the
genuine host Ana, and an attacker's lobby also calling itself Ana; the announcements are
given to `belfort join` (no address) in place of what multicast DNS would have found."""

import threading

import pytest

from net.crypto import Identity
from client import choose
from client import peer
from net.node.discovery import Game
from net.node.lobby import JoinLobby, LobbyError
from net.node.transport import curve_keypair
from tests.session.lobby_host import ThreadedHost


@pytest.fixture
def ana(ctx):
    h = ThreadedHost(ctx)
    yield h
    h.close()


@pytest.fixture
def mallory(ctx):
    h = ThreadedHost(ctx)                     # a lobby of its own, also calling itself Ana
    yield h
    h.close()


def announced(fingerprint, lobby):
    return Game("Ana", ["Ana"], 2, 1, fingerprint, [lobby.lobby.address], "Ana on x 1")


def join_announced(monkeypatch, tmp_path, game):
    """`belfort join --name Bo` without an address, the LAN announcing ``game``."""
    monkeypatch.setattr(choose, "browse", lambda timeout: [game])
    said = []
    args = peer.build_parser().parse_args(["join", "--name", "Bo", "--bind", "127.0.0.1",
                                           "--data-dir", str(tmp_path / "bo")])
    node = peer.start_node(args, said.append)
    return node, said


def test_an_announcement_with_another_key_than_the_lobby_s_is_refused(
        monkeypatch, tmp_path, ana, mallory):
    real = ana.identity.fingerprint
    # the attacker's record: Ana's name and key fingerprint, the attacker's address
    node, said = join_announced(monkeypatch, tmp_path, announced(real, mallory))
    assert node == 2                                      # a lobby failure: not joined
    error = [e for e in said if e["event"] == "error"][-1]
    text = str(error["text"])
    assert text == (f"the game announced as Ana {real} answered with key "
                    f"{mallory.identity.fingerprint}: not joined")
    assert not any(e["event"] in ("welcome", "started") for e in said)
    # and Bo left the attacker's lobby at once
    for _ in range(250):
        if mallory.names() == ["Ana"]:
            break
        threading.Event().wait(0.02)
    assert mallory.names() == ["Ana"]


def test_a_genuine_announcement_is_joined(monkeypatch, tmp_path, ana):
    ana.auto_start = True
    node, said = join_announced(monkeypatch, tmp_path, announced(ana.identity.fingerprint,
                                                                 ana))
    try:
        assert not isinstance(node, int), said
        welcome = next(e for e in said if e["event"] == "welcome")
        assert welcome["host_fingerprint"] == ana.identity.fingerprint
        assert next(e for e in said if e["event"] == "started")["roster"] == ["Ana", "Bo"]
    finally:
        if not isinstance(node, int):
            node.close()


def test_an_announced_fingerprint_is_compared_whatever_its_case_and_spaces(ctx, ana):
    fp = " " + ana.identity.fingerprint.lower() + " "
    j = JoinLobby(ctx, ana.lobby.address, Identity.generate(), "Bo", curve_keypair(), 40001,
                  expect=("Ana", fp))
    try:
        assert j.connect(5.0)["your_seat"] == 1
    finally:
        j.close()


def test_a_lobby_proving_another_key_is_refused_before_any_roster(ctx, ana):
    other = Identity.generate().fingerprint
    j = JoinLobby(ctx, ana.lobby.address, Identity.generate(), "Bo", curve_keypair(), 40001,
                  expect=("Ana", other))
    try:
        with pytest.raises(LobbyError, match=f"announced as Ana {other} answered with key "
                                             f"{ana.identity.fingerprint}: not joined"):
            j.connect(5.0)
        assert j.roster == [] and j.welcome is None
    finally:
        j.close()
