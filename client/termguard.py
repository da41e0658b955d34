"""Nothing may write to the terminal behind the full-screen window's back.

prompt_toolkit owns the screen: a stray line written to it (a log record of the session,
a warning of a library, a traceback in a thread, a child process's complaint) shifts every
row until the next full redraw.  So the networked commands log to a file in the data
directory, and while the window is up the process's standard error — the file descriptor,
so threads, C libraries and child processes are caught too — is pointed at that file.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
from collections.abc import Iterator
from pathlib import Path

LOG_NAME = "belfort.log"


def log_path(data_dir: str | Path | None = None) -> Path:
    """Where a networked session's log records go: DATA_DIR/belfort.log."""
    if data_dir is None:
        from net.node.storage import default_data_dir
        data_dir = default_data_dir()
    return Path(data_dir) / LOG_NAME


def log_to_file(path: str | Path, level: int = logging.WARNING) -> None:
    """Send every log record to ``path`` (never to the terminal)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    root = logging.getLogger()
    for h in list(root.handlers):
        if isinstance(h, logging.StreamHandler) and not isinstance(h, logging.FileHandler):
            root.removeHandler(h)
    if not any(isinstance(h, logging.FileHandler) and Path(h.baseFilename) == path.resolve()
               for h in root.handlers):
        handler = logging.FileHandler(path, encoding="utf-8")
        handler.setFormatter(logging.Formatter("%(asctime)s %(name)s: %(message)s"))
        root.addHandler(handler)
    root.setLevel(level)


@contextlib.contextmanager
def stderr_into(path: str | Path) -> Iterator[None]:
    """While inside: file descriptor 2 (and sys.stderr) write to ``path``, appended."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        pass
    try:
        saved = os.dup(2)
    except OSError:          # no standard error at all: nothing can reach the terminal
        yield
        return
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        os.dup2(fd, 2)
        yield
    finally:
        try:
            sys.stderr.flush()
        except (OSError, ValueError, AttributeError):
            pass
        os.dup2(saved, 2)
        os.close(saved)
        os.close(fd)
