"""Every kind of refused ``sess/cmd`` gets its own verdict, naming its signer, whatever the
order the receiving peer checks things in: a command for another version or step, from a
seat the game does not wait for, malformed, illegal, or with a claim about a card of its
hand the deck does not back (not shown, or another type) — a false claim is named as such
even when the command is illegal too.  An illegal or malformed command pauses the game
until that seat sends a legal one; a stale one or a false claim does not."""

import belfort
import pytest

from net.session.memnet import MemoryNetwork

BAD = 1


def _game(seed: str):
    net = MemoryNetwork.create(3, seed=seed)
    net.start()
    bad = net.peers[BAD]
    net.run(until=lambda: bad.decision_needed() and len(bad.game.waiting_for()) == 1
            and bad.game.version > 25)
    return net, bad


def _hidden_card(bad):
    g = bad.game
    return next(c for c in g.players[BAD].hand if not g.public[c])


def _send(net, peer, fields: dict) -> None:
    peer._emit(peer.signer.sign("sess/cmd", fields))
    net._collect(peer)
    net.pump()
    net.beat()             # an accusation is told once the accused's heartbeat confirms it


def _verdicts(net, seat):
    return [[(a.kind, str(a.text)) for a in p.alerts if a.seat == seat]
            for p in net.peers if p.seat != seat]


def _agree_at_the_end(net):
    net.run()
    for p in net.peers:
        assert p.status == "over" and p.audit_result[0], (p.seat, p.stop_reason)
    assert len({belfort.state_hash(p.game) for p in net.peers}) == 1


def _legal(bad):
    cmd = belfort.legal_commands(bad.game, BAD)[0]
    return [list(x) if isinstance(x, tuple) else x for x in cmd], belfort.command_text(cmd)


@pytest.mark.parametrize("seed", ["ref-1", "ref-2"])
def test_a_command_for_an_earlier_version_is_refused_without_pause(seed):
    net, bad = _game(seed)
    v = bad.game.version
    cmd, text = _legal(bad)
    _send(net, bad, {"v": v - 1, "cmd": cmd, "n": len(bad.table.undo.steps)})
    want = ("cheat", f"P1 (seat 1) sent '{text}' for game version {v - 1}, "
                     f"but the game is at {v}")
    for got in _verdicts(net, BAD):
        assert got == [want]
    assert all(p.paused is None for p in net.peers)
    _agree_at_the_end(net)


def test_a_command_after_another_step_count_is_refused_without_pause():
    net, bad = _game("ref-3")
    steps = len(bad.table.undo.steps)
    cmd, text = _legal(bad)
    _send(net, bad, {"v": bad.game.version, "cmd": cmd, "n": steps - 1})
    want = ("cheat", f"P1 (seat 1) sent '{text}' after step {steps - 1}, "
                     f"but the game is at step {steps}")
    for got in _verdicts(net, BAD):
        assert got == [want]
    assert all(p.paused is None for p in net.peers)
    _agree_at_the_end(net)


def test_a_command_from_a_seat_not_waited_for_is_illegal_and_pauses():
    net, bad = _game("ref-4")
    other = net.peers[2]
    cmd, text = _legal(bad)
    _send(net, other, {"v": other.game.version, "cmd": cmd,
                       "n": len(other.table.undo.steps)})
    want = ("cheat", f"P2 (seat 2) sent an illegal command '{text}': the game waits for "
                     "P1 (seat 1). It was refused; the game waits for a legal one.")
    for got in _verdicts(net, 2):
        assert got == [want]
    assert [p.paused for p in net.peers if p.seat != 2] == [(2, text)] * 2
    _agree_at_the_end(net)


@pytest.mark.parametrize("cmd,shown", [
    (["place", None], "['place', None]"),
    (["fly", 1], "['fly', 1]"),
    (["crest", 9], "crest 9"),
])
def test_a_malformed_or_illegal_command_pauses_until_a_legal_one(cmd, shown):
    net, bad = _game("ref-5")
    _send(net, bad, {"v": bad.game.version, "cmd": cmd, "n": len(bad.table.undo.steps)})
    for got in _verdicts(net, BAD):
        assert len(got) == 1 and got[0][0] == "cheat", got
        assert got[0][1].startswith(f"P1 (seat 1) sent an illegal command '{shown}': "), got
        assert got[0][1].endswith(". It was refused; the game waits for a legal one."), got
        assert ("malformed: " in got[0][1]) == (cmd[0] != "crest"), got
    assert [p.paused for p in net.peers if p.seat != BAD] == [(BAD, shown)] * 2
    _agree_at_the_end(net)
    for p in net.peers:
        if p.seat != BAD:
            assert ("info", "P1 sent a legal command: the game goes on") in \
                [(a.kind, str(a.text)) for a in p.alerts]
            assert p.paused is None


@pytest.mark.parametrize("opened", [False, True])
def test_a_false_claim_is_named_even_in_an_illegal_command(opened):
    """``discard`` is not a decision of this step (illegal), and its claim is false: the
    claim is what the verdict names, without pausing the game."""
    net, bad = _game("ref-6")
    card = _hidden_card(bad)
    real = bad.game.types[card]
    fake = (real + 1) % 10
    if opened:
        e, pos = bad.table.locate(card)
        bad._emit(bad.decks[e].open(pos))
    cmd = ["discard", card, fake]
    text = belfort.command_text(("discard", card, fake))
    _send(net, bad, {"v": bad.game.version, "cmd": cmd, "n": len(bad.table.undo.steps)})
    why = f"card #{card} is a {belfort.CARD_TYPES[real]}, not {belfort.CARD_TYPES[fake]}" \
        if opened else f"card #{card} was not shown through the deck"
    for got in _verdicts(net, BAD):
        assert got == [("cheat", f"P1 (seat 1) sent '{text}' but {why}")]
    assert all(p.paused is None for p in net.peers)


def test_a_true_claim_in_an_illegal_command_is_illegal_and_leaves_no_type_behind():
    net, bad = _game("ref-7")
    card = _hidden_card(bad)
    real = bad.game.types[card]
    e, pos = bad.table.locate(card)
    bad._emit(bad.decks[e].open(pos))
    text = belfort.command_text(("discard", card, real))
    _send(net, bad, {"v": bad.game.version, "cmd": ["discard", card, real],
                     "n": len(bad.table.undo.steps)})
    for p in net.peers:
        if p.seat != BAD:
            got = [(a.kind, str(a.text)) for a in p.alerts if a.seat == BAD]
            assert len(got) == 1 and got[0][1].startswith(
                f"P1 (seat 1) sent an illegal command '{text}': "), got
            assert p.paused == (BAD, text)
            assert p.game.types[card] is None      # the claim given for the check is gone
