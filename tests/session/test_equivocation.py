"""Equivocation never gets an honest seat named (blame only with proof).

The cheater signs two different commands with one sequence number and shows one to some
peers (the deceived) and the other to the rest.  Before the fork exchange (forks.py) has
made the two signed messages a proof, a deceived peer's game has forked: the next
command of an honest seat may look illegal to it, its state hashes disagree with the
others'.  For 3, 4 and 5 players, every cheater seat and varied deceived seats, under
seeded random delivery orders (every link FIFO), every honest peer must end stopped with
a verdict naming the cheater alone, and no alert may ever have named an honest seat.
In memory."""

import random

import belfort
import pytest

from net.crypto import encode_envelope
from net.session.commands import plain
from net.session.memnet import MemoryNetwork
from orders import body_of, run_shuffled

ACCUSING = ("cheat", "desync", "error")


def _cases():
    out = []
    for n in (3, 4, 5):
        for cheater in range(n):
            honest = [s for s in range(n) if s != cheater]
            rng = random.Random(f"{n}/{cheater}")
            k = rng.randint(1, len(honest) - 1)
            out.append((n, cheater, tuple(sorted(rng.sample(honest, k)))))
    return out


def _equivocate(net, cheater, deceived):
    """At the cheater's next ordinary decision, it plays command A for itself and the
    non-deceived peers, and a different command B, with the same seq, for ``deceived``."""
    claims = belfort.command_claims
    bad = net.peers[cheater]

    def ready():
        if not (bad.decision_needed() and len(bad.game.waiting_for()) == 1):
            return False
        legal = [c for c in belfort.legal_commands(bad.game, cheater)
                 if not claims(belfort.normalize(c))]
        return len(legal) >= 2

    net.run(until=ready)
    assert ready(), "the cheater never had two commands to choose from"
    g = bad.game
    legal = [c for c in belfort.legal_commands(g, cheater) if not claims(belfort.normalize(c))]
    a, b = legal[0], legal[-1]
    seq, v = bad.signer.next_seq, g.version
    bad.submit(a, net.now)
    forged = encode_envelope(net.identities[cheater].sign_message({
        "type": "sess/cmd", "game": bad.cfg.game_id, "seat": cheater, "seq": seq, "v": v,
        "cmd": plain(belfort.normalize(b)), "n": len(bad.table.undo.steps) - 1}))
    for dest, data in bad.take_outgoing():
        body = body_of(data)
        for r in ([dest] if dest is not None else [s for s in range(net_n(net)) if s != cheater]):
            if body["type"] == "sess/cmd" and body["seq"] == seq and r in deceived:
                net.inject(cheater, r, forged)
            else:
                net.inject(cheater, r, data)


def net_n(net):
    return len(net.peers)


@pytest.mark.parametrize("n, cheater, deceived", _cases())
def test_equivocation_names_only_the_cheater_in_any_order(n, cheater, deceived):
    rng = random.Random(f"order/{n}/{cheater}/{deceived}")
    net = MemoryNetwork.create(n, seed=f"eq{n}-{cheater}")
    net.start()
    net.run(until=lambda: all(p.game is not None and p.game.version > 6 + 3 * cheater
                              for p in net.peers))
    _equivocate(net, cheater, deceived)
    honest = [p for p in net.peers if p.seat != cheater]
    run_shuffled(net, rng, max_idle=60, until=lambda: all(p.finished for p in honest))
    name = f"P{cheater} (seat {cheater})"
    for p in net.peers:
        if p.seat == cheater:
            continue
        accused = {a.seat for a in p.alerts if a.kind in ACCUSING and a.seat is not None}
        assert accused <= {cheater}, (p.seat, [a.text for a in p.alerts if a.kind in ACCUSING])
        assert p.status == "stopped", (p.seat, p.status, [a.text for a in p.alerts])
        assert name in p.stop_reason and "signed two different" in p.stop_reason, \
            (p.seat, p.stop_reason)
        others = [f"(seat {s})" for s in range(n) if s != cheater]
        assert not any(o in p.stop_reason for o in others), p.stop_reason


def test_echo_reaches_a_fork_hidden_far_back():
    """Two peers whose logs of seat 2 differ at envelope 10 of 600 (the fork stayed
    hidden, e.g. while they could not exchange heartbeats): the echo's batches start where
    their running hashes last agreed and move on, so the differing envelope is sent."""
    from types import SimpleNamespace

    from net.crypto import Identity
    from net.session.config import Timing
    from net.session.effects import Names
    from net.session.msglog import MessageLog
    from net.session.resync import Resync

    ours, theirs = MessageLog(3, 0), MessageLog(3, 1)
    for q in range(600):
        ours.accepted[2].append(b"env %d" % q)
        theirs.accepted[2].append(b"env %d" % q if q != 10 else b"other 10")
    cfg = SimpleNamespace(game_id="g", n=3)
    intake = SimpleNamespace(have=lambda: [0, 0, 600], expected_seq=lambda s: 600,
                             future=[{}, {}, {}])
    rs = Resync(cfg, Identity.generate(), ours, intake, Names(["A", "B", "C"]), Timing(),
                lambda: False)
    tips = [b"", b"", theirs.chain(2, 600)]
    sent = set()
    for i in range(8):
        out = rs._echo(1, [0, 0, 600], tips, now=float(i))
        for _dest, frame in out.frames:
            sent.update(body_of(frame)["envelopes"])
    assert b"env 10" in sent
