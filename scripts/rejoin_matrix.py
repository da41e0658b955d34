"""Kill/rejoin runs in memory, printed as one JSON object.

    python scripts/rejoin_matrix.py                 # 24 runs: 2-5 players, every damage
    python scripts/rejoin_matrix.py --runs 60 --seed 7

Each run plays a seeded random-bot game with one peer's log on disk, "kills" that peer at
a random point, damages its log (intact, cut mid-record, one flipped byte, deleted),
rebuilds it from its files as `belfort rejoin` does, and plays on.  Counted: runs whose
final state hash differs from the uninterrupted game's, runs with any cheat or desync
alert on any peer (a false alarm: nobody cheats), and runs that did not finish.
"""

import argparse
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)

import belfort  # noqa: E402

from net.session.core import SessionPeer  # noqa: E402
from net.session.memnet import MemoryNetwork, fixed_master  # noqa: E402
from net.node.storage import GameStore  # noqa: E402

DAMAGES = ("intact", "truncated", "flipped", "deleted")


def damage(path: Path, how: str, rng: random.Random) -> None:
    data = path.read_bytes()
    if how == "truncated":
        path.write_bytes(data[:rng.randrange(1, len(data))])
    elif how == "flipped":
        b = bytearray(data)
        b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
        path.write_bytes(bytes(b))
    elif how == "deleted":
        path.unlink()


def one_run(n: int, seed: str, how: str, rng: random.Random, tmp: Path) -> dict:
    ref = MemoryNetwork.create(n, seed=seed, level="random")
    ref.start()
    ref.run()
    net = MemoryNetwork.create(n, seed=seed, level="random")
    victim = rng.randrange(n)
    st = GameStore.create(tmp, net.peers[0].cfg, victim, {"master": fixed_master(seed, victim)})
    st.open_log()
    net.peers[victim].log.store = st
    net.start()
    kill_after = int(ref.delivered * rng.uniform(0.05, 0.9))
    net.run(until=lambda: net.delivered >= kill_after)
    net.down.add(victim)
    st.close()
    net.run(max_idle=8)
    damage(st.dir / "log", how, rng)
    store = GameStore(st.dir)
    cfg, seat, sec, _ = store.load()
    records, _notes = store.recover_log(cfg, seat)
    p = SessionPeer(cfg, seat, net.identities[seat], sec["master"], store=store, now=net.now)
    p.restore(records, net.now)
    store.open_log()
    net.peers[victim] = p
    net.down.discard(victim)
    p.announce(net.now)
    net._collect(p)
    net.run(max_idle=200)
    alarms = [a.text for q in net.peers for a in q.alerts if a.kind in ("cheat", "desync")]
    return {"n": n, "damage": how, "victim": victim, "kill_after": kill_after,
            "finished": all(q.status == "over" and q.audit_result and q.audit_result[0]
                            for q in net.peers),
            "same_hash": {belfort.state_hash(q.game) for q in net.peers}
            == {belfort.state_hash(ref.peers[0].game)},
            "false_alarms": len(alarms), "first_alarm": alarms[0] if alarms else None}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=24)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    runs, t0 = [], time.time()
    with tempfile.TemporaryDirectory() as d:
        for i in range(args.runs):
            n, how = 2 + i % 4, DAMAGES[(i // 4) % 4]
            runs.append(one_run(n, f"rm{args.seed}-{i}", how, rng, Path(d) / str(i)))
    bad = [r for r in runs if not (r["finished"] and r["same_hash"] and not r["false_alarms"])]
    print(json.dumps({"runs": len(runs), "finished": sum(r["finished"] for r in runs),
                      "same_hash": sum(r["same_hash"] for r in runs),
                      "runs_with_false_alarms": sum(bool(r["false_alarms"]) for r in runs),
                      "seconds": round(time.time() - t0, 1), "failures": bad}))
    return 0 if not bad else 1


if __name__ == "__main__":
    sys.exit(main())
