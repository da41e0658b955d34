"""Soak test of the LAN session: seeded 4-5 player games of peer processes on
loopback, each with one random SIGKILL + `rejoin` and one random SIGSTOP (a suspended
laptop, 5-75 s by default), every game checked against the same game played
uninterrupted in memory.

    python scripts/soak.py [--games 50] [--seed S] [--stop 5,75] [--players 4,5]
                           [--pace 0.01] [--level random] [--keep DIR]
                           [--kill-phase 2,24 | --kill-end]

``--kill-phase LO,HI``: the SIGKILL falls after a random number of phase events in that
range (seen by a watcher peer).  ``--kill-end``: the victim dies at the very end instead,
right after the step that sent its last messages (the peer run by
tests/session/misbehave.py ``die-at-end``), and is rejoined once the others saw it
disconnected: the others have finished meanwhile.

One JSON line per game, then a summary line:
    {"games", "finished", "hashes_agree", "same_as_uninterrupted", "audits_pass",
     "false_cheat_alerts", "false_alerts", "faults": {"kills", "stops"}, "wall_s"}
``false_cheat_alerts`` counts cheat alerts of every peer (no peer misbehaves here, so any
is false); ``false_alerts`` adds desync and error alerts.  On a machine others share,
run it under a lock the heavy jobs agree on (``flock LOCKFILE python scripts/soak.py
--games 5``): its timings stretch under load.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

FALSE = ("cheat", "desync", "error")


class Proc:
    """A `python -m client.peer ... --json` process and the events it printed."""

    def __init__(self, args: list, err: Path, prefix: list = ()) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"]
                                         if env.get("PYTHONPATH") else "")
        self.err = open(err, "ab")
        # prefix: a test wrapper that runs the peer in its own process (tests/session)
        self.p = subprocess.Popen([*prefix, sys.executable, "-m", "client.peer",
                                   *map(str, args),
                                   "--json"], env=env, stdin=subprocess.DEVNULL,
                                  stdout=subprocess.PIPE, stderr=self.err, text=True, bufsize=1)
        self.events: list[dict] = []
        self.q: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.p.stdout:
            if line.startswith("@ "):
                try:
                    ev = json.loads(line[2:])
                except ValueError:
                    continue
                self.events.append(ev)
                self.q.put(ev)
        self.q.put(None)

    def wait_for(self, match, timeout: float):
        """The first event (printed or to come) matching, or None at the deadline."""
        for ev in list(self.events):
            if match(ev):
                return ev
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                ev = self.q.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                return None
            if ev is None:
                return None
            if match(ev):
                return ev
        return None

    def result(self) -> dict | None:
        for ev in reversed(self.events):
            if ev.get("event") == "result":
                return ev
        return None

    def signal(self, sig) -> None:
        if self.p.poll() is None:
            try:
                self.p.send_signal(sig)
            except ProcessLookupError:
                pass

    def kill(self) -> None:
        self.signal(signal.SIGCONT)
        self.signal(signal.SIGKILL)
        try:
            self.p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
        self.err.close()


def reference_hash(n: int, secret: str, level: str, names: list) -> str:
    """The same game uninterrupted, in memory (same masters, same bots, same names)."""
    import belfort
    from net.session.memnet import MemoryNetwork
    net = MemoryNetwork.create(n, seed=secret, level=level, names=names)
    net.start()
    net.run(max_idle=400)
    return belfort.state_hash(net.peers[0].game) if net.peers[0].status == "over" else ""


def phase_round(proc: Proc):
    rounds = [ev["round"] for ev in proc.events if ev.get("event") == "phase"]
    return rounds[-1] if rounds else None


def phase_count(proc: Proc) -> int:
    return sum(1 for ev in proc.events if ev.get("event") == "phase")


def play(g: int, args, work: Path) -> dict:
    rng = random.Random(f"{args.seed}/{g}")
    n = rng.choice(args.players)
    secret = f"soak-{args.seed}-{g}"
    d = work / f"g{g}"
    d.mkdir(parents=True)
    names = ["Ana"] + [f"Bot{i}" for i in range(1, n)]
    common = ["--level", args.level, "--pace", args.pace, "--timeout", args.game_timeout,
              "--test-secret", secret]
    t0 = time.monotonic()
    procs: dict[int, Proc] = {}
    data: dict[int, str] = {}
    report = {"game": g, "players": n, "kill": None, "stop": None}
    end_seat = rng.randrange(n) if args.kill_end else None
    # the seat that dies at the end runs under the tests' crash wrapper
    die = lambda s: [sys.executable, "-m", "tests.session.misbehave", "die-at-end",  # noqa: E731
                     "--"] if s == end_seat else []
    try:
        procs[0] = Proc(["host", "--name", "Ana", "--players", n, "--bind", "127.0.0.1",
                         "--port", 0, "--data-dir", d / "p0", *common], d / "p0.err", die(0))
        lobby = procs[0].wait_for(lambda ev: ev.get("event") == "lobby", 30)
        if lobby is None:
            raise RuntimeError("the host printed no lobby")
        for s in range(1, n):
            procs[s] = Proc(["bot", "--join", lobby["address"], "--name", names[s], "--bind",
                             "127.0.0.1", "--data-dir", d / f"p{s}", *common],
                            d / f"p{s}.err", die(s))
            if procs[s].wait_for(lambda ev: ev.get("event") == "welcome", 30) is None:
                raise RuntimeError(f"seat {s} was not welcomed")
        for s, p in procs.items():
            ev = p.wait_for(lambda ev: ev.get("event") == "started", 30)
            if ev is None:
                raise RuntimeError(f"seat {s} did not start")
            data[s] = ev["data"]
        kill_seat, stop_seat = rng.sample(range(n), 2)
        if end_seat is not None:
            kill_seat, stop_seat = end_seat, rng.choice([s for s in range(n) if s != end_seat])
        watcher = next(s for s in range(n) if s not in (kill_seat, stop_seat))
        faults = [("kill", kill_seat, rng.randint(*args.kill_phase)),
                  # (with --kill-end, well before the end: the end waits for the victim)
                  ("stop", stop_seat, rng.randint(2, 20 if end_seat is not None else 24))]
        faults.sort(key=lambda f: f[2])
        if end_seat is not None:
            faults = [faults[0] if faults[0][0] == "stop" else faults[1], ("end", end_seat, 0)]
        stop_s = round(rng.uniform(*args.stop), 1)
        w = procs[watcher]
        for kind, seat, at in faults:
            if kind == "end":
                try:
                    procs[seat].p.wait(timeout=args.game_timeout)
                except subprocess.TimeoutExpired:
                    continue
                if procs[seat].p.returncode != 9:
                    continue        # it did not die at the end (it was stopped first?)
                w.wait_for(lambda ev: ev.get("kind") == "disconnect" and ev.get("seat") == seat,
                           10)
                procs[seat].kill()
                procs[seat] = Proc(["rejoin", "--dir", data[seat], "--pace", args.pace,
                                    "--timeout", args.game_timeout], d / f"p{seat}.err")
                report["kill"] = {"seat": seat, "at": "end", "round": phase_round(w)}
                continue
            reached = w.wait_for(lambda ev: ev.get("event") == "phase" and phase_count(w) >= at,
                                 args.game_timeout)
            if reached is None or procs[seat].p.poll() is not None:
                continue        # the game ended first: this fault did not happen
            when = {"seat": seat, "phase_events": at, "round": reached["round"]}
            if kind == "kill":
                procs[seat].kill()
                w.wait_for(lambda ev: ev.get("kind") == "disconnect" and ev.get("seat") == seat,
                           10)
                procs[seat] = Proc(["rejoin", "--dir", data[seat], "--pace", args.pace,
                                    "--timeout", args.game_timeout], d / f"p{seat}.err")
                report["kill"] = when
            else:
                procs[seat].signal(signal.SIGSTOP)
                time.sleep(stop_s)        # the length of the suspend is the scenario
                procs[seat].signal(signal.SIGCONT)
                report["stop"] = {**when, "seconds": stop_s}
        deadline = time.monotonic() + args.game_timeout
        for p in procs.values():
            try:
                p.p.wait(timeout=max(1.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
    except RuntimeError as exc:
        report["problem"] = str(exc)
    finally:
        for p in procs.values():
            p.kill()
    results = [p.result() for p in procs.values()]
    done = [r for r in results if r is not None]
    ref = reference_hash(n, secret, args.level, names)
    alerts = [a for r in done for a in r.get("alerts", [])]
    report.update({
        "finished": len(done) == n and all(r["status"] == "over" for r in done),
        "hashes_agree": len(done) == n and len({r["hash"] for r in done}) == 1,
        "same_as_uninterrupted": len(done) == n and {r["hash"] for r in done} == {ref},
        "audits_pass": len(done) == n and all(r.get("audit") and r["audit"][0] for r in done),
        "false_cheat_alerts": sum(1 for a in alerts if a["kind"] == "cheat"),
        "false_alerts": sum(1 for a in alerts if a["kind"] in FALSE),
        "alert_texts": sorted({a["text"][:120] for a in alerts if a["kind"] in FALSE})[:5],
        "rcs": [p.p.returncode for p in procs.values()],
        "wall_s": round(time.monotonic() - t0, 1)})
    return report


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--seed", default="soak")
    ap.add_argument("--players", default="4,5", help="player counts to draw from")
    ap.add_argument("--stop", default="5,75", help="SIGSTOP length range, seconds")
    ap.add_argument("--pace", type=float, default=0.01, help="bots' pace (s per decision)")
    ap.add_argument("--level", default="random")
    ap.add_argument("--game-timeout", type=float, default=400.0)
    ap.add_argument("--kill-phase", default="2,24",
                    help="the SIGKILL falls after LO..HI phase events (range)")
    ap.add_argument("--kill-end", action="store_true",
                    help="the victim dies at the very end of the game instead (see above)")
    ap.add_argument("--keep", help="keep the games' files here (default: a temporary dir)")
    args = ap.parse_args(argv)
    args.players = [int(x) for x in args.players.split(",")]
    args.stop = tuple(float(x) for x in args.stop.split(","))
    args.kill_phase = tuple(int(x) for x in args.kill_phase.split(","))
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="belfort-soak-"))
    t0 = time.monotonic()
    reports = []
    try:
        for g in range(args.games):
            r = play(g, args, work)
            reports.append(r)
            print(json.dumps(r), flush=True)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    count = lambda key: sum(1 for r in reports if r.get(key))  # noqa: E731
    print(json.dumps({"games": len(reports), "finished": count("finished"),
                      "hashes_agree": count("hashes_agree"),
                      "same_as_uninterrupted": count("same_as_uninterrupted"),
                      "audits_pass": count("audits_pass"),
                      "false_cheat_alerts": sum(r["false_cheat_alerts"] for r in reports),
                      "false_alerts": sum(r["false_alerts"] for r in reports),
                      "faults": {"kills": count("kill"), "stops": count("stop")},
                      "stop_s": list(args.stop),
                      "kill": "end" if args.kill_end else list(args.kill_phase),
                      "wall_s": round(time.monotonic() - t0, 1)}), flush=True)
    ok = all(r["finished"] and r["same_as_uninterrupted"] and r["audits_pass"]
             and r["false_alerts"] == 0 for r in reports)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
