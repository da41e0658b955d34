"""Garbage in deck messages is refused with a ProtocolError, never a crash."""

from hypothesis import given, settings
from hypothesis import strategies as st

from net.crypto import CheatingError, LocalDeckTable, ProtocolError

TABLE = LocalDeckTable(3)
TABLE.new_deck(range(8))
PEER = TABLE.peers()[0]

values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-2, 2**64 - 1)
    | st.binary(max_size=40)
    | st.sampled_from([b"\x01" * 32, PEER.transcript_digest, PEER.rekeys[-1][0]])
    | st.text(max_size=5),
    lambda inner: (st.lists(inner, max_size=9) | st.dictionaries(st.text(max_size=4), inner,
                                                                 max_size=3)),
    max_leaves=20,
)
FIELDS = ["cards", "secrets", "keys", "prev", "positions", "deck", "pos", "card", "key",
          "scalar", "perm", "epoch"]


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(["deck/commit", "deck/shuffle", "deck/rekey", "deck/keys", "deck/open",
                        "deck/audit", "deck/other"]),
       st.dictionaries(st.sampled_from(FIELDS), values, max_size=6),
       st.integers(0, 2))
def test_garbage_deck_bodies_are_refused(type_, fields, seat):
    body = {"epoch": 0, **fields, "type": type_, "game": TABLE.game_id, "seat": seat, "seq": 0}
    before = PEER.public_view()
    try:
        PEER.handle(body)
    except CheatingError as e:
        assert e.seat == seat
    except ProtocolError:
        pass
    assert PEER.public_view() == before
