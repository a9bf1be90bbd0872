"""## What it finds
Cross-wave LDS races: in one work-group, an LDS write by one wave (`ds_write`/`ds_store`, DS atomics,
an LDS DMA: `buffer_load ... lds`, `global_load_lds_*`) and a read or write of an overlapping LDS range by
another wave with no barrier between them on some path, or only a barrier that the writer's counter
(`lgkmcnt`/`dscnt`; `vmcnt`/`loadcnt` for a DMA) was not drained before. Paths go around loop back edges:
a double buffer whose base toggles per iteration (`s_xor_b32` on an SGPR base or on M0, `v_xor_b32` on a
lane offset; registers toggled together stay together) or a triple buffer whose base steps and wraps
(`s_add_u32`, then `s_cmp_eq_u32` and `s_cselect_b32`) is followed phase by phase, so a loop that writes one
iteration's buffer and reads it in the next without a barrier between is found, and one that reads one
buffer while it fills another is not.

Each access gets an abstract address: a uniform base (a constant, a symbol, a kernel-uniform SGPR value, a
loop phase of up to four values) plus multiples of the lane id and of the wave id. The work-item id (v0 of
a one-dimensional work-group) is the lane plus the wave size times the wave; `v_mbcnt` gives the lane,
`v_lshrrev_b32 v1, 6, v0` (wave64) the wave, `v_and_b32 v1, 63, v0` the lane, and `v_readfirstlane_b32`
keeps a wave id, so per-wave buffers are told apart. An error where the ranges of two waves overlap on
every phase and both accesses run in every wave (full EXEC, branches on values alike in every wave); a
warning naming the reason where an overlap cannot be excluded (on some phases only, or under EXEC masks
and wave-dependent branches); nothing where the ranges are apart, or an address is beyond the analysis
(a mask or shift that splits the lane id, a value read from memory into a VGPR, a counter with more than
four values): production kernels mostly build their LDS addresses that way, and
the rule stays quiet on them. Writes of the same bytes by every wave (the address and the data alike in
every wave) race with no read and no like write; atomics do not race with atomics. A barrier whose missing
drain missing-wait (AGL201) already reports counts as drained here. A work-group of one wave
(`.reqd_workgroup_size`, `.max_flat_workgroup_size` at most the wave size, `--wg-size`) has no cross-wave
race, and a kernel whose work-group size nothing states (no metadata, no `--wg-size`) is not checked: it
may be launched one wave per work-group. Non-kernel functions are not checked. v0 is taken as the
work-item id where the descriptor enables only the X id: a kernel that reads only X but is launched with
a two-dimensional work-group is beyond the rule.

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
