"""Bounded memory: a cheater sending 10,000 distinct, validly signed messages of
one kind cannot make an honest peer hold more than a fixed number of entries in any of its
structures.  Counts of entries, never timings; in memory."""

import json

import belfort


from net.crypto import encode_envelope
from net.session import desync
from net.session import intake
from net.session import resync
from net.session.chat import KEEP
from net.session.memnet import MemoryNetwork

N = 10_000
KINDS = ["future", "views", "sync", "chat", "proofs", "hashes", "refused"]
CHEATER = 1


def _game(seed):
    net = MemoryNetwork.create(3, seed=seed)
    net.start()
    net.run(until=lambda: all(p.game is not None and p.game.version > 12 for p in net.peers))
    return net


def _signed(net, seq, type_, **fields):
    p = net.peers[CHEATER]
    body = {"type": type_, "game": p.cfg.game_id, "seat": CHEATER, "seq": seq, **fields}
    return encode_envelope(net.identities[CHEATER].sign_message(body))


def _control(net, type_, **fields):
    return _signed(net, 0, type_, **fields)


def _frames(net, kind, nxt, count, version):
    """``count`` distinct frames of ``kind``, signed by the cheater; ``nxt``: the seq the
    victim expects of it next."""
    view = json.dumps({"players": []})
    for i in range(count):
        if kind == "future":            # sequence numbers past a gap never filled
            yield _signed(net, nxt + 10 ** 6 + i, "sess/hash", v=i, round=1, phase="actions",
                          hash="0" * 64)
        elif kind == "views":           # in sequence: each a fresh, well-formed view
            yield _signed(net, nxt + i, "sess/view", v=i, view=view)
        elif kind == "hashes":          # in sequence, ever further ahead
            yield _signed(net, nxt + i, "sess/hash", v=version + 1 + i * 7, round=1,
                          phase="actions",
                          hash=f"{i:064x}")
        elif kind == "refused":         # in sequence, each refused once processed
            yield _signed(net, nxt + i, "commit/commit", purpose=f"x/{i}",
                          commitment=bytes(32))
        elif kind == "sync":            # heartbeats asking for everything, "moving" each time
            yield _control(net, "ctl/hb", have=[0, 0, 0], need=True, finished=False,
                           addr=[i + 1, f"tcp://10.0.{i // 250}.{i % 250 + 1}:5555"])
        elif kind == "chat":
            yield _control(net, "ctl/say", n=i + 1, text=f"line {i}")
        elif kind == "proofs":          # "proofs" that do not hold
            yield _control(net, "ctl/proof", a=_signed(net, 0, "sess/cmd", v=i, cmd=["pass"]),
                           b=b"x" * (i % 50 + 1))


def _sizes(p):
    return {
        "future": len(p.intake.future[CHEATER]),
        "inbox": len(p.intake.inbox[CHEATER]),
        "accepted": len(p.accepted[CHEATER]),
        "alerts": len(p.alerts),
        "alert_keys": p.alerting.repeat_keys,
        "chat": len(p.chat.lines),
        "moved": len(p.resync.moved),
        "hashes": sum(len(h) for h in p.hashes.their_hashes.values()),
        "views": sum(len(v) for v in p.hashes.their_views.values()),
        "outbox": len(p.outbox),
    }


# the most each structure may grow by, whatever the flood (the design's own constants)
BOUND = {"future": intake.MAX_FUTURE, "inbox": intake.MAX_INBOX,
         "accepted": intake.MAX_VIEWS + desync.HASH_AHEAD + intake.MAX_STRIKES + 1,
         "alerts": 500, "alert_keys": 1001, "chat": KEEP, "moved": 3, "hashes": 64 * 3,
         "views": 3, "outbox": 2 * len(KINDS) * resync.FILL_BURST}


def test_a_flood_of_valid_looking_messages_leaves_every_structure_bounded():
    """10,000 messages of seven kinds, each kind past its limit: sequence numbers far
    ahead, public views, state hashes ever further ahead, sync requests (each announcing
    a new address), chat lines, proofs that do not hold, and messages refused once
    processed.  Every structure of the victim stays within the design's bounds; the
    cheater ends cut off (by the hashes far ahead: the refused ones are then not even
    checked), named (alone) and treated as departed."""
    net = _game("flood")
    p = net.peers[0]
    p.take_outgoing()
    before = _sizes(p)
    peak = dict(before)
    for kind in KINDS:
        nxt = p.intake.expected_seq(CHEATER)
        for frame in _frames(net, kind, nxt, N // len(KINDS), p.game.version):
            p.receive(frame, net.now, CHEATER)
        peak = {k: max(v, peak[k]) for k, v in _sizes(p).items()}
    for k, most in BOUND.items():
        assert peak[k] - before[k] <= most, (k, before[k], peak[k])
    assert p.chat.lines and p.intake.future[CHEATER] == {} and CHEATER in p.intake.cut_off
    assert {a.seat for a in p.alerts if a.kind in ("cheat", "desync", "error")} == {CHEATER}
    assert CHEATER in p.handoffs.votes and p.status == "playing"


def test_a_seat_flooding_everyone_is_handed_to_a_bot_and_the_game_ends():
    """Seat 1 sends every other peer more refused messages than any honest peer ever
    does: each cuts it off and votes (citing the flood), its seat is rebuilt from the
    escrow and played by a bot to the end, with one hash and only seat 1 named."""
    net = _game("flood-all")
    p = net.peers[CHEATER]
    for p_ in net.peers:
        p_.configure_handoff(level="random")
    nxt = p.signer.next_seq
    frames = list(_frames(net, "refused", nxt, intake.MAX_STRIKES + 5, 0))
    for victim in (0, 2):
        for frame in frames:
            net.inject(CHEATER, victim, frame)
    net.down.add(CHEATER)            # its software would go on with other seq numbers
    net.run(max_idle=200)
    for s in (0, 2):
        q = net.peers[s]
        assert q.status == "over", (q.seat, q.stop_reason, [a.text for a in q.alerts][-4:])
        assert CHEATER in q.handed
        assert {a.seat for a in q.alerts if a.kind in ("cheat", "desync", "error")} == {CHEATER}
    assert belfort.state_hash(net.peers[0].game) == belfort.state_hash(net.peers[2].game)


def test_a_rejoin_after_cutting_a_flooder_off_makes_the_same_vote_again(tmp_path):
    """The vote a flood provoked is logged: replaying the log cuts the flooder off at the
    same message and makes that vote again once, byte for byte (not a second time)."""
    from net.session.core import SessionPeer
    from net.session.memnet import fixed_master
    from net.node.storage import GameStore

    net = MemoryNetwork.create(3, seed="flood-rj")
    st = GameStore.create(tmp_path, net.peers[0].cfg, 0, {"master": fixed_master("flood-rj", 0)})
    st.open_log()
    net.peers[0].log.store = st
    net.start()
    net.run(until=lambda: all(p.game is not None and p.game.version > 12 for p in net.peers))
    p0, cheat = net.peers[0], net.peers[CHEATER]
    for frame in _frames(net, "refused", cheat.signer.next_seq, intake.MAX_STRIKES + 5, 0):
        p0.receive(frame, net.now, CHEATER)
    assert CHEATER in p0.intake.cut_off and CHEATER in p0.handoffs.votes
    st.close()
    store = GameStore(st.dir)
    cfg, seat, sec, _meta = store.load()
    records, _notes = store.recover_log(cfg, seat)
    again = SessionPeer(cfg, seat, net.identities[seat], sec["master"], now=net.now)
    again.restore(records, net.now)
    assert again.sent == p0.sent and again.restore_problems == []
    assert CHEATER in again.intake.cut_off and again.handoffs.votes == p0.handoffs.votes
