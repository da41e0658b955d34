"""x-only P-256 arithmetic through ``cryptography`` (OpenSSL).

A point travels as its x-coordinate: 32 bytes, big-endian.  x(k·P) equals
x(k·(-P)), so multiplying an x-only point is well defined and commutative,
which is all the mental-poker deck needs.  OpenSSL exposes exactly that
operation as ECDH: ``derive_private_key(k).exchange(ECDH(), P)`` is x(k·P).

Cards are points whose discrete logarithms nobody knows: the x-coordinate is
SHA-256(domain, card id, counter) mod p for the first counter that lies on
the curve.  (Never multiples of the generator: with known logarithms anyone
could test c_l == r·c_j on the encrypted deck and recover the permutation.)
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterator
from contextlib import contextmanager

from cryptography.hazmat.primitives.asymmetric import ec

CURVE = ec.SECP256R1()
ECDH = ec.ECDH()
# Field prime and group order of P-256 (FIPS 186-4, D.1.2.3).
P = 0xFFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFF
N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
POINT_BYTES = 32
SCALAR_BYTES = 32
CARD_DOMAIN = b"belfort-lan/card/v1\x00"


class PointCache:
    """The points one peer has validated, and the card encodings it has computed.

    Validation is cached because every stage list is checked on arrival and the next
    multiplication needs the same key object anyway.  A real peer is a process of its
    own, so one cache per process is right; a benchmark that runs every peer in one
    process gives each peer its own cache (``use_cache``) so that each one pays for
    validating what it receives, as real peers do.  Bounded: a flood of junk points
    cannot grow memory past ``limit`` entries.
    """

    def __init__(self, limit: int = 8192) -> None:
        self.limit = limit
        self.keys: dict[bytes, ec.EllipticCurvePublicKey | None] = {}
        self.cards: dict[int, bytes] = {}


_active = PointCache()


@contextmanager
def use_cache(cache: PointCache) -> Iterator[PointCache]:
    """Validate and encode with ``cache`` inside the block (one peer's own work)."""
    global _active
    previous, _active = _active, cache
    try:
        yield cache
    finally:
        _active = previous


def _public_key(x: bytes) -> ec.EllipticCurvePublicKey | None:
    keys = _active.keys
    if x in keys:
        return keys[x]
    try:
        key = ec.EllipticCurvePublicKey.from_encoded_point(CURVE, b"\x02" + x)
    except ValueError:
        key = None
    if len(keys) >= _active.limit:
        keys.clear()
    keys[x] = key
    return key


def is_point(x: object) -> bool:
    """True if ``x`` is 32 bytes giving a point of the curve (never the identity)."""
    return isinstance(x, bytes) and len(x) == POINT_BYTES and _public_key(x) is not None


def random_scalar() -> int:
    """Uniform in [1, N-1]."""
    return secrets.randbelow(N - 1) + 1


def scalar_to_bytes(k: int) -> bytes:
    return k.to_bytes(SCALAR_BYTES, "big")


def scalar_from_bytes(b: object) -> int | None:
    """The scalar in ``b`` (32 bytes, in [1, N-1]) or None if invalid."""
    if not isinstance(b, bytes) or len(b) != SCALAR_BYTES:
        return None
    k = int.from_bytes(b, "big")
    return k if 0 < k < N else None


def inverse(k: int) -> int:
    return pow(k, -1, N)


def _private_key(k: int) -> ec.EllipticCurvePrivateKey:
    return ec.derive_private_key(k % N, CURVE)


def mul(k: int, x: bytes) -> bytes:
    """x(k·P) for the point P with x-coordinate ``x`` (which must be valid)."""
    pub = _public_key(x)
    if pub is None:
        raise ValueError("not a point of P-256")
    return _private_key(k).exchange(ECDH, pub)


def _valid_key(x: bytes) -> ec.EllipticCurvePublicKey:
    key = _public_key(x)
    # the points multiplied here are the transcript's, each checked on receipt (is_point)
    assert key is not None, "not a point of P-256"
    return key


def mul_all(k: int, xs: list[bytes]) -> list[bytes]:
    """Every point multiplied by the same scalar (one private-key object)."""
    priv = _private_key(k)
    return [priv.exchange(ECDH, _valid_key(x)) for x in xs]


def mul_each(ks: list[int], xs: list[bytes]) -> list[bytes]:
    """Point i multiplied by scalar i."""
    return [mul(k, x) for k, x in zip(ks, xs, strict=True)]


def card_point(card_id: int) -> bytes:
    """x-coordinate of the point encoding ``card_id`` (0 <= card_id < 2**63)."""
    cards = _active.cards
    if card_id in cards:
        return cards[card_id]
    if not isinstance(card_id, int) or not 0 <= card_id < 1 << 63:
        raise ValueError("card ids are ints in [0, 2**63)")
    counter = 0
    while True:
        h = hashlib.sha256(CARD_DOMAIN + card_id.to_bytes(8, "big") + counter.to_bytes(4, "big"))
        x = (int.from_bytes(h.digest(), "big") % P).to_bytes(POINT_BYTES, "big")
        if _public_key(x) is not None:
            if len(cards) >= _active.limit:
                cards.clear()
            cards[card_id] = x
            return x
        counter += 1
