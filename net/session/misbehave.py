"""Test hooks: make a peer misbehave so that tests can check the others catch it.

``--misbehave KIND[:VERSION]`` on ``python -m net.session.peer`` (hidden option).
Once this peer's game reaches VERSION (default 30), it does, once:

    desync     adds 7 points to seat 0's score in its own engine (a state the others
               do not have): the next phase boundary must show the mismatch
    illegal    sends a signed, well-sequenced command that is not legal now
               (then goes on playing honestly)
    garbage    sends random bytes to every peer
    replay     sends again an old message of its own and one of another seat
    forge      sends a message claiming to come from another seat (bad signature)
    equivocate signs a second, different message with a seq it already used

``--misbehave die-at-end`` is not misbehaviour but a crash at the worst moment (issue
9): once the game is over here, right after the step that sent our last messages (they
go out, as the kernel would have sent them), the process dies like a SIGKILL, before
the others' last messages arrive.
"""

from __future__ import annotations

import os

from net.crypto import encode_envelope


def install(node, how: str) -> None:
    kind, _, at_text = how.partition(":")
    at = int(at_text) if at_text else 30
    if kind == "die-at-end":
        _die_at_end(node)
        return
    if kind not in ("desync", "illegal", "garbage", "replay", "forge", "equivocate"):
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


def _die_at_end(node) -> None:
    step = node.step

    def hooked(timeout_ms=50):
        step(timeout_ms)
        if node.peer.status == "over":
            node.mesh.close(linger_ms=2000)      # what we sent leaves; nothing more is read
            node.ctx.destroy(linger=2000)        # (waits until it has left)
            os._exit(9)

    node.step = hooked


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
                "seq": peer.verifier.expected_seq(other), "v": g.version, "cmd": ["pass"]}
        env = peer.identity.sign_message(body)       # signed with OUR key, claims seat `other`
        peer.outbox.append((None, encode_envelope(env)))
    elif kind == "equivocate":
        seq = len(peer.sent) - 1
        body = {"type": "sess/hash", "game": peer.cfg.game_id, "seat": peer.seat, "seq": seq,
                "v": 0, "round": 0, "phase": "keep", "hash": "0" * 64}
        peer.outbox.append((None, encode_envelope(peer.identity.sign_message(body))))
