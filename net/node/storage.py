"""A peer's files for one game: the config, its secrets (0600) and its message log.

Layout, under the data directory (default ``~/.local/share/belfort``)::

    games/<game id>-<seat>/config.msgpack   the roster and options (GameConfig) + our seat
    games/<game id>-<seat>/secrets.msgpack  0600, written once at the start: identity key,
                                            CurveZMQ key pair, master secret (+ a copy of
                                            the config, so these alone are enough)
    games/<game id>-<seat>/log              every accepted envelope and our own decisions
    games/<game id>-<seat>/log.damaged-N    a damaged log, kept aside (never overwritten)
    games/<game id>-<seat>/finished         written once the game is over and audited

config and secrets carry a header with their length and checksum (files.py).  The log
is a sequence of records ``u32 length (big-endian) ‖ msgpack [kind, payload, mac]``: first
``["head", {"format", "game", "seat"}]`` (whose log this is), then ``["in", envelope
bytes]`` for each accepted envelope of another seat, in the order it was accepted,
``["submit", command]`` for each decision of our own seat and ``["handoff", seat]`` for
each handoff vote of ours.  ``mac`` is the first 16 bytes of HMAC-SHA256(key, previous
record's mac ‖ msgpack [kind, payload]) with a key derived from our master secret: a
record that passes it is one we wrote (and, for an envelope, whose signature we checked
when we received it), so a rejoin does not verify it again.
Each record is written with one ``write`` call before it is acted on (so it survives
the process being killed); the file is fsync'd at every phase boundary.

A rejoin (``recover_log``) replays only the intact beginning of the log: the first
record that is cut off, unreadable, fails its mac or belongs to another game or seat
ends it, the whole file is kept aside as ``log.damaged-N`` and a new log holds the intact
records; the rest comes from the other peers, who hold every signed message of the game
(ours included).  Our own envelopes are not stored: replaying the inputs re-creates them
byte for byte (derive.py).
"""

from __future__ import annotations

import errno
import hashlib
import hmac
import os
import re
import struct
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Self

import msgpack

from net.session.config import GameConfig
from net.session.derive import derive_bytes
from .files import PathArg, StoreError, pack_file, read_file, set_aside, write_private
from net.session.msglog import LogWriteError
from net.session.msgs import N_, Msg

MAC_BYTES = 16
_MAC_TAIL = 2 + MAC_BYTES          # msgpack bin8 header + the mac
LOG_FORMAT = 1
_DIR_NAME = re.compile(r"^([0-9a-f]{32})-([0-9])$")


def log_key(master: bytes) -> bytes:
    """The key of the log's integrity check: ours alone, and the same after a restart."""
    return derive_bytes(master, "log-mac")


def _mac(key: bytes, prev: bytes, record: bytes) -> bytes:
    return hmac.new(key, prev + record, hashlib.sha256).digest()[:MAC_BYTES]


def default_data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local",
                                                           "share")
    return Path(base) / "belfort"


@dataclass
class _Scan:
    records: list = field(default_factory=list)   # (kind, payload, checked), "head" excluded
    intact: int = 0          # records (head included) before the first problem
    intact_bytes: int = 0    # their length in the file
    last_mac: bytes = b""    # the mac of the last intact record
    problem: str | None = None
    total: int = 0           # whole records in the file


class GameStore:
    def __init__(self, directory: Path, *, game_id: str | None = None, seat: int | None = None,
                 key: bytes | None = None) -> None:
        """``game_id``, ``seat``: a new game's (else read from the directory's name);
        ``key``: the log's mac key, for a new game."""
        self.dir = Path(directory)
        self.game_id: str | None = None
        self.seat: int | None = None
        self.notes: list[str] = []        # what load() repaired, for the person
        self._key: bytes | None = key      # the log's mac key (from the secrets file)
        self._last_mac = b""
        self._fd: int | None = None
        self._want_sync = threading.Event()
        self._syncer: threading.Thread | None = None
        self._lock = threading.Lock()
        self.failed: OSError | None = None   # a write or fsync of the log failed
        m = _DIR_NAME.match(self.dir.name)
        if m:
            self.game_id, self.seat = m.group(1), int(m.group(2))
        if game_id is not None:
            self.game_id, self.seat = game_id, seat

    @property
    def log_path(self) -> Path:
        return self.dir / "log"

    # ------------------------------------------------------------ creation
    @classmethod
    def create(cls, data_dir: PathArg, config: GameConfig, seat: int, secrets: dict,
               extra: dict | None = None) -> Self:
        d = Path(data_dir) / "games" / f"{config.game_id}-{seat}"
        d.mkdir(parents=True, exist_ok=True)
        os.chmod(d, 0o700)
        master = secrets.get("master")
        store = cls(d, game_id=config.game_id, seat=seat,
                    key=log_key(master) if isinstance(master, bytes) else None)
        meta = {"config": config.to_dict(), "seat": seat, **(extra or {})}
        # the secrets file alone is enough to come back: it holds a copy of the config
        kept = {**secrets, "game": config.game_id, "seat": seat, "config_copy": meta}
        write_private(d / "secrets.msgpack", pack_file("secrets", kept))
        write_private(d / "config.msgpack", pack_file("config", meta))
        dfd = os.open(d, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
        return store

    def save_meta(self, meta: dict) -> None:
        """Rewrite config.msgpack (e.g. our new mesh address after a network change)."""
        write_private(self.dir / "config.msgpack", pack_file("config", meta))

    def load(self) -> tuple[GameConfig, int, dict, dict]:
        """(config, seat, secrets, meta), or StoreError naming the file and what is wrong.
        A damaged or missing config.msgpack is rebuilt from the copy in the secrets file
        (the damaged one kept aside); ``notes`` says so."""
        self.notes = []
        sec_path, cfg_path = self.dir / "secrets.msgpack", self.dir / "config.msgpack"
        secrets = read_file(sec_path, "secrets")
        if not isinstance(secrets.get("master"), bytes) or len(secrets["master"]) != 32:
            raise StoreError(sec_path, Msg(N_("is damaged (it holds no master secret)")))
        try:
            meta = read_file(cfg_path, "config")
            cfg, seat = self._config(cfg_path, meta)
            self._ours(cfg_path, cfg, seat)
        except StoreError as exc:
            copy = secrets.get("config_copy")
            if not isinstance(copy, dict):
                raise
            cfg, seat = self._config(sec_path, copy)
            aside = set_aside(cfg_path) if cfg_path.exists() else None
            self.save_meta(copy)
            meta = copy
            self.notes.append(
                Msg(N_("{error}; rebuilt it from the copy in secrets.msgpack (the bad one is "
                       "kept as {aside})"), error=exc.args[0], aside=aside.name) if aside else
                Msg(N_("{error}; rebuilt it from the copy in secrets.msgpack"),
                    error=exc.args[0]))
        for key, want in (("game", cfg.game_id), ("seat", seat)):
            if key in secrets and secrets[key] != want:
                raise StoreError(sec_path, Msg(N_(
                    "belongs to game {game} seat {seat}, not to this game's seat {ours} "
                    "({ours_game}): another game's file"), game=secrets.get("game"),
                    seat=secrets.get("seat"), ours=seat, ours_game=cfg.game_id))
        self._ours(sec_path, cfg, seat)
        self.game_id, self.seat = cfg.game_id, seat
        self._key = log_key(secrets["master"])
        return cfg, seat, secrets, meta

    def _ours(self, path: PathArg, cfg: GameConfig, seat: int) -> None:
        """The directory's name says whose game this is."""
        if self.game_id is not None and (cfg.game_id, seat) != (self.game_id, self.seat):
            raise StoreError(path, Msg(N_("is the config of game {game} seat {seat}, but this "
                                          "directory is game {dir_game} seat {dir_seat}'s"),
                                       game=cfg.game_id, seat=seat, dir_game=self.game_id,
                                       dir_seat=self.seat))

    @staticmethod
    def _config(path: PathArg, meta: dict) -> tuple[GameConfig, int]:
        try:
            cfg = GameConfig.from_dict(meta["config"])
            seat = meta["seat"]
            if not isinstance(seat, int) or not 0 <= seat < cfg.n:
                raise ValueError(f"seat {seat!r} is not a seat of the game")
            return cfg, seat
        except (KeyError, TypeError, ValueError) as exc:
            raise StoreError(path, Msg(N_("is damaged (not a game config: {error})"),
                                       error=str(exc))) from None

    # ------------------------------------------------------------ the log
    def _mac_key(self) -> bytes | None:
        if self._key is None:
            try:
                self._key = log_key(read_file(self.dir / "secrets.msgpack", "secrets")["master"])
            except Exception:
                return None
        return self._key

    def recover_log(self, config: GameConfig | None = None, seat: int | None = None
                    ) -> tuple[list[tuple[str, Any, bool | None]], list[str]]:
        """For a rejoin: (the intact records to replay, notes for the person).  A damaged
        or foreign log is kept aside as ``log.damaged-N`` and a new one holds its intact
        records; nothing is cut off or dropped on disk."""
        if config is not None:
            self.game_id, self.seat = config.game_id, seat
        path = self.log_path
        if not path.exists():
            return [], [Msg(N_("{file}: missing: the whole game is fetched from the other "
                               "players"), file=str(path))]
        scan = self._scan(path)
        notes: list[str] = []
        if scan.problem is not None:
            aside = self._set_aside(scan)
            notes.append(Msg(N_("{file}: {problem}; the file is kept as {aside}; {n} intact "
                                "records are replayed and the rest is fetched from the other "
                                "players"), file=str(path), problem=scan.problem,
                             aside=aside.name, n=len(scan.records)))
        return scan.records, notes

    def _set_aside(self, scan: _Scan) -> Path:
        """Keep the whole damaged file; the log goes on from its intact records."""
        path = self.log_path
        data = path.read_bytes()[:scan.intact_bytes]
        aside = set_aside(path)
        write_private(path, data)
        return aside

    def open_log(self) -> None:
        path = self.log_path
        scan = self._scan(path)
        if scan.problem is not None:
            self._set_aside(scan)
        self._last_mac = scan.last_mac
        self._fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        if os.fstat(self._fd).st_size == 0 and self.game_id is not None:
            self.append("head", {"format": LOG_FORMAT, "game": self.game_id, "seat": self.seat})

    def append(self, kind: str, payload: Any) -> None:
        """Write one record, or raise LogWriteError (a full disk, an I/O error): then the
        file ends with the last whole record and nothing more is ever written to it by
        this store, so the log stays a consistent prefix of what this peer did."""
        if self.failed is not None:
            raise LogWriteError(self.log_path, self.failed)
        if self._fd is None:
            self.open_log()
        assert self._fd is not None, "open_log() opened it"
        rec = msgpack.packb([kind, payload], use_bin_type=True)
        key, prev = self._mac_key(), self._last_mac
        if key is not None:
            # the same record with the mac as a third element (fixarray of 2 -> of 3)
            self._last_mac = _mac(key, self._last_mac, rec)
            rec = b"\x93" + rec[1:] + msgpack.packb(self._last_mac, use_bin_type=True)
        size = os.fstat(self._fd).st_size
        try:
            self._write(struct.pack(">I", len(rec)) + rec)
        except OSError as exc:
            self._last_mac, self.failed = prev, exc
            try:        # a record half written (the space ran out inside it) is cut off
                os.ftruncate(self._fd, size)
            except OSError:
                pass    # a rejoin cuts a torn last record too (recover_log)
            raise LogWriteError(self.log_path, exc) from exc

    def _write(self, data: bytes) -> None:
        """All of ``data`` at the end of the log; a short write (the disk filling up) is
        continued, and raises OSError if nothing more goes in."""
        view = memoryview(data)
        assert self._fd is not None, "append() opened the log"
        while view:
            done = os.write(self._fd, view)
            if done <= 0:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            view = view[done:]

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
                except OSError as exc:
                    # the data did not reach the disk: the next record is refused
                    # (LogWriteError), so the peer stops before going further
                    self.failed = self.failed or exc
                    return

    def close(self) -> None:
        with self._lock:
            if self._fd is not None:
                try:
                    os.fsync(self._fd)
                except OSError as exc:     # closing anyway: what is on disk is a prefix
                    self.failed = self.failed or exc
                finally:
                    os.close(self._fd)
                    self._fd = None
        if self._syncer is not None:
            self._want_sync.set()

    def records(self) -> list[tuple[str, object, bool | None]]:
        """The log's readable records ``(kind, payload, checked)``: checked True if the
        record passed its integrity check, False if it failed it, None if it has none."""
        return self._scan(self.log_path, whole=True).records

    def _scan(self, path: Path, whole: bool = False) -> _Scan:
        """The intact records (or, ``whole``, every readable one) and the first problem."""
        scan = _Scan()
        if not path.exists():
            return scan
        data = path.read_bytes()
        key = self._mac_key()
        i, prev, index = 0, b"", 0

        def problem(text: str) -> None:
            if scan.problem is None:
                scan.problem = text
        while i < len(data):
            index += 1
            if i + 4 > len(data) or i + 4 + struct.unpack(">I", data[i:i + 4])[0] > len(data):
                problem(Msg(N_("it ends inside record {n} (cut off, or its length is "
                               "damaged)"), n=index))
                break
            (size,) = struct.unpack(">I", data[i:i + 4])
            raw = data[i + 4:i + 4 + size]
            i += 4 + size
            try:
                rec = msgpack.unpackb(raw, raw=False)
                kind, payload = rec[0], rec[1]
                if not isinstance(kind, str):
                    raise ValueError
            except Exception:
                problem(Msg(N_("record {n} is damaged (not readable)"), n=index))
                if whole:
                    continue
                break
            checked = None
            if len(rec) == 3 and isinstance(rec[2], bytes) and len(rec[2]) == MAC_BYTES \
                    and raw[:1] == b"\x93":
                mac = rec[2]
                checked = key is not None and \
                    hmac.compare_digest(_mac(key, prev, b"\x92" + raw[1:-_MAC_TAIL]), mac)
                prev = mac
            if scan.problem is None:
                why = self._wrong(index, kind, payload, checked)
                if why is not None:
                    problem(why)
            if scan.problem is not None and not whole:
                break
            if scan.problem is None:
                scan.intact, scan.intact_bytes, scan.last_mac = index, i, prev
            if kind != "head":
                scan.records.append((kind, payload, checked))
        scan.total = index
        return scan

    def _wrong(self, index: int, kind: str, payload: Any, checked: bool | None) -> str | None:
        """Why this record ends the intact part of the log, or None."""
        if kind == "head":
            if not isinstance(payload, dict):
                return Msg(N_("record {n} is damaged (a malformed header)"), n=index)
            game, seat = payload.get("game"), payload.get("seat")
            if self.game_id is not None and (game, seat) != (self.game_id, self.seat):
                return Msg(N_("it is the log of game {game} seat {seat}, not of this game's "
                              "seat {ours} ({ours_game})"), game=game, seat=seat,
                           ours=self.seat, ours_game=self.game_id)
        if checked is False:
            if index == 1:
                return Msg(N_("its records do not carry this seat's checksum: it is another "
                              "seat's or game's log, or damaged"))
            return Msg(N_("record {n} is damaged (its checksum does not match)"), n=index)
        return None

    def mark_finished(self, summary: dict) -> None:
        write_private(self.dir / "finished", msgpack.packb(summary, use_bin_type=True))

    @property
    def is_finished(self) -> bool:
        return (self.dir / "finished").exists()


def find_games(data_dir: PathArg, lobby: str | None = None,
               unfinished: bool = True) -> list[GameStore]:
    """This machine's stored games, newest first (optionally those joined via ``lobby``)."""
    root = Path(data_dir) / "games"
    if not root.is_dir():
        return []
    found = []
    for d in root.iterdir():
        # a game with a file missing is listed too: its rejoin says what is missing
        if not d.is_dir() or not ((d / "config.msgpack").exists() or
                                  (d / "secrets.msgpack").exists() or _DIR_NAME.match(d.name)):
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
