"""## What it finds
A file whose target processor is unknown: no `.amdgcn_target` directive, no `--mcpu` and no
`mcpu` in the configuration, or a processor name LLVM 22 does not know (`gfx943`).

## Why it matters
Register files, occupancy limits, wait counters and hazards all depend on the processor.
Without one, only target-independent rules run.

## Example
A hand-written kernel without `.amdgcn_target`, linted as `amdgpu-lint check kernel.s`.

## How to fix
Add `.amdgcn_target "amdgcn-amd-amdhsa--gfx942"` to the file, pass `--mcpu gfx942`, or set
`mcpu = "gfx942"` under `[tool.amdgpu-lint]` in pyproject.toml.
"""

from collections.abc import Iterator

from amdgpu_lint.driver.rule import ModuleContext
from amdgpu_lint.model.diagnostics import Diagnostic, Severity

CODE = "AGL004"
NAME = "unknown-target"
SEVERITY = Severity.ERROR
SUMMARY = "target processor missing or unknown"


def check(context: ModuleContext) -> Iterator[Diagnostic]:
    yield from context.report_findings()
