"""## What it finds
Statements the assembler cannot read: syntax errors (with what was expected), bad expressions,
unterminated `.macro`, `.rept` or `.if` blocks, `.include` files that cannot be found, runaway
macro or `.rept` expansion, invalid `.amdgpu_metadata` YAML, and `.err`/`#error` directives
(`.warning "text"` is a warning, as llvm-mc gives it).
Under `.altmacro`, a macro parameter named like a keyword (`vmcnt`, `lgkmcnt`) that LLVM 22
substitutes inside `vmcnt(...)`, making `s_waitcnt 2(...)`: the message says what happened, and
that LLVM 14 read the file differently (`assembler-compat = "llvm14"`, the default once a code
object v2 directive is assembled).

## Why it matters
llvm-mc would refuse the file, so the kernel never builds. Every other rule also needs the
statement: amdgpu-lint skips it and keeps going, so later findings may be incomplete.

## Example
```
v_add_f32 v0, v1,          ; operand missing after ','
.rept 4
  v_mov_b32 v0, 0          ; file ends before .endr
```

## How to fix
Correct the statement as the message says. For includes, pass `-I DIR` (or `include-dirs` in
the config); for recursion, give the macro a terminating `.if`.
"""

from collections.abc import Iterator

from amdgpu_lint.driver.rule import ModuleContext
from amdgpu_lint.model.diagnostics import Diagnostic, Severity

CODE = "AGL001"
NAME = "parse-error"
SEVERITY = Severity.ERROR
SUMMARY = "statement the assembler cannot read"


def check(context: ModuleContext) -> Iterator[Diagnostic]:
    yield from context.report_findings()
