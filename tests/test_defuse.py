"""Def/use and classes of tricky instructions, pinned per generation.

Units are written compactly: "v0-3" is v0..v3, "vcc" is both halves, "vcc_lo" one,
"exec" both halves (wave64) or "exec_lo" (wave32), "scc", "m0".
"""

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from amdgpu_lint.frontend.syntax import parse_statement
from amdgpu_lint.isa import instruction_set
from amdgpu_lint.isa.defuse import def_use
from amdgpu_lint.model.targets import parse_target_id
from conftest import skip_if_compiled
from llvm_mc_oracle import LLVM_MC, findings_on_the_line, llvm_mc_says

_PAIRS = {"vcc": ("vcc", (0, 1)), "exec": ("exec", (0, 1)), "flat_scratch": ("flat_scratch", (0, 1))}
_HALVES = {"vcc_lo": ("vcc", 0), "vcc_hi": ("vcc", 1), "exec_lo": ("exec", 0), "exec_hi": ("exec", 1)}


def units(text: str) -> frozenset:
    found = set()
    for word in text.split():
        if word in _PAIRS:
            kind, indices = _PAIRS[word]
            found |= {(kind, i) for i in indices}
        elif word in _HALVES:
            found.add(_HALVES[word])
        elif word in ("scc", "m0"):
            found.add((word, 0))
        else:
            kind = word.rstrip("0123456789-")
            numbers = word[len(kind):]
            first, _, last = numbers.partition("-")
            found |= {(kind, i) for i in range(int(first), int(last or first) + 1)}
    return frozenset(found)


def info(target: str, text: str, wave: int | None = None):
    statement = parse_statement(text)
    processor = parse_target_id(target)
    return def_use(statement.name, statement.operands, statement.modifiers, processor, wave or processor.default_wave_size)


CASES = [
    # (target, instruction, defs, uses)
    # carries and VOPC: the e32 forms name vcc explicitly, e64 forms an SGPR pair
    ("gfx900", "v_add_co_u32_e32 v0, vcc, v1, v2", "v0 vcc", "v1 v2 exec"),
    ("gfx900", "v_addc_co_u32_e32 v3, vcc, v4, v5, vcc", "v3 vcc", "v4 v5 vcc exec"),
    ("gfx900", "v_add_co_u32_e64 v0, s[2:3], v1, v2", "v0 s2-3", "v1 v2 exec"),
    ("gfx1030", "v_add_co_u32 v0, s2, v1, v2", "v0 s2", "v1 v2 exec_lo"),
    ("gfx1030", "v_add_co_ci_u32_e32 v1, vcc_lo, v3, v4, vcc_lo", "v1 vcc_lo", "v3 v4 vcc_lo exec_lo"),
    ("gfx906", "v_cmp_eq_u32_e32 vcc, v0, v1", "vcc", "v0 v1 exec"),
    ("gfx906", "v_cmp_gt_i32_e64 s[4:5], v0, s6", "s4-5", "v0 s6 exec"),
    ("gfx1100", "v_cmp_eq_u32_e32 vcc_lo, v0, v1", "vcc_lo", "v0 v1 exec_lo"),
    ("gfx906", "v_cndmask_b32_e32 v0, v1, v2, vcc", "v0", "v1 v2 vcc exec"),
    ("gfx1201", "v_cndmask_b32_e64 v0, 0, 1, s4", "v0", "s4 exec_lo"),
    # v_cmpx writes EXEC (gfx9: also vcc/sdst; gfx10+: only EXEC)
    ("gfx900", "v_cmpx_eq_u32_e32 vcc, v0, v1", "vcc exec", "v0 v1 exec"),
    ("gfx90a", "v_cmpx_lt_f32_e64 s[0:1], v0, v1", "s0-1 exec", "v0 v1 exec"),
    ("gfx1030", "v_cmpx_eq_u32_e32 v0, v1", "exec_lo", "v0 v1 exec_lo"),
    ("gfx1201", "v_cmpx_gt_u32_e64 s0, v1", "exec_lo", "s0 v1 exec_lo"),
    # saveexec / wrexec: read and write EXEC, write SCC
    ("gfx90a", "s_and_saveexec_b64 s[4:5], vcc", "s4-5 exec scc", "vcc exec"),
    ("gfx1100", "s_and_saveexec_b32 s4, vcc_lo", "s4 exec_lo scc", "vcc_lo exec_lo"),
    ("gfx1030", "s_or_saveexec_b32 s0, -1", "s0 exec_lo scc", "exec_lo"),
    # SALU: SCC written by compares and arithmetic, read by carries and selects
    ("gfx900", "s_add_u32 s0, s1, s2", "s0 scc", "s1 s2"),
    ("gfx900", "s_addc_u32 s3, s4, 0", "s3 scc", "s4 scc"),
    ("gfx900", "s_cmp_lg_u32 s0, 0", "scc", "s0"),
    ("gfx900", "s_cselect_b64 s[0:1], s[2:3], 0", "s0-1", "s2-3 scc"),
    ("gfx900", "s_mov_b32 s0, s1", "s0", "s1"),
    ("gfx900", "s_lshl_b64 s[0:1], s[2:3], 2", "s0-1 scc", "s2-3"),
    ("gfx1201", "s_and_b32 s0, s1, s2", "s0 scc", "s1 s2"),
    # read-modify-write destinations
    ("gfx900", "s_mulk_i32 s5, 0x40", "s5", "s5"),
    ("gfx900", "s_addk_i32 s5, 0x40", "s5 scc", "s5"),
    ("gfx900", "v_mac_f32_e32 v0, v1, v2", "v0", "v0 v1 v2 exec"),
    ("gfx1030", "v_fmac_f32_e32 v0, v1, v2", "v0", "v0 v1 v2 exec_lo"),
    ("gfx908", "v_dot2c_f32_f16_e32 v0, v1, v2", "v0", "v0 v1 v2 exec"),
    # 64-bit multiply-add with carry-out, division scale/fmas with implicit VCC
    ("gfx90a", "v_mad_u64_u32 v[0:1], s[2:3], v2, v3, v[4:5]", "v0-1 s2-3", "v2 v3 v4-5 exec"),
    ("gfx1100", "v_mad_u64_u32 v[0:1], null, v2, v3, v[4:5]", "v0-1", "v2 v3 v4-5 exec_lo"),
    ("gfx900", "v_div_scale_f32 v0, vcc, v1, v1, v2", "v0 vcc", "v1 v2 exec"),
    ("gfx900", "v_div_fmas_f32 v0, v1, v2, v3", "v0", "v1 v2 v3 vcc exec"),
    # LDS: read2/write2, atomics with and without return, M0 on gfx8
    ("gfx90a", "ds_read2_b32 v[0:1], v2 offset0:0 offset1:4", "v0-1", "v2 exec"),
    ("gfx90a", "ds_write2_b64 v0, v[2:3], v[4:5] offset1:8", "", "v0 v2-5 exec"),
    ("gfx90a", "ds_add_u32 v0, v1", "", "v0 v1 exec"),
    ("gfx90a", "ds_add_rtn_u32 v2, v0, v1", "v2", "v0 v1 exec"),
    ("gfx803", "ds_read_b32 v1, v0", "v1", "v0 exec m0"),
    ("gfx1201", "ds_load_b64 v[0:1], v2", "v0-1", "v2 exec_lo"),
    # VMEM atomics return data only with glc (gfx9), sc0 (gfx940+), or a vdst (gfx12)
    ("gfx90a", "global_atomic_add v0, v1, v2, s[0:1] glc", "v0", "v1 v2 s0-1 exec"),
    ("gfx90a", "global_atomic_add v1, v2, s[0:1]", "", "v1 v2 s0-1 exec"),
    ("gfx942", "buffer_atomic_add v1, v2, s[4:7], 0 offen sc0", "v1", "v1 v2 s4-7 exec"),
    ("gfx942", "buffer_atomic_add v1, v2, s[4:7], 0 offen", "", "v1 v2 s4-7 exec"),
    ("gfx908", "buffer_atomic_cmpswap v[0:1], v2, s[8:11], 0 offen glc", "v0-1", "v0-1 v2 s8-11 exec"),
    ("gfx1201", "global_atomic_add_u32 v0, v1, v2, s[0:1] th:TH_ATOMIC_RETURN", "v0", "v1 v2 s0-1 exec_lo"),
    ("gfx1201", "global_atomic_add_u32 v1, v2, s[0:1]", "", "v1 v2 s0-1 exec_lo"),
    # pages that mark the data operand written (gfx950 pk_add_bf16, gfx12 buffer/image): only when returning
    ("gfx950", "buffer_atomic_pk_add_bf16 v5, v0, s[8:11], s3 offen", "", "v5 v0 s8-11 s3 exec"),
    ("gfx1201", "buffer_atomic_add_u32 v1, v2, s[0:3], null offen", "", "v1 v2 s0-3 exec_lo"),
    ("gfx1201", "buffer_atomic_add_u32 v1, v2, s[0:3], null offen th:TH_ATOMIC_RETURN", "v1", "v1 v2 s0-3 exec_lo"),
    # SMEM atomics return with glc, also on gfx940 (where VMEM uses sc0)
    ("gfx942", "s_atomic_add s5, s[2:3], 0x64 glc", "s5", "s5 s2-3"),
    ("gfx942", "s_atomic_add s5, s[2:3], 0x64", "", "s5 s2-3"),
    # LDS DMA writes LDS (through M0), not VGPRs
    ("gfx90a", "buffer_load_dword v1, s[4:7], 0 offen lds", "", "v1 s4-7 m0 exec"),
    ("gfx950", "global_load_lds_dwordx4 v1, s[0:1] offset:16", "", "v1 s0-1 m0 exec"),
    # flat vs global vs scratch, gfx12 loads, scalar loads
    ("gfx90a", "flat_load_dword v2, v[0:1]", "v2", "v0-1 exec"),
    ("gfx90a", "global_load_dwordx4 v[4:7], v0, s[2:3] offset:16", "v4-7", "v0 s2-3 exec"),
    ("gfx90a", "global_store_dwordx2 v[0:1], v[2:3], off", "", "v0-1 v2-3 exec"),
    ("gfx1100", "scratch_load_b32 v1, off, s0", "v1", "s0 exec_lo"),
    ("gfx1201", "global_load_b128 v[4:7], v0, s[2:3]", "v4-7", "v0 s2-3 exec_lo"),
    ("gfx1201", "s_load_b64 s[0:1], s[2:3], 0x10", "s0-1", "s2-3"),
    ("gfx900", "s_load_dwordx4 s[4:7], s[0:1], 0x0", "s4-7", "s0-1"),
    ("gfx900", "buffer_store_dword v1, v2, s[4:7], 0 offen", "", "v1 v2 s4-7 exec"),
    # MFMA: dst and srcC in AGPRs or VGPRs
    ("gfx908", "v_mfma_f32_32x32x8f16 a[0:15], v[0:1], v[2:3], a[0:15]", "a0-15", "v0-3 a0-15 exec"),
    ("gfx90a", "v_mfma_f32_16x16x16f16 v[0:3], v[4:5], v[6:7], 0", "v0-3", "v4-7 exec"),
    ("gfx942", "v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[16:31]", "a0-15", "v0-3 a16-31 exec"),
    ("gfx1100", "v_wmma_f32_16x16x16_f16 v[0:7], v[8:15], v[16:23], v[0:7]", "v0-7", "v0-23 exec_lo"),
    # lane ops, branches, messages, moves between files
    ("gfx900", "v_readlane_b32 s0, v1, 3", "s0", "v1 exec"),
    ("gfx900", "v_writelane_b32 v1, s0, 3", "v1", "s0 exec"),
    ("gfx90a", "v_accvgpr_read_b32 v0, a1", "v0", "a1 exec"),
    ("gfx900", "s_cbranch_vccz .L1", "", "vcc"),
    ("gfx1030", "s_cbranch_execz .L1", "", "exec_lo"),
    ("gfx900", "s_cbranch_scc1 .L1", "", "scc"),
    ("gfx900", "s_sendmsg sendmsg(MSG_INTERRUPT)", "", "m0"),
    ("gfx900", "s_swappc_b64 s[30:31], s[4:5]", "s30-31", "s4-5"),
    ("gfx1100", "v_dual_mul_f32 v0, v1, v2 :: v_dual_mov_b32 v3, v4", "v0", "v1 v2 exec_lo"),
]


@pytest.mark.parametrize("target, text, defs, uses", CASES, ids=[f"{t}:{x.split()[0]}-{i}" for i, (t, x, _, _) in enumerate(CASES)])
def test_def_use(target, text, defs, uses):
    result = info(target, text)
    assert result.problem is None
    assert result.variant is not None, "no table row matched"
    assert result.defs == units(defs)
    assert result.uses == units(uses)


def test_there_are_enough_spot_checks():
    assert len(CASES) >= 40


@pytest.mark.parametrize("target, text, reads_m0", [
    # messages with no data leave M0 alone (item 17c: LLVM's gfx11 trap code reads none before them)
    ("gfx1100", "s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)", False),
    ("gfx1100", "s_sendmsg 3", False),
    ("gfx1201", "s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)", False),
    ("gfx1100", "s_sendmsg_rtn_b32 s0, sendmsg(MSG_RTN_GET_DOORBELL)", False),
    ("gfx1201", "s_sendmsg_rtn_b64 s[0:1], sendmsg(MSG_RTN_GET_REALTIME)", False),
    ("gfx900", "s_sendmsg sendmsg(MSG_SAVEWAVE)", False),
    ("gfx900", "s_sendmsghalt sendmsg(MSG_HALT_WAVES)", False),
    # messages carrying data in M0, and names or numbers the target does not give that meaning
    ("gfx1100", "s_sendmsg sendmsg(MSG_INTERRUPT)", True),
    ("gfx1100", "s_sendmsg sendmsg(MSG_GS_ALLOC_REQ)", True),
    ("gfx900", "s_sendmsg sendmsg(MSG_GS_DONE, GS_OP_NOP)", True),
    ("gfx900", "s_sendmsg 3", True),  # GS_DONE before gfx11
    ("gfx900", "s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)", True),  # a gfx11 name
    ("gfx803", "s_sendmsg sendmsg(MSG_INTERRUPT)", True),
])
def test_messages_that_read_m0(target, text, reads_m0):
    assert (("m0", 0) in info(target, text).uses) == reads_m0


@pytest.mark.parametrize(
    "target, text, unit, kind, memory, counters",
    [
        ("gfx900", "global_load_dword v0, v1, s[0:1]", "vmem", "load", "global", {"vmcnt"}),
        ("gfx900", "global_store_dword v1, v0, s[0:1]", "vmem", "store", "global", {"vmcnt"}),
        ("gfx1030", "global_store_dword v1, v0, s[0:1]", "vmem", "store", "global", {"vscnt"}),
        ("gfx1030", "global_atomic_add v1, v0, s[0:1]", "vmem", "atomic", "global", {"vscnt"}),
        ("gfx1030", "global_atomic_add v2, v1, v0, s[0:1] glc", "vmem", "atomic", "global", {"vmcnt"}),
        ("gfx1201", "global_store_b32 v1, v0, s[0:1]", "vmem", "store", "global", {"storecnt"}),
        ("gfx1201", "global_load_b32 v1, v0, s[0:1]", "vmem", "load", "global", {"loadcnt"}),
        ("gfx900", "flat_load_dword v2, v[0:1]", "vmem", "load", "flat", {"vmcnt", "lgkmcnt"}),
        ("gfx1201", "flat_load_b32 v2, v[0:1]", "vmem", "load", "flat", {"loadcnt", "dscnt"}),
        ("gfx90a", "buffer_load_dword v1, s[4:7], 0 offen lds", "vmem", "load", "buffer", {"vmcnt"}),
        ("gfx1030", "buffer_load_dword v1, v0, s[4:7], 0 offen lds", "vmem", "load", "buffer", {"vmcnt"}),
        ("gfx900", "ds_read_b32 v1, v0", "ds", "read", "lds", {"lgkmcnt"}),
        ("gfx900", "ds_write_b32 v0, v1 gds", "ds", "write", "gds", {"lgkmcnt", "expcnt"}),
        ("gfx1201", "ds_store_b32 v0, v1", "ds", "write", "lds", {"dscnt"}),
        ("gfx900", "s_load_dword s0, s[0:1], 0x0", "smem", "", "", {"lgkmcnt"}),
        ("gfx1201", "s_load_b32 s0, s[0:1], 0x0", "smem", "", "", {"kmcnt"}),
        ("gfx900", "s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)", "message", "", "", {"lgkmcnt"}),
        ("gfx600", "buffer_store_dword v1, v2, s[4:7], 0 offen", "vmem", "store", "buffer", {"vmcnt", "expcnt"}),
    ],
)
def test_memory_classes_and_counters(target, text, unit, kind, memory, counters):
    klass = info(target, text).klass
    assert (klass.unit, klass.kind, klass.memory, set(klass.counters)) == (unit, kind, memory, counters)


@pytest.mark.parametrize(
    "target, text, matrix, passes, xdl",
    [
        ("gfx908", "v_mfma_f32_32x32x8f16 a[0:15], v[0:1], v[2:3], a[0:15]", "mfma", 16, True),
        ("gfx90a", "v_mfma_f32_16x16x16f16 v[0:3], v[4:5], v[6:7], 0", "mfma", 8, True),
        ("gfx90a", "v_mfma_f64_16x16x4f64 v[0:7], v[8:9], v[10:11], 0", "mfma", 8, False),
        ("gfx942", "v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]", "mfma", 8, True),
        ("gfx942", "v_mfma_f32_16x16x16_f16 v[0:3], v[4:5], v[6:7], 0", "mfma", 4, True),
        ("gfx942", "v_mfma_f32_32x32x2f32 a[0:15], v0, v1, a[0:15]", "mfma", 16, False),
        ("gfx942", "v_mfma_f32_4x4x4_16b_f16 a[0:3], v[0:1], v[2:3], a[0:3]", "mfma", 2, True),
        ("gfx942", "v_mfma_f32_32x32x1_2b_f32 v[0:31], v32, v33, v[0:31]", "mfma", 16, False),
        ("gfx950", "v_mfma_i32_16x16x64_i8 v[0:3], v[4:7], v[8:11], v[0:3]", "mfma", 4, True),
        ("gfx950", "v_mfma_i32_32x32x32_i8 v[0:15], v[16:19], v[20:23], v[0:15]", "mfma", 8, True),
        ("gfx950", "v_mfma_f64_16x16x4_f64 v[0:7], v[8:9], v[10:11], 0", "mfma", 16, False),
        ("gfx942", "v_smfmac_f32_32x32x32_fp8_fp8 v[0:15], v[16:17], v[20:23], v24", "smfmac", 8, True),
        ("gfx950", "v_mfma_f32_32x32x64_f8f6f4 v[0:15], v[16:23], v[24:31], v[0:15]", "mfma", 16, True),
        ("gfx950", "v_mfma_f32_32x32x64_f8f6f4 v[0:15], v[16:19], v[24:29], v[0:15] cbsz:4 blgp:2", "mfma", 8, True),
        ("gfx1100", "v_wmma_f32_16x16x16_f16 v[0:7], v[8:15], v[16:23], v[0:7]", "wmma", 4, False),
        ("gfx906", "v_dot2_f32_f16 v0, v1, v2, v3", "dot", 0, False),
    ],
)
def test_matrix_classes(target, text, matrix, passes, xdl):
    klass = info(target, text).klass
    assert (klass.matrix, klass.passes, klass.xdl) == (matrix, passes, xdl)


@pytest.mark.parametrize(
    "text, rate",
    [("v_exp_f32 v0, v1", "trans"), ("v_rsq_f32 v0, v1", "trans"), ("v_fma_f64 v[0:1], v[2:3], v[4:5], v[6:7]", "f64"),
     ("v_mul_lo_u32 v0, v1, v2", "quarter"), ("v_mad_u64_u32 v[0:1], s[2:3], v2, v3, v[4:5]", "quarter"),
     ("v_lshlrev_b64 v[0:1], 2, v[2:3]", "half"), ("v_add_f32 v0, v1, v2", "full")],
)
def test_valu_rates(text, rate):
    assert info("gfx90a", text).klass.rate == rate


@pytest.mark.parametrize(
    "target, text, problem",
    [
        ("gfx90a", "global_load_dwordx4 v[0:1], v2, s[0:1]", "is 4 dwords, but v[0:1] is 2"),
        ("gfx90a", "v_add_f32 v0, v1", "takes"),
        ("gfx942", "s_load_dwordx2 s[0:2], s[4:5], 0", "is 2 dwords"),
    ],
)
def test_shape_problems(target, text, problem):
    assert problem in (info(target, text).problem or "")


@pytest.mark.parametrize(
    "target, text, accepted",
    [
        # llvm-mc 22 takes one VGPR for a 64-bit DPP source, and from gfx90a (64-bit DPP) a VGPR pair for a 32-bit one
        ("gfx900", "v_rcp_f64_dpp v[0:1], v4 quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf", True),
        ("gfx942", "v_add_f32_dpp v0, v[4:5], v8 row_shl:1", True),
        ("gfx942", "v_rcp_f32 v0, v[4:5] row_newbcast:1", True),
        ("gfx900", "v_add_f32_dpp v0, v[4:5], v8 row_shl:1", False),  # not before gfx90a
        ("gfx942", "v_add_f32_dpp v[0:1], v4, v8 row_shl:1", False),  # nor in the destination
        ("gfx942", "v_add_f32 v0, v[4:5], v8", False),  # nor without DPP
        ("gfx942", "v_add_u32_dpp v0, v4, v[8:9] row_shl:1", False),  # nor in an integer instruction
        ("gfx90a", "v_cndmask_b32_dpp v0, v[4:5], v8, vcc quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf", True),
        ("gfx942", "v_cvt_f32_i32_dpp v0, v[4:5] row_shl:1", False),  # nor converting from an integer
        ("gfx90a", "v_cvt_i32_f32_dpp v0, v[4:5] row_shl:1", True),
    ],
)
def test_dpp_source_widths_llvm_mc_lets_pass(target, text, accepted):
    assert (info(target, text).problem is None) == accepted
    if shutil.which("llvm-mc-22"):
        run = subprocess.run(["llvm-mc-22", "-triple=amdgcn-amd-amdhsa", f"-mcpu={target}", "-filetype=null"],
                             input=text + "\n", capture_output=True, text=True, check=False)
        assert ("error" not in run.stderr) == accepted, run.stderr


@pytest.mark.parametrize(
    "text, wave, accepted",
    [
        # gfx12's transposing loads give a wave64 lane half the data (llvm-mc 22, -mattr=+wavefrontsize64)
        ("global_load_tr_b128 v[1:4], v0, s[0:1]", 32, True),
        ("global_load_tr_b128 v[1:2], v0, s[0:1]", 64, True),
        ("global_load_tr_b64 v1, v0, s[0:1]", 64, True),
        ("global_load_tr_b128 v[1:2], v0, s[0:1]", 32, False),
        ("global_load_tr_b128 v[1:4], v0, s[0:1]", 64, False),
    ],
)
def test_gfx12_transposing_loads_per_wave_size(text, wave, accepted):
    assert (info("gfx1200", text, wave).problem is None) == accepted
    if shutil.which("llvm-mc-22"):
        run = subprocess.run(["llvm-mc-22", "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx1200", "-filetype=null",
                              *(["-mattr=+wavefrontsize64"] if wave == 64 else [])],
                             input=text + "\n", capture_output=True, text=True, check=False)
        assert ("error" not in run.stderr) == accepted, run.stderr


def test_instructions_that_differ_in_registers_and_labels_are_worked_out_once(monkeypatch):
    """def/use is worked out once per form (registers' files and widths, not their indices; labels and
    immediates not at all) and each instruction gets its own registers, overlaps and width problems."""
    from amdgpu_lint.isa import defuse

    skip_if_compiled(defuse)
    worked = []
    work_out = defuse._worked_out
    monkeypatch.setattr(defuse, "_worked_out", lambda *args: worked.append(args[0]) or work_out(*args))
    defuse._def_use.cache_clear()
    defuse._template.cache_clear()
    first = info("gfx90a", "v_add_u32_e32 v1, v2, v3")
    again = info("gfx90a", "v_add_u32_e32 v7, v7, v200")  # reads the register it writes
    assert (first.defs, first.uses) == (units("v1"), units("v2 v3 exec"))
    assert (again.defs, again.uses) == (units("v7"), units("v7 v200 exec"))
    assert info("gfx90a", "s_cbranch_scc1 .LBB0_1").uses == info("gfx90a", "s_cbranch_scc1 .LBB7_3").uses == units("scc")
    assert info("gfx90a", "global_load_dwordx2 v[4:5], v0, s[2:3] offset:16").defs == units("v4-5")
    assert info("gfx90a", "global_load_dwordx2 v[8:9], v6, s[6:7] offset:16").defs == units("v8-9")
    assert worked == ["v_add_u32_e32", "s_cbranch_scc1", "global_load_dwordx2"]
    assert "but v[8:10] is 3" in info("gfx90a", "global_load_dwordx2 v[8:10], v6, s[6:7]").problem
    assert "but v[0:2] is 3" in info("gfx90a", "global_load_dwordx2 v[0:2], v6, s[6:7]").problem  # names its own


_LLVM_MC_TESTS = Path(__file__).resolve().parents[2] / "shared" / "conformance" / "llvm" / "MC"


@pytest.mark.parametrize("cpu", ("gfx700", "gfx810", "gfx900", "gfx908", "gfx90a", "gfx942", "gfx950", "gfx1030",
                                 "gfx1100", "gfx1200"))
def test_atomics_write_registers_only_when_llvm_returns(cpu):
    """Every atomic of LLVM's MC tests that llvm-mc-22 accepts on the processor (and our tables name):
    it writes a register exactly when llvm-mc picks the returning (_RTN) opcode; image atomics have one
    opcode, so there glc / sc0 / th:*_RETURN decides."""
    if shutil.which("llvm-mc-22") is None or not _LLVM_MC_TESTS.is_dir():
        pytest.skip("llvm-mc-22 or LLVM's MC tests (../shared/conformance/llvm/MC) missing")
    lines = sorted({statement for path in _LLVM_MC_TESTS.glob("*.s")
                    for statement in (raw.split("//")[0].split(";")[0].strip() for raw in path.open(errors="replace"))
                    if "_atomic" in statement.split(" ")[0]})

    def llvm_mc(statements: list[str]) -> subprocess.CompletedProcess:
        command = ["llvm-mc-22", "-triple=amdgcn-amd-amdhsa", f"-mcpu={cpu}", "-show-inst"]
        return subprocess.run(command, input="\n".join(statements), capture_output=True, text=True)

    rejected = {int(n) for n in re.findall(r"<stdin>:(\d+):\d+: error", llvm_mc(lines).stderr)}
    accepted = [line for number, line in enumerate(lines, 1) if number not in rejected]
    opcodes = re.findall(r"<MCInst #\d+ (\w+)", llvm_mc(accepted).stdout)
    assert len(opcodes) == len(accepted) > 100
    target = parse_target_id(f"amdgcn-amd-amdhsa--{cpu}")
    known = instruction_set(target)
    wrong = []
    for line, opcode in zip(accepted, opcodes, strict=True):
        statement = parse_statement(line)
        if not known.variants(statement.name):
            continue
        found = def_use(statement.name, statement.operands, statement.modifiers, target, target.default_wave_size)
        writes = any(unit[0] in ("v", "a", "s") for unit in found.defs)
        returns = "_RTN" in opcode if not opcode.startswith("IMAGE_") else bool(re.search(r" glc| sc0|_RETURN", line))
        if writes != returns:
            wrong.append((line, opcode, sorted(found.defs)))
    assert wrong == []


def test_branches_to_different_labels_share_their_facts(snippet):
    """Compiler output has a distinct text for every branch (one per label); where a branch goes changes none of
    its facts, so each kind of branch is worked out once per target, and its findings stay those of its own code."""
    from amdgpu_lint.analyses.defuse import DefUseAnalysis
    from amdgpu_lint.analyses.manager import AnalysisManager

    text = """
        .amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
        k:
          s_cmp_eq_u32 s0, 0
          s_cbranch_scc1 .LBB0_2
        .LBB0_1:
          s_cbranch_scc1 .LBB0_3
          s_branch .LBB0_2
        .LBB0_2:
          s_branch .LBB0_3
        .LBB0_3:
          s_endpgm
    """
    module = snippet.build(text)
    facts = AnalysisManager(module, module.kernels[0]).get(DefUseAnalysis).facts
    assert facts[1] is facts[2] and facts[3] is facts[4] and facts[1] is not facts[3]
    assert facts[1].info.uses == units("scc") and facts[3].info.uses == frozenset()


#: (target, line, our words, or None where llvm-mc-22 assembles it): a register of a file the operand never takes
FILE_CASES = [
    ("gfx1100", "s_min_u32 s0, v4, s8", "operand 'ssrc0' of s_min_u32 takes SGPRs, not v4"),
    ("gfx942", "s_or_saveexec_b64 s[0:1], v[4:5]", "operand 'ssrc' of s_or_saveexec_b64 takes SGPRs, not v[4:5]"),
    ("gfx900", "v_not_b32 s0, v4", "operand 'vdst' of v_not_b32 takes VGPRs, not s0"),
    ("gfx1100", "v_exp_f16_e32 s0, v4", "operand 'vdst' of v_exp_f16_e32 takes VGPRs, not s0"),
    # a VALU source: an unsuffixed mnemonic may be encoded as VOP3, and the pages' VOP3 rows are not trusted there
    ("gfx1100", "v_add_f32 v0, v1, s2", None),
    ("gfx1200", "v_max_num_f16 v0, v4, s8", None),
    ("gfx1200", "v_cmp_gt_f32_e64 vcc_lo, v0, s4", None),
    ("gfx900", "v_readlane_b32 s0, v1, s2", None),
    ("gfx942", "global_load_dword v1, v2, s[4:5]", None),
    # VALU sources where the form is certain: `_e32`, an unsuffixed VOPC without the vcc VOP3 would write, DPP
    ("gfx1100", "v_cmp_eq_i32 v0, s4", "operand 'vsrc1' of v_cmp_eq_i32 takes VGPRs, not s4"),
    ("gfx1201", "v_cmp_eq_u32 v0, s4", "operand 'vsrc1' of v_cmp_eq_u32 takes VGPRs, not s4"),
    ("gfx1100", "v_cmpx_eq_i32 v0, s4", None),  # VOP3 v_cmpx writes no lane mask either
    ("gfx1201", "v_cmpx_eq_i32 v0, s4", None),
    ("gfx1100", "v_lshrrev_b32_e32 v0, v4, s8", "operand 'vsrc1' of v_lshrrev_b32_e32 takes VGPRs, not s8"),
    ("gfx1030", "v_cndmask_b32 v0, v4, s8", None),  # llvm-mc 22 makes it SDWA on gfx9-10
    ("gfx1100", "v_add_co_ci_u32_e32 s0, v4, v8", "operand 'vdst' of v_add_co_ci_u32_e32 takes VGPRs, not s0"),
    ("gfx1100", "v_rcp_f16_dpp v0, s4 quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf",
     "operand 'vsrc' of v_rcp_f16_dpp takes VGPRs, not s4"),
    ("gfx1100", "v_add_f32_e64_dpp v0, v4, s8 row_shl:1", "of v_add_f32_e64_dpp takes VGPRs, not s8"),
    ("gfx1150", "v_add_f32_e64_dpp v0, v4, s8 row_shl:1", None),  # gfx1150 on take an SGPR src1 in VOP3 DPP
    ("gfx1201", "v_add_f32 v0, v4, s8 row_shl:1", None),
    ("gfx1201", "v_add_f32_dpp v0, v4, s8 row_shl:1", "of v_add_f32_dpp takes VGPRs, not s8"),
    ("gfx1201", "v_add_f32_e64_dpp v0, s4, v8 row_shl:1", "of v_add_f32_e64_dpp takes VGPRs, not s4"),
    # unsuffixed mnemonics llvm-mc 22 has no VOP3 form of (tables/mnemonics.jsonl), and one whose VOP3 row fits too
    ("gfx1201", "v_fmaak_f32 v0, v4, s8, 0", "operand 'vsrc1' of v_fmaak_f32 takes VGPRs, not s8"),
    ("gfx1030", "v_fmaak_f32 v0, s4, v8, 0", None),
    ("gfx1100", "v_swap_b32 v0, s4", "of v_swap_b32 takes VGPRs, not s4"),
    ("gfx1030", "v_movrels_b32 v0, s4", "of v_movrels_b32 takes VGPRs, not s4"),  # "source operand must be a VGPR"
    # VOP3-only rows: the files they list
    ("gfx1100", "v_readlane_b32 s0, v0, v4", "operand 'ssrc1' of v_readlane_b32 takes SGPRs, not v4"),
    ("gfx1201", "v_permlane16_var_b32 v0, s4, v8", "of v_permlane16_var_b32 takes VGPRs, not s4"),
    ("gfx1201", "v_s_exp_f32 s0, v4", None),  # llvm-mc 22 takes a VGPR there
    # an atomic written without its result
    ("gfx1100", "flat_atomic_or s[4:5], v8", "operand 'vaddr' of flat_atomic_or takes VGPRs, not s[4:5]"),
    ("gfx1030", "flat_atomic_umax v[4:5], s8", "operand 'vdata' of flat_atomic_umax takes VGPRs, not s8"),
]


def _judged_as_llvm_mc_judges(snippet, tmp_path, target: str, line: str, words: str | None, said: str) -> None:
    """def/use's problem with the instruction has `words` (None: it has none), the line draws one finding (the
    probes of llvm-mc, the rule's first say, may word it), and llvm-mc-22 refuses the line with an error matching
    `said`, or takes it."""
    found = findings_on_the_line(snippet, target, line)
    problem = info(target, line).problem
    if words is None:
        assert found == [] and problem is None, (found, problem)
    else:
        assert len(found) == 1 and words in (problem or ""), (found, problem)
    if LLVM_MC is not None:
        stderr = llvm_mc_says(tmp_path, target, line)
        assert (re.search(f"error: ({said})", stderr) if words else "error" not in stderr), stderr


@pytest.mark.parametrize(("target", "line", "words"), FILE_CASES)
def test_a_register_of_a_file_the_operand_never_takes(snippet, tmp_path, target, line, words):
    _judged_as_llvm_mc_judges(snippet, tmp_path, target, line, words,
                              "invalid operand for instruction|source operand must be a VGPR")


#: (target, line, our words, or None where llvm-mc-22 assembles it): a register of the wrong width
WIDTH_CASES = [
    ("gfx1100", "ds_load_b32 v0, v[4:5]", "operand 'vaddr' of ds_load_b32 is 1 dword, but v[4:5] is 2"),
    ("gfx1030", "ds_write_b32 v[0:1], v4", "operand 'vaddr' of ds_write_b32 is 1 dword, but v[0:1] is 2"),
    ("gfx1201", "ds_load_b32 v0, v4", None),
    ("gfx1030", "flat_load_sbyte v0, v4", "operand 'vaddr' of flat_load_sbyte is 2 dwords, but v4 is 1"),
    ("gfx803", "flat_load_dword v0, v[4:5]", None),
    ("gfx942", "global_load_dword v0, v[4:5], off", None),
    ("gfx942", "global_load_dword v0, v4, off", "operand 'vaddr' of global_load_dword is 2 dwords, but v4 is 1"),
    ("gfx1201", "global_load_b32 v0, v[4:5], s[0:1]", "operand 'vaddr' of global_load_b32 is 1 dword"),
    ("gfx1100", "scratch_load_b32 v0, v[4:5], s0", "operand 'vaddr' of scratch_load_b32 is 1 dword"),
    ("gfx1100", "scratch_load_b32 v0, v4, off", None),
    ("gfx1100", "v_cmp_eq_u16 v[0:1], v4", "operand 'src0' of v_cmp_eq_u16 is 1 dword, but v[0:1] is 2"),
    ("gfx1100", "v_add_f16 v0.h, v1.l, v2.l", None),
    ("gfx1100", "buffer_load_b32 v0, v[4:5], s[0:3], 0 idxen offen", None),  # a buffer's address: its modifiers
]


#: (target id, line, the words of the problem, llvm-mc's message) for a MUBUF load's data register and `lds`
LDS_DATA_CASES = [
    ("gfx900", "buffer_load_dword off, s[8:11], s3", "its data register is left out only with `lds`",
     "too few operands for instruction"),
    ("gfx1030", "buffer_load_ubyte v1, s[8:11], s3", "its data register is left out only with `lds`",
     "too few operands for instruction"),
    ("gfx900", "buffer_load_dword v1, off, s[8:11], s3 lds", "takes no data register", "invalid operand for instruction"),
    ("gfx900", "buffer_load_dword off, s[8:11], s3 lds", None, None),
    ("gfx950", "buffer_load_dword off, s[8:11], s3 offset:4 lds", None, None),
    ("gfx900", "buffer_atomic_add v1, off, s[8:11], s3", None, None),
]


@pytest.mark.parametrize(("target", "line", "words", "message"), LDS_DATA_CASES)
def test_a_buffer_load_writes_its_data_register_unless_it_loads_into_lds(snippet, tmp_path, target, line, words,
                                                                        message):
    _judged_as_llvm_mc_judges(snippet, tmp_path, target, line, words, message or "")


@pytest.mark.parametrize(("target", "line", "words"), WIDTH_CASES)
def test_a_register_of_the_wrong_width(snippet, tmp_path, target, line, words):
    _judged_as_llvm_mc_judges(snippet, tmp_path, target, line, words, "invalid operand for instruction")
