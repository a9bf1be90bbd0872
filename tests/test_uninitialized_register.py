"""uninitialized-register on LLVM's output (quiet where the garbage goes nowhere) and on the
hand-written kernels that read garbage for real (still reported)."""

import pytest
from conftest import names
from llvm_oracle import compile_ir

RULE = "uninitialized-register"


def findings(result) -> list[str]:
    return [d.message for d in result.diagnostics if d.name == RULE]


def kernel(target: str, body: str, descriptor: str = "", vgprs: int = 16, sgprs: int = 24) -> str:
    accum = "  .amdhsa_accum_offset 16\n" if target in ("gfx90a", "gfx942") else ""
    return (f'.amdgcn_target "amdgcn-amd-amdhsa--{target}"\n.text\nk:\n{body}\n.rodata\n.p2align 6\n'
            f".amdhsa_kernel k\n  .amdhsa_next_free_vgpr {vgprs}\n  .amdhsa_next_free_sgpr {sgprs}\n{accum}"
            f"{descriptor}.end_amdhsa_kernel\n")


# ---------------------------------------------------------------- 17a: LLVM's flat-scratch setup

FLAT_STORE = """
define amdgpu_kernel void @k(ptr %p, i32 %x) {
  store i32 %x, ptr %p
  ret void
}
"""


@pytest.mark.parametrize("target", ["gfx701", "gfx803", "gfx900", "gfx1030"])
def test_flat_scratch_setup_reads_the_absent_wave_offset_harmlessly(snippet, target):
    # no scratch, so no wave offset SGPR; LLVM still adds the SGPR where it would be (s17) into flat_scratch
    assembly = compile_ir(FLAT_STORE, target)
    assert "s17" in assembly and "private_segment_wavefront_offset 0" in assembly
    assert findings(snippet.lint(assembly)) == []


FLAT_SCRATCH_INIT = """  .amdhsa_user_sgpr_private_segment_buffer 1
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_user_sgpr_flat_scratch_init 1
  .amdhsa_system_sgpr_workgroup_id_x 1
"""


def test_the_wave_offset_slot_is_still_garbage_elsewhere(snippet):
    # s[0:3] buffer, s[4:5] kernarg, s[6:7] flat-scratch init, s8 work-group ID: s9 is where the offset would be
    setup = " s_add_u32 flat_scratch_lo, s6, s9\n s_addc_u32 flat_scratch_hi, s7, 0\n"
    assert findings(snippet.lint(kernel("gfx900", setup + " s_endpgm", FLAT_SCRATCH_INIT))) == []
    other_use = setup + " s_add_u32 s10, s9, 4\n s_endpgm"
    assert findings(snippet.lint(kernel("gfx900", other_use, FLAT_SCRATCH_INIT))) == [
        "s9 is read by s_add_u32 but never written on any path from the kernel entry"]
    # with scratch the offset is needed: forgetting to enable it is a bug
    with_scratch = FLAT_SCRATCH_INIT + "  .amdhsa_private_segment_fixed_size 16\n"
    assert len(findings(snippet.lint(kernel("gfx900", setup + " s_endpgm", with_scratch)))) == 1


# ---------------------------------------------------------------- 17b: v_mad_u64_u32's addend high half

TRUNCATED_MAD = """
define amdgpu_kernel void @k(ptr addrspace(1) %p, i32 %a) {
  %x = call i32 @llvm.amdgcn.workitem.id.x()
  %y = call i32 @llvm.amdgcn.workitem.id.y()
  %x64 = zext i32 %x to i64
  %a64 = zext i32 %a to i64
  %y64 = zext i32 %y to i64
  %m = mul i64 %x64, %a64
  %s = add i64 %m, %y64
  %low = trunc i64 %s to i32
  store i32 %low, ptr addrspace(1) %p
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workitem.id.y()
"""


@pytest.mark.parametrize("target", ["gfx1100", "gfx1200"])
def test_undefined_addend_high_half_of_a_truncated_mad(snippet, target):
    assembly = compile_ir(TRUNCATED_MAD, target)
    assert "_u64_u32 v[" in assembly  # LLVM leaves the addend's high half (the next VGPR) unwritten
    assert findings(snippet.lint(assembly)) == []


def test_mad_result_high_half_is_garbage_where_used(snippet):
    mad = " v_mad_u64_u32 v[2:3], null, v0, s2, v[1:2]\n"
    store = " v_mov_b32 v4, 0\n global_store_b64 v4, v[2:3], s[0:1]\n s_endpgm"
    descriptor = "  .amdhsa_user_sgpr_kernarg_segment_ptr 1\n  .amdhsa_user_sgpr_count 3\n"
    text = " v_mov_b32 v1, v0\n" + mad + store
    assert findings(snippet.lint(kernel("gfx1100", text, descriptor))) == [
        "v3 is read by global_store_b64 but never written on any path from the kernel entry "
        "(v3 holds a value derived from such a register)"]
    low_garbage = mad.replace("v[1:2]", "v[5:6]") + store.replace("v[2:3]", "v2")
    assert findings(snippet.lint(kernel("gfx1100", low_garbage, descriptor))) == [
        "v5 is read by v_mad_u64_u32 but never written on any path from the kernel entry"]


# ---------------------------------------------------------------- 17c: messages that do not read M0

TRAP = """
define amdgpu_kernel void @k(ptr addrspace(1) %p) {
  store volatile i32 1, ptr addrspace(1) %p
  call void @llvm.trap()
  unreachable
}
declare void @llvm.trap()
"""


def test_gfx11_trap_sequence_saves_m0_without_reading_it(snippet):
    # LLVM saves M0 to ttmp2, asks for the doorbell (s_sendmsg_rtn, no M0), sets M0, interrupts, restores it
    assembly = compile_ir(TRAP, "gfx1100")
    assert "s_mov_b32 ttmp2, m0" in assembly and "s_sendmsg_rtn_b32" in assembly
    assert findings(snippet.lint(assembly)) == []


def test_message_with_data_in_unwritten_m0(snippet):
    descriptor = "  .amdhsa_user_sgpr_kernarg_segment_ptr 1\n  .amdhsa_user_sgpr_count 2\n"
    dealloc = " s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)\n s_endpgm"
    assert findings(snippet.lint(kernel("gfx1100", dealloc, descriptor))) == []
    restored = " s_mov_b32 ttmp2, m0\n s_mov_b32 m0, ttmp2\n s_sendmsg sendmsg(MSG_INTERRUPT)\n s_endpgm"
    assert findings(snippet.lint(kernel("gfx1100", restored, descriptor))) == [
        "m0 is read by s_sendmsg but never written on any path from the kernel entry "
        "(m0 holds a value derived from such a register)"]


# ---------------------------------------------------------------- 17d: unreachable code

def test_only_code_reachable_from_the_entry_is_judged(snippet):
    descriptor = "  .amdhsa_user_sgpr_kernarg_segment_ptr 1\n"
    body = """ s_cmp_eq_u32 s2, 0
 s_cbranch_scc0 .Lnear
 s_getpc_b64 s[4:5]
.Lpost_getpc0:
 s_add_u32 s4, s4, (.Lfar-.Lpost_getpc0)&4294967295
 s_addc_u32 s5, s5, (.Lfar-.Lpost_getpc0)>>32
 s_setpc_b64 s[4:5]
.Lnear:
 v_add_u32 v1, v0, v7
 s_endpgm
 v_add_u32 v1, v0, v8
.Lfar:
 v_add_u32 v1, v0, v9
 s_branch .Lend
 v_add_u32 v1, v0, v10
.Lend:
 s_endpgm"""
    # v8 and v10 sit after s_endpgm and s_branch; .Lfar is reached only through LLVM's long-branch s_setpc
    assert [message.split()[0] for message in findings(snippet.lint(kernel("gfx900", body, descriptor)))] == ["v7", "v9"]


# ---------------------------------------------------------------- 17e: graphics shaders

def test_graphics_shader_inputs_are_not_judged(snippet):
    import llvmlite.binding as llvm

    shader = """
    define amdgpu_ps float @ps(i32 inreg %a, float %b, float %c) {
      %x = bitcast i32 %a to float
      %y = fadd float %x, %b
      %z = fmul float %y, %c
      ret float %z
    }
    """
    machine = llvm.Target.from_triple("amdgcn-amd-amdpal").create_target_machine(cpu="gfx1030")
    assembly = machine.emit_assembly(llvm.parse_assembly(shader))
    assert "v_add_f32_e32 v0, s0, v0" in assembly  # s0, v0 and v1 are the hardware's inputs
    assert findings(snippet.lint(assembly)) == []
    # the same reads in a compute kernel that enables none of them are garbage
    compute = kernel("gfx1030", " v_add_f32_e32 v0, s1, v1\n s_endpgm", "  .amdhsa_user_sgpr_count 0\n")
    assert [message.split(" are ")[0] for message in findings(snippet.lint(compute))] == ["s1, v1"]  # s0: group ID


# ---------------------------------------------------------------- 17f: callable functions, saved registers

SAVED_AROUND_A_CALL = """
define amdgpu_kernel void @k(ptr addrspace(1) %p) {
  %s = call i32 asm sideeffect "; def $0", "={s40}"()
  %v = call i32 asm sideeffect "; def $0", "={v32}"()
  call void @external()
  call void asm sideeffect "; use $0 $1", "s,v"(i32 %s, i32 %v)
  ret void
}
define void @f(i32 %a, ptr addrspace(1) %p) {
  call void @external()
  store i32 %a, ptr addrspace(1) %p
  ret void
}
declare void @external()
"""


def test_registers_saved_around_a_call_and_function_inputs(snippet):
    # the kernel copies what the (empty) inline asm "defines" into callee-saved registers and back:
    # garbage copied to where it is never used; the function reads its arguments and s30:31, s32
    assembly = compile_ir(SAVED_AROUND_A_CALL, "gfx900")
    assert "s_mov_b32 s33, s40" in assembly and "v_mov_b32_e32 v40, v32" in assembly
    assert findings(snippet.lint(assembly)) == []


def test_garbage_from_an_empty_inline_asm_used_for_real(snippet):
    used = """
    define amdgpu_kernel void @k(ptr addrspace(1) %p) {
      %v = call i32 asm sideeffect "; def $0", "={v20}"()
      %w = add i32 %v, 7
      store i32 %w, ptr addrspace(1) %p
      ret void
    }
    """
    result = snippet.lint(compile_ir(used, "gfx900"))
    assert names(result) == [RULE] and " is read by v_add" in findings(result)[0]


READ_LANE = """
define amdgpu_kernel void @k(ptr addrspace(1) %out) {
  %v = call i32 asm sideeffect "; def $0", "={v1}"()
  %r = call i32 @llvm.amdgcn.readlane.i32(i32 %v, i32 32)
  USE
  ret void
}
declare i32 @llvm.amdgcn.readlane.i32(i32, i32)
"""


def test_lane_moves_and_spills_carry_garbage_to_its_use(snippet):
    # v_readlane copies a lane out, v_writelane one in (LLVM's SGPR spills): garbage that only moves is not used
    quiet = READ_LANE.replace("USE", 'call void asm sideeffect "; use $0", "s"(i32 %r)')
    assert findings(snippet.lint(compile_ir(quiet, "gfx90a"))) == []
    stored = READ_LANE.replace("USE", "store i32 %r, ptr addrspace(1) %out")
    assert [message.split(" is read by ")[1].split()[0] for message in findings(snippet.lint(compile_ir(stored, "gfx90a")))] \
        == ["global_store_dword"]
    spill = " v_writelane_b32 v1, s20, 0\n v_readlane_b32 s20, v1, 0\n{}\n s_endpgm"
    descriptor = "  .amdhsa_user_sgpr_kernarg_segment_ptr 1\n"
    assert findings(snippet.lint(kernel("gfx900", spill.format(""), descriptor))) == []
    assert findings(snippet.lint(kernel("gfx900", spill.format(" s_add_u32 s0, s20, 1"), descriptor))) == [
        "s20 is read by s_add_u32 but never written on any path from the kernel entry "
        "(s20 holds a value derived from such a register)"]
    # a lane written with garbage leaves the rest of a written VGPR as it was
    assert findings(snippet.lint(kernel("gfx900", " v_mov_b32 v1, 0\n v_writelane_b32 v1, s20, 0\n"
                                        " v_add_u32 v2, v1, v0\n s_endpgm", descriptor))) == []


def test_dual_issue_moves_copy(snippet):
    descriptor = "  .amdhsa_user_sgpr_kernarg_segment_ptr 1\n  .amdhsa_user_sgpr_count 2\n"
    body = " v_dual_mov_b32 v2, v5 :: v_dual_mov_b32 v3, 0\n v_mov_b32 v4, 0\n global_store_b64 v4, v[2:3], s[0:1]\n s_endpgm"
    assert findings(snippet.lint(kernel("gfx1100", body, descriptor))) == [
        "v2 is read by global_store_b64 but never written on any path from the kernel entry "
        "(v2 holds a value derived from such a register)"]


# ---------------------------------------------------------------- wider LLVM corpus

SCRATCH_BUFFER = """  .amdhsa_user_sgpr_private_segment_buffer 1
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_system_sgpr_workgroup_id_x 1
"""


def test_private_segment_buffer_setup_reads_the_absent_wave_offset_harmlessly(snippet):
    # LLVM on gfx6: s[0:3] buffer, s[4:5] kernarg, s6 work-group ID, s7 where the offset would be
    setup = " s_mov_b64 s[96:97], s[0:1]\n s_add_u32 s96, s96, s7\n s_addc_u32 s97, s97, 0\n"
    assert findings(snippet.lint(kernel("gfx600", setup + " s_endpgm", SCRATCH_BUFFER, sgprs=100))) == []
    # the slot copied somewhere else is read for real
    other = setup + " s_add_u32 s10, s6, s7\n s_endpgm"
    assert findings(snippet.lint(kernel("gfx600", other, SCRATCH_BUFFER, sgprs=100))) == [
        "s7 is read by s_add_u32 but never written on any path from the kernel entry"]


def test_bit_field_of_the_low_dword_reads_no_high_half(snippet):
    # LLVM's 16-bit sign extension on gfx8: s_bfe_i64 s[58:59], s[58:59], 0x100000 with s59 undefined
    body = " s_mov_b32 s8, 7\n s_bfe_i64 s[8:9], s[8:9], 0x100000\n s_endpgm"
    assert findings(snippet.lint(kernel("gfx803", body))) == []
    wide = body.replace("0x100000", "0x200010")  # offset 16, width 32: reaches the high dword
    assert findings(snippet.lint(kernel("gfx803", wide))) == [
        "s9 is read by s_bfe_i64 but never written on any path from the kernel entry"]


def test_lane_permutes_do_not_read_m0_on_gfx8(snippet):
    # LLVM's ds_bpermute on fiji: no M0 set up (no LDS is accessed, so no LDS bound is needed)
    body = " v_mov_b32 v0, 0\n ds_bpermute_b32 v1, v0, v0\n s_endpgm"
    assert findings(snippet.lint(kernel("gfx803", body))) == []
    assert findings(snippet.lint(kernel("gfx803", body.replace("ds_bpermute_b32 v1, v0, v0", "ds_read_b32 v1, v0")))) == [
        "m0 is read by ds_read_b32 but never written on any path from the kernel entry"]


# ---------------------------------------------------------------- register bits: a new numbering when full

def test_a_new_register_numbering_gives_the_same_findings(snippet, monkeypatch):
    # kernels after the numbering is renewed (masks kept on shared facts made again) find what the first did
    from amdgpu_lint.analyses import initialized

    body = " v_mov_b32 v1, v7\n v_add_u32 v2, v1, s40\n s_mov_b64 s[2:3], s[30:31]\n s_endpgm"
    expected = findings(snippet.lint(kernel("gfx900", body, FLAT_SCRATCH_INIT)))
    assert len(expected) == 1 and "v1 holds a value derived" in expected[0]
    monkeypatch.setattr(initialized._BITS, "LIMIT", 1)
    generation = initialized._BITS.generation
    for _ in range(3):
        assert findings(snippet.lint(kernel("gfx900", body, FLAT_SCRATCH_INIT))) == expected
    assert initialized._BITS.generation > generation


# ---------------------------------------------------------------- issue 30: Triton's packed f32 and spills

def test_packed_f32_reads_only_the_halves_op_sel_picks(snippet):
    # v3 is never written: op_sel_hi:0 on the first source makes both lanes read v2 (llvm-mc 22 gfx942)
    written = "  v_mov_b32 v2, 1.0\n  v_mov_b32 v4, 2.0\n  v_mov_b32 v5, 3.0\n"
    assert findings(snippet.lint(kernel("gfx942", written + "  v_pk_mul_f32 v[6:7], v[2:3], v[4:5] op_sel_hi:[0,1]\n"
                                        "  s_endpgm"))) == []
    assert findings(snippet.lint(kernel("gfx942", written + "  v_pk_fma_f32 v[6:7], v[4:5], v[2:3], v[4:5] op_sel_hi:[1,0,1]\n"
                                        "  s_endpgm"))) == []
    (both_halves,) = findings(snippet.lint(kernel("gfx942", written + "  v_pk_mul_f32 v[6:7], v[2:3], v[4:5]\n  s_endpgm")))
    assert both_halves.startswith("v3 is read by v_pk_mul_f32")
    (high_half,) = findings(snippet.lint(kernel("gfx942", written + "  v_pk_add_f32 v[6:7], v[2:3], v[4:5] op_sel:[1,0]\n"
                                         "  s_endpgm")))  # op_sel:1, op_sel_hi:1 by default: v3 for both lanes
    assert high_half.startswith("v3 is read by v_pk_add_f32")


def test_a_spilled_pair_with_a_half_never_written(snippet):
    # LLVM spills and reloads whole tuples; the reload's garbage half then goes nowhere (op_sel_hi:0)
    body = ("  v_mov_b32 v2, 1.0\n  v_mov_b32 v4, 2.0\n  v_mov_b32 v5, 3.0\n"
            "  scratch_store_dwordx2 off, v[2:3], off offset:8 ; 8-byte Folded Spill\n"
            "  v_mov_b32 v2, 0\n"
            "  scratch_load_dwordx2 v[2:3], off, off offset:8 ; 8-byte Folded Reload\n"
            "  s_waitcnt vmcnt(0)\n"
            "  v_pk_mul_f32 v[6:7], v[2:3], v[4:5] op_sel_hi:[0,1]\n  s_endpgm")
    assert findings(snippet.lint(kernel("gfx942", body))) == []
    # a global store of the same pair writes the garbage where someone reads it
    (real,) = findings(snippet.lint(kernel("gfx942", body.replace("scratch_store_dwordx2 off, v[2:3], off offset:8",
                                                                 "global_store_dwordx2 v[4:5], v[2:3], off"))))
    assert real.startswith("v3 is read by global_store_dwordx2")
