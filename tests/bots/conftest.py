"""Make the work tree and the bots' test helpers (bots_golden.py) importable however
pytest is started."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
for path in (str(HERE.parents[1]), str(HERE)):
    if path not in sys.path:
        sys.path.insert(0, path)
