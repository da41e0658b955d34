"""A misbehaving or crashing peer for the process tests: the ordinary peer process
(client.peer) with its loop hooked, here in the tests, so that the others can be
shown to catch it.  Nothing of it is in the installed program.  Like tests/session/
cheater.py it goes in front of the peer's own command line (the peer runs in this same
process):

    python -m tests.session.misbehave KIND[:VERSION] -- PYTHON -m client.peer ARGS...

Once this peer's game reaches VERSION (default 30), it does, once:

    desync     adds 7 points to seat 0's score in its own engine (a state the others
               do not have): the next phase boundary must show the mismatch
    illegal    sends a signed, well-sequenced command that is not legal now
               (then goes on playing honestly)
    garbage    sends random bytes to every peer
    replay     sends again an old message of its own and one of another seat
    forge      sends a message claiming to come from another seat (bad signature)
    equivocate signs a second, different message with a seq it already used

Three kinds are not misbehaviour but a machine failing at the worst moment:

    die-at-end         once the game is over here, right after the step that sent our
                       last messages (they go out, as the kernel would have sent them),
                       the process dies like a SIGKILL (exit status 9), before the
                       others' last messages arrive
    leave-after-lobby  (the host) the process ends as soon as the lobby has started the
                       game: the host's laptop leaving right after the lobby
    disk-full          from VERSION on, every write of this peer's game log fails with
                       ENOSPC, as on a full disk

and one is a person's choice, made at a chosen moment:

    leave-for-good     at VERSION, the player leaves the game for good (what typing
                       `leave for good`, or g at the window's leave prompt, does)

``act(node, kind)`` does one of the first six at once; the in-memory tests call it on a
peer of a MemoryNetwork.
"""

from __future__ import annotations

import errno
import os
import sys

from net.crypto import encode_envelope

ACTS = ("desync", "illegal", "garbage", "replay", "forge", "equivocate")
CRASHES = ("die-at-end", "leave-after-lobby", "disk-full", "leave-for-good")


def main(argv: list[str]) -> int:
    if len(argv) < 5 or argv[1] != "--" or argv[3:5] != ["-m", "client.peer"]:
        sys.exit("usage: python -m tests.session.misbehave KIND[:VERSION] -- "
                 "PYTHON -m client.peer ARGS...")
    how = argv[0]
    kind = how.partition(":")[0]
    if kind not in (*ACTS, *CRASHES):
        sys.exit(f"unknown misbehaviour {kind!r}; one of {', '.join((*ACTS, *CRASHES))}")
    from client import peer as peer_cli
    if kind == "leave-after-lobby":
        real_start_node = peer_cli.start_node

        def start_node(args, out):
            node = real_start_node(args, out)
            if not isinstance(node, int):
                os._exit(0)       # gone with the lobby done: nothing more is sent
            return node
        peer_cli.start_node = start_node
    else:
        real_run_node = peer_cli.run_node

        def run_node(node, args, out):
            install(node, how)
            return real_run_node(node, args, out)
        peer_cli.run_node = run_node
    return peer_cli.main(argv[5:])


def install(node, how: str) -> None:
    """Hook ``node.step`` to do KIND once the game reaches VERSION (``how``: KIND[:VERSION])."""
    kind, _, at_text = how.partition(":")
    at = int(at_text) if at_text else 30
    if kind == "die-at-end":
        _die_at_end(node)
        return
    if kind == "disk-full":
        _disk_full(node, at)
        return
    if kind == "leave-for-good":
        _leave_for_good(node, at)
        return
    if kind not in ACTS:
        raise ValueError(f"unknown misbehaviour {kind!r}")
    step = node.step
    done = [False]

    def hooked(timeout_ms=50):
        peer = node.peer
        g = peer.game
        if not done[0] and g is not None and g.version >= at:
            if kind == "illegal":
                if not peer.decision_needed() or len(g.waiting_for()) > 1:
                    return step(timeout_ms)
            done[0] = True
            act(node, kind)
        return step(timeout_ms)

    node.step = hooked


def _leave_for_good(node, at: int) -> None:
    step = node.step

    def hooked(timeout_ms=50):
        g = node.peer.game
        if not node.left_for_good and g is not None and g.version >= at \
                and node.peer.departure.refusal() is None:
            node.leave_for_good()
        return step(timeout_ms)

    node.step = hooked


def _die_at_end(node) -> None:
    step = node.step

    def hooked(timeout_ms=50):
        step(timeout_ms)
        if node.peer.status == "over":
            node.mesh.close(linger_ms=2000)      # what we sent leaves; nothing more is read
            node.ctx.destroy(linger=2000)        # (waits until it has left)
            os._exit(9)

    node.step = hooked


def _disk_full(node, at: int) -> None:
    store, write = node.store, node.store._write

    def full(data: bytes) -> None:
        g = node.peer.game
        if g is not None and g.version >= at:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        write(data)

    store._write = full


def act(node, kind: str) -> None:
    peer = node.peer
    g = peer.game
    other = (peer.seat + 1) % peer.n
    if kind == "desync":
        g.players[0].score += 7
    elif kind == "illegal":
        # a crest that does not exist: well formed, signed, in turn, illegal
        peer._emit(peer.signer.sign("sess/cmd", {"v": g.version, "cmd": ["crest", 9]}))
    elif kind == "garbage":
        peer.outbox.append((None, os.urandom(200)))
        peer.outbox.append((None, b"\x81\xa4body\xc4\x03abc"))
    elif kind == "replay":
        peer.outbox.append((None, peer.sent[0]))
        if peer.accepted[other]:
            peer.outbox.append((None, peer.accepted[other][0]))
    elif kind == "forge":
        body = {"type": "sess/cmd", "game": peer.cfg.game_id, "seat": other,
                "seq": peer.intake.expected_seq(other), "v": g.version, "cmd": ["pass"]}
        env = peer.identity.sign_message(body)       # signed with OUR key, claims seat `other`
        peer.outbox.append((None, encode_envelope(env)))
    elif kind == "equivocate":
        seq = len(peer.sent) - 1
        body = {"type": "sess/hash", "game": peer.cfg.game_id, "seat": peer.seat, "seq": seq,
                "v": 0, "round": 0, "phase": "keep", "hash": "0" * 64}
        peer.outbox.append((None, encode_envelope(peer.identity.sign_message(body))))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
