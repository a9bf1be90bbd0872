"""Modifier names llvm-mc 22 refuses (issue 36): a `name:value` no instruction of any processor takes, and a name
no encoding form of the instruction takes, whichever form it is written in.

The names come from probing llvm-mc 22 (scripts/gen_modifier_names.py, scripts/gen_operand_verdicts.py). Each case
was assembled with `llvm-mc-22 -triple=amdgcn-amd-amdhsa -mcpu=... -filetype=null`; where llvm-mc-22 is installed
the test asks it again, so the expectation cannot drift from the assembler.
"""

import pytest
from amdgpu_lint.isa.mnemonics import operand_verdicts
from amdgpu_lint.model.nodes import Num
from llvm_mc_oracle import LLVM_MC, assert_linter_verdict, assert_llvm_mc_verdict

#: (target id, line, llvm-mc's error or None where it assembles)
CASES = [
    # a name no processor has, on every kind of instruction
    ("gfx1100", "v_add_f32 v0, v1, v2 sdwa_sel:1", "not a valid operand."),
    ("gfx600", "s_nop 0 sdwa_sel:1", "not a valid operand."),
    ("gfx942", "buffer_load_dword v0, off, s[0:3], 0 offsett:4", "not a valid operand."),
    ("gfx1250", "v_add_f32 v0, v1, v2 row_maks:0xf", "not a valid operand."),
    # real names, taken where they belong (some never printed at their default value)
    ("gfx900", "tbuffer_load_format_x v0, off, s[0:3], dfmt:4, nfmt:7, 0", None),
    ("gfx90a", "v_pk_add_f16 v0, v1, v2 neg_lo:[1,0]", None),
    ("gfx90a", "v_mov_b32_dpp v0, v1 row_newbcast:1 row_mask:0xf bank_mask:0xf", None),
    ("gfx1200", "v_swmmac_f16_16x16x32_f16 v[0:3], v[4:7], v[8:15], v16 index_key:1", None),
    ("gfx1250", "v_cvt_scale_pk8_f16_fp4 v[0:3], v1, s0 scale_sel:1", None),
    ("gfx1100", "lds_param_load v0, attr0.x wait_vdst:1", None),
    # a name every form of an unsuffixed VALU mnemonic refuses (e32, e64, DPP, SDWA alike)
    ("gfx90a", "v_sqrt_f32 v0, v4 byte_sel:1", "not a valid operand."),
    ("gfx1100", "v_sqrt_f32 v0, v4 byte_sel:1", "not a valid operand."),
    ("gfx90a", "v_sqrt_f32 v0, v4 op_sel:[1,0]", "not a valid operand."),
    ("gfx90a", "v_mul_lo_u16 v0, v4, v8 mul:2", "not a valid operand."),
    ("gfx90a", "v_sqrt_f32_sdwa v0, v4 byte_sel:1 dst_sel:DWORD", "not a valid operand."),
    ("gfx900", "ds_write2_b32 v0, v1, v2 offset0:1 offset1:2", None),
    # ... but not one some form takes
    ("gfx90a", "v_sqrt_f32 v0, v4 mul:2", None),
    ("gfx1200", "v_cvt_f32_fp8 v0, v1 byte_sel:1", None),
    ("gfx1100", "v_add_f32 v0, v1, v2 clamp mul:2", None),
    # clamp and output modifiers: an `_e32` form has no field for them; an unsuffixed mnemonic is refused where
    # its VOP3 form refuses them too, unless an SDWA form (gfx8-10) may take them
    ("gfx1100", "v_add_f32_e32 v0, v4, v8 mul:2", "invalid operand for instruction"),
    ("gfx1100", "v_cmp_u_f32_e32 vcc_lo, v0, v4 clamp", "invalid operand for instruction"),
    ("gfx1100", "v_max_u32 v0, v4, v8 clamp", "invalid operand for instruction"),
    ("gfx1250", "v_lshrrev_b64 v[0:1], v4, v[8:9] clamp", "invalid operand for instruction"),
    ("gfx900", "v_max_u32 v0, v4, v8 clamp", None),
    ("gfx900", "v_cmp_u_f32 vcc, v0, v4 clamp", None),
    ("gfx1100", "v_add_f32_e64 v0, v4, v8 clamp mul:2", None),
    # ... and written after the controls of a VOP3 DPP or an SDWA form, where llvm-mc refuses them
    ("gfx1100", "v_exp_f32_e64_dpp v0, v4 quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf clamp",
     "invalid operand for instruction"),
    ("gfx1100", "v_exp_f32_e64_dpp v0, v4 clamp quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf", None),
    ("gfx1100", "v_cos_f16_e64_dpp v0, v4 quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf mul:2",
     "not a valid operand."),
    ("gfx1100", "v_cos_f16_e64_dpp v0, v4 mul:2 quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf", None),
    ("gfx900", "v_add_f32_sdwa v0, v4, v5 dst_sel:DWORD clamp", "invalid operand for instruction"),
    ("gfx900", "v_add_f32_sdwa v0, v4, v5 clamp dst_sel:DWORD", None),
]


def _ids(case):
    return f"{case[0]}: {case[1].split()[0]} {case[1].split()[-1]}"


@pytest.mark.parametrize("case", CASES, ids=[_ids(case) for case in CASES])
def test_modifier_names_llvm_mc_refuses(snippet, case):
    assert_linter_verdict(snippet, *case)


@pytest.mark.skipif(LLVM_MC is None, reason="llvm-mc-22 is not installed")
@pytest.mark.parametrize("case", CASES, ids=[_ids(case) for case in CASES])
def test_the_cases_are_what_llvm_mc_22_says(tmp_path, case):
    target, line, error = case
    assert_llvm_mc_verdict(tmp_path, target, line, error)


def test_a_flag_written_with_a_value_is_not_called_an_unknown_name():
    """`clamp:1` is llvm-mc's "unknown token in expression", not an unknown name: left alone."""
    unknown = operand_verdicts().unknown_modifier
    assert unknown("v_add_f32_e64", (("clamp", Num(1)),)) is None
    assert unknown("v_add_f32_e64", (("clamp", None), ("foo", None))) is None  # a bare word is a symbol to llvm-mc
    assert unknown("v_add_f32_e64", (("sdwa_sel", Num(1)),)) == "not a valid operand."
    assert unknown("v_made_up_f32", (("sdwa_sel", Num(1)),)) is None  # an instruction the probes never printed
