"""One test per cheat: each is caught by every honest peer and the cheater named.

Cheaters speak the protocol: either their outgoing bodies are rewritten and
signed again with their own key (``tamper``), or they run a DeckPeer subclass
whose own state follows its lies (``peer_classes``).
"""

import pytest

from net.crypto import CheatingError, DeckPeer, LocalDeckTable, ProtocolError, curve
from net.crypto.audit import rekey_stage, shuffle_stage


def caught_by(table, reason, seat, honest):
    """Every honest seat refused with ``reason`` naming ``seat``."""
    found = {r for r, e in table.errors if e.reason == reason and e.seat == seat}
    assert set(honest) <= found, (reason, seat, table.errors)
    return found


def honest_seats(n, cheater):
    return [s for s in range(n) if s != cheater]


def junk_point():
    return curve.mul(curve.random_scalar(), curve.card_point(10 ** 9))


# ---------------------------------------------------------------- shuffles
@pytest.mark.parametrize("n,cheater", [(2, 0), (3, 1), (5, 4)])
def test_duplicated_ciphertext_in_a_shuffle_is_caught_at_once(n, cheater):
    def dup(peer, body):
        if body["type"] == "deck/shuffle":
            body["cards"][1] = body["cards"][0]
        return body

    table = LocalDeckTable(n, tamper={cheater: dup})
    with pytest.raises(CheatingError) as e:
        table.new_deck()
    assert (e.value.reason, e.value.seat) == ("deck/duplicate-ciphertext", cheater)
    caught_by(table, "deck/duplicate-ciphertext", cheater, honest_seats(n, cheater))
    assert not any(p.ready for p in table.peers())


@pytest.mark.parametrize("change,reason", [
    (lambda cards: cards[:-1], "deck/malformed"),                       # a card dropped
    (lambda cards: cards + [junk_point()], "deck/malformed"),           # a card added
    (lambda cards: [b"\xff" * 32] + cards[1:], "deck/not-on-curve"),    # not a point
    (lambda cards: [c[:31] for c in cards], "deck/not-on-curve"),       # wrong lengths
])
def test_malformed_stage_lists_are_caught_at_once(change, reason):
    def tamper(peer, body):
        if body["type"] == "deck/rekey":
            body["cards"] = change(body["cards"])
        return body

    table = LocalDeckTable(3, tamper={2: tamper})
    with pytest.raises(CheatingError):
        table.new_deck()
    caught_by(table, reason, 2, [0, 1])


class SmartDuplicator(DeckPeer):
    """Last shuffler: puts a second encryption of one card in place of another,
    and compensates in its re-key stage so that both decode cleanly."""

    def _shuffle_output(self, prev):
        out = shuffle_stage(self._scalar, self._perm, prev)
        self._b = curve.random_scalar()
        out[1] = curve.mul(self._b, prev[self._perm[0]])  # same card as position 0
        return out

    def _rekey_output(self, prev):
        out = rekey_stage(self._scalar, self._keys, prev)
        out[1] = curve.mul(self._keys[1] * curve.inverse(self._b) % curve.N, prev[1])
        return out


class CardDropper(DeckPeer):
    """Replaces one card of its shuffle by a point that is no card."""

    def _shuffle_output(self, prev):
        out = shuffle_stage(self._scalar, self._perm, prev)
        out[3] = junk_point()
        return out


class RekeyCheat(DeckPeer):
    """Re-keys position 2 with a key other than the one it committed to."""

    def _rekey_output(self, prev):
        out = rekey_stage(self._scalar, self._keys, prev)
        out[2] = curve.mul(curve.random_scalar(), prev[2])
        return out


def test_duplicated_card_is_seen_at_reveal_and_the_audit_names_the_shuffler():
    n = 4
    table = LocalDeckTable(n, peer_classes={3: SmartDuplicator})
    table.new_deck()  # nothing visible yet: every list looks random
    with pytest.raises(ProtocolError) as e:
        table.reveal(range(50))
    assert e.value.reason == "deck/duplicate-card" and e.value.seat is None
    caught_by(table, "deck/duplicate-card", None, range(n))
    with pytest.raises(CheatingError) as e:
        table.audit()
    assert (e.value.reason, e.value.seat) == ("audit/shuffle-mismatch", 3)
    caught_by(table, "audit/shuffle-mismatch", 3, range(3))
    for p in table.peers():
        assert {seat for seat, _, _ in p.audit_report.faults} == {3}
        assert len(set(p.audit_report.cards)) == 49  # one card twice, one missing


@pytest.mark.parametrize("n,cheater", [(2, 1), (3, 0), (5, 2)])
def test_dropped_card_is_seen_at_reveal_and_the_audit_names_the_shuffler(n, cheater):
    table = LocalDeckTable(n, peer_classes={cheater: CardDropper})
    table.new_deck()
    with pytest.raises(ProtocolError) as e:
        table.reveal(range(50))
    assert e.value.reason == "deck/not-a-card" and e.value.seat is None
    with pytest.raises(CheatingError) as e:
        table.audit()
    assert (e.value.reason, e.value.seat) == ("audit/shuffle-mismatch", cheater)
    caught_by(table, "audit/shuffle-mismatch", cheater, honest_seats(n, cheater))
    report = table.peers()[(cheater + 1) % n].audit_report
    assert report.cards.count(None) == 1 and len(set(report.cards) - {None}) == 49


def test_bad_rekey_is_disputed_by_the_receiver_and_the_audit_names_the_cheater():
    table = LocalDeckTable(3, peer_classes={1: RekeyCheat})
    table.new_deck()
    with pytest.raises(ProtocolError) as e:
        table.deal([2], 0)
    assert (e.value.reason, e.value.seat) == ("deck/not-a-card", None)
    assert table.errors[-1][0] == 0  # only the receiver can see it
    # The receiver disputes by releasing its own key: everyone sees it now.
    with pytest.raises(ProtocolError):
        table.reveal([2])
    caught_by(table, "deck/not-a-card", None, [1, 2])
    with pytest.raises(CheatingError) as e:
        table.audit()
    assert (e.value.reason, e.value.seat) == ("audit/rekey-mismatch", 1)
    caught_by(table, "audit/rekey-mismatch", 1, [0, 2])


# ------------------------------------------------------------------ keys
def wrong_key(peer, body):
    if body["type"] == "deck/keys":
        body["keys"][0] = curve.scalar_to_bytes(curve.random_scalar())
    return body


def test_wrong_key_at_a_public_reveal_is_caught_and_named():
    table = LocalDeckTable(4, tamper={2: wrong_key})
    table.new_deck()
    with pytest.raises(CheatingError) as e:
        table.reveal([7, 8])
    assert (e.value.reason, e.value.seat) == ("deck/wrong-key", 2)
    caught_by(table, "deck/wrong-key", 2, [0, 1, 3])
    for s in (0, 1, 3):
        assert 2 not in table.peers()[s].released[7]  # the refused message changed nothing
        assert table.peers()[s].card_at(7) is None


def test_wrong_key_at_a_private_deal_is_caught_and_named():
    table = LocalDeckTable(3, tamper={0: wrong_key})
    table.new_deck()
    with pytest.raises(CheatingError):
        table.deal([4], 2)
    caught_by(table, "deck/wrong-key", 0, [1, 2])
    assert table.peers()[2].card_at(4) is None


def open_body(table, seat, pos, card, key=None):
    peer = table.peers()[seat]
    key = key or curve.scalar_to_bytes(peer._keys[pos])
    return table.signers[seat].sign("deck/open", {"epoch": peer.epoch, "pos": pos, "card": card,
                                                  "key": key, "deck": peer.transcript_digest})


def test_claiming_a_card_not_held_is_caught_and_named():
    table = LocalDeckTable(3)
    table.new_deck()
    table.deal([0, 1], 1)
    table.deal([2], 2)
    mine = table.peers()[1].card_at(0)
    other = next(c for c in range(50) if c != mine)
    # Seat 1 says position 0 holds another card than the one it was dealt.
    table.send(1, [open_body(table, 1, 0, other)])
    caught_by(table, "deck/claim-mismatch", 1, [0, 2])
    # Seat 1 claims seat 2's position (it gave its own key for it away when
    # dealing it), then a position nobody was dealt.
    table.send(1, [open_body(table, 1, 2, table.peers()[2].card_at(2))])
    caught_by(table, "deck/already-released", 1, [0, 2])
    table.send(1, [open_body(table, 1, 9, 9)])
    caught_by(table, "deck/not-holder", 1, [0, 2])
    # Its true card still opens fine afterwards.
    table.errors.clear()
    table._reported = 0
    table.open(1, 0)
    assert all(p.card_at(0) == mine for p in table.peers())


def test_opening_with_a_key_that_is_not_committed_is_caught():
    table = LocalDeckTable(2)
    table.new_deck()
    table.deal([5], 0)
    card = table.peers()[0].card_at(5)
    table.send(0, [open_body(table, 0, 5, card, key=curve.scalar_to_bytes(7))])
    caught_by(table, "deck/wrong-key", 0, [1])


# ----------------------------------------------------------- envelopes
def test_forged_deck_message_is_refused():
    table = LocalDeckTable(3)
    table.new_deck()
    peer = table.peers()[1]
    body = {"type": "deck/keys", "game": table.game_id, "seat": 1,
            "seq": table.verifiers[0].expected_seq(1), "epoch": 0, "positions": [0],
            "keys": [curve.scalar_to_bytes(peer._keys[0])], "deck": peer.transcript_digest}
    forged = table.identities[2].sign_message(body)  # seat 2 pretends to be seat 1
    table.send(1, [forged])
    caught_by(table, "sig/bad-signature", 1, [0, 2])
    assert all(1 not in p.released[0] for p in table.peers())


def test_replayed_deck_message_is_refused():
    table = LocalDeckTable(3)
    table.new_deck()
    table.deal([0], 2)
    replay = table.log[-1]
    table.send(1, [replay])
    caught_by(table, "sig/replayed", 1, [0, 2])


# ---------------------------------------------------------------- audit
@pytest.mark.parametrize("field,reason", [("scalar", "audit/bad-secrets"),
                                          ("perm", "audit/bad-secrets"),
                                          ("keys", "deck/wrong-key")])
def test_audit_with_secrets_other_than_committed_is_caught(field, reason):
    def lie(peer, body):
        if body["type"] == "deck/audit":
            if field == "scalar":
                body["scalar"] = curve.scalar_to_bytes(curve.random_scalar())
            elif field == "perm":
                body["perm"][0], body["perm"][1] = body["perm"][1], body["perm"][0]
            else:
                body["keys"][5] = curve.scalar_to_bytes(curve.random_scalar())
        return body

    table = LocalDeckTable(3, tamper={1: lie})
    table.new_deck()
    with pytest.raises(CheatingError):
        table.audit()
    caught_by(table, reason, 1, [0, 2])
    assert all(table.peers()[s].audit_report is None for s in (0, 2))


# ------------------------------------------------------- protocol abuse
def test_withheld_stage_names_the_seat_everyone_waits_for():
    table = LocalDeckTable(4, tamper={
        2: lambda peer, body: None if body["type"] == "deck/rekey" else body})
    table.new_deck()
    for s in (0, 1, 3):
        assert not table.peers()[s].ready and table.peers()[s].waiting_for() == [2]


def test_diverging_transcript_is_refused():
    def fork(peer, body):
        if body["type"] == "deck/shuffle":
            body["prev"] = bytes(32)
        return body

    table = LocalDeckTable(3, tamper={1: fork})
    with pytest.raises(ProtocolError):
        table.new_deck()
    caught_by(table, "deck/diverged", 1, [0, 2])


def test_other_card_set_is_refused():
    def other_set(peer, body):
        if body["type"] == "deck/commit":
            body["cards"] = bytes(32)
        return body

    table = LocalDeckTable(2, tamper={0: other_set})
    with pytest.raises(ProtocolError):
        table.new_deck()
    caught_by(table, "deck/card-set-mismatch", 0, [1])


@pytest.mark.parametrize("fields", [
    {"positions": [0], "keys": []},
    {"positions": [0, 0], "keys": [b"\x01" * 32] * 2},
    {"positions": [50], "keys": [b"\x01" * 32]},
    {"positions": [True], "keys": [b"\x01" * 32]},
    {"positions": [0], "keys": [bytes(32)]},          # scalar 0
    {"positions": [0], "keys": [b"\xff" * 32]},       # scalar >= n
    {"positions": "0", "keys": [b"\x01" * 32]},
    {"keys": [b"\x01" * 32]},
])
def test_malformed_key_release_is_refused(fields):
    table = LocalDeckTable(2)
    table.new_deck()
    peer = table.peers()[1]
    table.send(1, [table.signers[1].sign("deck/keys", {"epoch": 0, "deck": peer.transcript_digest,
                                                       **fields})])
    caught_by(table, "deck/malformed", 1, [0])
    assert table.peers()[0].released[0] == {}


def test_flood_of_early_messages_is_refused():
    table = LocalDeckTable(2)
    table.decks.append([DeckPeer(table.signers[s], 2, range(10)) for s in range(2)])
    peer = table.peers()[0]
    body = {"type": "deck/keys", "game": table.game_id, "seat": 1, "epoch": 0,
            "positions": [0], "keys": [b"\x01" * 32], "deck": bytes(32)}
    for seq in range(64):
        peer.handle({**body, "seq": seq})  # held: the deck is not set up
    with pytest.raises(CheatingError) as e:
        peer.handle({**body, "seq": 64})
    assert (e.value.reason, e.value.seat) == ("deck/flood", 1)


def test_withheld_keys_and_audit_name_the_seat_holding_back():
    withhold = {"on": False}

    def sulk(peer, body):
        return None if withhold["on"] else body

    table = LocalDeckTable(3, tamper={1: sulk})
    table.new_deck()
    withhold["on"] = True
    table.deal([0], 2)
    receiver = table.peers()[2]
    assert receiver.card_at(0) is None and receiver.unreleased(0) == [1, 2]
    table.audit()
    for s in (0, 2):
        assert table.peers()[s].audit_report is None and table.peers()[s].waiting_for() == [1]
