"""Cheaters that try to make the table wait for ever (test_liveness_e2e.py): the ordinary
peer process with parts patched here, in the tests, as tests/session/cheater.py does (its
command line, its events, and its other attacks):

    python -m tests.session.stall_cheater ATTACK[:VERSION] -- PYTHON -m client.peer ARGS...

    bare-no           (from the start) answers every handoff attempt on another seat with
                      an objection whose "evidence" is the vote itself, and never votes
    premature-fin     at its decision past VERSION says it finished, then vanishes
    flap              at its decision past VERSION goes quiet but for one heartbeat every 3 s
    vanish-at-reveal  (from the start) commits to its seed share, then vanishes instead of
                      revealing it (before the first deal)
    mute-dispute      (from the start) tampers with its shuffle, and never publishes its
                      audit when the deck is disputed
"""

from __future__ import annotations

import os
import sys
import time

from tests.session import cheater
from tests.session.test_attacks import _tamper_stage


def bare_no(peer) -> None:
    answered: set[tuple[int, int]] = set()

    def answer(now: float) -> None:
        for target, votes in sorted(peer.handoffs.votes.items()):
            k = peer.handoffs.attempt.get(target, 0)
            envs = peer.handoffs.vote_envs.get(target, {})
            if not votes or target == peer.seat or (target, k) in answered or not envs:
                continue
            answered.add((target, k))
            vote = next(iter(envs.values()))
            peer._emit(peer.signer.sign("hand/no", {"target": target, "k": k, "vote": vote,
                                                    "proof": vote}))
    peer._answer_handoffs = answer


def premature_fin(node) -> None:
    peer = node.peer
    peer._apply(peer.resync.finished_notice())
    node.flush()
    time.sleep(0.3)            # the notice on its way, then gone without a word
    os._exit(0)


def flap(node) -> None:
    """From now on nothing is processed or sent but a heartbeat every 3 s."""
    peer = node.peer
    while True:
        for dest, data in peer.resync.heartbeat(None, need=False).frames:
            for s in range(peer.n):
                if s != peer.seat and (dest is None or dest == s):
                    node.mesh.send(s, data)
        time.sleep(3.0)


def vanish_at_reveal(peer) -> None:
    real = peer.own.reveal

    def reveal(purpose, game, locate):
        if purpose == "seed":
            os._exit(0)
        return real(purpose, game, locate)
    peer.own.reveal = reveal


def mute_dispute(peer) -> None:
    from net.session.effects import Out
    _tamper_stage(peer, "shuffle")
    peer.dispute.start = lambda *args, **kw: Out()


cheater.FROM_THE_START.update({
    "bare-no": bare_no,
    "vanish-at-reveal": vanish_at_reveal,
    "mute-dispute": mute_dispute,
})
cheater.ACTS.update({"premature-fin": premature_fin, "flap": flap})


if __name__ == "__main__":
    sys.exit(cheater.main(sys.argv[1:]))
