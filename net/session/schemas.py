"""Shapes of the session's sequenced message types, checked at intake: before a message
is stored, logged or handed to any part, so that no part ever sees an unchecked shape.

The wire (net.crypto.wire) already bounds a message to 1 MiB and 16 levels of nesting.
Here every known type's fields get their type, size and count checked, and every body a
general budget (strings, byte strings and lists of bounded length), so no part ever holds
a 100,000-deep JSON text or a million-item list.  A refused message names its signer (it
signed it) and does not use up its sequence number.  Types not listed here are left to
the part that owns them (the dispatcher refuses an unknown one).
"""

from __future__ import annotations

from collections.abc import Callable

from net.crypto import wire

from .limits import MAX_JSON_DEPTH, json_depth
from .msgs import N_, Msg

MAX_TEXT = 1024             # any str field, unless its type says otherwise
MAX_BYTES = 4096            # any bytes field (a commit-reveal value is at most 4096)
MAX_ITEMS = 4096            # any list or map
MAX_VIEW = 64 * 1024        # a public view as JSON text (a late 5-player game: ~20 KB)
MAX_EPOCH = 1 << 10         # deck epochs (a game reshuffles a few times)


# Whether one field's value, as received, has the shape its type allows.
Check = Callable[[object], bool]


def _int(lo: int = 0, hi: int = 1 << 53) -> Check:
    return lambda v: wire.is_int(v) and lo <= v < hi


def _str(lo: int = 0, hi: int = MAX_TEXT) -> Check:
    return lambda v: isinstance(v, str) and lo <= len(v) <= hi


def _bytes(n: int) -> Check:
    return lambda v: isinstance(v, bytes) and len(v) == n


def _command(v: object) -> bool:
    """A command as a list: a verb, then ints, short strs or such lists (keep's pairs)."""
    def item(x, depth):
        if wire.is_int(x) or (isinstance(x, str) and len(x) <= 64) or x is None:
            return True
        return isinstance(x, list) and depth < 3 and len(x) <= 32 and \
            all(item(y, depth + 1) for y in x)
    return isinstance(v, list) and 1 <= len(v) <= 16 and isinstance(v[0], str) \
        and len(v[0]) <= 32 and all(item(x, 1) for x in v[1:])


def _view(v: object) -> bool:
    return isinstance(v, str) and len(v) <= MAX_VIEW and json_depth(v) <= MAX_JSON_DEPTH


# type -> {field: check}; the fields each type must have (more are not allowed)
SHAPES: dict[str, dict] = {
    "sess/cmd": {"v": _int(), "cmd": _command},
    "sess/undo": {"v": _int(), "n": _int(0, 1 << 40), "step": _int()},
    "sess/hash": {"v": _int(), "round": _int(0, 1 << 16), "phase": _str(1, 32),
                  "hash": _str(64, 64)},
    "sess/view": {"v": _int(), "view": _view},
    "commit/commit": {"purpose": _str(1, 64), "commitment": _bytes(32)},
    "commit/reveal": {"purpose": _str(1, 64), "nonce": _bytes(32),
                      "value": lambda v: isinstance(v, bytes) and len(v) <= 4096},
    "hand/vote": {"target": _int(0, 16), "have": _int(0, 1 << 32)},
    # leaving for good, and (2 players) where the seat that stays ends the game
    # (departure.py)
    "sess/leave": {"v": _int()},
    "sess/end": {"left": _int(0, 16), "n": _int(0, 1 << 40), "v": _int()},
    "hand/share": {"target": _int(0, 16), "share": _bytes(32)},
    # an objection carries its evidence: a vote of the attempt and a newer signed message
    # of the target (handoff.py)
    "hand/no": {"target": _int(0, 16), "k": _int(0, 1 << 16),
                "vote": lambda v: isinstance(v, bytes) and len(v) <= MAX_BYTES,
                "proof": lambda v: isinstance(v, bytes) and len(v) <= MAX_BYTES},
}
HEADER = ("type", "game", "seat", "seq")
OPTIONAL: dict[str, dict] = {
    "sess/cmd": {"n": _int(0, 1 << 40)},         # steps applied before it (takeback.py)
    # the missed deadline the vote cites; the attempt it belongs to (handoff.py)
    # the voter's bot level for the seat: the hosting seat's is what the owner is told
    "hand/vote": {"why": _str(0, 200), "k": _int(0, 1 << 16), "level": _str(1, 16)},
}


def _budget(x: object) -> bool:
    """Every str, bytes, list and map in ``x`` within its size limit.  A loop over a stack,
    not a recursive walk with a generator per container: every received envelope's body
    passes here, and the recursion cost about as much as the shape checks that follow."""
    stack = [x]
    while stack:
        y = stack.pop()
        if isinstance(y, str):
            if len(y) > MAX_VIEW:
                return False
        elif isinstance(y, bytes):
            if len(y) > MAX_BYTES:
                return False
        elif isinstance(y, list):
            if len(y) > MAX_ITEMS:
                return False
            stack.extend(y)
        elif isinstance(y, dict):
            if len(y) > MAX_ITEMS:
                return False
            stack.extend(y.values())
    return True


def problem(body: dict) -> str:
    """'' if ``body`` (a verified envelope's body) has an acceptable shape, else what is wrong."""
    t = body["type"]
    if t.startswith("deck/"):
        e = body.get("epoch")
        if not (wire.is_int(e) and 0 <= e < MAX_EPOCH):
            return Msg(N_("a deck message with epoch {epoch}"), epoch=repr(e))
    if not _budget(body):
        return Msg(N_("a {type} message with a field over the size limits"), type=repr(t))
    shape = SHAPES.get(t)
    if shape is None:
        return ""
    optional = OPTIONAL.get(t, {})
    for name, check in shape.items():
        if name not in body or not check(body[name]):
            return Msg(N_("a {type} message with a bad or missing field {field}"), type=repr(t),
                       field=repr(name))
    for name in body:
        if name in HEADER or name in shape:
            continue
        if name not in optional or not optional[name](body[name]):
            return Msg(N_("a {type} message with an unexpected field {field}"), type=repr(t),
                       field=repr(name))
    return ""
