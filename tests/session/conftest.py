"""Helpers for the session tests: peer processes with timeouts, killed in teardown.

Tests wait for the events a peer prints (``wait_event``, ``wait_for``), never for a fixed
time."""

import functools
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


@pytest.fixture(autouse=True, scope="session")
def shared_curve_products():
    """The in-memory peers of these tests all live in this process, and each one redoes the
    others' deck work to check it: the same elliptic-curve multiplications, n times over.
    Each product (a pure function of scalar and point) is remembered for the process, so
    the n peers pay for it once; a point is still validated on every use.  Real peers are
    processes of their own: this changes no result, and no benchmark (scripts/) uses it."""
    from net.crypto import curve
    real_mul, real_mul_all = curve.mul, curve.mul_all

    @functools.lru_cache(maxsize=1 << 14)
    def private_key(k):
        return curve.ec.derive_private_key(k, curve.CURVE)

    @functools.lru_cache(maxsize=1 << 17)
    def product(k, x):
        return private_key(k).exchange(curve.ECDH, curve._public_key(x))

    def mul(k, x):
        if curve._public_key(x) is None:
            raise ValueError("not a point of P-256")
        return product(k % curve.N, x)

    def mul_all(k, xs):
        return [product(k % curve.N, x) for x in xs]

    curve.mul, curve.mul_all = mul, mul_all       # mul_each calls mul
    yield
    curve.mul, curve.mul_all = real_mul, real_mul_all


@pytest.fixture(autouse=True, scope="session")
def shared_signature_checks():
    """Likewise every in-memory peer checks every envelope's Ed25519 signature: n - 1 checks
    of the same bytes under the same key.  A check that passed is remembered for the
    process (keyed by key, signature and signed bytes, so any changed byte is checked
    afresh and a bad signature still raises every time).  No result changes; real peers
    are processes of their own and no benchmark (scripts/) uses it."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
    from net.crypto import identity
    from net.session import core, intake
    passed = {}

    class RememberingKey:
        def __init__(self, raw: bytes) -> None:
            self.raw, self.key = raw, Ed25519PublicKey.from_public_bytes(raw)

        @classmethod
        def from_public_bytes(cls, raw: bytes) -> "RememberingKey":
            return cls(bytes(raw))

        def verify(self, sig: bytes, data: bytes) -> None:
            token = (self.raw, bytes(sig), bytes(data))
            if token in passed:
                return
            self.key.verify(sig, data)
            if len(passed) > 1 << 17:
                passed.clear()
            passed[token] = True

        def public_bytes(self, *args):
            return self.key.public_bytes(*args)

        def public_bytes_raw(self):
            return self.raw

    modules = (identity, intake, core)
    for module in modules:
        module.Ed25519PublicKey = RememberingKey
    yield
    for module in modules:
        module.Ed25519PublicKey = Ed25519PublicKey


class PeerProc:
    """A `python -m net.session.peer ... --json` process; its '@ {json}' lines are events."""

    def __init__(self, args, log_dir: Path, label: str, session: bool = False,
                 prefix=(), module: str = "net.session.peer") -> None:
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
            raise AssertionError(f"{self.label} did not finish in {timeout} s; last events: "
                                 f"{self.events[-5:]}; stderr: {self.err_path.read_text()[-2000:]}")
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

    def make(*args, label=None, session=False, prefix=(), module="net.session.peer"):
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
