#!/usr/bin/env python3
"""Benchmark of the hidden deck: prints one JSON object (CPU time, process_time).

All peers run in this one process, as LocalDeckTable runs them, every message
signed and verified by every receiver.  Each peer validates and encodes points with a
cache of its own (``curve.use_cache``), so each one pays for checking every point it
receives, as separate peer processes do; a cache shared by all peers would report about
half the real setup cost.  Figures:
  scalar_mult_us     one x-only P-256 multiplication with a fresh scalar
  ed25519_sign_us, ed25519_verify_us   one message signature, one check
  setup_ms[n]        jointly shuffled, re-keyed 50-card deck for n peers (total CPU)
  deal_ms            one position dealt privately (5 peers, total CPU: 4 messages,
                     each signed once and verified by 4 peers)
  deal_busiest_peer_ms  the same, CPU of the busiest single peer (peers run in parallel)
  deal3_per_card_ms  a hand of 3 dealt in one message per peer, per card
  reveal_ms          one position revealed to all (5 peers)
  open_ms            one card of a hand revealed and checked by all (5 peers)
  audit_ms           the full end-of-game audit, every peer checking (5 peers)
  audit_per_peer_ms  the same for one peer
Targets: setup_ms["5"] <= 150, deal_ms <= 2.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey  # noqa: E402

from net.crypto import DeckPeer, LocalDeckTable, curve  # noqa: E402

REPEAT = 5


def _in_cache(method):
    def run(self, *args, **kwargs):
        with curve.use_cache(self.point_cache):
            return method(self, *args, **kwargs)
    return run


class OwnCachePeer(DeckPeer):
    """A DeckPeer whose every step uses its own point cache, like a peer process."""

    def __init__(self, *args, **kwargs) -> None:
        self.point_cache = curve.PointCache()
        with curve.use_cache(self.point_cache):
            super().__init__(*args, **kwargs)

    start = _in_cache(DeckPeer.start)
    release = _in_cache(DeckPeer.release)
    open = _in_cache(DeckPeer.open)
    publish_audit = _in_cache(DeckPeer.publish_audit)
    handle = _in_cache(DeckPeer.handle)


def separate_peers(n: int) -> dict[int, type[DeckPeer]]:
    return {s: OwnCachePeer for s in range(n)}


class TimedTable(LocalDeckTable):
    """Also charges each seat the CPU it spends itself (sending, then checking
    what it receives): on a LAN the peers work in parallel, so the busiest
    seat's share is what a deal costs in time."""

    def __init__(self, n: int) -> None:
        super().__init__(n, peer_classes=separate_peers(n))
        self.cpu = [0.0] * n

    def _receive(self, r, envelope):
        start = time.process_time()
        try:
            return super()._receive(r, envelope)
        finally:
            self.cpu[r] += time.process_time() - start

    def _own(self, seat, peer, make):
        start = time.process_time()
        envelope = make()
        self.cpu[seat] += time.process_time() - start
        super()._own(seat, peer, lambda: envelope)

    def busiest_ms(self, fn) -> float:
        self.cpu = [0.0] * self.n
        fn()
        return max(self.cpu) * 1000


def cpu_ms(fn) -> float:
    start = time.process_time()
    fn()
    return (time.process_time() - start) * 1000


def scalar_mult_us() -> float:
    x = curve.card_point(0)
    scalars = [curve.random_scalar() for _ in range(2000)]
    start = time.process_time()
    for k in scalars:
        x = curve.mul(k, x)
    return (time.process_time() - start) / len(scalars) * 1e6


def ed25519_us() -> tuple[float, float]:
    """Sign and verify of one small message: every deck message pays one sign
    and one verify per receiving peer."""
    private = Ed25519PrivateKey.generate()
    key = private.public_key()
    msg = bytes(120)
    start = time.process_time()
    sigs = [private.sign(msg) for _ in range(500)]
    mid = time.process_time()
    for sig in sigs:
        key.verify(sig, msg)
    end = time.process_time()
    return (mid - start) / 500 * 1e6, (end - mid) / 500 * 1e6


def setup_ms(n: int) -> float:
    runs = []
    for _ in range(REPEAT):
        table = LocalDeckTable(n, peer_classes=separate_peers(n))
        runs.append(cpu_ms(table.new_deck))
    return statistics.median(runs)


def main() -> None:
    sign_us, verify_us = ed25519_us()
    out = {"scalar_mult_us": scalar_mult_us(), "ed25519_sign_us": sign_us,
           "ed25519_verify_us": verify_us,
           "setup_ms": {str(n): setup_ms(n) for n in (2, 3, 4, 5)}}

    table = TimedTable(5)
    table.new_deck()
    deals = [cpu_ms(lambda p=p: table.deal([p], p % 5)) for p in range(10)]
    out["deal_ms"] = statistics.median(deals)
    out["deal_busiest_peer_ms"] = statistics.median(
        table.busiest_ms(lambda p=p: table.deal([p], p % 5)) for p in range(35, 45))
    hands = [cpu_ms(lambda p=p: table.deal([p, p + 1, p + 2], p % 5)) for p in range(10, 25, 3)]
    out["deal3_per_card_ms"] = statistics.median(hands) / 3
    out["reveal_ms"] = statistics.median(cpu_ms(lambda p=p: table.reveal([p]))
                                         for p in range(25, 35))
    out["open_ms"] = statistics.median(cpu_ms(lambda p=p: table.open(p % 5, p)) for p in range(10))
    out["audit_ms"] = cpu_ms(table.audit)
    out["audit_per_peer_ms"] = out["audit_ms"] / 5
    assert all(p.audit_report.ok for p in table.peers())

    def rounded(v):
        return {k: rounded(x) for k, x in v.items()} if isinstance(v, dict) else round(v, 3)

    print(json.dumps(rounded(out)))


if __name__ == "__main__":
    main()
