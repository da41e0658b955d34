"""Delivery orders for in-memory attack tests: every link (sender, receiver) stays FIFO, as
a ZeroMQ connection is, but which link delivers next is drawn from a seeded generator —
so one test runs the same attack under many interleavings, reproducibly."""

import random
from collections import deque

from net.crypto import wire


def body_of(frame: bytes) -> dict:
    return wire.unpack(wire.unpack(frame, "x")["body"], "x")


def pump_shuffled(net, rng: random.Random, limit: int = 1_000_000) -> None:
    """Deliver everything queued (and what it provokes), link by random link."""
    links: dict[tuple[int, int], deque] = {}
    order: list[tuple[int, int]] = []
    moved = 0
    while moved < limit:
        while net.queue:                      # new frames join their link's FIFO
            src, dst, data = net.queue.popleft()
            key = (src, dst)
            if key not in links:
                links[key] = deque()
                order.append(key)
            links[key].append(data)
        ready = [k for k in order if links[k]]
        if not ready:
            return
        src, dst = rng.choice(ready)
        moved += 1
        net.deliver(src, dst, links[(src, dst)].popleft())


def run_shuffled(net, rng: random.Random, max_idle: int = 40, until=None) -> None:
    """MemoryNetwork.run with shuffled delivery."""
    net.run(max_idle, until, pump=lambda: pump_shuffled(net, rng))
