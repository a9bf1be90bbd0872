"""What llvm-mc 22 refuses of matrix and register-tuple operands (issue 36): WMMA/SWMMAC modifiers and sources,
MFMA register files, fields and sources, even-aligned tuples on gfx90a and later, AGPR data before gfx90a, the
v0-v127 reach of 16-bit `_e32`/`_dpp` forms, and the operand widths that depend on the wave size.

The facts come from probing llvm-mc 22 (scripts/gen_matrix_operands.py). Each case below was assembled with
`llvm-mc-22 -triple=amdgcn-amd-amdhsa -mcpu=... -filetype=null`; where llvm-mc-22 is installed the test asks it
again, so the expectation cannot drift from the assembler.
"""

import pytest
from llvm_mc_oracle import LLVM_MC, assert_llvm_mc_verdict, findings_on_the_line

#: (target id, line, llvm-mc's error or None where it assembles)
CASES = [
    # WMMA/SWMMAC: which bits of neg_lo/neg_hi an instruction takes, index_key's range, op_sel, clamp
    ("gfx1200", "v_wmma_i32_16x16x16_iu8 v[4:11], v[0:1], v[2:3], v[4:11] neg_lo:[0,0,1]", "invalid neg_lo operand"),
    ("gfx1200", "v_wmma_i32_16x16x16_iu8 v[4:11], v[0:1], v[2:3], v[4:11] neg_lo:[1,0,0]", None),
    ("gfx1200", "v_wmma_f32_16x16x16_fp8_fp8 v[4:11], v[0:1], v[2:3], v[4:11] neg_hi:[0,1,0]", "invalid neg_hi operand"),
    ("gfx1200", "v_wmma_f32_16x16x16_fp8_fp8 v[4:11], v[0:1], v[2:3], v[4:11] neg_hi:[0,0,1]", None),
    ("gfx1200", "v_swmmac_f32_16x16x32_f16 v[12:19], v[0:3], v[4:11], v20 index_key:2", "out of range index_key"),
    ("gfx1200", "v_swmmac_f32_16x16x32_f16 v[12:19], v[0:3], v[4:11], v20 index_key:1", None),
    ("gfx1200", "v_swmmac_i32_16x16x32_iu8 v[6:13], v[0:1], v[2:5], v14 index_key:1", None),
    ("gfx1200", "v_swmmac_i32_16x16x32_iu8 v[6:13], v[0:1], v[2:5], v14 index_key:9", "out of range index_key"),
    ("gfx1200", "v_swmmac_i32_16x16x64_iu4 v[6:13], v[0:1], v[2:5], v14 index_key:1", "not a valid operand."),
    ("gfx1200:wavefrontsize64+", "v_swmmac_f32_16x16x32_f16 v[12:15], v[0:1], v[4:7], v20 index_key:3", None),
    ("gfx1200:wavefrontsize64+", "v_swmmac_f32_16x16x32_f16 v[12:15], v[0:1], v[4:7], v20 index_key:4",
     "out of range index_key"),
    ("gfx1100", "v_wmma_f32_16x16x16_f16 v[16:23], v[0:7], v[8:15], v[16:23] op_sel:[0,0,1]", "not a valid operand."),
    ("gfx1100", "v_wmma_f16_16x16x16_f16 v[16:23], v[0:7], v[8:15], v[16:23] op_sel:[0,0,1]", None),
    ("gfx1100", "v_wmma_f32_16x16x16_f16 v[16:23], v[0:7], v[8:15], v[16:23] clamp", "invalid operand for instruction"),
    ("gfx1100", "v_wmma_i32_16x16x16_iu8 v[8:15], v[0:3], v[4:7], v[8:15] clamp", None),
    ("gfx1100:wavefrontsize64+", "v_wmma_f32_16x16x16_bf16 v[16:19], v[0:7], v[8:15], v[16:19] clamp",
     "invalid operand for instruction"),
    # MFMA on gfx908: AGPR results and accumulators, VGPR or AGPR sources, fields' ranges, src2 and literals
    ("gfx908", "v_mfma_f32_32x32x1f32 v[0:31], v0, v1, v[0:31]", "operands are not valid for this GPU or mode"),
    ("gfx908", "v_mfma_f32_32x32x1f32 a[0:31], a0, a1, a[0:31]", None),
    ("gfx90a", "v_mfma_f32_32x32x1f32 v[0:31], v0, v1, v[0:31]", None),
    ("gfx90a", "v_mfma_f32_32x32x1f32 a[0:31], v0, v1, v[0:31]", "invalid operand for instruction"),
    ("gfx908", "v_mfma_f32_32x32x1f32 a[0:31], v0, v1, a[0:31] cbsz:8", "invalid cbsz value."),
    ("gfx908", "v_mfma_f32_32x32x1f32 a[0:31], v0, v1, a[0:31] cbsz:4 abid:15", None),
    ("gfx908", "v_mfma_f32_32x32x1f32 a[0:31], v0, v1, a[0:31] abid:16", "invalid abid value."),
    ("gfx908", "v_mfma_f32_32x32x1f32 a[0:31], v0, v1, a[0:31] blgp:8", "invalid operand for instruction"),
    ("gfx908", "v_mfma_f32_32x32x1f32 a[0:31], v0, v1, 1", "inline constants are not allowed for this operand"),
    ("gfx90a", "v_mfma_f32_32x32x1f32 a[0:31], v0, v1, 1", None),
    ("gfx908", "v_mfma_f32_32x32x1f32 a[0:31], 1, v1, a[0:31]", "invalid operand for instruction"),
    ("gfx942", "v_mfma_f32_32x32x1f32 a[0:31], v0, v1, a[0:31] clamp", "invalid operand for instruction"),
    ("gfx942", "v_mfma_f32_16x16x4_f32 v[0:3], v2, v4, v[8:11] op_sel:[0,0,0]", "not a valid operand."),
    ("gfx942", "v_mfma_f64_16x16x4_f64 v[0:7], v[2:3], v[4:5], v[8:15] neg:[0,0,0]", None),
    ("gfx950", "v_mfma_f32_16x16x128_f8f6f4 v[0:3], v[4:9], v[12:19], v[20:23] cbsz:2", None),
    ("gfx90a", "v_mfma_f32_32x32x2f32 v[0:15], v2, v3, v[8:23]", "source 2 operand must not partially overlap with dst"),
    ("gfx90a", "v_mfma_f32_32x32x2f32 v[0:15], v2, v3, v[0:15]", None),
    ("gfx908", "v_accvgpr_write a2, 100", "invalid operand for instruction"),
    ("gfx908", "v_accvgpr_write a2, execz", "source operand must be either a VGPR or an inline constant"),
    ("gfx908", "v_accvgpr_write a2, -1", None),
    ("gfx90a", "v_accvgpr_write a2, s0", None),
    # 64-bit and wider VGPR/AGPR tuples start on an even register from gfx90a
    ("gfx90a", "buffer_load_dwordx3 v[5:7], off, s[8:11], s3", "invalid operand for instruction"),
    ("gfx90a", "buffer_load_dwordx3 v[4:6], off, s[8:11], s3", None),
    ("gfx908", "buffer_load_dwordx3 v[5:7], off, s[8:11], s3", None),
    ("gfx942", "global_load_dwordx2 v[1:2], v[2:3], off", "invalid operand for instruction"),
    ("gfx90a", "v_fma_f64 v[0:1], v[1:2], v[2:3], v[4:5]", "invalid register class: vgpr tuples must be 64 bit aligned"),
    ("gfx90a", "v_mfma_f32_32x32x1f32 a[1:32], v0, v1, a[0:31]", "invalid operand for instruction"),
    ("gfx908", "v_mfma_f32_32x32x1f32 a[1:32], v0, v1, a[1:32]", None),
    ("gfx90a", "ds_gws_init v5 offset:64 gds", "vgpr must be even aligned"),
    ("gfx90a", "image_load v[1:4], v2, s[4:11] dmask:0xf", "invalid operand for instruction"),
    ("gfx90a", "image_load v[2:5], v2, s[4:11] dmask:0xf", None),
    ("gfx908", "ds_gws_init v5 offset:64 gds", None),
    ("gfx942", "v_mfma_f32_32x32x8f16 a[0:15], v[1:2], v[2:3], a[0:15]", "invalid operand for instruction"),
    ("gfx90a", "v_lshlrev_b64 v[1:2], 1, v[2:3]", "invalid operand for instruction"),
    ("gfx942", "v_mov_b64 v[1:2], v[4:5]", "invalid operand for instruction"),
    ("gfx942", "v_mov_b64 v[2:3], v[4:5]", None),
    ("gfx1250", "global_load_b64 v[1:2], v[4:5], off", "invalid operand for instruction"),
    ("gfx1200", "global_load_b64 v[1:2], v[4:5], off", None),
    # SGPR and trap-temporary tuples: pairs on an even register, wider ones on a multiple of 4, on every processor
    ("gfx900", "s_load_dwordx4 s[2:5], s[0:1], 0x0", "invalid register alignment"),
    ("gfx1100", "s_load_b256 s[4:11], s[0:1], 0x0", None),
    ("gfx600", "s_mov_b64 s[1:2], s[4:5]", "invalid register alignment"),
    ("gfx1200", "v_add_f64_e64 v[0:1], s[1:2], v[2:3]", "invalid register alignment"),
    ("gfx90a", "s_and_b64 ttmp[1:2], s[0:1], s[2:3]", "invalid register alignment"),
    # AGPR data of memory instructions: gfx90a on, not gfx908
    ("gfx908", "global_load_dword a1, v[2:3], off", "invalid operand for instruction"),
    ("gfx90a", "global_load_dword a1, v[2:3], off", None),
    ("gfx90a", "global_load_dword v1, a[2:3], off", "invalid operand for instruction"),
    # 16-bit e32 and DPP forms reach v0-v127 only (true16 and fake16)
    ("gfx1100:real-true16+", "v_add_f16_e32 v128.l, v1.l, v2.l", "invalid operand for instruction"),
    ("gfx1100:real-true16+", "v_add_f16 v128.l, v1.l, v2.l", None),
    ("gfx1100:real-true16+", "v_add_f16_e32 v1, v129, v2", "operands are not valid for this GPU or mode"),
    ("gfx1100", "v_add_f16_dpp v1, v2, v129 quad_perm:[0,1,2,3]", "operands are not valid for this GPU or mode"),
    ("gfx1100:real-true16-", "v_add_f16_e32 v130, v1, v2", "operands are not valid for this GPU or mode"),
    ("gfx1200:real-true16-", "v_add_f16_e32 v1, v1, v200", "operands are not valid for this GPU or mode"),
    ("gfx1200:real-true16+", "v_add_f16_e32 v1.l, v1.l, v200.h", "invalid operand for instruction"),
    ("gfx1200", "v_add_f32_e32 v1, v1, v200", None),
    # wave64 halves global_load_tr's data
    ("gfx1200:wavefrontsize64+", "global_load_tr_b128 v[1:2], v0, s[0:1] offset:64", None),
    ("gfx1200:wavefrontsize64+", "global_load_tr_b64 v1, v[3:4], off", None),
    ("gfx1200:wavefrontsize64+", "global_load_tr_b128 v[1:4], v0, s[0:1]", "operands are not valid for this GPU or mode"),
    ("gfx1200:wavefrontsize64-", "global_load_tr_b64 v[1:2], v[3:4], off", None),
]


def _ids(case):
    return f"{case[0]}: {case[1].split()[0]} {case[1].split()[-1]}"


@pytest.mark.parametrize("case", CASES, ids=[_ids(case) for case in CASES])
def test_the_linter_refuses_what_llvm_mc_refuses_in_its_words(snippet, case):
    target, line, error = case
    found = findings_on_the_line(snippet, target, line)
    if error is None:
        assert found == []
    else:
        assert found, "no finding"
        assert error in found[0] or "dwords, but" in found[0], found


@pytest.mark.skipif(LLVM_MC is None, reason="llvm-mc-22 is not installed")
@pytest.mark.parametrize("case", CASES, ids=[_ids(case) for case in CASES])
def test_the_cases_are_what_llvm_mc_22_says(tmp_path, case):
    target, line, error = case
    assert_llvm_mc_verdict(tmp_path, target, line, error)
