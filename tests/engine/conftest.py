"""Make the work tree importable however pytest is started, and the scenario helpers
(`tests/engine/scenario.py`) importable as `scenario`."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
for path in (str(HERE.parents[1]), str(HERE)):
    if path not in sys.path:
        sys.path.insert(0, path)
