"""Shared by every suite: this checkout comes first on the path, so `tests.netns` and the
packages under test are the ones in this tree (also for processes the tests start).

The tests start hundreds of Python processes (peers, clients in tmux).  Where the
environment says not to write bytecode (PYTHONDONTWRITEBYTECODE), each of them would
compile every module from source again, a good part of its start-up; so compiled files
go to a cache of their own outside the work tree instead (PYTHONPYCACHEPREFIX), which
keeps the tree free of them as the setting intends."""

import functools
import os
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = str(Path(__file__).resolve().parents[1])
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

if os.environ.get("PYTHONDONTWRITEBYTECODE") and not os.environ.get("PYTHONPYCACHEPREFIX"):
    _cache = os.path.join(tempfile.gettempdir(), f"belfort-pycache-{os.getuid()}")
    del os.environ["PYTHONDONTWRITEBYTECODE"]
    os.environ["PYTHONPYCACHEPREFIX"] = _cache    # inherited by every process started here
    sys.pycache_prefix = _cache                   # and this one's later imports
    sys.dont_write_bytecode = False


def pytest_collection_modifyitems(config, items):
    """Process tests (marked e2e) first, the rest after them in their usual order: with
    several workers (pytest-xdist, handed out one test at a time) the long waits on other
    processes start early, and the quick in-process tests fill the cores meanwhile rather
    than leaving one worker alone with a long test at the end."""
    items.sort(key=lambda item: item.get_closest_marker("e2e") is None)


@pytest.fixture(autouse=True, scope="session")
def shared_curve_products():
    """The in-memory peers of the tests (sessions, LAN windows, deck tables) all live in one
    process, and each one redoes the
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
    from net.session import core
    from net.session import intake
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
