"""The small files of a stored game (``config.msgpack``, ``secrets.msgpack``) in a format
that tells damage from anything else, and the error every unusable file gets.

A file is one header line and a msgpack payload::

    BELFORT/<kind>/1 <payload length> <sha256 of the payload, hex>\\n<payload>

so a file cut short, a flipped byte, another kind of file or something that is not ours
at all each get their own message naming the file (``StoreError``), never a traceback.
Files written before this format (bare msgpack) are still read.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import TypeAlias

import msgpack

from net.session.msgs import N_, Msg

# A file or directory named the way the os module takes it.
PathArg: TypeAlias = "str | os.PathLike[str]"

MAGIC = b"BELFORT/"
VERSION = 1


class StoreError(Exception):
    """A stored file that cannot be used: ``str()`` names the file and what is wrong."""

    def __init__(self, path: PathArg, what: str) -> None:
        super().__init__(Msg(N_("{file}: {problem}"), file=str(path), problem=what))
        self.path, self.what = Path(path), what


def pack_file(kind: str, obj: object) -> bytes:
    payload = msgpack.packb(obj, use_bin_type=True)
    head = f"{kind}/{VERSION} {len(payload)} {hashlib.sha256(payload).hexdigest()}\n"
    return MAGIC + head.encode("ascii") + payload


def unpack_file(path: PathArg, data: bytes, kind: str) -> dict:
    """The dict a file of ``kind`` holds, or StoreError saying what is wrong with it."""
    if not data:
        raise StoreError(path, Msg(N_("is empty (it was cut off before anything was written)")))
    if not data.startswith(MAGIC):
        try:
            obj = msgpack.unpackb(data, raw=False)      # a file from before the header
        except Exception:
            obj = None
        if isinstance(obj, dict):
            return obj
        raise StoreError(path, Msg(N_("is not a belfort {kind} file (it does not start with "
                                      "{magic})"), kind=kind, magic=MAGIC.decode() + kind))
    end = data.find(b"\n", 0, 200)
    try:
        if end < 0:
            raise ValueError
        what, length_text, digest = data[len(MAGIC):end].decode("ascii").split(" ")
        got_kind, version_text = what.rsplit("/", 1)
        length, version = int(length_text), int(version_text)
    except ValueError:
        raise StoreError(path, Msg(N_("has a damaged header line"))) from None
    if got_kind != kind:
        raise StoreError(path, Msg(N_("is a belfort {got} file, not a {kind} file"),
                                   got=got_kind, kind=kind))
    if version > VERSION:
        raise StoreError(path, Msg(N_("was written by a newer belfort (format {version}; this "
                                      "one reads format {ours})"), version=version,
                                   ours=VERSION))
    payload = data[end + 1:]
    if len(payload) < length:
        raise StoreError(path, Msg(N_("is truncated ({got} of {length} bytes)"),
                                   got=len(payload), length=length))
    if len(payload) > length:
        raise StoreError(path, Msg(N_("is damaged ({n} bytes too many)"),
                                   n=len(payload) - length))
    if hashlib.sha256(payload).hexdigest() != digest:
        raise StoreError(path, Msg(N_("is damaged (its checksum does not match: a changed "
                                      "byte)")))
    try:
        obj = msgpack.unpackb(payload, raw=False)
    except Exception:
        obj = None
    if not isinstance(obj, dict):
        raise StoreError(path, Msg(N_("is damaged (its content is not readable)")))
    return obj


def read_file(path: PathArg, kind: str) -> dict:
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise StoreError(path, Msg(N_("is missing"))) from None
    except OSError as exc:
        raise StoreError(path, Msg(N_("cannot be read ({error})"), error=exc.strerror)) from None
    return unpack_file(path, data, kind)


def write_private(path: PathArg, data: bytes) -> None:
    """Write a file (0600) whole or not at all: a temporary file, fsync'd, renamed."""
    path = Path(path)
    tmp = path.with_suffix(".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.chmod(tmp, 0o600)
    os.replace(tmp, path)


def set_aside(path: PathArg, tag: str = "damaged") -> Path:
    """Rename a file we cannot use to ``<name>.<tag>-N`` (the first free N): kept for a
    person to look at, never overwritten."""
    path = Path(path)
    n = 1
    while True:
        aside = path.with_name(f"{path.name}.{tag}-{n}")
        if not aside.exists():
            os.rename(path, aside)
            return aside
        n += 1
