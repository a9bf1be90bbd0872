"""## What it finds
A symbol counted into one register file and used to index the other: MIOpen-style allocator
macros hand out register numbers from a counter (`.set name, .SGPR_NEXT_FREE` then
`.set .SGPR_NEXT_FREE, .SGPR_NEXT_FREE + count`), and `v[name]` with `name` from the SGPR block
(or `s[name]` from the VGPR block) names a register nothing allocated for it. Which file a counter
hands out comes from its name or its allocator macro's (`SGPR`, `VGPR`, `AGPR`), else from how
its other symbols index registers when all of them (at least three) agree. Symbols set to plain
numbers, and counters whose file cannot be told, are left alone.

## Why it matters
The assembler accepts any number as a register index, so the code reads and writes a register
that belongs to something else (or to nothing): a wrong result that can go unnoticed for years,
because the number is often small enough to be a live register of the other file.

## Example
```
.SGPR_ALLOC f_gpr            ; f_gpr = 5, an SGPR number
.VGPR_ALLOC v_acc, 4
v_mov_b32 v[f_gpr], 0        ; v5 belongs to v_acc
```

## How to fix
Allocate the register in the file it is used in (`.VGPR_ALLOC f_vgpr`), or index the file it
was counted for (`s[f_gpr]`).
"""

from collections.abc import Iterator

from amdgpu_lint.driver.rule import ModuleContext
from amdgpu_lint.model.diagnostics import Diagnostic, Severity

CODE = "AGL010"
NAME = "register-file-mixup"
SEVERITY = Severity.WARNING
SUMMARY = "register index counted into one register file used in the other"


def check(context: ModuleContext) -> Iterator[Diagnostic]:
    yield from context.report_findings()
