"""One process per stored game: two would share one identity and fight over one seat.

Starting the same joiner twice used to end in raw JSON and "cannot bind our mesh
address": both processes held the same identity and fought over one seat.  A process
that plays a game holds an exclusive lock on a file named after what it plays — the
lobby it joins, then the game's directory — for as long as it lives; a second one is
refused at once with a sentence.  The lock is the kernel's (``flock``): it goes away with
the process, so a crash never leaves a stale lock behind.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from net.node.files import PathArg
from net.session.msgs import N_, Msg

try:
    import fcntl
except ImportError:            # pragma: no cover - not POSIX: no protection, no failure
    fcntl = None  # type: ignore[assignment]

LOCK_NAME = "running.lock"


class AlreadyRunning(Exception):
    """Another process on this machine plays this game; the text says so."""


class RunningLock:
    """An exclusive lock held until ``release`` (or the process ends)."""

    def __init__(self, path: Path, what: str) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.fd: int | None = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        if fcntl is not None:
            try:
                fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                other = _read_pid(self.fd)
                os.close(self.fd)
                self.fd = None
                raise AlreadyRunning(Msg(N_(
                    "{what} is already running in another process on this machine (pid "
                    "{pid}): use that window, or stop it first") if other else N_(
                    "{what} is already running in another process on this machine: use that "
                    "window, or stop it first"), what=what, pid=other)) from None
        os.ftruncate(self.fd, 0)
        os.write(self.fd, str(os.getpid()).encode())

    def release(self) -> None:
        if self.fd is not None:
            os.close(self.fd)          # closing drops the flock
            self.fd = None


def _read_pid(fd: int) -> str:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return ""
    return text if text.isascii() and text.isdigit() else ""


def lock_game(game_dir: PathArg) -> RunningLock:
    """Hold the game stored in ``game_dir``; AlreadyRunning if another process does."""
    return RunningLock(Path(game_dir) / LOCK_NAME, Msg(N_("the game in {dir}"), dir=str(game_dir)))


def holder(game_dir: PathArg) -> int | None:
    """The pid of the live process holding the game in ``game_dir`` (-1: unknown), or
    None when no process plays it (a dead bot to restart, a seat to rejoin)."""
    path = Path(game_dir) / LOCK_NAME
    if fcntl is None or not path.exists():
        return None
    fd = os.open(path, os.O_RDONLY)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError:
            pid = _read_pid(fd)
            return int(pid) if pid else -1
        return None
    finally:
        os.close(fd)


def lock_lobby(data_dir: PathArg, address: str, name: str | None = None) -> RunningLock:
    """Hold 'joining ``address`` (as ``name``) from this data directory': the same join
    twice is refused; another player's join from this machine takes its own profile."""
    what = address if name is None else address + "\0" + name
    tag = hashlib.sha256(what.encode()).hexdigest()[:16]
    return RunningLock(Path(data_dir) / "running" / f"join-{tag}.lock",
                       f"belfort join {address}")


PROFILE_LOCK = "profile.lock"
PROFILES = "profiles"
MAX_PROFILES = 16


def profile_dir(data_dir: PathArg, number: int) -> Path:
    """Profile 1 is the data directory itself; the others live under it."""
    return Path(data_dir) if number == 1 else Path(data_dir) / PROFILES / str(number)


def take_profile(data_dir: PathArg) -> tuple[Path, RunningLock]:
    """A profile of ``data_dir`` (an identity key and its seats) no other live process
    uses: the data directory itself if it is free, else the first free one under it.
    Two belfort processes of one user on one machine (a host and a joiner trying the LAN
    game on one laptop) would otherwise sign as the same player."""
    for number in range(1, MAX_PROFILES + 1):
        where = profile_dir(data_dir, number)
        try:
            return where, RunningLock(where / PROFILE_LOCK, str(where))
        except AlreadyRunning:
            continue
    raise AlreadyRunning(Msg(N_("{n} belfort processes already play from {dir} on this "
                                "machine: stop one first"), n=MAX_PROFILES, dir=str(data_dir)))


def profiles(data_dir: PathArg) -> list[Path]:
    """Every profile of ``data_dir`` that exists, the data directory itself first."""
    found = [Path(data_dir)]
    extra = Path(data_dir) / PROFILES
    if extra.is_dir():
        found += sorted((d for d in extra.iterdir() if d.is_dir() and d.name.isdigit()),
                        key=lambda d: int(d.name))
    return found
