"""Make the repository importable however pytest is started (the net tests
import `net.crypto` from the work tree, not from an installed copy)."""

import sys
from pathlib import Path

ROOT = str(Path(__file__).resolve().parents[2])
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
