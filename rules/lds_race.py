"""## What it finds
Cross-wave LDS races: in one work-group, an LDS write by one wave (`ds_write`/`ds_store`, DS atomics,
an LDS DMA: `buffer_load ... lds`, `global_load_lds_*`) and a read or write of an overlapping LDS range by
another wave with no barrier between them on some path, or only a barrier that the writer's counter
(`lgkmcnt`/`dscnt`; `vmcnt`/`loadcnt` for a DMA) was not drained before. Paths go around loop back edges:
a double or triple buffer whose base toggles per iteration (`s_xor_b32`/`s_add_u32` on an SGPR base,
`v_xor_b32` on a lane offset) is followed phase by phase, so a loop that writes one iteration's buffer and
reads it in the next iteration without a barrier between is found, and one that reads one buffer while it
fills the other is not.

Each access gets an abstract address: a uniform base (a constant, a symbol, a kernel-uniform SGPR value, a
loop phase) plus a multiple of the work-item id (v0 of a one-dimensional work-group) or of the lane id
(`v_mbcnt`). An error where the ranges overlap on every phase and both accesses run in every wave (full
EXEC, branches on uniform values only); a warning naming the reason where an overlap cannot be excluded
(on some phases only, or under EXEC masks and wave-dependent branches); nothing where the ranges are apart
or an address is beyond the analysis (a shift right, a mask, a wave id from `v_readfirstlane`): most
production kernels build their LDS addresses that way, and the rule stays quiet on them. A barrier whose
missing drain missing-wait (AGL201) already reports counts as drained here. A work-group of one wave
(`.reqd_workgroup_size`, `.max_flat_workgroup_size` at most the wave size, `--wg-size`) has no cross-wave
race; non-kernel functions are not checked.

## Why it matters
Waves of a work-group run at their own pace: without a barrier another wave may read the LDS before this
wave's write lands, or overwrite it while this wave still reads (a stale or torn tile in a GEMM or
attention kernel). The result changes from run to run and device to device.

## Example
```
v_lshlrev_b32 v1, 2, v0          ; tid * 4
ds_write_b32 v1, v2
s_waitcnt lgkmcnt(0)
ds_read_b32 v3, v1 offset:4      ; reads tid + 1's element: another wave's for tid = 63
```

## How to fix
Put `s_waitcnt lgkmcnt(0)` (`vmcnt(0)` after an LDS DMA; `s_wait_dscnt 0` on gfx12) and `s_barrier`
(`s_barrier_signal -1` / `s_barrier_wait -1` on gfx12) on every path between the two accesses; in a
double-buffered loop, between the writes of one iteration and the reads of that buffer in the next.
"""

from collections.abc import Iterator

from amdgpu_lint.analyses.ldsrace import LdsRaceAnalysis
from amdgpu_lint.driver.rule import KernelContext
from amdgpu_lint.model.diagnostics import Diagnostic, Note, Severity

CODE = "AGL204"
NAME = "lds-race"
SEVERITY = Severity.ERROR
SUMMARY = "LDS accessed by two waves with no barrier between (cross-wave race)"
SCOPE = "kernel"
REQUIRES = (LdsRaceAnalysis,)


def check(context: KernelContext) -> Iterator[Diagnostic]:
    report = context.get(LdsRaceAnalysis)
    if report is None:
        return
    kernel = context.kernel
    instructions = kernel.instructions
    for second, races in sorted(report.races.items()):
        shown = [race for race in races if race.shown]
        chosen = shown or races
        first = chosen[0]
        here = instructions[second]
        writer = instructions[first.first]
        same = first.first == second
        if same:
            what = f"{here.mnemonic} in two waves of a work-group writes overlapping LDS"
        else:
            verb = "writes" if report.accesses[second].writes else "reads"
            what = (f"{here.mnemonic} {verb} LDS that another wave's {writer.mnemonic} at line {writer.where.line} "
                    f"{'writes' if report.accesses[first.first].writes else 'reads'}")
        barrier = "s_barrier_signal/s_barrier_wait" if context.module.target and context.module.target.major >= 12 \
            else "s_barrier"
        tail = (f"; no {barrier} after its counter is drained lies between them on some path"
                f" ({report.threads} work-items, wave{report.wave})")
        notes = tuple(Note(f"{instructions[race.first].mnemonic} accesses it here", instructions[race.first].where.path,
                           instructions[race.first].where.line, instructions[race.first].where.column)
                      for race in chosen if race.first != second)
        if shown:
            yield context.diagnostic(here.where, what + tail, kernel=kernel.name, notes=notes)
        else:
            yield context.diagnostic(here.where, f"{what} may race: {first.reason}{tail}", kernel=kernel.name,
                                     notes=notes, severity=Severity.WARNING)
