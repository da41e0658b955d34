"""A command brought by its own seat's connection reaches the game before its Ed25519
signature is checked (the transport authenticated that connection with the seat's
CurveZMQ key); the signature is checked before the envelope is logged, relayed, used as
evidence, or before anything of ours leaves (intake.py ``_on_word``, ``Intake.confirm``).

The frames are real ones of an in-memory game; the one under test is held back from
seat 0 (``tamper``) and then given to it by hand."""

import msgpack
import pytest

from net.crypto import encode_envelope
from net.session.intake import peek
from net.session.memnet import MemoryNetwork


class Records:
    """A log store that keeps its records in memory (msglog.RecordStore)."""

    def __init__(self) -> None:
        self.records: list = []

    def append(self, kind, payload) -> None:
        self.records.append((kind, payload))


def _held_command(seed: str) -> tuple[MemoryNetwork, bytes, Records]:
    """A 3-player game stopped where seat 1's first command for seat 0 was held back."""
    held: list[bytes] = []

    def hold(dest: int, data: bytes):
        if dest == 0 and not held and peek(data)["type"] == "sess/cmd":
            held.append(data)
            return None
        return data

    net = MemoryNetwork.create(3, seed=seed)
    net.tamper[1] = hold
    store = Records()
    net.peers[0].log.store = store
    net.start()
    net.run(until=lambda: bool(held))
    assert held, "seat 1 never decided alone"
    del net.tamper[1]
    return net, held[0], store


def _bad_signature(data: bytes) -> bytes:
    env = msgpack.unpackb(data, raw=False)
    sig = bytearray(env["sig"])
    sig[0] ^= 1
    return encode_envelope({"body": env["body"], "sig": bytes(sig)})


def test_a_command_on_its_own_connection_is_played_then_logged_once_its_signature_checks():
    net, data, store = _held_command("later-1")
    p = net.peers[0]
    version = p.game.version
    p.receive(data, net.now, 1)
    assert p.game.version == version + 1                  # in the game already
    assert data not in p.log.accepted[1]                  # not logged before its check
    assert ("in", data) not in store.records
    p.confirm(net.now)
    assert p.log.accepted[1][-1] == data and store.records[-1] == ("in", data)
    assert p.status == "playing" and not [a for a in p.alerts if a.kind != "info"]
    net.run()
    assert all(q.status == "over" and q.audit_result[0] for q in net.peers)


def test_a_bad_signature_on_the_seats_own_connection_stops_the_game_naming_it():
    """Only seat 1's connection can bring it, and the game holds the command already: the
    game stops with seat 1 named, and nothing of it is logged."""
    net, data, store = _held_command("later-2")
    p = net.peers[0]
    bad = _bad_signature(data)
    p.receive(bad, net.now, 1)
    p.confirm(net.now)
    assert p.status == "stopped"
    assert p.stop_reason.startswith("P1 (seat 1) sent a command with a bad signature over its "
                                    "own connection"), p.stop_reason
    assert any(a.kind == "cheat" and a.seat == 1 for a in p.alerts)
    assert bad not in p.log.accepted[1] and ("in", bad) not in store.records
    assert not p.intake.unconfirmed


@pytest.mark.parametrize("src", [2, None], ids=["another-seat", "unknown-connection"])
def test_a_bad_signature_from_any_other_connection_is_refused_at_the_door(src):
    """Relayed or from a connection the transport does not know: nothing reaches the game
    before its signature checks, so the game goes on waiting for the real one."""
    net, data, store = _held_command("later-3")
    p = net.peers[0]
    version = p.game.version
    p.receive(_bad_signature(data), net.now, src)
    assert p.game.version == version and p.status == "playing"
    assert any("bad-signature" in a.text for a in p.alerts), [a.text for a in p.alerts]
    p.receive(data, net.now, 1)          # the genuine one still counts
    assert p.game.version == version + 1


class Watched(list):
    """An outbox that notes in ``seen``, as each frame is put in it, whether ``ok()``."""

    def __init__(self, ok, seen: list) -> None:
        super().__init__()
        self.ok, self.seen = ok, seen

    def append(self, item) -> None:
        self.seen.append(self.ok())
        super().append(item)

    def extend(self, items) -> None:
        items = list(items)
        self.seen.extend(self.ok() for _ in items)
        super().extend(items)


def test_nothing_leaves_a_peer_while_a_command_waits_for_its_check():
    """Over a whole game, whatever a peer sends in answer to a command (its state hash at
    a phase's end, its deck messages for a draw) goes out only once the command is
    checked and logged: a record is on disk before anything it allows is sent."""
    net = MemoryNetwork.create(3, seed="later-4", level="random")
    seen: list[list[bool]] = [[] for _ in net.peers]

    def watch(q) -> None:         # (take_outgoing hands the outbox over and starts a new one)
        q.outbox = Watched(lambda: not q.intake.unconfirmed, seen[q.seat])
    for q in net.peers:
        watch(q)
    answered: list = []           # frames sent while a received command was handled

    def deliver(src, dst, data):
        q = net.peers[dst]
        before = len(seen[dst])
        q.receive(data, net.now, src)
        if peek(data)["type"] == "sess/cmd":
            answered.extend(seen[dst][before:])
        q.confirm(net.now)
        net._collect(q)

    def collect(q, real=net._collect):
        real(q)
        watch(q)
    net.deliver, net._collect = deliver, collect
    net.start()
    net.run()
    assert all(q.status == "over" and q.audit_result[0] for q in net.peers)
    assert answered, "no command was answered at once: the test proves nothing"
    assert all(all(s) for s in seen), [s.count(False) for s in seen]


def test_a_whole_game_confirms_at_its_entry_points_alone():
    """Frames given with ``receive`` only (no ``confirm`` after each): every entry point
    checks what waits first, so every envelope taken is logged, in order, and each
    seat's envelopes are the same at every peer."""
    net = MemoryNetwork.create(3, seed="later-5", level="random")
    net.deliver = lambda src, dst, data: (net.peers[dst].receive(data, net.now, src),
                                          net._collect(net.peers[dst]))
    net.start()
    net.run()
    for q in net.peers:
        q.tick(net.now + 0.1)
    assert all(q.status == "over" and q.audit_result[0] for q in net.peers)
    for s in range(3):
        logs = [q.log.envelopes(s) for q in net.peers]
        assert all(len(log) == net.peers[0].intake.have()[s] for log in logs)
        assert all(log == logs[0] for log in logs)
