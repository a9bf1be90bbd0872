"""missing-nop on RDNA: one hand-written case per row of rdna-hazards.md, firing without LLVM's mitigation (with
the line llc-22 writes as the fix) and quiet with it or with what LLVM accepts instead; the depctr encoding."""

import pytest
from amdgpu_lint.analyses.rdna_hazards import depctr_fields_of, depctr_value, field_is_zero
from amdgpu_lint.frontend.syntax import parse_statement
from amdgpu_lint.model.targets import parse_target_id
from conftest import ROOT

_BANKED_WMMA = ("s_set_vgpr_msb 0x41\n v_wmma_f32_16x16x32_f16 v[0:7], v[8:15], v[16:23], v[0:7]\n"
                " s_set_vgpr_msb {mode}\n v_wmma_f32_16x16x32_f16 v[24:31], v[0:7], v[16:23], v[24:31]")

# (row, target, body, the fix llc-22 writes before the body's last line, or None where nothing is missing). Row Q's
# cases are callable functions (they return), where every SGPR pair counts as read by a VALU before
# (test_row_q_in_a_kernel_only_tracks_sgprs_a_valu_has_read covers kernels).
CASES = [
    # Q: gfx12 SGPR reads after ALU writes
    ("Q", "gfx1201", "s_mov_b32 s0, 7\n v_add_nc_u32_e32 v2, s0, v0", "s_wait_alu depctr_sa_sdst(0)"),
    ("Q", "gfx1201", "s_mov_b32 s1, 7\n v_add_nc_u32_e32 v2, s0, v0", None),  # s0 and s1: one pair, only s1 written
    ("Q", "gfx1201", "s_mov_b32 s0, 7\n s_add_co_i32 s1, s0, 1", "s_wait_alu depctr_sa_sdst(0)"),
    ("Q", "gfx1201", "v_readfirstlane_b32 s0, v1\n v_add_nc_u32_e32 v2, s0, v0", "s_wait_alu depctr_va_sdst(0)"),
    ("Q", "gfx1201", "v_readfirstlane_b32 s0, v1\n s_add_co_i32 s1, s0, 1", None),  # an SALU read waits by itself
    ("Q", "gfx1201", "v_cmp_eq_u32_e32 vcc_lo, v1, v2\n v_cndmask_b32_e32 v1, v2, v3, vcc_lo", "s_wait_alu depctr_va_vcc(0)"),
    ("Q", "gfx1201", "s_mov_b32 s0, 7\n v_readfirstlane_b32 s2, v1\n v_add3_u32 v2, s0, s2, v0",
     "s_wait_alu depctr_sa_sdst(0) depctr_va_sdst(0)"),
    ("Q", "gfx1201", "s_mov_b32 s0, 7\n s_load_b32 s4, s[6:7], 0x0\n v_add_nc_u32_e32 v2, s0, v0", None),
    # issue 40, 3: a VALU compare's SGPR read as a lane mask waits on va_sdst, not va_vcc (llc-22 adds va_sdst(0) to
    # the va_vcc wait of this pattern, amdgpu-wait-sgpr-hazards on MIR)
    ("Q", "gfx1201", "v_cmp_gt_i32_e64 s0, v1, v2\n s_wait_alu depctr_va_vcc(0)\n v_cndmask_b32_e64 v21, v3, v4, s0",
     "s_wait_alu depctr_va_sdst(0)"),
    ("Q", "gfx1201", "v_cmp_gt_i32_e64 s0, v1, v2\n s_wait_alu depctr_va_sdst(0)\n v_cndmask_b32_e64 v21, v3, v4, s0", None),
    ("Q", "gfx1201", "s_mov_b32 s0, 7\n s_wait_alu 0xfffe\n v_add_nc_u32_e32 v2, s0, v0", None),
    ("Q", "gfx1201", "s_mov_b32 s0, 7\n s_waitcnt_depctr depctr_sa_sdst(0)\n v_add_nc_u32_e32 v2, s0, v0", None),
    ("Q", "gfx1201", "s_mov_b32 s0, 7\n s_nop 15\n v_nop\n v_nop\n v_nop\n v_nop\n v_nop\n v_add_nc_u32_e32 v2, s0, v0",
     "s_wait_alu depctr_sa_sdst(0)"),
    ("Q", "gfx1201", "s_mov_b32 s0, 7\n global_load_b32 v1, v0, s[2:3]\n v_add_nc_u32_e32 v2, s0, v0",
     "s_wait_alu depctr_sa_sdst(0)"),  # a FLAT-encoded access clears nothing; buffer and SMEM do
    ("Q", "gfx1201", "s_mov_b32 s0, 7\n s_delay_alu instid0(SALU_CYCLE_1)\n v_add_nc_u32_e32 v2, s0, v0",
     "s_wait_alu depctr_sa_sdst(0)"),  # s_delay_alu is a hint
    ("Q", "gfx1201", "s_mov_b32 s4, 1\n s_setpc_b64 s[30:31]", "s_wait_alu depctr_sa_sdst(0)"),
    ("Q", "gfx1250", "s_mov_b32 s0, 7\n v_add_nc_u32_e32 v2, s0, v0", None),
    ("Q", "gfx1100", "s_mov_b32 s0, 7\n v_add_nc_u32_e32 v2, s0, v0", None),
    # D: gfx101x VMEM/DS reads an SGPR (EXEC included) that a scalar instruction then writes
    ("D", "gfx1010", "buffer_load_dword v1, v0, s[4:7], 0 offen\n s_mov_b32 s4, 0", "s_waitcnt_depctr depctr_vm_vsrc(0)"),
    ("D", "gfx1010", "buffer_load_dword v1, v0, s[4:7], 0 offen\n s_waitcnt vmcnt(0)\n s_mov_b32 s4, 0",
     "s_waitcnt_depctr depctr_vm_vsrc(0)"),
    ("D", "gfx1010", "buffer_load_dword v1, v0, s[4:7], 0 offen\n s_waitcnt 0\n s_mov_b32 s4, 0", None),
    ("D", "gfx1010", "buffer_load_dword v1, v0, s[4:7], 0 offen\n v_nop\n s_mov_b32 s4, 0", None),
    ("D", "gfx1010", "buffer_load_dword v1, v0, s[4:7], 0 offen\n s_waitcnt_depctr 0xffe3\n s_mov_b32 s4, 0", None),
    ("D", "gfx1010", "ds_read_b32 v1, v0\n s_mov_b32 exec_lo, -1", "s_waitcnt_depctr depctr_vm_vsrc(0)"),
    ("D", "gfx1010", "global_load_dword v1, v0, s[2:3]\n s_load_dwordx2 s[2:3], s[4:5], 0x0",
     "s_waitcnt_depctr depctr_vm_vsrc(0)"),
    ("D", "gfx1030", "buffer_load_dword v1, v0, s[4:7], 0 offen\n s_mov_b32 s4, 0", None),
    # E: gfx101x SMEM reads an SGPR that a VALU then writes
    ("E", "gfx1010", "s_load_dword s4, s[0:1], 0x0\n v_cmp_eq_u32_e64 s0, v1, v2", "s_mov_b32 null, 0"),
    ("E", "gfx1010", "s_load_dword s4, s[0:1], 0x0\n s_waitcnt vmcnt(0)\n s_nop 3\n v_readfirstlane_b32 s1, v1",
     "s_mov_b32 null, 0"),
    ("E", "gfx1010", "s_load_dword s4, s[0:1], 0x0\n s_add_u32 s8, s8, 1\n v_cmp_eq_u32_e64 s0, v1, v2", None),
    ("E", "gfx1010", "s_load_dword s4, s[0:1], 0x0\n s_waitcnt lgkmcnt(0)\n v_cmp_eq_u32_e64 s0, v1, v2", None),
    ("E", "gfx1030", "s_load_dword s4, s[0:1], 0x0\n v_cmp_eq_u32_e64 s0, v1, v2", None),
    # F: gfx101x a non-VALU reads EXEC, then a VALU writes it
    ("F", "gfx1010", "s_mov_b32 s0, exec_lo\n v_cmpx_eq_u32_e32 v1, v2", "s_waitcnt_depctr depctr_sa_sdst(0)"),
    ("F", "gfx1010", "global_load_dword v1, v0, s[2:3]\n v_nop\n v_cmpx_eq_u32_e32 v1, v2", "s_waitcnt_depctr depctr_sa_sdst(0)"),
    ("F", "gfx1010", "s_mov_b32 s0, exec_lo\n v_cmp_eq_u32_e64 s1, v1, v2\n v_cmpx_eq_u32_e32 v1, v2", None),
    ("F", "gfx1010", "s_mov_b32 s0, exec_lo\n s_waitcnt_depctr 0xfffe\n v_cmpx_eq_u32_e32 v1, v2", None),
    # G: gfx101x LDS and VMEM on the two sides of a branch
    ("G", "gfx1010", "ds_read_b32 v1, v0\n s_branch .L1\n.L1:\n buffer_load_dword v2, v0, s[4:7], 0 offen",
     "s_waitcnt_vscnt null, 0x0"),
    ("G", "gfx1010", "buffer_load_dword v2, v0, s[4:7], 0 offen\n s_cbranch_scc1 .L1\n.L1:\n ds_read_b32 v1, v0",
     "s_waitcnt_vscnt null, 0x0"),
    ("G", "gfx1010", ("ds_read_b32 v1, v0\n s_branch .L1\n.L1:\n s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)\n"
     " buffer_load_dword v2, v0, s[4:7], 0 offen"), "s_waitcnt_vscnt null, 0x0"),
    ("G", "gfx1010", ("ds_read_b32 v1, v0\n s_branch .L1\n.L1:\n s_waitcnt_vscnt null, 0x0\n"
     " buffer_load_dword v2, v0, s[4:7], 0 offen"), None),
    ("G", "gfx1010", "ds_read_b32 v1, v0\n buffer_load_dword v2, v0, s[4:7], 0 offen", None),  # no branch
    # H: v_cmpx then v_permlane, until a VALU other than v_nop
    ("H", "gfx1100", "v_cmpx_eq_u32_e32 v1, v2\n v_permlane16_b32 v3, v4, s0, s1", "v_mov_b32_e32 v4, v4"),
    ("H", "gfx1201", "v_cmpx_eq_u32_e32 v1, v2\n s_nop 3\n v_nop\n v_nop\n v_permlanex16_b32 v3, v5, s0, s1",
     "v_mov_b32_e32 v5, v5"),
    ("H", "gfx1010", "v_cmpx_eq_u32_e32 v1, v2\n v_permlane16_b32 v3, v4, s0, s1", "v_mov_b32_e32 v4, v4"),
    ("H", "gfx1100", "v_cmpx_eq_u32_e32 v1, v2\n v_mov_b32_e32 v6, 0\n v_permlane16_b32 v3, v4, s0, s1", None),
    ("H", "gfx1030", "v_cmpx_eq_u32_e32 v1, v2\n v_permlane16_b32 v3, v4, s0, s1", None),
    # gfx1250 banks: the v_mov names the source as the permlane does, under the same mode (dst and src0 in bank 1)
    ("H", "gfx1250", "v_cmpx_eq_u32_e32 v1, v2\n s_set_vgpr_msb 0x41\n v_permlane16_b32 v3, v4, s0, s1", "v_mov_b32_e32 v4, v4"),
    # P with true16 halves (issue 40, 2; llc-22 -mattr=+real-true16 -run-pass=post-RA-hazard-rec on gfx1250 MIR, as
    # gfx1100 for L): v0.h and v0.l are two registers
    ("P", "gfx1250", "v_sqrt_f16_e32 v0.h, v1.l\n v_add_f16_e32 v2.l, v0.l, v3.l", None),
    ("P", "gfx1250", "v_sqrt_f16_e32 v0.h, v1.l\n v_add_f16_e32 v1.h, v2.l, v3.l", None),
    ("P", "gfx1250", "v_sqrt_f16_e32 v0.h, v1.l\n v_add_f16_e32 v1.l, v2.l, v3.l", "v_nop"),
    ("P", "gfx1250", "v_sqrt_f16_e32 v0.h, v1.l\n v_add_nc_u32_e32 v2, v0, v3", "v_nop"),
    # P through banks (issue 40, 1): the sqrt writes v257; the add reads v1 in bank 0 (another register), or in bank 1
    ("P", "gfx1250", "s_set_vgpr_msb 0x40\n v_sqrt_f32_e32 v1, v0\n s_set_vgpr_msb 0x4000\n v_add_f32_e32 v2, v1, v3", None),
    ("P", "gfx1250", "s_set_vgpr_msb 0x40\n v_sqrt_f32_e32 v1, v0\n s_set_vgpr_msb 0x4001\n v_add_f32_e32 v2, v1, v3", "v_nop"),
    # L: gfx1100-1103 transcendental result used within 5 VALUs
    ("L", "gfx1100", "v_exp_f32_e32 v1, v2\n v_add_f32_e32 v3, v1, v4", "s_waitcnt_depctr depctr_va_vdst(0)"),
    ("L", "gfx1100", "v_exp_f32_e32 v1, v2\n" + " v_nop\n" * 5 + " v_add_f32_e32 v3, v1, v4",
     "s_waitcnt_depctr depctr_va_vdst(0)"),
    ("L", "gfx1100", "v_exp_f32_e32 v1, v2\n" + " v_nop\n" * 6 + " v_add_f32_e32 v3, v1, v4", None),
    ("L", "gfx1100", "v_exp_f32_e32 v1, v2\n s_nop 15\n v_log_f32_e32 v3, v1", "s_waitcnt_depctr depctr_va_vdst(0)"),
    ("L", "gfx1100", "v_exp_f32_e32 v1, v2\n v_sqrt_f32_e32 v5, v6\n v_log_f32_e32 v7, v8\n v_add_f32_e32 v3, v1, v4", None),
    ("L", "gfx1100", "v_exp_f32_e32 v1, v2\n ds_load_b32 v5, v6\n v_add_f32_e32 v3, v1, v4", None),
    ("L", "gfx1100", "v_exp_f32_e32 v1, v2\n s_waitcnt_depctr 0xfff\n v_add_f32_e32 v3, v1, v4", None),
    ("L", "gfx1151", "v_exp_f32_e32 v1, v2\n v_add_f32_e32 v3, v1, v4", None),
    # true16 (issue 40, 2): v0.l and v0.h are two registers to LLVM 22; a 32-bit read of v0 reads both
    ("L", "gfx1100", "v_rsq_f16_e32 v0.h, v0.h\n v_rsq_f16_e32 v0.l, v0.l", None),
    ("L", "gfx1100", "v_rsq_f16_e32 v0.h, v0.h\n v_add_f16_e32 v1.l, v0.h, v2.l", "s_waitcnt_depctr depctr_va_vdst(0)"),
    ("L", "gfx1100", "v_rsq_f16_e32 v0.h, v1.l\n v_add_f32_e32 v3, v0, v4", "s_waitcnt_depctr depctr_va_vdst(0)"),
    ("L", "gfx1100", "v_exp_f32_e32 v0, v1\n v_add_f16_e32 v3.l, v0.l, v4.l", "s_waitcnt_depctr depctr_va_vdst(0)"),
    # N: WMMA result read as A/B of the next WMMA (a VALU between ends it; C overlapping D is fine)
    ("N", "gfx1100", ("v_wmma_f32_16x16x16_f16 v[0:7], v[8:15], v[16:23], v[0:7]\n"
     " v_wmma_f32_16x16x16_f16 v[24:31], v[0:7], v[16:23], v[24:31]"), "v_nop"),
    ("N", "gfx1100", ("v_wmma_f32_16x16x16_f16 v[0:7], v[8:15], v[16:23], v[0:7]\n s_nop 7\n"
     " v_wmma_f32_16x16x16_f16 v[24:31], v[8:15], v[0:7], v[24:31]"), "v_nop"),
    ("N", "gfx1100", ("v_wmma_f32_16x16x16_f16 v[0:7], v[8:15], v[16:23], v[0:7]\n v_nop\n"
     " v_wmma_f32_16x16x16_f16 v[24:31], v[0:7], v[16:23], v[24:31]"), None),
    ("N", "gfx1100", ("v_wmma_f32_16x16x16_f16 v[0:7], v[8:15], v[16:23], v[0:7]\n"
     " v_wmma_f32_16x16x16_f16 v[0:7], v[8:15], v[16:23], v[0:7]"), None),
    # N, O on gfx1250 through s_set_vgpr_msb (issue 40, 1): the first WMMA writes v[256:263] (dst's bank 1); `v[0:7]`
    # read as A in bank 0 is another register, in bank 1 (src0's) its result
    ("N", "gfx1250", _BANKED_WMMA.format(mode="0x4100"), None),
    ("O", "gfx1250", _BANKED_WMMA.format(mode="0x4100"), None),
    ("N", "gfx1250", _BANKED_WMMA.format(mode="0x4101"), "v_nop"),
    ("O", "gfx1250", _BANKED_WMMA.format(mode="0x4101"), "v_nop\n v_nop\n v_nop\n v_nop\n v_nop"),
    # P: gfx1250 transcendental then a VALU reading its result or overwriting its source
    ("P", "gfx1250", "v_sqrt_f32_e32 v1, v0\n v_add_f32_e32 v2, v1, v3", "v_nop"),
    ("P", "gfx1250", "v_sqrt_f32_e32 v1, v0\n s_nop 3\n v_mov_b32_e32 v0, 0", "v_nop"),
    ("P", "gfx1250", "v_sqrt_f32_e32 v1, v0\n v_mov_b32_e32 v5, 0\n v_add_f32_e32 v2, v1, v3", None),
    ("P", "gfx1201", "v_sqrt_f32_e32 v1, v0\n v_add_f32_e32 v2, v1, v3", None),
    # X: s_nop before s_sendmsg MSG_DEALLOC_VGPRS on gfx11 and gfx12
    ("X", "gfx1100", "global_store_b32 v0, v1, s[0:1]\n s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)", "s_nop 0"),
    ("X", "gfx1201", "global_store_b32 v0, v1, s[0:1]\n s_nop 0\n s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)", None),
    # A: SMEM soft clause with xnack (gfx101x unless xnack is off, gfx1250)
    ("A", "gfx1010", "s_load_dwordx2 s[0:1], s[4:5], 0x0\n s_load_dword s2, s[0:1], 0x0", "s_nop 0"),
    ("A", "gfx1010:xnack-", "s_load_dwordx2 s[0:1], s[4:5], 0x0\n s_load_dword s2, s[0:1], 0x0", None),
    ("A", "gfx1010", "s_load_dwordx2 s[0:1], s[4:5], 0x0\n s_load_dword s2, s[6:7], 0x0", None),
    ("A", "gfx1250", "s_load_b64 s[0:1], s[4:5], 0x0\n s_load_b32 s2, s[0:1], 0x0", "s_nop 0"),
    ("A", "gfx1030", "s_load_dwordx2 s[0:1], s[4:5], 0x0\n s_load_dword s2, s[0:1], 0x0", None),
    # M: gfx11 wave64 mask read, then a write: the wait goes right after the write (the fix's edit is before the
    # line after it), and may sit anywhere before the next read of what was written
    ("M", "gfx1100", "v_cndmask_b32_e64 v1, v2, v3, s[0:1]\n s_mov_b64 s[0:1], exec\n v_add_nc_u32_e32 v1, s0, v1",
     "s_waitcnt_depctr depctr_sa_sdst(0)"),
    ("M", "gfx1151", ("v_add_co_ci_u32_e32 v1, vcc, v2, v3, vcc\n v_cmp_eq_u32_e32 vcc, v1, v2\n s_cbranch_vccz .L1\n.L1:\n"
     " s_mov_b64 exec, -1"), "s_waitcnt_depctr depctr_va_vcc(0)"),
    ("M", "gfx1100", ("v_cndmask_b32_e64 v1, v2, v3, s[0:1]\n v_cmp_eq_u32_e64 s[0:1], v1, v2\n s_nop 0\n"
     " s_waitcnt_depctr depctr_va_sdst(0)\n s_and_b64 exec, exec, s[0:1]"), None),
    ("M", "gfx1100", "v_cndmask_b32_e32 v1, v2, v3, vcc_lo\n s_mov_b32 vcc_lo, exec_lo\n v_add_nc_u32_e32 v1, vcc_lo, v1", None),
    # a label nothing branches to (a -g listing's .Ltmp) ends no block: the wait after it still counts; one a branch
    # names does end the block, and the write before it is then found
    ("M", "gfx1100", ("v_cndmask_b32_e64 v1, v2, v3, s[0:1]\n s_mov_b64 s[0:1], exec\n.Ltmp0:\n"
     " s_waitcnt_depctr depctr_sa_sdst(0)\n v_add_nc_u32_e32 v1, s0, v1"), None),
    ("M", "gfx1100", ("v_cndmask_b32_e64 v1, v2, v3, s[0:1]\n s_cbranch_scc1 .L1\n s_mov_b64 s[0:1], exec\n.L1:\n"
     " v_add_nc_u32_e32 v1, s0, v1"), "s_waitcnt_depctr depctr_sa_sdst(0)"),
    # K: gfx11 wave64 partial forwarding: Va written, an SALU writes EXEC, Vb written, then both read
    ("K", "gfx1100", "v_mov_b32_e32 v0, 1\n s_mov_b64 exec, -1\n v_mov_b32_e32 v1, 2\n v_add_f32_e32 v2, v0, v1",
     "s_waitcnt_depctr depctr_va_vdst(0)"),
    ("K", "gfx1151", "v_mov_b32_e32 v0, 1\n v_nop\n s_mov_b64 exec, -1\n v_nop\n v_mov_b32_e32 v1, 2\n"
                     " v_add_f32_e32 v2, v0, v1", "s_waitcnt_depctr depctr_va_vdst(0)"),
    ("K", "gfx1100", "v_mov_b32_e32 v0, 1\n v_nop\n v_nop\n s_mov_b64 exec, -1\n v_nop\n v_mov_b32_e32 v1, 2\n"
                     " v_add_f32_e32 v2, v0, v1", None),  # three VALUs around the EXEC write
    ("K", "gfx1100", "v_mov_b32_e32 v0, 1\n s_mov_b64 exec, -1\n v_mov_b32_e32 v1, 2\n" + " v_nop\n" * 5
     + " v_add_f32_e32 v2, v0, v1", None),  # five VALUs after Vb's write
    ("K", "gfx1100", "v_mov_b32_e32 v0, 1\n s_mov_b64 exec, -1\n v_mov_b32_e32 v1, 2\n ds_load_b32 v5, v6\n"
                     " v_add_f32_e32 v2, v0, v1", None),
    ("K", "gfx1100", "v_mov_b32_e32 v0, 1\n s_mov_b32 exec_lo, -1\n v_mov_b32_e32 v1, 2\n v_add_f32_e32 v2, v0, v1",
     None),  # wave32 (exec_lo): LLVM applies it to wave64 only
    # I, J: LDS-direct loads (the fix sets the load's own field; gfx11 J inserts a depctr)
    ("I", "gfx1100", "v_mul_f32_e32 v0, v1, v1\n lds_param_load v1, attr0.x wait_vdst:15", "wait_vdst:0"),
    ("I", "gfx1100", "v_mul_f32_e32 v0, v1, v1\n" + " v_nop\n" * 10 + " lds_param_load v1, attr0.x wait_vdst:11",
     "wait_vdst:10"),
    ("I", "gfx1100", "v_mul_f32_e32 v0, v1, v1\n" + " v_nop\n" * 10 + " lds_param_load v1, attr0.x wait_vdst:10", None),
    ("I", "gfx1201", "v_exp_f32_e32 v1, v2\n v_nop\n ds_direct_load v1 wait_va_vdst:1 wait_vm_vsrc:0", "wait_va_vdst:0"),
    ("I", "gfx1100", "v_mul_f32_e32 v0, v1, v1\n buffer_load_b32 v5, v6, s[0:3], 0 offen\n lds_param_load v1, attr0.x wait_vdst:15",
     None),
    ("J", "gfx1100", "buffer_load_b32 v2, v1, s[0:3], 0 offen\n lds_param_load v1, attr0.x wait_vdst:15",
     "s_waitcnt_depctr depctr_vm_vsrc(0)"),
    ("J", "gfx1201", "buffer_load_b32 v2, v1, s[0:3], null offen\n ds_param_load v1, attr0.x wait_va_vdst:15 wait_vm_vsrc:1",
     "wait_vm_vsrc:0"),
    ("J", "gfx1100", "buffer_load_b32 v2, v1, s[0:3], 0 offen\n v_nop\n lds_param_load v1, attr0.x wait_vdst:15", None),
    # B: gfx101x 16-byte NSA image instruction right before a buffer access with offset bit 1 or 2
    ("B", "gfx1010", ("image_sample_d v[0:3], [v4, v5, v6, v7, v8, v9, v10, v11, v12], s[0:7], s[8:11] dmask:0xf "
     "dim:SQ_RSRC_IMG_2D\n buffer_load_dword v1, v0, s[4:7], 0 offen offset:6"), "s_nop 0"),
    ("B", "gfx1010", ("image_sample_d v[0:3], [v4, v5, v6, v7, v8, v9, v10, v11, v12], s[0:7], s[8:11] dmask:0xf "
     "dim:SQ_RSRC_IMG_2D\n buffer_load_dword v1, v0, s[4:7], 0 offen offset:8"), None),
    # S, T, U, V: gfx1250
    ("S", "gfx1250", "s_getreg_b32 s0, hwreg(HW_REG_WAVE_STATUS)",
     ("s_wait_alu depctr_hold_cnt(0) depctr_sa_sdst(0) depctr_va_vdst(0) depctr_va_sdst(0) depctr_va_ssrc(0) depctr_va_vcc(0) "
     "depctr_vm_vsrc(0)")),
    ("S", "gfx1250", "s_wait_alu 0\n s_getreg_b32 s0, hwreg(HW_REG_WAVE_STATUS)", None),
    ("S", "gfx1250", "s_getreg_b32 s0, hwreg(HW_REG_WAVE_MODE)", None),
    ("T", "gfx1250", "s_wait_alu depctr_vm_vsrc(0)\n ds_atomic_async_barrier_arrive_b64 v0\n s_nop 0",
     "s_wait_alu depctr_vm_vsrc(0)"),
    ("T", "gfx1250", "s_nop 0\n ds_atomic_async_barrier_arrive_b64 v0\n s_wait_alu 0xffe3", "s_wait_alu depctr_vm_vsrc(0)"),
    ("U", "gfx1250", "s_mov_b32 s103, 0\n s_mov_b32 s0, src_flat_scratch_base_hi", "s_wait_alu depctr_sa_sdst(0) depctr_va_sdst(0)"),
    ("U", "gfx1250", "s_mov_b32 s103, 0\n" + "".join(f" s_mov_b32 s{n}, 0\n" for n in range(10))
     + " s_mov_b32 s20, src_flat_scratch_base_hi", None),
    ("U", "gfx1250", "s_mov_b32 s103, 0\n s_mov_b32 s0, src_flat_scratch_base_lo", None),
    ("V", "gfx1250", "s_setreg_imm32_b32 hwreg(HW_REG_WAVE_MODE, 0, 1), 1", "v_nop\n v_nop"),
    ("V", "gfx1250", "v_nop\n v_nop\n s_setreg_b32 hwreg(HW_REG_WAVE_MODE, 0, 1), s0", None),
    ("V", "gfx1250", "s_setreg_b32 hwreg(HW_REG_WAVE_MODE), s0", None),
    # R: gfx1150-gfx1153 shaders: priority 2 from the start, s_setprio 0 after the last of a run of exports
    ("R", "gfx1151", "s_setprio 2\n v_mov_b32_e32 v0, 0\n exp mrt0 v0, v0, v0, v0 done\n s_endpgm",
     "s_setprio 0\n s_nop 0\n s_nop 0"),
    ("R", "gfx1151", "s_setprio 2\n exp mrt0 v0, v0, v0, v0\n v_mov_b32_e32 v0, 0",
     "s_setprio 0\n s_waitcnt_expcnt null, 0x0\n s_nop 0\n s_nop 0\n s_setprio 2"),
    ("R", "gfx1151", "v_mov_b32_e32 v0, 0\n exp mrt0 v0, v0, v0, v0 done\n s_setprio 0", "s_setprio 2"),
    ("R", "gfx1151", "s_setprio 3\n exp mrt0 v0, v0, v0, v0\n exp mrt1 v0, v0, v0, v0 done\n s_setprio 0", None),
    ("R", "gfx1100", "exp mrt0 v0, v0, v0, v0 done\n s_nop 0", None),
    ("R", "gfx1151", "s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)\n exp mrt0 v0, v0, v0, v0 done\n s_setprio 0\n"
                     " s_setpc_b64 s[30:31]", None),  # a callable function: its caller raises the priority
    # C: gfx10 floating-point atomic before s_denorm_mode: 3 wait states, a VALU or s_waitcnt ends it
    ("C", "gfx1030", "global_atomic_fmin v0, v1, s[0:1]\n s_denorm_mode 15", "s_nop 2"),
    ("C", "gfx1010", "global_atomic_fmin v0, v1, s[0:1]\n s_nop 0\n s_denorm_mode 15", "s_nop 1"),
    ("C", "gfx1030", "global_atomic_fmin v0, v1, s[0:1]\n v_nop\n s_denorm_mode 15", None),
    ("C", "gfx1100", "global_atomic_min_f32 v0, v1, s[0:1]\n s_denorm_mode 15", None),
]


def _text(target: str, body: str, function: bool, os: str = "amdhsa") -> str:
    end = "" if body.endswith("s_setpc_b64 s[30:31]") else "s_setpc_b64 s[30:31]" if function else "s_endpgm"
    return f'.amdgcn_target "amdgcn-amd-{os}--{target}"\nk:\n {body}\n {end}\n'


def _lint(snippet, target: str, body: str, row: str):
    """missing-nop's findings of `row` (row Q: those on the body's last line; the function's return flushes the rest)."""
    last = 2 + len(body.split("\n"))
    return [d for d in snippet.lint(_text(target, body, row == "Q", _OS.get(row, "amdhsa"))).diagnostics
            if d.name == "missing-nop"
            and (d.line == last if row == "Q" else f"(row {row})" in d.message)]


_OS = {"R": "amdpal"}  # row R is checked in graphics listings only


def _applied(text: str, edit) -> str:
    lines = text.split("\n")
    start = sum(len(line) + 1 for line in lines[:edit.line - 1]) + edit.column - 1
    end = sum(len(line) + 1 for line in lines[:edit.end_line - 1]) + edit.end_column - 1
    return text[:start] + edit.text + text[end:]


@pytest.mark.parametrize("row, target, body, fix", CASES, ids=[f"{c[0]}-{c[1]}-{i}" for i, c in enumerate(CASES)])
def test_rdna_row(snippet, row, target, body, fix):
    found = _lint(snippet, target, body, row)
    if fix is None:
        assert found == []
        return
    (finding,) = found
    assert str(finding.severity) == "error"
    (edit,) = finding.fix.edits
    if ":" in fix and not fix.startswith("s_"):  # a field of the instruction itself
        assert fix in edit.text
    else:
        assert [line.strip() for line in edit.text.strip().split("\n")] == [line.strip() for line in fix.split("\n")]
    fixed = _applied(_text(target, body, row == "Q", _OS.get(row, "amdhsa")), edit)
    assert [d for d in snippet.lint(fixed).diagnostics if d.name == "missing-nop" and f"(row {row})" in d.message
            and (d.line == finding.line + edit.text.count("\n") if row == "Q" else True)] == []


def _kernel(body: str) -> str:
    return (f'.amdgcn_target "amdgcn-amd-amdhsa--gfx1201"\n.text\n.globl k\n.p2align 8\n.type k,@function\nk:\n{body}\n'
            " s_endpgm\n.rodata\n.p2align 6\n.amdhsa_kernel k\n .amdhsa_next_free_vgpr 8\n .amdhsa_next_free_sgpr 16\n"
            ".end_amdhsa_kernel\n")


def test_row_q_in_a_kernel_only_tracks_sgprs_a_valu_has_read(snippet):
    """In a kernel, an SGPR pair needs waits only once a VALU has read it (LLVM: untracked pairs are safe)."""
    unread = " s_mov_b32 s0, 7\n v_add_nc_u32_e32 v2, s0, v0"
    assert [d for d in snippet.lint(_kernel(unread)).diagnostics if d.name == "missing-nop"] == []
    read = " v_add_nc_u32_e32 v1, s0, v0\n" + unread
    (finding,) = [d for d in snippet.lint(_kernel(read)).diagnostics if d.name == "missing-nop"]
    assert "(row Q)" in finding.message


def test_row_q_names_va_sdst_for_a_mask_after_a_va_vcc_wait(snippet):
    """Issue 40, 3: a compare's SGPR read as v_cndmask's mask after a va_vcc wait: the message says why va_sdst."""
    body = "v_cmp_gt_i32_e64 s0, v1, v2\n s_wait_alu depctr_va_vcc(0)\n v_cndmask_b32_e64 v21, v3, v4, s0"
    (finding,) = _lint(snippet, "gfx1201", body, "Q")
    assert "va_vcc waits for VCC only" in finding.message and "s_wait_alu depctr_va_sdst(0)" in finding.message


def test_row_q_merges_paths_and_loops(snippet):
    """A write on one path reaches the read after the join, and a write late in a loop reaches its top."""
    join = "s_cbranch_scc1 .L1\n s_mov_b32 s0, 7\n.L1:\n v_add_nc_u32_e32 v2, s0, v0"
    assert len(_lint(snippet, "gfx1201", join, "Q")) == 1
    loop = ".L0:\n v_add_nc_u32_e32 v2, s0, v0\n s_add_co_i32 s0, s0, 1\n s_cbranch_scc1 .L0\n s_nop 0"
    text = f'.amdgcn_target "amdgcn-amd-amdhsa--gfx1201"\nk:\n{loop}\n s_endpgm\n'
    (finding,) = [d for d in snippet.lint(text).diagnostics if d.name == "missing-nop"]
    assert "(row Q)" in finding.message and finding.line == 4  # the read at the loop's top, after the VALU read tracks s0


@pytest.mark.parametrize("target, text, fields", [
    ("gfx1100", "s_waitcnt_depctr 0xffe3", {"vm_vsrc"}),
    ("gfx1201", "s_wait_alu 0xfffe", {"sa_sdst"}),
    ("gfx1100", "s_waitcnt_depctr 0xfff", {"va_vdst"}),
    ("gfx1201", "s_wait_alu depctr_sa_sdst(0) depctr_va_sdst(0)", {"sa_sdst", "va_sdst"}),
    ("gfx1010", "s_waitcnt_depctr depctr_vm_vsrc(0)", {"vm_vsrc"}),
])
def test_depctr_fields(target, text, fields):
    statement = parse_statement(text)
    value = depctr_value(statement.operands, parse_target_id(target))
    zero = {name for name in depctr_fields_of(parse_target_id(target)) if field_is_zero(value, name)}
    assert zero == fields


def test_depctr_field_the_target_lacks_is_not_understood():
    statement = parse_statement("s_waitcnt_depctr depctr_hold_cnt(0)")
    assert depctr_value(statement.operands, parse_target_id("gfx1010")) is None
    assert depctr_value(statement.operands, parse_target_id("gfx1030")) == 0xFF1F


def test_fix_restores_what_llvm_deleted_on_the_command_line(tmp_path, capsys):
    """`check --fix` on LLVM's gfx1201 and gfx1100 output with mitigations deleted gives back the listing."""
    from amdgpu_lint.cli import main

    from llvm_oracle import compile_ir

    source = (ROOT / "fixtures" / "rdna" / "hazards.ll").read_text()
    for target, mitigation in (("gfx1201", "\ts_wait_alu"), ("gfx1100", "\ts_waitcnt_depctr depctr_va_vdst(0)"),
                               ("gfx1100", "\tv_mov_b32_e32 v1, v1")):
        listing = compile_ir(source, target, 0 if target == "gfx1201" else 2)
        lines = listing.split("\n")
        kept = [line for line in lines if not line.startswith(mitigation)]
        assert len(kept) < len(lines)
        path = tmp_path / f"{target}.s"
        path.write_text("\n".join(kept))
        main(["check", "--no-config", "--no-cache", "--select", "missing-nop", "--fix", str(path)])
        capsys.readouterr()
        fixed = path.read_text().split("\n")
        assert [line.strip() for line in fixed if line.startswith(mitigation)] == [
            line.replace("depctr_hold_cnt(0) ", "").strip() for line in lines if line.startswith(mitigation)]
        assert main(["check", "--no-config", "--no-cache", "--select", "missing-nop", str(path)]) == 0
