"""## What it finds
A wait that retires nothing: on every path into it, no operation it waits for is outstanding
beyond its count (nothing was issued since the last wait, or an earlier wait already covered
it).

## Why it matters
Each `s_waitcnt` costs an issue slot and, worse, documents a dependency that is not there;
the next edit moves a load and nobody knows which wait protects it.

## Example
```
s_waitcnt vmcnt(0)
v_add_f32 v1, v0, v0
s_waitcnt vmcnt(0)      ; nothing was issued since the first wait
```

A wait in a macro or `.rept` body is reported only when every expansion of it waits for nothing.
`s_wait_xcnt` is never reported: when an address translation is done is inferred, not known; nor
is gfx1250's `s_wait_asynccnt`, since not everything that counts on it is modelled (the async
barrier arrive).

## How to fix
Delete it.
"""

from collections.abc import Iterator

from amdgpu_lint.analyses.waitcnt import WaitcntAnalysis
from amdgpu_lint.driver.rule import KernelContext
from amdgpu_lint.model.diagnostics import Diagnostic, Severity

CODE = "AGL202"
NAME = "redundant-wait"
SEVERITY = Severity.WARNING
SUMMARY = "wait for which nothing is outstanding"
SCOPE = "kernel"
REQUIRES = (WaitcntAnalysis,)


def check(context: KernelContext) -> Iterator[Diagnostic]:
    report = context.get(WaitcntAnalysis)
    if report is None:
        return
    instructions = context.kernel.instructions
    # a wait written once in a macro or .rept body is one line of source for all its expansions:
    # only when every expansion waits for nothing can the line be deleted
    useless = set(report.useless_waits)
    useful_lines = {(instructions[index].where.path, instructions[index].where.line)
                    for index in report.states_before if index not in useless}
    reported: set[tuple[str, int]] = set()
    for index in report.useless_waits:
        instruction = instructions[index]
        line = (instruction.where.path, instruction.where.line)
        if line in useful_lines or line in reported:
            continue
        reported.add(line)
        yield context.diagnostic(
            instruction.where,
            f"{instruction.mnemonic} waits for nothing: no memory operation it counts is outstanding here on any path",
            kernel=context.kernel.name,
        )
