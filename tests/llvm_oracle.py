"""Compile LLVM IR to real AMDGPU assembly with llvmlite's bundled LLVM (the test oracle)."""

from __future__ import annotations

from functools import lru_cache

import pytest

llvm = pytest.importorskip("llvmlite.binding")


@lru_cache(maxsize=1)
def _target():
    llvm.initialize_all_targets()
    llvm.initialize_all_asmprinters()
    return llvm.Target.from_triple("amdgcn-amd-amdhsa")


@lru_cache(maxsize=256)
def compile_ir(ir: str, cpu: str, opt: int = 2, features: str = "") -> str:
    """Return the assembly LLVM emits for `ir` on `cpu`."""
    module = llvm.parse_assembly(ir)
    module.verify()
    machine = _target().create_target_machine(cpu=cpu, features=features, opt=opt)
    return machine.emit_assembly(module)


# Fixtures using instructions only some targets have (LLVM aborts on the others).
_FIXTURE_TARGETS = {
    "mfma": {"gfx908", "gfx90a", "gfx942", "gfx950"},
    "dgemm": {"gfx90a", "gfx942", "gfx950"},
    "wmma": {"gfx1100"},
}
_NO_DOT_INSTRUCTIONS = {"gfx900"}


def fixture_supports(ir_name: str, cpu: str) -> bool:
    """Whether the IR fixture `ir_name` (fixtures/llvm) compiles for `cpu`."""
    if any(word in ir_name and cpu not in targets for word, targets in _FIXTURE_TARGETS.items()):
        return False
    return not ("dot" in ir_name and cpu in _NO_DOT_INSTRUCTIONS)


@lru_cache(maxsize=64)
def compile_object(ir: str, cpu: str, opt: int = 2) -> bytes:
    """Return the relocatable code object (ELF) LLVM emits for `ir` on `cpu`."""
    module = llvm.parse_assembly(ir)
    module.verify()
    return _target().create_target_machine(cpu=cpu, opt=opt).emit_object(module)
