"""Deterministic secrets from one per-game master secret.

A peer draws 32 random bytes (its *master secret*) when it joins a game and keeps
them in its secrets file (0600).  Every other secret it needs in that game — its
share of the shared seed, the nonces of its commitments, its deck scalars,
permutations and per-position keys for every epoch — is derived from the master
secret with HMAC-SHA256 under a distinct label.  So a peer that crashes can
rebuild exactly the same secrets, and so re-create byte-identical messages (Ed25519
signatures are deterministic), when it replays its log.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable

from net.crypto import DeckPeer, Signer
from net.crypto import curve


def stream(master: bytes, label: str, nbytes: int) -> bytes:
    out = b""
    i = 0
    while len(out) < nbytes:
        out += hmac.new(master, f"{label}/{i}".encode(), hashlib.sha256).digest()
        i += 1
    return out[:nbytes]


def derive_bytes(master: bytes, label: str, nbytes: int = 32) -> bytes:
    return stream(master, label, nbytes)


def derive_scalar(master: bytes, label: str) -> int:
    # 64 bytes reduced mod n-1: the bias is below 2^-256.
    return int.from_bytes(stream(master, label, 64), "big") % (curve.N - 1) + 1


def derive_perm(master: bytes, label: str, size: int) -> list[int]:
    """A uniform permutation of range(size): Fisher–Yates on an HMAC stream."""
    perm = list(range(size))
    data = stream(master, label, 16 * max(size, 1))
    for i in range(size - 1, 0, -1):
        r = int.from_bytes(data[16 * i:16 * i + 16], "big") % (i + 1)  # bias < 2^-120
        perm[i], perm[r] = perm[r], perm[i]
    return perm


def seeded_deck(signer: Signer, n_seats: int, card_ids: Iterable[int], epoch: int,
                master: bytes) -> DeckPeer:
    """A DeckPeer whose secrets come from ``master`` (the same after a restart)."""
    card_ids = list(card_ids)
    base, size = f"deck/{epoch}", len(card_ids)
    secrets = (derive_scalar(master, base + "/scalar"), derive_perm(master, base + "/perm", size),
               [derive_scalar(master, f"{base}/key/{j}") for j in range(size)])
    return DeckPeer(signer, n_seats, card_ids, epoch, secrets=secrets)
