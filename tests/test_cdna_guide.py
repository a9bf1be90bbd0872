"""missing-nop on gfx940+ graded by AMD's CDNA3/CDNA4 ISA guides (section 4.5, Table 11): the co-execution rows
the table lists are errors that name the table row; where LLVM asks for more than the table, a warning says so."""

import pytest

KERNEL = '.amdgcn_target "amdgcn-amd-amdhsa--{target}"\nk:\n{body}\n s_endpgm\n'

# (target, producer, consumer, severity, wait states, a phrase the message has)
CASES = [
    # row 10 (issue 40, 10): an SGPR read as a constant is the guide's row (2); read as a lane mask (carry-in, and
    # v_cndmask's condition, which the guide reads as it reads a carry-in) the guide lists 0, LLVM 22 still 2
    ("gfx942", "v_readfirstlane_b32 s4, v0", "v_add_f32_e64 v2, s4, v3", "ERROR", 2,
     "VALU reads that SGPR as a constant: 2"),
    ("gfx942", "v_cmp_eq_u32_e64 s[4:5], v0, v1", "v_cndmask_b32_e64 v2, s4, v1, s[4:5]", "ERROR", 2,
     "VALU reads that SGPR as a constant: 2"),
    ("gfx942", "v_cmp_eq_u32_e64 s[4:5], v0, v1", "v_cndmask_b32_e64 v2, 0, 1, s[4:5]", "WARNING", 2,
     "reads v_cndmask's condition as it reads a carry-in"),
    ("gfx950", "v_cmp_gt_i32_e32 vcc, v0, v1", "v_cndmask_b32_e32 v2, v3, v4, vcc", "WARNING", 2,
     "LLVM inserts 2 wait states; AMD's ISA guide does not require them"),
    ("gfx942", "v_add_co_u32_e32 v0, vcc, v1, v2", "v_addc_co_u32_e32 v3, vcc, v4, v5, vcc", "WARNING", 2,
     "LLVM inserts 2 wait states; AMD's ISA guide does not require them"),
    ("gfx950", "v_add_co_u32_e64 v0, s[6:7], v1, v2", "v_addc_co_u32_e64 v3, s[8:9], v4, v5, s[6:7]", "WARNING", 2,
     "0 for a carry-in"),
    ("gfx942", "v_add_f32_e32 v1, v2, v3", "v_readlane_b32 s0, v1, 0", "ERROR", 1, "V_READLANE reads that VGPR: 1"),
    ("gfx942", "v_add_f32_e32 v1, v2, v3", "v_readfirstlane_b32 s0, v1", "WARNING", 1,
     "LLVM inserts 1 wait state; AMD's ISA guide does not require it"),
    ("gfx942", "v_add_f16_sdwa v0, v1, v2 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:DWORD src1_sel:DWORD",
     "v_add_f32_e32 v3, v0, v4", "ERROR", 1, "changing the result's bit position"),
    ("gfx942", "v_add_f16_sdwa v0, v1, v2 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:DWORD src1_sel:DWORD",
     "v_mov_b32_e32 v0, 0", "WARNING", 1, "lists the read only"),
    ("gfx942", "v_exp_f32_e32 v1, v2", "v_add_f32_e32 v3, v1, v4", "ERROR", 1, "non-trans VALU consumes its result"),
    ("gfx950", "v_cmpx_eq_u32_e32 vcc, v0, v1", "v_readlane_b32 s0, v2, 1", "ERROR", 4, "V_CMPX writes EXEC"),
]


@pytest.mark.parametrize("target, producer, consumer, severity, needed, phrase", CASES)
def test_graded_by_the_guide(snippet, target, producer, consumer, severity, needed, phrase):
    body = f" {producer}\n {consumer}"
    (finding,) = [d for d in snippet.lint(KERNEL.format(target=target, body=body)).diagnostics if d.name == "missing-nop"]
    assert finding.severity.name == severity and phrase in finding.message
    assert f"needs {needed} wait state" in finding.message
    enough = f" {producer}\n s_nop {needed - 1}\n {consumer}"
    assert [d for d in snippet.lint(KERNEL.format(target=target, body=enough)).diagnostics if d.name == "missing-nop"] == []


def test_the_guide_rows_do_not_apply_before_gfx940(snippet):
    body = " v_add_co_u32_e32 v0, vcc, v1, v2\n v_addc_co_u32_e32 v3, vcc, v4, v5, vcc\n v_add_f32_e32 v1, v2, v3\n" \
           " v_readfirstlane_b32 s0, v1"
    assert [d for d in snippet.lint(KERNEL.format(target="gfx90a", body=body)).diagnostics if d.name == "missing-nop"] == []
