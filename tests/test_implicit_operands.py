"""Implicit registers llvm-mc 22 wants written (issue 36): gfx8's `v_add_u32` carry, gfx6-9's `v_addc_u32` and
`v_div_scale_*`, and where it lets them be left out (`v_cndmask_b32`, VOPC compares, gfx10+ carries). The verdicts
come from probing llvm-mc 22 (scripts/gen_implicit_operands.py); where llvm-mc-22 is installed each case is
assembled again, so the expectation cannot drift from the assembler.
"""

import json

import pytest
from amdgpu_lint.isa.implicit_operands import _TABLE
from amdgpu_lint.isa.mnemonics import mnemonic_verdicts
from llvm_mc_oracle import LLVM_MC, assert_linter_verdict, assert_llvm_mc_verdict

#: (target id, line, llvm-mc's message, or None where it assembles the line)
CASES = [
    ("gfx803", "v_add_u32 v0, v1, v2", "operands are not valid for this GPU or mode"),
    ("gfx803", "v_add_u32 v0, vcc, v1, v2", None),
    ("gfx803", "v_subrev_u32 v0, v1, v2", "operands are not valid for this GPU or mode"),
    ("gfx803", "v_addc_u32 v0, v1, v2", "invalid operand for instruction"),
    ("gfx803", "v_addc_u32 v0, vcc, v1, v2, vcc", None),
    ("gfx700", "v_addc_u32 v0, v1, v2", "invalid operand for instruction"),
    ("gfx900", "v_add_co_u32 v0, v1, v2", None),  # gfx9 takes its carry-out implicitly
    ("gfx900", "v_addc_co_u32 v0, v1, v2", "invalid operand for instruction"),
    ("gfx900", "v_div_scale_f32 v0, v1, v2, v3", "invalid operand for instruction"),
    ("gfx900", "v_div_scale_f32 v0, vcc, v1, v2, v3", None),
    ("gfx803", "v_cndmask_b32 v0, v1, v2", None),
    ("gfx803", "v_cmp_eq_u32 v1, v2", None),
    ("gfx1030:wavefrontsize64-", "v_add_co_ci_u32 v0, v1, v2", None),
]


def _ids(case):
    return f"{case[0]}: {case[1]}"


@pytest.mark.parametrize("case", CASES, ids=[_ids(case) for case in CASES])
def test_implicit_registers_are_wanted_where_llvm_mc_wants_them(snippet, case):
    assert_linter_verdict(snippet, *case, attributed=True)


@pytest.mark.skipif(LLVM_MC is None, reason="llvm-mc-22 is not installed")
@pytest.mark.parametrize("case", CASES, ids=[_ids(case) for case in CASES])
def test_the_cases_are_what_llvm_mc_22_says(tmp_path, case):
    target, line, message = case
    assert_llvm_mc_verdict(tmp_path, target, line, message)


def test_the_table_speaks_of_the_mnemonic_tables_configurations():
    header, *lines = _TABLE.read_text().splitlines()
    verdicts = mnemonic_verdicts()
    assert json.loads(header)["configurations"] == verdicts.names(tuple(range(len(json.loads(header)["configurations"]))))
    assert lines and all(verdicts.knows(json.loads(line)[0]) for line in lines)
