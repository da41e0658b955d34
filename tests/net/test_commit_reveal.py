"""Commit-reveal: commitments, rounds, timeouts, the shared seed."""

import hashlib

import pytest

from net.crypto import (CheatingError, CommitRevealRound, Identity, LocalDeckTable, PeerTimedOut,
                        ProtocolError, Signer, Verifier, commit, commitment_hash, shared_seed,
                        verify_reveal, wire)

GAME = "g"


def test_commit_binds_value_nonce_game_seat_and_purpose():
    c, nonce = commit(b"share", "seed", GAME, 2)
    assert len(c) == 32 and len(nonce) == 32
    verify_reveal(c, b"share", nonce, "seed", GAME, 2)  # opens
    for value, n, purpose, game, seat in [(b"other", nonce, "seed", GAME, 2),
                                          (b"share", bytes(32), "seed", GAME, 2),
                                          (b"share", nonce, "keep3", GAME, 2),
                                          (b"share", nonce, "seed", "g2", 2),
                                          (b"share", nonce, "seed", GAME, 1)]:
        with pytest.raises(CheatingError) as e:
            verify_reveal(c, value, n, purpose, game, seat)
        assert (e.value.reason, e.value.seat) == ("commit/mismatch", seat)
    # The documented formula, for implementers outside this repository.
    assert (c == hashlib.sha256(wire.pack(["belfort-lan/commit/v1", GAME, 2, "seed", b"share",
                                           nonce])).digest())
    assert c == commitment_hash(b"share", nonce, GAME, 2, "seed")


@pytest.mark.parametrize("n", [2, 3, 5])
def test_shared_seed_is_hash_of_shares_in_seat_order(n):
    table = LocalDeckTable(n)
    shares = [bytes([s]) * 32 for s in range(n)]
    views = table.commit_reveal("seed", shares)
    assert all(v == shares for v in views)
    assert shared_seed(views[0]) == hashlib.sha256(b"".join(shares)).digest()
    assert len(table.shared_seed()) == 32


class Peers:
    """Three seats, each with its own round, wired by hand so tests control timing."""

    def __init__(self, n=3, timeout=10.0, purpose="keep3"):
        self.ids = [Identity.generate() for _ in range(n)]
        self.signers = [Signer(i, GAME, s) for s, i in enumerate(self.ids)]
        self.verifiers = [Verifier(GAME, [i.public_bytes for i in self.ids]) for _ in range(n)]
        self.rounds = [CommitRevealRound(GAME, range(n), purpose, now=0.0, timeout=timeout)
                       for _ in range(n)]

    def deliver(self, sender, envelope, now, to=None):
        for r in range(len(self.ids)) if to is None else [to]:
            if r != sender:
                self.rounds[r].handle(self.verifiers[r].verify(envelope), now)

    def commit_all(self, values, now=1.0):
        for s, v in enumerate(values):
            self.deliver(s, self.rounds[s].make_commitment(self.signers[s], v, now), now)


def test_round_collects_every_value():
    p = Peers()
    keep = [wire.pack(sorted(c)) for c in ([3, 9, 12], [1, 2, 4], [40, 41, 47])]
    p.commit_all(keep)
    assert all(r.all_committed and not r.complete for r in p.rounds)
    for s in range(3):
        p.deliver(s, p.rounds[s].make_reveal(p.signers[s]), 2.0)
    assert all(r.result() == keep for r in p.rounds)


def test_reveal_that_does_not_match_is_cheating():
    p = Peers()
    p.commit_all([b"a", b"b", b"c"])
    # Seat 1 changes its mind and sends a different value with its nonce.
    nonce = p.rounds[1]._own[2]
    lie = p.signers[1].sign("commit/reveal", {"purpose": "keep3", "value": b"z", "nonce": nonce})
    with pytest.raises(CheatingError) as e:
        p.deliver(1, lie, 2.0, to=0)
    assert (e.value.reason, e.value.seat) == ("commit/mismatch", 1)
    assert 1 not in p.rounds[0].values


def test_withheld_reveal_means_the_seat_left():
    p = Peers(timeout=10.0)
    p.commit_all([b"a", b"b", b"c"], now=1.0)  # reveal deadline: 11.0
    for s in (0, 1):
        p.deliver(s, p.rounds[s].make_reveal(p.signers[s]), 3.0)
    p.rounds[0].check_deadline(10.5)  # still in time
    with pytest.raises(PeerTimedOut) as e:
        p.rounds[0].check_deadline(11.5)
    assert e.value.seats == [2] and e.value.reason == "commit/timeout"
    # A reveal arriving after the deadline is refused the same way.
    late = p.rounds[2].make_reveal(p.signers[2])
    with pytest.raises(PeerTimedOut) as e:
        p.deliver(2, late, 12.0, to=1)
    assert e.value.seats == [2]


def test_withheld_commitment_times_out():
    p = Peers(timeout=5.0)
    p.deliver(0, p.rounds[0].make_commitment(p.signers[0], b"a", 1.0), 1.0)
    with pytest.raises(PeerTimedOut) as e:
        p.rounds[1].check_deadline(6.0)
    assert e.value.seats == [1, 2]
    with pytest.raises(ProtocolError) as e:
        p.rounds[0].make_reveal(p.signers[0])  # never reveal before every commitment
    assert e.value.reason == "commit/not-ready"


def test_reveal_without_commitment_and_double_commitment_are_cheating():
    p = Peers()
    early = p.signers[2].sign("commit/reveal", {"purpose": "keep3", "value": b"x",
                                                "nonce": bytes(32)})
    with pytest.raises(CheatingError) as e:
        p.deliver(2, early, 1.0, to=0)
    assert (e.value.reason, e.value.seat) == ("commit/reveal-before-commit", 2)
    c = {"purpose": "keep3", "commitment": bytes(32)}
    p.deliver(1, p.signers[1].sign("commit/commit", c), 1.0, to=0)
    with pytest.raises(CheatingError) as e:
        p.deliver(1, p.signers[1].sign("commit/commit", c), 1.0, to=0)
    assert (e.value.reason, e.value.seat) == ("commit/duplicate", 1)


def test_reveal_may_arrive_before_other_seats_commitments():
    # Over a mesh, seat 0 can see seat 1's reveal before seat 2's commitment.
    p = Peers()
    envs = [p.rounds[s].make_commitment(p.signers[s], bytes([s]), 1.0) for s in range(3)]
    p.deliver(0, envs[0], 1.0, to=1)
    p.deliver(2, envs[2], 1.0, to=1)
    p.deliver(1, envs[1], 1.0, to=0)
    reveal1 = p.rounds[1].make_reveal(p.signers[1])
    p.deliver(1, reveal1, 1.5, to=0)
    assert p.rounds[0].values[1] == b"\x01"
    p.deliver(2, envs[2], 2.0, to=0)
    assert p.rounds[0].all_committed


@pytest.mark.parametrize("fields", [
    {"purpose": "keep3"}, {"purpose": "keep3", "commitment": b"short"},
    {"purpose": "keep3", "commitment": "text" * 8}, {"commitment": bytes(32)},
])
def test_malformed_commitment_is_refused(fields):
    p = Peers()
    with pytest.raises(ProtocolError) as e:
        p.deliver(1, p.signers[1].sign("commit/commit", fields), 1.0, to=0)
    assert e.value.reason == "commit/malformed" and e.value.seat == 1
    assert p.rounds[0].commitments == {}
