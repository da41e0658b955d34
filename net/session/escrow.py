"""Escrow of every seat's master secret, so a departed seat can be handed to a bot.

Games of 3-5 seats (docs/network.md, "Handing a departed seat to a bot").  Every secret
a seat uses comes from its 32-byte master secret (derive.py), so the master is all that
needs escrowing.  At the start each seat s

* derives an X25519 key pair from its *identity* key (never from the master: the
  master of a departed seat becomes known to everyone, its identity key does not)
  and publishes the public half (``esc/key``, its first message);
* once every seat's ``esc/key`` is in, XOR-splits its master into n-1 shares, one
  per other seat, encrypts share j to seat j (X25519 ECDH, HKDF-SHA256,
  ChaCha20-Poly1305; the key is unique per game, owner and holder, so a fixed nonce
  is safe) and publishes them with a commitment to the master
  SHA-256(master || game id || seat) and one commitment per share (``esc/shares``).

``Escrow`` is the part that sends and checks these two messages; the functions below
are its cryptography, also used by the handoff (handoff.py).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable
from typing import TYPE_CHECKING

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from net.crypto import curve, wire
from net.crypto.audit import secrets_commitment

from .derive import derive_bytes, derive_perm, derive_scalar
from .effects import Names, Out, Refused
from .msgs import N_, Msg

if TYPE_CHECKING:
    from net.crypto import DeckPeer, Identity, Signer

    from .dispatch import Dispatcher

ESCROW_INFO = b"belfort-lan/escrow/v1"
MIN_SEATS = 3


def escrow_private(identity: Identity, game_id: str) -> X25519PrivateKey:
    raw = hmac.new(identity.private_bytes(), b"belfort-lan/escrow-key/v1\x00" + game_id.encode(),
                   hashlib.sha256).digest()
    return X25519PrivateKey.from_private_bytes(raw)


def public_bytes(priv: X25519PrivateKey) -> bytes:
    return priv.public_key().public_bytes(serialization.Encoding.Raw,
                                          serialization.PublicFormat.Raw)


def master_commitment(master: bytes, game_id: str, seat: int) -> bytes:
    return hashlib.sha256(master + game_id.encode() + bytes([seat])).digest()


def share_commitment(share: bytes, game_id: str, owner: int, holder: int) -> bytes:
    return hashlib.sha256(b"belfort-lan/escrow-share/v1\x00" + wire.pack([game_id, owner, holder])
                          + share).digest()


def split(master: bytes, n: int, owner: int) -> dict[int, bytes]:
    """XOR shares of ``master``, one per other seat (deterministic from the master)."""
    holders = [j for j in range(n) if j != owner]
    shares = {j: derive_bytes(master, f"escrow/share/{j}") for j in holders[:-1]}
    last = bytearray(master)
    for sh in shares.values():
        last = bytearray(a ^ b for a, b in zip(last, sh))
    shares[holders[-1]] = bytes(last)
    return shares


def combine(shares: Iterable[bytes]) -> bytes:
    out = bytearray(32)
    for sh in shares:
        out = bytearray(a ^ b for a, b in zip(out, sh))
    return bytes(out)


def _aead(priv: X25519PrivateKey, peer_pub: bytes, game_id: str, owner: int,
          holder: int) -> tuple[ChaCha20Poly1305, bytes]:
    shared = priv.exchange(X25519PublicKey.from_public_bytes(peer_pub))
    info = ESCROW_INFO + wire.pack([game_id, owner, holder])
    key = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=info).derive(shared)
    return ChaCha20Poly1305(key), info


def seal(priv: X25519PrivateKey, holder_pub: bytes, game_id: str, owner: int, holder: int,
         share: bytes) -> bytes:
    aead, info = _aead(priv, holder_pub, game_id, owner, holder)
    return aead.encrypt(b"\x00" * 12, share, info)


def unseal(priv: X25519PrivateKey, owner_pub: bytes, game_id: str, owner: int, holder: int,
           box: bytes) -> bytes | None:
    """The share, or None if the box does not decrypt."""
    try:
        aead, info = _aead(priv, owner_pub, game_id, owner, holder)
        return aead.decrypt(b"\x00" * 12, box, info)
    except Exception:
        return None


def deck_check(master: bytes, game_id: str, seat: int, decks: Iterable[DeckPeer]) -> str:
    """'' if ``master`` re-derives the secrets commitment ``seat`` published in every
    deck epoch, else what differs."""
    for deck in decks:
        got = deck.commits.get(seat)
        if got is None:
            continue
        e = deck.epoch
        scalar = derive_scalar(master, f"deck/{e}/scalar")
        perm = derive_perm(master, f"deck/{e}/perm", deck.size)
        if secrets_commitment(game_id, seat, e, curve.scalar_to_bytes(scalar), perm) != got[0]:
            return Msg(N_("its deck commitment of epoch {epoch} does not match"), epoch=e)
    return ""


class Escrow:
    def __init__(self, signer: Signer, identity: Identity, n: int, master: bytes,
                 names: Names) -> None:
        self.signer, self.seat, self.n, self.master, self.names = (signer, signer.seat, n, master,
                                                                   names)
        self.game_id = signer.game_id
        self.active = n >= MIN_SEATS
        self.priv = escrow_private(identity, self.game_id) if self.active else None
        self.pub: dict[int, bytes] = {}            # seat -> its escrow public key
        self.escrow: dict[int, dict] = {}          # owner -> its esc/shares fields
        self.my_shares: dict[int, bytes] = {}      # owner -> our (decrypted, checked) share
        self._sent = False

    def register(self, dispatch: Dispatcher) -> None:
        dispatch.on("esc/key", self.on_message)
        dispatch.on("esc/shares", self.on_message)

    def adopt_sent(self) -> None:
        """Our ``esc/shares``, made before a crash, came back from the others (catchup.py):
        it is not made again."""
        self._sent = True

    def start(self) -> Out:
        """Our escrow key: the first message of every seat (3-5 players)."""
        if not self.active:
            return Out()
        assert self.priv is not None, "an active escrow has its key"
        pub = public_bytes(self.priv)
        self.pub[self.seat] = pub
        return Out(send=[self.signer.sign("esc/key", {"pub": pub})])

    def step(self, stopped: bool) -> Out | None:
        """Our shares, once every seat's escrow key is in (None: nothing to do, the usual
        answer: asked whenever the game settles)."""
        if not self.active or self._sent or len(self.pub) < self.n or stopped:
            return None
        self._sent = True
        assert self.priv is not None, "an active escrow has its key"
        gid, seat, n = self.game_id, self.seat, self.n
        shares = split(self.master, n, seat)
        sc = [b"" if j == seat else share_commitment(shares[j], gid, seat, j) for j in range(n)]
        boxes = [b"" if j == seat else seal(self.priv, self.pub[j], gid, seat, j, shares[j])
                 for j in range(n)]
        return Out(send=[self.signer.sign("esc/shares", {
            "commit": master_commitment(self.master, gid, seat), "share_commits": sc,
            "boxes": boxes})])

    def on_message(self, body: dict, now: float) -> Out:
        seat, n, name = body["seat"], self.n, self.names.seat(body["seat"])
        if not self.active:
            raise Refused("cheat", seat, Msg(N_("{who} sent an escrow message in a {n}-player "
                                                "game (escrow is for 3 to 5 players)"),
                                             who=name, n=n))
        if body["type"] == "esc/key":
            pub = body.get("pub")
            if not (isinstance(pub, bytes) and len(pub) == 32):
                raise Refused("cheat", seat, Msg(N_("{who} sent a malformed escrow key"), who=name))
            if seat in self.pub:
                raise Refused("cheat", seat, Msg(N_("{who} sent its escrow key twice"), who=name))
            self.pub[seat] = pub
            return Out()
        commit, sc, boxes = body.get("commit"), body.get("share_commits"), body.get("boxes")
        ok = (isinstance(commit, bytes) and len(commit) == 32 and isinstance(sc, list)
              and isinstance(boxes, list) and len(sc) == n and len(boxes) == n)
        if ok and isinstance(sc, list) and isinstance(boxes, list):      # (ok says they are)
            for j in range(n):
                want_c, want_b = (0, 0) if j == seat else (32, 48)
                if not (isinstance(sc[j], bytes) and len(sc[j]) == want_c
                        and isinstance(boxes[j], bytes) and len(boxes[j]) == want_b):
                    ok = False
        if not ok:
            raise Refused("cheat", seat, Msg(N_("{who} sent a malformed escrow"), who=name))
        assert isinstance(sc, list) and isinstance(boxes, list), "ok checked both"
        assert self.priv is not None, "an active escrow has its key"   # (refused above if not)
        if seat in self.escrow:
            raise Refused("cheat", seat, Msg(N_("{who} sent its escrow twice"), who=name))
        if seat not in self.pub:
            raise Refused("cheat", seat, Msg(N_("{who} sent its escrow before its escrow key"),
                                             who=name))
        self.escrow[seat] = {"commit": commit, "share_commits": sc, "boxes": boxes}
        share = unseal(self.priv, self.pub[seat], self.game_id, seat, self.seat, boxes[self.seat])
        if share is None or len(share) != 32 or \
                share_commitment(share, self.game_id, seat, self.seat) != sc[self.seat]:
            raise Refused("cheat", seat, Msg(N_("{who}'s escrow share for us does not open its "
                                                "commitment: its seat could not be handed to a "
                                                "bot"), who=name))
        self.my_shares[seat] = share
        return Out()
