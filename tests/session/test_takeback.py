"""Take-backs in networked games, on in-memory peers: the same code as the
ZeroMQ peers. The rule is belfort.undo's (docs/rules.md §8: a turn of actions, then the next
player); the session adds that a take-back is only made while the game waits for the taker.
"""

import belfort
import pytest
from belfort import undo
from takeback_helpers import (act, game_with_take_backs, hashes, run_to_actions, started,
                              take_back, undoable)

from net.session import takeback
from net.session.core import SessionPeer
from net.session.memnet import fixed_master
from net.node.storage import GameStore


def assert_over_and_agree(net):
    for p in net.peers:
        assert p.status == "over", (p.seat, p.stop_reason, [a.text for a in p.alerts])
        assert p.audit_result and p.audit_result[0], p.audit_result
    assert len(hashes(net)) == 1
    assert len({tuple(p.steps) for p in net.peers}) == 1


@pytest.mark.parametrize("n", [2, 3])
def test_an_action_is_shown_to_all_and_taken_back_on_every_peer(n):
    """§8: each action of a turn reaches the others as it is taken; a take-back restores
    the state before it on every peer (the same state hash), and the game goes on."""
    net = started(n, f"tb-shown{n}")
    p = run_to_actions(net)
    assert p is not None
    before = hashes(net)
    assert len(before) == 1
    cmd = undoable(p)[0]
    act(net, p, cmd)
    for q in net.peers:                       # shown to the others as taken
        assert q.history[-1] == (p.seat, cmd)
        assert q.steps[-1] == ("cmd", p.seat, cmd)
    after_action = hashes(net)
    assert len(after_action) == 1 and after_action != before
    assert take_back(net, p) == cmd
    assert hashes(net) == before
    n_cmd = len(p.steps) - 2
    for q in net.peers:
        assert ("undo", p.seat, cmd) in q.events
        assert q.steps[-1] == ("undo", p.seat, n_cmd)
        assert q.game.waiting_for() == [p.seat]
        assert not q.alerts, [a.text for a in q.alerts]
    net.run()
    assert_over_and_agree(net)
    assert not [a.text for q in net.peers for a in q.alerts]


def test_several_take_backs_in_a_row_then_other_actions():
    net = started(3, "tb-row")
    p = run_to_actions(net)
    start = hashes(net)
    first = undoable(p)[0]
    act(net, p, first)
    mid = hashes(net)
    nxt = undoable(p)
    if not nxt:
        pytest.fail("no second action to take back in this seeded game")
    act(net, p, nxt[0])
    take_back(net, p)
    assert hashes(net) == mid
    take_back(net, p)
    assert hashes(net) == start
    with pytest.raises(undo.UndoRefused) as exc:
        p.take_back(net.now)                # nothing of this turn is left
    assert exc.value.refusal.code != takeback.TURN_PASSED
    net.run()
    assert_over_and_agree(net)


def test_a_build_taken_back_puts_the_card_back_and_it_can_be_built_again():
    """A build opens the card through the deck (everyone sees it, §8); taking it back puts
    it back in the hand on every peer and never un-reveals it in the deck: building it again
    needs no second opening, and no peer calls anything a cheat."""
    for seed in ("tb-build", "tb-build2", "tb-build3"):
        net = started(3, seed)
        p = run_to_actions(net, want="build")
        if p is not None:
            break
    assert p is not None, "no seeded game offered a build to take back"
    cmd = next(c for c in undoable(p) if c[0] == "build")
    card = cmd[1]
    before = hashes(net)
    opened = len(p.sent)
    act(net, p, cmd)
    assert len(p.sent) == opened + 2            # deck/open, then the command
    others = [q for q in net.peers if q is not p]
    assert all(q.game.public[card] for q in net.peers)
    take_back(net, p)
    assert hashes(net) == before
    for q in others:
        assert card in q.game.players[p.seat].hand and not q.game.public[card]
        e, pos = q.table.locate(card)
        assert pos in q.decks[e].known           # the deck still knows it: not un-revealed
    sent = len(p.sent)
    act(net, p, cmd)                             # the same build again
    assert len(p.sent) == sent + 1               # no second deck/open
    assert len(hashes(net)) == 1
    net.run()
    assert_over_and_agree(net)
    assert not [a.text for q in net.peers for a in q.alerts]


def _draw_from_top(p):
    """§8 buy a property card from the top of the draw pile (a card drawn)."""
    for c in belfort.legal_commands(p.game, p.seat):
        if c[0] == "buy-card" and c[1] == belfort.data.NOBODY:
            return c
    return None


def test_refused_after_a_draw_locally_and_nothing_is_sent():
    net = started(3, "tb-draw")
    for _ in range(300):
        p = run_to_actions(net)
        if p is None or _draw_from_top(p) is not None:
            break
        act(net, p, undoable(p)[0])
    assert p is not None and _draw_from_top(p) is not None
    act(net, p, _draw_from_top(p))
    assert p.undo_refusal().code == undo.DRAWN
    sent, h = len(p.sent), hashes(net)
    with pytest.raises(undo.UndoRefused) as exc:
        p.take_back(net.now)
    assert "a card was drawn since" in str(exc.value)
    assert len(p.sent) == sent and hashes(net) == h
    net.run()
    assert_over_and_agree(net)


def test_refused_once_the_turn_passed_and_after_another_players_decision():
    net = started(3, "tb-other")
    p = run_to_actions(net)
    act(net, p, undoable(p)[0])
    while p.game.waiting_for() == [p.seat]:     # finish the turn (§8: end, discards)
        legal = belfort.legal_commands(p.game, p.seat)
        end = [c for c in legal if c[0] == "end"]
        act(net, p, end[0] if end else legal[0])
    nxt = p.game.waiting_for()
    why = p.undo_refusal()
    assert why is not None
    if why.code == takeback.TURN_PASSED:        # nobody decided yet: the turn has passed
        assert why.seat == nxt[0]
        assert "your turn has passed: the game waits for P" in why.text(lambda s: f"P{s}")
    steps = len(p.steps)
    net.run(until=lambda: len(p.steps) > steps and p.game.waiting_for() != [p.seat]
            and any(s[1] != p.seat for s in p.steps[steps:]))
    with pytest.raises(undo.UndoRefused) as exc:
        p.take_back(net.now)
    assert exc.value.refusal.code in (undo.OTHER_SEAT, undo.PHASE, undo.DRAWN)
    if exc.value.refusal.code == undo.OTHER_SEAT:
        assert "has played since" in str(exc.value)


def test_an_invalid_take_back_is_refused_by_every_peer_and_names_its_sender():
    """A peer that sends a take-back the rule forbids (here: after a draw) is named by the
    others, like a peer sending an illegal command; their states stay as they were."""
    net = started(3, "tb-cheat")
    for _ in range(300):
        p = run_to_actions(net)
        if p is None or _draw_from_top(p) is not None:
            break
        act(net, p, undoable(p)[0])
    act(net, p, _draw_from_top(p))
    h = hashes(net)
    p._emit(p.takebacks.message(p.signer))      # what an honest peer refuses to send
    net._collect(p)
    net.pump()
    assert hashes(net) == h
    net.beat()              # the sender's heartbeat shows it held what we hold: named
    for q in net.peers:
        if q is p:
            continue
        named = [a for a in q.alerts if a.kind == "cheat" and a.seat == p.seat]
        assert named and "take-back that is not allowed" in named[0].text, \
            [a.text for a in q.alerts]
        assert "a card was drawn since" in named[0].text
    net.run()
    assert_over_and_agree(net)


def test_malformed_take_backs_never_crash_a_peer_and_name_the_sender():
    net = started(3, "tb-junk")
    p = run_to_actions(net)
    junk = [{"v": "x", "n": 1, "step": 0}, {"n": -5}, {"v": 2**62, "n": 2**62, "step": None},
            {"v": 0, "n": 0, "step": 0}, {}]
    for fields in junk:
        p._emit(p.signer.sign("sess/undo", fields))
    net._collect(p)
    net.pump()
    for q in net.peers:
        if q is not p:
            # the first malformed one is refused at intake (schemas.py), naming its signer;
            # what it sent after it waits on the sequence number it never filled
            cheats = [a for a in q.alerts if a.kind == "cheat"]
            assert cheats and all(a.seat == p.seat for a in cheats), \
                [a.text for a in q.alerts]
            assert "sess/undo" in cheats[0].text
            assert q.status == "playing", q.stop_reason     # nobody crashed or stopped
    assert len(hashes(net)) == 1


def _restored(net, seat, store):
    st = GameStore(store.dir)
    cfg, s, sec, _ = st.load()
    q = SessionPeer(cfg, s, net.identities[s], sec["master"], now=net.now)
    q.restore(st.records(), net.now)
    return q


@pytest.mark.parametrize("who", ["taker", "other"])
def test_a_take_back_is_in_the_log_and_replays_on_rejoin(tmp_path, who):
    net = started(3, f"tb-rejoin-{who}")
    stores = {}
    for s in range(3):
        stores[s] = GameStore.create(tmp_path / str(s), net.peers[0].cfg, s,
                                     {"master": fixed_master(net.seed, s)})
        net.peers[s].log.store = stores[s]
    p = run_to_actions(net)
    act(net, p, undoable(p)[0])
    take_back(net, p)
    act(net, p, undoable(p)[-1])
    seat = p.seat if who == "taker" else (p.seat + 1) % 3
    live = net.peers[seat]
    stores[seat].close()
    q = _restored(net, seat, stores[seat])
    assert not q.restore_problems
    assert q.steps == live.steps and any(s[0] == "undo" for s in q.steps)
    assert belfort.state_hash(q.game) == belfort.state_hash(live.game)
    assert q.sent == live.sent                     # the same signed envelopes, re-created


def test_complete_log_records_the_take_backs():
    from net.node import fulllog
    net = game_with_take_backs(3, "tb-log", rounds=3)
    assert_over_and_agree(net)
    text = fulllog.complete_text(net.peers[0])
    assert text.count('"undo":') >= 2
    assert len({fulllog.complete_text(p) for p in net.peers}) == 1


class _MemoryNode:
    """What NetDriver needs of a node, around an in-memory peer (no sockets)."""

    def __init__(self, peer):
        self.peer, self.game_log, self.closed = peer, None, False

    def wake(self):
        pass

    def flush(self):
        pass          # our envelopes stay in the peer's outbox: the test delivers them


def test_the_window_and_plain_undo_command_take_back_in_a_lan_game():
    """`undo` (Ctrl-Z in the window, typed in --plain) goes through the client's controller
    to NetDriver.undo: a take-back every peer applies; a refusal says why."""
    from client.controller import Controller
    from client.netdriver import NetDriver
    net = started(3, "tb-window")
    p = run_to_actions(net)
    driver = NetDriver(_MemoryNode(p))
    ctl = Controller(driver)
    before = hashes(net)
    cmd = undoable(p)[0]
    reply = ctl.handle(belfort.command_text(cmd))
    net._collect(p)
    net.pump()
    assert reply.kind != "error", reply
    assert driver.undo_refusal() is None
    reply = ctl.handle("undo")
    net._collect(p)
    net.pump()
    assert reply.kind == "undo" and reply.text == f"Taken back: {belfort.command_text(cmd)}"
    assert hashes(net) == before
    reply = ctl.handle("undo")
    assert reply.kind == "error" and reply.text.startswith("Cannot undo: ")
    assert driver.undo_refusal() is not None


@pytest.mark.parametrize("how", ["deleted", "cut"])
def test_a_take_back_lost_with_the_log_is_made_again_from_the_others(tmp_path, how):
    """A rejoin whose log lost our take-back (deleted, or cut before it): the others relay
    it back and it is made again, the same bytes; no peer raises an alarm and every peer
    ends with the same steps and state hash."""
    net = started(3, f"tb-lost-{how}")
    victim = 2
    st = GameStore.create(tmp_path, net.peers[0].cfg, victim,
                          {"master": fixed_master(net.seed, victim)})
    st.open_log()
    net.peers[victim].log.store = st
    p = run_to_actions(net, seats=[victim])
    act(net, p, undoable(p)[0])
    take_back(net, p)
    act(net, p, undoable(p)[-1])
    net.down.add(victim)
    st.close()
    net.run(max_idle=8)
    log = st.dir / "log"
    if how == "deleted":
        log.unlink()
    else:
        records = GameStore(st.dir).records()
        undo_at = max(i for i, r in enumerate(records) if r[0] == "undo")
        # keep the records before the take-back: rewrite the file without the rest
        data = log.read_bytes()
        import struct
        i = 0
        for _ in range(undo_at):
            (size,) = struct.unpack(">I", data[i:i + 4])
            i += 4 + size
        log.write_bytes(data[:i])
    store = GameStore(st.dir)
    cfg, seat, sec, _meta = store.load()
    records, _notes = store.recover_log(cfg, seat)
    q = SessionPeer(cfg, seat, net.identities[seat], sec["master"], store=store, now=net.now)
    q.restore(records, net.now)
    store.open_log()
    net.peers[victim] = q
    net.down.discard(victim)
    q.announce(net.now)
    net._collect(q)
    net.run(max_idle=200)
    assert_over_and_agree(net)
    assert any(s[0] == "undo" and s[1] == victim for s in q.steps)
    for r in net.peers:
        assert not [a.text for a in r.alerts if a.kind in ("cheat", "desync")], r.seat
