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
