"""A peer's files for one game: the config, its secrets (0600) and its message log.

Layout, under the data directory (default ``~/.local/share/belfort``)::

    games/<game id>-<seat>/config.msgpack   the roster and options (GameConfig) + our seat
    games/<game id>-<seat>/secrets.msgpack  0600: identity key, CurveZMQ key pair, master secret
    games/<game id>-<seat>/log              every accepted envelope and our own decisions
    games/<game id>-<seat>/finished         written once the game is over and audited

The log is a sequence of records ``u32 length (big-endian) ‖ msgpack [kind, payload, mac]``:
``["in", envelope bytes]`` for each accepted envelope of another seat, in the order
it was accepted, ``["submit", command]`` for each decision of our own seat and
``["handoff", seat]`` for each handoff vote of ours.  ``mac`` is the first 16 bytes of
HMAC-SHA256(key, previous record's mac ‖ msgpack [kind, payload]) with a key derived
from our master secret: a record that passes it is one we wrote (and, for an envelope,
whose signature we checked when we received it), so a rejoin does not verify it again;
a record that fails it is damaged or foreign and is checked in full (core.restore).
Records without a mac (older logs) are checked in full too.
Each record is written with one ``write`` call before it is acted on (so it survives
the process being killed); the file is fsync'd at every phase boundary.  A torn
last record (power loss) is ignored and cut off.  Our own envelopes are not stored:
replaying the inputs re-creates them byte for byte (derive.py).
"""

from __future__ import annotations

import fcntl
import hashlib
import hmac
import os
import struct
import threading
from pathlib import Path

import msgpack

from .config import GameConfig
from .derive import derive_bytes

MAC_BYTES = 16
_MAC_TAIL = 2 + MAC_BYTES          # msgpack bin8 header + the mac


def log_key(master: bytes) -> bytes:
    """The key of the log's integrity check: ours alone, and the same after a restart."""
    return derive_bytes(master, "log-mac")


def _mac(key: bytes, prev: bytes, record: bytes) -> bytes:
    return hmac.new(key, prev + record, hashlib.sha256).digest()[:MAC_BYTES]


def default_data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "belfort"


def _write_private(path: Path, data: bytes) -> None:
    tmp = path.with_suffix(".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.chmod(tmp, 0o600)
    os.replace(tmp, path)


class GameStore:
    def __init__(self, directory: Path) -> None:
        self.dir = Path(directory)
        self._key: bytes | None = None     # the log's mac key (from the secrets file)
        self._last_mac = b""
        self._fd: int | None = None
        self._want_sync = threading.Event()
        self._syncer: threading.Thread | None = None
        self._lock = threading.Lock()
        self._held: int | None = None      # the seat's lock file, while we play it

    # ------------------------------------------------------------ creation
    @classmethod
    def create(cls, data_dir, config: GameConfig, seat: int, secrets: dict, extra: dict | None = None):
        d = Path(data_dir) / "games" / f"{config.game_id}-{seat}"
        d.mkdir(parents=True, exist_ok=True)
        os.chmod(d, 0o700)
        store = cls(d)
        if isinstance(secrets.get("master"), bytes):
            store._key = log_key(secrets["master"])
        _write_private(d / "secrets.msgpack", msgpack.packb(secrets, use_bin_type=True))
        meta = {"config": config.to_dict(), "seat": seat, **(extra or {})}
        _write_private(d / "config.msgpack", msgpack.packb(meta, use_bin_type=True))
        dfd = os.open(d, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
        return store

    # ------------------------------------------------------------ one process per seat
    def hold(self) -> bool:
        """Mark this seat as played by this process (an flock on ``lock``, released when
        the process ends, however it ends).  False if another live process holds it."""
        if self._held is not None:
            return True
        fd = os.open(self.dir / "lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return False
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
        self._held = fd
        return True

    def running(self) -> int | None:
        """The pid of the live process playing this seat, or None."""
        path = self.dir / "lock"
        if self._held is not None or not path.exists():
            return os.getpid() if self._held is not None else None
        fd = os.open(path, os.O_RDONLY)
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError:
            try:
                return int(os.read(fd, 32) or b"0") or -1
            except ValueError:
                return -1
        finally:
            os.close(fd)
        return None

    def load(self) -> tuple[GameConfig, int, dict, dict]:
        """(config, seat, secrets, meta)"""
        meta = msgpack.unpackb((self.dir / "config.msgpack").read_bytes(), raw=False)
        secrets = msgpack.unpackb((self.dir / "secrets.msgpack").read_bytes(), raw=False)
        return GameConfig.from_dict(meta["config"]), meta["seat"], secrets, meta

    # ------------------------------------------------------------ the log
    def _mac_key(self) -> bytes | None:
        if self._key is None:
            try:
                secrets = msgpack.unpackb((self.dir / "secrets.msgpack").read_bytes(), raw=False)
                self._key = log_key(secrets["master"])
            except Exception:
                return None
        return self._key

    def open_log(self) -> None:
        path = self.dir / "log"
        _records, valid, self._last_mac = self._scan(path)
        self._fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        if os.fstat(self._fd).st_size > valid:
            os.truncate(path, valid)

    def append(self, kind: str, payload) -> None:
        if self._fd is None:
            self.open_log()
        rec = msgpack.packb([kind, payload], use_bin_type=True)
        key = self._mac_key()
        if key is not None:
            # the same record with the mac as a third element (fixarray of 2 -> of 3)
            self._last_mac = _mac(key, self._last_mac, rec)
            rec = b"\x93" + rec[1:] + msgpack.packb(self._last_mac, use_bin_type=True)
        os.write(self._fd, struct.pack(">I", len(rec)) + rec)

    def sync(self, wait: bool = False) -> None:
        """fsync the log: by default in a background thread, so the game loop does not
        stall on the disk (fsync releases the GIL); ``wait`` does it here and now."""
        if self._fd is None:
            return
        if wait:
            with self._lock:
                if self._fd is not None:
                    os.fsync(self._fd)
            return
        if self._syncer is None:
            self._syncer = threading.Thread(target=self._sync_loop, daemon=True)
            self._syncer.start()
        self._want_sync.set()

    def _sync_loop(self) -> None:
        while True:
            self._want_sync.wait()
            self._want_sync.clear()
            with self._lock:
                if self._fd is None:
                    return
                try:
                    os.fsync(self._fd)
                except OSError:
                    return

    def close(self) -> None:
        with self._lock:
            if self._fd is not None:
                try:
                    os.fsync(self._fd)
                finally:
                    os.close(self._fd)
                    self._fd = None
        if self._syncer is not None:
            self._want_sync.set()
        if self._held is not None:
            os.close(self._held)          # (the lock goes with it)
            self._held = None

    def records(self) -> list[tuple[str, object, bool | None]]:
        """The log's records ``(kind, payload, checked)``: checked True if the record
        passed its integrity check, False if it failed it, None if it has none."""
        return self._scan(self.dir / "log")[0]

    def _scan(self, path: Path) -> tuple[list, int, bytes]:
        """(the records up to the first unreadable one, the length of the whole records
        (a torn tail excluded), the last readable record's mac)."""
        if not path.exists():
            return [], 0, b""
        data = path.read_bytes()
        key = self._mac_key()
        out, i, prev, readable = [], 0, b"", True
        while i + 4 <= len(data):
            (size,) = struct.unpack(">I", data[i:i + 4])
            if i + 4 + size > len(data):
                break           # a torn last record: the only thing ever cut off
            raw = data[i + 4:i + 4 + size]
            i += 4 + size
            if not readable:
                continue
            try:
                rec = msgpack.unpackb(raw, raw=False)
                kind, payload = rec[0], rec[1]
            except Exception:
                readable = False
                continue
            checked = None
            if len(rec) == 3 and isinstance(rec[2], bytes) and len(rec[2]) == MAC_BYTES \
                    and raw[:1] == b"\x93":
                mac = rec[2]
                checked = key is not None and \
                    hmac.compare_digest(_mac(key, prev, b"\x92" + raw[1:-_MAC_TAIL]), mac)
                prev = mac
            out.append((kind, payload, checked))
        return out, i, prev

    def mark_finished(self, summary: dict) -> None:
        _write_private(self.dir / "finished", msgpack.packb(summary, use_bin_type=True))

    @property
    def is_finished(self) -> bool:
        return (self.dir / "finished").exists()


def find_games(data_dir, lobby: str | None = None, unfinished: bool = True) -> list[GameStore]:
    """This machine's stored games, newest first (optionally those joined via ``lobby``)."""
    root = Path(data_dir) / "games"
    if not root.is_dir():
        return []
    found = []
    for d in root.iterdir():
        if not (d / "config.msgpack").exists() or not (d / "secrets.msgpack").exists():
            continue
        st = GameStore(d)
        if unfinished and st.is_finished:
            continue
        if lobby is not None:
            try:
                cfg = st.load()[0]
            except Exception:
                continue
            if cfg.lobby != lobby:
                continue
        found.append((d.stat().st_mtime, st))
    return [s for _, s in sorted(found, key=lambda x: -x[0])]
