"""Canonical msgpack encoding and strict validation of received values.

msgpack keeps dict insertion order, so two peers packing "the same" dict can
produce different bytes; anything that is signed or hashed must therefore be
packed canonically: maps sorted by key (keys are str only), tuples as arrays,
bytes as bin, str as str, ints in their shortest form (which msgpack-python
always uses).  Floats are refused: they have no single canonical form worth
trusting across peers.  The result equals
``msgpack.packb(sort_keys_recursively(obj), use_bin_type=True)``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NoReturn, TypeGuard

import msgpack

from .errors import ProtocolError

MAX_DEPTH = 16

# What a validator calls with a description of the fault; it raises (the error naming the
# reason code and the seat to blame), never returns.
Fail = Callable[[str], NoReturn]
MAX_MESSAGE_BYTES = 1 << 20  # a 50-card stage is ~2 KB; 1 MiB is generous


_LEAVES = (bytes, str, bool, type(None))


def _canonical(obj: Any, depth: int) -> Any:
    if depth > MAX_DEPTH:
        raise ValueError("nested too deeply")
    if isinstance(obj, _LEAVES):
        return obj
    if isinstance(obj, int):
        if not -(1 << 63) <= obj < (1 << 64):
            raise ValueError("integer out of msgpack range")
        return obj
    if isinstance(obj, (bytearray, memoryview)):
        return bytes(obj)
    if isinstance(obj, (list, tuple)):
        # Fast path: the stage lists are 50 bytes values (hot in the deck).
        if all(type(x) is bytes for x in obj):
            return list(obj)
        return [_canonical(x, depth + 1) for x in obj]
    if isinstance(obj, dict):
        if not all(isinstance(k, str) for k in obj):
            raise ValueError("map keys must be str")
        return {k: _canonical(obj[k], depth + 1) for k in sorted(obj)}
    raise ValueError(f"type {type(obj).__name__} is not allowed on the wire")


def is_canonical_tree(obj: Any, depth: int = 0) -> bool:
    """True when a freshly unpacked value is already in canonical form (maps with str keys
    in sorted order, only wire types), so packing it again reproduces canonical bytes.
    Checking in place is cheaper than building the sorted copy `pack` makes, and every
    received envelope goes through here."""
    if depth > MAX_DEPTH:
        raise ValueError("nested too deeply")
    t = type(obj)
    if t is bytes or t is str or t is int or t is bool or obj is None:
        return True
    if t is list:
        for x in obj:
            tx = type(x)
            if tx is not bytes and tx is not int and not is_canonical_tree(x, depth + 1):
                return False
        return True
    if t is dict:
        keys = list(obj)
        for k in keys:
            if type(k) is not str:
                raise ValueError("map keys must be str")
        if keys != sorted(keys):
            return False
        for v in obj.values():   # (leaves checked here: most of a body's values are)
            tv = type(v)
            if tv is not str and tv is not int and tv is not bytes \
                    and not is_canonical_tree(v, depth + 1):
                return False
        return True
    raise ValueError(f"type {t.__name__} is not allowed on the wire")


def pack(obj: Any) -> bytes:
    """Canonical bytes of ``obj`` (raises ValueError for values not allowed)."""
    return msgpack.packb(_canonical(obj, 0), use_bin_type=True)


def unpack(data: Any, reason: str, seat: int | None = None) -> Any:
    """Decode untrusted bytes; any failure becomes ProtocolError(reason)."""
    if not isinstance(data, (bytes, bytearray)):
        raise ProtocolError(reason, seat, "expected bytes")
    if len(data) > MAX_MESSAGE_BYTES:
        raise ProtocolError(reason, seat, "message too large")
    try:
        return msgpack.unpackb(bytes(data), raw=False, strict_map_key=True,
                               use_list=True)
    except Exception as exc:  # msgpack raises many types on garbage; all mean the same
        raise ProtocolError(reason, seat, f"undecodable: {type(exc).__name__}") from None


# ---------------------------------------------------------------- validators
# Each takes the value, the reason code and the seat to blame, and returns the
# value (converted where useful) or raises ProtocolError/CheatingError via `fail`.


def is_int(v: object) -> TypeGuard[int]:
    return isinstance(v, int) and not isinstance(v, bool)


def need(ok: bool, fail: Fail, what: str) -> None:
    if not ok:
        fail(what)


def field(body: dict, name: str, fail: Fail) -> Any:
    if name not in body:
        fail(f"missing field {name!r}")
    return body[name]


def int_in(v: Any, lo: int, hi: int, fail: Fail, what: str) -> int:
    """An int with lo <= v < hi."""
    need(is_int(v) and lo <= v < hi, fail, f"{what} must be an int in [{lo}, {hi})")
    return v


def bytes_of(v: Any, length: int, fail: Fail, what: str) -> bytes:
    need(isinstance(v, bytes) and len(v) == length, fail, f"{what} must be {length} bytes")
    return v


def list_of(v: Any, length: int | None, fail: Fail, what: str, max_len: int = 4096) -> list:
    need(isinstance(v, list), fail, f"{what} must be a list")
    if length is not None:
        need(len(v) == length, fail, f"{what} must have {length} items, has {len(v)}")
    need(len(v) <= max_len, fail, f"{what} is too long")
    return v
