"""Layers: belfort imports only the standard library; net may
import belfort; client may import both; nothing imports upward; the engine's modules import
each other without a cycle."""

import ast
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
STDLIB = set(sys.stdlib_module_names)
ALLOWED = {
    "belfort": {"belfort"},
    "net": {"belfort", "net", "zmq", "msgpack", "cryptography", "zeroconf", "ifaddr",
            "confusable_homoglyphs"},
    "client": {"belfort", "net", "client", "prompt_toolkit", "zmq", "msgpack", "cryptography",
               "zeroconf", "ifaddr", "confusable_homoglyphs"},
}
# Modules the engine must not use even though they are in the standard library: no sockets,
# terminal, clock or non-portable randomness: every peer must compute the same game.
ENGINE_FORBIDDEN = {"socket", "asyncio", "random", "time", "datetime", "threading", "select",
                    "curses", "subprocess", "os", "selectors", "ssl"}
# The one exception: the command-line simulator reports games per second. It is a runner
# around the engine; no rule ever reads the clock.
ENGINE_EXCEPTIONS = {("belfort/sim.py", "time")}


def imports_of(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name.split(".")[0], node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0 and node.module:
                yield node.module.split(".")[0], node.lineno


def check_package(name):
    bad = []
    for path in sorted((ROOT / name).rglob("*.py")):
        for mod, line in imports_of(path):
            if mod in ALLOWED[name]:
                continue
            rel = path.relative_to(ROOT).as_posix()
            if mod in STDLIB and not (name == "belfort" and mod in ENGINE_FORBIDDEN):
                continue
            if (rel, mod) in ENGINE_EXCEPTIONS:
                continue
            bad.append(f"{path.relative_to(ROOT)}:{line} imports {mod}")
    return bad


def test_engine_imports_only_the_standard_library():
    assert check_package("belfort") == []


def test_net_does_not_import_the_client():
    assert check_package("net") == []


def test_client_imports_are_known():
    assert check_package("client") == []


def test_the_checker_catches_a_bad_import(tmp_path, monkeypatch):
    pkg = tmp_path / "belfort"
    pkg.mkdir()
    (pkg / "x.py").write_text("import zmq\nfrom random import choice\nimport json\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert check_package("belfort") == ["belfort/x.py:1 imports zmq",
                                        "belfort/x.py:2 imports random"]


# --- no import cycle inside the engine: each module understood without the ones it calls ---

def _imports(path, package):
    """Dotted names of the engine modules a file imports (lazy imports included)."""
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level:
            parts = package.split(".")
            base = parts[:len(parts) - node.level + 1]
        elif node.module and node.module.split(".")[0] == "belfort":
            base = []
        else:
            continue
        if node.module:
            yield ".".join(base + node.module.split("."))
        else:
            for alias in node.names:
                yield ".".join(base + [alias.name])


def engine_import_graph():
    """Module → engine modules it imports."""
    found = {}
    for path in sorted((ROOT / "belfort").rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            name = package = ".".join(parts[:-1])
        else:
            name, package = ".".join(parts), ".".join(parts[:-1])
        found[name] = set(_imports(path, package))
    # `from . import scoring` names a module; `from . import apply` a function of __init__.
    return {k: {t if t in found else t.rsplit(".", 1)[0] for t in v} - {k}
            for k, v in found.items()}


def find_cycle(graph):
    state = {}

    def visit(node, stack):
        state[node] = "open"
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == "open":
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt, stack + [nxt])
                if found:
                    return found
        state[node] = "done"
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node, [node])
            if found:
                return found
    return None


def test_the_engine_has_no_import_cycle():
    """No import cycles (apply ↔ legal was one, through is_legal's lazy import).
    The package's __init__ re-exports everything, so edges into it are left out."""
    graph = {k: v - {"belfort", "belfort.bots"} for k, v in engine_import_graph().items()}
    assert find_cycle(graph) is None, find_cycle(graph)
    assert "belfort.apply" not in graph["belfort.legal"]


def test_the_cycle_finder_finds_one():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


# --- the lockstep protocol's room: no clock, socket, file or terminal ---
# net/session/ is the protocol every peer runs the same way: what it does is a function of
# the frames and decisions it is given and of the times it is told (``now``), so the same
# inputs give the same state in memory (tests, benchmarks) and over ZeroMQ. The node
# (net/node/: process, transport, lobby, discovery, files) and the client own the clock,
# sockets, disk and terminal. ``logging`` is allowed: records go wherever the node points
# them, and the protocol never reads them back.
PROTOCOL_FORBIDDEN = {"socket", "asyncio", "time", "datetime", "threading", "select",
                      "selectors", "subprocess", "os", "pathlib", "shutil", "tempfile",
                      "signal", "fcntl", "termios", "tty", "curses", "sys", "io", "argparse",
                      "zmq", "zeroconf", "ifaddr", "prompt_toolkit", "queue", "random"}


def protocol_room_violations(root):
    bad = []
    for path in sorted((root / "net" / "session").rglob("*.py")):
        for mod, line in imports_of(path):
            if mod in PROTOCOL_FORBIDDEN:
                bad.append(f"{path.relative_to(root).as_posix()}:{line} imports {mod}")
    return bad


def test_the_lockstep_protocol_reads_no_clock_socket_file_or_terminal():
    assert protocol_room_violations(ROOT) == []


def test_the_protocol_room_checker_catches_a_clock(tmp_path):
    room = tmp_path / "net" / "session"
    room.mkdir(parents=True)
    (room / "x.py").write_text("import time\nfrom zmq import Context\nimport json\n")
    assert protocol_room_violations(tmp_path) == ["net/session/x.py:1 imports time",
                                                  "net/session/x.py:2 imports zmq"]
