"""scripts/probe_set.py (issue 36's probe set) on one processor with a small sample: it builds the probe file from
the linter's tables, has llvm-mc 22 judge it and reports the linter's recall and false errors."""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(shutil.which("llvm-mc-22") is None, reason="llvm-mc-22 is not installed")


def _run(*arguments: str) -> str:
    run = subprocess.run([sys.executable, str(ROOT / "scripts" / "probe_set.py"), *arguments], capture_output=True,
                         text=True, check=True, cwd=ROOT)
    return run.stdout


def test_the_probe_set_reports_recall_and_false_errors_per_configuration():
    output = _run("--mcpu", "gfx1030", "--mnemonics", "12", "--jobs", "1")
    rows = dict(re.findall(r"^\s*(\S+): +\d+ lines +(\d+/\d+)", output, re.MULTILINE))
    assert set(rows) == {"gfx1030:wavefrontsize64-", "gfx1030:wavefrontsize64+"}  # each wave size, named
    total = re.search(r"^\s+all: +(\d+)/(\d+) +[\d.]+% +false (\d+) +crashes 0$", output, re.MULTILINE)
    assert total is not None, output
    hit, rejected = int(total[1]), int(total[2])
    assert rejected > 20 and 0 < hit <= rejected
    assert total[3] == "0", output  # no line llvm-mc accepts is flagged
    # a made-up mnemonic is something llvm-mc rejects and the linter reports, on every line
    made_up = re.search(r"^\s+made-up +(\d+) lines: +(\d+)/(\d+)", output, re.MULTILINE)
    assert made_up is not None and int(made_up[1]) > 10 and made_up[2] == made_up[3] == made_up[1]
    assert "most missed llvm-mc messages:" in output


def test_the_probe_set_is_the_same_for_the_same_seed():
    first = _run("--mcpu", "gfx900", "--mnemonics", "8", "--jobs", "1", "--seed", "7", "--show", "50")
    assert first == _run("--mcpu", "gfx900", "--mnemonics", "8", "--jobs", "1", "--seed", "7", "--show", "50")


def test_no_false_error_in_any_mode_of_a_true16_processor():
    """gfx1100 in both wave sizes and both true16 modes, each named (wave64 in the mode llvm-mc does not default to
    once read every lane mask as wave32's; real-true16+ named once drew errors on whole VGPRs in VOP3 DPP forms)."""
    output = _run("--mcpu", "gfx1100", "--mnemonics", "40", "--jobs", "1")
    rows = re.findall(r"^\s*(gfx1100\S*): +\d+ lines +\d+/\d+ +[\d.]+% +false (\d+)$", output, re.MULTILINE)
    assert len(rows) == 4 and all(false == "0" for _, false in rows), output
