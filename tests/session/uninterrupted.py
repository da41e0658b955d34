"""The uninterrupted game a process test compares its interrupted one with.

A peer started with ``--test-secret S`` draws its secrets from S (memnet.fixed_master) and
its random bot from the game's seed, so the whole game is a function of S, the names and
the bots' level.  The same game played by in-memory peers (net.session.memnet) is the
reference: the same engine, signatures and deck, without starting and waiting for
processes.  (tests/session/test_netns_stall.py first compared a process game with it.)"""

import functools

import belfort
from net.session.memnet import MemoryNetwork


@functools.cache
def uninterrupted(n: int, secret: str, names: tuple | None = None) -> dict:
    """{"hash", "scores", "version"} of the game n random bots play from ``secret``; the
    names default to the e2e tests' own (Ana, Bot1, Bot2, ...)."""
    names = list(names or ["Ana"] + [f"Bot{i}" for i in range(1, n)])
    net = MemoryNetwork.create(n, seed=secret, level="random", names=names)
    net.start()
    net.run(max_idle=400)
    games = [p.game for p in net.peers]
    assert all(p.finished for p in net.peers), "the reference game did not finish"
    hashes = {belfort.state_hash(g) for g in games}
    assert len(hashes) == 1, "the in-memory peers disagree"
    g = games[0]
    return {"hash": hashes.pop(), "version": g.version,
            "scores": [pl["score"] for pl in belfort.public_view(g)["players"]]}
