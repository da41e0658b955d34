"""Layers (DEVELOPERS.md, DESIGN.md): belfort imports only the standard library; net may
import belfort; client may import both; nothing imports upward."""

import ast
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
STDLIB = set(sys.stdlib_module_names)
ALLOWED = {
    "belfort": {"belfort"},
    "net": {"belfort", "net", "zmq", "msgpack", "cryptography"},
    "client": {"belfort", "net", "client", "prompt_toolkit", "zmq", "msgpack", "cryptography"},
}
# Modules the engine must not use even though they are in the standard library: no sockets,
# terminal, clock or non-portable randomness (DEVELOPERS.md, Determinism).
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
