"""Commitments of a deck peer's secrets and the end-of-game audit.

The audit is a pure function of public data: the card set, every stage
output from the transcript and every peer's published secrets.  Each stage is
recomputed from the transcript's *previous* stage, so a peer is judged only on
what it did with what it received, and every faulty stage is named.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from . import curve, wire
from .errors import AUDIT_REKEY_MISMATCH, AUDIT_SHUFFLE_MISMATCH

KEY_DOMAIN = "belfort-lan/deck-key/v1"
SECRETS_DOMAIN = "belfort-lan/deck-secrets/v1"
CARDS_DOMAIN = "belfort-lan/deck-cards/v1"


def key_commitment(game_id: str, seat: int, epoch: int, pos: int, key: bytes) -> bytes:
    # A per-position key is a uniform 256-bit secret, so the hash hides it
    # without a nonce; game, seat, epoch and position stop any reuse.
    return hashlib.sha256(wire.pack([KEY_DOMAIN, game_id, seat, epoch, pos, key])).digest()


def secrets_commitment(game_id: str, seat: int, epoch: int, scalar: bytes,
                       perm: list[int]) -> bytes:
    return hashlib.sha256(wire.pack([SECRETS_DOMAIN, game_id, seat, epoch, scalar, perm])).digest()


def cards_digest(card_ids: list[int]) -> bytes:
    return hashlib.sha256(wire.pack([CARDS_DOMAIN, card_ids])).digest()


def shuffle_stage(scalar: int, perm: list[int], xs: list[bytes]) -> list[bytes]:
    """Encrypt every card with one scalar, then permute: out[j] = scalar·in[perm[j]]."""
    enc = curve.mul_all(scalar, xs)
    return [enc[p] for p in perm]


def rekey_stage(scalar: int, keys: list[int], xs: list[bytes]) -> list[bytes]:
    """Swap the shuffle scalar for per-position keys: out[j] = (key_j / scalar)·in[j].

    One multiplication per card: the two steps are combined into one scalar.
    """
    inv = curve.inverse(scalar)
    return curve.mul_each([k * inv % curve.N for k in keys], xs)


def decrypt(keys: list[int], x: bytes) -> bytes:
    """Remove every seat's lock on one position at once."""
    total = 1
    for k in keys:
        total = total * k % curve.N
    return curve.mul(curve.inverse(total), x)


@dataclass
class AuditReport:
    """What the audit found; ``cards`` maps every position to its card id (None if no card)."""

    faults: list[tuple[int, str, str]] = field(default_factory=list)
    cards: list[int | None] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.faults


def _differences(expected: list[bytes], got: list[bytes]) -> str:
    bad = [j for j, (a, b) in enumerate(zip(expected, got)) if a != b]
    return f"positions {bad[:8]}{' ...' if len(bad) > 8 else ''} differ from the recomputation"


def run_audit(card_points: list[bytes], card_of: dict[bytes, int], shuffles: list[list[bytes]],
              rekeys: list[list[bytes]],
              secrets: list[tuple[int, list[int], list[int]]]) -> AuditReport:
    """Recompute every stage from the seats' (scalar, perm, keys), in seat order."""
    report = AuditReport()
    prev = card_points
    for seat, (scalar, perm, _) in enumerate(secrets):
        expected = shuffle_stage(scalar, perm, prev)
        if expected != shuffles[seat]:
            report.faults.append((seat, AUDIT_SHUFFLE_MISMATCH,
                                  _differences(expected, shuffles[seat])))
        prev = shuffles[seat]
    for seat, (scalar, _, keys) in enumerate(secrets):
        expected = rekey_stage(scalar, keys, prev)
        if expected != rekeys[seat]:
            report.faults.append((seat, AUDIT_REKEY_MISMATCH, _differences(expected, rekeys[seat])))
        prev = rekeys[seat]
    # Re-run every reveal: with every key public each position decodes to its card.
    for pos, x in enumerate(prev):
        report.cards.append(card_of.get(decrypt([s[2][pos] for s in secrets], x)))
    return report


TRANSCRIPT_DOMAIN = "belfort-lan/deck-transcript/v1"


def transcript_start(game_id: str, epoch: int, card_ids: list[int],
                     commits: list[tuple[bytes, list[bytes]]]) -> bytes:
    """Transcript hash once every commitment is in (in seat order)."""
    return hashlib.sha256(wire.pack([TRANSCRIPT_DOMAIN, game_id, epoch, card_ids,
                                     [[s, k] for s, k in commits]])).digest()


def transcript_next(prev: bytes, stage: list[bytes]) -> bytes:
    """Transcript hash after one more stage list."""
    return hashlib.sha256(wire.pack([prev, stage])).digest()
