"""Shared helpers: lint a snippet of assembly written to a temporary file."""

from __future__ import annotations

import importlib.machinery
import textwrap
from pathlib import Path
from types import ModuleType

import pytest
from amdgpu_lint.driver.linter import FileResult, lint_file
from amdgpu_lint.frontend.builder import build_module
from amdgpu_lint.frontend.options import BuildOptions
from amdgpu_lint.frontend.source import read_source
from amdgpu_lint.model.ir import Module
from amdgpu_lint.rules import RULES

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
LLC = "llc-22"
PATCHES_COMPILED = "the test patches a function or class its compiled callers reach directly (the pure build runs it)"


def is_compiled(module: ModuleType) -> bool:
    """Whether `module` was compiled by mypyc (`AMDGPU_LINT_COMPILE=1 pip install .`)."""
    return str(module.__file__).endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def skip_if_compiled(*modules: ModuleType, reason: str = PATCHES_COMPILED) -> None:
    """Skip a white-box test that cannot observe compiled code: monkeypatching a compiled module's function or
    method does not change what its compiled callers call."""
    if any(is_compiled(module) for module in modules):
        pytest.skip(reason)


def llc_listing(ir: str, triple: str, cpu: str, mattr: str = "") -> str:
    """The listing Debian's llc-22 writes for `ir` with any triple (llvmlite's LLVM writes amdhsa only); the
    test is skipped where llc-22 is not installed."""
    import shutil
    import subprocess

    if shutil.which(LLC) is None:
        pytest.skip("llc-22 is not installed (Debian's llvm-22)")
    command = [LLC, f"-mtriple={triple}", f"-mcpu={cpu}", *([f"-mattr={mattr}"] if mattr else []), "-o", "-"]
    run = subprocess.run(command, input=ir, capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    return run.stdout


class Snippet:
    """Writes assembly into a temporary directory and lints or builds it."""

    def __init__(self, directory: Path):
        self.directory = directory

    def write(self, text: str, name: str = "kernel.s") -> Path:
        path = self.directory / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
        return path

    def lint(self, text: str, name: str = "kernel.s", **options) -> FileResult:
        path = self.write(text, name)
        return lint_file(path, BuildOptions(**options), list(RULES))

    def build(self, text: str, name: str = "kernel.s", **options) -> Module:
        path = self.write(text, name)
        return build_module(read_source(path), BuildOptions(**options))


@pytest.fixture
def snippet(tmp_path: Path) -> Snippet:
    return Snippet(tmp_path)


def names(result: FileResult) -> list[str]:
    return [d.name for d in result.diagnostics]


@pytest.fixture(autouse=True, scope="session")
def private_result_cache(tmp_path_factory):
    """`check` caches results; keep the suite's cache away from the user's ~/.cache."""
    import os

    os.environ["AMDGPU_LINT_CACHE_DIR"] = str(tmp_path_factory.mktemp("result-cache"))


@pytest.fixture(autouse=True, scope="session")
def no_assembler_unless_asked():
    """Lint without the user's assembler (`$AMDGPU_LINT_ASSEMBLER=none`), so that a machine with llvm-mc on PATH and
    one without it give every test the same findings; the assembler's own tests (test_assembler.py) name it."""
    import os

    os.environ["AMDGPU_LINT_ASSEMBLER"] = "none"


@pytest.fixture(autouse=True)
def outside_ci(monkeypatch):
    """Run as on a workstation even inside GitHub Actions or GitLab CI: no job summary to append to,
    no GitLab project directory for paths."""
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    monkeypatch.delenv("CI_PROJECT_DIR", raising=False)
