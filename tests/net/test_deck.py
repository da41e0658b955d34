"""The hidden deck with honest peers: setup, deals, reveals, reshuffles, audit."""

import hashlib
import random

import pytest

from net.crypto import DeckPeer, Identity, LocalDeckTable, Signer, Verifier, curve, encode_envelope

B = 0x5AC635D8AA3A93E7B3EBBD55769886BC651D06B0CC53B0F63BCE3C3E27D2604B  # P-256's b


def reference_card_point(card_id):
    """The documented encoding, written independently of net.crypto.curve."""
    for counter in range(1000):
        h = hashlib.sha256(b"belfort-lan/card/v1\x00" + card_id.to_bytes(8, "big")
                           + counter.to_bytes(4, "big")).digest()
        x = int.from_bytes(h, "big") % curve.P
        rhs = (x ** 3 - 3 * x + B) % curve.P
        if pow(rhs, (curve.P - 1) // 2, curve.P) == 1:  # a square: x is on the curve
            return x.to_bytes(32, "big")


def test_card_points_follow_the_documented_encoding():
    points = [curve.card_point(c) for c in range(50)]
    assert points == [reference_card_point(c) for c in range(50)]
    assert len(set(points)) == 50


def test_x_only_multiplication_commutes_and_inverts():
    x = curve.card_point(7)
    a, b = curve.random_scalar(), curve.random_scalar()
    assert curve.mul(a, curve.mul(b, x)) == curve.mul(b, curve.mul(a, x))
    assert curve.mul(curve.inverse(a * b % curve.N), curve.mul(a, curve.mul(b, x))) == x
    assert not curve.is_point(b"\xff" * 32)  # >= p
    off = next(i.to_bytes(32, "big") for i in range(1, 100)
               if pow((i ** 3 - 3 * i + B) % curve.P, (curve.P - 1) // 2, curve.P) != 1)
    assert not curve.is_point(off) and not curve.is_point(off[1:]) and not curve.is_point("x" * 32)
    with pytest.raises(ValueError):
        curve.mul(a, off)


def deal_hands(table, n, hand=3):
    """Deal `hand` consecutive positions to each seat; returns {seat: positions}."""
    hands = {s: list(range(s * hand, (s + 1) * hand)) for s in range(n)}
    for s, positions in hands.items():
        table.deal(positions, s)
    return hands


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_full_deal_each_peer_learns_exactly_its_own_cards(n):
    table = LocalDeckTable(n)
    table.new_deck(range(50))
    peers = table.peers()
    assert all(p.ready for p in peers)
    hands = deal_hands(table, n)
    seen = set()
    for s, peer in enumerate(peers):
        hand = peer.my_hand()
        assert sorted(hand) == hands[s]
        assert all(0 <= c < 50 for c in hand.values())
        seen |= set(hand.values())
        for other, positions in hands.items():
            for pos in positions:
                # Every peer knows who holds each position; only the holder knows the card.
                assert peer.holder(pos) == other
                assert (peer.card_at(pos) is not None) == (other == s)
        assert peer.public_cards() == {}
        assert all(peer.card_at(p) is None for p in range(3 * n, 50))
    assert len(seen) == 3 * n  # no card dealt twice
    assert table.errors == []


@pytest.mark.parametrize("n", [2, 3, 5])
def test_reveals_and_hand_opens_check_out_and_audit_agrees(n):
    table = LocalDeckTable(n)
    table.new_deck()
    hands = deal_hands(table, n)
    table.reveal([45, 46, 47])  # pool refill: public to all
    pool = table.peers()[0].public_cards()
    assert sorted(pool) == [45, 46, 47]
    assert all(p.public_cards() == pool for p in table.peers())
    # Seat 1 builds the card at its second position.
    pos = hands[1][1]
    card = table.peers()[1].card_at(pos)
    table.open(1, pos)
    for p in table.peers():
        assert p.card_at(pos) == card and p.holder(pos) is None
        assert p.claims[pos] == (1, card)
    reports = table.audit()
    assert all(r.ok for r in reports)
    final = reports[0].cards
    assert sorted(final) == list(range(50))
    assert all(r.cards == final for r in reports)
    for s, positions in hands.items():
        for p in positions:
            assert final[p] == table.peers()[s].card_at(p)
    assert all(final[p] == c for p, c in pool.items())


def test_views_of_the_same_public_messages_are_identical():
    """Peers holding different keys, seeing the same messages, know the same
    about everyone's hands: only positions and what was revealed."""
    table = LocalDeckTable(4)
    table.new_deck()
    hands = deal_hands(table, 4)
    table.reveal([20])
    table.open(2, hands[2][0])
    peers = table.peers()
    views = [p.public_view() for p in peers]
    assert all(v == views[0] for v in views)
    # Seat 0's hand is opaque to seats 1, 2 and 3 alike: their knowledge is
    # exactly the public cards plus their own hand.
    public = peers[1].public_cards()
    for s, p in enumerate(peers):
        assert p.known == {**public, **p.my_hand()}
        assert set(p.my_hand()) == set(hands[s]) - {hands[2][0]}
    # Nothing secret is in the public view: no unreleased key of any seat.
    blob = repr(views[0]).encode()
    for s, p in enumerate(peers):
        for pos in hands[s]:
            if p.holder(pos) == s:
                assert curve.scalar_to_bytes(p._keys[pos]) not in blob


def test_reshuffled_discard_pile_is_a_new_hidden_deck():
    table = LocalDeckTable(3)
    table.new_deck()
    table.reveal(range(10))
    discards = sorted(table.peers()[0].public_cards().values())
    epoch = table.reshuffle(discards)
    assert epoch == 1
    table.deal([0, 1], 2)
    hand = table.peers(epoch)[2].my_hand()
    assert set(hand.values()) <= set(discards) and len(set(hand.values())) == 2
    table.reveal([5])
    assert table.peers(epoch)[0].card_at(5) in discards
    reports = table.audit(epoch)
    assert all(r.ok for r in reports) and sorted(reports[0].cards) == discards
    # The first deck is untouched by the second.
    assert table.peers(0)[1].public_cards() == table.peers(0)[0].public_cards()


def test_setup_survives_any_delivery_order():
    """Over a mesh, seat 2's shuffle may reach seat 0 before seat 1's: peers
    hold early messages until they apply (each seat's own order is kept)."""
    n, rng = 4, random.Random(5)
    ids = [Identity.generate() for _ in range(n)]
    signers = [Signer(i, "mesh", s) for s, i in enumerate(ids)]
    verifiers = [Verifier("mesh", [i.public_bytes for i in ids]) for _ in range(n)]
    peers = [DeckPeer(signers[s], n, range(20)) for s in range(n)]
    inbox = {r: {s: [] for s in range(n)} for r in range(n)}

    def post(sender, envelopes):
        for e in envelopes:
            for r in range(n):
                if r != sender:
                    inbox[r][sender].append(encode_envelope(e))

    for s, p in enumerate(peers):
        post(s, p.start())
    while any(q for box in inbox.values() for q in box.values()):
        r = rng.randrange(n)
        senders = [s for s, q in inbox[r].items() if q]
        if senders:
            s = max(senders) if rng.random() < 0.7 else rng.choice(senders)
            post(r, peers[r].handle(verifiers[r].verify(inbox[r][s].pop(0))))
    assert all(p.ready for p in peers)
    assert len({p.transcript_digest for p in peers}) == 1
    # Keys released before a slow peer finished setup are held too.
    post(1, [peers[1].release([0])])
    post(2, [peers[2].release([0])])
    post(3, [peers[3].release([0])])
    for s in (3, 2, 1):
        peers[0].handle(verifiers[0].verify(inbox[0][s].pop(0)))
    assert peers[0].card_at(0) in range(20) and peers[1].card_at(0) is None


def test_release_refuses_bad_requests():
    table = LocalDeckTable(2)
    table.new_deck(range(10))
    p = table.peers()[0]
    for bad in ([], [10], [1, 1], [-1], ["3"]):
        with pytest.raises(ValueError):
            p.release(bad)
    table.deal([4], 1)
    with pytest.raises(ValueError):
        p.release([4])  # already released
    with pytest.raises(ValueError):
        p.open(4)  # not our card
    assert table.peers()[1].holder(4) == 1 and table.peers()[1].card_at(4) is not None


def test_a_deck_made_from_given_secrets_commits_to_them_and_refuses_bad_ones():
    """A peer that derives its secrets (the same after a restart) passes them in: the same
    secrets give the same commitment, byte for byte; malformed ones are refused."""
    ident = Identity.generate()
    size = 6
    good = (curve.random_scalar(), [5, 3, 1, 0, 2, 4],
            [curve.random_scalar() for _ in range(size)])
    first = DeckPeer(Signer(ident, "g", 0), 2, range(size), 0, secrets=good).start()
    again = DeckPeer(Signer(ident, "g", 0), 2, range(size), 0, secrets=good).start()
    assert encode_envelope(first[0]) == encode_envelope(again[0])
    other = DeckPeer(Signer(ident, "g", 0), 2, range(size), 0).start()
    assert encode_envelope(other[0]) != encode_envelope(first[0])
    scalar, perm, keys = good
    for bad in ((0, perm, keys), (curve.N, perm, keys), (scalar, [0, 0, 1, 2, 3, 4], keys),
                (scalar, perm, keys[:-1]), (scalar, perm, keys[:-1] + [0]), (1.5, perm, keys)):
        with pytest.raises(ValueError):
            DeckPeer(Signer(ident, "g", 0), 2, range(size), 0, secrets=bad)
