"""Bounds on what the network can make a peer hold or do: input from another machine is
untrusted, so none of it may grow a peer's memory or work without limit.

* Every ZeroMQ socket refuses a frame larger than ``MAX_FRAME`` (``ZMQ_MAXMSGSIZE``: the
  connection that sent it is dropped before the frame is held in memory), and holds at
  most ``RCVHWM`` frames per connection: a 256 MiB frame costs nothing, a flood of
  frames costs at most RCVHWM × MAX_FRAME per connection while the peer drains them.
  ``bound_context`` makes those the defaults of every socket of a context (the mesh's,
  the lobby's, the join probe's), so no socket is forgotten.
* ``TokenBucket`` limits how often a seat may make us work for it: answers to its sync
  requests (no amplification: one heartbeat asking for everything gets one batch, three
  thousand get a handful).
* ``json_depth`` measures a JSON text's nesting *before* it is parsed (``json.loads`` of
  100,000 brackets raises RecursionError).
"""

from __future__ import annotations

from collections.abc import Hashable

MAX_FRAME = 1 << 20          # bytes: the wire's own limit for a message (PROTOCOL.md §1)
# frames queued per connection: with 1000, a seat sending valid 60 KB views faster than we
# read them had 60 MB of ours in the queue (1 GiB at the frame limit); legitimate traffic
# is a few frames at a time (sync answers batch 256 envelopes per frame), and what a full
# queue refuses the sender's own queue holds, then resync fetches
RCVHWM = 100
# bytes of frames one poll takes off the sockets before the peer handles them: draining a
# queue the sender keeps refilling, a flood of 60 KB views gathered up to 1000 frames
# (60 MB) at once; ordinary frames are small, so a batch still holds hundreds of them
MAX_BATCH_BYTES = 2 << 20
MAX_JSON_DEPTH = 16


class TokenBucket:
    """At most ``burst`` actions at once, then ``rate`` per second (per key)."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self._state: dict = {}

    def allow(self, key: Hashable, now: float) -> bool:
        tokens, last = self._state.get(key, (self.burst, now))
        if now < last:           # a clock from another run (rejoin, tests): start afresh
            tokens, last = self.burst, now
        tokens = min(self.burst, tokens + (now - last) * self.rate)
        if tokens < 1.0:
            self._state[key] = (tokens, now)
            return False
        self._state[key] = (tokens - 1.0, now)
        return True


def json_depth(text: str, limit: int = MAX_JSON_DEPTH) -> int:
    """The nesting depth of a JSON text (brackets inside strings not counted), or
    ``limit + 1`` as soon as it exceeds ``limit``."""
    depth = deepest = 0
    in_str = escaped = False
    for ch in text:
        if in_str:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    return limit + 1
        elif ch in "]}":
            depth -= 1
    return deepest
