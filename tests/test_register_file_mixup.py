"""register-file-mixup: a symbol counted into one register file (MIOpen-style allocator macros) used to index the other."""

from conftest import names

ALLOCATOR = """\
.amdgcn_target "amdgcn-amd-amdhsa--gfx906"
.macro .GPR_ALLOC_BEGIN
  .set .SGPR_NEXT_FREE, 0
  .set .VGPR_NEXT_FREE, 0
.endm
.macro .SGPR_ALLOC name, count=1
  .set \\name, .SGPR_NEXT_FREE
  .set .SGPR_NEXT_FREE, .SGPR_NEXT_FREE + \\count
.endm
.macro .VGPR_ALLOC name, count=1
  .set \\name, .VGPR_NEXT_FREE
  .set .VGPR_NEXT_FREE, .VGPR_NEXT_FREE + \\count
.endm
"""
KERNEL = ALLOCATOR + """\
.GPR_ALLOC_BEGIN
.SGPR_ALLOC karg, 2
.SGPR_ALLOC gid_x
.SGPR_ALLOC f_gpr
.VGPR_ALLOC tid
.VGPR_ALLOC acc, 4
.text
.globl k
.p2align 8
.type k,@function
k:
  s_load_dword s[f_gpr], s[karg:karg+1], 0
  v_mov_b32 v[acc], 0
  v_mov_b32 v[acc+1], v[tid]
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v[acc+3], s[gid_x]
  v_add_u32 v[acc+2], v[acc], v[f_gpr]
  s_endpgm
.rodata
.p2align 6
.amdhsa_kernel k
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr .VGPR_NEXT_FREE
  .amdhsa_next_free_sgpr .SGPR_NEXT_FREE
.end_amdhsa_kernel
"""
FIXED = KERNEL.replace("v[acc], v[f_gpr]", "v[acc], s[f_gpr]")


def mixups(result):
    return [(d.line, d.message) for d in result.diagnostics if d.name == "register-file-mixup"]


def test_sgpr_counted_symbol_indexing_vgprs(snippet):
    ((line, message),) = mixups(snippet.lint(KERNEL))
    assert line == 30  # v_add_u32 ... v[f_gpr]
    assert "'f_gpr' indexes VGPRs here (v[f_gpr] is v3), but it was counted into the SGPR block" in message
    assert "from .SGPR_NEXT_FREE at line 17" in message  # the .SGPR_ALLOC f_gpr call


def test_fixed_kernel_is_quiet(snippet):
    assert snippet.lint(FIXED).diagnostics == []


def test_use_inside_a_macro_is_reported_at_the_body_line(snippet):
    text = KERNEL.replace(".text\n", ".macro ADD_F dst\n  v_add_u32 v[\\dst], v[\\dst], v[f_gpr]\n.endm\n.text\n").replace(
        "  s_endpgm\n", "  ADD_F acc\n  s_endpgm\n", 1)
    result = snippet.lint(text)
    assert [line for line, _ in mixups(result)] == [21, 33]  # the macro body line, and the plain use
    (in_macro,) = [d for d in result.diagnostics if d.line == 21]
    assert in_macro.notes and "ADD_F" in in_macro.notes[0].message


def test_counter_told_by_its_uses_when_unnamed(snippet):
    plain = """\
.amdgcn_target "amdgcn-amd-amdhsa--gfx906"
.set next, 0
.macro take name
  .set \\name, next
  .set next, next + 1
.endm
take a0
take a1
take a2
take odd
.text
k:
  v_mov_b32 v[a0], 0
  v_mov_b32 v[a1], v[a0]
  v_mov_b32 v[a2], v[a1]
  s_mov_b32 s[odd], 0
  s_endpgm
"""
    ((line, message),) = mixups(snippet.lint(plain))
    assert line == 16 and "counted into the VGPR block" in message and "3 of its symbols index VGPRs" in message
    # two against one cannot tell which file the counter hands out
    assert mixups(snippet.lint(plain.replace("  v_mov_b32 v[a2], v[a1]\n", ""))) == []


def test_plain_numbers_and_shared_offsets_are_quiet(snippet):
    text = KERNEL.replace("  s_endpgm\n", """\
  s_mov_b32 s[gid_x], f_gpr
  v_mov_b32 v[tid], f_gpr + 1
  s_endpgm
""", 1).replace(".text\n", ".set shared, 2\n.text\n").replace("v_mov_b32 v[acc], 0", "v_mov_b32 v[shared], s[shared]")
    text = text.replace("v[acc], v[f_gpr]", "v[acc], s[f_gpr]")
    assert mixups(snippet.lint(text)) == []


def test_symbol_reallocated_in_the_other_file_is_judged_by_its_definition_then(snippet):
    text = FIXED.replace("  s_endpgm\n", ".VGPR_ALLOC f_gpr\n  v_mov_b32 v[f_gpr], 0\n  s_endpgm\n", 1)
    assert mixups(snippet.lint(text)) == []


def test_agprs_count_with_vgprs(snippet):
    text = KERNEL.replace("gfx906", "gfx90a").replace("v_add_u32 v[acc+2], v[acc], v[f_gpr]",
                                                        "v_accvgpr_write_b32 a[acc], v[tid]")
    assert "register-file-mixup" not in names(snippet.lint(text))


def test_register_handed_on_stays_counted(snippet):
    # `.set new, old` then `.set old, <invalid>`: the new name is still an SGPR
    text = KERNEL.replace(".text\n", ".set f_next, f_gpr\n.set f_gpr, 0x7fffffff\n.text\n", 1).replace(
        "v[acc], v[f_gpr]", "v[acc], v[f_next]").replace("s_load_dword s[f_gpr]", "s_load_dword s[f_next]")
    ((line, message),) = mixups(snippet.lint(text))
    assert line == 32 and "'f_next' indexes VGPRs" in message and "at line 17" in message
