"""## What it finds
A kernel instruction reading a register that no path from the kernel entry has written and
that the hardware does not set up: not one of the kernel's user or system SGPRs, not a
work-item ID VGPR, not EXEC. Typically an off-by-one in a `.set` register allocation, a
macro argument naming the wrong register, or a VGPR read before its load.

A plain move of such a register is not reported: the copy holds garbage in turn and is
reported where it is used (saving and restoring a register around a call, or M0 around a
message, uses nothing). Likewise the high half of a `v_mad_u64_u32` addend, which reaches only
the result's high half and carry, and LLVM's flat-scratch setup in a kernel without scratch,
which adds the absent private-segment wave offset SGPR into a flat_scratch nothing uses.

## Why it matters
The register holds whatever the previous wave left there: results are wrong only sometimes,
and only on some hardware.

## Example
```
.amdhsa_kernel k
  .amdhsa_user_sgpr_kernarg_segment_ptr 1     ; s[0:1]
  .amdhsa_system_vgpr_workitem_id 0           ; v0 only
...
  v_add_u32 v2, v0, v1        ; v1 was never written
```

## How to fix
Write the register before reading it, or enable the input in the kernel descriptor
(`.amdhsa_system_vgpr_workitem_id 1` provides v1 on targets without packed work-item IDs).

Only kernels with an `.amdhsa_kernel` descriptor are checked (their entry state is known; a
function's comes from its caller, a graphics shader's from the pipeline), and only code
reachable from the entry; registers read after a call are not judged.
"""

from collections.abc import Iterator

from amdgpu_lint.analyses.initialized import InitializedAnalysis
from amdgpu_lint.driver.rule import KernelContext
from amdgpu_lint.isa.defuse import format_units
from amdgpu_lint.model.diagnostics import Diagnostic, Severity

CODE = "AGL007"
NAME = "uninitialized-register"
SEVERITY = Severity.WARNING
SUMMARY = "register read before any write on every path"
SCOPE = "kernel"
REQUIRES = (InitializedAnalysis,)


def check(context: KernelContext) -> Iterator[Diagnostic]:
    result = context.get(InitializedAnalysis)
    if result is None:
        return
    for index, units in sorted(result.reads.items()):
        instruction = context.kernel.instructions[index]
        message = (f"{format_units(units)} {'is' if len(units) == 1 else 'are'} read by {instruction.mnemonic} "
                   "but never written on any path from the kernel entry")
        copies = result.copied.get(index)
        if copies:
            message += f" ({format_units(copies)} {'holds a value' if len(copies) == 1 else 'hold values'} derived from such a register)"
        yield context.diagnostic(instruction.where, message, kernel=context.kernel.name)
