"""The report document: per kernel, what the analyses found (resources, occupancy, what-if, launch fill).

Every report format (text, JSON, HTML, plots) and the baseline read this one document."""

from __future__ import annotations

from functools import partial

from ..analyses.cfg import CFGAnalysis
from ..analyses.liveness import LivenessAnalysis
from ..analyses.manager import AnalysisManager
from ..analyses.occupancy import size_spread, what_if_json, what_if_range
from ..analyses.perfmodel.launch import fill
from ..analyses.resources import KernelResources, ResourceAnalysis
from ..model.devices import find_device
from ..model.ir import Kernel, Module, Provenance
from .linter import worth_sharing

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from ..model.targets import Target


def kernel_reports(kernels: list[tuple[Module, Kernel]], processes: int = 1,
                   simulation: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """`kernel_report` of each kernel, with `add_simulation(**simulation)` when given; with two `processes` and
    one long file (`linter.worth_sharing`), a forked copy works out the first half."""
    work = partial(_reports, simulation=simulation)
    if len(kernels) < 2:
        return work(kernels)
    module = kernels[0][0]
    if any(other is not module for other, _ in kernels) or (
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
        report.update(resource_report(module, module.target, resources))
        report["pressure"] = peak_pressure(manager, kernel, resources)
    return report


def peak_pressure(manager: AnalysisManager, kernel: Kernel, resources: KernelResources) -> dict[str, Any]:
    """Per register file (vgpr, agpr, sgpr): the most registers live at once, the line where they first are, and
    what the kernel allocates (the descriptor's figure, else its usage)."""
    liveness = manager.get(LivenessAnalysis)
    allocated = {"vgpr": resources.allocated_vgprs or resources.arch_vgprs, "agpr": resources.agprs,
                 "sgpr": resources.allocated_sgprs or resources.sgprs}
    pressure: dict[str, Any] = {}
    for name, file in (("vgpr", "v"), ("agpr", "a"), ("sgpr", "s")):
        peak = liveness.peak(file) if liveness is not None else None
        live, line, path = (peak[0], kernel.instructions[peak[1]].where.line,
                            kernel.instructions[peak[1]].where.path) if peak else (0, None, None)
        pressure[name] = {"allocated": allocated[name], "most_live": live, "line": line, "path": path}
    return pressure


def _hot_line(where: Provenance, home: str, reason: str, share: float) -> dict[str, Any]:
    """A hot spot: its line, and where an expansion put it in the kernel's own file (a macro call, a `.rept`)."""
    hot: dict[str, Any] = {"path": where.path, "line": where.line, "reason": reason, "share": round(share, 3)}
    site = where.per_file().get(home)
    if where.chain and site is not None and (where.path, where.line) != (home, site):
        hot["expanded_at"] = site
    return hot


def resource_report(module: Module, target: Target, resources: KernelResources) -> dict[str, Any]:
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
        "lds_allocated_bytes": occupancy.lds_allocated_bytes,
        "allocated_waves_per_simd": occupancy.allocated_waves_per_simd,
        "over_sizes": size_spread(target, resources.inputs).to_json(),
        "what_if": what_if_json(target, resources.inputs),
        "what_if_range": what_if_range(target),
    }
    launch = module.options.launch if module.options is not None else None
    if launch is not None:
        report["launch"] = fill(launch, target, occupancy, resources.cumode).to_json()
    return report


def performance_record(module: Module, kernel: Kernel, report: dict[str, Any], *, trip_counts: dict[str, int],
                       taken: dict[str, str], kernargs: dict[str, int]) -> dict[str, Any] | None:
    """What `amdgpu-lint baseline` records of a kernel's speed (None: nothing the model can say): its main loop's
    cycles per trip (analyses/perfmodel/mainloop.py) with the options it was measured under, and a whole launch's
    predicted milliseconds when the module has a launch and the simulation predicts them."""
    from ..analyses.perfmodel.mainloop import main_loop_cost

    if not kernel.is_kernel or "waves_per_cu" not in report:
        return None
    cost = main_loop_cost(module, kernel, report["waves_per_cu"] or 4, trip_counts=trip_counts, taken=taken,
                          kernargs=kernargs)
    if cost is None:
        return None
    record = cost.to_json() | {name: value for name, value in (
        ("trip_counts", trip_counts), ("taken", taken), ("kernargs", kernargs)) if value}
    if module.options is not None and module.options.launch is not None:
        simulated = dict(report)
        add_simulation(module, kernel, simulated, waves=None, trip_counts=trip_counts, taken=taken, kernargs=kernargs)
        for part in ("simulation", "launch"):
            milliseconds = (simulated.get(part) or {}).get("predicted_ms")
            if isinstance(milliseconds, (int, float)):
                record["predicted_ms"] = milliseconds
                break
    return record


def add_simulation(module: Module, kernel: Kernel, report: dict[str, Any], *, waves: int | None,
                   trip_counts: dict[str, int], taken: dict[str, str], kernargs: dict[str, int],
                   working_set: int | None = None) -> None:
    """Run the CU simulator on a kernel (not a function) and put its result and hot lines in the report. With a grid
    on a known device, the simulation is the launch's first round (with the device's memory system) and the report
    has the whole launch's predicted time (perfmodel/predict.py)."""
    from ..analyses.perfmodel.simulator import hot_lines, line_stalls, simulate

    if not kernel.is_kernel:
        return
    launch = module.options.launch if module.options is not None else None
    device = find_device(launch.device) if launch is not None and launch.device else None
    prediction = None
    if launch is not None and device is not None and device.clock_mhz:
        from ..analyses.perfmodel.predict import predict

        prediction = predict(module, kernel, launch, device, trip_counts=trip_counts, taken=taken, kernargs=kernargs,
                             working_set=working_set)
    result = prediction.rounds[0].simulation if prediction is not None else simulate(
        module, kernel, waves or report.get("waves_per_cu") or 4, trip_counts=trip_counts, taken=taken,
        kernargs=kernargs)
    if result is not None:
        executed = {(kernel.instructions[index].where.path, kernel.instructions[index].where.line)
                    for index in set(result.path.indices)}
        never_run = sorted({(where.path, where.line) for index in result.path.never_run
                            if (where := kernel.instructions[index].where) and (where.path, where.line) not in executed})
        report["simulation"] = result.to_json() | {
            "path": result.path.to_json(),
            "lines_never_run": [{"path": path, "line": line} for path, line in never_run],
            "hot_lines": [_hot_line(kernel.instructions[index].where, module.path, reason, share)
                          for _, index, reason, share in hot_lines(kernel, result)],
            "line_stalls": line_stalls(kernel, result)}
        if prediction is not None:
            report["simulation"]["predicted_ms"] = round(prediction.milliseconds, 6)
            report["simulation"]["launch"] = prediction.to_json()
