"""Signed evidence: an envelope checked on its own, outside the sequence.

A notice that changes someone's seat (``ctl/handed``) or names a cheater (a fork proof,
forks.py) is believed only for the signed messages it carries, each checked here
against its signer's key from the roster: no peer's word is taken for anything.
"""

from __future__ import annotations

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from net.crypto import ProtocolError, open_envelope
from net.crypto.identity import SIG_DOMAIN


def signed_body(data: object, public_key: bytes, game_id: str) -> dict | None:
    """The body of ``data`` if it is an envelope of this game whose signature verifies
    with ``public_key``, else None.  Its sequence number is not checked."""
    if not isinstance(data, bytes):
        return None
    try:
        body, raw, sig = open_envelope(data)
    except ProtocolError:
        return None
    if body["game"] != game_id:
        return None
    try:
        Ed25519PublicKey.from_public_bytes(public_key).verify(sig, SIG_DOMAIN + raw)
    except (InvalidSignature, ValueError):
        return None
    return body
