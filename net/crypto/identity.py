"""Peer identities (Ed25519), signed envelopes and their verification.

A message *body* is a map with at least ``type`` (str), ``game`` (str),
``seat`` (int) and ``seq`` (int); the *envelope* that travels is
``{"body": canonical_bytes(body), "sig": ed25519(SIG_DOMAIN + body_bytes)}``.
The body travels as the exact signed bytes so that no re-encoding can change
what was signed; the receiver still insists the bytes are canonical so one
body has exactly one signed form.
"""

from __future__ import annotations

import hashlib
from typing import Any, NoReturn
from collections.abc import Mapping, Sequence

import msgpack
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from . import wire
from .errors import (SIG_BAD_SIGNATURE, SIG_MALFORMED, SIG_OUT_OF_ORDER, SIG_REPLAYED,
                     SIG_UNKNOWN_SEAT, SIG_WRONG_GAME, ProtocolError)

SIG_DOMAIN = b"belfort-lan/sig/v1\x00"
HEADER_FIELDS = ("type", "game", "seat", "seq")
MAX_GAME_ID = 128
MAX_TYPE = 64


def fingerprint(public_key: bytes) -> str:
    """Short human-comparable form of a public key, e.g. ``3F2A-91C0-5B1E-77D4``."""
    h = hashlib.sha256(public_key).hexdigest()[:16].upper()
    return "-".join(h[i:i + 4] for i in range(0, 16, 4))


class Identity:
    """An Ed25519 key pair: who a peer is for the whole game."""

    def __init__(self, private_key: Ed25519PrivateKey) -> None:
        self._key = private_key
        self.public_bytes = private_key.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw)

    @classmethod
    def generate(cls) -> Identity:
        return cls(Ed25519PrivateKey.generate())

    @classmethod
    def from_private_bytes(cls, raw: bytes) -> Identity:
        return cls(Ed25519PrivateKey.from_private_bytes(raw))

    def private_bytes(self) -> bytes:
        """32 raw bytes, for the peer's own key file (rejoining keeps the identity)."""
        return self._key.private_bytes(serialization.Encoding.Raw,
                                       serialization.PrivateFormat.Raw,
                                       serialization.NoEncryption())

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.public_bytes)

    def sign_message(self, body: dict) -> dict:
        """Envelope for a complete body (it must carry type, game, seat and seq)."""
        for name in HEADER_FIELDS:
            if name not in body:
                raise ValueError(f"body lacks {name!r}")
        data = wire.pack(body)
        return {"body": data, "sig": self._key.sign(SIG_DOMAIN + data)}


class Signer:
    """One seat's outgoing stream in one game: fills game, seat and seq."""

    def __init__(self, identity: Identity, game_id: str, seat: int, next_seq: int = 0) -> None:
        self.identity = identity
        self.game_id = game_id
        self.seat = seat
        self.next_seq = next_seq

    def sign(self, type_: str, fields: Mapping[str, Any] | None = None) -> dict:
        body = dict(fields or {})
        for name in HEADER_FIELDS:
            if name in body:
                raise ValueError(f"field {name!r} is reserved for the header")
        body.update(type=type_, game=self.game_id, seat=self.seat, seq=self.next_seq)
        envelope = self.identity.sign_message(body)
        self.next_seq += 1
        return envelope

    def go_on_at(self, next_seq: int) -> None:
        """The next message gets ``next_seq`` (a stream taken up where it stood: messages
        made before a restart adopted, or a seat played from its cut)."""
        self.next_seq = next_seq


def encode_envelope(envelope: dict) -> bytes:
    """Bytes of one envelope for a transport frame."""
    return wire.pack(envelope)


def _malformed(detail: str, seat: int | None = None) -> NoReturn:
    raise ProtocolError(SIG_MALFORMED, seat, detail)


def open_envelope(envelope: Any, decoded: tuple | None = None) -> tuple[dict, bytes, bytes]:
    """Decode and type-check an envelope (dict or bytes) without trusting it.

    Returns (body, body_bytes, sig).  The body is canonical and has a
    well-typed header; nothing about its signature or sequence is known yet.
    ``decoded``: (envelope map, body map) the caller already unpacked from these very
    bytes with ``wire.unpack``'s settings (a receiver peeks at every header first): the
    two decodings are not done again; every check still is.
    """
    if decoded is not None:
        envelope = decoded[0]
    elif isinstance(envelope, (bytes, bytearray)):
        envelope = wire.unpack(envelope, SIG_MALFORMED)
    if not isinstance(envelope, dict) or set(envelope) != {"body", "sig"}:
        _malformed("envelope must be a map with exactly 'body' and 'sig'")
    data, sig = envelope["body"], envelope["sig"]
    if not isinstance(data, bytes) or not isinstance(sig, bytes) or len(sig) != 64:
        _malformed("'body' must be bytes and 'sig' 64 bytes")
    body = decoded[1] if decoded is not None else wire.unpack(data, SIG_MALFORMED)
    if not isinstance(body, dict):
        _malformed("body must be a map")
    try:
        canonical = wire.is_canonical_tree(body) and \
            msgpack.packb(body, use_bin_type=True) == data
    except ValueError as exc:
        _malformed(f"body holds a value not allowed: {exc}")
    if not canonical:
        _malformed("body is not canonically encoded")
    t, g, s, q = (body.get(name) for name in HEADER_FIELDS)
    if not (isinstance(t, str) and 0 < len(t) <= MAX_TYPE):
        _malformed("'type' must be a short str")
    if not (isinstance(g, str) and 0 < len(g) <= MAX_GAME_ID):
        _malformed("'game' must be a short str")
    if not (wire.is_int(s) and s >= 0 and wire.is_int(q) and q >= 0):
        _malformed("'seat' and 'seq' must be non-negative ints")
    return body, data, sig


class Verifier:
    """Checks envelopes for one game at one peer, tracking each seat's sequence.

    Each seat's messages must come with seq 0, 1, 2, ... exactly: a lower seq
    is a replay, a higher one means something was lost or reordered.  A refused
    envelope changes nothing.
    """

    def __init__(self, game_id: str, public_keys: Mapping[int, bytes] | Sequence[bytes]) -> None:
        self.game_id = game_id
        items = public_keys.items() if isinstance(public_keys, Mapping) else enumerate(public_keys)
        self._keys = {seat: Ed25519PublicKey.from_public_bytes(pk) for seat, pk in items}
        self._next = {seat: 0 for seat in self._keys}

    def expected_seq(self, seat: int) -> int:
        return self._next[seat]

    def check_signature(self, seat: int, signed: bytes, sig: bytes) -> None:
        """ProtocolError unless ``sig`` is ``seat``'s signature of an envelope's ``signed``
        body bytes."""
        try:
            self._keys[seat].verify(sig, SIG_DOMAIN + signed)
        except InvalidSignature:
            raise ProtocolError(SIG_BAD_SIGNATURE, seat,
                                "signature does not match the seat's key") from None

    def verify(self, envelope: Any, decoded: tuple | None = None, *,
               signature: bool = True) -> dict:
        """The body of a genuine, fresh message of this game, or ProtocolError.
        (``decoded``: as for ``open_envelope``.)  ``signature=False``: every check but the
        signature's, which the caller makes later with ``check_signature`` (an envelope its
        sender's own authenticated connection brought)."""
        body, data, sig = open_envelope(envelope, decoded)
        seat, seq = body["seat"], body["seq"]
        if body["game"] != self.game_id:
            raise ProtocolError(SIG_WRONG_GAME, seat, f"game {body['game']!r}")
        if seat not in self._keys:
            raise ProtocolError(SIG_UNKNOWN_SEAT, seat, "no such seat in this game")
        if signature:
            self.check_signature(seat, data, sig)
        expected = self._next[seat]
        if seq < expected:
            raise ProtocolError(SIG_REPLAYED, seat, f"seq {seq} already seen (next is {expected})")
        if seq > expected:
            raise ProtocolError(SIG_OUT_OF_ORDER, seat, f"seq {seq}, expected {expected}")
        self._next[seat] = seq + 1
        return body
