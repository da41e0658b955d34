"""A pseudo-random stream that is the same on every machine and Python version.

SHA-256 in counter mode: block i is SHA-256(key || i as 8 bytes). Integers below n are drawn
by rejection sampling (no modulo bias), and `shuffle` is an explicit Fisher–Yates. The
`random` module is never used: its algorithms are not promised to stay the same.
"""
from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


# For n up to 256: bytes below the largest multiple of n are accepted (no modulo bias).
_BYTE_LIMIT = tuple(256 - 256 % n if n else 0 for n in range(257))


class Prng:
    __slots__ = ("_key", "_counter", "_buf", "_pos")

    def __init__(self, seed: str | bytes | int, *labels: str | bytes | int) -> None:
        """`seed` is bytes, str or int; `labels` name an independent stream from the same seed."""
        h = hashlib.sha256(b"belfort-prng\x00" + _as_bytes(seed))
        for label in labels:
            h.update(b"\x00" + _as_bytes(label))
        self._key = h.digest()
        self._counter = 0
        self._buf = b""   # bytes produced and not yet used start at _pos
        self._pos = 0

    def _refill(self) -> None:
        """Append the next blocks to the bytes not used yet: four at a time (the stream is the
        same block after block; fewer, larger refills cost less than one per 32 bytes)."""
        key, counter, sha256 = self._key, self._counter, hashlib.sha256
        blocks = b"".join([sha256(key + (counter + i).to_bytes(8, "big")).digest()
                           for i in range(4)])
        self._counter = counter + 4
        self._buf = self._buf[self._pos:] + blocks
        self._pos = 0

    def _bytes(self, n: int) -> bytes:
        while len(self._buf) - self._pos < n:
            self._refill()
        pos = self._pos
        self._pos = pos + n
        return self._buf[pos:pos + n]

    def below(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        if 1 < n <= 256:   # one byte a draw (the common case): the next byte, if accepted
            pos = self._pos
            try:
                x = self._buf[pos]
            except IndexError:   # no byte left: refill
                return self._below_bytewise(n)
            if x < _BYTE_LIMIT[n]:
                self._pos = pos + 1
                return x % n
            return self._below_bytewise(n)
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        if n == 1:
            return 0
        nbytes = ((n - 1).bit_length() + 7) // 8
        limit = (256 ** nbytes // n) * n
        while True:
            x = int.from_bytes(self._bytes(nbytes), "big")
            if x < limit:
                return x % n

    def _below_bytewise(self, n: int) -> int:
        """`below(n)` for 1 < n <= 256 when the next byte is missing or rejected: bytes are
        drawn one by one until one is below the largest multiple of n (no modulo bias)."""
        limit = _BYTE_LIMIT[n]
        buf, pos = self._buf, self._pos
        while True:
            if pos >= len(buf):
                self._pos = pos
                self._refill()
                buf, pos = self._buf, 0
            x = buf[pos]
            pos += 1
            if x < limit:
                self._pos = pos
                return x % n

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: list[T]) -> list[T]:
        """Fisher–Yates in place; returns the list for convenience."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
        return items

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        pool = list(items)
        self.shuffle(pool)
        return pool[:k]


def _as_bytes(value: bytes | int | str) -> bytes:
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode("utf-8")
    if isinstance(value, int) and not isinstance(value, bool):
        return b"i" + str(value).encode()
    raise TypeError(f"cannot seed from {type(value).__name__}")
