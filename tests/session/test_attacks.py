"""Peers that speak the protocol and misbehave, on the in-memory network: each
case ends with the honest peers running or stopped with a correct verdict, the right seat
(and only it) named, nothing leaked.  Process versions of the most important ones are in
test_attacks_e2e.py."""

import belfort
import pytest

from net.crypto import encode_envelope
from net.session.memnet import MemoryNetwork


def game_until(n, seed, version, **kw):
    net = MemoryNetwork.create(n, seed=seed, **kw)
    net.start()
    net.run(until=lambda: all(p.game is not None and p.game.version > version
                              for p in net.peers))
    return net


def control(net, seat, type_, **fields):
    """A control frame signed by ``seat`` (a real, correctly signed message)."""
    p = net.peers[seat]
    body = {"type": type_, "game": p.cfg.game_id, "seat": seat, "seq": 0, **fields}
    return encode_envelope(net.identities[seat].sign_message(body))


def named(peer, kinds=("cheat", "desync")):
    """Seats an honest peer has named in its alerts (as a cheater or as out of sync)."""
    return {a.seat for a in peer.alerts if a.kind in kinds and a.seat is not None}


def assert_finished_together(net, seats):
    peers = [net.peers[s] for s in seats]
    for p in peers:
        assert p.status == "over", (p.seat, p.stop_reason, [a.text for a in p.alerts][-5:])
        assert p.audit_result and p.audit_result[0], p.audit_result
    assert len({belfort.state_hash(p.game) for p in peers}) == 1


def sent_types(peer):
    from net.crypto import wire
    return [wire.unpack(wire.unpack(e, "x")["body"], "x")["type"] for e in peer.sent]


# ---------------------------------------------------------------- handoff notices and votes
@pytest.mark.parametrize("n", [2, 3])
def test_forged_handoff_notice_changes_nothing(n):
    """Seat 1 tells seat 0 that its seat was handed to a bot (signed, but without the
    others' votes): seat 0 goes on, seat 1 is named, nobody's secret is published."""
    net = game_until(n, f"fh{n}", 20)
    victim, liar = 0, 1
    own_vote = net.identities[liar].sign_message({
        "type": "hand/vote", "game": net.peers[liar].cfg.game_id, "seat": liar, "seq": 999,
        "target": victim, "have": 3})
    net.inject(liar, victim, control(net, liar, "ctl/handed", target=victim, host=liar,
                                     round=1, v=20, votes=[encode_envelope(own_vote)]))
    net.inject(liar, victim, control(net, liar, "ctl/handed", target=victim, host=liar,
                                     round=1, v=20, votes=[]))
    net.run()
    assert_finished_together(net, range(n))
    assert not net.peers[victim].handoffs.ours_handed
    assert named(net.peers[victim]) == {liar}
    for p in net.peers:
        assert "hand/share" not in sent_types(p)


def test_lone_vote_neither_freezes_nor_leaks():
    """Seat 1 votes to hand seat 2 over while seat 2 plays on: seat 2's messages still
    count everywhere, nobody publishes a share, the game ends normally."""
    net = game_until(3, "lv", 20)
    liar = net.peers[1]
    liar._emit(liar.signer.sign("hand/vote", {"target": 2, "have": 1,
                                              "why": "withheld its key release"}))
    net._collect(liar)
    net.run()
    assert_finished_together(net, range(3))
    for p in net.peers:
        assert "hand/share" not in sent_types(p)
        assert not p.handed
    # seat 2's messages past the vote's "have" were all taken
    assert len(net.peers[0].accepted[2]) > 1


# ---------------------------------------------------------------- withholding, with heartbeats
def _short_deadlines(net, deadline=2.0):
    for p in net.peers:
        p.timing.step_deadline = deadline


def _withhold(peer, what):
    """Make ``peer`` keep everything going (heartbeats, its own moves) but never send
    ``what``: "keys" (its key releases), "sim" (its reveals of simultaneous choices),
    "seed" (its seed reveal)."""
    if what == "keys":
        peer.own.releases = lambda game, locate: ([], [])
    else:
        real = peer.own.reveal
        prefix = "sim/" if what == "sim" else "seed"

        def reveal(purpose, *a):
            if not purpose.startswith(prefix):
                return real(purpose, *a)
            peer.own.revealed.add(purpose)      # "done", as far as its software is concerned
            return []
        peer.own.reveal = reveal


def _withheld_alerts(peer, seat):
    return [a for a in peer.alerts if a.kind == "cheat" and a.seat == seat and "withheld" in a.text]


def test_withheld_key_release_two_players_stops_with_verdict():
    net = game_until(2, "wk2", 10)
    _short_deadlines(net)
    _withhold(net.peers[1], "keys")
    net.run(max_idle=60)
    p0 = net.peers[0]
    assert p0.status == "stopped"
    assert "P1 (seat 1) withheld its key" in p0.stop_reason, p0.stop_reason
    assert named(p0) == {1}


def test_withheld_key_release_is_handed_to_a_bot():
    """3 players: the withholder is treated as departed; the two others vote (citing the
    deadline), rebuild its seat from the escrow and finish the game with a bot on it."""
    net = game_until(3, "wk3", 10)
    _short_deadlines(net)
    _withhold(net.peers[2], "keys")
    for p in net.peers:
        p.configure_handoff(level="random")
    net.run(max_idle=200)
    assert_finished_together(net, [0, 1])
    for s in (0, 1):
        p = net.peers[s]
        assert 2 in p.handed and named(p) == {2}
        assert _withheld_alerts(p, 2)
    # only the withholder's escrow was opened
    for s in (0, 1):
        assert set(net.peers[s].handoffs.shares_in) == {2}


@pytest.mark.parametrize("what", ["seed", "sim"])
def test_withheld_reveal_is_named(what):
    net = MemoryNetwork.create(2, seed="wr-" + what)
    _short_deadlines(net)
    _withhold(net.peers[1], what)
    net.start()
    net.run(max_idle=60)
    p0 = net.peers[0]
    assert p0.status == "stopped", (p0.status, p0.game and p0.game.version)
    assert "P1 (seat 1) withheld its reveal" in p0.stop_reason, p0.stop_reason
    assert named(p0) == {1}


def test_unprocessable_deck_open_is_refused_and_game_goes_on():
    """Seat 1 opens a card of the draw pile (never dealt to it): the message would wait
    forever for keys nobody will release; it is refused once past the deadline, naming
    seat 1, and the game goes on."""
    net = game_until(3, "uo", 15)
    _short_deadlines(net)
    bad = net.peers[1]
    g = bad.game
    e, pos = bad.table.locate(g.draw[0])
    deck = bad.decks[e]
    bad._emit(bad.signer.sign("deck/open", {"epoch": e, "pos": pos, "card": 0,
                                            "key": deck._key_bytes(pos),
                                            "deck": deck.transcript_digest}))
    net._collect(bad)
    net.run()
    assert_finished_together(net, range(3))
    for s in (0, 2):
        assert named(net.peers[s]) == {1}
        assert any("never dealt to it" in a.text for a in net.peers[s].alerts)


# ---------------------------------------------------------------- bounded input
def _signed(net, seat, type_, **fields):
    """A well-sequenced envelope of ``seat`` sent through its own session."""
    p = net.peers[seat]
    p._emit(p.signer.sign(type_, fields))
    net._collect(p)


@pytest.mark.parametrize("view", ["[" * 100_000 + "]" * 100_000, '"' + "x" * 200_000 + '"'])
def test_deep_or_huge_view_is_refused_before_it_is_logged(view):
    net = game_until(2, "vw", 10)
    before = len(net.peers[0].accepted[1])
    _signed(net, 1, "sess/view", v=3, view=view)
    net.pump()
    p0 = net.peers[0]
    assert named(p0) == {1}
    assert len(p0.accepted[1]) == before          # nothing of it stored or logged
    assert p0.status == "playing"


def test_sync_request_flood_is_not_amplified():
    """3,000 heartbeats asking for everything draw a handful of answers, not 6,000."""
    net = game_until(2, "fl", 20)
    p0 = net.peers[0]
    p0.take_outgoing()
    for _ in range(3000):
        p0.receive(control(net, 1, "ctl/hb", have=[0, 0], need=True, finished=False),
                   net.now, 1)
    frames = p0.take_outgoing()
    assert 1 <= len(frames) <= 8, len(frames)


# ---------------------------------------------------------------- deck disputes
def _tamper_stage(peer, how, at=10):
    """Make ``peer``'s stage of deck epoch 0 wrong: "shuffle" (its shuffle doubles a
    point: no card any more), "rekey" (its re-key puts another position's ciphertext,
    re-encrypted, at position 0: a distinct ciphertext that decodes to no card),
    "duplicate" (the first re-key, seat 0's, does the same from position 5 to ``at``: as
    nobody re-keyed before it, position ``at`` then holds a valid-looking ciphertext of
    position 5's card, a second copy of a card already in the deck: whoever holds one copy
    sees a valid card until the other is decoded too)."""
    from net.crypto import curve
    real_new_epoch = peer.own.new_epoch

    def new_epoch(epoch, cards, start=True):
        envs = real_new_epoch(epoch, cards, start)
        deck = peer.own.decks[-1]
        if epoch == 0 and how == "shuffle":
            real = deck._shuffle_output
            deck._shuffle_output = lambda prev: [curve.mul(2, prev[0])] + real(prev)[1:]
        elif epoch == 0 and how in ("rekey", "duplicate"):
            dst, src = (at, 5) if how == "duplicate" else (0, 1)

            def rekey(prev):
                out = deck._rekey_output.__wrapped__(prev)
                k = deck._keys[dst] * curve.inverse(deck._scalar) % curve.N
                return out[:dst] + [curve.mul(k, prev[src])] + out[dst + 1:]
            rekey.__wrapped__ = deck._rekey_output
            deck._rekey_output = rekey
        return envs
    peer.own.new_epoch = new_epoch


@pytest.mark.parametrize("how", ["shuffle", "rekey"])
def test_tampered_deck_is_disputed_and_the_tamperer_named(how):
    """Seat 2's stage is wrong; the problem shows when some position decodes mid-game.
    The honest seats stop, publish their audits of that deck, and the audit names seat 2
    only — never the seat whose key release completed the decoding."""
    net = MemoryNetwork.create(3, seed="dp-" + how)
    _tamper_stage(net.peers[2], how)
    net.start()
    net.run(max_idle=30)
    for s in (0, 1):
        p = net.peers[s]
        assert p.status == "stopped", (p.status, p.stop_reason)
        assert "P2 (seat 2)" in p.stop_reason and "tampered" in p.stop_reason, p.stop_reason
        assert named(p) == {2}, [a.text for a in p.alerts]


@pytest.mark.parametrize("n, at", [(3, 20), (4, 30), (5, 10)])
def test_duplicated_card_is_disputed_and_only_the_tamperer_named(n, at):
    """Seat 0's re-key puts a second, different-looking ciphertext of position 5's card at
    position ``at`` (PROTOCOL.md §5).  Nothing shows until one peer decodes both copies
    (mid-game, when a copy is opened or dealt; with 5 players both copies are dealt to one
    seat in the first deal); that peer cannot name anyone from the decoding, so it disputes
    (releases its keys of both copies), every seat publishes its audit of the deck, and
    the audit names seat 0 — never the seat whose key release or opening completed the
    decoding."""
    net = MemoryNetwork.create(n, seed=f"dup{n}")
    _tamper_stage(net.peers[0], "duplicate", at)
    net.start()
    net.run(max_idle=30)
    for p in net.peers[1:]:
        assert p.status == "stopped", (p.status, p.stop_reason)
        assert any("is at positions" in a.text and str(at) in a.text for a in p.alerts), \
            [a.text for a in p.alerts]
        assert "P0 (seat 0)" in p.stop_reason and "tampered" in p.stop_reason, p.stop_reason
        assert named(p) == {0}, [a.text for a in p.alerts]
    assert any(p.game.version > 0 for p in net.peers[1:])      # found mid-game


# ---------------------------------------------------------------- equivocation
def test_equivocation_to_different_peers_becomes_proof_against_its_signer():
    """Seat 1 signs command A for seat 0 and command B, with the same seq, for seat 2.
    The heartbeats' running hashes show the difference, the two signed messages reach a
    peer that holds the other, and the proof names seat 1 everywhere — not seat 2, whom
    a majority of state hashes would have blamed."""
    from net.session.commands import plain
    claims = belfort.command_claims
    net = game_until(3, "eqv", 20)
    bad = net.peers[1]
    net.run(until=lambda: bad.decision_needed() and len(bad.game.waiting_for()) == 1)
    g = bad.game
    legal = [c for c in belfort.legal_commands(g, 1) if not claims(belfort.normalize(c))]
    assert len(legal) >= 2
    a, b = legal[0], legal[-1]
    seq, v = bad.signer.next_seq, g.version
    bad.submit(a, net.now)
    forged = encode_envelope(net.identities[1].sign_message({
        "type": "sess/cmd", "game": bad.cfg.game_id, "seat": 1, "seq": seq, "v": v,
        "cmd": plain(belfort.normalize(b))}))
    from net.crypto import wire
    for _dest, data in bad.take_outgoing():
        body = wire.unpack(wire.unpack(data, "x")["body"], "x")
        if body["type"] == "sess/cmd" and body["seq"] == seq:
            net.inject(1, 0, data)
            net.inject(1, 2, forged)
        else:
            for r in (0, 2):
                net.inject(1, r, data)
    net.run(max_idle=30)
    for s in (0, 2):
        p = net.peers[s]
        assert p.status == "stopped", (p.status, p.stop_reason)
        assert "P1 (seat 1) signed two different messages" in p.stop_reason, p.stop_reason
        proofs = {a.seat for a in p.alerts if "signed two different" in a.text}
        assert proofs == {1}, [a.text for a in p.alerts]
        assert 2 not in named(p)          # the deceived seat is never named
