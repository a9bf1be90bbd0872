"""missing-nop: one hand-written case per hazard row, firing with too few wait states and quiet
with enough; wait-state counting (s_nop k = k+1, worst path across blocks); the fix."""

import pytest
from amdgpu_lint.rules.missing_nop import nops_for

# (row, target, producer lines, consumer line, wait states needed)
ROWS = [
    (1, "gfx900", "v_readfirstlane_b32 s4, v0", "global_load_dword v1, v2, s[4:5]", 5),
    (1, "gfx90a", "v_cmp_eq_u32_e64 s[4:5], v0, v1", "buffer_load_dword v2, v3, s[8:11], s4 offen", 5),
    (1, "gfx803", "v_readfirstlane_b32 s8, v0", "buffer_load_dword v2, v3, s[8:11], 0 offen", 5),
    # LLVM applies it from gfx8 on: its gfx6/gfx7 waterfall loops load right after v_readfirstlane
    (1, "gfx600", "v_readfirstlane_b32 s8, v0", "buffer_load_dword v2, v3, s[8:11], 0 offen", 0),
    (1, "gfx700", "v_readfirstlane_b32 s8, v0", "buffer_load_dword v2, v3, s[8:11], 0 offen", 0),
    (2, "gfx906", "v_readfirstlane_b32 s4, v0", "v_readlane_b32 s5, v1, s4", 4),
    (3, "gfx900", "v_cmp_eq_u32_e32 vcc, v0, v1", "v_div_fmas_f32 v2, v3, v4, v5", 4),
    (4, "gfx908", "v_add_f32_e32 v1, v2, v3", "v_mov_b32_dpp v4, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf", 2),
    (5, "gfx90a", "v_cmpx_eq_u32_e32 vcc, v0, v1", "v_mov_b32_dpp v4, v1 row_shr:1 row_mask:0xf bank_mask:0xf", 5),
    (6, "gfx900", "s_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s0", "s_getreg_b32 s1, hwreg(HW_REG_MODE, 0, 4)", 2),
    (7, "gfx90a", "s_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s0", "s_setreg_b32 hwreg(HW_REG_MODE, 4, 4), s1", 2),
    (7, "gfx942", "s_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s0", "s_setreg_b32 hwreg(HW_REG_STATUS, 0, 4), s1", 0),
    (7, "gfx908", "s_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s0", "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 4), 3", 2),
    (8, "gfx900", "s_mov_b32 m0, s0", "s_movrels_b32 s1, s2", 1),
    # row 8 as llc-22 applies it: v_interp, s_movrel, LDS DMA and lds_direct on gfx9 only, s_sendmsg and GDS
    # on gfx8-9, v_movrel never
    (8, "gfx900", "s_mov_b32 m0, s1", "v_interp_p1_f32_e32 v0, v0, attr0.x", 1),
    (8, "gfx810", "s_mov_b32 m0, s1", "v_interp_p1_f32_e32 v0, v0, attr0.x", 0),
    # the VOP3 16-bit interpolation is not protected (llc-22 emits it right after the m0 write)
    (8, "gfx900", "s_mov_b32 m0, s1", "v_interp_p2_legacy_f16 v1, v2, attr0.x, v3", 0),
    (8, "gfx700", "s_mov_b32 m0, s1", "v_interp_p1_f32 v0, v0, attr0.x", 0),
    (8, "gfx810", "s_mov_b32 m0, s0", "s_movrels_b32 s1, s2", 0),
    (8, "gfx810", "s_mov_b32 m0, s8", "v_movrels_b32_e32 v0, v0", 0),
    (8, "gfx900", "s_mov_b32 m0, s2", "global_load_dword v0, s[0:1] lds", 1),
    (8, "gfx90a", "s_mov_b32 m0, s2", "buffer_load_dword v1, s[4:7], 0 offen lds", 1),
    (8, "gfx900", "s_mov_b32 m0, s0", "v_mov_b32_e32 v1, lds_direct", 1),
    (8, "gfx810", "s_mov_b32 m0, s0", "s_sendmsg sendmsg(MSG_GS_DONE, GS_OP_NOP)", 1),
    (8, "gfx700", "s_mov_b32 m0, s0", "s_sendmsg sendmsg(MSG_GS_DONE, GS_OP_NOP)", 0),
    (8, "gfx900", "s_mov_b32 m0, s0", "ds_gws_init v0 gds", 1),
    (8, "gfx900", "s_mov_b32 m0, s0", "ds_add_u32 v0, v1 gds", 1),
    (9, "gfx942", "global_store_dwordx4 v0, v[4:7], s[0:1]", "v_mov_b32_e32 v5, 0", 2),
    (9, "gfx90a", "buffer_store_dwordx4 v[4:7], v0, s[8:11], 0 offen", "v_mov_b32_e32 v5, 0", 1),
    (10, "gfx942", "v_cmp_eq_u32_e64 s[4:5], v0, v1", "v_cndmask_b32_e64 v2, 0, 1, s[4:5]", 2),
    (11, "gfx942", "v_add_f32_e32 v1, v2, v3", "v_readfirstlane_b32 s0, v1", 1),
    (12, "gfx950", "v_cmpx_eq_u32_e32 vcc, v0, v1", "v_readlane_b32 s0, v2, 1", 4),
    (13, "gfx942", "v_exp_f32_e32 v1, v2", "v_add_f32_e32 v3, v1, v4", 1),
    (14, "gfx942", "v_add_f16_sdwa v0, v1, v2 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:DWORD src1_sel:DWORD",
     "v_add_f32_e32 v3, v0, v4", 1),
    (14, "gfx942", "v_add_f16_sdwa v0, v1, v2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD",
     "v_add_f32_e32 v3, v0, v4", 0),
    (14, "gfx950", "v_fma_f16 v0, v1, v2, v3 op_sel:[0,0,0,1]", "v_add_f32_e32 v5, v0, v4", 1),
    (14, "gfx942", "v_pk_add_f16 v1, s2, v1", "v_add_u32_e32 v1, 7, v1", 1),
    (14, "gfx942", "v_pk_add_f16 v0, v1, v2 op_sel_hi:[0,1]", "v_add_f32_e32 v3, v0, v4", 0),
    (14, "gfx942", "v_pk_add_f32 v[6:7], v[2:3], v[2:3]", "v_mov_b32_e32 v7, 0", 1),
    (14, "gfx90a", "v_pk_add_f16 v1, s2, v1", "v_add_u32_e32 v1, 7, v1", 0),
    (15, "gfx90a", "global_load_dwordx2 v[0:1], v[0:1], off", "global_load_dwordx2 v[2:3], v[2:3], off", 1),
    (15, "gfx942", "s_load_dwordx2 s[0:1], s[2:3], 0x8", "s_load_dword s3, s[2:3], 0x10", 1),
    # an atomic writes only when it returns (llc-22 -run-pass=post-RA-hazard-rec agrees on all four)
    (15, "gfx950", "buffer_atomic_pk_add_bf16 v5, v0, s[8:11], s3 offen", "buffer_atomic_pk_add_bf16 v6, v0, s[8:11], s3 offen", 0),
    (15, "gfx950", "buffer_load_dword v1, v0, s[8:11], s3 offen", "buffer_atomic_pk_add_bf16 v6, v0, s[8:11], s3 offen", 1),
    (15, "gfx942", "s_atomic_add s5, s[2:3], 0x64", "s_load_dword s6, s[8:9], 0x0", 0),
    (15, "gfx942", "s_atomic_add s5, s[2:3], 0x64 glc", "s_load_dword s6, s[8:9], 0x0", 1),
    (15, "gfx900", "s_load_dword s6, s[8:9], 0x0", "s_atomic_add s5, s[2:3], 0x64", 1),
    (16, "gfx90a", "v_cmpx_eq_u32_e32 vcc, v0, v1", "v_mfma_f32_4x4x1f32 a[0:3], v2, v3, a[0:3]", 4),
    (17, "gfx90a", "v_pk_add_f16 v4, v2, 1.0", "v_mfma_f32_32x32x8f16 a[0:15], v[4:5], v[6:7], a[0:15]", 2),
    (17, "gfx908", "v_mov_b32_e32 v6, s11", "v_accvgpr_write_b32 a19, v6", 2),
    (18, "gfx908", "v_mfma_f32_32x32x8f16 a[0:15], v[0:1], v[2:3], a[0:15]", "v_accvgpr_read_b32 v4, a0", 18),
    (18, "gfx942", "v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]", "v_accvgpr_read_b32 v4, a0", 11),
    (19, "gfx90a", "v_mfma_f32_16x16x16f16 v[0:3], v[4:5], v[6:7], 0", "v_add_f32_e32 v8, v0, v9", 11),
    (19, "gfx942", "v_mfma_f32_32x32x2f32 v[0:15], v16, v17, 0", "global_store_dword v20, v0, s[0:1]", 18),
    (19, "gfx950", "v_mfma_f32_16x16x16_f16 v[0:3], v[4:5], v[6:7], 0", "v_add_f32_e32 v8, v0, v9", 8),
    (19, "gfx950", "v_mfma_f64_16x16x4_f64 v[0:7], v[8:9], v[10:11], 0", "v_add_f64 v[12:13], v[0:1], v[14:15]", 19),
    (20, "gfx942", "v_mfma_f32_4x4x4_16b_f16 v[0:3], v[4:5], v[6:7], 0", "v_mov_b32_e32 v1, 0", 5),
    # pass counts and XDL as LLVM 22's models give them (tests/test_mfma_model.py checks every MFMA):
    # gfx950's K=64 i8 and K=32 f16 shapes are short, f32 inputs (also _Nb_f32) are not XDL, SMFMAC is
    # short, f8f6f4 is long only with an fp8/bf8 operand, DGEMM results read by memory need 18 (4x4: 9)
    (19, "gfx950", "v_mfma_i32_16x16x64_i8 v[0:3], v[4:7], v[8:11], v[0:3]", "v_add_u32_e32 v12, v0, v13", 8),
    (19, "gfx950", "v_mfma_i32_32x32x32_i8 v[0:15], v[16:19], v[20:23], v[0:15]", "global_store_dword v24, v0, s[0:1]", 12),
    (19, "gfx942", "v_mfma_f32_32x32x1_2b_f32 v[0:31], v32, v33, v[0:31]", "global_store_dwordx4 v34, v[0:3], s[0:1]", 18),
    (19, "gfx950", "v_mfma_f32_16x16x1_4b_f32 v[0:15], v32, v33, v[0:15]", "v_accvgpr_mov_b32 a0, v0", 10),
    (21, "gfx942", "v_mfma_f32_32x32x1_2b_f32 v[0:31], v32, v33, v[36:67]", "v_mov_b32_e32 v36, 0", 0),
    (23, "gfx942", "v_mfma_f32_4x4x1_16b_f32 v[0:3], v4, v5, v[0:3]", "v_mfma_f32_4x4x1_16b_f32 v[8:11], v4, v5, v[2:5]", 2),
    (19, "gfx942", "v_smfmac_i32_32x32x32_i8 v[0:15], v[16:17], v[20:23], v24", "global_store_dwordx4 v30, v[0:3], s[0:1]", 11),
    (21, "gfx942", "v_smfmac_f32_32x32x16_f16 v[0:15], v[16:17], v[20:23], v24", "v_mov_b32_e32 v24, 0", 0),
    (22, "gfx942", "v_mfma_f32_16x16x16_f16 v[0:3], v[4:5], v[6:7], 0", "v_smfmac_f32_16x16x32_f16 v[8:11], v[12:13], v[16:19], v0", 7),
    (19, "gfx950", "v_mfma_f32_16x16x128_f8f6f4 v[0:3], v[4:9], v[10:15], v[0:3] cbsz:2 blgp:2", "v_add_f32_e32 v16, v0, v17", 8),
    (19, "gfx950", "v_mfma_f32_16x16x128_f8f6f4 v[0:3], v[4:11], v[12:19], v[0:3] cbsz:2", "v_add_f32_e32 v20, v0, v21", 12),
    (19, "gfx942", "v_mfma_f64_16x16x4_f64 v[0:7], v[8:9], v[10:11], 0", "global_store_dword v12, v0, s[0:1]", 18),
    (20, "gfx950", "v_mfma_f64_16x16x4_f64 v[0:7], v[8:9], v[10:11], 0", "v_mov_b32_e32 v0, 0", 11),
    (24, "gfx942", "v_mfma_f64_4x4x4_4b_f64 v[0:1], v[2:3], v[4:5], 0", "v_mfma_f64_4x4x4_4b_f64 v[0:1], v[2:3], v[4:5], v[0:1]", 4),
    (23, "gfx950", "v_mfma_f32_4x4x4_16b_f16 v[0:3], v[4:5], v[6:7], 0", "v_mfma_f32_4x4x1_16b_f32 v[8:11], v12, v13, v[2:5]", 3),

    (21, "gfx90a", "v_mfma_f32_32x32x8f16 a[0:15], v[0:1], v[2:3], v[16:31]", "v_mov_b32_e32 v16, 0", 15),
    (21, "gfx942", "v_mfma_f32_16x16x16_f16 v[0:3], v[4:5], v[6:7], v[8:11]", "v_mov_b32_e32 v8, 0", 3),
    (22, "gfx942", "v_mfma_f32_32x32x2f32 v[0:15], v16, v17, 0", "v_mfma_f32_32x32x2f32 v[20:35], v0, v1, 0", 18),
    (22, "gfx950", "v_mfma_f32_16x16x16_f16 v[0:3], v[4:5], v[6:7], 0", "v_mfma_f32_16x16x16_f16 v[8:11], v[0:1], v[2:3], 0", 8),
    (23, "gfx942", "v_mfma_f32_32x32x8_f16 v[0:15], v[16:17], v[18:19], 0", "v_mfma_f32_32x32x8_f16 v[20:35], v[16:17], v[18:19], v[0:15] blgp:0", 0),
    (23, "gfx942", "v_mfma_f32_32x32x8_f16 v[0:15], v[16:17], v[18:19], 0", "v_mfma_f32_32x32x8_f16 v[20:35], v[16:17], v[18:19], v[8:23]", 9),
    (23, "gfx950", "v_mfma_f32_32x32x8_f16 v[0:15], v[16:17], v[18:19], 0", "v_mfma_f32_32x32x8_f16 v[20:35], v[16:17], v[18:19], v[8:23]", 10),
    (23, "gfx90a", "v_mfma_f32_32x32x2f32 v[0:15], v16, v17, 0", "v_mfma_f32_32x32x2f32 v[20:35], v16, v17, v[8:23]", 16),
    (24, "gfx942", "v_mfma_f32_4x4x4_16b_f16 v[0:3], v[4:5], v[6:7], 0", "v_mfma_f32_4x4x4_16b_f16 v[0:3], v[4:5], v[6:7], v[0:3]", 2),
    (25, "gfx908", "v_accvgpr_write_b32 a0, v0", "v_accvgpr_read_b32 v1, a0", 3),
    (25, "gfx908", "v_accvgpr_write_b32 a0, v0", "v_mfma_f32_4x4x1f32 a[0:3], v1, v2, a[0:3]", 1),
    (26, "gfx908", "v_accvgpr_read_b32 v1, a0", "global_store_dword v2, v1, s[0:1]", 2),
    (27, "gfx908", "v_mfma_f32_32x32x2f32 a[0:15], v0, v1, a[16:31]", "v_accvgpr_write_b32 a20, v2", 13),
    (27, "gfx908", "v_mfma_f32_16x16x4f32 a[0:3], v0, v1, a[4:7]", "v_accvgpr_write_b32 a4, v2", 5),
    (27, "gfx908", "v_mfma_f32_16x16x4f32 a[0:3], v0, v1, a[4:7]", "v_accvgpr_write_b32 a0, v2", 7),
    (27, "gfx908", "v_mfma_f32_4x4x1f32 a[4:7], v0, v1, a[0:3]", "v_accvgpr_write_b32 a0, v2", 0),
    (27, "gfx908", "v_mfma_f32_4x4x1f32 a[0:3], v0, v1, a[0:3]", "v_accvgpr_write_b32 a1, v2", 1),
    (28, "gfx90a", "v_mfma_f64_4x4x4f64 v[0:1], v[2:3], v[4:5], 0", "v_fma_f64 v[6:7], v[8:9], v[10:11], v[12:13]", 2),
    (30, "gfx90a", "v_dot2_f32_f16 v0, v1, v2, v3", "v_dot2_f32_f16 v4, v0, v2, v3", 3),
    (30, "gfx90a", "v_dot2_f32_f16 v4, v1, v2, v3", "v_dot2_f32_f16 v5, v6, v2, v4", 0),
    (30, "gfx942", "v_dot2_f32_f16 v5, v6, v2, v4", "v_add_f32_e32 v7, v5, v4", 3),
    (30, "gfx950", "v_dot4c_i32_i8_e32 v2, s0, v1", "v_add_u32_e32 v1, 7, v2", 3),
    (30, "gfx90a", "v_dot2_f32_f16 v8, v6, v2, v3", "v_mov_b32_e32 v8, 0", 3),
    (30, "gfx908", "v_dot2_f32_f16 v0, v1, v2, v3", "v_add_f32_e32 v7, v0, v4", 0),
    (32, "gfx950", "v_mov_b32_e32 v1, v2", "v_permlane16_swap_b32 v1, v3", 2),
]


def kernel(target: str, body: str) -> str:
    return f'.amdgcn_target "amdgcn-amd-amdhsa--{target}"\nk:\n{body}\n s_endpgm\n'


def hazards(snippet, target, body):
    return [d for d in snippet.lint(kernel(target, body)).diagnostics if d.name == "missing-nop"]


@pytest.mark.parametrize("row, target, producer, consumer, needed", ROWS, ids=[f"row{r[0]}-{r[1]}-{i}" for i, r in enumerate(ROWS)])
def test_hazard_row(snippet, row, target, producer, consumer, needed):
    found = hazards(snippet, target, f" {producer}\n {consumer}")
    if needed == 0:
        assert found == []
        return
    (finding,) = found
    assert f"(row {row})" in finding.message and f"needs {needed} wait states" in finding.message and "there are 0" in finding.message
    enough = "\n".join(f" {line}" for line in nops_for(needed))
    assert hazards(snippet, target, f" {producer}\n{enough}\n {consumer}") == []
    if needed > 1:
        one_short = "\n".join(f" {line}" for line in nops_for(needed - 1))
        assert len(hazards(snippet, target, f" {producer}\n{one_short}\n {consumer}")) == 1


def test_independent_instructions_count_as_wait_states(snippet):
    """A 16x16 MFMA on gfx90a needs 11 states before a VALU reads its result."""
    def body(movs: int) -> str:
        return " v_mfma_f32_16x16x16f16 v[0:3], v[4:5], v[6:7], 0\n" + " v_mov_b32 v20, 0\n" * movs + " v_add_f32 v8, v0, v9"
    (finding,) = hazards(snippet, "gfx90a", body(10))
    assert "needs 11 wait states" in finding.message and "there are 10" in finding.message
    assert hazards(snippet, "gfx90a", body(11)) == []


def test_worst_path_across_blocks(snippet):
    body = (" v_mfma_f32_4x4x1f32 a[0:3], v0, v1, a[0:3]\n s_cbranch_scc1 .Lfar\n s_nop 7\n"
            ".Lfar:\n v_accvgpr_read_b32 v4, a0")
    (finding,) = hazards(snippet, "gfx90a", body)  # the taken branch skips the s_nop
    assert "there are 1" in finding.message
    assert hazards(snippet, "gfx90a", body.replace(".Lfar:\n", ".Lfar:\n s_nop 7\n")) == []


def test_fix_inserts_the_missing_nops(snippet):
    result = snippet.lint(kernel("gfx908", " v_mfma_f32_32x32x8f16 a[0:15], v[0:1], v[2:3], a[0:15]\n v_accvgpr_read_b32 v4, a0"))
    (finding,) = [d for d in result.diagnostics if d.name == "missing-nop"]
    assert finding.fix.edits[0].text == " s_nop 15\n s_nop 1\n"
    assert nops_for(5) == ["s_nop 4"] and nops_for(17) == ["s_nop 15", "s_nop 0"]


def test_no_classic_rows_on_rdna(snippet):
    """gfx10+ has no wait-state rows (LLVM's FeatureNoDataDepHazard): its own rows are in test_rdna_hazards.py."""
    for target in ("gfx1030", "gfx1100", "gfx1201"):
        assert hazards(snippet, target, " v_readfirstlane_b32 s4, v0\n v_readlane_b32 s5, v1, s4\n"
                                        " s_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s0\n s_getreg_b32 s1, hwreg(HW_REG_MODE, 0, 4)") == []


@pytest.mark.parametrize("between, needed", [("v_mfma_f64_4x4x4f64 v[30:31], v[2:3], v[4:5], v[30:31]", 1),
                                             ("v_mfma_f64_16x16x4f64 v[10:17], v[2:3], v[4:5], v[10:17]", 1),
                                             ("v_mov_b32_e32 v40, 0", 0)])
def test_row29_dgemm_between_valu_and_memory_read(snippet, between, needed):
    """gfx90a: [VALU writes v0] [DGEMM] [store reads v0] needs 2 states; the DGEMM gives one
    (measured with llc -run-pass=post-RA-hazard-rec). Another VALU in between needs nothing."""
    body = f" v_mov_b32_e32 v0, 0\n {between}\n global_store_dword v[20:21], v0, off"
    found = hazards(snippet, "gfx90a", body)
    assert len(found) == needed
    if needed:
        assert "(row 29)" in found[0].message and "there are 1" in found[0].message
        assert hazards(snippet, "gfx90a", body.replace("\n global_store", "\n s_nop 0\n global_store")) == []
    assert hazards(snippet, "gfx942", body) == []


def test_dpp_permuted_source_is_an_error_other_reads_are_warnings(snippet):
    """LLVM protects every VGPR a DPP instruction reads; AMD's examples and MIOpen's Winograd kernels
    protect only the permuted first source, so the other reads (the second source, v_mac's
    accumulator, the old value of the destination) are warnings."""
    dpp = "v_mac_f32_dpp v66, v67, v100 quad_perm:[0,2,1,3] row_mask:0xf bank_mask:0xf"

    def found(body: str) -> list[tuple[str, str]]:
        return [(d.severity.name, d.message) for d in hazards(snippet, "gfx906", body)]

    ((severity, message),) = found(f" v_add_f32_e32 v66, v1, v2\n {dpp}")  # accumulator (MIOpen line 1244)
    assert severity == "WARNING" and "MIOpen" in message and "needs 2 wait states" in message
    ((severity, _),) = found(f" v_add_f32_e32 v100, v1, v2\n {dpp}")  # second source
    assert severity == "WARNING"
    ((severity, message),) = found(f" v_add_f32_e32 v67, v1, v2\n {dpp}")  # the permuted source
    assert severity == "ERROR" and "permutes" in message and "MIOpen" not in message
    # the permuted source one state short and the second source two: both reported
    both = found(f" v_add_f32_e32 v67, v1, v2\n v_add_f32_e32 v100, v1, v2\n {dpp}")
    assert [(s, "there are 1" in m, "there are 0" in m) for s, m in both] == [("ERROR", True, False), ("WARNING", False, True)]
    ((severity, _),) = found(" v_mov_b32_e32 v101, 1\n v_xor_b32_dpp v101, v0, v0 quad_perm:[2,3,2,3] row_mask:0xf bank_mask:0x4")
    assert severity == "WARNING"  # the old value of the destination (lanes the bank mask disables keep it)
    assert found(f" v_add_f32_e32 v66, v1, v2\n s_nop 1\n {dpp}") == []


def test_soft_clause_is_seen_within_llvms_look_ahead_window(snippet):
    # LLVM's recognizer keeps the last 5 instructions (19 with AGPRs): a store that far back is not in
    # the clause it checks (LLVM's spill code: a long run of stores, then the reloads)
    stores = "".join(f" buffer_store_dword v{10 + i}, off, s[0:3], s32 offset:{4 * i}\n" for i in range(8))
    reload = stores + " buffer_load_dword v20, off, s[0:3], s32 offset:60\n"
    far = reload + " buffer_load_dword v10, off, s[0:3], s32 offset:64"
    assert hazards(snippet, "gfx900", far) == []
    near = reload + " buffer_load_dword v15, off, s[0:3], s32 offset:64"
    (finding,) = hazards(snippet, "gfx900", near)
    assert "(row 15)" in finding.message


def test_soft_clause_breaks_where_a_member_writes_what_the_clause_reads(snippet):
    """Row 15 on each of its ways (xnack on gfx900): a member's result read by a later member or by the consumer,
    the consumer writing what a member reads, a store after a member that writes; quiet where the members write
    nothing the clause reads, or write nothing at all (stores)."""
    def rows(body: str) -> list[bool]:
        return ["(row 15)" in finding.message for finding in hazards(snippet, "gfx900", body)]

    load = " buffer_load_dword v{}, v{}, s[0:3], 0 offen\n"
    assert rows(load.format(1, 2) + load.format(3, 1)) == [True]  # the consumer reads the member's result
    assert rows(load.format(1, 2) + load.format(5, 6) + load.format(7, 1)) == [True]  # ... of an earlier member
    assert rows(load.format(1, 2) + load.format(2, 6)) == [True]  # the consumer writes what the member read
    assert rows(load.format(1, 2) + " buffer_store_dword v5, v6, s[0:3], 0 offen\n") == [True]
    assert rows(load.format(1, 2) + load.format(3, 4)) == []
    stores = " buffer_store_dword v1, v2, s[0:3], 0 offen\n buffer_store_dword v3, v4, s[0:3], 0 offen\n"
    assert rows(stores + load.format(5, 1)) == []


def test_mfma_src_c_is_judged_against_the_nearest_mfma_writing_it(snippet):
    # issue 30 (gfx942): LLVM looks back only to the nearest MFMA writing any SrcC register; the full
    # overlap with it needs nothing, the older partial overlap behind it is not a hazard any more
    older = " v_mfma_f32_16x16x16_f16 v[4:7], v[0:1], v[2:3], v[8:11]\n s_nop 0\n"
    consumer = " v_mfma_f32_16x16x16_f16 v[6:9], v[0:1], v[2:3], v[6:9]"
    assert hazards(snippet, "gfx942", older + " v_mfma_f32_16x16x16_f16 v[6:9], v[0:1], v[2:3], v[12:15]\n" + consumer) == []
    # a nearer MFMA writing other registers hides nothing: the partial overlap is still found
    (finding,) = hazards(snippet, "gfx942", older + " v_mfma_f32_16x16x16_f16 v[20:23], v[0:1], v[2:3], v[12:15]\n" + consumer)
    assert "(row 23)" in finding.message and "needs 5 wait states" in finding.message and "there are 2" in finding.message
    # the nearest writer on one path only: the other path still reaches the partial overlap
    branchy = (older + " s_cbranch_scc1 .Lskip\n v_mfma_f32_16x16x16_f16 v[6:9], v[0:1], v[2:3], v[12:15]\n"
               ".Lskip:\n" + consumer)
    (finding,) = hazards(snippet, "gfx942", branchy)
    assert "(row 23)" in finding.message and "kernel.s:3 needs 5 wait states" in finding.message


def test_soft_clause_window_widens_only_with_agprs(snippet):
    # issue 30 (Triton, gfx90a+): LLVM's window is 19 instructions only in a function using a0; MFMAs
    # accumulating in VGPRs leave it at 5
    stores = "".join(f" buffer_store_dword v{10 + i}, off, s[0:3], s32 offset:{4 * i}\n" for i in range(8))
    far = stores + " buffer_load_dword v20, off, s[0:3], s32 offset:60\n buffer_load_dword v10, off, s[0:3], s32 offset:64"
    in_vgprs = " v_mfma_f32_16x16x16_f16 v[40:43], v[44:45], v[46:47], v[40:43]\n s_nop 7\n s_nop 7\n"
    assert hazards(snippet, "gfx942", in_vgprs + far) == []
    in_agprs = " v_mfma_f32_16x16x16_f16 a[0:3], v[44:45], v[46:47], a[0:3]\n s_nop 7\n s_nop 7\n"
    (finding,) = hazards(snippet, "gfx942", in_agprs + far)
    assert "(row 15)" in finding.message
