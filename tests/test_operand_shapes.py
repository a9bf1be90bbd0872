"""Register widths and files llvm-mc 22 refuses on gfx6 and gfx1250/gfx1251, the processors read with a neighbour's
instruction-syntax table (issue 36), from lint/isa/tables/operand_shapes.jsonl.

The table comes from probing llvm-mc 22 (scripts/gen_operand_shapes.py). Where llvm-mc-22 is installed each case
is assembled again, so the expectation cannot drift from the assembler. Every refused line has a neighbour that
assembles and draws nothing.
"""

import json
import re
from pathlib import Path

import pytest
from amdgpu_lint import isa
from amdgpu_lint.isa.mnemonics import mnemonic_verdicts
from llvm_mc_oracle import LLVM_MC, assert_linter_verdict, assert_llvm_mc_verdict

REFUSED = "invalid operand for instruction"
#: (target id, line, llvm-mc's error or None where it assembles)
CASES = [
    # gfx1250: gfx12's renamed and older spellings, VALU, SALU and memory widths and files
    ("gfx1250", "ds_read_i8 v[0:1], v4", REFUSED),
    ("gfx1250", "ds_read_i8 v0, v4", None),
    ("gfx1250", "flat_atomic_fmax v[4:5], v[8:9]", REFUSED),
    ("gfx1250", "flat_atomic_fmax v[4:5], v8", None),
    ("gfx1250", "s_mul_f32 s0, s4, s[8:9]", REFUSED),
    ("gfx1250", "s_mul_f32 s0, s4, s8", None),
    ("gfx1250", "v_add_nc_i32_e64 v0, v[4:5], v8", REFUSED),
    ("gfx1250", "v_add_nc_i32_e64 v0, s4, v8", None),
    ("gfx1250", "v_lshrrev_b32 s0, v4, v8", REFUSED),
    ("gfx1250", "v_lshrrev_b32 v0, s4, v8", None),
    ("gfx1250", "v_mul_u64 v[0:1], v[2:3], v[4:5]", None),
    # where no form is left, llvm-mc says "too few operands"
    ("gfx1250", "flat_atomic_and_x2 v4, v[8:9]", "too few operands for instruction"),
    ("gfx1250", "flat_atomic_and_x2 v[4:5], v[8:9]", None),
    ("gfx1251", "s_andn2_saveexec_b32 s[0:1], s4", REFUSED),
    ("gfx1251", "s_andn2_saveexec_b32 s0, s4", None),
    # true16 halves are not judged
    ("gfx1250:real-true16+", "v_add_f16 v0.l, v1.l, v2.l", None),
    # gfx6: no disassembler; gfx8's instances, probed on gfx6
    ("gfx600", "ds_read_b32 v0, v[4:5]", REFUSED),
    ("gfx600", "ds_read_b32 v0, v4", None),
    ("gfx601", "v_cmp_eq_i32 v0, s4", REFUSED),
    ("gfx601", "v_cmp_eq_i32 s4, v0", None),
    ("gfx600", "v_add_f32 v0, v1, s2", None),
    ("gfx600", "v_add_f32 v0, v1, s[2:3]", REFUSED),
]


def _ids(case):
    return f"{case[0]}: {case[1]}"


@pytest.mark.parametrize("case", CASES, ids=[_ids(case) for case in CASES])
def test_widths_and_files_are_refused_where_llvm_mc_refuses_them(snippet, case):
    assert_linter_verdict(snippet, *case, attributed=True)


@pytest.mark.skipif(LLVM_MC is None, reason="llvm-mc-22 is not installed")
@pytest.mark.parametrize("case", CASES, ids=[_ids(case) for case in CASES])
def test_the_cases_are_what_llvm_mc_22_says(tmp_path, case):
    target, line, error = case
    assert_llvm_mc_verdict(tmp_path, target, line, error)


def test_symbols_and_expressions_are_not_judged(snippet):
    result = snippet.lint("""
        .set WIDE, 0x12345678
        k:
          s_mov_b32 s0, WIDE
          v_add_nc_u32 v0, WIDE+4, v1
          s_endpgm
    """, mcpu="gfx1250")
    assert [d.message for d in result.diagnostics if d.name == "unknown-instruction"] == []


def test_the_table_is_consistent_with_the_mnemonic_table():
    """Its columns are the mnemonic table's configurations of the same names, its mnemonics are ones that table
    knows, and each operand is written as the generator writes it."""
    tables = Path(isa.__file__).parent / "tables"
    header, *lines = (tables / "operand_shapes.jsonl").read_text().splitlines()
    facts = json.loads(header)
    configurations = json.loads((tables / "mnemonics.jsonl").read_text().split("\n", 1)[0])["configurations"]
    verdicts = mnemonic_verdicts()
    assert [configurations[column] for column in facts["columns"]] == facts["configurations"]
    assert {name.split(":")[0] for name in facts["configurations"]} >= {"gfx600", "gfx601", "gfx602", "gfx1250",
                                                                          "gfx1251"}
    slot = re.compile(r"^(o|h|[vsa]\d+(\|([vsa]\d+|[il])*){0,3})$")
    for line in lines:
        name, shapes = json.loads(line)
        assert verdicts.knows(name) and not name.startswith("image_"), name
        for slots, _forms, members in shapes:
            assert all(slot.match(text) for text in slots), (name, slots)
            assert set(members) <= set(facts["columns"]), name
    assert len(lines) > 1000

