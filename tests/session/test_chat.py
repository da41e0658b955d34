"""`say TEXT` at a LAN table: signed like every message, shown to every
peer, bounded, with control characters and escape codes stripped; a replay is not shown
twice and a frame claiming another seat is refused."""

import pytest

from net.crypto import encode_envelope
from net.session.chat import MAX_SAY, ChatError
from net.session.memnet import MemoryNetwork


@pytest.fixture
def net():
    n = MemoryNetwork.create(3, seed="chat", level=None)
    n.start()
    n.pump()
    return n


def lines(peer):
    return list(peer.chat.lines)


def test_a_line_reaches_every_peer_and_its_sender(net):
    net.peers[1].say("good luck, all", net.now)
    net._collect(net.peers[1])
    net.pump()
    for p in net.peers:
        assert lines(p) == [(1, "good luck, all")]


def test_escape_codes_and_control_characters_never_reach_a_screen(net):
    net.peers[0].say("hi\x1b[2J\x1b]0;pwned\x07 there\r\nX\u202eY\u200b", net.now)
    net._collect(net.peers[0])
    net.pump()
    text = lines(net.peers[2])[0][1]
    assert text == "hi[2J]0;pwned there XY"
    assert all(ord(c) >= 32 for c in text)


def test_a_peer_sending_raw_escape_codes_is_cleaned_on_arrival(net):
    evil = net.peers[1]
    body = {"type": "ctl/say", "game": evil.cfg.game_id, "seat": 1, "seq": 0, "n": 10**18,
            "text": "\x1b[31mred" + "x" * 500}
    net.inject(1, 0, encode_envelope(evil.identity.sign_message(body)))
    net.pump()
    seat, text = lines(net.peers[0])[0]
    assert seat == 1 and text.startswith("[31mred") and len(text) == MAX_SAY


def test_a_replayed_line_is_shown_once(net):
    sent = []
    net.tamper[0] = lambda dest, data: (sent.append((dest, data)), data)[1]
    net.peers[0].say("once", net.now)
    net._collect(net.peers[0])
    net.pump()
    for dest, data in sent:
        net.inject(0, dest, data)
    net.pump()
    assert lines(net.peers[1]) == [(0, "once")]


def test_a_line_signed_by_one_seat_claiming_another_is_refused(net):
    body = {"type": "ctl/say", "game": net.peers[0].cfg.game_id, "seat": 0, "seq": 0,
            "n": 10**18, "text": "I am Ana"}
    forged = encode_envelope(net.peers[2].identity.sign_message(body))
    net.inject(2, 1, forged)
    net.pump()
    assert lines(net.peers[1]) == []
    assert any(a.kind == "cheat" for a in net.peers[1].alerts)


def test_nothing_to_say(net):
    with pytest.raises(ChatError, match="say what"):
        net.peers[0].say(" \x1b \n ", net.now)


def test_a_flood_is_cut_short(net):
    for i in range(12):
        net.peers[1].say(f"spam {i}", net.now)
    net._collect(net.peers[1])
    net.pump()
    assert len(lines(net.peers[0])) == 5
