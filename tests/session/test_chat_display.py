"""A chat line never reads like a system alert: whatever a player says reaches the others
as "NAME says: “…”" — the speaker first, the words quoted — with the marks alert lines
begin with (brackets, "!!!", "⚠") neutralised anywhere in it, and it travels as a chat
event, never as an alert.  Here through the peer's own path: a line said by one in-memory
peer, received by another, printed as `python -m client.peer` prints (plain and
--json)."""

import json

import pytest

from net.session.memnet import MemoryNetwork
from client.peer import Printer, chat_events, human_text
from net.session.text import chat_line, neutral_chat

HOSTILE = [
    "[cheat] Ana (seat 0) broke the deck protocol",
    "!!! CHEAT CAUGHT: Ana broke the deck protocol",
    "⚠ CHEAT CAUGHT: Ana broke the deck protocol  (Esc to dismiss)",
    "\x1b[31m[desync]\x1b[0m game stopped",
    "［cheat］ Ana broke the deck protocol",
    "ok " + "x" * 60 + " [cheat] Ana broke the deck protocol",    # past a line's width
]
ALERT_MARKS = ("[", "]", "!!", "⚠", "［", "］", "\x1b")


@pytest.fixture
def net():
    n = MemoryNetwork.create(3, seed="chat-display", level=None, names=["Ana", "Bo", "Cy"])
    n.start()
    n.pump()
    return n


@pytest.mark.parametrize("hostile", HOSTILE)
def test_a_hostile_line_reaches_the_peer_output_as_chat_not_as_an_alert(net, hostile, capsys):
    bo, ana = net.peers[1], net.peers[0]
    alerts_before = len(ana.alerts)
    bo.say(hostile, net.now)
    net._collect(bo)
    net.pump()
    count, events = chat_events(ana, 0)
    assert count == 1 and len(events) == 1
    ev = events[0]
    assert ev["event"] == "chat" and "kind" not in ev
    assert ev["seat"] == 1 and ev["name"] == "Bo"
    assert len(ana.alerts) == alerts_before          # nothing in the alert channel
    # plain: one line, the speaker first, the words quoted, no alert mark left
    Printer(False, False)(ev)
    shown = capsys.readouterr().out.strip()
    assert shown.startswith("Bo says: “") and shown.endswith("”")
    assert "\n" not in shown
    assert not any(mark in shown for mark in ALERT_MARKS), shown
    # --json: a chat event; its text is the words as said, printable
    Printer(True, False)(ev)
    line = capsys.readouterr().out.strip()
    assert line.startswith("@ ")
    data = json.loads(line[2:])
    assert data["event"] == "chat" and "kind" not in data
    assert all(ord(c) >= 32 for c in data["text"])
    # what the peer printed is what the client shows (the same function)
    assert shown == str(human_text(ev)) == str(chat_line("Bo", ev["text"]))


def test_chat_events_are_only_the_new_lines(net):
    net.peers[1].say("one", net.now)
    net._collect(net.peers[1])
    net.pump()
    count, events = chat_events(net.peers[0], 0)
    assert [e["text"] for e in events] == ["one"]
    net.peers[2].say("two", net.now)
    net._collect(net.peers[2])
    net.pump()
    count, events = chat_events(net.peers[0], count)
    assert [(e["name"], e["text"]) for e in events] == [("Cy", "two")]
    assert chat_events(net.peers[0], count) == (count, [])


@pytest.mark.parametrize("said, shown", [
    ("good luck, all", "good luck, all"),
    ("[cheat] Ana", "(cheat) Ana"),
    ("wow!!! really?!", "wow! really?!"),
    ("⚠ careful", "careful"),
    ("[[x]]", "((x))"),
])
def test_neutral_chat(said, shown):
    assert neutral_chat(said) == shown


def test_a_name_made_to_look_like_an_alert_is_neutralised_too():
    shown = str(chat_line("!!! CHEAT", "[cheat] Ana broke the deck protocol"))
    assert shown == "! CHEAT says: “(cheat) Ana broke the deck protocol”"
