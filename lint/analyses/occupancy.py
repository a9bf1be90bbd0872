"""Occupancy arithmetic exactly as LLVM 22 computes it (llvm-amdgpu-facts.md §1).

`occupancy()` gives waves per SIMD and per CU for register, LDS and work-group figures on a
target, the limit each resource imposes, which of them bind, and what to change for one more
wave. The kernel report and the calculator both use it; nothing else computes occupancy.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..targets import Target, waves_for_sgprs, waves_for_vgprs

VGPR, SGPR, LDS, WORKGROUP, WAVE_SLOTS = "VGPR", "SGPR", "LDS", "workgroup slots", "wave slots"


def _align_up(value: int, granule: int) -> int:
    return -(-value // granule) * granule


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def total_vgprs_used(target: Target, arch_vgprs: int, agprs: int) -> int:
    """LLVM's TotalNumVgprs: align4(arch)+agpr on the unified file, max(arch, agpr) on gfx908."""
    if target.agpr_file == "unified":
        return _align_up(max(arch_vgprs, 1), 4) + agprs if agprs else arch_vgprs
    if target.agpr_file == "separate":
        return max(arch_vgprs, agprs)
    return arch_vgprs


def waves_with_vgprs(target: Target, vgprs: int, wave_size: int) -> int:
    return waves_for_vgprs(vgprs, target.vgpr_alloc_granule(wave_size), target.total_vgprs(wave_size), target.max_waves_per_simd)


def waves_with_sgprs(target: Target, sgprs: int) -> int:
    max_waves = target.max_waves_per_simd
    if not target.sgprs_limit_occupancy:
        return max_waves
    return min(waves_for_sgprs(sgprs, target.major >= 8), max_waves)


def workgroups_per_cu(target: Target, waves_per_group: int, cumode: bool) -> int:
    """Work-groups one CU (WGP) holds by wave slots and barriers alone."""
    wave_slots = target.max_waves_per_simd * target.simds_per_cu(cumode)
    if waves_per_group == 1:
        return wave_slots
    return min(wave_slots // waves_per_group, target.max_barriers(cumode))


@dataclass
class Occupancy:
    waves_per_simd: int
    waves_per_cu: int
    workgroups_per_cu: int
    limits: dict[str, int]  # waves per SIMD each resource allows
    limiters: list[str]
    next_step: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return {
            "waves_per_simd": self.waves_per_simd,
            "waves_per_cu": self.waves_per_cu,
            "workgroups_per_cu": self.workgroups_per_cu,
            "limits": self.limits,
            "limiter": self.limiters,
            "next_step": self.next_step,
        }


@dataclass(frozen=True)
class Inputs:
    """What occupancy depends on. `vgprs` is LLVM's TotalNumVgprs, `sgprs` includes the extras."""

    vgprs: int
    sgprs: int
    lds_bytes: int
    wg_size: int
    wave_size: int
    cumode: bool = False
    vgpr_label: str = VGPR
    wg_min: int | None = None  # smallest work-group size of the launch range (None: wg_size is pinned)


def _lds_and_workgroup_limits(target: Target, lds_bytes: int, wg_size: int, wave_size: int, cumode: bool):
    """(waves allowed by LDS, by work-group slots/barriers, work-groups per CU)."""
    max_waves = target.max_waves_per_simd
    simds = target.simds_per_cu(cumode)
    lds_per_cu = target.lds_per_cu(cumode)
    waves_per_group = _ceil_div(max(wg_size, 1), wave_size)
    by_slots = workgroups_per_cu(target, waves_per_group, cumode)
    if lds_bytes > lds_per_cu:
        return 1, 1, 0
    by_lds = lds_per_cu // max(lds_bytes, 1)

    def waves(groups: int) -> int:
        return min(max(_ceil_div(groups * waves_per_group, simds), 1), max_waves)

    groups = min(by_slots, by_lds)
    return waves(by_lds), waves(by_slots), groups


def waves_over_range(target: Target, lds_bytes: int, smallest: int, largest: int, wave_size: int,
                     cumode: bool) -> int:
    """LLVM 22's waves per SIMD for work-groups of any size in [smallest, largest], by LDS and
    work-group slots (the most over the range: llvm-amdgpu-facts.md §1.3b)."""
    max_waves, simds = target.max_waves_per_simd, target.simds_per_cu(cumode)
    lds_per_cu = target.lds_per_cu(cumode)
    if lds_bytes > lds_per_cu:
        return 1
    lds_groups = lds_per_cu // max(lds_bytes, 1)
    slots = max_waves * simds

    def waves_of(size: int) -> tuple[int, int, int]:  # waves per group, groups per CU, waves per CU
        per_group = _ceil_div(size, wave_size)
        groups = min(workgroups_per_cu(target, per_group, cumode), lds_groups)
        return per_group, groups, per_group * groups

    small_per_group, small_groups, most = waves_of(smallest)
    _, _, at_largest = waves_of(largest)
    if at_largest >= most:
        most = at_largest
    elif spare := (slots - small_groups * small_per_group) // small_groups:
        most += small_groups * min(spare, _ceil_div(largest, wave_size) - small_per_group)
    return min(max(_ceil_div(most, simds), 1), max_waves)


def _limits(target: Target, inputs: Inputs) -> tuple[dict[str, int], int]:
    """Waves per SIMD each resource allows, and work-groups per CU."""
    by_lds, by_groups, groups = _lds_and_workgroup_limits(
        target, inputs.lds_bytes, inputs.wg_size, inputs.wave_size, inputs.cumode)
    if inputs.wg_min is not None and inputs.wg_min < inputs.wg_size:
        args = (inputs.wg_min, inputs.wg_size, inputs.wave_size, inputs.cumode)
        by_groups = waves_over_range(target, 0, *args)
        by_lds = waves_over_range(target, inputs.lds_bytes, *args)
    limits = {
        inputs.vgpr_label: waves_with_vgprs(target, inputs.vgprs, inputs.wave_size),
        SGPR: waves_with_sgprs(target, inputs.sgprs),
        LDS: by_lds,
        WORKGROUP: by_groups,
        WAVE_SLOTS: target.max_waves_per_simd,
    }
    return limits, groups


def occupancy(target: Target, inputs: Inputs) -> Occupancy:
    """Waves per SIMD (LLVM's `; Occupancy:`) with per-resource limits and the binding ones."""
    limits, groups = _limits(target, inputs)
    waves = min(limits.values())
    if waves == target.max_waves_per_simd:
        binding = [WAVE_SLOTS]
    else:
        binding = [name for name, value in limits.items() if value == waves]
    result = Occupancy(waves, waves * target.simds_per_cu(inputs.cumode), groups, limits, binding)
    if waves < target.max_waves_per_simd:
        result.next_step = next_steps(target, inputs, waves + 1, binding)
    return result


def max_vgprs_for(target: Target, waves: int, wave_size: int) -> int:
    """Largest VGPR count that still allows `waves` waves per SIMD (0 if none does)."""
    granule = target.vgpr_alloc_granule(wave_size)
    most = (target.total_vgprs(wave_size) // waves) // granule * granule
    return min(most, target.addressable_vgprs)


def max_sgprs_for(target: Target, waves: int) -> int | None:
    """Most SGPRs (extras included) that still allow `waves`; None where SGPRs never limit."""
    if not target.sgprs_limit_occupancy:
        return None
    steps = ((80, 10), (88, 9), (100, 8)) if target.major >= 8 else ((48, 10), (56, 9), (64, 8), (72, 7), (80, 6))
    fallback = 7 if target.major >= 8 else 5
    if waves <= fallback:
        return target.addressable_sgprs + (6 if target.major >= 8 else 4)  # every allocation runs this many
    return max(limit for limit, w in steps if w >= waves)


def next_steps(target: Target, inputs: Inputs, goal: int, binding: list[str]) -> list[str]:
    """What to change, per binding resource, to reach `goal` waves per SIMD."""
    steps: list[str] = []
    for name in binding:
        if name == inputs.vgpr_label:
            most = max_vgprs_for(target, goal, inputs.wave_size)
            if most > 0:
                count = inputs.vgprs - most
                steps.append(f"free {count} {name}{'s' if count != 1 else ''} ({inputs.vgprs} -> {most})")
        elif name == SGPR:
            most = max_sgprs_for(target, goal)
            if most:
                count = inputs.sgprs - most
                steps.append(f"free {count} SGPR{'s' if count != 1 else ''} ({inputs.sgprs} -> {most}, extras included)")
        elif name == LDS:
            lds_ok = largest_lds_for(target, inputs, goal)
            if lds_ok is not None:
                steps.append(f"use at most {lds_ok} bytes of LDS per work-group (now {inputs.lds_bytes})")
        elif name == WORKGROUP:
            size = _nearest_wg_size_for(target, inputs, goal)
            if size is not None:
                steps.append(f"use work-groups of {size} work-items (now {inputs.wg_size})")
    return steps


def largest_lds_for(target: Target, inputs: Inputs, goal: int) -> int | None:
    low, high = 0, inputs.lds_bytes
    if _lds_and_workgroup_limits(target, 0, inputs.wg_size, inputs.wave_size, inputs.cumode)[0] < goal:
        return None
    while low < high:  # largest LDS size that still gives `goal` waves
        middle = (low + high + 1) // 2
        if _lds_and_workgroup_limits(target, middle, inputs.wg_size, inputs.wave_size, inputs.cumode)[0] >= goal:
            low = middle
        else:
            high = middle - 1
    return low


def _nearest_wg_size_for(target: Target, inputs: Inputs, goal: int) -> int | None:
    candidates = range(inputs.wave_size, 1025, inputs.wave_size)
    good = [size for size in candidates
            if min(_lds_and_workgroup_limits(target, inputs.lds_bytes, size, inputs.wave_size, inputs.cumode)[:2]) >= goal]
    return min(good, key=lambda size: (abs(size - inputs.wg_size), -size)) if good else None


def _lds_breakpoints(target: Target, cumode: bool) -> list[int]:
    """LDS sizes where the number of resident work-groups can change: lds_per_cu // k + 1."""
    per_cu = target.lds_per_cu(cumode)
    limit = target.lds_per_workgroup
    points = {0} | {per_cu // k + 1 for k in range(1, per_cu + 1) if per_cu // k + 1 <= limit and k <= 4096}
    return sorted(points)


def what_if(target: Target, inputs: Inputs) -> dict[str, list[tuple[int, int]]]:
    """Occupancy as one input varies (the others fixed): the points where it changes."""

    def curve(xs, make) -> list[tuple[int, int]]:
        points: list[tuple[int, int]] = []
        for x in xs:
            waves = min(_limits(target, make(x))[0].values())
            if not points or points[-1][1] != waves:
                points.append((x, waves))
        return points

    return {
        "vgprs": curve(range(1, target.addressable_vgprs + 1),
                       lambda x: Inputs(x, inputs.sgprs, inputs.lds_bytes, inputs.wg_size, inputs.wave_size, inputs.cumode)),
        "lds_bytes": curve(_lds_breakpoints(target, inputs.cumode),
                           lambda x: Inputs(inputs.vgprs, inputs.sgprs, x, inputs.wg_size, inputs.wave_size, inputs.cumode)),
        "wg_size": curve(range(inputs.wave_size, 1025, inputs.wave_size),
                         lambda x: Inputs(inputs.vgprs, inputs.sgprs, inputs.lds_bytes, x, inputs.wave_size, inputs.cumode)),
    }
