"""Each rule fires on a small kernel that has the problem and stays quiet on the fixed one."""

import pytest
from amdgpu_lint.rules import RULES, find_rule
from conftest import names

HEADER = '.amdgcn_target "amdgcn-amd-amdhsa--gfx942"\n'


def test_every_rule_is_documented():
    codes = [rule.code for rule in RULES]
    assert len(codes) == len(set(codes)) and len({rule.name for rule in RULES}) == len(RULES)
    for rule in RULES:
        assert rule.code.startswith("AGL") and rule.name == rule.name.lower() and " " not in rule.name
        for heading in ("## What it finds", "## Why it matters", "## Example", "## How to fix"):
            assert heading in rule.explain, (rule.name, heading)
        assert find_rule(rule.code) is rule and find_rule(rule.name) is rule


# ---------------------------------------------------------------- parse-error

def test_parse_error_fires_and_rest_of_file_is_linted(snippet):
    result = snippet.lint(HEADER + "k:\n  v_add_f32 v0, v1, +\n  s_branch .Lnowhere\n  s_endpgm\n")
    assert names(result) == ["parse-error", "undefined-symbol"]
    error = result.diagnostics[0]
    assert (error.line, error.column) == (3, 22) and "expected" in error.message


def test_parse_error_quiet(snippet):
    assert names(snippet.lint(HEADER + "k:\n  v_add_f32 v0, v1, v2\n  s_endpgm\n")) == []


def test_bad_metadata_yaml_points_at_the_line(snippet):
    result = snippet.lint(HEADER + "k:\n s_endpgm\n.amdgpu_metadata\n---\namdhsa.kernels:\n  - .name: k\n    .sgpr_count: [1\n...\n.end_amdgpu_metadata\n")
    assert names(result) == ["parse-error"]
    assert "YAML" in result.diagnostics[0].message and result.diagnostics[0].line in (8, 9)


def test_missing_required_descriptor_directive(snippet):
    text = HEADER + "k:\n s_endpgm\n.amdhsa_kernel k\n .amdhsa_next_free_vgpr 4\n .amdhsa_next_free_sgpr 4\n{}.end_amdhsa_kernel\n"
    result = snippet.lint(text.format(""))
    assert names(result) == ["parse-error"] and "accum_offset" in result.diagnostics[0].message
    assert names(snippet.lint(text.format(" .amdhsa_accum_offset 4\n"))) == []


def test_amdhsa_directive_outside_block_and_repeated(snippet):
    result = snippet.lint(HEADER + "k:\n s_endpgm\n.amdhsa_next_free_vgpr 4\n.amdhsa_kernel k\n .amdhsa_next_free_vgpr 4\n .amdhsa_next_free_vgpr 8\n .amdhsa_next_free_sgpr 4\n .amdhsa_accum_offset 4\n.end_amdhsa_kernel\n")
    assert [d.line for d in result.diagnostics] == [4, 7]


def test_duplicate_label(snippet):
    result = snippet.lint(HEADER + "k:\n.L1:\n s_nop 0\n.L1:\n s_endpgm\n")
    assert names(result) == ["parse-error"] and result.diagnostics[0].line == 5


# ---------------------------------------------------------------- unknown-directive

def test_unknown_directive_suggests_the_right_one(snippet):
    result = snippet.lint(HEADER + "k:\n s_endpgm\n.amdhsa_kernel k\n .amdhsa_next_free_vgrp 4\n .amdhsa_next_free_vgpr 4\n .amdhsa_next_free_sgpr 4\n .amdhsa_accum_offset 4\n.end_amdhsa_kernel\n.p2aling 8\n")
    assert names(result) == ["unknown-directive", "unknown-directive"]
    assert "did you mean '.amdhsa_next_free_vgpr'" in result.diagnostics[0].message
    assert "did you mean '.p2align'" in result.diagnostics[1].message


def test_unknown_directive_quiet_on_common_directives(snippet):
    text = HEADER + """
        .text
        .globl k
        .p2align 8
        .type k,@function
        .section .AMDGPU.csdata,"",@progbits
        .cfi_startproc
        .file 1 "/src" "k.hip" md5 0x0123
        .loc 1 10 3 prologue_end
        .ident "AMD clang version 19.0.0"
        k:
          s_endpgm
        .Lfunc_end0:
        .size k, .Lfunc_end0-k
        .addrsig
    """
    assert names(snippet.lint(text)) == []


def test_legacy_directives_rejected_for_amdhsa(snippet):
    body = "k:\n.amd_kernel_code_t\n  workitem_vgpr_count = 4\n.end_amd_kernel_code_t\n s_endpgm\n"
    result = snippet.lint('.amdgcn_target "amdgcn-amd-amdhsa--gfx906"\n' + body)
    assert names(result) == ["unknown-directive"] and "code-object-v2" in result.diagnostics[0].message
    quiet = snippet.lint('.amdgcn_target "amdgcn----gfx906"\n' + body)
    assert names(quiet) == []
    assert quiet.module.kernels[0].kernel_code_t == {"workitem_vgpr_count": 4}


def test_function_like_cpp_define_is_reported(snippet):
    result = snippet.lint(HEADER + "#define ADD(a, b) a + b\nk:\n s_endpgm\n", "k.S")
    assert names(result) == ["unknown-directive"]


# ---------------------------------------------------------------- undefined-symbol

def test_undefined_branch_target_with_suggestion(snippet):
    result = snippet.lint(HEADER + "k:\n.LBB0_1:\n s_nop 0\n s_cbranch_scc1 .LBB0_l\n s_endpgm\n")
    assert names(result) == ["undefined-symbol"]
    diagnostic = result.diagnostics[0]
    assert diagnostic.line == 5 and diagnostic.kernel == "k"
    assert "'.LBB0_l'" in diagnostic.message and "did you mean '.LBB0_1'" in diagnostic.message


def test_undefined_symbol_quiet(snippet):
    text = HEADER + "k:\n.LBB0_1:\n s_nop 0\n s_cbranch_scc1 .LBB0_1\n s_branch .LBB0_2\n.LBB0_2:\n s_endpgm\n"
    assert names(snippet.lint(text)) == []


def test_numeric_local_labels(snippet):
    quiet = snippet.lint(HEADER + "k:\n1:\n s_nop 0\n s_cbranch_scc1 1b\n s_branch 1f\n s_nop 1\n1:\n s_endpgm\n")
    assert names(quiet) == []
    broken = snippet.lint(HEADER + "k:\n s_branch 2f\n s_endpgm\n")
    assert names(broken) == ["undefined-symbol"]


def test_undefined_register_symbol(snippet):
    result = snippet.lint(HEADER + ".set vgprA, 4\nk:\n v_mov_b32 v[vgprA], v[vgprB]\n s_endpgm\n")
    assert names(result) == ["undefined-symbol"] and "vgprB" in result.diagnostics[0].message


GHOST_DESCRIPTOR = ".amdhsa_kernel ghost\n .amdhsa_next_free_vgpr 1\n .amdhsa_next_free_sgpr 1\n .amdhsa_accum_offset 4\n.end_amdhsa_kernel\n"


def test_descriptor_without_code_next_to_other_code(snippet):
    result = snippet.lint(HEADER + "host:\n s_endpgm\n" + GHOST_DESCRIPTOR)
    assert names(result) == ["undefined-symbol"] and "ghost" in result.diagnostics[0].message


def test_descriptor_of_code_assembled_elsewhere(snippet):
    # a file of descriptors only (llvm-mc 22 assembles it; the code comes from another object)
    assert names(snippet.lint(HEADER + GHOST_DESCRIPTOR)) == []


# ---------------------------------------------------------------- unknown-target

@pytest.mark.parametrize(
    "text, options, fires",
    [
        ("k:\n s_endpgm\n", {}, True),
        ("k:\n s_endpgm\n", {"mcpu": "gfx943"}, True),
        ('.amdgcn_target "amdgcn-amd-amdhsa--gfx999"\nk:\n s_endpgm\n', {}, True),
        ("k:\n s_endpgm\n", {"mcpu": "gfx942"}, False),
        ('.amdgcn_target "amdgcn-amd-amdhsa--gfx90a:xnack+"\nk:\n s_endpgm\n', {}, False),
        ('.amdgcn_target "amdgcn-amd-amdhsa--gfx9-4-generic:sramecc-"\nk:\n s_endpgm\n', {}, False),
    ],
)
def test_unknown_target(snippet, text, options, fires):
    assert names(snippet.lint(text, **options)) == (["unknown-target"] if fires else [])


def test_target_features_are_kept(snippet):
    module = snippet.build('.amdgcn_target "amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-"\nk:\n s_endpgm\n')
    assert module.target.features == {"sramecc": True, "xnack": False}
    assert str(module.target) == "gfx90a:sramecc+:xnack-"


# ---------------------------------------------------------------- invalid-encoding

def test_invalid_encoding(snippet, tmp_path):
    path = tmp_path / "latin1.s"
    path.write_bytes(HEADER.encode() + b"; auteur: Ren\xe9\nk:\n s_endpgm\n")
    from amdgpu_lint.driver.linter import lint_file
    from amdgpu_lint.frontend.options import BuildOptions

    result = lint_file(path, BuildOptions(), list(RULES))
    assert names(result) == ["invalid-encoding"] and result.diagnostics[0].line == 2
    assert names(snippet.lint(HEADER + "; auteur: René\nk:\n s_endpgm\n")) == []


# ---------------------------------------------------------------- unknown-instruction

def test_unknown_instruction_on_the_wrong_generation(snippet):
    result = snippet.lint('.amdgcn_target "amdgcn-amd-amdhsa--gfx1030"\nk:\n v_mfma_f32_32x32x8f16 a[0:15], v[0:1], v[2:3], a[0:15]\n s_endpgm\n')
    assert names(result) == ["unknown-instruction", "register-budget"]  # gfx1030 has no AGPRs either
    message = result.diagnostics[0].message
    assert "instruction not supported on this GPU (gfx1030" in message and "exists on gfx908, gfx90a" in message


def test_gfx950_only_instruction_on_gfx942(snippet):
    text = "k:\n v_bitop3_b32 v0, v1, v2, v3 bitop3:0x80\n s_endpgm\n"
    assert names(snippet.lint(text, mcpu="gfx942")) == ["unknown-instruction"]
    assert names(snippet.lint(text, mcpu="gfx950")) == []


def test_misspelt_instruction_suggests(snippet):
    result = snippet.lint(HEADER + "k:\n global_load_dwrod v0, v1, s[0:1]\n s_endpgm\n")
    assert "did you mean 'global_load_dword'" in result.diagnostics[0].message


def test_wrong_register_width(snippet):
    result = snippet.lint(HEADER + "k:\n global_load_dwordx4 v[0:1], v2, s[0:1]\n s_endpgm\n")
    assert names(result) == ["unknown-instruction"] and "4 dwords" in result.diagnostics[0].message
    assert names(snippet.lint(HEADER + "k:\n global_load_dwordx4 v[0:3], v4, s[0:1]\n s_endpgm\n")) == []


def test_unknown_instruction_on_targets_documented_through_a_neighbour(snippet):
    # the mnemonic verdicts hold every name llvm-mc 22 knows: a made-up one is reported on gfx6 and gfx1250 too
    for cpu in ("gfx600", "tahiti", "gfx1250"):
        result = snippet.lint("k:\n v_made_up_b32 v0, v1\n s_endpgm\n", mcpu=cpu)
        assert names(result) == ["unknown-instruction"] and "is not an instruction" in result.diagnostics[0].message
    # and what only gfx6 or gfx1250 has is not: gfx6's buffer_wbinvl1_sc, gfx1250's v_wmma_ld_scale_paired_b32
    assert names(snippet.lint("k:\n buffer_wbinvl1_sc\n s_endpgm\n", mcpu="gfx600")) == []
    assert names(snippet.lint("k:\n v_wmma_ld_scale_paired_b32 v1, v2\n s_endpgm\n", mcpu="gfx1250")) == []
    # gfx6's and gfx1250's operand widths come from probes of their own (gfx1250's are not always gfx12's:
    # v_mul_u64 writes a pair there)
    message = snippet.lint("k:\n s_load_dwordx2 s[0:2], s[4:5], 0\n s_endpgm\n", mcpu="gfx600").diagnostics[0].message
    assert "invalid operand for instruction (gfx600, as llvm-mc 22 says)" in message
    assert names(snippet.lint("k:\n v_mul_u64 v[4:5], v[2:3], v[4:5]\n s_endpgm\n", mcpu="gfx1250")) == []


# ---------------------------------------------------------------- uninitialized-register

DESCRIPTOR = """
.amdhsa_kernel k
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 8
  .amdhsa_accum_offset 8
.end_amdhsa_kernel
"""


def test_uninitialized_register_fires(snippet):
    result = snippet.lint(HEADER + "k:\n v_add_u32 v2, v0, v1\n s_load_dword s6, s[4:5], 0\n s_endpgm\n" + DESCRIPTOR)
    assert names(result) == ["uninitialized-register", "uninitialized-register"]
    assert result.diagnostics[0].message.startswith("v1 is read by v_add_u32")
    assert result.diagnostics[1].message.startswith("s[4:5] are read by s_load_dword")  # s2 is the work-group ID


def test_uninitialized_register_quiet(snippet):
    text = HEADER + """k:
 s_load_dword s4, s[0:1], 0
 v_mov_b32 v1, 0
 s_cmp_eq_u32 s2, 0
 s_cbranch_scc1 .Lskip
 v_mov_b32 v3, 1
.Lskip:
 v_add_u32 v2, v0, v1
 v_add_u32 v2, v2, v3
 s_endpgm
""" + DESCRIPTOR
    assert names(snippet.lint(text)) == []  # v3 is written on one path: a may-analysis stays quiet


def test_uninitialized_register_needs_a_descriptor(snippet):
    assert names(snippet.lint(HEADER + "k:\n v_add_u32 v2, v0, v1\n s_endpgm\n")) == []
