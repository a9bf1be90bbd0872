"""LLVM's own assembler tests (../shared/conformance/llvm, read in place): what llvm-mc 22 accepts
gives no parse-level finding. Skipped when ../shared is absent.

Files that still draw findings are listed in KNOWN_GAPS with the most findings they may draw: the
list only shrinks (a case outside it, or above its count, fails), and each entry says why.
"""

from pathlib import Path

import llvm_conformance
import pytest

pytestmark = pytest.mark.skipif(not llvm_conformance.available(), reason="../shared/conformance/llvm is not present")

#: case -> (most parse-level findings, the front-end gap behind them)
KNOWN_GAPS = {
    "MC/gfx1150_asm_salu_float.s[gfx1150]": (842, "gfx1150's SALU float instructions are not in the GFX11 table"),
    "MC/gfx12_asm_vimage.s[gfx1200]": (316, "image vdata widths by dmask/d16/tfe; gfx12 VIMAGE address lists"),
    "MC/gfx12_asm_ds.s[gfx1200]": (152, "gfx12 accepts the ds_read*/ds_write* spellings"),
    "MC/mai-gfx950.s[gfx950]": (54, "gfx950 MFMA alternative spellings and v_mfma_ld_scale_b32"),
    "MC/occupancy_mcexpr.s[generic-hsa]": (24, "MC expression functions occupancy()/alignto()/max()/or()"),
    "MC/exp.s[gfx1200]": (20, "gfx12 accepts 'exp' for 'export'"),
    "MC/wave_any.s[gfx1010+wavefrontsize32,+wavefrontsize64]": (16, "-mattr wave size not passed to the linter"),
    "MC/gfx12_asm_vop1_dpp8.s[gfx1200+wavefrontsize32,+real-true16]": (15, "true16 operand forms"),
    "MC/gfx12_asm_vop1_dpp8.s[gfx1200+wavefrontsize64,+real-true16]": (15, "true16 operand forms"),
    "MC/user-sgpr-count.s[gfx90a+xnack]": (11, "-mattr +xnack not passed to the linter"),
    "MC/gfx90a_asm_features.s[gfx90a]": (10, "gfx90a operand forms"),
    "MC/totalnumvgpr_mcexpr.s[gfx90a]": (9, "MC expression function totalnumvgprs()"),
    "MC/totalnumvgpr_mcexpr.s[gfx1010]": (9, "MC expression function totalnumvgprs()"),
    "MC/sym_kernel_scope.s[generic]": (8, "symbols defined after their use in a register index"),
    "MC/extrasgprs_mcexpr.s[bonaire]": (4, "MC expression function extrasgprs()"),
    "MC/extrasgprs_mcexpr.s[gfx90a]": (4, "MC expression function extrasgprs()"),
    "MC/extrasgprs_mcexpr.s[gfx942]": (4, "MC expression function extrasgprs()"),
    "MC/extrasgprs_mcexpr.s[gfx1010]": (4, "MC expression function extrasgprs()"),
    "MC/gfx12_asm_features.s[gfx1200]": (4, "image vdata widths"),
    "MC/mai-gfx90a.s[gfx90a]": (2, "MFMA operand forms"),
    "MC/amdhsa-kd-kernarg-preload.s[gfx942]": (1, "a descriptor whose code label is defined elsewhere"),
    "MC/hsa-metadata-kernel-args-v3.s[gfx800]": (1, "gfx800 is no processor of LLVM 22's list here"),
    "MC/hsa-metadata-kernel-attrs-v3.s[gfx800]": (1, "gfx800 is no processor of LLVM 22's list here"),
    "MC/pal.s[kaveri]": (1, "PAL metadata"),
    "MC/flat.s[bonaire]": (1, "flat operand form"),
    "MC/mubuf-gfx9.s[gfx900]": (1, "mubuf operand form"),
    "MC/mubuf-gfx10.s[gfx1010]": (1, "mubuf operand form"),
    "MC/gfx11_asm_sopp.s[gfx1100]": (1, "sopp operand form"),
    # AsmParser (x86 RUN lines): only the preprocessor is judged
    "AsmParser/exprs.s[x86]": (90, "x86 '$' immediates in .if expressions"),
    "AsmParser/directive_rept.s[x86]": (6, "'.rep' is '.rept'"),
    "AsmParser/directive_dcb.s[x86]": (6, "generic .dcb directives"),
    "AsmParser/directive_base64.s[x86]": (5, "generic .base64 directive"),
    "AsmParser/macro-exitm.s[x86]": (4, "'.exitm' in a loop inside a macro"),
    "AsmParser/directive_case_insensitive.s[x86]": (3, "'.2byte' as a statement"),
    "AsmParser/altmacro_string_escape.s[x86]": (2, ".altmacro strings"),
    "AsmParser/macro-at-pseudo-variable.s[x86]": (2, "'.rep' is '.rept'"),
    "AsmParser/dot-symbol-assignment.s[x86]": (2, "generic .extern; x86 .code64"),
    "AsmParser/directive_line.s[x86]": (2, "generic .line directive"),
    "AsmParser/motorola_integers.s[x86]": (2, "-motorola-integers"),
    "AsmParser/altmacro_string.s[x86]": (1, ".altmacro strings"),
    "AsmParser/macro-max-depth.s[x86]": (1, "-asm-macro-max-nesting-depth=42"),
    "AsmParser/ifc.s[x86]": (1, ".ifc on quoted strings"),
    "AsmParser/ifnes.s[x86]": (1, ".ifnes on quoted strings"),
    "AsmParser/directive_include.s[x86]": (1, "escapes in .include file names"),
    "AsmParser/directive_comm.s[x86]": (1, "generic .common directive"),
    "AsmParser/extern.s[x86]": (1, "generic .extern directive"),
}


def test_every_positive_assembler_file_has_no_parse_level_findings(tmp_path):
    cases = llvm_conformance.assembler_cases()
    assert len(cases) > 250 and len({case.local for case in cases}) == 197
    regressions = []
    for case in cases:
        outcome = llvm_conformance.lint_case(case, tmp_path)
        allowed = KNOWN_GAPS.get(str(case), (0, ""))[0]
        if len(outcome.findings) > allowed:
            regressions.append(f"{case}: {len(outcome.findings)} > {allowed}: {outcome.findings[:3]}")
    assert regressions == []


def test_known_gaps_name_real_cases():
    names = {str(case) for case in llvm_conformance.assembler_cases()}
    assert set(KNOWN_GAPS) <= names


#: CodeGen case (path[cpu mattr]) -> (most parse-level findings on LLVM's own output, the gap behind them)
KNOWN_CODEGEN_GAPS = {
    "CodeGen/llvm.amdgcn.wmma_64.ll[gfx1100 +wavefrontsize64]": (30, "-mattr wave size not passed to the linter"),
    "CodeGen/llvm.amdgcn.image.atomic.pk.add.ll[gfx1200 ]": (10, "image vdata widths by dmask/d16"),
    "CodeGen/llvm.amdgcn.waitcnt.out.order.ll[gfx1200 +real-true16]": (4, "image vdata widths by dmask"),
    "CodeGen/llvm.amdgcn.waitcnt.out.order.ll[gfx1200 -real-true16]": (4, "image vdata widths by dmask"),
    "CodeGen/llvm.amdgcn.wqm.demote.ll[gfx1010 +wavefrontsize64]": (4, "-mattr wave size not passed to the linter"),
    "CodeGen/llvm.amdgcn.image.a16.dim.ll[gfx1200 ]": (4, "image vdata widths by dmask/d16"),
    "CodeGen/insert_waitcnt_for_precise_memory.ll[gfx1200 +precise-memory]": (2, "image vdata widths by dmask"),
    "CodeGen/load-local.128.ll[hawaii ]": (2, "the GFX7 table lacks ds_read_b128"),
    "CodeGen/llvm.amdgcn.image.gather4.dim.ll[gfx1200 ]": (1, "gather4 with tfe: 5 dwords"),
}


def test_llvm_output_for_its_codegen_tests_has_no_parse_level_findings(tmp_path, request):
    pytest.importorskip("llvmlite")
    cases = llvm_conformance.codegen_cases()
    assert len({case[0] for case in cases}) == 100
    listings = llvm_conformance.compile_codegen(cases, request.config.cache.mkdir("llvm-codegen"))
    assert sum(asm is not None for asm in listings.values()) > 200  # LLVM compiles nearly all of them
    regressions = []
    for case in cases:
        asm = listings[case]
        if asm is None:
            continue
        name = f"{case[0]}[{case[2]} {case[3]}]"
        findings = llvm_conformance.lint_text(asm, Path(case[0]).stem + ".s", case[2], tmp_path)
        allowed = KNOWN_CODEGEN_GAPS.get(name, (0, ""))[0]
        if len(findings) > allowed:
            regressions.append(f"{name}: {len(findings)} > {allowed}: {findings[:3]}")
    assert regressions == []
