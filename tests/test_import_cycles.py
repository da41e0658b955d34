"""No import cycles among the modules of `net` and `client`: parts return results instead
of calling back into their owner (docs/network.md, "The parts of a session").

Every import counts, also one inside a function: a cycle hidden in a function is still
two modules that cannot be understood one without the other."""

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGES = ("net", "client")


def modules(root, packages):
    """{dotted module name: path} of every module of ``packages``."""
    out = {}
    for pkg in packages:
        for path in sorted((root / pkg).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join(parts)] = path
    return out


def imports_of(name, path, known):
    """The known modules ``name`` imports."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - (node.level - 1)]
                prefix = ".".join(base + ([node.module] if node.module else []))
            else:
                prefix = node.module or ""
            # `from pkg import mod` imports the module; `from mod import name` the module
            targets = [f"{prefix}.{alias.name}" if f"{prefix}.{alias.name}" in known else prefix
                       for alias in node.names]
        for t in targets:
            while t and t not in known and "." in t:
                t = t.rpartition(".")[0]
            if t in known and t != name:
                found.add(t)
    return found


def cycles(graph):
    """Strongly connected groups of more than one module (Tarjan), sorted."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(out)


def import_graph(root, packages):
    known = modules(root, packages)
    return {name: imports_of(name, path, known) for name, path in known.items()}


def test_no_import_cycles_in_net_and_client():
    assert cycles(import_graph(ROOT, PACKAGES)) == []


def test_the_checker_finds_a_cycle_hidden_in_a_function(tmp_path):
    pkg = tmp_path / "net" / "x"
    pkg.mkdir(parents=True)
    (tmp_path / "net" / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from . import b\n")
    (pkg / "b.py").write_text("def f():\n    from .c import g\n")
    (pkg / "c.py").write_text("from net.x.a import h\n")
    (pkg / "d.py").write_text("from .a import h\n")
    assert cycles(import_graph(tmp_path, ("net",))) == [["net.x.a", "net.x.b", "net.x.c"]]
