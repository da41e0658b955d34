"""Shared by every suite: this checkout comes first on the path, so `tests.netns` and the
packages under test are the ones in this tree (also for processes the tests start)."""

import sys
from pathlib import Path

ROOT = str(Path(__file__).resolve().parents[1])
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
