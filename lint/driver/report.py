"""The report document: per kernel, what the analyses found (resources, occupancy, what-if, launch fill).

Every report format (text, JSON, HTML, plots) and the baseline read this one document."""

from __future__ import annotations

from functools import partial

from ..analyses.cfg import CFGAnalysis
from ..analyses.launch import fill
from ..analyses.manager import AnalysisManager
from ..analyses.occupancy import size_spread, what_if_json, what_if_range
from ..analyses.resources import KernelResources, ResourceAnalysis
from ..model.ir import Kernel, Module
from .linter import worth_sharing

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def kernel_reports(kernels: list[tuple[Module, Kernel]], processes: int = 1,
                   simulation: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """`kernel_report` of each kernel, with `add_simulation(**simulation)` when given; with two `processes` and
    one long file (`linter.worth_sharing`), a forked copy works out the first half."""
    work = partial(_reports, simulation=simulation)
    module = kernels[0][0] if kernels else None
    if len(kernels) < 2 or any(other is not module for other, _ in kernels) or (
            worth_sharing(module.sources.get(module.path), processes) < 2):
        return work(kernels)
    from .forks import in_two

    return in_two(work, kernels, [len(kernel.instructions) for _, kernel in kernels])


def _reports(kernels: list[tuple[Module, Kernel]], simulation: dict[str, Any] | None) -> list[dict[str, Any]]:
    reports = []
    for module, kernel in kernels:
        report = kernel_report(module, kernel)
        if simulation is not None:
            add_simulation(module, kernel, report, **simulation)
        reports.append(report)
    return reports


def kernel_report(module: Module, kernel: Kernel) -> dict[str, Any]:
    manager = AnalysisManager(module, kernel)
    cfg = manager.get(CFGAnalysis)
    resources = manager.get(ResourceAnalysis)
    report = {
        "path": module.path,
        "name": kernel.name,
        "target": str(module.target) if module.target else None,
        "family": module.target.family if module.target else None,
        "kind": "kernel" if kernel.is_kernel else "function",
        "line": kernel.where.line,
        "instructions": len(kernel.instructions),
        "basic_blocks": len(cfg.blocks),
        "code_object_version": module.code_object_version,
        "descriptor": kernel.descriptor or None,
        "metadata": kernel.metadata,
        "kernel_code_t": kernel.kernel_code_t,
    }
    if resources is not None and module.target is not None:
        report.update(resource_report(module, kernel, resources))
    return report


def resource_report(module: Module, kernel: Kernel, resources: KernelResources) -> dict[str, Any]:
    target = module.target
    occupancy = resources.occupancy
    report: dict[str, Any] = {
        "wave_size": resources.wave_size,
        "cumode": resources.cumode,
        "vgpr": resources.vgprs,
        "arch_vgpr": resources.arch_vgprs,
        "agpr": resources.agprs,
        "sgpr": resources.sgprs,
        "allocated_vgpr": resources.allocated_vgprs,
        "allocated_sgpr": resources.allocated_sgprs,
        "usage_source": resources.usage_source,
        "lds_bytes": resources.lds_bytes,
        "launch_lds_bytes": resources.launch_lds_bytes,  # of lds_bytes, requested at launch (None: not known)
        "scratch_bytes": resources.scratch_bytes,
        "wg_size": resources.wg_size,
        "wg_size_min": resources.inputs.wg_min or resources.wg_size,  # the launch range's smallest size
        "wg_size_source": resources.wg_size_source,
        "waves_per_simd": occupancy.waves_per_simd,
        "waves_per_cu": occupancy.waves_per_cu,
        "cu_unit": "WGP" if target.major >= 10 and not resources.cumode else "CU",
        "max_waves_per_simd": target.max_waves_per_simd,
        "limits": occupancy.limits,
        "limiter": occupancy.limiters,
        "next_step": occupancy.next_step,
        "over_sizes": size_spread(target, resources.inputs).to_json(),
        "what_if": what_if_json(target, resources.inputs),
        "what_if_range": what_if_range(target),
    }
    launch = module.options.launch if module.options is not None else None
    if launch is not None:
        report["launch"] = fill(launch, target, occupancy.workgroups_per_cu, resources.cumode).to_json()
    return report


def add_simulation(module: Module, kernel: Kernel, report: dict[str, Any], *, waves: int | None,
                   trip_counts: dict[str, int], taken: set[str]) -> None:
    """Run the CU simulator on a kernel (not a function) and put its result and hot lines in the report."""
    from ..analyses.simulator import hot_lines, line_stalls, simulate

    if not kernel.is_kernel:
        return
    result = simulate(module, kernel, waves or report.get("waves_per_cu") or 4, trip_counts=trip_counts, taken=taken)
    if result is not None:
        report["simulation"] = result.to_json() | {
            "hot_lines": [{"path": kernel.instructions[index].where.path, "line": line, "reason": reason,
                           "share": round(share, 3)} for line, index, reason, share in hot_lines(kernel, result)],
            "line_stalls": line_stalls(kernel, result)}
