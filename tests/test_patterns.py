"""Regular expressions compiled ahead (lint/patterns.py): the same patterns, none compiled on a run."""

import re
import subprocess
import sys
from pathlib import Path

import pytest
from amdgpu_lint import patterns

ROOT = Path(__file__).resolve().parent.parent
LISTING = ROOT / "fixtures" / "examples" / "compiler" / "loop_saxpy_gfx942.s"
_sre = pytest.importorskip("_sre")
from amdgpu_lint.patterns_precompiled import CODE, ENGINE  # noqa: E402

same_engine = pytest.mark.skipif(ENGINE != _sre.MAGIC, reason="the table holds another Python's engine code")


@same_engine
def test_the_table_is_what_the_script_writes_today():
    run = subprocess.run([sys.executable, str(ROOT / "scripts" / "gen_pattern_code.py"), "--check"],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


@same_engine
def test_every_precompiled_pattern_is_the_one_re_compiles():
    """Patterns compare equal when their text, flags and engine code are (CPython's Pattern.__eq__)."""
    assert len(CODE) > 40
    for pattern, flags in CODE:
        made = patterns.compiled(pattern, flags)
        assert made == re.compile(pattern, flags) and made.groupindex == re.compile(pattern, flags).groupindex


def test_a_pattern_not_in_the_table_or_another_engine_compiles_as_usual(monkeypatch):
    assert patterns.compiled(r"(?P<x>un)listed\d", re.I) == re.compile(r"(?P<x>un)listed\d", re.I)
    pattern, flags = next(iter(CODE))
    monkeypatch.setattr(patterns, "_TABLE", None)
    monkeypatch.setattr(patterns._sre, "MAGIC", ENGINE + 1)
    assert patterns._table() == {}
    assert patterns.compiled(pattern, flags) == re.compile(pattern, flags)


_COMPILED_ON_A_RUN = """
import contextlib, io, re, sys
compiled = []
compile_pattern = re._compile
def counted(pattern, flags):
    if "/amdgpu_lint/" in sys._getframe(2).f_code.co_filename.replace("/lint/", "/amdgpu_lint/"):
        compiled.append(pattern)
    return compile_pattern(pattern, flags)
re._compile = counted
from amdgpu_lint.__main__ import main
with contextlib.redirect_stdout(io.StringIO()):
    main(["check", "--no-cache", "--no-config", sys.argv[1]])
print(len(compiled))
"""


@same_engine
def test_a_small_check_compiles_none_of_the_package_patterns():
    """Compiling the package's ~60 patterns took ~10 ms of every run, an eighth of a small file's."""
    run = subprocess.run([sys.executable, "-c", _COMPILED_ON_A_RUN, str(LISTING)], capture_output=True, text=True,
                         check=True)
    assert int(run.stdout) == 0
