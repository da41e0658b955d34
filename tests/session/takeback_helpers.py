"""Helpers for take-back and complete-log tests on in-memory peers (net/session/memnet.py)."""

import belfort
from belfort.state import ACTIONS, STEP_NONE
from belfort.undo import learned

from net.session.memnet import MemoryNetwork


def hashes(net):
    return {belfort.state_hash(p.game) for p in net.peers}


def undoable(p):
    """Legal commands of p's seat that it could take back once given: nothing becomes
    known, and the game still waits for it alone (§8: its turn goes on)."""
    g = p.game
    out = []
    for c in belfort.legal_commands(g, p.seat):
        if c[0] == "end":
            continue
        after = g.copy()
        belfort.apply(after, c, p.seat)
        if learned(g, after, p.seat) is None and after.waiting_for() == [p.seat]:
            out.append(c)
    return out


def in_actions(p, want=None):
    """p must decide in the Actions phase (§8) and has an action it could take back
    (of verb `want`, if given)."""
    g = p.game
    if g is None or not p.decision_needed() or g.phase != ACTIONS or g.step != STEP_NONE:
        return False
    return any(want is None or c[0] == want for c in undoable(p))


def run_to_actions(net, want=None, seats=None, after=0):
    """Run the game until some peer (of `seats`) may take back an action (of verb
    `want`), at game version > `after`; that peer, or None if the game ended first."""
    seats = range(len(net.peers)) if seats is None else seats
    found = []

    def ready():
        for s in seats:
            p = net.peers[s]
            if p.game is not None and p.game.version > after and in_actions(p, want):
                found.append(p)
                return True
        return False
    net.run(until=ready)
    return found[0] if found else None


def act(net, p, cmd):
    """p's seat gives `cmd`; every frame is delivered."""
    p.submit(cmd, net.now)
    net._collect(p)
    net.pump()


def take_back(net, p):
    cmd = p.take_back(net.now)
    net._collect(p)
    net.pump()
    return cmd


def started(n, seed):
    net = MemoryNetwork.create(n, seed=seed)
    net.start()
    return net


def game_with_take_backs(n, seed, rounds=2):
    """A whole game of n in-memory peers in which `rounds` times a seat acts and takes the
    action back (so the complete log holds take-backs); the network."""
    net = started(n, seed)
    after = 0
    for _ in range(rounds):
        p = run_to_actions(net, after=after)
        if p is None:
            break
        cmd = undoable(p)[0]
        act(net, p, cmd)
        take_back(net, p)
        after = p.game.version + 1
    net.run()
    return net
