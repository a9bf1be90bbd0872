"""## What it finds
Kernels whose occupancy fell compared with a baseline written by `amdgpu-lint baseline`
(pass it with `--baseline FILE` or `baseline = "..."` in the configuration), naming the new
limiter and what to free to get back.

The snapshot names each file by its path relative to the directory of the configuration
(`pyproject.toml` or `.amdgpu-lint.toml`) that governs it, so a snapshot written at the
repository root matches a check run from any subdirectory. Without a configuration, paths are
relative to the snapshot's own directory (`baseline -o FILE`; written to stdout: the current
directory, so redirect it into the directory you run from). Snapshots written by earlier
versions (no `paths_relative_to` entry) still match checks run from where they were written.

## Why it matters
Occupancy cliffs are discrete: one extra VGPR on gfx90a (64 -> 65) costs a whole wave per
SIMD. In review, the diff looks harmless; the profiler shows it weeks later.

## Example
```
occupancy of 'gemm' fell from 8 to 7 waves/SIMD: VGPR+AGPR limiter (65 VGPRs);
free 1 VGPR+AGPR (65 -> 64)
```

## How to fix
Undo the register or LDS growth the message points at, or refresh the baseline with
`amdgpu-lint baseline` when the trade-off is intended.
"""

from collections.abc import Iterator
from pathlib import Path

from amdgpu_lint.analyses.resources import ResourceAnalysis
from amdgpu_lint.driver.rule import KernelContext
from amdgpu_lint.model.diagnostics import Diagnostic, Severity

from .occupancy_below_target import describe_limit

CODE = "AGL105"
NAME = "occupancy-regression"
SEVERITY = Severity.ERROR
SUMMARY = "occupancy lower than in the baseline"
SCOPE = "kernel"
REQUIRES = (ResourceAnalysis,)


def baseline_key(path: str, kernel: str) -> str:
    """The snapshot's key for `kernel` in the file at `path`, as read into memory (absolute path; see driver/baseline.py)."""
    return f"{Path(path).resolve().as_posix()}::{kernel}"


def check(context: KernelContext) -> Iterator[Diagnostic]:
    options = context.module.options
    resources = context.get(ResourceAnalysis)
    if resources is None or options is None or not options.baseline:
        return
    before = options.baseline.get("kernels", {}).get(baseline_key(context.module.path, context.kernel.name))
    if not before:
        return
    was, now = before.get("waves_per_simd"), resources.occupancy.waves_per_simd
    if not isinstance(was, int) or now >= was:
        return
    changes = [f"{name} {before[key]} -> {value}" for name, key, value in (
        ("VGPR", "vgpr", resources.vgprs), ("SGPR", "sgpr", resources.sgprs), ("LDS", "lds_bytes", resources.lds_bytes),
    ) if key in before and before[key] != value]
    steps = "; ".join(resources.occupancy.next_step)
    yield context.diagnostic(
        context.kernel.where,
        f"occupancy of '{context.kernel.name}' fell from {was} to {now} waves/SIMD "
        f"({', '.join(changes) or 'no resource change recorded'}): limited by {describe_limit(resources)}"
        + (f"; {steps}" if steps else ""),
        kernel=context.kernel.name,
    )
