"""A received ``sess/cmd`` is checked once: one parse of the command (``normalize``), one
comparison of its version with the game's, its claimed card types given to the engine
once, and its signature checked once — over whole in-memory games, every command of every
seat at every receiving peer.

The counting wrappers live in this test only: every module that holds the engine's
``normalize`` or ``apply_claims`` gets a wrapper that counts the calls made while a peer
handles a received command (its readiness check and its handler); the command's body is
a dict that counts the reads of its ``v`` field once it is queued."""

import sys
from collections import Counter

import belfort
import belfort.commands
import belfort.legal
import pytest

from net.crypto import identity, wire
from net.session.commands import Commands, tuples
from net.session.intake import Intake
from net.session.memnet import MemoryNetwork


class CountedBody(dict):
    """A received command's body that counts how often its version is read."""

    def __init__(self, body):
        super().__init__(body)
        self.version_reads = 0

    def __getitem__(self, key):
        if key == "v":
            self.version_reads += 1
        return super().__getitem__(key)

    def get(self, key, default=None):
        if key == "v":
            self.version_reads += 1
        return super().get(key, default)


def _patch_everywhere(monkeypatch, original, wrapper):
    """Put ``wrapper`` wherever a module of the engine or the session holds ``original``."""
    for name, module in list(sys.modules.items()):
        if module is None or not name.startswith(("belfort", "net")):
            continue
        for attr, value in list(vars(module).items()):
            if value is original:
                monkeypatch.setattr(module, attr, wrapper)


@pytest.mark.parametrize("n,seed", [(2, "once-2"), (4, "once-4")])
def test_each_received_command_is_parsed_version_checked_and_claimed_once(monkeypatch, n, seed):
    handling: list = []          # the body a peer is handling now (nested calls: innermost)
    counts: dict[int, dict] = {}    # id(body) -> counts, for every sess/cmd handled
    bodies: list = []               # keeps them alive (ids stay unique)
    real_normalize, real_claims = belfort.commands.normalize, belfort.legal.apply_claims

    def count(what: str) -> None:
        if handling:
            counts.setdefault(id(handling[-1]), {"parse": 0, "claims": 0})[what] += 1

    def normalize(command):
        count("parse")
        return real_normalize(command)

    def apply_claims(s, cmd, seat):
        changed = real_claims(s, cmd, seat)
        if changed:              # a claimed type given to the engine ([] or None: none)
            count("claims")
        return changed

    _patch_everywhere(monkeypatch, real_normalize, normalize)
    _patch_everywhere(monkeypatch, real_claims, apply_claims)

    real_check = identity.Verifier.check_signature
    signature_checks: Counter = Counter()      # signed bytes -> checks, at every peer

    def check_signature(self, seat, signed, sig):
        signature_checks[bytes(signed)] += 1
        return real_check(self, seat, signed, sig)

    monkeypatch.setattr(identity.Verifier, "check_signature", check_signature)

    real_queue, real_ready, real_on_cmd = Intake.queue, Commands.ready, Commands.on_cmd

    def queue(self, seat, body):
        if body.get("type") == "sess/cmd":
            body = CountedBody(body)
            bodies.append(body)
        return real_queue(self, seat, body)

    def within(real):
        def run(self, body, *args):
            handling.append(body)
            try:
                return real(self, body, *args)
            finally:
                handling.pop()
        return run

    expected: dict[int, int] = {}       # id(body) -> claims the receiver had to be given

    def on_cmd(self, body, now):
        cmd = real_normalize(tuples(dict.get(body, "cmd")))
        expected[id(body)] = 1 if belfort.unknown_claims(self.table.game, cmd,
                                                         dict.__getitem__(body, "seat")) else 0
        return within(real_on_cmd)(self, body, now)

    monkeypatch.setattr(Intake, "queue", queue)
    monkeypatch.setattr(Commands, "ready", within(real_ready))
    monkeypatch.setattr(Commands, "on_cmd", on_cmd)

    net = MemoryNetwork.create(n, seed=seed, level="random")
    net.start()
    net.run()
    assert all(p.status == "over" and p.audit_result[0] for p in net.peers)
    assert not [a for p in net.peers for a in p.alerts if a.kind != "info"]

    handled = [b for b in bodies if id(b) in expected]
    applied = sum(sum(1 for s, _c in p.history if s != p.seat) for p in net.peers)
    # every command another seat decided alone reached every other peer as a sess/cmd
    assert len(handled) == len(bodies) > 0
    simultaneous = sum(1 for p in net.peers for s, c in p.history
                       if s != p.seat and c[0] in ("keep", "show"))
    assert len(handled) == applied - simultaneous
    with_claims = [b for b in handled if expected[id(b)]]
    assert with_claims, "no received command carried a claim: the test proves nothing"
    problems = []
    for b in handled:
        got = counts.get(id(b), {"parse": 0, "claims": 0})
        want = {"parse": 1, "claims": expected[id(b)], "version": 1}
        have = {"parse": got["parse"], "claims": got["claims"], "version": b.version_reads}
        if have != want:
            problems.append((dict.get(b, "cmd"), have, want))
    assert not problems, f"{len(problems)} of {len(handled)} commands: {problems[:5]}"
    # each command's signature: checked once by each of the n - 1 peers that received it
    sent = {wire.pack(dict(b)) for b in handled}
    assert len(sent) == len(handled) // (n - 1)
    assert {signature_checks[s] for s in sent} == {n - 1}
