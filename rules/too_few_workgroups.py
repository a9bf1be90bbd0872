"""## What it finds
With `--grid X[,Y,Z]` and `--device NAME` (or `--cus N`): launches that leave compute units
idle because there are fewer work-groups than CUs, or that fill the device only partly in
their one and only round of work-groups. Work-groups are counted per CU, or per WGP in gfx10+
WGP mode (the default; `.amdhsa_workgroup_processor_mode 0` is CU mode), up to as many as every
limiter allows on one: the waves per SIMD that VGPRs, SGPRs and wave slots allow, the LDS in the
dispatcher's whole allocation units, and barriers.

## Why it matters
Theoretical occupancy says how many waves fit on a CU; achieved occupancy also depends on
there being enough work-groups to place. A 64-work-group grid on a 304-CU MI300X runs on a
fifth of the chip whatever the kernel's occupancy.

## Example
`amdgpu-lint check --grid 64 --device MI300X gemm.s`

## How to fix
Launch more, smaller work-groups (split K, tile smaller), or run independent kernels
concurrently on separate streams.
"""

from collections.abc import Iterator

from amdgpu_lint.analyses.perfmodel.launch import fill
from amdgpu_lint.analyses.resources import ResourceAnalysis
from amdgpu_lint.driver.rule import KernelContext
from amdgpu_lint.model.diagnostics import Diagnostic, Severity

CODE = "AGL106"
NAME = "too-few-workgroups"
SEVERITY = Severity.WARNING
SUMMARY = "launch grid too small to fill the device"
SCOPE = "kernel"
REQUIRES = (ResourceAnalysis,)


def check(context: KernelContext) -> Iterator[Diagnostic]:
    options = context.module.options
    resources = context.get(ResourceAnalysis)
    kernel = context.kernel
    target = context.module.target  # never None with resources: the analysis needs a target
    if resources is None or target is None or options is None or options.launch is None or not kernel.is_kernel:
        return
    launch = options.launch
    result = fill(launch, target, resources.occupancy, resources.cumode)
    device = launch.device or f"{launch.compute_units} CUs"
    unit = result.unit
    fit = f"{result.per_unit} work-groups of {resources.wg_size} fit per {unit}, limited by {' and '.join(result.limiter)}"
    if result.workgroups < result.units:
        yield context.diagnostic(
            kernel.where,
            f"{result.workgroups} work-groups leave {result.units - result.workgroups} of {result.units} {unit}s of "
            f"{device} idle ({fit})",
            kernel=kernel.name,
        )
    elif result.waves == 1 and result.last_wave_efficiency < 0.5:
        yield context.diagnostic(
            kernel.where,
            f"{result.workgroups} work-groups fill {result.last_wave_efficiency:.0%} of the "
            f"{result.slots_per_wave} work-group slots of {device} ({fit}): each {unit} runs fewer waves than it could",
            kernel=kernel.name,
            severity=Severity.INFO,
        )
