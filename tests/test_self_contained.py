"""The repository explains itself, and the installed program carries no test hook.

* No file of belfort/, net/, client/, tests/, scripts/, docs/ or README.md cites a tracker
  entry (an issue, bug or pull-request number): a reader has only the repository, so a
  comment says why in its own words.  Nor does any refer to a file outside the repository
  (a folder beside it, a design or rules document that is not here): the rules are in
  docs/rules.md.
* Every repository path a doc, comment or docstring names exists (a moved file leaves no
  dangling mention behind).
* The installed packages (belfort, net, client) hold no way to make a peer misbehave and no
  hard process exit, which only tests would want: tests/session/misbehave.py and
  tests/session/cheater.py wrap the ordinary peer process from the test code instead.

Each check is also run on a planted example, to show that it can fail."""

from __future__ import annotations

import ast
import io
import pathlib
import re
import tokenize

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
SCANNED = ("belfort", "net", "client", "tests", "scripts", "docs", "README.md")
TEXT = {".py", ".md", ".toml", ".txt", ".po", ".pot", ".cfg", ".ini", ".sh"}
INSTALLED = ("belfort", "net", "client")

# Citations of a tracker entry: an issue, bug, pull request or ticket with its number (also
# in a file name, joined by - or _), a bare number after '#' in parentheses, "the NAME
# issue", an issue named in parentheses or after a colon.
TRACKER = [re.compile(p, re.IGNORECASE) for p in (
    r"\bissues?\s*#?\d+",
    r"\bissues?[-_]\d+",
    r"\bbugs?\s*#?\d+",
    r"\b(?:PR|pull request|ticket)s?\s*#?\d+",
    r"\(#\d+\)",
    r"\bthe [\w-]+ issue\b",
    r"[(]issue\b",
    r"\bissue[:]",
)]
# Files and folders that are not in the repository.
OUTSIDE = [re.compile(p) for p in (
    r"\.\./shared",
    r"(?<![\w-])shared/(?:seeds|RULES|DESIGN)",
    r"\bseeds/",
    r"\b(?:RULES|DESIGN|GUIDE|DEVELOPERS)\.md\b",
    r"(?<![\w.])/wor[k]/",
)]
# Paths of this repository named in prose (docs, comments, docstrings).
MD_PATH = re.compile(r"(?<![\w/.-])[\w./-]*[\w-]\.md\b")
REPO_PATH = re.compile(r"(?<![\w/.-])(?:belfort|net|client|tests|scripts|docs)/[\w/.-]*\w"
                       r"\.(?:py|md|toml|txt)\b")

# A hard exit skips every cleanup (the log's flush, the goodbye to the others, the bots'
# shutdown): the installed program may use one only where a real need is written here,
# path -> why.
EXIT_ALLOWED: dict[str, str] = {}
HARD_EXIT = re.compile(r"\b_exit\s*\(")


def files(root: pathlib.Path, tops=SCANNED):
    for top in tops:
        path = root / top
        if path.is_file():
            yield path
        elif path.is_dir():
            yield from sorted(p for p in path.rglob("*") if p.is_file() and p.suffix in TEXT
                              and "__pycache__" not in p.parts)


def prose(path: pathlib.Path, text: str):
    """(line number, text) of what a person reads as explanation: a doc's lines, a Python
    file's comments and docstrings, the comment lines of other text files."""
    if path.suffix == ".md":
        yield from enumerate(text.split("\n"), 1)
    elif path.suffix == ".py":
        try:
            for tok in tokenize.generate_tokens(io.StringIO(text).readline):
                if tok.type == tokenize.COMMENT:
                    yield tok.start[0], tok.string
            tree = ast.parse(text)
        except (SyntaxError, tokenize.TokenError):
            return
        for node in ast.walk(tree):
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef,
                                 ast.AsyncFunctionDef)):
                doc = ast.get_docstring(node, clean=False)
                if doc is not None:
                    first = node.body[0].lineno
                    for k, line in enumerate(doc.split("\n")):
                        yield first + k, line
    elif path.suffix not in (".po", ".pot"):
        for k, line in enumerate(text.split("\n"), 1):
            if line.lstrip().startswith("#"):
                yield k, line


def problems(root: pathlib.Path, tops=SCANNED) -> list[str]:
    names = {p.name for p in files(root, tops)}
    out = []
    for path in files(root, tops):
        rel = path.relative_to(root).as_posix()
        for pat in TRACKER:
            if pat.search(rel):
                out.append(f"{rel}: its name cites a tracker entry")
        text = path.read_text(encoding="utf-8", errors="replace")
        for k, line in enumerate(text.split("\n"), 1):
            for pat in TRACKER:
                for m in pat.finditer(line):
                    out.append(f"{rel}:{k}: cites a tracker entry: {m.group(0)!r}")
            for pat in OUTSIDE:
                for m in pat.finditer(line):
                    out.append(f"{rel}:{k}: refers outside the repository: {m.group(0)!r}")
        for k, line in prose(path, text):
            for m in MD_PATH.finditer(line):
                t = m.group(0)
                if not ((root / t).exists() or (path.parent / t).exists()
                        or ("/" not in t and t in names)):
                    out.append(f"{rel}:{k}: names {t}, which is not in the repository")
            for m in REPO_PATH.finditer(line):
                t = m.group(0)
                if not ((root / t).exists() or (path.parent / t).exists()):
                    out.append(f"{rel}:{k}: names {t}, which is not in the repository")
    return sorted(set(out))


def test_no_tracker_numbers_and_nothing_outside_the_repository():
    assert problems(ROOT) == []


def test_the_scan_finds_each_kind_of_planted_example(tmp_path):
    # the examples are put together here so that this file itself stays clean
    issue, bug, shared, rules = "iss" + "ue", "bu" + "g", ".." + "/shared", "RU" + "LES.md"
    hashed = "(" + "#12)"
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "here.md").write_text("# here\n", encoding="utf-8")
    (tmp_path / "net").mkdir()
    (tmp_path / "net" / "clean.py").write_text(
        '"""Bounded input, so that a cheater cannot exhaust us (docs/here.md)."""\n'
        "SEED = 3   # the shared seed, drawn by every peer\n", encoding="utf-8")
    assert problems(tmp_path) == []
    (tmp_path / "net" / "bad.py").write_text(
        f'"""Bounds ({issue} 10); see docs/gone.md."""\n'
        f"# the session-core {issue}: stalls {hashed}, {bug} 7\n"
        f"PATH = '{shared}/{rules}'\n", encoding="utf-8")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / f"old-before-{issue}-14.toml").write_text(
        "# copied from net/session/misplaced.py\n", encoding="utf-8")
    found = "\n".join(problems(tmp_path))
    for what in (f"'{issue} 10'", "docs/gone.md", f"'the session-core {issue}'", f"'{hashed}'",
                 f"'{bug} 7'", f"'{shared}'", f"'{rules}'", "its name cites a tracker entry",
                 "net/session/misplaced.py"):
        assert what in found, (what, found)
    assert "clean.py" not in found


def hooks(root: pathlib.Path) -> list[str]:
    out = []
    for path in files(root, INSTALLED):
        rel = path.relative_to(root).as_posix()
        text = path.read_text(encoding="utf-8", errors="replace")
        for k, line in enumerate(text.split("\n"), 1):
            if "misbehav" in line.lower():
                out.append(f"{rel}:{k}: a misbehaviour hook")
            if path.suffix == ".py" and HARD_EXIT.search(line) and rel not in EXIT_ALLOWED:
                out.append(f"{rel}:{k}: a hard process exit")
    return out


def test_the_installed_program_has_no_test_hook():
    assert hooks(ROOT) == []


def test_the_hook_scan_finds_a_planted_hook(tmp_path):
    (tmp_path / "net").mkdir()
    (tmp_path / "net" / "peer.py").write_text(
        "import os\n\ndef die():\n    os._exit(9)\n", encoding="utf-8")
    (tmp_path / "client").mkdir()
    (tmp_path / "client" / "cli.py").write_text("MODES = ['misbehave']\n", encoding="utf-8")
    assert hooks(tmp_path) == ["net/peer.py:4: a hard process exit",
                               "client/cli.py:1: a misbehaviour hook"]


@pytest.mark.parametrize("args", [["--misbehave", "desync"], ["--leave-after-lobby"]])
def test_the_peer_command_refuses_the_old_test_options(args, capsys):
    from client.peer import build_parser
    with pytest.raises(SystemExit):
        build_parser().parse_args(["host", "--name", "Ana", *args])
    assert "unrecognized arguments" in capsys.readouterr().err
