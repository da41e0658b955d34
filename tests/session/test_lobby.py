"""Lobby refusals, with a real host process and joiners in this process or as processes."""

import socket

import pytest

from net.crypto import Identity
from net.node.lobby import JoinLobby, LobbyError
from net.session.config import PROTOCOL
from net.node.transport import curve_keypair

pytestmark = pytest.mark.e2e     # a host process in every test


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def host_proc(spawn, players=2, *extra):
    h = spawn("host", "--name", "Ana", "--players", players, "--bind", "127.0.0.1", "--port", 0,
              "--level", "random", "--data-dir", spawn.dir / "host", "--timeout", 60, *extra,
              label="host")
    return h, h.wait_event("lobby", 20)


def probe(ctx, addr, **kw):
    j = JoinLobby(ctx, addr, Identity.generate(), kw.pop("name", "Zed"), curve_keypair(), 1, **kw)
    try:
        return j.connect(5.0)
    finally:
        j.close()


def test_wrong_version_refused_with_reason(spawn, ctx):
    _h, lobby = host_proc(spawn)
    with pytest.raises(LobbyError, match=f"wrong version: the host runs {PROTOCOL}"):
        probe(ctx, lobby["address"], protocol="belfort-lan/session/0")


def test_different_ruleset_refused(spawn, ctx):
    _h, lobby = host_proc(spawn)
    with pytest.raises(LobbyError, match="different ruleset"):
        probe(ctx, lobby["address"], ruleset_sha="ab" * 32)


def test_matching_ruleset_and_host_fingerprint(spawn, ctx):
    _h, lobby = host_proc(spawn, 3)
    welcome = probe(ctx, lobby["address"], ruleset_sha=lobby["ruleset_sha"])
    assert welcome["fingerprint"] == lobby["fingerprint"]
    assert welcome["your_seat"] == 1
    assert lobby["join"] == f"belfort join {lobby['address']}"


def test_game_full(spawn, ctx):
    h, lobby = host_proc(spawn, 2, "--start-after", "30")
    # the host counts itself: one more fills a 2-seat game... as long as it is in the lobby
    j = JoinLobby(ctx, lobby["address"], Identity.generate(), "Bo", curve_keypair(), 1)
    try:
        j.connect(5.0)
        with pytest.raises(LobbyError, match="game full|already started"):
            probe(ctx, lobby["address"], name="Cy")
    finally:
        j.leave()
        j.close()


def test_address_unreachable_process(spawn):
    p = spawn("join", f"tcp://127.0.0.1:{free_port()}", "--name", "Bo",
              "--data-dir", spawn.dir / "j", label="join")
    r = p.result(30)
    assert r["rc"] == 2
    assert "address unreachable" in r["text"]


def test_name_taken(spawn, ctx):
    _h, lobby = host_proc(spawn, 3)
    with pytest.raises(LobbyError, match="name 'ana' is taken"):
        probe(ctx, lobby["address"], name="ana")


def test_a_mistyped_address_says_nothing_answers_and_how_to_find_the_game(spawn):
    """A first-time joiner who mistypes the address is told that nothing answers there
    and how to find the game — not a paragraph about lost seat files and handoff."""
    p = spawn("join", f"tcp://127.0.0.1:{free_port()}", "--name", "Bo",
              "--data-dir", spawn.dir / "new", label="join")
    r = p.result(30)
    assert r["rc"] == 2
    text = r["text"]
    assert text.startswith("address unreachable"), text
    assert "`belfort join` with no address" in text, text
    for word in ("handoff", "stored", "files", "rejoin"):
        assert word not in text, (word, text)
