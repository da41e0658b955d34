"""Shared by every suite: this checkout comes first on the path, so `tests.netns` and the
packages under test are the ones in this tree (also for processes the tests start).

The tests start hundreds of Python processes (peers, clients in tmux).  Where the
environment says not to write bytecode (PYTHONDONTWRITEBYTECODE), each of them would
compile every module from source again, a good part of its start-up; so compiled files
go to a cache of their own outside the work tree instead (PYTHONPYCACHEPREFIX), which
keeps the tree free of them as the setting intends."""

import os
import sys
import tempfile
from pathlib import Path

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
