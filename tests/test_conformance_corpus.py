"""LLVM's own assembler tests (../shared/conformance/llvm, read in place): what llvm-mc 22 accepts
gives no parse-level finding. Skipped when ../shared is absent.

Files that still draw findings are listed in KNOWN_GAPS with exactly the findings they draw today:
a case outside the list, or a count that changes, fails, so the list stays true and only shrinks.
"""

from collections import Counter
from pathlib import Path

import llvm_conformance
import pytest

pytestmark = pytest.mark.skipif(not llvm_conformance.available(), reason="../shared/conformance/llvm is not present")

#: case -> (parse-level findings it draws today, the front-end gap behind them)
KNOWN_GAPS = {
    "MC/hsa-metadata-kernel-args-v3.s[gfx800]": (1, "the RUN line names gfx800, which llvm-mc ignores as unknown"),
    "MC/hsa-metadata-kernel-attrs-v3.s[gfx800]": (1, "the RUN line names gfx800, which llvm-mc ignores as unknown"),
    # AsmParser (x86 RUN lines): only the preprocessor is judged
    "AsmParser/exprs.s[x86]": (90, "x86 '$' immediates in .if expressions"),
    "AsmParser/motorola_integers.s[x86]": (2, "-motorola-integers ('%' binary numbers)"),
    "AsmParser/macro-max-depth.s[x86]": (1, "the RUN line raises the nesting limit (-asm-macro-max-nesting-depth=42)"),
    "AsmParser/ifc.s[x86]": (1, "x86's ';' statement separator (a comment on AMDGPU)"),
    "AsmParser/ifnes.s[x86]": (1, "x86's ';' statement separator (a comment on AMDGPU)"),
    "AsmParser/dot-symbol-assignment.s[x86]": (1, "x86's .code64"),
}


def _differences(found: dict[str, int], known: dict[str, tuple[int, str]]) -> list[str]:
    """Cases whose count differs from the list (a listed case that now draws none included)."""
    listed = {name: count for name, (count, _) in known.items()}
    return [f"{name}: {found.get(name, 0)} findings, listed {listed.get(name, 0)}"
            for name in sorted(found.keys() | listed.keys()) if found.get(name, 0) != listed.get(name, 0)]


def test_every_positive_assembler_file_has_no_parse_level_findings(tmp_path):
    cases = llvm_conformance.assembler_cases()
    assert len(cases) > 250 and len({case.local for case in cases}) == 197
    found = {str(case): len(outcome.findings) for case in cases
             if (outcome := llvm_conformance.lint_case(case, tmp_path)).findings}
    assert _differences(found, KNOWN_GAPS) == []


#: CodeGen case (path[cpu mattr]) -> (parse-level findings on LLVM's own output today, the gap behind them)
KNOWN_CODEGEN_GAPS = {
    # LLVM 22 prints image instructions its own assembler rejects ("image data size does not match
    # dmask"): the finding is llvm-mc's verdict, kept
    "CodeGen/insert_waitcnt_for_precise_memory.ll[gfx900 +precise-memory]": (1, "image_store v[1:4] with dmask:0x1"),
    "CodeGen/insert_waitcnt_for_precise_memory.ll[gfx90a +precise-memory]": (1, "image_store v[2:5] with dmask:0x1"),
    "CodeGen/insert_waitcnt_for_precise_memory.ll[gfx1010 +precise-memory]": (1, "image_store v[1:4] with dmask:0x1"),
    "CodeGen/insert_waitcnt_for_precise_memory.ll[gfx900 +enable-flat-scratch,+precise-memory]": (1, "image_store v[1:4] with dmask:0x1"),
    "CodeGen/insert_waitcnt_for_precise_memory.ll[gfx1100 +precise-memory]": (1, "image_store v[1:4] with dmask:0x1"),
    "CodeGen/insert_waitcnt_for_precise_memory.ll[gfx1200 +precise-memory]": (1, "image_store v[1:4] with dmask:0x1"),
    "CodeGen/llvm.amdgcn.image.dim.gfx90a.ll[gfx90a ]": (3, "image_load with lwe into 5 VGPRs"),
    # the IR's inline asm names a gfx10+ instruction; its first RUN line compiles it for the SI-class generic
    # processor, where llvm-mc 22 refuses it ("instruction not supported on this GPU")
    "CodeGen/preserve-user-waitcnt.ll[generic ]": (3, "inline asm s_waitcnt_vscnt on gfx600"),
    # compiled with -architected-flat-scratch, which no target id carries: llvm-mc 22 for gfx1100 (architected flat
    # scratch) refuses the private-segment and flat-scratch directives ("not supported with architected flat
    # scratch"): llvm-mc's verdict, kept (it reports the first and stops reading the block; we report all four)
    "CodeGen/large-alloca-compute.ll[gfx1100 -flat-for-global,-architected-flat-scratch,-user-sgpr-init16-bug]": (
        4, ".amdhsa_user_sgpr_private_segment_buffer and three more on gfx1100"),
}


#: Findings of the correctness rules on LLVM's own output that are real: (case, rule) -> (count, why).
#: Everything else must be zero: compiler output is correct by construction.
REAL_CODEGEN_FINDINGS = {
    ("CodeGen/waitcnt-unscoped.ll[gfx950 ]", "missing-wait"): (
        1, "ds_write_b32 to the LDS address in s2 while global_load_lds_dword (m0 = s2) may still write it: the IR's "
           "alias.scope/noalias metadata claims the two do not alias, the listing shows the same address"),
    ("CodeGen/stack-realign.ll[fiji ]", "register-budget"): (
        4, "LLVM spills s102 with v_writelane_b32 in a callable function (four lines); gfx8 addresses 102 SGPRs and llvm-mc 22 "
           "rejects s102 ('register not available on this GPU'): number 102 is flat_scratch_lo there"),
}
#: Rules whose error-level findings on compiler output are false (uninitialized-register and lds-race: any finding).
CORRECTNESS_RULES = ("missing-wait", "missing-nop", "register-budget")
ANY_FINDING_RULES = ("uninitialized-register", "lds-race")


@pytest.fixture(scope="module")
def codegen_cache(tmp_path_factory, request) -> Path:
    """Where LLVM's compiled CodeGen listings are kept: pytest's cache across runs, or this run's temporary
    directory under `-p no:cacheprovider`."""
    cache = getattr(request.config, "cache", None)
    return cache.mkdir("llvm-codegen") if cache is not None else tmp_path_factory.mktemp("llvm-codegen")


@pytest.fixture(scope="module")
def codegen_findings(tmp_path_factory, codegen_cache):
    """Every rule's findings on LLVM 22's output for each CodeGen file and target (compiled once), linted
    the way `check` lints them."""
    pytest.importorskip("llvmlite")
    from amdgpu_lint.driver.linter import lint_file
    from amdgpu_lint.frontend.options import BuildOptions
    from amdgpu_lint.rules import RULES

    cases = llvm_conformance.codegen_cases()
    assert len({case[0] for case in cases}) == 100
    listings = llvm_conformance.compile_codegen(cases, codegen_cache)
    assert sum(asm is not None for asm in listings.values()) > 200  # LLVM compiles nearly all of them
    directory = tmp_path_factory.mktemp("codegen")
    findings = {}
    for (local, _, cpu, mattr), asm in ((case, listings[case]) for case in cases):
        if asm is not None:
            path = directory / (Path(local).stem + ".s")
            path.write_text(asm)
            # as `check` lints it: kernel by kernel (tests/test_streaming.py compares with a whole-module lint)
            findings[f"{local}[{cpu} {mattr}]"] = lint_file(path, BuildOptions(mcpu=cpu), list(RULES),
                                                            keep_module=False).diagnostics
    return findings


def test_llvm_output_for_its_codegen_tests_has_no_parse_level_findings(codegen_findings):
    found = {name: count for name, diagnostics in codegen_findings.items()
             if (count := sum(d.name in llvm_conformance.PARSE_LEVEL for d in diagnostics))}
    assert _differences(found, KNOWN_CODEGEN_GAPS) == []


def test_llvm_output_draws_no_false_correctness_findings(codegen_findings):
    found = Counter((case, d.name) for case, diagnostics in codegen_findings.items() for d in diagnostics
                    if (d.name in CORRECTNESS_RULES and str(d.severity) == "error") or d.name in ANY_FINDING_RULES)
    assert dict(found) == {key: count for key, (count, _) in REAL_CODEGEN_FINDINGS.items()}


def test_llvm_mc_expands_the_same_instruction_stream(tmp_path):
    """Where Debian's llvm-mc-22 is installed: after every macro, .rept and .if, the mnemonic
    sequence equals what llvm-mc prints (spellings of one instruction folded together)."""
    import shutil

    if shutil.which(llvm_conformance.LLVM_MC) is None:
        pytest.skip("llvm-mc-22 is not installed (Debian's llvm-22); the differential runs where it is")
    compared, differing = 0, []
    for case in llvm_conformance.assembler_cases():
        theirs = llvm_conformance.llvm_mc_mnemonics(case, tmp_path)
        if theirs is None:
            continue  # x86 RUN lines, and processors llvm-mc does not know
        compared += 1
        ours = llvm_conformance.our_mnemonics(case, tmp_path)
        if ours != theirs:
            first = next((i for i, pair in enumerate(zip(ours, theirs, strict=False)) if pair[0] != pair[1]), None)
            differing.append(f"{case}: {len(ours)} vs {len(theirs)} instructions, first difference at {first}")
    assert compared > 200 and differing == []


def test_encoded_sizes_match_llvm_mc_on_llvm_output(tmp_path, codegen_cache):
    """Where llvm-mc-22 is installed: every size we give for an instruction of LLVM's CodeGen
    output equals the bytes `llvm-mc -show-encoding` encodes it in (sizes we leave open: None)."""
    import re
    import shutil
    import subprocess

    pytest.importorskip("llvmlite")
    if shutil.which(llvm_conformance.LLVM_MC) is None:
        pytest.skip("llvm-mc-22 is not installed (Debian's llvm-22)")
    from amdgpu_lint.analyses.defuse import DefUseAnalysis
    from amdgpu_lint.analyses.manager import AnalysisManager
    from amdgpu_lint.frontend.builder import build_module
    from amdgpu_lint.frontend.options import BuildOptions
    from amdgpu_lint.frontend.source import read_source
    from amdgpu_lint.isa.sizes import instruction_size

    cases = llvm_conformance.codegen_cases()
    listings = llvm_conformance.compile_codegen(cases, codegen_cache)
    known = wrong = 0
    for (local, triple, cpu, mattr), asm in ((case, listings[case]) for case in cases):
        if asm is None:
            continue
        path = tmp_path / "listing.s"
        path.write_text(asm)
        run = subprocess.run([llvm_conformance.LLVM_MC, f"-triple={triple}", f"-mcpu={cpu}", "-show-encoding", str(path)]
                             + ([f"-mattr={mattr}"] if mattr else []), capture_output=True, text=True, check=False)
        if run.returncode:
            continue
        theirs = [len(m.group(1).split(",")) for m in re.finditer(r"^\t[a-z_].*; encoding: \[([^\]]*)\]", run.stdout, re.M)]
        module = build_module(read_source(path), BuildOptions(mcpu=cpu))
        ours = []
        for kernel in module.kernels:
            facts = AnalysisManager(module, kernel).get(DefUseAnalysis).per_instruction
            ours += [instruction_size(i.mnemonic, i.operands, i.modifiers, f.variant, module.target,
                                      i.pair.operands if i.pair else None)
                     for i, f in zip(kernel.instructions, facts, strict=True)]
        if len(ours) != len(theirs):
            continue
        for size, encoded in zip(ours, theirs, strict=True):
            if size is not None:
                known += 1
                wrong += size != encoded
    assert known > 30000 and wrong == 0
