"""Bits never written (issue 37 item 4): writes tracked per 16-bit half and per byte where an instruction writes
only some bytes of a VGPR and keeps the others (d16 loads, fp8 packing and rounding, SDWA dst_sel with
UNUSED_PRESERVE, true16 halves). A known-width read of bytes no path wrote is an uninitialized-register finding at
the read, with a note at the partial write; the fixed kernel is quiet; a write or read of unknown width counts as
whole, and LLVM's output stays clean."""

import pytest
from llvm_oracle import compile_ir

RULE = "uninitialized-register"
DESCRIPTOR = "  .amdhsa_user_sgpr_kernarg_segment_ptr 1\n"


def kernel(target: str, body: str) -> str:
    accum = "  .amdhsa_accum_offset 32\n" if target in ("gfx90a", "gfx942", "gfx950") else ""
    return (f'.amdgcn_target "amdgcn-amd-amdhsa--{target}"\n.text\nk:\n{body}\n s_endpgm\n.rodata\n.p2align 6\n'
            f".amdhsa_kernel k\n  .amdhsa_next_free_vgpr 32\n  .amdhsa_next_free_sgpr 24\n{accum}{DESCRIPTOR}"
            ".end_amdhsa_kernel\n")


def found(snippet, text: str):
    return [d for d in snippet.lint(text).diagnostics if d.name == RULE]


# four floats loaded into v[2:5]; v1 the byte offset, s[0:1] the kernel arguments' address
LOAD = " v_lshlrev_b32 v1, 4, v0\n global_load_dwordx4 v[2:5], v1, s[0:1]\n s_waitcnt vmcnt(0)\n"
FP8_BUG = LOAD + (" v_cvt_pk_fp8_f32 v6, v2, v3\n"                  # bits 15:0: the first pair
                  " v_cvt_pk_fp8_f32 v7, v4, v5\n"                  # the second pair into another register
                  " v_cvt_pk_fp8_f32 v7, v2, v5 op_sel:[0,0,1]\n"
                  " s_nop 1\n"
                  " v_mfma_f32_16x16x32_fp8_fp8 v[8:11], v[6:7], v[6:7], 0\n"
                  " s_nop 7\n s_nop 2\n global_store_dwordx4 v1, v[8:11], s[0:1]")


def test_fp8_pairs_packed_with_one_conversion_each_feed_a_whole_register(snippet):
    # a community FP8 kernel: two pairs meant for one register went to two, and v6's bits 31:16 stay garbage
    (bug,) = found(snippet, kernel("gfx942", FP8_BUG))
    assert bug.line == 11 and bug.message.startswith("v_mfma_f32_16x16x32_fp8_fp8 reads bits 31:0 of v6, but bits "
                                                     "31:16 are never written on any path from the kernel entry")
    assert "only bits 15:0 are written (v_cvt_pk_fp8_f32 at line 7 writes part of v6 and keeps the rest)" in bug.message
    assert [(note.line, note.message) for note in bug.notes] == [(7, "v_cvt_pk_fp8_f32 writes part of v6 here")]
    fixed = FP8_BUG.replace(" v_cvt_pk_fp8_f32 v7, v4, v5\n", " v_cvt_pk_fp8_f32 v6, v4, v5 op_sel:[0,0,1]\n"
                            " v_cvt_pk_fp8_f32 v7, v4, v5\n")
    assert found(snippet, kernel("gfx942", fixed)) == []


def test_d16_loads_write_one_half(snippet):
    body = (" v_lshlrev_b32 v1, 2, v0\n global_load_short_d16 v2, v1, s[0:1]\n s_waitcnt vmcnt(0)\n"
            " global_store_dword v1, v2, s[0:1]")
    (bug,) = found(snippet, kernel("gfx90a", body))
    assert bug.line == 7 and "bits 31:16 are never written" in bug.message and "global_load_short_d16 at line 5" in bug.message
    both = body.replace(" s_waitcnt", " global_load_short_d16_hi v2, v1, s[0:1] offset:2\n s_waitcnt")
    assert found(snippet, kernel("gfx90a", both)) == []
    assert found(snippet, kernel("gfx90a", body.replace("global_store_dword", "global_store_short"))) == []
    (high,) = found(snippet, kernel("gfx90a", body.replace("global_store_dword", "global_store_short_d16_hi")))
    assert high.message.startswith("bits 31:16 of v2 are read by global_store_short_d16_hi but never written")
    # gfx11 spelling, high half only: a 16-bit store of the low half reads bits never written
    gfx11 = (" v_lshlrev_b32 v1, 2, v0\n global_load_d16_hi_b16 v2, v1, s[0:1]\n s_waitcnt vmcnt(0)\n"
             " global_store_b16 v1, v2, s[0:1]")
    (low,) = found(snippet, kernel("gfx1100", gfx11))
    assert low.message.startswith("bits 15:0 of v2 are read by global_store_b16 but never written")


def test_sdwa_destination_selection_with_unused_preserve(snippet):
    body = (" v_lshlrev_b32 v1, 2, v0\n global_load_dword v2, v1, s[0:1]\n s_waitcnt vmcnt(0)\n"
            " v_mov_b32_sdwa v3, v2 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_0\n"
            " global_store_dword v1, v3, s[0:1]")
    (bug,) = found(snippet, kernel("gfx908", body))
    assert bug.line == 8 and "bits 15:0 are never written" in bug.message
    assert found(snippet, kernel("gfx908", body.replace("UNUSED_PRESERVE", "UNUSED_PAD"))) == []
    (byte,) = found(snippet, kernel("gfx908", body.replace("dst_sel:WORD_1", "dst_sel:BYTE_2")))
    assert "bits 15:0 and 31:24 are never written" in byte.message and "only bits 23:16 are written" in byte.message


def test_true16_halves(snippet):
    body = (" v_lshlrev_b32 v1, 2, v0\n global_load_b32 v1, v1, s[0:1]\n s_waitcnt vmcnt(0)\n"
            " v_add_f16 v2.h, v1.l, v1.h\n v_add_f16 v3.l, v2.l, v1.l\n v_mov_b16 v3.h, 0\n"
            " global_store_b32 v0, v3, s[0:1]")
    (bug,) = found(snippet, kernel("gfx1100", body))
    assert bug.line == 8 and bug.message.startswith("bits 15:0 of v2 are read by v_add_f16 but never written")
    assert found(snippet, kernel("gfx1100", body.replace("v_add_f16 v3.l, v2.l", "v_add_f16 v3.l, v2.h"))) == []


def test_fp8_rounding_writes_one_byte(snippet):
    body = LOAD + (" v_cvt_sr_fp8_f32 v6, v2, v3 op_sel:[0,0,1,1]\n s_nop 0\n"
                   " global_store_byte_d16_hi v1, v6, s[0:1]")
    (bug,) = found(snippet, kernel("gfx942", body))
    assert bug.message.startswith("bits 23:16 of v6 are read by global_store_byte_d16_hi but never written")
    assert "only bits 31:24 are written" in bug.message
    fixed = body.replace("op_sel:[0,0,1,1]", "op_sel:[0,0,0,1]")  # byte 2: the one the store reads
    assert found(snippet, kernel("gfx942", fixed)) == []
    gfx12 = (" v_lshlrev_b32 v1, 4, v0\n global_load_b128 v[2:5], v1, s[0:1]\n s_wait_loadcnt 0x0\n"
             + "".join(f" v_cvt_sr_fp8_f32 v6, v{2 + byte}, v3 byte_sel:{byte}\n" for byte in range(3))
             + " global_store_b32 v1, v6, s[0:1]")
    (missing,) = found(snippet, kernel("gfx1200", gfx12))
    assert "bits 31:24 are never written" in missing.message and "only bits 23:0 are written" in missing.message
    assert found(snippet, kernel("gfx1200", gfx12.replace(" global_store_b32", " v_cvt_sr_fp8_f32 v6, v5, v3 "
                                                          "byte_sel:3\n global_store_b32"))) == []


def test_widths_not_known_count_as_whole(snippet):
    # a 16-bit VALU result on gfx10 (which keeps the high half, but that is not modelled): a whole write
    body = (" v_lshlrev_b32 v1, 2, v0\n global_load_dword v2, v1, s[0:1]\n s_waitcnt vmcnt(0)\n"
            " v_add_f16 v3, v2, v2\n global_store_dword v1, v3, s[0:1]")
    assert found(snippet, kernel("gfx1030", body)) == []
    # a 32-bit VALU read of a half-written register (a mask, a permute): a read of written bits
    d16 = (" v_lshlrev_b32 v1, 2, v0\n global_load_short_d16 v2, v1, s[0:1]\n s_waitcnt vmcnt(0)\n"
           " v_and_b32 v3, 0xffff, v2\n v_perm_b32 v4, v2, v2, 0x05040100\n global_store_dwordx2 v1, v[3:4], s[0:1]")
    assert found(snippet, kernel("gfx90a", d16)) == []
    # a copy carries the half-written register to where it is stored
    copied = d16.replace(" v_and_b32 v3, 0xffff, v2\n", " v_mov_b32 v3, v2\n")
    (carried,) = found(snippet, kernel("gfx90a", copied))
    assert "of v3, but bits 31:16 are never written" in carried.message and "at line 5" in carried.message


def test_a_path_that_writes_the_whole_register_is_enough(snippet):
    body = (" v_lshlrev_b32 v1, 2, v0\n s_cmp_eq_u32 s2, 0\n s_cbranch_scc1 .Lhalf\n v_mov_b32 v2, 0\n"
            ".Lhalf:\n global_load_short_d16 v2, v1, s[0:1]\n s_waitcnt vmcnt(0)\n global_store_dword v1, v2, s[0:1]")
    text = kernel("gfx90a", body).replace(DESCRIPTOR, DESCRIPTOR + "  .amdhsa_user_sgpr_count 3\n")
    assert found(snippet, text) == []
    (bug,) = found(snippet, text.replace(" v_mov_b32 v2, 0\n", " v_mov_b32 v3, 0\n"))
    assert "bits 31:16 are never written" in bug.message


# Half fresh, half stale: a loop whose conversion fills bits 15:0 of v6 each trip while v6 is reused whole
# after the read (the next trip's address); s4 counts the trips
FP8_LOOP = (" v_lshlrev_b32 v1, 4, v0\n s_mov_b32 s4, 8\n"
            ".Lloop:\n"
            " global_load_dwordx4 v[2:5], v1, s[0:1]\n s_waitcnt vmcnt(0)\n"
            " v_cvt_pk_fp8_f32 v6, v2, v3\n"                   # line 9: bits 15:0, this trip
            " v_cvt_pk_fp8_f32 v7, v4, v5\n v_cvt_pk_fp8_f32 v7, v2, v5 op_sel:[0,0,1]\n s_nop 1\n"
            " v_mfma_f32_16x16x32_fp8_fp8 v[8:11], v[6:7], v[6:7], 0\n"  # line 13
            " s_nop 7\n s_nop 2\n global_store_dwordx4 v1, v[8:11], s[0:1]\n"
            " v_add_u32 v6, 64, v1\n"                           # line 17: v6 reused whole
            " v_mov_b32 v1, v6\n s_sub_u32 s4, s4, 1\n s_cmp_lg_u32 s4, 0\n s_cbranch_scc1 .Lloop")


def test_half_fresh_half_stale_in_a_loop(snippet):
    (bug,) = found(snippet, kernel("gfx942", FP8_LOOP))
    assert bug.severity.name == "WARNING" and bug.line == 13
    assert bug.message.startswith("v_mfma_f32_16x16x32_fp8_fp8 reads bits 31:0 of v6 half fresh, half stale: bits 15:0 "
                                  "from v_cvt_pk_fp8_f32 at line 9 (which writes part of v6 and keeps the rest), bits "
                                  "31:16 only from v_add_u32 at line 17, after this read around a loop")
    assert [note.line for note in bug.notes] == [9, 17]
    assert "bits 31:16 reach the read only on the next trip" in bug.notes[1].message
    # fixed: both halves converted each trip
    both = FP8_LOOP.replace(" v_cvt_pk_fp8_f32 v7, v4, v5\n", " v_cvt_pk_fp8_f32 v6, v4, v5 op_sel:[0,0,1]\n"
                            " v_cvt_pk_fp8_f32 v7, v4, v5\n")
    assert found(snippet, kernel("gfx942", both)) == []
    # fixed: the register zeroed each trip before the conversion (a deliberate pad)
    zeroed = FP8_LOOP.replace(" v_cvt_pk_fp8_f32 v6, v2, v3\n", " v_mov_b32 v6, 0\n v_cvt_pk_fp8_f32 v6, v2, v3\n")
    assert found(snippet, kernel("gfx942", zeroed)) == []
    # a write before the loop reaches the first trip: quiet (a prologue may set what later trips get from the
    # end of the trip before; which one is meant is not known)
    padded = FP8_LOOP.replace(" s_mov_b32 s4, 8\n", " s_mov_b32 s4, 8\n v_mov_b32 v6, 0\n")
    assert found(snippet, kernel("gfx942", padded)) == []
    # LLVM's output is not judged, as for bytes never written
    llvm = kernel("gfx942", FP8_LOOP) + ".Lfunc_end0:\n"
    assert found(snippet, llvm) == []


def test_straight_line_pad_then_partial_write_is_quiet(snippet):
    # the pad and the conversion in the same trip, v6 reused after the read
    body = FP8_LOOP.replace(" v_cvt_pk_fp8_f32 v6, v2, v3\n", " v_mov_b32 v6, 0\n s_nop 0\n v_cvt_pk_fp8_f32 v6, v2, v3\n")
    assert found(snippet, kernel("gfx942", body)) == []
    # no loop at all: the pad, then the conversion of the low half
    straight = LOAD + (" v_mov_b32 v6, 0\n v_cvt_pk_fp8_f32 v6, v2, v3\n v_cvt_pk_fp8_f32 v7, v4, v5\n"
                       " v_cvt_pk_fp8_f32 v7, v2, v5 op_sel:[0,0,1]\n s_nop 1\n"
                       " v_mfma_f32_16x16x32_fp8_fp8 v[8:11], v[6:7], v[6:7], 0\n"
                       " s_nop 7\n s_nop 2\n global_store_dwordx4 v1, v[8:11], s[0:1]")
    assert found(snippet, kernel("gfx942", straight)) == []


D16_LOOP = (" v_lshlrev_b32 v1, 2, v0\n s_mov_b32 s4, 8\n"
            ".Lloop:\n"
            " global_load_short_d16 v2, v1, s[0:1]\n"              # line 7: the low half
            " global_load_short_d16_hi v2, v1, s[0:1] offset:2\n"  # the high half
            " s_waitcnt vmcnt(0)\n"
            " global_store_dword v1, v2, s[0:1]\n"                 # line 10
            " v_add_u32 v2, 4, v1\n v_mov_b32 v1, v2\n"             # line 11: v2 reused
            " s_sub_u32 s4, s4, 1\n s_cmp_lg_u32 s4, 0\n s_cbranch_scc1 .Lloop")


def test_d16_halves_merged_in_a_loop(snippet):
    # lo and hi d16 loads in the same trip, then the register whole: an intended merge
    assert found(snippet, kernel("gfx90a", D16_LOOP)) == []
    # LLVM's merge shape: a d16_hi load into a register loaded whole in the same trip
    whole = D16_LOOP.replace("global_load_short_d16 v2,", "global_load_dword v2,")
    assert found(snippet, kernel("gfx90a", whole)) == []
    # the high half dropped: it holds what v_add_u32 left in the trip before
    (bug,) = found(snippet, kernel("gfx90a", D16_LOOP.replace(" global_load_short_d16_hi v2, v1, s[0:1] offset:2\n", "")))
    assert bug.line == 9 and "bits 15:0 from global_load_short_d16 at line 7" in bug.message
    assert "bits 31:16 only from v_add_u32 at line 10" in bug.message


def test_halves_filled_on_alternate_trips_are_quiet(snippet):
    # one trip converts the low half, the next the high half and reads the whole: the branch decides which
    # trip comes first, and a trip that writes the low half may run before the read's first execution
    body = (" v_lshlrev_b32 v1, 4, v0\n s_mov_b32 s4, 8\n"
            ".Lloop:\n"
            " global_load_dwordx4 v[2:5], v1, s[0:1]\n s_waitcnt vmcnt(0)\n"
            " s_bitcmp1_b32 s4, 0\n s_cbranch_scc1 .Lodd\n"
            " v_cvt_pk_fp8_f32 v6, v2, v3\n s_branch .Lnext\n"
            ".Lodd:\n"
            " v_cvt_pk_fp8_f32 v6, v4, v5 op_sel:[0,0,1]\n s_nop 0\n global_store_dword v1, v6, s[0:1]\n"
            ".Lnext:\n"
            " s_sub_u32 s4, s4, 1\n s_cmp_lg_u32 s4, 0\n s_cbranch_scc1 .Lloop")
    assert found(snippet, kernel("gfx942", body)) == []


HALVES_IR = """
declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @pack(ptr addrspace(1) %p, ptr addrspace(1) %q) {
  %i = call i32 @llvm.amdgcn.workitem.id.x()
  %a.p = getelementptr half, ptr addrspace(1) %p, i32 %i
  %b.p = getelementptr half, ptr addrspace(1) %a.p, i32 64
  %a = load half, ptr addrspace(1) %a.p
  %b = load half, ptr addrspace(1) %b.p
  %v0 = insertelement <2 x half> poison, half %a, i32 0
  %v1 = insertelement <2 x half> %v0, half %b, i32 1
  %r = fadd <2 x half> %v1, %v1
  %h = extractelement <2 x half> %r, i32 1
  %q.p = getelementptr <2 x half>, ptr addrspace(1) %q, i32 %i
  store <2 x half> %r, ptr addrspace(1) %q.p
  %q.h = getelementptr half, ptr addrspace(1) %q, i32 4096
  store half %h, ptr addrspace(1) %q.h
  ret void
}
define amdgpu_kernel void @poison_high(ptr addrspace(1) %p, ptr addrspace(1) %q) {
  %i = call i32 @llvm.amdgcn.workitem.id.x()
  %a.p = getelementptr half, ptr addrspace(1) %p, i32 %i
  %a = load half, ptr addrspace(1) %a.p
  %b.p = getelementptr half, ptr addrspace(1) %a.p, i32 64
  %b = load half, ptr addrspace(1) %b.p
  %v0 = insertelement <2 x half> poison, half %a, i32 0
  %v1 = insertelement <2 x half> poison, half %b, i32 1
  %q.p = getelementptr <2 x half>, ptr addrspace(1) %q, i32 %i
  store <2 x half> %v0, ptr addrspace(1) %q.p
  %q2 = getelementptr <2 x half>, ptr addrspace(1) %q.p, i32 64
  store <2 x half> %v1, ptr addrspace(1) %q2
  %q3 = getelementptr <2 x half>, ptr addrspace(1) %q.p, i32 128
  store <2 x half> %v0, ptr addrspace(1) %q3
  ret void
}
"""
FP8_IR = """
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.cvt.pk.fp8.f32(float, float, i32, i1)
declare i32 @llvm.amdgcn.cvt.sr.fp8.f32(float, i32, i32, i32)
define amdgpu_kernel void @fp8(ptr addrspace(1) %p, ptr addrspace(1) %q, i32 %seed) {
  %i = call i32 @llvm.amdgcn.workitem.id.x()
  %a.p = getelementptr <4 x float>, ptr addrspace(1) %p, i32 %i
  %v = load <4 x float>, ptr addrspace(1) %a.p
  %x = extractelement <4 x float> %v, i32 0
  %y = extractelement <4 x float> %v, i32 1
  %z = extractelement <4 x float> %v, i32 2
  %w = extractelement <4 x float> %v, i32 3
  %lo = call i32 @llvm.amdgcn.cvt.pk.fp8.f32(float %x, float %y, i32 poison, i1 false)
  %pk = call i32 @llvm.amdgcn.cvt.pk.fp8.f32(float %z, float %w, i32 %lo, i1 true)
  %b0 = call i32 @llvm.amdgcn.cvt.sr.fp8.f32(float %x, i32 %seed, i32 poison, i32 0)
  %b1 = call i32 @llvm.amdgcn.cvt.sr.fp8.f32(float %y, i32 %seed, i32 %b0, i32 1)
  %b2 = call i32 @llvm.amdgcn.cvt.sr.fp8.f32(float %z, i32 %seed, i32 %b1, i32 2)
  %b3 = call i32 @llvm.amdgcn.cvt.sr.fp8.f32(float %w, i32 %seed, i32 %b2, i32 3)
  %q.p = getelementptr <2 x i32>, ptr addrspace(1) %q, i32 %i
  store i32 %pk, ptr addrspace(1) %q.p
  %q.s = getelementptr i32, ptr addrspace(1) %q.p, i32 1
  store i32 %b3, ptr addrspace(1) %q.s
  ret void
}
"""


@pytest.mark.parametrize(("target", "features", "forms"), [
    ("gfx900", "", ("global_load_short_d16_hi",)),
    ("gfx906", "-sramecc", ("global_load_short_d16",)),
    ("gfx1100", "+real-true16", ("global_load_d16_hi_b16", ".h")),
    ("gfx1200", "+real-true16", ("global_load_d16_b16",)),
])
def test_llvm_partial_writes_stay_clean(snippet, target, features, forms):
    assembly = compile_ir(HALVES_IR, target, features=features)
    assert all(form in assembly for form in forms)
    assert found(snippet, assembly) == []


@pytest.mark.parametrize("target", ["gfx942", "gfx950", "gfx1200"])
def test_llvm_fp8_packing_stays_clean(snippet, target):
    assembly = compile_ir(FP8_IR, target)
    assert "v_cvt_pk_fp8_f32" in assembly and "v_cvt_sr_fp8_f32" in assembly
    assert found(snippet, assembly) == []


def test_llvm_poison_halves_are_not_garbage_reads(snippet):
    # LLVM stores a <2 x half> whose other half is poison with a d16 load into a fresh register: legal
    # (the IR does not care what those bits hold); LLVM's function-end labels mark the listing as its output
    assembly = compile_ir(HALVES_IR, "gfx1100", features="+real-true16")
    assert found(snippet, assembly) == []
    as_hand_written = assembly.replace(".Lfunc_end", ".Lend").replace("-- Begin function", "")
    assert any("bits 31:16 are never written" in d.message for d in found(snippet, as_hand_written))


FP8_LOOP_IR = """
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.cvt.pk.fp8.f32(float, float, i32, i1)
define amdgpu_kernel void @fp8loop(ptr addrspace(1) %p, ptr addrspace(1) %q, i32 %n, i32 %init) {
entry:
  %i = call i32 @llvm.amdgcn.workitem.id.x()
  br label %body
body:
  %k = phi i32 [ 0, %entry ], [ %k1, %body ]
  %old = phi i32 [ INIT, %entry ], [ %hi, %body ]
  %idx = add i32 %i, %k
  %a.p = getelementptr <4 x float>, ptr addrspace(1) %p, i32 %idx
  %v = load <4 x float>, ptr addrspace(1) %a.p
  %x = extractelement <4 x float> %v, i32 0
  %y = extractelement <4 x float> %v, i32 1
  %z = extractelement <4 x float> %v, i32 2
  %w = extractelement <4 x float> %v, i32 3
  %lo = call i32 @llvm.amdgcn.cvt.pk.fp8.f32(float %x, float %y, i32 %old, i1 false)
  %q.p = getelementptr i32, ptr addrspace(1) %q, i32 %idx
  store i32 %lo, ptr addrspace(1) %q.p
  %hi = call i32 @llvm.amdgcn.cvt.pk.fp8.f32(float %z, float %w, i32 %lo, i1 true)
  %k1 = add i32 %k, 1
  %c = icmp ult i32 %k1, %n
  br i1 %c, label %body, label %exit
exit:
  ret void
}
"""


@pytest.mark.parametrize("initial", ["poison", "%init", "0"])
def test_llvm_loop_carried_halves(snippet, initial):
    # the IR keeps bits 31:16 from the trip before: LLVM writes them before the loop (an argument, zero), or,
    # from poison, not at all, so its first trip stores them unwritten (legal: poison) and half stale
    assembly = compile_ir(FP8_LOOP_IR.replace("INIT", initial), "gfx942")
    assert "op_sel:[0,0,1]" in assembly and ".Lfunc_end" in assembly
    assert found(snippet, assembly) == []
    as_hand_written = assembly.replace(".Lfunc_end", ".Lend").replace("-- Begin function", "")
    stale = [d for d in found(snippet, as_hand_written) if "half fresh, half stale" in d.message]
    assert len(stale) == (initial == "poison")
