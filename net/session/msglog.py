"""The peer's message log: every signed envelope of the game it holds, and its disk record.

``sent[q]`` is our own envelope with seq q, ``accepted[s][q]`` seat s's; any peer can
relay any of them (they are signed), which is how gaps are filled (resync.py).
``ahead[q]`` is our own envelope with seq q as another peer relayed it, when a rejoin
left us without it (a log cut short or lost): the peer re-makes it byte for byte, a
decision of ours by taking the command from it (catchup.py ``redo``).  What
is written to disk (storage.GameStore) goes through ``record`` here, so a replay of
the log (rejoin) writes nothing again.
"""

from __future__ import annotations

import errno
import functools
from collections.abc import Callable
from typing import Any, Protocol

from .msgs import N_, Msg

LOG_FULL = N_("the disk is full: this game's log ({file}) cannot be written, so this machine "
             "stops playing for now (nobody did anything wrong; the others wait for it). Free "
             "some space and run `belfort rejoin`: the game goes on from where it stopped")
LOG_BROKEN = N_("this game's log ({file}) cannot be written ({error}), so this machine stops "
                "playing for now (nobody did anything wrong; the others wait for it). Once "
                "that is fixed, run `belfort rejoin`: the game goes on from where it stopped")


class RecordStore(Protocol):
    """Where the log's records go to disk (net.node.storage.GameStore)."""

    def append(self, kind: str, payload: Any) -> None: ...


class LogWriteError(Exception):
    """The game log could not be written (a full disk, an I/O error).  Whatever needed
    that record is not done: a record is on disk before anything it allows is counted,
    sent or acted on, so the log holds everything this peer has done so far."""

    def __init__(self, path: object, error: OSError) -> None:     # the log file's path
        super().__init__(f"{path}: {error}")
        self.path, self.error = path, error


def log_problem(exc: LogWriteError) -> str:
    """What the person is told when the game's log cannot be written."""
    if getattr(exc.error, "errno", None) in (errno.ENOSPC, errno.EDQUOT):
        return Msg(LOG_FULL, file=str(exc.path))
    return Msg(LOG_BROKEN, file=str(exc.path),
               error=getattr(exc.error, "strerror", None) or str(exc.error))


class MessageLog:
    def __init__(self, n: int, seat: int, store: RecordStore | None = None) -> None:
        self.n, self.seat = n, seat
        self.store = store               # storage.GameStore or None
        self.replaying = False           # rebuilding from the log: record nothing
        self.sent: list[bytes] = []
        self._chains: dict[int, list[bytes]] = {}
        self.accepted: list[list[bytes]] = [[] for _ in range(n)]
        self.ahead: dict[int, tuple[bytes, dict]] = {}   # seq -> (our envelope, its body)
        self.sync_due = False            # a phase boundary passed: fsync the log soon

    def replay(self, replaying: bool) -> None:
        """While the peer rebuilds its state from this log, nothing is recorded again."""
        self.replaying = replaying

    def record(self, kind: str, payload: Any) -> None:
        """A record of our own decisions ("submit", "handoff") or of an accepted envelope."""
        if self.store is not None and not self.replaying:
            self.store.append(kind, payload)

    def add_ours(self, data: bytes) -> bool:
        """One of our envelopes, just made: False if it differs from the one the others
        hold for that seq (we made a lost decision again differently)."""
        fetched = self.ahead.pop(len(self.sent), None)
        self.sent.append(data)
        return fetched is None or fetched[0] == data

    def fetched(self, seq: int, data: bytes, body: dict) -> None:
        """Our own envelope ``seq`` as another peer relayed it back (the first copy stays)."""
        self.ahead.setdefault(seq, (data, body))

    def drop_fetched(self, seq: int) -> None:
        """Our relayed envelope ``seq`` does not fit our game: it is not made again."""
        del self.ahead[seq]

    def held_ours(self) -> int:
        """How many of our envelopes we hold: those we made, then those fetched."""
        q = len(self.sent)
        while q in self.ahead:
            q += 1
        return q

    def add_theirs(self, seat: int, data: bytes) -> None:
        """Another seat's envelope, accepted: on disk first, then held (LogWriteError:
        neither)."""
        self.record("in", data)
        self.accepted[seat].append(data)

    def chain(self, seat: int, count: int) -> bytes:
        """Running hash of ``seat``'s first ``count`` envelopes we hold (forks.py: peers
        compare it to find a seat that showed them different messages)."""
        import hashlib
        env = self.envelopes(seat)
        cache = self._chains.setdefault(seat, [b""])
        if len(cache) > len(env) + 1:         # the list was cut (a rejoin): start again
            cache[:] = [b""]
        while len(cache) <= min(count, len(env)):
            i = len(cache) - 1
            cache.append(hashlib.sha256(cache[i] + hashlib.sha256(env[i]).digest()).digest())
        return cache[count] if count < len(cache) else b""

    def envelopes(self, seat: int) -> list[bytes]:
        return self.sent if seat == self.seat else self.accepted[seat]

    def count(self, seat: int) -> int:
        return len(self.envelopes(seat))

    def counts(self) -> list[int]:
        return [self.count(s) for s in range(self.n)]

    def holds(self, seat: int, seq: int, data: bytes) -> bool:
        """These exact bytes are the envelope we hold for (seat, seq)."""
        env = self.envelopes(seat)
        return 0 <= seq < len(env) and env[seq] == data

    def boundary(self) -> None:
        if self.store is not None and not self.replaying:
            self.sync_due = True

    def take_sync_due(self) -> bool:
        due, self.sync_due = self.sync_due, False
        return due


def logged(empty: Any = None) -> Callable:
    """An entry point whose work may need a record of the game log: if that record cannot
    be written (a full disk), this peer stops playing (``log_failed``) rather than go on
    from a state its log does not hold; from then on the entry point does nothing.  First,
    the envelopes taken before their signatures were checked are checked and logged
    (``_confirm``): nothing else is done with any of them unchecked."""
    def wrap(method):
        @functools.wraps(method)
        def guarded(self, *args, **kwargs):
            if self.log_failed is not None:
                return empty
            try:
                self._confirm()
                return method(self, *args, **kwargs)
            except LogWriteError as exc:
                self._log_broken(exc)
                return empty
        return guarded
    return wrap
