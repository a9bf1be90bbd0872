"""## What it finds
A register read (RAW) or overwritten (WAW) while a memory operation that writes it may still
be in flight on some path, with the weakest sufficient wait:
- a VMEM load (`global_load`, `buffer_load`, `flat_load`, `image_*`), an SMEM load
  (`s_load`, `s_buffer_load`), an LDS read, or an atomic that returns data;
- LDS written by `buffer_load ... lds` read back with `ds_*` before `vmcnt` drains;
- LDS written by this wave (`ds_write`, atomics) still in flight at `s_barrier`: other waves may
  read the old data;
- any vector memory operation in flight at `s_barrier` on gfx6-gfx908, which have no back-off
  barrier, and loads in flight at a cache invalidation (`buffer_gl0_inv`, `buffer_wbinvl1`, ...);
- in a non-kernel function, registers used before any wait (the caller's loads may still be in
  flight: a callee waits at entry), and returns with loads in flight.

The model follows LLVM's SIInsertWaitcnts: loads of one kind retire in order, SMEM does not,
a counter with mixed kinds of events (LDS and SMEM on `lgkmcnt`) or a FLAT access pending needs a
wait of 0, counters saturate at each generation's maximum, and loops are iterated to a fixed
point.

## Why it matters
The instruction sees the old register contents on some waves, some of the time: a silent data
race. It is the most common bug in hand-written GPU assembly.

## Example
```
global_load_dwordx4 v[4:7], v0, s[0:1]
global_load_dwordx4 v[8:11], v0, s[0:1] offset:16
v_add_f32 v12, v4, v8          ; v[4:7] and v[8:11] may still be loading
```

## How to fix
Insert the wait the message names (the fix does it), as late as possible: `s_waitcnt
vmcnt(1)` is enough for the first load when only the second may still be outstanding.
"""

from collections.abc import Iterator

from amdgpu_lint.analyses.waitcnt import LDS_DMA, LDS_STORE, WaitcntAnalysis
from amdgpu_lint.diagnostics import Diagnostic, Note, Severity
from amdgpu_lint.driver.rule import KernelContext
from amdgpu_lint.isa.defuse import format_units
from amdgpu_lint.isa.waits import wait_text

CODE = "AGL201"
NAME = "missing-wait"
SEVERITY = Severity.ERROR
SUMMARY = "register used while a memory operation on it may still be in flight"
SCOPE = "kernel"
REQUIRES = (WaitcntAnalysis,)


def check(context: KernelContext) -> Iterator[Diagnostic]:
    report = context.get(WaitcntAnalysis)
    target = context.module.target
    if report is None:
        return
    kernel = context.kernel
    for index, needs in sorted(report.missing.items()):
        instruction = kernel.instructions[index]
        counts: dict[str, int] = {}
        for need in needs:
            counts[need.counter] = min(counts.get(need.counter, need.count), need.count)
        lines = wait_text(counts, target)
        first = min(needs, key=lambda need: (need.producer is None, need.count))
        message = _message(context, instruction.mnemonic, needs, first)
        producer_notes = tuple(
            Note(f"{kernel.instructions[p].mnemonic} issued here", kernel.instructions[p].where.path,
                 kernel.instructions[p].where.line, kernel.instructions[p].where.column)
            for p in sorted({need.producer for need in needs if need.producer is not None})
        )
        insertion = " and ".join(f"`{line}`" for line in lines)
        yield context.diagnostic(
            instruction.where,
            f"{message}; insert {insertion} before this line",
            kernel=kernel.name,
            notes=producer_notes,
            fix=context.insert_before(instruction.where, lines, f"insert {insertion}"),
        )


def _message(context: KernelContext, mnemonic: str, needs, first) -> str:
    kernel = context.kernel
    producer = kernel.instructions[first.producer] if first.producer is not None else None
    origin = f"{producer.mnemonic} at {producer.where}" if producer else "the caller's memory operations"
    if first.access == "barrier-lds":
        return (f"s_barrier while LDS written by {origin} may still be in flight: other waves can read stale LDS")
    if first.access == "barrier-vmem":
        return (f"{context.module.target.name} has no back-off barrier: vector memory operations (last {origin}) "
                "must finish before s_barrier")
    if first.access == "invalidate":
        return f"{mnemonic} invalidates the cache while loads (last {origin}) are in flight"
    if first.access == "return":
        return f"'{kernel.name}' returns while {origin} may still be writing registers (callers assume nothing in flight)"
    same_access = [need for need in needs if need.access == first.access and need.producer == first.producer]
    named = {need.unit for need in same_access if need.unit not in (LDS_DMA, LDS_STORE)}
    units = format_units(named)
    plural = len(named) > 1
    if first.unit == LDS_DMA:
        return f"{mnemonic} reads LDS that {origin} may still be writing"
    if producer is None:
        return (f"{units} {'are' if plural else 'is'} used before any wait in function "
                f"'{kernel.name}': {origin} may still be writing it (a callee waits at entry)")
    verb = "read" if first.access == "read" else "overwritten"
    doing = "loading" if first.access == "read" else "being written by it"
    return f"{units} {'are' if plural else 'is'} {verb} here but may still be {doing} ({origin})"
