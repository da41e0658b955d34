"""One-way wiring of the session's parts, checked on the source of ``net/``.

A part gets its collaborators in its constructor and returns what it wants changed
(effects.Out); nothing ties parts together afterwards.  So, anywhere in ``net/``:

(a) no assignment ``x.y = ...`` (nor ``x.y += ...``, ``del x.y``, ``setattr(x, ...)``)
    where ``x`` is not ``self``/``cls`` — wiring a part after it was made, above all a
    callable (a lambda, a function, a bound method) assigned into it, hides who calls
    whom from the import graph; the only exceptions are the true data records of
    ``RECORDS`` below, and the instance a ``__new__`` is making;
(b) no assignment to a private attribute (``_name``) of anything but ``self``/``cls``,
    whatever the object (records included).

The scanner is tried on planted snippets first, so a scanner that finds nothing cannot
pass for a clean source.
"""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

from net.session.effects import Out
from net.node.lobby import Seat
from net.node.storage import _Scan

NET = Path(__file__).resolve().parents[2] / "net"


def _fields(record) -> frozenset:
    return frozenset(f.name for f in dataclasses.fields(record))


# The data records a function may fill in: (file under net/, the expression it is reached
# by) -> (its fields, why it is a record and not a part).  A field takes data, never a
# callable.
_OUT = (_fields(Out), "effects.Out: the result a part fills in and returns")
RECORDS: dict[tuple[str, str], tuple[frozenset, str]] = {
    ("session/botseat.py", "out"): _OUT,
    ("session/dispute.py", "out"): _OUT,
    ("session/handoff.py", "out"): _OUT,
    ("session/intake.py", "out"): _OUT,
    ("session/liveness.py", "out"): _OUT,
    ("node/lobby.py", "seat"): (_fields(Seat), "lobby.Seat: the host's record of a joiner"),
    ("node/lobby.py", "existing"): (_fields(Seat), "lobby.Seat, as above"),
    ("node/lobby.py", "s"): (_fields(Seat), "lobby.Seat, as above"),
    ("node/storage.py", "scan"): (_fields(_Scan), "storage._Scan: what one read of the "
                                                     "log found, filled in as it reads"),
}

OWN = ("self", "cls")


def _functions(tree: ast.AST) -> set[str]:
    return {n.name for n in ast.walk(tree)
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}


def _made_by_new(func: ast.FunctionDef) -> set[str]:
    """Names a ``__new__`` binds to the instance it makes (``x = super().__new__(...)``)."""
    made = set()
    for n in ast.walk(func):
        if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call) \
                and isinstance(n.value.func, ast.Attribute) and n.value.func.attr == "__new__":
            made |= {t.id for t in n.targets if isinstance(t, ast.Name)}
    return made


def _targets(node: ast.AST) -> list[ast.expr]:
    if isinstance(node, ast.Assign):
        found = list(node.targets)
    elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
        found = [node.target]
    elif isinstance(node, ast.Delete):
        found = list(node.targets)
    else:
        return []
    flat = []
    while found:
        t = found.pop()
        if isinstance(t, (ast.Tuple, ast.List)):
            found += t.elts
        elif isinstance(t, ast.Starred):
            found.append(t.value)
        else:
            flat.append(t)
    return flat


def _is_callable_value(value: ast.AST | None, functions: set[str]) -> bool:
    if isinstance(value, ast.Lambda):
        return True
    if isinstance(value, ast.Name) and value.id in functions:
        return True
    # a bound method of a part: `part.method` (a field read is `part.field`: same shape,
    # so only an attribute of something other than self is suspected, and only for records)
    return False


def problems(source: str, name: str) -> list[str]:
    """Every breach of (a) and (b) in ``source`` (``name``: its path under net/)."""
    tree = ast.parse(source)
    functions = _functions(tree)
    new_made: dict[int, set[str]] = {}
    for func in ast.walk(tree):
        if isinstance(func, ast.FunctionDef) and func.name == "__new__":
            made = _made_by_new(func)
            for n in ast.walk(func):
                new_made[id(n)] = made
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in ("setattr", "delattr") and node.args:
            obj = node.args[0]
            if not (isinstance(obj, ast.Name) and obj.id in OWN):
                found.append(f"{name}:{node.lineno}: {ast.unparse(node)} (a): sets an attribute "
                             f"of another object")
            continue
        value = getattr(node, "value", None)
        for t in _targets(node):
            if not isinstance(t, ast.Attribute):
                continue
            base, attr = t.value, t.attr
            here = f"{name}:{node.lineno}: {ast.unparse(t)}"
            if isinstance(base, ast.Name) and base.id in OWN:
                continue
            if attr.startswith("_") and not attr.startswith("__"):
                found.append(f"{here} (b): a private attribute of another object")
                continue
            if isinstance(base, ast.Name) and base.id in new_made.get(id(node), ()):
                continue            # the instance this __new__ makes
            record = RECORDS.get((name, ast.unparse(base)))
            if record is not None and attr in record[0] and \
                    not _is_callable_value(value, functions):
                continue
            if _is_callable_value(value, functions):
                found.append(f"{here} (a): a callable wired into another object")
            else:
                found.append(f"{here} (a): an attribute of another object")
    return found


def test_the_scanner_finds_each_kind_of_breach():
    planted = '''
class Peer:
    def __init__(self, intake, hashes, table, deck):
        self.intake = intake
        intake.stopped = lambda: table.status == "stopped"
        hashes.set_reason = self._refine
        self.hashes.confirmed = helper
        table.stop_reason = "x"
        deck._started = True
        self.escrow._sent = True
        setattr(hashes, "proven", {})
        out = object()
        out.stop = "fine: a record"
        out.stop = lambda: 1

    def _refine(self, text):
        self._reason = text        # our own: fine

def helper(s, need):
    return True
'''
    got = problems(planted, "session/botseat.py")
    text = "\n".join(got)
    assert "intake.stopped (a): a callable" in text
    assert "hashes.set_reason (a)" in text
    assert "self.hashes.confirmed (a): a callable" in text
    assert "table.stop_reason (a): an attribute" in text
    assert "deck._started (b)" in text
    assert "self.escrow._sent (b)" in text
    assert "setattr(hashes, 'proven', {}) (a)" in text
    assert sum("out.stop" in p for p in got) == 1 and "out.stop (a): a callable" in text
    assert "self._reason" not in text and "self.intake" not in text
    assert len(got) == 8, text


def test_the_scanner_lets_a_new_fill_in_its_own_instance_only():
    planted = '''
class Text(str):
    def __new__(cls, value, other):
        made = super().__new__(cls, value)
        made.value = value
        other.value = value
        return made
'''
    got = problems(planted, "session/msgs.py")
    assert got == ["session/msgs.py:6: other.value (a): an attribute of another object"]


def test_net_is_wired_one_way():
    found = []
    for path in sorted(NET.rglob("*.py")):
        found += problems(path.read_text(encoding="utf-8"), path.relative_to(NET).as_posix())
    assert not found, "\n".join(found)


def test_every_record_exception_is_still_needed():
    """An allowed record no longer filled in is dropped from RECORDS."""
    for name, reached in RECORDS:
        tree = ast.parse((NET / name).read_text(encoding="utf-8"))
        assert any(isinstance(t, ast.Attribute) and ast.unparse(t.value) == reached
                   for n in ast.walk(tree) for t in _targets(n)), (name, reached)


def test_a_verdict_replaces_the_reason_of_a_stopped_game_only_where_it_may():
    """What forks, dispute, doubt and desync used to write into the table themselves now
    comes back as ``Out.verdicts`` and is applied by the peer: same rules."""
    from net.session.alerting import HELD_STOP
    from net.session.memnet import MemoryNetwork

    net = MemoryNetwork.create(3, seed="wiring")
    peer = net.peers[0]
    table = peer.table
    provisional = ("DESYNC", HELD_STOP)

    assert Out().verdict("x") and Out().add(Out().verdict("x")).verdicts == [("x", ())]
    peer._apply(Out().verdict("not stopped: nothing to refine"))
    assert table.stop_reason == ""

    peer._apply(Out().halt("cheating detected: seat 1"))
    assert table.stop_reason == "cheating detected: seat 1"
    peer._apply(Out().verdict("DESYNC refined", provisional))     # desync's rule: not this one
    assert table.stop_reason == "cheating detected: seat 1"
    peer._apply(Out().verdict("the audit names seat 2"))          # a proof's: any reason
    assert table.stop_reason == "the audit names seat 2"

    other = MemoryNetwork.create(3, seed="wiring2").peers[0]
    other._apply(Out().halt(HELD_STOP))
    other._apply(Out().verdict("DESYNC first", provisional).verdict("DESYNC second", provisional))
    assert other.table.stop_reason == "DESYNC second"             # in order: the last wins
    assert other.status == "stopped"
