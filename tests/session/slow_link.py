"""The ordinary peer process behind a slow link, for the process tests: every frame it
sends leaves MS milliseconds later, in order, as over a link with that much latency (what
the kernel's ``tc netem`` would do, which not every kernel has).  Nothing of it is in the
installed program.  It goes in front of the peer's own command line:

    python -m tests.session.slow_link MS -- PYTHON -m client.peer ARGS...

The frames wait in a queue that one thread empties as each falls due, through the mesh's
own ``send`` (which holds the mesh's lock: the peer's threads send the same way); the
peer's last frames are let out before its sockets close.
"""

from __future__ import annotations

import sys
import threading
import time
from collections import deque


def install(delay_s: float) -> None:
    from net.node.transport import ZmqMesh
    real_send, real_close = ZmqMesh.send, ZmqMesh.close
    queued: deque = deque()           # (due, mesh, dest, data), in the order sent
    ready = threading.Condition()

    def leave() -> None:
        while True:
            with ready:
                while not queued:
                    ready.wait()
                due, mesh, dest, data = queued[0]
            wait = due - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            real_send(mesh, dest, data)
            with ready:
                queued.popleft()
                ready.notify_all()

    def send(self: ZmqMesh, dest: int | None, data: bytes) -> None:
        with ready:
            queued.append((time.monotonic() + delay_s, self, dest, data))
            ready.notify_all()

    def close(self: ZmqMesh, linger_ms: int = 0) -> None:
        with ready:       # our last frames (finished, leaving) go out first
            ready.wait_for(lambda: not any(q[1] is self for q in queued), timeout=10)
        real_close(self, linger_ms)

    threading.Thread(target=leave, daemon=True).start()
    ZmqMesh.send, ZmqMesh.close = send, close   # type: ignore[method-assign]


def main(argv: list[str]) -> int:
    if len(argv) < 5 or argv[1] != "--" or argv[3:5] != ["-m", "client.peer"]:
        sys.exit("usage: python -m tests.session.slow_link MS -- PYTHON -m client.peer ARGS...")
    install(float(argv[0]) / 1000)
    from client import peer as peer_cli
    return peer_cli.main(argv[5:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
