"""The lobby against a hostile LAN: one test per defence.  The host's lobby and joiners run in this
process over 127.0.0.1 (random ports, linger 0)."""

import threading

import pytest
import zmq

from net.crypto import Identity
from net.node.lobby import MAX_LOBBY_FRAME, JoinLobby, LobbyError, _sign
from net.node.names import skeleton
from net.session.text import name_problem
from net.node.transport import ZmqMesh, curve_keypair
from tests.session.lobby_host import ThreadedHost


@pytest.fixture
def host(ctx):
    h = ThreadedHost(ctx, players=3)
    yield h
    h.close()


def joiner(ctx, host, name="Bo", ident=None):
    j = JoinLobby(ctx, host.lobby.address, ident or Identity.generate(), name, curve_keypair(),
                  40001)
    return j


def test_a_replayed_hello_cannot_rebind_a_seat(ctx, host):
    bo = joiner(ctx, host)
    sent = []
    real_send = bo.dealer.send
    bo.dealer.send = lambda data, *a: (sent.append(data), real_send(data, *a))[1]
    try:
        assert bo.connect(5.0)["your_seat"] == 1
        seat_rid = host.lobby.seats[1].rid
        # an attacker replays both of Bo's hellos from a connection of its own
        evil = ctx.socket(zmq.DEALER)
        evil.linger = 0
        evil.connect(host.lobby.address)
        for data in sent:
            evil.send(data)
        got = []
        while evil.poll(1000):
            got.append(evil.recv())
        types = [m for m in got if b"lobby/welcome" in m]
        assert types == []                         # challenged again, never welcomed
        assert any(b"lobby/challenge" in m for m in got)
        with host.lock:
            assert host.lobby.seats[1].rid == seat_rid     # Bo's seat stays Bo's
        evil.close(0)
    finally:
        bo.close()


def test_a_welcome_answers_our_own_fresh_nonce(ctx, host):
    bo = joiner(ctx, host)
    try:
        welcome = bo.connect(5.0)
        assert welcome["nonce"] == bo.nonce and len(bo.nonce) == 16
        other = joiner(ctx, host, "Cy")
        assert other.nonce != bo.nonce
        other.close()
    finally:
        bo.close()


def test_the_key_of_a_joiner_who_left_leaves_the_mesh_allow_list(ctx, host):
    bo = joiner(ctx, host)
    bo.connect(5.0)
    curve = host.joined[0]
    bo.leave()
    bo.close()
    deadline = threading.Event()
    for _ in range(200):
        if host.left:
            break
        deadline.wait(0.02)
    assert host.left == [curve]
    # the mesh: admitted by its key with no seat while in the lobby, forgotten on leaving
    pub, sec = curve_keypair()
    mesh = ZmqMesh(ctx, 0, pub, sec, bind="tcp://127.0.0.1:*")
    try:
        mesh.admit(curve)
        assert mesh.keys.allowed[curve.encode()] is None       # no lobby index
        mesh.forget(curve)
        assert curve.encode() not in mesh.keys.allowed
    finally:
        mesh.close()


@pytest.mark.parametrize("name, why", [
    ("Bo\x1b[2J", "no control characters or escape codes"),
    ("\x1b]0;x\x07", "no control characters or escape codes"),
    ("B\u202eo", "no control characters or escape codes"),
    ("x" * 25, "at most 24 characters"),
    ("   ", "empty"),
])
def test_names_are_printable_and_bounded(ctx, host, name, why):
    assert why in name_problem(name)
    j = joiner(ctx, host, name)
    try:
        with pytest.raises(LobbyError, match=why):
            j.connect(5.0)
    finally:
        j.close()


@pytest.mark.parametrize("alike", ["ANA", "Аna", "Ａｎａ", "Anä", "A na", "Αnα"])
def test_look_alikes_of_a_seated_name_are_refused(ctx, host, alike):
    assert skeleton(alike) == skeleton("Ana")
    j = joiner(ctx, host, alike)
    try:
        with pytest.raises(LobbyError, match="is taken|looks like 'Ana'"):
            j.connect(5.0)
    finally:
        j.close()
    assert skeleton("Bo") != skeleton("Ana")


def test_the_lobby_socket_refuses_oversized_frames(ctx, host):
    assert host.lobby.router.getsockopt(zmq.MAXMSGSIZE) == MAX_LOBBY_FRAME
    big = ctx.socket(zmq.DEALER)
    big.linger = 0
    big.connect(host.lobby.address)
    ident = Identity.generate()
    big.send(_sign(ident, "lobby/hello", {"name": "Big", "padding": b"x" * (4 * MAX_LOBBY_FRAME),
                                          "key": ident.public_bytes}))
    assert big.poll(500) == 0               # the host dropped the connection, said nothing
    big.close(0)
    bo = joiner(ctx, host)                  # and goes on serving others
    try:
        assert bo.connect(5.0)["your_seat"] == 1
    finally:
        bo.close()


def test_a_host_closing_its_lobby_tells_the_joiners_at_once(ctx, host):
    """The host closes the lobby (Ctrl-C before the start): the joiners hear it from the
    host itself, signed with the key they pinned, instead of timing out 20 s later."""
    import time
    bo = joiner(ctx, host)
    try:
        bo.connect(5.0)
        done = {}

        def wait():
            t0 = time.monotonic()
            try:
                bo.wait_start(60)
            except LobbyError as exc:
                done["text"], done["s"] = str(exc), time.monotonic() - t0
        t = threading.Thread(target=wait)
        t.start()
        host.close()
        t.join(30)
        assert done["text"] == "the host closed the game", done
        assert done["s"] < 10          # not the 18 s silence of a host that vanished
    finally:
        bo.close()


def test_a_forged_lobby_closed_is_ignored(ctx, host):
    """Only the host's key can close the game for a joiner."""
    bo = joiner(ctx, host)
    try:
        bo.connect(5.0)
        forged = _sign(Identity.generate(), "lobby/closed", {})
        bo.dealer.close(0)
        bo.dealer = ctx.socket(zmq.DEALER)      # stand-in: the frame arrives as from the host
        bo.dealer.linger = 0
        pair = ctx.socket(zmq.ROUTER)
        pair.linger = 0
        port = pair.bind_to_random_port("tcp://127.0.0.1")
        bo.dealer.connect(f"tcp://127.0.0.1:{port}")
        bo.dealer.send(b"hi")
        rid, _hi = pair.recv_multipart()
        pair.send_multipart([rid, forged])
        with pytest.raises(LobbyError, match="did not start the game in time"):
            bo.wait_start(2.5)
        pair.close(0)
    finally:
        bo.close()
