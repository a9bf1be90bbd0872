"""Operand fields llvm-mc 22 refuses, found without an assembler (issue 36): ds_swizzle offsets, hwreg/sendmsg
fields, s_waitcnt counts, s_delay_alu names, SOPK immediates, expressions as operands; and what it accepts staying
accepted (LLVM 22's structured hwreg operand, a symbol named like a modifier, operands without commas, gfx802's
s96-s101, `.warning`).

Each case was assembled with `llvm-mc-22 -triple=amdgcn-amd-amdhsa -mcpu=... -filetype=null`; where llvm-mc-22 is
installed the test asks it again, so the expectation cannot drift from the assembler.
"""

import pytest
from llvm_mc_oracle import LLVM_MC, assert_llvm_mc_verdict

#: the rules that report what the assembler would
PARSE_LEVEL = ("parse-error", "unknown-instruction", "register-budget", "undefined-symbol")

#: (processor, line, llvm-mc's error or None where it assembles)
CASES = [
    # ds_swizzle: FFT and ROTATE exist from gfx9; each mode's values, in the order llvm-mc reads them
    ("gfx803", "ds_swizzle_b32 v5, v1 offset:swizzle(FFT,5)", "FFT mode swizzle not supported on this GPU"),
    ("gfx803", "ds_swizzle_b32 v5, v1 offset:swizzle(ROTATE,0,1)", "Rotate mode swizzle not supported on this GPU"),
    ("gfx908", "ds_swizzle_b32 v5, v1 offset:swizzle(FFT,5)", None),
    ("gfx908", "ds_swizzle_b32 v5, v1 offset:swizzle(FFT,32)", "FFT swizzle must be in the interval [0,31]"),
    ("gfx1100", "ds_swizzle_b32 v5, v1 offset:swizzle(ROTATE,2,31)", "direction must be 0 (left) or 1 (right)"),
    ("gfx1200", "ds_swizzle_b32 v5, v1 offset:swizzle(ROTATE,1,32)",
     "number of threads to rotate must be in the interval [0,31]"),
    ("gfx1010", "ds_swizzle_b32 v5, v1 offset:swizzle(ROTATE,1)", "expected a comma"),
    ("gfx1010", "ds_swizzle_b32 v5, v1 offset:swizzle(FFT,16,31)", "expected a closing parentheses"),
    ("gfx900", "ds_swizzle_b32 v5, v1 offset:swizzle(QUAD_PERM,0,1,2,3)", None),
    ("gfx900", "ds_swizzle_b32 v5, v1 offset:swizzle(QUAD_PERM,0,1,2,4)", "expected a 2-bit lane id"),
    ("gfx900", "ds_swizzle_b32 v5, v1 offset:swizzle(BITMASK_PERM,\"01pi0\")", None),
    ("gfx900", "ds_swizzle_b32 v5, v1 offset:swizzle(BITMASK_PERM,\"01px0\")", "invalid mask"),
    ("gfx900", "ds_swizzle_b32 v5, v1 offset:swizzle(BITMASK_PERM,\"01pi\")", "expected a 5-character mask"),
    ("gfx900", "ds_swizzle_b32 v5, v1 offset:swizzle(BROADCAST,3,1)", "group size must be a power of two"),
    ("gfx900", "ds_swizzle_b32 v5, v1 offset:swizzle(BROADCAST,4,4)",
     "lane id must be in the interval [0,group size - 1]"),
    ("gfx900", "ds_swizzle_b32 v5, v1 offset:swizzle(SWAP,32)", "group size must be in the interval [1,16]"),
    ("gfx900", "ds_swizzle_b32 v5, v1 offset:swizzle(REVERSE,1)", "group size must be in the interval [2,32]"),
    ("gfx900", "ds_swizzle_b32 v5, v1 offset:swizzle(quad_perm,0,1,2,3)", "expected a swizzle mode"),
    ("gfx900", "ds_swizzle_b32 v5, v1 offset:0xffff", None),
    ("gfx900", "ds_swizzle_b32 v5, v1 offset:swizzle(QUAD_PERM,0,1,2,later)", "expected absolute expression"),
    ("gfx900", "s_getreg_b32 s1, hwreg(later)", "expected a register name or an absolute expression"),
    ("gfx900", "s_getreg_b32 s1, hwreg(HW_REG_MODE, later, 1)", "expected absolute expression"),
    ("gfx900", "s_getreg_b32 s1, {id: later}", "expected absolute expression"),
    ("gfx900", "s_sendmsg sendmsg(later)", "expected a message name or an absolute expression"),
    ("gfx900", "s_waitcnt vmcnt(later)", "expected absolute expression"),
    ("gfx1100", "s_waitcnt_depctr depctr_vm_vsrc(later)", "expected absolute expression"),
    ("gfx900", "ds_swizzle_b32 v5, v1 offset:0x10000", "expected a 16-bit offset"),
    # hwreg: names per processor, the id, offset and width; LLVM 22's structured form
    ("gfx900", "s_getreg_b32 s1, hwreg(HW_REG_SH_MEM_BASES)", None),
    ("gfx803", "s_getreg_b32 s1, hwreg(HW_REG_SH_MEM_BASES)", "invalid hardware register: not supported on this GPU"),
    ("gfx1100", "s_getreg_b32 s1, hwreg(HW_REG_HW_ID)", "invalid hardware register: not supported on this GPU"),
    ("gfx1030", "s_getreg_b32 s1, hwreg(HW_REG_HW_ID)", None),
    ("gfx1200", "s_getreg_b32 s1, hwreg(HW_REG_EXCP_FLAG_PRIV)", None),  # a spelling llvm-mc never prints
    ("gfx1100", "s_getreg_b32 s1, hwreg(HW_REG_EXCP_FLAG_PRIV)", "invalid hardware register: not supported on this GPU"),
    ("gfx900", "s_getreg_b32 s1, hwreg(hw_reg_mode)", "expected a register name or an absolute expression"),
    ("gfx900", "s_getreg_b32 s1, hwreg(64)", "invalid hardware register: only 6-bit values are legal"),
    ("gfx900", "s_getreg_b32 s1, hwreg(HW_REG_MODE, 32, 1)", "invalid bit offset: only 5-bit values are legal"),
    ("gfx900", "s_setreg_b32 hwreg(HW_REG_MODE, 0, 33), s1",
     "invalid bitfield width: only values from 1 to 32 are legal"),
    ("gfx900", "s_getreg_b32 s1, hwreg(HW_REG_MODE, 1)", "expected a comma"),
    ("gfx900", "s_getreg_b32 s1, 0x10000", "invalid immediate: only 16-bit values are legal"),
    ("gfx1200", "s_getreg_b32 s1, {id: 51, offset: 1, size: 31}", None),
    ("gfx900", "s_setreg_b32 {id: 1, offset: 2}, s3", None),
    ("gfx900", "s_getreg_b32 s1, {}", None),
    ("gfx900", "s_getreg_b32 s1, {id: 64}", "invalid hardware register: only 6-bit values are legal"),
    ("gfx900", "s_getreg_b32 s1, {id: 1, size: 0}", "invalid bitfield width: only values from 1 to 32 are legal"),
    ("gfx900", "s_getreg_b32 s1, {id: 1, foo: 2}", "unknown field"),
    ("gfx900", "s_getreg_b32 s1, {id: 1, id: 2}", "duplicate field"),
    ("gfx900", "s_getreg_b32 s1, {id: HW_REG_MODE}", "expected absolute expression"),
    ("gfx900", "s_getreg_b32 s1, {id: 1 offset: 2}", "comma or closing brace expected"),
    ("gfx900", "s_getreg_b32 s1, hwreg({id: 1})", "unknown token in expression"),
    ("gfx900", "s_sendmsg {id: 1}", "unknown token in expression"),
    # sendmsg: messages per processor, their operations and streams
    ("gfx900", "s_sendmsg sendmsg(MSG_INTERRUPT)", None),
    ("gfx803", "s_sendmsg sendmsg(MSG_GS_ALLOC_REQ)", "specified message id is not supported on this GPU"),
    ("gfx1100", "s_sendmsg sendmsg(MSG_GS, GS_OP_EMIT, 0)", "specified message id is not supported on this GPU"),
    ("gfx1100", "s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)", None),
    ("gfx900", "s_sendmsg sendmsg(MSG_GS, GS_OP_EMIT, 3)", None),
    ("gfx900", "s_sendmsg sendmsg(MSG_GS, GS_OP_EMIT, 4)", "invalid message stream id"),
    ("gfx900", "s_sendmsg sendmsg(MSG_GS_DONE)", "missing message operation"),
    ("gfx900", "s_sendmsg sendmsg(MSG_INTERRUPT, 0)", "message does not support operations"),
    ("gfx900", "s_sendmsg sendmsg(MSG_SYSMSG, GS_OP_EMIT)", "expected an operation name or an absolute expression"),
    ("gfx900", "s_sendmsg sendmsg(16)", "invalid message id"),
    ("gfx1100", "s_sendmsg sendmsg(16)", None),
    ("gfx1100", "s_sendmsg_rtn_b32 s0, sendmsg(MSG_RTN_GET_DOORBELL)", None),
    ("gfx1100", "s_sendmsg_rtn_b32 s0, sendmsg(MSG_RTN_GET_SE_AID_ID)", "specified message id is not supported on this GPU"),
    # s_waitcnt: counts per generation
    ("gfx803", "s_waitcnt vmcnt(15) expcnt(7) lgkmcnt(15)", None),
    ("gfx803", "s_waitcnt vmcnt(16)", "too large value for vmcnt"),
    ("gfx900", "s_waitcnt vmcnt(63) & lgkmcnt(15)", None),
    ("gfx900", "s_waitcnt lgkmcnt(16)", "too large value for lgkmcnt"),
    ("gfx1030", "s_waitcnt vmcnt(0), lgkmcnt(63)", None),
    ("gfx1030", "s_waitcnt expcnt(8)", "too large value for expcnt"),
    # a comma after the last named counter asks for another; after a number, or another instruction's operands, it
    # is taken
    ("gfx942", "s_waitcnt vmcnt(0),", "expected a counter name"),
    ("gfx1100", "s_waitcnt vmcnt(0) lgkmcnt(0),", "expected a counter name"),
    ("gfx1100", "s_waitcnt_depctr depctr_va_vdst(0),", "expected a counter name"),
    ("gfx1100", "s_waitcnt vmcnt(0),lgkmcnt(0)", None),
    ("gfx1100", "s_waitcnt 0,", None),
    ("gfx1100", "s_waitcnt_depctr 0,", None),
    ("gfx1100", "s_delay_alu instid0(VALU_DEP_1),", None),
    ("gfx942", "v_mov_b32 v0, v1,", None),
    ("gfx1030", "s_waitcnt vmcnt_sat(100)", None),
    ("gfx1030", "s_waitcnt vscnt(0)", "invalid counter name vscnt"),
    # s_waitcnt_depctr / s_wait_alu: counters per generation, each once, in range
    ("gfx1100", "s_waitcnt_depctr depctr_va_vdst(15) depctr_vm_vsrc(7)", None),
    ("gfx1100", "s_waitcnt_depctr depctr_va_vdst(16)", "invalid value for depctr_va_vdst"),
    ("gfx1010", "s_waitcnt_depctr depctr_hold_cnt(0)", "depctr_hold_cnt is not supported on this GPU"),
    ("gfx1100", "s_waitcnt_depctr depctr_foo(0)", "invalid counter name depctr_foo"),
    ("gfx1030", "s_waitcnt_depctr depctr_hold_cnt(0)", None),
    ("gfx1200", "s_wait_alu depctr_va_vdst(0) depctr_va_vdst(1)", "duplicate counter name depctr_va_vdst"),
    ("gfx1200", "s_wait_alu depctr_hold_cnt(2)", "invalid value for depctr_hold_cnt"),
    ("gfx1100", "s_waitcnt_depctr 0x10000", "invalid operand for instruction"),
    ("gfx1100", "s_waitcnt_depctr 0xffff", None),
    # s_delay_alu: value names, fields joined by '|'
    ("gfx1100", "s_delay_alu instid0(VALU_DEP_1) | instskip(NEXT) | instid1(SALU_CYCLE_1)", None),
    ("gfx1100", "s_delay_alu instid0(NO_DEP) | instskip(SAME)", None),
    ("gfx1100", "s_delay_alu instid0(FOO)", "invalid value name FOO"),
    ("gfx1100", "s_delay_alu instskip(VALU_DEP_1)", "invalid value name VALU_DEP_1"),
    ("gfx1100", "s_delay_alu foo(VALU_DEP_1)", "invalid field name foo"),
    ("gfx1100", "s_delay_alu instid0(1)", "expected a value name"),
    ("gfx1100", "s_delay_alu instid0(VALU_DEP_1) instid1(SALU_CYCLE_1)", "invalid operand for instruction"),
    # SOPK: 16 bits, signed or unsigned as the instruction reads them
    ("gfx900", "s_movk_i32 s0, 0xffff", None),
    ("gfx900", "s_movk_i32 s0, -32768", None),
    ("gfx900", "s_movk_i32 s0, 0x10000", "invalid operand for instruction"),
    ("gfx900", "s_cmpk_eq_u32 s0, -1", "invalid operand for instruction"),
    ("gfx1030", "s_waitcnt_vscnt null, 0x10000", "invalid operand for instruction"),
    ("gfx900", "s_nop 0x10000", None),  # SOPP immediates are not range-checked
    ("gfx900", "s_nop later", "invalid operand for instruction"),
    ("gfx1200", "s_wait_loadcnt later", "invalid operand for instruction"),
    ("gfx1200", "s_version UC_VERSION_GFX12 | UC_VERSION_W64_BIT", None),  # symbols llvm-mc defines
    ("gfx900", "s_sendmsg sendmsg(MSG_GS, 1)", None),
    ("gfx900", "s_sendmsg sendmsg(MSG_GS, 0)", "invalid operation id"),
    # expressions as operands
    ("gfx803", "v_ceil_f32 v1, 1.0 + 1.0", "invalid operand for instruction"),
    ("gfx803", "v_ceil_f64 v[0:1], u", "invalid operand for instruction"),
    ("gfx803", "v_ceil_f32 v1, u", None),
    ("gfx1100", "v_lshlrev_b64 v[0:1], u, v[2:3]", None),
    ("gfx803", "v_ceil_f32 v1, |u|", "expected an absolute expression"),
    ("gfx803", "s_addk_i32 s2, u", "invalid operand for instruction"),
    ("gfx803", "s_load_dword s1, s[2:3], u", "invalid operand for instruction"),
    ("gfx900", "s_sub_u32 s0, u, u", "only one unique literal operand is allowed"),
    ("gfx900", "s_sub_u32 s0, u, 64", None),
    ("gfx1030", "v_bfe_u32 v0, v2, 123, u", "only one unique literal operand is allowed"),
    ("gfx900", "v_bfe_u32 v0, v2, v3, u", "literal operands are not supported"),
    ("gfx803", "s_cbranch_join 1", "invalid operand for instruction"),
    ("gfx1030", "v_interp_mov_f32 v0, p10, attr0.x", None),  # no symbols
    ("gfx900", "v_interp_p2_f16 v0, v1, attr0.x, v2", None),
    ("gfx1010", "s_mov_b64 [tba_lo,tba_hi], s[2:3]", "tba_lo register not available on this GPU"),
    # what llvm-mc accepts: a symbol named like a modifier, operands without commas
    ("gfx803", "s_mov_b32 s0, gds", None),
    ("gfx803", "ds_gws_init v2 gds", None),
    ("gfx900", "v_add_f32 v0 -v1 v2", None),
    ("gfx900", "v_add_f32 v0 |v1| v2", None),
    # a word right after a register is an operand unless llvm-mc reads it as a modifier there
    ("gfx942", "v_mov_b32 v0 x", None),
    ("gfx942", "s_add_u32 s0, s1 x", None),
    ("gfx942", "global_load_dword v0, v[0:1] off", None),
    ("gfx802", "v_cvt_f16_u16_e64 v5, s1 noclamp", None),
    ("gfx906", "v_fmac_f32_dpp v5, v1, v2 row_mirror row_mask:0x0 bank_mask:0x0", None),
    ("gfx942", "global_load_dword v2, v[2:3], off nosc0", None),
]


def _ids(case):
    return f"{case[0]}: {case[1]}"


@pytest.mark.parametrize("case", CASES, ids=[_ids(case) for case in CASES])
def test_the_linter_refuses_what_llvm_mc_refuses_in_its_words(snippet, case):
    target, line, error = case
    result = snippet.lint(f"k:\n  {line}\n  s_endpgm\n", mcpu=target)
    found = [d.message for d in result.diagnostics if d.line == 2 and d.name in PARSE_LEVEL
             and str(d.severity) in ("error", "Severity.ERROR")]
    if error is None:
        assert found == []
    else:
        assert len(found) == 1 and (error in found[0] or error.startswith("comma or")), found


@pytest.mark.skipif(LLVM_MC is None, reason="llvm-mc-22 is not installed")
@pytest.mark.parametrize("case", CASES, ids=[_ids(case) for case in CASES])
def test_the_cases_are_what_llvm_mc_22_says(tmp_path, case):
    target, line, error = case
    assert_llvm_mc_verdict(tmp_path, target, line, error)


def test_a_symbol_defined_with_a_field_name_is_read_as_the_name(snippet):
    # llvm-mc reads MSG_GS inside sendmsg(...) as the message, whatever a symbol of that name holds
    result = snippet.lint("MSG_GS=-1\nGS_OP_EMIT=-1\nk:\n  s_sendmsghalt sendmsg(MSG_GS, GS_OP_EMIT, 1)\n  s_endpgm\n",
                          mcpu="gfx803")
    assert [d.message for d in result.diagnostics if d.line == 4] == []


def test_a_symbol_defined_before_the_line_is_a_number_there(snippet):
    result = snippet.lint(".set n, 3\n.set id, 1\nk:\n  s_waitcnt vmcnt(n)\n  s_getreg_b32 s1, hwreg(id, n, 4)\n"
                          "  ds_swizzle_b32 v5, v1 offset:swizzle(SWAP,n+1)\n  s_endpgm\n", mcpu="gfx900")
    assert [d.message for d in result.diagnostics if d.name == "unknown-instruction"] == []


def test_floating_point_arithmetic_over_a_symbol_stays_an_expression(snippet):
    result = snippet.lint("t=10000000000\nk:\n  s_sub_u32 s0, s0, 1.0 + t\n  s_endpgm\n", mcpu="gfx803")
    assert [d.message for d in result.diagnostics if d.line == 3] == [
        "'s_sub_u32': invalid operand for instruction (gfx803, as llvm-mc 22 says)"]


def test_gfx802s_top_sgprs_are_a_warning_and_beyond_them_an_error(snippet):
    result = snippet.lint("k:\n  s_mov_b32 s101, 0\n  s_endpgm\n", mcpu="gfx802")
    [finding] = [d for d in result.diagnostics if d.name == "register-budget"]
    assert str(finding.severity).endswith("warning") and "VCC, FLAT_SCRATCH or XNACK_MASK" in finding.message
    result = snippet.lint("k:\n  s_mov_b32 s102, 0\n  s_endpgm\n", mcpu="gfx802")
    assert [str(d.severity).split(".")[-1].lower() for d in result.diagnostics if d.name == "register-budget"] == [
        "error"]


def test_a_warning_directive_is_a_warning(snippet):
    result = snippet.lint('.warning "check this"\n.error "stop"\nk:\n  s_endpgm\n', mcpu="gfx900")
    found = {d.line: (str(d.severity).split(".")[-1].lower(), d.message) for d in result.diagnostics
             if d.name == "parse-error"}
    assert found == {1: ("warning", ".warning: check this"), 2: ("error", ".error: stop")}
