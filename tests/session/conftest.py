"""Helpers for the session tests: peer processes with timeouts, killed in teardown.

Tests wait for the events a peer prints (``wait_event``, ``wait_for``), never for a fixed
time."""

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
    """A `python -m client.peer ... --json` process; its '@ {json}' lines are events."""

    def __init__(self, args, log_dir: Path, label: str, session: bool = False,
                 prefix=(), module: str = "client.peer") -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = ROOT + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        self.label = label
        self.args = args
        self.err_path = log_dir / f"{label}.err"
        self.err = open(self.err_path, "ab")
        # prefix: e.g. ["ip", "netns", "exec", NS] (it execs the peer: same pid)
        self.p = subprocess.Popen([*prefix, sys.executable, "-m", module, *args,
                                   "--json"],
                                  env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                  stderr=self.err, text=True, bufsize=1,
                                  start_new_session=session)   # its own "terminal" group
        self.events: list[dict] = []
        self.lines: list[str] = []      # what it printed for the person (not events)
        self.q: queue.Queue = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.p.stdout:
            if line.startswith("@ "):
                try:
                    ev = json.loads(line[2:])
                except ValueError:
                    continue
                self.events.append(ev)
                self.q.put(ev)
            else:
                self.lines.append(line.rstrip("\n"))
        self.q.put(None)

    def wait_event(self, name: str, timeout: float = 30.0) -> dict:
        return self.wait_for(lambda ev: ev.get("event") == name, timeout, repr(name))

    def wait_for(self, match, timeout: float = 30.0, what: str = "matching") -> dict:
        """The first event (already printed or to come) for which ``match(event)``."""
        for ev in list(self.events):
            if match(ev):
                return ev
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                ev = self.q.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                break
            if ev is None:
                break
            if match(ev):
                return ev
        raise AssertionError(f"{self.label}: no {what} event; events: {self.events[-5:]}; "
                             f"stderr: {self.err_path.read_text()[-2000:]}")

    def wait_round(self, round_: int, timeout: float = 30.0) -> dict:
        """Wait until the peer's game has reached round ``round_``."""
        return self.wait_for(lambda ev: ev.get("event") == "phase" and ev["round"] >= round_,
                             timeout, f"round {round_}")

    def result(self, timeout: float = 60.0) -> dict:
        try:
            self.p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise AssertionError(
                f"{self.label} did not finish in {timeout} s; last events: "
                f"{self.events[-5:]}; stderr: {self.err_path.read_text()[-2000:]}") from None
        self.reader.join(timeout=10)      # every line it printed has been read
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

    def make(*args, label=None, session=False, prefix=(), module="client.peer"):
        pp = PeerProc([str(a) for a in args], tmp_path, label or f"p{len(procs)}", session,
                      prefix, module)
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


@pytest.fixture
def ctx():
    """A ZeroMQ context for in-process sockets (lobbies on 127.0.0.1), closed at once."""
    import zmq
    from net.node.transport import end_context
    c = zmq.Context()
    yield c
    end_context(c, 0)         # (its authenticator's thread first, then the sockets)
