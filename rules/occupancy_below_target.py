"""## What it finds
Kernels whose occupancy (waves per SIMD, computed exactly as LLVM does) is below the minimum
you require: `--min-waves N`, `min-waves = N` in the configuration, or a comment inside the
kernel: `; amdgpu-lint: min-waves=4`. The message names the limiting resource and what to
change for one more wave.

## Why it matters
Memory latency is hidden by switching between waves. A GEMM or streaming kernel tuned for 4
waves that silently drops to 3 after an edit loses a quarter of its latency hiding.

## Example
```
gemm:   ; amdgpu-lint: min-waves=4
  ...   ; 132 VGPRs on gfx90a: 3 waves/SIMD
```

## How to fix
Follow the next step in the message (free N VGPRs, shrink LDS, change the work-group size),
or lower the requirement if the kernel does not need the waves.
"""

import re
from collections.abc import Iterator

from amdgpu_lint.analyses.resources import ResourceAnalysis
from amdgpu_lint.driver.rule import KernelContext
from amdgpu_lint.model.diagnostics import Diagnostic, Severity

CODE = "AGL104"
NAME = "occupancy-below-target"
SEVERITY = Severity.WARNING
SUMMARY = "occupancy below the configured minimum waves per SIMD"
SCOPE = "kernel"
REQUIRES = (ResourceAnalysis,)

_REQUIREMENT = re.compile(r"amdgpu-lint:\s*min-waves\s*=\s*(\d+)")


def required_waves(context: KernelContext) -> int | None:
    """A `min-waves=N` comment on the kernel's lines (or just above them), else the option."""
    kernel = context.kernel
    if kernel.instructions:
        first, last = kernel.instructions[0].where, kernel.instructions[-1].where
        source = context.module.sources.get(first.path)
        if source is not None:
            end = last.line if last.path == first.path else first.line
            comments = source.comments
            for line in range(max(first.line - 3, 1), end + 1):
                match = line in comments and _REQUIREMENT.search(comments[line])
                if match:
                    return int(match.group(1))
    options = context.module.options
    return options.min_waves if options is not None else None


def describe_limit(resources) -> str:
    occupancy = resources.occupancy
    details = {"SGPR": f"{resources.sgprs} SGPRs", "LDS": f"{resources.lds_bytes} bytes of LDS",
               "workgroup slots": f"work-groups of {resources.wg_sizes}"}
    parts = [f"{name} ({details.get(name, f'{resources.inputs.vgprs} VGPRs')})" for name in occupancy.limiters]
    return ", ".join(parts)


def check(context: KernelContext) -> Iterator[Diagnostic]:
    resources = context.get(ResourceAnalysis)
    wanted = required_waves(context)
    if resources is None or wanted is None:
        return
    waves = resources.occupancy.waves_per_simd
    if waves >= wanted:
        return
    steps = "; ".join(resources.occupancy.next_step) or "no single change reaches it"
    yield context.diagnostic(
        context.kernel.where,
        f"occupancy of '{context.kernel.name}' is {waves} waves/SIMD, below the required {wanted}: "
        f"limited by {describe_limit(resources)}; for {waves + 1}: {steps}",
        kernel=context.kernel.name,
    )
