"""A gap in a connected seat's sequence that its later envelopes wait behind is a step it
owes (deadlines.py): a seat whose message there was refused (a badly shaped one does not
use up its seq) would otherwise hold every later message of its own, and the game, for
ever.  Found by the process test of a deep ``sess/view`` (test_attacks_e2e.py)."""

from tests.session.test_attacks import _short_deadlines, _signed, game_until, named


def test_a_refused_message_with_later_ones_behind_it_names_its_sender():
    net = game_until(2, "gap", 10)
    _short_deadlines(net)
    _signed(net, 1, "sess/view", v=3, view="[" * 100)      # refused: too deep
    net.run(max_idle=60)
    p0 = net.peers[0]
    assert p0.status == "stopped", (p0.status, p0.stop_reason)
    assert "P1 (seat 1) withheld a valid message with seq" in p0.stop_reason, p0.stop_reason
    assert named(p0) == {1}


def test_a_gap_resync_fills_names_nobody():
    """A lost frame (seat 1's next command to seat 0): its later envelopes wait for it a
    moment, resync fills the gap, nobody is named."""
    from net.crypto import wire
    net = game_until(2, "gap-ok", 10)
    _short_deadlines(net)
    dropped = []

    def lose_one(dest, data):
        body = wire.unpack(wire.unpack(data, "x")["body"], "x")
        if not dropped and dest == 0 and body["type"] == "sess/cmd":
            dropped.append(body["seq"])
            return None
        return data
    net.tamper[1] = lose_one
    net.run(max_idle=60)
    assert dropped
    for p in net.peers:
        assert p.status == "over" and not named(p), [a.text for a in p.alerts]
