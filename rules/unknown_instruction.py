"""## What it finds
Instructions that do not exist on the kernel's target, such as `v_mfma_*` on gfx1030 or a
gfx950-only instruction in a gfx942 kernel, with the closest valid mnemonics and the targets
that do have it; and operands that no encoding of the instruction accepts: a wrong operand
count, or a register range of the wrong width (`global_load_dwordx4 v[0:1], ...`).

## Why it matters
llvm-mc rejects the file. Kernels ported between generations (CDNA to RDNA, gfx90a to
gfx942, gfx11 to gfx12 where memory instructions were renamed) hit this first, and a
wrong-width register range is usually an off-by-one in a `.set` register allocation.

## Example
```
.amdgcn_target "amdgcn-amd-amdhsa--gfx1030"
  v_mfma_f32_32x32x8f16 a[0:15], v[0:1], v[2:3], a[0:15]
```

## How to fix
Use the instruction the target has (the message lists the closest ones), select the right
target with `.amdgcn_target` or `--mcpu`, or fix the register range.

The check uses LLVM 22's instruction tables. For targets LLVM documents only through a neighbour
(gfx6 uses gfx7's table, gfx1250 gfx12's) it reports only the neighbour's instructions llvm-mc 22
says the target lacks (gfx1250 has no `export`, no `image_*`); such an instruction counts for
nothing in the analyses.
"""

from collections.abc import Iterator

from amdgpu_lint.analyses.defuse import DefUseAnalysis
from amdgpu_lint.driver.rule import KernelContext
from amdgpu_lint.isa import absent_mnemonics, instruction_set, pages_with
from amdgpu_lint.model.diagnostics import Diagnostic, Severity
from amdgpu_lint.model.targets import Target

CODE = "AGL006"
NAME = "unknown-instruction"
SEVERITY = Severity.ERROR
SUMMARY = "instruction or operand form the target does not have"
SCOPE = "kernel"
REQUIRES = (DefUseAnalysis,)


def check(context: KernelContext) -> Iterator[Diagnostic]:
    target = context.module.target
    if target is None:
        return
    if not target.isa_exact:
        yield from _absent(context, target)
        return
    instructions = instruction_set(target)
    def_use = context.get(DefUseAnalysis)
    for instruction, info in zip(context.kernel.instructions, def_use.per_instruction, strict=True):
        if instruction.pair is None and info.variant is not None:
            missing = []  # the target's tables have a form of it
        else:
            halves = (instruction, instruction.pair) if instruction.pair else (instruction,)
            missing = [half.mnemonic for half in halves if half.mnemonic not in instructions]
        if missing:
            for mnemonic in missing:
                yield context.diagnostic(instruction.where, _unknown_message(mnemonic, target.name, instructions),
                                         kernel=context.kernel.name)
        elif info.problem:
            yield context.diagnostic(instruction.where, info.problem, kernel=context.kernel.name)


def _absent(context: KernelContext, target: Target) -> Iterator[Diagnostic]:
    """On a processor read with a neighbour's tables: the instructions llvm-mc says it lacks."""
    absent = absent_mnemonics(target)
    for instruction in context.kernel.instructions if absent else ():
        for half in (instruction, instruction.pair) if instruction.pair else (instruction,):
            if half.mnemonic in absent:
                yield context.diagnostic(instruction.where, f"'{half.mnemonic}' is not an instruction on {target.name} "
                                         "(llvm-mc 22: not supported on this GPU)", kernel=context.kernel.name)


def _unknown_message(mnemonic: str, target: str, instructions) -> str:
    message = f"'{mnemonic}' is not an instruction on {target}"
    elsewhere = [page for page in pages_with(mnemonic) if page != target]
    if elsewhere:
        message += f" (it exists on {', '.join(elsewhere[:4])}{', ...' if len(elsewhere) > 4 else ''})"
    guesses = instructions.suggestions(mnemonic)
    if guesses:
        message += f"; did you mean {' or '.join(repr(g) for g in guesses)}?"
    return message
