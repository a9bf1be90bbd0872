"""## What it finds
Directives the AMDGPU assembler does not know: typos such as `.amdhsa_next_free_vgrp`, GNU-as
directives LLVM does not implement, `.amdhsa_*` keys that do not exist, and C-preprocessor
directives amdgpu-lint cannot follow (function-like `#define`).

## Why it matters
llvm-mc rejects an unknown directive; a misspelt `.amdhsa_*` key means the kernel descriptor
silently keeps its default (for example no `.amdhsa_reserve_vcc 0`).

## Example
```
.amdhsa_kernel gemm
  .amdhsa_next_free_vgrp 128     ; typo: the descriptor has no VGPR count
```

## How to fix
Use the directive the message suggests, or remove it.
"""

from collections.abc import Iterator

from amdgpu_lint.driver.rule import ModuleContext
from amdgpu_lint.frontend.directives import KNOWN_DIRECTIVES, NON_HSA_ONLY, REMOVED, is_known
from amdgpu_lint.frontend.metadata import AMDHSA_DIRECTIVES
from amdgpu_lint.model.diagnostics import Diagnostic, Severity

CODE = "AGL002"
NAME = "unknown-directive"
SEVERITY = Severity.WARNING
SUMMARY = "directive the assembler does not know"

_CANDIDATES = sorted(KNOWN_DIRECTIVES | {f".amdhsa_{key}" for key in AMDHSA_DIRECTIVES})


def check(context: ModuleContext) -> Iterator[Diagnostic]:
    yield from context.report_findings()
    module = context.module
    # amdhsa by its triple or, without `.amdgcn_target`, by what only amdhsa files contain
    hsa = "amdhsa" in (module.target_triple or "") or (module.target_triple is None and (
        (module.code_object_version or 0) >= 3 or any(kernel.descriptor_where for kernel in module.kernels)))
    for statement, where in context.module.directives:
        if statement.name in REMOVED:
            yield context.diagnostic(
                where, f"'{statement.name}' is a code-object-v2 directive that LLVM 22 no longer accepts; remove it"
                " (the code object version comes from .amdhsa_code_object_version or the assembler's option)")
            continue
        if hsa and statement.name in NON_HSA_ONLY:
            yield context.diagnostic(
                where,
                f"'{statement.name}' is a code-object-v2 directive that LLVM 22 rejects for amdhsa targets; "
                "describe the kernel with .amdhsa_kernel instead",
            )
            continue
        if is_known(statement.name):
            continue
        import difflib  # only when a directive is unknown: a clean file does not load it

        guess = difflib.get_close_matches(statement.name, _CANDIDATES, n=1, cutoff=0.75)
        hint = f"; did you mean '{guess[0]}'?" if guess else ""
        yield context.diagnostic(where, f"unknown directive '{statement.name}'{hint}")
