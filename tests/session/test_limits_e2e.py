"""Frame limits on real ZeroMQ sockets: a frame over 1 MiB never reaches the
peer (nor its memory), on the mesh's socket as on the lobby's (every socket of a
bounded context); a normal frame after it still does."""

import time

import pytest
import zmq

from net.node.transport import bound_context
from net.session.limits import MAX_FRAME


def _recv_within(sock, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if sock.poll(50):
            return sock.recv()
    return None


@pytest.mark.e2e
@pytest.mark.parametrize("kind", ["mesh", "lobby"])
def test_oversized_frame_is_dropped_and_later_frames_arrive(kind):
    ctx = zmq.Context()
    bound_context(ctx)
    rx = ctx.socket(zmq.PULL if kind == "mesh" else zmq.ROUTER)
    rx.linger = 0
    port = rx.bind_to_random_port("tcp://127.0.0.1")
    attacker = zmq.Context()          # the attacker's own, unbounded context
    tx = attacker.socket(zmq.PUSH if kind == "mesh" else zmq.DEALER)
    tx.linger = 0
    tx.connect(f"tcp://127.0.0.1:{port}")
    try:
        tx.send(b"x" * (MAX_FRAME + 1))
        tx.send(b"after")
        got = []
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and b"after" not in got:
            # the refused frame drops the connection; the sender reconnects and resends
            frame = _recv_within(rx, 0.5)
            if frame is None:
                tx.send(b"after")
                continue
            got.append(frame)
        assert b"after" in got
        assert all(len(f) <= MAX_FRAME for f in got)
        assert rx.getsockopt(zmq.MAXMSGSIZE) == MAX_FRAME
    finally:
        tx.close(0)
        rx.close(0)
        attacker.term()
        ctx.term()
