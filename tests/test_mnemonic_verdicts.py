"""What llvm-mc 22 says of a mnemonic or special register on a target, whatever the operands (issue 36).

The table comes from probing llvm-mc 22 (scripts/gen_mnemonic_verdicts.py). Each case below was assembled
with `llvm-mc-22 -triple=amdgcn-amd-amdhsa -mcpu=... -filetype=null`; where llvm-mc-22 is installed the
test asks it again, so the expectation cannot drift from the assembler.
"""

import pytest
from amdgpu_lint.isa.mnemonics import mnemonic_verdicts
from amdgpu_lint.model.targets import parse_target_id
from llvm_mc_oracle import LLVM_MC, assert_linter_verdict, assert_llvm_mc_verdict, findings_on_the_line

#: (target id, line, llvm-mc's error or None where it assembles)
CASES = [
    # gfx6 has its own verdicts, not gfx7's
    ("gfx600", "s_dcache_wb", "instruction not supported on this GPU"),
    ("gfx600", "v_add_f32_sdwa v0, v1, v2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD",
     "sdwa variant of this instruction is not supported"),
    ("gfx600", "v_mov_b32 v0, v1", None),
    ("gfx700", "v_made_up_f32 v0, v1", "invalid instruction"),
    ("gfx803", "s_dcache_wb", None),
    ("gfx700", "s_dcache_wb", "instruction not supported on this GPU"),
    # gfx1250 too
    ("gfx1250", "v_tanh_f32 v1, v2", None),
    ("gfx1250", "s_cmpk_eq_u32 s0, 1", "instruction not supported on this GPU"),
    # gfx12 dropped what gfx11 had
    ("gfx1200", "s_cmpk_eq_u32 s0, 1", "instruction not supported on this GPU"),
    ("gfx1200", "buffer_gl0_inv", "instruction not supported on this GPU"),
    ("gfx1200", "v_cmp_f_f32 vcc_lo, v0, v1", "instruction not supported on this GPU"),
    ("gfx1100", "v_cmp_f_f32 vcc_lo, v0, v1", None),
    ("gfx1100", "v_swap_b16 v0.l, v1.l", None),
    ("gfx1200:real-true16+", "v_mov_b16_e32 v0.h, v1.l", None),  # LLVM's gfx12 true16 output
    ("gfx1200:real-true16-", "v_mov_b16_e32 v0.h, v1.l", "instruction not supported on this GPU"),
    ("gfx1030", "v_swap_b16 v0, v1", "instruction not supported on this GPU"),
    # gfx9-4-generic lacks gfx942's fp8 conversions
    ("gfx942", "v_cvt_pk_fp8_f32 v0, v1, v2", None),
    ("gfx9-4-generic", "v_cvt_pk_fp8_f32 v0, v1, v2", "instruction not supported on this GPU"),
    # wave32-only instructions in wave64
    ("gfx1100:wavefrontsize64+", "v_dual_mov_b32 v0, v1 :: v_dual_mov_b32 v3, v2", "instruction requires wavesize=32"),
    ("gfx1100:wavefrontsize64-", "v_dual_mov_b32 v0, v1 :: v_dual_mov_b32 v3, v2", None),
    ("gfx1010", "v_dual_mov_b32 v0, v1 :: v_dual_mov_b32 v3, v2", "instruction not supported on this GPU"),
    # encodings a target lacks
    ("gfx1010:wavefrontsize64-", "v_add_co_u32_e32 v2, vcc_lo, s0, v2", "e32 variant of this instruction is not supported"),
    # special registers
    ("gfx900", "s_mov_b64 s[0:1], tba", "tba register not available on this GPU"),
    ("gfx803", "s_mov_b64 s[0:1], tba", None),
    ("gfx900", "s_and_b32 ttmp9, tma_hi, 0xffff", "tma_hi register not available on this GPU"),
    ("gfx803", "s_mov_b32 s0, ttmp12", "outside gfx803's registers"),  # register-budget's words
    ("gfx900", "s_mov_b32 s0, ttmp12", None),
    ("gfx900", "s_mov_b32 s0, null", "'null' operand is not supported on this GPU"),
    ("gfx1030", "s_mov_b32 s0, null", None),
]


def _ids(case):
    return f"{case[0]}: {case[1].split()[0]}"


@pytest.mark.parametrize("case", CASES, ids=[_ids(case) for case in CASES])
def test_the_target_rejects_what_llvm_mc_rejects_in_its_words(snippet, case):
    target, line, error = case
    expected = "is not an instruction" if error == "invalid instruction" else error
    assert_linter_verdict(snippet, target, line, expected, ("unknown-instruction", "register-budget"))


@pytest.mark.skipif(LLVM_MC is None, reason="llvm-mc-22 is not installed")
@pytest.mark.parametrize("case", CASES, ids=[_ids(case) for case in CASES])
def test_the_cases_are_what_llvm_mc_22_says(tmp_path, case):
    target, line, error = case
    error = "ttmp12 register not available on this GPU" if error and "outside" in error else error
    assert_llvm_mc_verdict(tmp_path, target, line, error)


def test_an_unknown_wave_size_reports_only_what_both_wave_sizes_reject():
    verdicts = mnemonic_verdicts()
    target = parse_target_id("gfx1100")
    either = verdicts.columns(target, None)
    assert len(either) == 4  # both wave sizes, each with real-true16 on and off (the target id names neither)
    assert len(verdicts.columns(parse_target_id("gfx1100:real-true16+"), 32)) == 1
    assert verdicts.rejection("v_dual_mov_b32", either) is None  # wave32 has it
    assert verdicts.rejection("v_dual_mov_b32", verdicts.columns(target, 64)) == "instruction requires wavesize=32"
    assert verdicts.rejection("s_dcache_wb", verdicts.columns(parse_target_id("gfx600"), None)) is not None


def test_a_processor_llvm_22_does_not_know_has_no_verdicts():
    verdicts = mnemonic_verdicts()
    assert verdicts.columns(parse_target_id("gfx940"), None) == ()
    assert verdicts.rejection("v_made_up_f32", ()) is None


@pytest.mark.parametrize(("target", "line", "wrong"), [
    ("gfx1250", "export mrt0 v0, v0, v0, v0", "'export'"),  # gfx1250 is read with gfx12's table, which has export
    ("gfx1250", "image_sample v[0:3], v[0:1], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D", "'image_sample'"),
])
def test_what_the_target_has_instead_is_never_the_refused_mnemonic(snippet, target, line, wrong):
    found = findings_on_the_line(snippet, target, line, ("unknown-instruction",))
    assert len(found) == 1 and "not supported on this GPU" in found[0], found
    _, _, guesses = found[0].partition("did you mean")
    assert wrong not in guesses, found


#: (target id, line, llvm-mc's error or None): modifiers and kinds of operand, from the probed instances
OPERAND_CASES = [
    ("gfx1200", "v_wmma_f32_16x16x16_f16 v[8:15], v[0:3], v[4:7], v[8:15] clamp", "invalid operand for instruction"),
    ("gfx1200", "v_wmma_f32_16x16x16_f16 v[8:15], v[0:3], v[4:7], v[8:15] op_sel:[1,0,0]", "not a valid operand."),
    ("gfx1200", "v_wmma_f32_16x16x16_f16 v[8:15], s[0:3], v[4:7], v[8:15]", "invalid operand for instruction"),
    ("gfx1200", "v_wmma_f32_16x16x16_f16 v[8:15], v[0:3], v[4:7], v[8:15]", None),
    ("gfx600", "v_mov_b32 v0, v0 quad_perm:[0,2,1,1]", "not a valid operand."),
    ("gfx700", "v_mov_b32 v1, v2 dst_sel:BYTE_0 dst_unused:UNUSED_PRESERVE src0_sel:DWORD", "not a valid operand."),
    ("gfx900", "v_mov_b32 v0, v0 quad_perm:[0,2,1,1]", None),
    ("gfx900", "v_bfe_u32 v0, v2, v3, 0x12345", "literal operands are not supported"),
    ("gfx1030", "v_bfe_u32 v0, v2, v3, 0x12345", None),
]


@pytest.mark.parametrize("case", OPERAND_CASES, ids=[_ids(case) + case[1].split()[-1] for case in OPERAND_CASES])
def test_modifiers_and_operand_kinds_llvm_mc_refuses(snippet, case):
    assert_linter_verdict(snippet, *case)


@pytest.mark.skipif(LLVM_MC is None, reason="llvm-mc-22 is not installed")
@pytest.mark.parametrize("case", OPERAND_CASES, ids=[_ids(case) + case[1].split()[-1] for case in OPERAND_CASES])
def test_the_operand_cases_are_what_llvm_mc_22_says(tmp_path, case):
    test_the_cases_are_what_llvm_mc_22_says(tmp_path, case)


def test_a_number_that_is_an_inline_constant_in_some_operand_type_is_not_judged(snippet):
    """0x3c00 is 1.0 in f16 (inline there, a literal in a u32 operand): the probes do not know the operand's type."""
    result = snippet.lint("k:\n  v_bfe_u32 v0, v2, v3, 0x3c00\n  s_endpgm\n", mcpu="gfx900")
    assert "unknown-instruction" not in [d.name for d in result.diagnostics]


def test_the_generators_read_one_printed_instruction_a_line():
    """The disassembly the operand generators read: an instruction printed without operands (`v_illegal`) is one
    instance with none, not the mnemonic of a line whose operands are the next line."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
    from gen_operand_verdicts import _INSTANCE

    printed = "\tv_illegal\n\tv_mov_b32 v0, v1 ; comment\n\ts_nop 0\n"
    assert _INSTANCE.findall(printed) == [("v_illegal", ""), ("v_mov_b32", "v0, v1"), ("s_nop", "0")]


def test_the_table_is_written_as_its_generator_writes_it():
    """tables/mnemonics.jsonl is read a line at a time (a mnemonic's line found by name when first asked about): the
    committed file is what scripts/gen_mnemonic_verdicts.py writes of the table it reads back, and the verdicts
    read from it are those of that table."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
    from gen_mnemonic_verdicts import OUT, read_table, render

    table = read_table()
    assert render(table) == OUT.read_text()
    verdicts = mnemonic_verdicts()
    assert verdicts.mnemonics() == sorted(table["mnemonics"]) and len(table["mnemonics"]) > 8000
    columns = {name: index for index, name in enumerate(table["configurations"])}
    for mnemonic in ("s_dcache_wb", "v_dual_mov_b32", "v_add_f32_sdwa", "buffer_gl0_inv", "v_mov_b32"):
        pattern = table["patterns"][table["mnemonics"][mnemonic]]
        assert verdicts.accepting(mnemonic) == [name for name in table["configurations"] if not pattern[columns[name]]]
        for column, code in enumerate(pattern):
            assert verdicts.rejection(mnemonic, (column,)) == (table["messages"][code - 1] if code else None)
    for register, index in table["registers"].items():
        pattern = table["patterns"][index]
        for column, code in enumerate(pattern):
            assert verdicts.register_rejection(register, (column,)) == (table["messages"][code - 1] if code else None)
