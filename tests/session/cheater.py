"""A cheating peer for the process tests (test_attacks_e2e.py): the ordinary
peer process (client.peer) with some of its parts patched, here in the tests, to
misbehave on cue.  Nothing of it is in the product.  It goes in front of the peer's own
command line, as ``ip netns exec`` does (the peer runs in this same process):

    python -m tests.session.cheater ATTACK[:VERSION] -- PYTHON -m client.peer ARGS...

Withholding the seed or simultaneous reveals and tampering with the deck start with the
game; the other attacks wait until the game reaches VERSION (default 0) and then, at this
seat's next decision (the game waiting for it alone), are done.  Otherwise it plays
honestly:

    forged-handed     tells seat 0 (only) that seat 0 was handed to a bot: a signed
                      ``ctl/handed`` with its own vote, and one with no vote at all
    lone-vote         votes (signed, in sequence) to hand the last seat to a bot, citing a
                      missed deadline that never happened
    withhold-keys     never releases a key again (heartbeats and moves go on)
    withhold-seed     never reveals its seed share
    withhold-sim      never reveals a simultaneous choice (keep-3, Spies' show)
    tamper-shuffle    its shuffle of the first deck doubles a point (a non-card)
    tamper-rekey      its re-key of the first deck puts another position's ciphertext,
                      re-encrypted, at position 0 (a non-card)
    tamper-duplicate  (seat 0, the first to re-key) its re-key of the first deck puts a
                      second, valid-looking copy of position 5's card at position VERSION
    equivocate        signs its next plain command for seat 0 and another command, with
                      the same sequence number, for the other seats
    view-deep         sends a ``sess/view`` nested 100,000 deep
    view-huge         sends a ``sess/view`` of 200,000 characters
    sync-flood        sends seat 0 3,000 heartbeats asking for every envelope
    view-flood        sends everyone 2,500 signed, valid ``sess/view`` messages of 60,000
                      characters each (143 MB), waiting for room rather than dropping
    open-undealt      opens (``deck/open``) the draw pile's top card, never dealt to it

It prints, besides the peer's own events: ``{"event": "cheater", "did": ATTACK}`` once
it acted, ``{"event": "cheater-got", "type", "from"}`` the first time it receives each
message type from each seat (e.g. a ``hand/share``: somebody's escrow opened), and at
the end ``{"event": "cheater-tally", "got": {"SEAT TYPE": count}}``.
"""

from __future__ import annotations

import sys
from collections import Counter

import belfort

from tests.session.test_attacks import _tamper_stage, _withhold

FLOOD = 3000
VIEW_FLOOD, VIEW_CHARS = 2500, 60_000


def main(argv: list[str]) -> int:
    if len(argv) < 5 or argv[1] != "--" or argv[3:5] != ["-m", "client.peer"]:
        sys.exit("usage: python -m tests.session.cheater ATTACK[:VERSION] -- "
                 "PYTHON -m client.peer ARGS...")
    attack, _, at = argv[0].partition(":")
    known = [*FROM_THE_START, *ACTS, "equivocate"]
    if attack not in known:
        sys.exit(f"unknown attack {attack!r}; one of {', '.join(known)}")
    from client import peer as peer_cli
    real_run_node = peer_cli.run_node

    def run_node(node, args, out):
        tally = Counter()
        watch_received(node, out, tally)
        install(node, attack, int(at or 0), out)
        try:
            return real_run_node(node, args, out)
        finally:
            out({"event": "cheater-tally", "got": {f"{s} {t}": c for (s, t), c in tally.items()}})

    peer_cli.run_node = run_node
    return peer_cli.main(argv[5:])


def watch_received(node, out, tally: Counter) -> None:
    from net.session.intake import peek
    peer = node.peer
    receive = peer.receive

    def counting(data, now=0.0, src=None):
        try:
            t = peek(data)["type"]
        except Exception:
            t = "?"
        if (src, t) not in tally:
            out({"event": "cheater-got", "type": t, "from": src})
        tally[(src, t)] += 1
        return receive(data, now, src)

    peer.receive = counting


def install(node, attack: str, at: int, out) -> None:
    """Patch what must be wrong from the start; cue the rest on the game's version."""
    peer = node.peer
    if attack == "tamper-duplicate":
        FROM_THE_START[attack](peer, at)
        return
    if attack in FROM_THE_START:
        FROM_THE_START[attack](peer)
        return
    if attack == "equivocate":
        equivocate(node, at, out)
        return
    step, done = node.step, [False]

    def hooked(timeout_ms=50):
        g = peer.game
        # at a quiet moment: the game waits for our decision alone, so nobody owes a step
        # that what we send could hold up (the honest peers' deadlines run on the attack)
        if not done[0] and g is not None and g.version >= at and peer.decision_needed() \
                and len(g.waiting_for()) == 1:
            done[0] = True
            ACTS[attack](node)
            out({"event": "cheater", "did": attack, "v": g.version})
        return step(timeout_ms)

    node.step = hooked


# ---------------------------------------------------------------- one-off messages
def _control(peer, type_: str, **fields) -> bytes:
    from net.crypto import encode_envelope
    body = {"type": type_, "game": peer.cfg.game_id, "seat": peer.seat, "seq": 0, **fields}
    return encode_envelope(peer.identity.sign_message(body))


def forged_handed(node) -> None:
    from net.crypto import encode_envelope
    peer, g = node.peer, node.peer.game
    own_vote = encode_envelope(peer.identity.sign_message({
        "type": "hand/vote", "game": peer.cfg.game_id, "seat": peer.seat, "seq": 999,
        "target": 0, "have": 3}))
    for votes in ([own_vote], []):
        node.mesh.send(0, _control(peer, "ctl/handed", target=0, host=peer.seat,
                                   round=g.round, v=g.version, votes=votes))


def lone_vote(node) -> None:
    peer = node.peer
    peer._emit(peer.signer.sign("hand/vote", {"target": peer.n - 1, "have": 1,
                                              "why": "withheld its key release"}))


def view(node, text: str) -> None:
    peer = node.peer
    peer._emit(peer.signer.sign("sess/view", {"v": peer.game.version, "view": text}))


def sync_flood(node) -> None:
    """Straight to seat 0's socket, waiting for room rather than dropping (the mesh's own
    send drops what does not fit): every one of them reaches it."""
    import zmq
    peer = node.peer
    hb = _control(peer, "ctl/hb", have=[0] * peer.n, need=True, finished=False)
    sock = node.mesh.push[0]
    for _ in range(FLOOD):
        while True:
            try:
                sock.send(hb, zmq.NOBLOCK)
                break
            except zmq.Again:
                sock.poll(100, zmq.POLLOUT)


def view_flood(node) -> None:
    """Each view is a valid message in sequence: only the per-seat bounds (4 views kept)
    keep it from costing the victims the flood's 143 MB."""
    import zmq
    text = '"' + "x" * VIEW_CHARS + '"'
    for _ in range(VIEW_FLOOD):
        for sock in list(node.mesh.push.values()):
            sock.poll(1000, zmq.POLLOUT)
        view(node, text)


def open_undealt(node) -> None:
    peer = node.peer
    e, pos = peer.table.locate(peer.game.draw[0])
    deck = peer.decks[e]
    peer._emit(peer.signer.sign("deck/open", {"epoch": e, "pos": pos, "card": 0,
                                              "key": deck._key_bytes(pos),
                                              "deck": deck.transcript_digest}))


# the in-memory attacks' own patches (test_attacks.py), on this process's peer
FROM_THE_START = {
    "withhold-seed": lambda peer: _withhold(peer, "seed"),
    "withhold-sim": lambda peer: _withhold(peer, "sim"),
    "tamper-shuffle": lambda peer: _tamper_stage(peer, "shuffle"),
    "tamper-rekey": lambda peer: _tamper_stage(peer, "rekey"),
    "tamper-duplicate": lambda peer, at: _tamper_stage(peer, "duplicate", at),
}

ACTS = {
    "withhold-keys": lambda node: _withhold(node.peer, "keys"),
    "forged-handed": forged_handed,
    "lone-vote": lone_vote,
    "view-deep": lambda node: view(node, "[" * 100_000 + "]" * 100_000),
    "view-huge": lambda node: view(node, '"' + "x" * 200_000 + '"'),
    "sync-flood": sync_flood,
    "view-flood": view_flood,
    "open-undealt": open_undealt,
}


# ---------------------------------------------------------------- patched parts
def equivocate(node, at: int, out) -> None:
    """Our next plain command (one that opens no card) once past ``at`` goes to seat 0;
    seats 1.. get another legal command signed with the same seq."""
    from net.crypto import encode_envelope, wire
    from net.session.commands import plain, tuples
    peer = node.peer
    send, done = peer.transmit, [False]

    def other_command(g, cmd) -> list | None:
        if g.version < at or len(g.waiting_for()) != 1 or \
                belfort.command_claims(belfort.normalize(tuples(cmd))):
            return None
        for c in reversed(belfort.legal_commands(g, peer.seat)):
            c = belfort.normalize(c)
            if not belfort.command_claims(c) and plain(c) != cmd:
                return plain(c)
        return None

    def transmit(dest, data):
        if done[0] or dest is not None:
            return send(dest, data)
        body = wire.unpack(wire.unpack(data, "x")["body"], "x")
        b = other_command(peer.game, body.get("cmd")) if body["type"] == "sess/cmd" else None
        if b is None:
            return send(dest, data)
        done[0] = True
        forged = encode_envelope(peer.identity.sign_message({**body, "cmd": b}))
        send(0, data)
        for s in range(1, peer.n):
            if s != peer.seat:
                send(s, forged)
        out({"event": "cheater", "did": "equivocate", "v": body["v"], "seq": body["seq"]})

    peer.transmit = transmit


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
