"""Handing a departed seat to a bot: the escrow of master secrets and the bot seat.

Escrow (games of 3-5 seats; see docs/network.md, "Handing a departed seat to a bot"):
every secret a seat uses comes from its 32-byte master secret (derive.py), so the
master is all that needs escrowing.  At the start each seat s

* derives an X25519 key pair from its *identity* key (never from the master: the
  master of a departed seat becomes known to everyone, its identity key does not)
  and publishes the public half (``esc/key``);
* once every seat's ``esc/key`` is in, XOR-splits its master into n-1 shares, one
  per other seat, encrypts share j to seat j (X25519 ECDH, HKDF-SHA256,
  ChaCha20-Poly1305; the key is unique per game, owner and holder, so a fixed nonce
  is safe) and publishes them with a commitment to the master
  SHA-256(master || game id || seat) and one commitment per share (``esc/shares``).

Handoff of s: every remaining seat votes (``hand/vote``, with how many of s's
envelopes it holds); the cut is the largest count; once every remaining seat has
voted, each publishes its decrypted share (``hand/share``); with all of s's
envelopes up to the cut in, each peer rebuilds s's master, checks every share against
its commitment (a wrong one names its sender), the master against its commitment and
against s's deck commitments.  From then on s's messages, with s's sequence going on
from the cut, are signed with the identity key of the lowest remaining seat, which
plays s with a bot (``Ghost``).
"""

from __future__ import annotations

import hashlib
import hmac

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.hazmat.primitives import serialization

from net.crypto import curve, wire
from net.crypto.audit import secrets_commitment

from .derive import derive_bytes, derive_perm, derive_scalar

ESCROW_INFO = b"belfort-lan/escrow/v1"
MIN_SEATS = 3
TWO_PLAYERS = ("handing a seat to a bot needs 3 to 5 players: with 2, the escrow would give "
               "the single opponent the whole master secret (every card of the other seat)")


ONE_ONLY = ("a seat was already handed to a bot in this game: its share of every other "
            "seat's escrow went with it, so no second seat can be handed over")


class HandoffError(Exception):
    """A handoff cannot be proposed now (the text says why)."""


def escrow_private(identity, game_id: str) -> X25519PrivateKey:
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


def combine(shares) -> bytes:
    out = bytearray(32)
    for sh in shares:
        out = bytearray(a ^ b for a, b in zip(out, sh))
    return bytes(out)


def _aead(priv: X25519PrivateKey, peer_pub: bytes, game_id: str, owner: int, holder: int):
    shared = priv.exchange(X25519PublicKey.from_public_bytes(peer_pub))
    info = ESCROW_INFO + wire.pack([game_id, owner, holder])
    key = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=info).derive(shared)
    return ChaCha20Poly1305(key), info


def seal(priv, holder_pub: bytes, game_id: str, owner: int, holder: int, share: bytes) -> bytes:
    aead, info = _aead(priv, holder_pub, game_id, owner, holder)
    return aead.encrypt(b"\x00" * 12, share, info)


def unseal(priv, owner_pub: bytes, game_id: str, owner: int, holder: int, box: bytes) -> bytes | None:
    """The share, or None if the box does not decrypt."""
    try:
        aead, info = _aead(priv, owner_pub, game_id, owner, holder)
        return aead.decrypt(b"\x00" * 12, box, info)
    except Exception:
        return None


def deck_check(master: bytes, game_id: str, seat: int, decks) -> str:
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
            return f"its deck commitment of epoch {e} does not match"
    return ""


class Ghost:
    """The bot that plays a handed-over seat, on the lowest remaining seat's peer.

    It holds the seat's rebuilt secrets (one DeckPeer per epoch, brought to the
    current transcript from the deck messages this peer has processed, the departed
    seat's own included) and signs the seat's messages with the host's identity key,
    the seat's sequence going on from the cut.  Its envelopes go out to everyone and
    into the host's own session like anyone else's (SessionPeer._ghost_emit)."""

    def __init__(self, peer, seat: int, master: bytes, cut: int, level: str = "normal",
                 think: float = 0.0) -> None:
        from net.crypto import Signer
        self.p, self.seat, self.master, self.cut = peer, seat, master, cut
        self.level, self.think = level, think
        self.signer = Signer(peer.identity, peer.cfg.game_id, seat, next_seq=cut)
        self.decks: dict = {}
        self.own: dict[str, tuple[bytes, bytes]] = {}
        self.revealed: set[str] = set()
        self.emitted: set[int] = set()
        self.acted = -1
        self.audit_sent = False
        self.bot = None
        self.out: list[dict] = []
        for e, d in enumerate(peer.decks):
            self._make_deck(e, d.card_ids, start=False)
            for body in peer.deck_log[e]:
                self.feed(body)

    # ------------------------------------------------------------ the deck
    def _make_deck(self, epoch: int, cards, start: bool) -> None:
        from .derive import seeded_deck
        d = seeded_deck(self.signer, self.p.n, cards, epoch, self.master)
        self.decks[epoch] = d
        if start:
            self.out.extend(d.start())
        else:
            d._started = True        # its commitment is in the transcript already

    def new_epoch(self, epoch: int, cards) -> None:
        # while the host replays its log, the seat's commitment comes from the log
        self._make_deck(epoch, cards, start=not self.p.replaying)

    def resume(self) -> None:
        """After the host replayed its log: go on from the seat's last logged message."""
        self.signer.next_seq = self.p.verifier.expected_seq(self.seat)
        for e in sorted(self.decks):
            d = self.decks[e]
            if self.seat not in d.commits:
                d._started = False
                self.out.extend(d.start())

    def feed(self, body: dict) -> None:
        """A deck message the host processed (any seat's, the departed seat's own
        before the cut included; ours are applied when signed)."""
        d = self.decks.get(body.get("epoch"))
        if d is None or (body["seat"] == self.seat and body["seq"] in self.emitted):
            return
        d._pending.append(body)
        try:
            d._drain()
        except Exception as exc:  # the host's own deck refused it too
            import logging
            logging.getLogger("belfort.session").warning("handoff bot: deck message refused: %s", exc)

    # ------------------------------------------------------------ acting
    def _view(self):
        """The game with the seat's own hand known (from its rebuilt deck secrets)."""
        import belfort
        from .config import card_type
        g, s = self.p.game, self.seat
        vg = g.copy()
        for c in g.players[s].hand:
            if vg.types[c] is None:
                e, pos = self.p._locate(c)
                d = self.decks.get(e)
                if d is None or pos not in d.known:
                    return None
                belfort.learn(vg, c, card_type(d.known[pos], self.p.per))
        return vg

    def _choose(self, view):
        import belfort
        if self.bot is None:
            from belfort.bots import make_bot
            self.bot = make_bot(self.level, f"{self.p.seed.hex()}/handoff{self.seat}",
                                think=self.think)
        try:
            cmd = self.bot.choose(belfort.redact(view, self.seat), self.seat)
            return belfort.check_legal(view, cmd, self.seat)[0]
        except Exception:
            return belfort.check_legal(view, belfort.legal_commands(view, self.seat)[0], self.seat)[0]

    def _opens(self, cmd) -> None:
        g, s = self.p.game, self.seat
        for card, _t in self.p._claims(s, cmd):
            if card in g.players[s].hand and not g.public[card]:
                e, pos = self.p._locate(card)
                d = self.decks.get(e)
                if d is not None and d.holder(pos) == s and pos in d.known:
                    self.out.append(d.open(pos))

    def _brute(self, view, rnd, purpose: str):
        """The departed seat committed to a simultaneous choice before the cut but never
        revealed it: its nonce comes from its master, so try every legal command."""
        import belfort
        from net.crypto import commitment_hash
        from .core import _plain
        s = self.seat
        nonce = derive_bytes(self.master, f"nonce/{purpose}/{rnd.commit_seq.get(s, -1)}")
        for cmd in belfort.legal_commands(view, s):
            try:
                norm = belfort.check_legal(view, cmd, s)[0]
            except Exception:
                continue
            value = wire.pack(_plain(norm))
            if commitment_hash(value, nonce, self.p.cfg.game_id, s, purpose) == rnd.commitments[s]:
                return value, nonce
        return None

    def step(self) -> list[dict]:
        """Key releases, decisions and the audit the seat owes now; returns envelopes."""
        import belfort
        from net.crypto import commitment_hash
        from .core import OVER, PLAYING, _plain, _tuples
        p, s, g = self.p, self.seat, self.p.game
        if g is None or p.desync or p.status not in (PLAYING, OVER):
            return self._take()
        if p.inbox[s]:
            return self._take()          # the seat's messages already sent go first
        for e in sorted(self.decks):
            self.out.extend(self.decks[e]._act())     # a shuffle or re-key stage now due
        todo: dict[int, list[int]] = {}

        def want(c):
            e, pos = p._locate(c)
            d = self.decks.get(e)
            if d is not None and d.ready and s not in d.released[pos]:
                lst = todo.setdefault(e, [])
                if pos not in lst:
                    lst.append(pos)
        for x in range(p.n):
            if x != s:
                for c in g.players[x].hand:
                    if not g.public[c]:
                        want(c)
        for c in g.reveal_queue:
            want(c)
        for e, positions in todo.items():
            self.out.append(self.decks[e].release(positions))
        if p.status == PLAYING and not p.paused:
            waiting = g.waiting_for()
            if s in waiting:
                view = self._view()
                if view is not None:
                    v = g.version
                    if len(waiting) == 1 and self.acted != v:
                        self.acted = v
                        cmd = self._choose(view)
                        self._opens(cmd)
                        self.out.append(self.signer.sign("sess/cmd", {"v": v, "cmd": _plain(cmd)}))
                    elif len(waiting) > 1:
                        purpose = f"sim/{v}"
                        rnd = p._sim_round()
                        if purpose not in self.own and s not in rnd.values:
                            if s in rnd.commitments:
                                found = self._brute(view, rnd, purpose)
                                if found is None:
                                    p._stop(f"{p._name(s)}'s simultaneous choice before the handoff "
                                            f"cannot be recovered", 0.0)
                                    return self._take()
                                self.own[purpose] = found
                            else:
                                value = wire.pack(_plain(self._choose(view)))
                                nonce = derive_bytes(self.master,
                                                     f"nonce/{purpose}/{self.signer.next_seq}")
                                c = commitment_hash(value, nonce, p.cfg.game_id, s, purpose)
                                self.own[purpose] = (value, nonce)
                                self.out.append(self.signer.sign(
                                    "commit/commit", {"purpose": purpose, "commitment": c}))
                        own = self.own.get(purpose)
                        if own is not None and rnd.all_committed and s not in rnd.values \
                                and purpose not in self.revealed:
                            self.revealed.add(purpose)
                            value, nonce = own
                            self._opens(belfort.normalize(_tuples(wire.unpack(value, "x"))))
                            self.out.append(self.signer.sign("commit/reveal", {
                                "purpose": purpose, "value": value, "nonce": nonce}))
        if p.status == OVER and not self.audit_sent and self.decks and \
                all(d.ready for d in self.decks.values()):
            self.audit_sent = True
            for e in sorted(self.decks):
                d = self.decks[e]
                if s not in d.audits:
                    self.out.append(d.publish_audit())
        return self._take()

    def _take(self) -> list[dict]:
        out, self.out = self.out, []
        for env in out:
            self.emitted.add(wire.unpack(env["body"], "x")["seq"])
        return out
