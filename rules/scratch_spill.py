"""## What it finds
Kernels that use scratch (private) memory: register spills (`.vgpr_spill_count`,
`.sgpr_spill_count` in the metadata) or a private segment (`.private_segment_fixed_size`),
which comes from stack objects or arrays indexed at run time.

## Why it matters
Scratch lives in video memory behind the caches: every spill is a store and a reload with
VMEM latency (hundreds of cycles on CDNA), and scratch allocation can itself limit how many
waves the device runs.

## Example
LLVM output for a kernel with 300 live floats: `.vgpr_spill_count: 48`,
`.private_segment_fixed_size: 196`.

## How to fix
Reduce register pressure (smaller tiles, fewer live accumulators, `__launch_bounds__` that
lets the compiler use more registers), or replace run-time-indexed private arrays with
registers or LDS.
"""

from collections.abc import Iterator

from amdgpu_lint.analyses.resources import ResourceAnalysis
from amdgpu_lint.driver.rule import KernelContext
from amdgpu_lint.model.diagnostics import Diagnostic, Severity

CODE = "AGL103"
NAME = "scratch-spill"
SEVERITY = Severity.WARNING
SUMMARY = "register spills or private (scratch) memory"
SCOPE = "kernel"
REQUIRES = (ResourceAnalysis,)
_WITHOUT_SCRATCH = {"vgpr": "AGPRs", "sgpr": "VGPR lanes"}  # where spills go when the kernel has no scratch


def check(context: KernelContext) -> Iterator[Diagnostic]:
    resources = context.get(ResourceAnalysis)
    kernel = context.kernel
    if resources is None:
        return
    metadata = kernel.metadata or {}
    spills = {kind: metadata.get(f".{kind}_spill_count") or 0 for kind in ("vgpr", "sgpr")}
    where = kernel.where
    if any(spills.values()):
        counts = " and ".join(f"{count} {kind.upper()}s" for kind, count in spills.items() if count)
        what = f"{counts} to scratch ({resources.scratch_bytes} bytes per lane)"
        if not resources.scratch_bytes:  # no scratch: LLVM put SGPRs in VGPR lanes (v_writelane_b32), VGPRs in AGPRs
            what = " and ".join(f"{count} {kind.upper()}s to {_WITHOUT_SCRATCH[kind]}"
                                for kind, count in spills.items() if count) + " (no scratch)"
        yield context.diagnostic(
            where,
            f"kernel '{kernel.name}' spills {what}; "
            f"occupancy {resources.occupancy.waves_per_simd} waves/SIMD",
            kernel=kernel.name,
        )
    elif resources.scratch_bytes:
        yield context.diagnostic(
            where,
            f"kernel '{kernel.name}' uses {resources.scratch_bytes} bytes of scratch per lane "
            "(stack objects or arrays indexed at run time)",
            kernel=kernel.name,
            severity=Severity.INFO,
        )
