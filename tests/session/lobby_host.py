"""A host lobby answering on a thread of its own, for the lobby tests (in process, on
127.0.0.1, a random port): the joiners under test run in the test's own thread."""

import threading

from net.crypto import Identity
from net.node.lobby import HostLobby
from net.node.transport import curve_keypair


class ThreadedHost:
    """``name`` hosting ``players`` seats; ``auto_start``: start once the table is full
    (``started`` holds the roster); ``joined`` / ``left``: the Curve keys of joiners as the
    lobby reports them."""

    def __init__(self, ctx, name="Ana", players=2, auto_start=False):
        self.auto_start, self.players = auto_start, players
        self.identity = Identity.generate()
        self.joined, self.left = [], []
        self.lobby = HostLobby(ctx, self.identity, name, curve_keypair(), 40000,
                               bind="127.0.0.1", port=0, players=players,
                               on_join=self.joined.append, on_leave=self.left.append)
        self.started = None
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        while not self.stop.is_set():
            with self.lock:
                self.lobby.poll(20)
                if self.auto_start and len(self.lobby.seats) == self.players \
                        and self.started is None:
                    self.started = self.lobby.start()

    def names(self):
        with self.lock:
            return [s.name for s in self.lobby.seats]

    def close(self):
        self.stop.set()
        self.thread.join(timeout=5)
        self.lobby.close()
