"""Cryptography for peers that trust nobody: identities and signed messages,
commit-reveal, and the hidden deck (mental poker).  No sockets: every step is
a plain msgpack-able message.  Message formats: PROTOCOL.md beside this file."""

from .audit import AuditReport
from .commit import CommitRevealRound, commit, commitment_hash, shared_seed, verify_reveal
from .deck import DeckPeer
from .errors import CheatingError, PeerTimedOut, ProtocolError
from .identity import Identity, Signer, Verifier, encode_envelope, fingerprint, open_envelope
from .table import LocalDeckTable

__all__ = [
    "AuditReport", "CheatingError", "CommitRevealRound", "DeckPeer", "Identity", "LocalDeckTable",
    "PeerTimedOut", "ProtocolError", "Signer", "Verifier", "commit", "commitment_hash",
    "encode_envelope", "fingerprint", "open_envelope", "shared_seed", "verify_reveal",
]
