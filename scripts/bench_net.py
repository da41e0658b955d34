"""Networked-game benchmark: the same seeded bot game played twice, at 2, 3, 4 and 5 players.

1. n SessionPeers in this process exchanging their frames in memory (n engines, all the
   signatures and the whole mental-poker deck: all the work but the network — each peer
   validates the curve points it receives with its own cache, as a peer process does);
2. n peer processes (``python -m client.peer``) over loopback ZeroMQ with CurveZMQ.

Both use the same fixed secrets (so the same shared seed, deck order and bot choices) and
must reach the same final state hash.  Prints one JSON line per player count:

    memory_s / zmq_s    wall time from the first session message to game over on every
                        peer (lobby and process start-up excluded); ratio = zmq_s / memory_s
                        (with --repeat R: the median of R runs of each)
    latency_ms          median and p99, over every ordinary (non-simultaneous) command, of the
                        time from the command's sending (just before it is signed) to its
                        application on the last peer (one clock: CLOCK_MONOTONIC is machine-wide);
                        the targets apply to this one
    latency_each_peer_ms   the same time to each receiving peer (what one player waits to
                        see another's move), over every (command, receiving peer) pair
    lobby_to_first_place_s   host closes the lobby -> first placement applied on every peer
    exit_s              game over on the last peer -> the last peer process has exited
    loadavg             the machine's 1-minute load average before and after (the latency is
                        only comparable between runs under a like load)
    receiver_cpu_ms_per_command   CPU time a peer spends per command of the others, median
                        over the peers: "memory" counts the CPU time in each peer's receive
                        (a frame and all it leads to, deck messages included) divided by the
                        others' commands it applied; "zmq" each peer process's CPU time, every
                        thread (ZeroMQ's I/O thread decrypting CurveZMQ), from the session's
                        start to its game over, divided the same way (its own decisions too);
                        "memory_sess_cmd_frame" the CPU time of receiving one sess/cmd frame
                        (its checks, the engine step, and what the peer does in answer)

    python scripts/bench_net.py [--players 2,3,4,5] [--repeat 1] [--secret bench-1]
                                [--level random] [--root DIR] [--pace 0]

``--pace S`` has the bots of the process run wait S seconds before each decision, as a
person would: the latency of a table whose machine is not saturated (the ratio is then
meaningless and no target is checked; the targets are for the default, pace 0).

``--root DIR`` runs another checkout's code (e.g. the main branch, for a side-by-side).
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

HERE = Path(__file__).resolve().parents[1]
TARGETS = {"ratio": 1.2, "median_ms": {2: 1.0, 3: 1.0, 4: 2.0, 5: 2.0}}


def names(n):
    return [f"P{i}" for i in range(n)]


def run_memory(n: int, secret: str, level: str) -> dict:
    import belfort
    from net.session.memnet import MemoryNetwork

    from net.session.intake import peek

    class Timed(MemoryNetwork):
        """Each peer's CPU time spent receiving (the frame and all it leads to), and the
        part of it spent on the frames that carry a command (sess/cmd)."""
        cpu: list
        cmd_cpu: list

        def deliver(self, src: int, dst: int, data: bytes) -> None:
            is_cmd = peek(data)["type"] == "sess/cmd"
            t = time.process_time()
            super().deliver(src, dst, data)
            t = time.process_time() - t
            self.cpu[dst] += t
            if is_cmd:
                self.cmd_cpu[dst][0] += t
                self.cmd_cpu[dst][1] += 1

    net = Timed.create(n, seed=secret, names=names(n), level=level,
                       clock=time.perf_counter, own_point_caches=True)
    net.cpu = [0.0] * n
    net.cmd_cpu = [[0.0, 0] for _ in range(n)]
    t0 = time.perf_counter()
    net.start()
    net.run(until=lambda: all(p.status in ("over", "stopped") for p in net.peers))
    t_over = time.perf_counter()
    net.run()
    p0 = net.peers[0]
    assert all(p.status == "over" for p in net.peers), [p.stop_reason for p in net.peers]
    received = [sum(1 for s, _c in p.history if s != p.seat) for p in net.peers]
    return {"wall_s": t_over - t0, "hash": belfort.state_hash(p0.game),
            "commands": len(p0.history), "frames": net.delivered,
            "cpu_ms_per_command": statistics.median(
                1000 * c / r for c, r in zip(net.cpu, received) if r),
            "cmd_frame_cpu_ms": statistics.median(1000 * c / k for c, k in net.cmd_cpu if k),
            "audit_ok": all(p.audit_result and p.audit_result[0] for p in net.peers)}


def _spawn(root: Path, args, out_dir: Path, label: str):
    env = dict(os.environ)
    env["PYTHONPATH"] = str(root) + (os.pathsep + env["PYTHONPATH"]
                                     if env.get("PYTHONPATH") else "")
    err = open(out_dir / f"{label}.err", "wb")
    return subprocess.Popen([sys.executable, "-m", "client.peer", *map(str, args), "--json"],
                            env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=err, text=True, bufsize=1, cwd=str(root))


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


def run_zmq(root: Path, n: int, secret: str, level: str, pace: float = 0.0) -> dict:
    tmp = Path(tempfile.mkdtemp(prefix="bench_net_", dir=os.environ.get("BENCH_DIR")))
    procs = []
    try:
        nm = names(n)
        host = _spawn(root, ["host", "--name", nm[0], "--players", n, "--bind", "127.0.0.1",
                             "--port", 0, "--level", level, "--data-dir", tmp / "p0",
                             "--test-secret", secret, "--latency-out", tmp / "0.json",
                             "--timeout", 300, "--pace", pace], tmp, "p0")
        procs.append(host)
        addr = _wait_line(host, "lobby")["address"]
        for i in range(1, n):
            b = _spawn(root, ["bot", "--join", addr, "--name", nm[i], "--bind", "127.0.0.1",
                              "--level", level, "--data-dir", tmp / f"p{i}", "--test-secret",
                              secret, "--latency-out", tmp / f"{i}.json", "--timeout", 300,
                              "--pace", pace],
                       tmp, f"p{i}")
            procs.append(b)
            _wait_line(b, "welcome")
        for p in procs:
            p.stdout.read()          # keep the pipe drained until the process exits
            p.wait(timeout=300)
        t_exit = time.monotonic()
        data = [json.loads((tmp / f"{i}.json").read_text()) for i in range(n)]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
    t0 = min(d["t_session"] for d in data)
    t_over = max(d["t_over"] for d in data)
    first_place = max(d["t_first_place"] for d in data) - data[0]["t_lobby_close"]
    applied: dict[tuple, dict] = {}
    for d in data:
        for s, v, t in d["apply"]:
            applied.setdefault((s, v), {})[d["seat"]] = t
    sent = {(s, v): t for d in data for s, v, t in d.get("sent", [])}
    done = [(per, sent[(s, v)], s) for (s, v), per in applied.items()
            if (s, v) in sent and len(per) == n]
    lat = [max(per.values()) - t for per, t, _s in done]
    # each receiver's process CPU time (all its threads) from the session's start to its
    # game over, per command of the others it applied (its own decisions are included)
    cpu = [1000 * (d["cpu_over"] - d["cpu_session"]) /
           sum(1 for s, _v, _t in d["apply"] if s != d["seat"])
           for d in data if d.get("cpu_over") is not None and d.get("cpu_session") is not None]
    each = [at - t for per, t, s in done for seat, at in per.items() if seat != s]
    (median_ms, p99_ms), (each_median_ms, each_p99_ms) = _median_p99_ms(lat), _median_p99_ms(each)
    return {"wall_s": t_over - t0, "hash": data[0]["hash"],
            "hashes_agree": len({d["hash"] for d in data}) == 1,
            "lobby_to_first_place_s": first_place, "exit_s": t_exit - t_over,
            "median_ms": median_ms, "p99_ms": p99_ms,
            "each_median_ms": each_median_ms, "each_p99_ms": each_p99_ms,
            "samples": len(lat),
            "cpu_ms_per_command": statistics.median(cpu) if cpu else None}


def _median_p99_ms(seconds: list) -> tuple:
    """(median, p99) of durations in seconds, in ms; (None, None) for none."""
    if not seconds:
        return None, None
    s = sorted(seconds)
    return statistics.median(s) * 1000, s[min(len(s) - 1, int(0.99 * len(s)))] * 1000


def _load() -> float | None:
    try:
        return os.getloadavg()[0]
    except OSError:
        return None


def bench(root: Path, n: int, secret: str, level: str, repeat: int, pace: float = 0.0) -> dict:
    load_before = _load()
    mems = [run_memory(n, secret, level) for _ in range(repeat)]
    zmqs = [run_zmq(root, n, secret, level, pace) for _ in range(repeat)]
    mem_s = statistics.median(m["wall_s"] for m in mems)
    zmq_s = statistics.median(z["wall_s"] for z in zmqs)

    def med(key):
        vals = [z[key] for z in zmqs if z[key] is not None]
        return round(statistics.median(vals), 3) if vals else None
    median_ms = med("median_ms")
    ratio = zmq_s / mem_s
    return {
        "players": n, "bot": level, "pace_s": pace, "code": str(root), "runs": repeat,
        "memory_s": round(mem_s, 3), "zmq_s": round(zmq_s, 3), "ratio": round(ratio, 2),
        "latency_ms": {"median": median_ms, "p99": med("p99_ms"), "samples": zmqs[0]["samples"]},
        "latency_each_peer_ms": {"median": med("each_median_ms"), "p99": med("each_p99_ms")},
        "lobby_to_first_place_s": med("lobby_to_first_place_s"), "exit_s": med("exit_s"),
        "receiver_cpu_ms_per_command": {
            "memory": round(statistics.median(m["cpu_ms_per_command"] for m in mems), 4),
            "memory_sess_cmd_frame": round(statistics.median(m["cmd_frame_cpu_ms"]
                                                             for m in mems), 4),
            "zmq": med("cpu_ms_per_command")},
        "loadavg": [load_before, _load()],
        "commands": mems[0]["commands"], "frames_in_memory": mems[0]["frames"],
        "same_final_state": all(m["hash"] == z["hash"] and z["hashes_agree"]
                                for m in mems for z in zmqs),
        "audit_ok": all(m["audit_ok"] for m in mems),
        "targets": {"ratio": TARGETS["ratio"], "median_ms": TARGETS["median_ms"][n]},
        "meets_targets": pace == 0 and ratio <= TARGETS["ratio"] and median_ms is not None
        and median_ms <= TARGETS["median_ms"][n],
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", default="2,3,4,5", help="player counts, comma-separated")
    ap.add_argument("--repeat", type=int, default=1, help="runs of each (the median is shown)")
    ap.add_argument("--secret", default="bench-1")
    ap.add_argument("--level", default="random")
    ap.add_argument("--root", default=str(HERE), help="the checkout whose code is measured")
    ap.add_argument("--pace", type=float, default=0.0,
                    help="bots wait this long before each decision in the process run (the "
                         "latency of a table that is not saturated; no targets then)")
    args = ap.parse_args()
    root = Path(args.root).resolve()
    sys.path.insert(0, str(root))
    for n in [int(x) for x in args.players.split(",")]:
        print(json.dumps(bench(root, n, args.secret, args.level, max(1, args.repeat), args.pace)),
              flush=True)


if __name__ == "__main__":
    main()
