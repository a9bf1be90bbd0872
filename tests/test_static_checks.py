"""mypy and ruff over lint/ and rules/ with the settings in pyproject.toml: no finding.

The package `amdgpu_lint` is lint/ with rules/ and grammars/ mapped into it (pyproject.toml's
package-dir), which neither tool can follow from an editable install, so mypy reads it through a
tree of links laid out as the installed package is.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _package_tree(base: Path) -> Path:
    """`base`/amdgpu_lint: links to each entry of lint/, plus rules/ and grammars/ where the package has them."""
    package = base / "amdgpu_lint"
    package.mkdir(parents=True)
    for entry in (ROOT / "lint").iterdir():
        if entry.name != "__pycache__":
            (package / entry.name).symlink_to(entry)
    (package / "rules").symlink_to(ROOT / "rules")
    (package / "grammars").symlink_to(ROOT / "grammars")
    return base


def test_mypy_finds_nothing(tmp_path):
    pytest.importorskip("mypy", reason="mypy is in the test extra: pip install -e '.[test]'")
    tree = _package_tree(tmp_path / "tree")
    run = subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
                          "--cache-dir", str(tmp_path / "cache"), "-p", "amdgpu_lint"],
                         capture_output=True, text=True, cwd=ROOT, env={**os.environ, "MYPYPATH": str(tree)})
    assert run.returncode == 0, run.stdout.replace(str(tree / "amdgpu_lint") + os.sep, "") + run.stderr


def test_ruff_finds_nothing():
    pytest.importorskip("ruff", reason="ruff is in the test extra: pip install -e '.[test]'")
    run = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "lint", "rules"],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stdout + run.stderr
