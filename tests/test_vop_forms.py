"""What llvm-mc 22 refuses in the DPP, DPP8 and SDWA forms of VALU instructions and in their lane masks (issue 36).

The form is chosen by what is written (a suffix, or the controls); what each form takes comes from probing
llvm-mc 22 (scripts/gen_vop_forms.py). Where llvm-mc-22 is installed each case is assembled again, so the
expectation cannot drift from the assembler.
"""

import pytest
from llvm_mc_oracle import LLVM_MC, assert_linter_verdict, assert_llvm_mc_verdict

#: (target id, line, the words of our finding, or None where llvm-mc assembles the line)
CASES = [
    # DPP takes only VGPRs on gfx8-9, whatever the controls that choose it
    ("gfx803", "v_mov_b32 v3, s5 row_shr:2 row_mask:0xf bank_mask:0xf", "(DPP form): invalid operand for instruction"),
    ("gfx900", "v_add_f32 v3, v4, 7 row_shr:2 row_mask:0xf bank_mask:0xf", "(DPP form): invalid operand"),
    ("gfx900", "v_add_f32 v3, v4, 0x1234 quad_perm:[1,0,3,2]", "(DPP form): invalid operand"),
    ("gfx900", "v_add_f32 v3, -v4, |v5| row_shr:2 row_mask:0xf bank_mask:0xf", None),
    ("gfx900", "v_mov_b32 v1, v2 quad_perm:[0,1,2,3] bound_ctrl:2", "invalid bound_ctrl value"),
    ("gfx900", "v_mov_b32 v1, v2 quad_perm:[0,1,2,3] bound_ctrl:1", None),
    # no clamp in a VOP1/VOP2 DPP form; gfx11's VOP3 DPP form has one
    ("gfx900", "v_add_f32 v1, v2, v3 clamp row_shl:1", "(DPP form): not a valid operand."),
    ("gfx1100", "v_add_f32 v1, v2, v3 clamp row_shl:1", None),
    ("gfx1100", "v_fma_f32 v1, v2, v3, v4 row_shl:1", None),
    # in real-true16 mode the probes wrote 16-bit operands as halves; whole VGPRs throughout are taken too
    ("gfx1100:real-true16+", "v_med3_u16_e64_dpp v0, v4, v8, v12 quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf", None),
    ("gfx1100:real-true16+", "v_med3_u16_e64_dpp v0, v4, v8, 0x1234 quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf",
     "(DPP form): invalid operand for instruction"),
    # SDWA: gfx8 takes only VGPRs, gfx9 SGPRs and inline constants too, no literal anywhere
    ("gfx803", "v_sub_f32 v3, s4, v5 src0_sel:WORD_1", "(SDWA form): invalid operand for instruction"),
    ("gfx900", "v_sub_f32 v3, s4, v5 src0_sel:WORD_1", None),
    ("gfx803", "v_sub_f32_sdwa v3, neg(-2.0), v5 src0_sel:WORD_1", "(SDWA form): invalid operand"),
    ("gfx803", "v_sub_f32_sdwa v3, v5, -|-2| src0_sel:WORD_1", "(SDWA form): invalid operand"),
    ("gfx900", "v_sub_f32_sdwa v3, neg(-2.0), v5 src0_sel:WORD_1", None),
    ("gfx900", "v_sub_f32 v3, v4, 0x3e8 src1_sel:WORD_1", "(SDWA form): invalid operand"),
    ("gfx803", "v_sub_f32 v3, v4, tma_lo dst_sel:WORD_1", "(SDWA form): invalid operand"),
    ("gfx900", "v_sub_f32 v3, v4, s[6:7] dst_sel:WORD_1", "(SDWA form): invalid operand"),
    ("gfx900", "v_sub_f32 v3, exec_lo, vcc dst_sel:WORD_1", "(SDWA form): invalid operand"),
    ("gfx803", "v_ceil_f32 v3, v4 mul:2 dst_sel:WORD_1", "(SDWA form): operands are not valid for this GPU or mode"),
    ("gfx900", "v_ceil_f32 v3, v4 mul:2 dst_sel:WORD_1", None),
    ("gfx900", "v_cndmask_b32_sdwa v3, v4, sext(v5), vcc src0_sel:WORD_1", "(SDWA form): not a valid operand."),
    ("gfx900", "v_or_b32_sdwa v3, v4, sext(v5) src0_sel:WORD_1", None),
    ("gfx900", "v_mac_f32 v3, v4, v5 src0_sel:WORD_1", "sdwa variant of this instruction is not supported"),
    # the constant bus: one scalar register in gfx9's SDWA forms, two in gfx10's
    ("gfx900", "v_cmp_lt_f32_sdwa s[4:5], s1, s2 src0_sel:WORD_1", "constant bus"),
    ("gfx900", "v_cmp_lt_f32_sdwa s[4:5], s1, s1 src0_sel:WORD_1", None),
    ("gfx1030:wavefrontsize64+", "v_cmp_lt_f32_sdwa s[4:5], s1, s2 src0_sel:WORD_1", None),
    # wave64 in the true16 mode llvm-mc does not default to is still wave64 (its configuration name goes on after
    # `wavefrontsize64+`)
    ("gfx1100:wavefrontsize64+:real-true16-", "v_cmp_eq_i64_e64 s[0:1], v[0:1], v[4:5]", None),
    ("gfx1100:wavefrontsize64+:real-true16-", "v_cmp_eq_i64_e64 s0, v[0:1], v[4:5]", "(wave64 form): invalid operand"),
    ("gfx1200:wavefrontsize64+:real-true16+", "v_cndmask_b32_e64 v0, v4, v8, s[0:1]", None),
    # the constant bus of the plain forms: one scalar register or literal before gfx10, two from gfx10
    ("gfx900", "v_fma_f32 v0, s1, s2, v1", "(VOP form): invalid operand (violates constant bus restrictions)"),
    ("gfx900", "v_fma_f32 v0, s1, -s1, v1", None),
    ("gfx900", "v_add_f32_e64 v0, s1, |s2|", "constant bus"),
    ("gfx900", "v_add_f32 v0, s1, s2", "(VOP form)"),
    ("gfx900", "v_add_f32 v0, s1, v2", None),
    ("gfx900", "v_add_co_u32_e64 v0, s[4:5], s1, s2", "constant bus"),
    ("gfx900", "v_readlane_b32 s0, v1, s2", None),
    ("gfx942", "v_fma_f32 v0, s1, s2, v1", "constant bus"),
    ("gfx1030:wavefrontsize64-", "v_fma_f32 v0, s1, s2, v3", None),
    ("gfx1030:wavefrontsize64-", "v_fma_f32 v0, s1, s2, s3", "constant bus"),
    ("gfx1030:wavefrontsize64-", "v_fma_f32 v0, s1, 0x1234, s2", "constant bus"),
    ("gfx1030:wavefrontsize64-", "v_fma_f32 v0, 0x1234, 0x5678, v1", "only one unique literal operand is allowed"),
    ("gfx1030:wavefrontsize64-", "v_fma_f32 v0, 0x1234, 0x1234, v1", None),
    ("gfx1030:wavefrontsize64-", "v_cndmask_b32_e64 v0, s1, s2, s3", "constant bus"),
    ("gfx1030:wavefrontsize64-", "v_cndmask_b32_e64 v0, s1, v2, s3", None),
    ("gfx1100:wavefrontsize64-", "v_fma_f32 v0, s1, s2, s3", "constant bus"),
    # DPP8 on gfx10: VGPR sources
    ("gfx1030:wavefrontsize64-", "v_add_f32 v1, s2, v3 dpp8:[7,6,5,4,3,2,1,0]", "(DPP8 form): invalid operand"),
    ("gfx1030:wavefrontsize64-", "v_add_f32 v1, v2, v3 dpp8:[7,6,5,4,3,2,1,0]", None),
    # lane masks: 32-bit in wave32, 64-bit in wave64
    ("gfx1030:wavefrontsize64-", "v_cmp_lt_f32_e32 vcc, v1, v2", "(wave32 form): operands are not valid"),
    ("gfx1030:wavefrontsize64-", "v_cmp_lt_f32_e32 vcc_lo, v1, v2", None),
    ("gfx1030:wavefrontsize64+", "v_cmp_lt_f32_e32 vcc_lo, v1, v2", "(wave64 form): operands are not valid"),
    ("gfx1030:wavefrontsize64+", "v_cmp_lt_f32_e32 vcc, v1, v2", None),
    ("gfx1030:wavefrontsize64-", "v_cndmask_b32 v1, v2, v3, s[4:5]", "(wave32 form)"),
    ("gfx1030:wavefrontsize64-", "v_cndmask_b32 v1, v2, v3, s4", None),
    ("gfx1030:wavefrontsize64+", "v_div_scale_f32 v1, s4, v2, v2, v3", "(wave64 form): invalid operand"),
    ("gfx1030:wavefrontsize64+", "v_div_scale_f32 v1, s[4:5], v2, v2, v3", None),
    ("gfx1030:wavefrontsize64-", "v_add_co_ci_u32 v1, vcc, v2, v3, vcc row_shl:3", "(DPP form)"),
    ("gfx1030:wavefrontsize64-", "v_add_co_ci_u32 v1, vcc_lo, v2, v3, vcc_lo row_shl:3", None),
    ("gfx1100:wavefrontsize64+", "v_add_co_ci_u32 v1, vcc, v2, v3, vcc", None),
]


def _ids(case):
    return f"{case[0]}: {case[1]}"


@pytest.mark.parametrize("case", CASES, ids=[_ids(case) for case in CASES])
def test_the_form_written_is_judged_as_llvm_mc_judges_it(snippet, case):
    assert_linter_verdict(snippet, *case, attributed=True)


@pytest.mark.skipif(LLVM_MC is None, reason="llvm-mc-22 is not installed")
@pytest.mark.parametrize("case", CASES, ids=[_ids(case) for case in CASES])
def test_the_cases_are_what_llvm_mc_22_says(tmp_path, case):
    target, line, words = case
    assert_llvm_mc_verdict(tmp_path, target, line, None if words is None else "")


def test_the_wave_size_unknown_reports_no_lane_mask():
    """A gfx10+ target id that names no wave size may be either: a lane mask of one of them is not judged."""
    from amdgpu_lint.isa.mnemonics import mnemonic_verdicts
    from amdgpu_lint.isa.vop_forms import vop_form_refusal
    from amdgpu_lint.model.ir import Instruction, Provenance
    from amdgpu_lint.model.nodes import Reg, SpecialReg
    from amdgpu_lint.model.targets import parse_target_id

    # a real Provenance: a compiled Instruction checks the type of each field
    instruction = Instruction("v_cmp_lt_f32_e32", (SpecialReg("vcc"), Reg("v", 1), Reg("v", 2)), (), Provenance("k.s", 1))
    verdicts = mnemonic_verdicts()
    target = parse_target_id("gfx1030")
    either, wave32 = verdicts.columns(target, None), verdicts.columns(target, 32)
    assert vop_form_refusal(instruction, "gfx1030", either, either) is None
    assert vop_form_refusal(instruction, "gfx1030", wave32, wave32) is not None


def test_a_wave_size_only_the_code_suggests_leaves_lane_masks_alone(snippet):
    """Code naming `vcc_lo` looks like wave32 code, but llvm-mc may assemble it in either wave size (or both, as
    `-mattr=+wavefrontsize32,+wavefrontsize64` does): a `vcc` beside it is not judged; declared, it is."""
    code = "k:\n  v_cndmask_b32_e32 v1, v2, v3, vcc_lo\n  v_cmp_lt_f32_e32 vcc, v1, v2\n  s_endpgm\n"
    found = [d.line for d in snippet.lint(code, mcpu="gfx1030").diagnostics if d.name == "unknown-instruction"]
    assert found == []
    declared = [d.line for d in snippet.lint(code, mcpu="gfx1030:wavefrontsize64-").diagnostics
                if d.name == "unknown-instruction"]
    assert declared == [3]
