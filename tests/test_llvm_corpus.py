"""LLVM 22 output (compiled here with llvmlite) parses with zero diagnostics on every target.

The kernels in fixtures/llvm cover loops, LDS with barriers, MFMA/WMMA, many arguments, calls,
atomics and scratch. Beyond "no diagnostics", the IR must agree with what LLVM itself emitted:
kernel names, descriptor values, metadata, and the number of basic blocks.
"""

import re
from pathlib import Path

import pytest
from amdgpu_lint.analyses.cfg import CFGAnalysis
from amdgpu_lint.analyses.initialized import InitializedAnalysis
from amdgpu_lint.analyses.manager import AnalysisManager
from conftest import FIXTURES, skip_if_compiled
from llvm_oracle import compile_ir, fixture_supports

TARGETS = ["gfx900", "gfx906", "gfx908", "gfx90a", "gfx942", "gfx950", "gfx1030", "gfx1100", "gfx1201"]


def cases():
    for ir_path in sorted((FIXTURES / "llvm").glob("*.ll")):
        for target in TARGETS:
            if not fixture_supports(ir_path.name, target):
                continue
            for opt in (0, 2):
                yield pytest.param(ir_path, target, opt, id=f"{ir_path.stem}-{target}-O{opt}")


@pytest.mark.parametrize("ir_path, target, opt", list(cases()))
def test_llvm_output_parses_cleanly(ir_path: Path, target: str, opt: int, snippet):
    assembly = compile_ir(ir_path.read_text(), target, opt)
    result = snippet.lint(assembly, f"{ir_path.stem}_{target}.s")
    # scratch use is a real property of -O0 and call-heavy code, not a reading problem; -O0
    # keeps memory-legalizer waits that an earlier wait already covered (true no-ops); LLVM does
    # not software-pipeline loops, so a loop load waited for in the same iteration is a real
    # short-prefetch finding, and a streaming loop at full occupancy is bound by the memory pipes
    allowed = {"scratch-spill", "short-prefetch", "issue-oversubscription"} | ({"redundant-wait"} if opt == 0 else set())
    problems = [d for d in result.diagnostics if d.name not in allowed]
    assert problems == [], "\n".join(f"{d.line}: {d.message}" for d in problems)
    module = result.module
    assert module.target.name == target

    # every function LLVM emitted is found, with its kind
    emitted = re.findall(r"^\t\.type\t(\S+),@function", assembly, re.M)
    assert sorted(k.name for k in module.kernels) == sorted(emitted)
    declared_kernels = set(re.findall(r"^\t\.amdhsa_kernel (\S+)", assembly, re.M))
    assert {k.name for k in module.kernels if k.is_kernel} == declared_kernels

    for kernel in module.kernels:
        # the instruction count matches the lines between the function label and its end label
        body = assembly.split(f"\n{kernel.name}:", 1)[1].split(".Lfunc_end", 1)[0]
        lines = [ln.split(";")[0].strip() for ln in body.splitlines()]
        expected = [ln for ln in lines if ln and not ln.startswith(".") and not ln.endswith(":")]
        assert len(kernel.instructions) == len(expected)
        # one block per branch target label, plus the entry and the blocks after branches
        cfg = AnalysisManager(module, kernel).get(CFGAnalysis)
        assert cfg.blocks[0].instructions[0] is kernel.instructions[0]
        assert sum(len(b.instructions) for b in cfg.blocks) == len(kernel.instructions)
        for block in cfg.blocks:
            assert all(0 <= s < len(cfg.blocks) for s in block.successors)
        if kernel.is_kernel:
            block = assembly.split(f".amdhsa_kernel {kernel.name}\n")[1].split(".end_amdhsa_kernel")[0]
            descriptor = dict(re.findall(r"^\t\t\.amdhsa_(\w+) (\d+)$", block, re.M))
            assert len(descriptor) > 20
            for key, value in descriptor.items():
                assert kernel.descriptor[key] == int(value), key
            assert kernel.metadata[".name"] == kernel.name
            assert kernel.metadata[".vgpr_count"] >= 1


def _compiled_kernels(snippet, opt=2):
    for ir_path, target, level in [c.values for c in cases()]:
        if level != opt:
            continue
        module = snippet.lint(compile_ir(ir_path.read_text(), target, level), f"{ir_path.stem}_{target}.s").module
        for kernel in module.kernels:
            yield module, kernel


def test_every_register_read_is_an_abi_input_or_written_before(snippet):
    """The issue's property: a wrong operand role in the tables or def/use breaks it."""
    checked = 0
    for opt in (0, 2):
        for module, kernel in _compiled_kernels(snippet, opt):
            result = AnalysisManager(module, kernel).get(InitializedAnalysis)
            if kernel.is_kernel:
                assert result is not None
                checked += 1
                assert result.reads == {}, f"{module.path} {kernel.name}: {result.reads}"
    assert checked >= 70


def test_property_catches_a_wrong_operand_role(snippet, monkeypatch):
    """Treat every load's destination as a source: the property must break."""
    import amdgpu_lint.analyses.defuse as defuse_analysis
    from amdgpu_lint.isa.defuse import DefUse, def_use

    skip_if_compiled(defuse_analysis)

    def swapped(mnemonic, operands, modifiers, target, wave, either_wave=False):
        info = def_use(mnemonic, operands, modifiers, target, wave, either_wave)
        if info.klass.unit in ("vmem", "smem") and info.klass.kind in ("load", ""):
            return DefUse(frozenset(), info.uses | info.defs, info.klass, info.variant)
        return info

    monkeypatch.setattr(defuse_analysis, "def_use", swapped)
    monkeypatch.setattr(defuse_analysis, "_interned", {})  # facts are shared across modules: start afresh
    broken = 0
    for module, kernel in _compiled_kernels(snippet):
        result = AnalysisManager(module, kernel).get(InitializedAnalysis)
        broken += bool(result and result.reads)
    assert broken >= 20


def test_loop_cfg_has_back_edge(snippet):
    assembly = compile_ir((FIXTURES / "llvm" / "loop_saxpy.ll").read_text(), "gfx942")
    module = snippet.lint(assembly).module
    cfg = AnalysisManager(module, module.kernels[0]).get(CFGAnalysis)
    back_edges = [(b.index, s) for b in cfg.blocks for s in b.successors if s <= b.index]
    assert back_edges, "the grid-stride loop must produce a back edge"
    exits = [b for b in cfg.blocks if b.terminator and b.terminator.mnemonic == "s_endpgm"]
    assert exits and all(not b.successors for b in exits)
