"""## What it finds
Vector-memory loads inside a loop whose result is waited for too soon: the independent work
one wave issues between the load and the `s_waitcnt` that retires it, times the waves per SIMD
that can run while it waits, is shorter than the memory latency of the target (the latency
table: 500-800 cycles for HBM on gfx942, measured on an MI308X; LLVM's scheduling model where
nothing was measured; your own with `--latency-table`). The walk follows the loop, so a load issued
for the next iteration counts the rest of this iteration. One finding per wait, at the load issued
last before it (it decides how much latency is exposed), naming the other loads the wait retires.
Loads from scratch (spill reloads, `scratch_*` or through the private segment buffer) are left to
`scratch-spill`.

## Why it matters
Every cycle of latency not covered by work or by other waves is a cycle the SIMD idles. In a
GEMM main loop this is the difference between compute-bound and memory-bound.

## Example
```
buffer_load_dwordx4 v[80:83], v1, s[8:11], 0 offen
s_waitcnt vmcnt(0)                 ; ~4 cycles later; HBM needs 500-800
ds_write_b128 v2, v[80:83]
```

## How to fix
Issue the load earlier (the message says how many instructions of this loop that is), or
software-pipeline: load the tile for iteration i+1 while computing iteration i, and wait for
it at the end of the iteration. Raising occupancy also hides latency.
"""

import math
from collections.abc import Iterator

from amdgpu_lint.analyses.defuse import through_private_segment
from amdgpu_lint.analyses.prefetch import LoadDistance, PrefetchAnalysis
from amdgpu_lint.analyses.resources import ResourceAnalysis
from amdgpu_lint.driver.rule import KernelContext
from amdgpu_lint.model.diagnostics import Diagnostic, Note, Severity

CODE = "AGL401"
NAME = "short-prefetch"
SEVERITY = Severity.WARNING
SUMMARY = "loop loads waited for before the memory latency can be hidden"
SCOPE = "kernel"
REQUIRES = (PrefetchAnalysis, ResourceAnalysis)


def check(context: KernelContext) -> Iterator[Diagnostic]:
    report = context.get(PrefetchAnalysis)
    target = context.module.target
    if report is None or target is None:  # the analysis is None without a target
        return
    resources = context.get(ResourceAnalysis)
    waves = max(1, resources.occupancy.waves_per_simd) if resources is not None else 1
    latency = report.table["vmem_load"]
    kernel = context.kernel
    by_wait: dict[int, list[LoadDistance]] = {}
    for load in report.loads:
        if load.loop is None or load.wait is None or load.cycles * waves >= latency.low:
            continue
        if through_private_segment(kernel.instructions[load.load]):
            continue  # a spill reload: scratch-spill is the finding there
        by_wait.setdefault(load.wait, []).append(load)
    for wait_index, loads in by_wait.items():
        load = min(loads, key=lambda entry: (entry.cycles, entry.load))  # the latest issued decides the exposure
        loop = load.loop
        if loop is None:  # kept only with a loop, above
            continue
        average = report.trip_cycles(loop) / len(report.loops[loop])  # cycles per instruction
        instruction = kernel.instructions[load.load]
        wait = kernel.instructions[wait_index]
        exposed = latency.high - load.cycles * waves
        earlier = math.ceil((latency.high / waves - load.cycles) / average)
        span = f"{latency.low}-{latency.high}" if latency.low != latency.high else f"{latency.low}"
        at = f"line {wait.where.line}" if wait.where.path == instruction.where.path else str(wait.where)
        others = sorted(entry.load for entry in loads if entry is not load)
        also = f" (as {len(others)} other load{'s' if len(others) != 1 else ''} of this loop)" if others else ""
        yield context.diagnostic(
            instruction.where,
            f"{instruction.mnemonic} is waited for at {at}{also} after ~{load.cycles} cycles of work; VMEM load latency "
            f"on {target.name} is {span} cycles: ~{exposed} cycles exposed per wave with {waves} "
            f"wave{'s' if waves != 1 else ''}/SIMD to hide it; issue it >= {earlier} instructions earlier or "
            f"prefetch one iteration ahead",
            kernel=kernel.name,
            notes=(Note(f"latency: {latency.source}"), Note("the wait", wait.where.path, wait.where.line, wait.where.column),
                   *(Note("also waited for there", where.path, where.line, where.column)
                     for where in (kernel.instructions[index].where for index in others))),
        )
