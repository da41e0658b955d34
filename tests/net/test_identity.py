"""Identities, canonical encoding and signed envelopes."""

import re

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from net.crypto import (Identity, ProtocolError, Signer, Verifier, encode_envelope, fingerprint,
                        open_envelope)
from net.crypto import wire
from net.crypto.identity import SIG_DOMAIN

GAME = "game-1"


@pytest.fixture
def seats():
    ids = [Identity.generate() for _ in range(3)]
    signers = [Signer(i, GAME, s) for s, i in enumerate(ids)]
    verifier = Verifier(GAME, [i.public_bytes for i in ids])
    return ids, signers, verifier


def reason_of(excinfo):
    return excinfo.value.reason, excinfo.value.seat


def test_identity_keys_and_fingerprint():
    a = Identity.generate()
    assert len(a.public_bytes) == 32
    assert re.fullmatch(r"[0-9A-F]{4}(-[0-9A-F]{4}){3}", a.fingerprint)
    assert a.fingerprint == fingerprint(a.public_bytes)
    again = Identity.from_private_bytes(a.private_bytes())
    assert again.public_bytes == a.public_bytes
    assert Identity.generate().fingerprint != a.fingerprint


def test_canonical_pack_sorts_keys_recursively():
    a = wire.pack({"b": 1, "a": {"d": b"x", "c": [1, (2, 3)]}})
    b = wire.pack({"a": {"c": [1, [2, 3]], "d": b"x"}, "b": 1})
    assert a == b
    assert a == msgpack.packb({"a": {"c": [1, [2, 3]], "d": b"x"}, "b": 1}, use_bin_type=True)
    for bad in ({1: "int key"}, {"f": 1.5}, {"s": {1, 2}}):
        with pytest.raises(ValueError):
            wire.pack(bad)


def test_signed_message_round_trip(seats):
    _, signers, verifier = seats
    env = signers[1].sign("chat/say", {"text": "hello", "blob": b"\x00\x01"})
    body = verifier.verify(env)
    assert body == {"type": "chat/say", "game": GAME, "seat": 1, "seq": 0,
                    "text": "hello", "blob": b"\x00\x01"}
    # The transport may carry the envelope as bytes.
    body2 = verifier.verify(encode_envelope(signers[1].sign("chat/say", {"text": "again"})))
    assert body2["seq"] == 1 and body2["text"] == "again"


def test_header_fields_are_reserved(seats):
    _, signers, _ = seats
    with pytest.raises(ValueError):
        signers[0].sign("x/y", {"seq": 7})


def test_forged_signature_refused(seats):
    ids, signers, verifier = seats
    # Seat 2 writes a message claiming to come from seat 1.
    forged = ids[2].sign_message({"type": "deck/keys", "game": GAME, "seat": 1, "seq": 0})
    with pytest.raises(ProtocolError) as e:
        verifier.verify(forged)
    assert reason_of(e) == ("sig/bad-signature", 1)
    # A genuine message whose body was altered in transit.
    env = signers[1].sign("chat/say", {"text": "pay 1"})
    altered = {"body": env["body"].replace(b"pay 1", b"pay 9"), "sig": env["sig"]}
    with pytest.raises(ProtocolError) as e:
        verifier.verify(altered)
    assert reason_of(e) == ("sig/bad-signature", 1)
    # Neither refusal consumed seat 1's sequence number: the genuine one passes.
    assert verifier.verify(env)["seq"] == 0


def test_wrong_game_refused(seats):
    ids, _, verifier = seats
    other = Signer(ids[0], "another-game", 0)
    with pytest.raises(ProtocolError) as e:
        verifier.verify(other.sign("chat/say"))
    assert reason_of(e) == ("sig/wrong-game", 0)


def test_unknown_seat_refused(seats):
    ids, _, verifier = seats
    with pytest.raises(ProtocolError) as e:
        verifier.verify(Signer(ids[0], GAME, 7).sign("chat/say"))
    assert reason_of(e) == ("sig/unknown-seat", 7)


def test_replayed_and_out_of_order_refused(seats):
    _, signers, verifier = seats
    first = signers[0].sign("chat/say")
    verifier.verify(first)
    with pytest.raises(ProtocolError) as e:
        verifier.verify(first)
    assert reason_of(e) == ("sig/replayed", 0)
    signers[0].sign("chat/say")  # seq 1, lost on the way
    third = signers[0].sign("chat/say")
    with pytest.raises(ProtocolError) as e:
        verifier.verify(third)
    assert reason_of(e) == ("sig/out-of-order", 0)
    assert verifier.expected_seq(0) == 1
    # Other seats' sequences are independent.
    assert verifier.verify(signers[2].sign("chat/say"))["seq"] == 0


def _signed(identity, body_bytes):
    return {"body": body_bytes, "sig": identity._key.sign(SIG_DOMAIN + body_bytes)}


def test_non_canonical_body_refused(seats):
    ids, _, verifier = seats
    body = {"type": "chat/say", "seq": 0, "game": GAME, "seat": 0}  # keys not sorted
    raw = msgpack.packb(body, use_bin_type=True)
    with pytest.raises(ProtocolError) as e:
        verifier.verify(_signed(ids[0], raw))
    assert e.value.reason == "sig/malformed"


@pytest.mark.parametrize("envelope", [
    b"\xc1garbage", b"", 17, None, [b"a", b"b"], {"body": b"x"},
    {"body": b"x", "sig": b"short"}, {"body": 5, "sig": bytes(64)},
    {"body": msgpack.packb([1, 2]), "sig": bytes(64)},
    {"body": msgpack.packb({"game": GAME, "seat": 0, "seq": 0}), "sig": bytes(64)},
    {"body": msgpack.packb({"game": GAME, "seat": -1, "seq": 0, "type": "a"}), "sig": bytes(64)},
    {"body": msgpack.packb({"game": GAME, "seat": True, "seq": 0, "type": "a"}), "sig": bytes(64)},
    {"body": msgpack.packb({"f": 1.5, "game": GAME, "seat": 0, "seq": 0, "type": "a"}),
     "sig": bytes(64)},
    {"body": b"\x91" * 5000, "sig": bytes(64)},  # deeply nested arrays
])
def test_malformed_envelopes_refused(seats, envelope):
    _, _, verifier = seats
    with pytest.raises(ProtocolError) as e:
        verifier.verify(envelope)
    assert e.value.reason == "sig/malformed"


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200))
def test_garbage_bytes_never_crash(data):
    with pytest.raises(ProtocolError) as e:
        open_envelope(data)
    assert e.value.reason == "sig/malformed"
