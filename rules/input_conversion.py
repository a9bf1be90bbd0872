"""## What it finds
Inputs that are not assembly and could not be turned into assembly, or only partly: LLVM IR
that llvmlite's LLVM cannot read or compile, a code object that is not a readable AMDGPU ELF,
a code object whose instructions could not be disassembled (no `llvm-objdump` with the AMDGPU
target), or a Triton cache entry whose `.json` is unreadable.

## Why it matters
Whatever could not be converted was not checked: a clean result would be misleading.

## Example
`amdgpu-lint check kernel.hsaco` on a machine without `llvm-objdump`: resources and occupancy
come from the kernel descriptors and metadata, the instruction rules are skipped, and this
finding says so.

## How to fix
Install an `llvm-objdump` with AMDGPU (Debian's `llvm`, ROCm's `/opt/rocm/llvm/bin`) or point
`$AMDGPU_LINT_OBJDUMP` at one; pass `--mcpu` when the IR names no target processor.
"""

from collections.abc import Iterator

from amdgpu_lint.driver.rule import ModuleContext
from amdgpu_lint.model.diagnostics import Diagnostic, Severity

CODE = "AGL008"
NAME = "input-conversion"
SEVERITY = Severity.WARNING
SUMMARY = "input could not be (fully) turned into assembly"


def check(context: ModuleContext) -> Iterator[Diagnostic]:
    yield from context.report_findings()
