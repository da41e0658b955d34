"""Checked style: mypy (strict on the engine) and ruff, configured in pyproject.toml, pass on
the repository; and each of them fails on a planted fault, so a green run means something."""

import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
CONFIG = ROOT / "pyproject.toml"
RUFF_PATHS = ["belfort", "net", "client", "tests", "scripts"]


def run(tool, *args, cwd=ROOT):
    """`python -m tool args` in `cwd`; (exit code, everything it printed)."""
    done = subprocess.run([sys.executable, "-m", tool, *args], cwd=cwd, capture_output=True,
                          text=True)
    return done.returncode, done.stdout + done.stderr


def test_mypy_passes():
    code, out = run("mypy")         # the files and settings are pyproject.toml's
    assert code == 0, out


def test_ruff_passes():
    code, out = run("ruff", "check", "--no-cache", *RUFF_PATHS)
    assert code == 0, out


def plant(tmp_path):
    """An engine module with a missing hint and a type error, outside the repository."""
    pkg = tmp_path / "belfort"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "planted.py").write_text(
        "import os\n"
        "\n"
        "\n"
        "def double(x):\n"
        "    return 2 * x\n"
        "\n"
        "\n"
        "def name() -> int:\n"
        "    return 'seven'\n")
    return pkg / "planted.py"


def test_mypy_finds_a_planted_fault(tmp_path):
    planted = plant(tmp_path)
    code, out = run("mypy", "--config-file", str(CONFIG), "--cache-dir",
                    str(tmp_path / "cache"), str(planted.relative_to(tmp_path)), cwd=tmp_path)
    assert code == 1, out
    # The engine's strict settings apply (an unannotated function is an error there)...
    assert "planted.py:4: error: Function is missing a type annotation" in out, out
    # ...and so does plain type checking.
    assert "planted.py:9: error: Incompatible return value type" in out, out


def test_ruff_finds_a_planted_fault(tmp_path):
    planted = plant(tmp_path)
    code, out = run("ruff", "check", "--no-cache", "--config", str(CONFIG),
                    "--output-format", "concise", str(planted), cwd=tmp_path)
    assert code == 1, out
    assert "planted.py:1:8: F401" in out, out                 # unused import
    assert "planted.py:4:5: ANN201" in out, out               # public function without hints
    assert "planted.py:4:12: ANN001" in out, out
