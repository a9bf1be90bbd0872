"""The committed ISA tables are exactly what the generator makes from LLVM's syntax pages."""

import subprocess
import sys

import pytest
from amdgpu_lint.isa import instruction_set, pages_with
from amdgpu_lint.model.targets import parse_target_id
from conftest import ROOT

SYNTAX = ROOT.parent / "shared" / "isa" / "llvm-syntax"


@pytest.mark.skipif(not SYNTAX.is_dir(), reason="../shared/isa/llvm-syntax is not present")
def test_committed_tables_match_a_regeneration():
    process = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "gen_isa_tables.py"), "--check", "--syntax", str(SYNTAX)],
        capture_output=True, text=True,
    )
    assert process.returncode == 0, process.stderr


@pytest.mark.parametrize(
    "target, at_least",
    [("gfx803", 1500), ("gfx900", 1800), ("gfx906", 1860), ("gfx908", 1900), ("gfx90a", 1800), ("gfx942", 1850),
     ("gfx950", 1950), ("gfx1030", 1700), ("gfx1100", 2200), ("gfx1201", 1600)],
)
def test_every_target_has_a_full_table(target, at_least):
    assert len(instruction_set(parse_target_id(target))) >= at_least


def test_generation_specific_instructions():
    has = lambda target, mnemonic: mnemonic in instruction_set(parse_target_id(target))  # noqa: E731
    assert has("gfx908", "v_mfma_f32_32x32x8f16") and not has("gfx906", "v_mfma_f32_32x32x8f16")
    assert has("gfx950", "v_bitop3_b32") and not has("gfx942", "v_bitop3_b32")
    assert has("gfx906", "v_dot2_f32_f16") and not has("gfx900", "v_dot2_f32_f16")
    assert has("gfx1100", "v_wmma_f32_16x16x16_f16") and not has("gfx1030", "v_wmma_f32_16x16x16_f16")
    assert has("gfx1201", "s_wait_loadcnt") and not has("gfx1100", "s_wait_loadcnt")
    assert has("gfx1100", "global_load_b32") and has("gfx1030", "global_load_dword")
    assert "gfx908" in pages_with("v_mfma_f32_32x32x8f16")
