"""## What it finds
Loops that ask more of the compute unit's shared memory pipes than they can accept. All waves
of a CU share one vector-memory request path (one request per ~32 cycles, measured on an MI308X)
and the LDS (one ds_read_b128 per ~8 cycles). A loop trip that issues `n` such requests, run by
`W` waves per CU, needs `n x W x rate` cycles of the pipe; when that exceeds the cycles one
trip takes to issue, the loop runs at the pipe's pace, not at its own.

## Why it matters
Issue blocking stalls every wave of the CU, also those with independent work: the kernel is
bound by the request rate (and, for global memory, usually by bandwidth) rather than by ALU or
MFMA throughput. Knowing it tells you which optimisation pays: wider loads (dwordx4), fewer
requests per byte, or more work per request.

## Example
A grid-stride loop with two `global_load_dword` and one `global_store_dword` per trip at 32
waves per CU: a dword request moves a quarter of a dwordx4 one, 8 cycles, so 3 x 32 x 8 = 768
cycles of requests for a ~70-cycle trip.

## How to fix
Use wider accesses (`dwordx4`, `ds_read_b128`), move more work into each trip (unroll), or
accept it: a streaming kernel is meant to be bound by memory. The numbers come from the latency
table; override them with `--latency-table`.
"""

from collections.abc import Iterator

from amdgpu_lint.analyses.defuse import DefUseAnalysis
from amdgpu_lint.analyses.latency import request_cycles
from amdgpu_lint.analyses.prefetch import PrefetchAnalysis
from amdgpu_lint.analyses.resources import ResourceAnalysis
from amdgpu_lint.driver.rule import KernelContext
from amdgpu_lint.model.diagnostics import Diagnostic, Note, Severity

CODE = "AGL402"
NAME = "issue-oversubscription"
SEVERITY = Severity.INFO
SUMMARY = "loops needing more VMEM or LDS requests than the CU accepts"
SCOPE = "kernel"
REQUIRES = (DefUseAnalysis, PrefetchAnalysis, ResourceAnalysis)

_PIPES = (("vmem", "VMEM", "vmem_issue_per_cu"), ("ds", "LDS", "lds_issue_per_cu"))
def check(context: KernelContext) -> Iterator[Diagnostic]:
    report = context.get(PrefetchAnalysis)
    resources = context.get(ResourceAnalysis)
    if report is None or resources is None:
        return
    waves = max(1, resources.occupancy.waves_per_cu)
    kernel = context.kernel
    def_use = context.get(DefUseAnalysis)
    assert def_use is not None  # (None without a target only)
    infos = def_use.per_instruction
    for header, members in sorted(report.loops.items()):
        trip = report.trip_cycles(header)
        for unit, label, entry_name in _PIPES:
            accesses = [kernel.instructions[index].mnemonic for index in members if infos[index].klass.unit == unit]
            requests = len(accesses)
            rate = report.table[entry_name]
            per_wave = sum(request_cycles(rate, m, resources.wave_size) for m in accesses)
            needed = round(per_wave * waves)
            if not requests or needed <= trip:
                continue
            first = kernel.instructions[min(members)]
            yield context.diagnostic(
                first.where,
                f"this loop issues {requests} {label} request{'s' if requests != 1 else ''} per trip; with {waves} "
                f"waves per CU sharing the {label} pipe (one 16-byte-per-lane wave{resources.wave_size} request per "
                f"{rate.low * resources.wave_size / 64:g} cycles) "
                f"that is ~{needed} cycles of the pipe per trip, but a trip issues in ~{trip} cycles: bound by the "
                f"{label} issue rate ({needed / trip:.1f}x oversubscribed)",
                kernel=kernel.name,
                notes=(Note(f"rate: {rate.source}"),),
            )
