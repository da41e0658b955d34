"""A peer's last frames (its finished notice, its leaving for now) leave before its process
ends.  ZeroMQ writes frames out in its own I/O thread: a process that closes its sockets
with a linger and simply exits kills that thread with the frames still queued, and the
others, never told we finished, would keep waiting for us until the stall time."""

import subprocess
import sys
import textwrap
import time
from pathlib import Path

import zmq

from net.node.node import Node
from net.node.transport import ZmqMesh, curve_keypair, end_context
from net.session.memnet import MemoryNetwork

ROOT = str(Path(__file__).resolve().parents[2])

SENDER = textwrap.dedent("""
    import sys, zmq
    from net.node.transport import ZmqMesh, curve_keypair, end_context
    server_key, port = sys.argv[1], sys.argv[2]
    ctx = zmq.Context()
    pub, sec = curve_keypair()
    mesh = ZmqMesh(ctx, 0, pub, sec, bind="tcp://127.0.0.1:*")
    mesh.connect({1: (f"tcp://127.0.0.1:{port}", server_key)})
    mesh.send(None, b"finished")
    print(pub, flush=True)           # the frame is queued: the other side may listen now
    mesh.close(linger_ms=60000)
    end_context(ctx, 60000)
""")


def test_a_frame_queued_when_the_process_ends_still_reaches_the_other_peer():
    ctx = zmq.Context()
    pub, sec = curve_keypair()
    # a port nobody listens on yet: the sender can only queue its frame
    probe = ctx.socket(zmq.PULL)
    port = probe.bind_to_random_port("tcp://127.0.0.1")
    probe.close(0)
    sender = subprocess.Popen([sys.executable, "-c", SENDER, pub, str(port)], cwd=ROOT,
                              stdout=subprocess.PIPE, text=True)
    mesh = None
    try:
        sender_key = sender.stdout.readline().strip()
        assert len(sender_key) == 40
        try:     # a process that did not end its context is gone by now, its frame with it
            sender.wait(timeout=2)
        except subprocess.TimeoutExpired:
            pass                     # it waits, its frame still queued, for us to listen
        mesh = ZmqMesh(ctx, 1, pub, sec, bind=f"tcp://127.0.0.1:{port}")
        mesh.allow({0: sender_key})
        got = []
        for _ in range(600):             # (a 50 ms poll each: the frame ends it at once)
            got += mesh.poll(50)
            if got:
                break
        assert got == [(0, b"finished")]
        assert sender.wait(timeout=60) == 0
    finally:
        if sender.poll() is None:
            sender.kill()
        sender.stdout.close()
        if mesh is not None:
            mesh.close()
        end_context(ctx, 0)


def test_a_node_ends_the_context_it_made_and_leaves_a_given_one_open():
    for own in (True, False):
        ctx = zmq.Context()
        net = MemoryNetwork.create(2, seed="last-frames", names=["Ana", "Bo"])
        pub, sec = curve_keypair()
        mesh = ZmqMesh(ctx, 0, pub, sec, bind="tcp://127.0.0.1:*")
        node = Node(ctx, net.peers[0], mesh, None, own_ctx=own)
        node.close()
        assert ctx.closed == own
        if not own:
            end_context(ctx, 0)


def test_one_poll_takes_a_bounded_number_of_bytes_off_the_sockets():
    """A seat flooding us with large frames: each poll hands over at most MAX_BATCH_BYTES
    (and one frame) however many wait, and the rest come with the next polls, in order."""
    from net.session.limits import MAX_BATCH_BYTES
    ctx = zmq.Context()
    (pa, sa), (pb, sb) = curve_keypair(), curve_keypair()
    a = ZmqMesh(ctx, 0, pa, sa, bind="tcp://127.0.0.1:*")
    b = ZmqMesh(ctx, 1, pb, sb, bind="tcp://127.0.0.1:*")
    try:
        a.connect({1: (b.endpoint, pb)})
        b.allow({0: pa})
        frame = 100_000
        sent = [bytes([i]) * frame for i in range(60)]        # 6 MB: RCVHWM holds 100
        for data in sent:
            a.send(1, data)
        time.sleep(0.5)         # (they all reach b's queue: the first poll could take all)
        got: list[bytes] = []
        batches = []
        for _ in range(400):
            batch = b.poll(50)
            if batch:
                batches.append(sum(len(d) for _s, d in batch))
                got += [d for s, d in batch if s == 0]
            if len(got) == len(sent):
                break
        assert got == sent
        assert max(batches) < MAX_BATCH_BYTES + frame
        assert len(batches) >= len(sent) * frame // (MAX_BATCH_BYTES + frame)
    finally:
        a.close()
        b.close()
        end_context(ctx, 0)
