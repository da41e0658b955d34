"""Networked-game benchmark: the same seeded 5-player bot game played twice.

1. five SessionPeers in this process exchanging their frames in memory (five engines,
   all the signatures and the whole mental-poker deck: all the work but the network);
2. five peer processes (``python -m net.session.peer``) over loopback ZeroMQ with CurveZMQ.

Both use the same fixed secrets (so the same shared seed, deck order and bot choices) and
must reach the same final state hash.  Prints JSON:

    memory_s / zmq_s    wall time from the first session message to game over on every
                        peer (lobby and process start-up excluded); ratio = zmq_s / memory_s
    latency_ms          median and p99, over every ordinary (non-simultaneous) command, of the
                        time from the command's sending (just before it is signed) to its
                        application on the last peer (one clock: CLOCK_MONOTONIC is machine-wide)
    lobby_to_first_place_s   host closes the lobby -> first placement applied on every peer

    python scripts/bench_net.py [--players 5] [--secret bench-1] [--level random]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import belfort  # noqa: E402

from net.session.memnet import MemoryNetwork  # noqa: E402


def names(n):
    return [f"P{i}" for i in range(n)]


def run_memory(n: int, secret: str, level: str) -> dict:
    net = MemoryNetwork.create(n, seed=secret, names=names(n), level=level,
                               clock=time.perf_counter)
    t0 = time.perf_counter()
    net.start()
    net.run(until=lambda: all(p.status in ("over", "stopped") for p in net.peers))
    t_over = time.perf_counter()
    net.run()
    t_audit = time.perf_counter()
    p0 = net.peers[0]
    assert all(p.status == "over" for p in net.peers), [p.stop_reason for p in net.peers]
    return {"wall_s": t_over - t0, "with_audit_s": t_audit - t0,
            "hash": belfort.state_hash(p0.game), "commands": len(p0.history),
            "frames": net.delivered, "decks": len(p0.decks),
            "audit_ok": all(p.audit_result and p.audit_result[0] for p in net.peers)}


def _spawn(args, out_dir: Path, label: str):
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    err = open(out_dir / f"{label}.err", "wb")
    return subprocess.Popen([sys.executable, "-m", "net.session.peer", *map(str, args), "--json"],
                            env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=err, text=True, bufsize=1)


def _wait_line(p, event: str, timeout: float = 30.0) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = p.stdout.readline()
        if not line:
            break
        if line.startswith("@ "):
            ev = json.loads(line[2:])
            if ev.get("event") == event:
                return ev
    raise RuntimeError(f"no {event} event")


def run_zmq(n: int, secret: str, level: str) -> dict:
    tmp = Path(os.environ.get("BENCH_DIR") or tempfile.mkdtemp(prefix="bench_net_"))
    procs = []
    try:
        nm = names(n)
        host = _spawn(["host", "--name", nm[0], "--players", n, "--bind", "127.0.0.1", "--port", 0,
                       "--level", level, "--data-dir", tmp / "p0", "--test-secret", secret,
                       "--latency-out", tmp / "0.json", "--timeout", 300], tmp, "p0")
        procs.append(host)
        addr = _wait_line(host, "lobby")["address"]
        for i in range(1, n):
            b = _spawn(["bot", "--join", addr, "--name", nm[i], "--bind", "127.0.0.1",
                        "--level", level, "--data-dir", tmp / f"p{i}", "--test-secret", secret,
                        "--latency-out", tmp / f"{i}.json", "--timeout", 300], tmp, f"p{i}")
            procs.append(b)
            _wait_line(b, "welcome")
        for p in procs:
            p.wait(timeout=300)
        data = [json.loads((tmp / f"{i}.json").read_text()) for i in range(n)]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
    t0 = min(d["t_session"] for d in data)
    wall = max(d["t_over"] for d in data) - t0
    first_place = max(d["t_first_place"] for d in data) - data[0]["t_lobby_close"]
    applied: dict[tuple, dict] = {}
    for d in data:
        for s, v, t in d["apply"]:
            applied.setdefault((s, v), {})[d["seat"]] = t
    sent = {(s, v): t for d in data for s, v, t in d.get("sent", [])}
    lat = []
    for (s, v), per in applied.items():
        if (s, v) in sent and len(per) == n:
            lat.append(max(per.values()) - sent[(s, v)])
    lat.sort()
    return {"wall_s": wall, "hash": data[0]["hash"], "hashes_agree": len({d["hash"] for d in data}) == 1,
            "commands": data[0]["history"], "lobby_to_first_place_s": first_place,
            "latency_ms": {"median": statistics.median(lat) * 1000 if lat else None,
                           "p99": lat[min(len(lat) - 1, int(0.99 * len(lat)))] * 1000 if lat else None,
                           "samples": len(lat)}}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--secret", default="bench-1")
    ap.add_argument("--level", default="random")
    args = ap.parse_args()
    mem = run_memory(args.players, args.secret, args.level)
    zmq_ = run_zmq(args.players, args.secret, args.level)
    print(json.dumps({
        "players": args.players, "bot": args.level,
        "memory_s": round(mem["wall_s"], 3), "memory_with_audit_s": round(mem["with_audit_s"], 3),
        "zmq_s": round(zmq_["wall_s"], 3),
        "ratio": round(zmq_["wall_s"] / mem["wall_s"], 2),
        "latency_ms": {k: (round(v, 3) if isinstance(v, float) else v)
                       for k, v in zmq_["latency_ms"].items()},
        "lobby_to_first_place_s": round(zmq_["lobby_to_first_place_s"], 3),
        "commands": mem["commands"], "frames_in_memory": mem["frames"], "decks": mem["decks"],
        "same_final_state": mem["hash"] == zmq_["hash"] and zmq_["hashes_agree"],
        "audit_ok": mem["audit_ok"],
        "targets": {"ratio": 2, "median_ms": 2, "lobby_to_first_place_s": 1},
    }, indent=2))


if __name__ == "__main__":
    main()
