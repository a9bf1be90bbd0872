"""## What it finds
References to names that are never defined: a branch or call to a label that does not exist,
a register index expression (`v[vgprA+1]`) using a symbol with no `.set`, a local label
reference `1f` with no later `1:`, and an `.amdhsa_kernel` descriptor with no code label.

## Why it matters
The assembler fails, or (for external symbols) the loader does. A misspelt branch target in a
loop is the typical case after editing a hand-written kernel.

## Example
```
.LBB0_1:
  ...
  s_cbranch_scc1 .LBB0_l        ; typo: should be .LBB0_1
```

## How to fix
Define the label or symbol, or correct the name (the message suggests the closest one).
"""

from collections.abc import Iterator

from amdgpu_lint.analyses.cfg import branch_label, is_branch
from amdgpu_lint.driver.rule import ModuleContext
from amdgpu_lint.model.diagnostics import Diagnostic, Severity

CODE = "AGL003"
NAME = "undefined-symbol"
SEVERITY = Severity.ERROR
SUMMARY = "branch target or symbol that is never defined"

_CALLS = frozenset(("s_call_b64", "s_call_i64"))


def check(context: ModuleContext) -> Iterator[Diagnostic]:
    yield from context.report_findings()
    module = context.module
    for kernel in module.kernels:
        for instruction in kernel.instructions:
            if not (is_branch(instruction.mnemonic) or instruction.mnemonic in _CALLS):
                continue
            label = branch_label(instruction)
            if label is None or label in module.defined_labels or label in module.symbols:
                continue
            import difflib  # only when a label is undefined: a clean file does not load it

            guess = difflib.get_close_matches(label, sorted(module.defined_labels), n=1, cutoff=0.7)
            hint = f"; did you mean '{guess[0]}'?" if guess else ""
            yield context.diagnostic(
                instruction.where,
                f"{instruction.mnemonic} target '{label}' is not defined{hint}",
                kernel=kernel.name,
            )
