"""Helpers for the session tests: peer processes with timeouts, killed in teardown."""

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

ROOT = str(Path(__file__).resolve().parents[2])
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)


class PeerProc:
    """A `python -m net.session.peer ... --json` process; its '@ {json}' lines are events."""

    def __init__(self, args, log_dir: Path, label: str) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = ROOT + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        self.label = label
        self.args = args
        self.err_path = log_dir / f"{label}.err"
        self.err = open(self.err_path, "ab")
        self.p = subprocess.Popen([sys.executable, "-m", "net.session.peer", *args, "--json"],
                                  env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                  stderr=self.err, text=True, bufsize=1)
        self.events: list[dict] = []
        self.q: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.p.stdout:
            if line.startswith("@ "):
                try:
                    ev = json.loads(line[2:])
                except ValueError:
                    continue
                self.events.append(ev)
                self.q.put(ev)
        self.q.put(None)

    def wait_event(self, name: str, timeout: float = 30.0) -> dict:
        for ev in self.events:
            if ev.get("event") == name:
                return ev
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                ev = self.q.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                break
            if ev is None:
                break
            if ev.get("event") == name:
                return ev
        raise AssertionError(f"{self.label}: no {name!r} event; events: {self.events[-5:]}; "
                             f"stderr: {self.err_path.read_text()[-2000:]}")

    def result(self, timeout: float = 60.0) -> dict:
        try:
            self.p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise AssertionError(f"{self.label} did not finish in {timeout} s; last events: "
                                 f"{self.events[-5:]}; stderr: {self.err_path.read_text()[-2000:]}")
        time.sleep(0.05)
        for ev in reversed(self.events):
            if ev.get("event") in ("result", "error"):
                ev = dict(ev)
                ev["rc"] = self.p.returncode
                return ev
        raise AssertionError(f"{self.label} exited {self.p.returncode} without a result; "
                             f"stderr: {self.err_path.read_text()[-2000:]}")

    def kill(self, sig=signal.SIGKILL) -> None:
        if self.p.poll() is None:
            try:
                self.p.send_signal(sig)
            except ProcessLookupError:
                pass
            try:
                self.p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass


@pytest.fixture
def spawn(tmp_path):
    procs: list[PeerProc] = []

    def make(*args, label=None):
        pp = PeerProc([str(a) for a in args], tmp_path, label or f"p{len(procs)}")
        procs.append(pp)
        return pp

    make.dir = tmp_path
    yield make
    for pp in procs:
        pp.kill()
        pp.err.close()
    # bots a host started on its own
    out = subprocess.run(["pgrep", "-f", f"--data-dir {tmp_path}"], capture_output=True, text=True)
    for pid in out.stdout.split():
        try:
            os.kill(int(pid), signal.SIGKILL)
        except (ProcessLookupError, ValueError):
            pass
