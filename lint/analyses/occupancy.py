"""Occupancy arithmetic exactly as LLVM 22 computes it (llvm-amdgpu-facts.md §1).

`occupancy()` gives waves per SIMD and per CU for register, LDS and work-group figures on a
target, the limit each resource imposes, which of them bind, and what to change for one more
wave. The kernel report and the calculator both use it; nothing else computes occupancy.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache

from ..model.frozen import frozen_dataclass
from ..model.targets import Target, waves_for_sgprs, waves_for_vgprs

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


@frozen_dataclass(frozen=True, slots=True, repr=False, init=False, eq=False)
class SizeSpread:
    """Waves per SIMD at the single work-group sizes of a launch range: the fewest and the most,
    each with the size that reaches it (the smallest such size), and at 256 when in range."""

    fewest: int
    fewest_at: int
    most: int
    most_at: int
    at_256: int | None

    def __init__(self, fewest: int, fewest_at: int, most: int, most_at: int, at_256: int | None) -> None:
        object.__setattr__(self, "fewest", fewest)
        object.__setattr__(self, "fewest_at", fewest_at)
        object.__setattr__(self, "most", most)
        object.__setattr__(self, "most_at", most_at)
        object.__setattr__(self, "at_256", at_256)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SizeSpread) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.fewest, self.fewest_at, self.most, self.most_at, self.at_256) == (
            other.fewest, other.fewest_at, other.most, other.most_at, other.at_256)

    def __hash__(self) -> int:
        return hash((self.fewest, self.fewest_at, self.most, self.most_at, self.at_256))

    def to_json(self) -> dict:
        return {"fewest": self.fewest, "fewest_at": self.fewest_at, "most": self.most, "most_at": self.most_at,
                "at_256": self.at_256}


@frozen_dataclass(frozen=True, slots=True, repr=False, init=False, eq=False)
class NextStep:
    """A change to the kernel (one resource, or every binding one together) and what it gives."""

    text: str
    inputs: Inputs  # the kernel's inputs with the change made
    waves: int  # waves per SIMD with the change, by LLVM's figure and with LDS in whole allocation units

    def __init__(self, text: str, inputs: Inputs, waves: int) -> None:
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "inputs", inputs)
        object.__setattr__(self, "waves", waves)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, NextStep) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.text, self.inputs, self.waves) == (other.text, other.inputs, other.waves)

    def __hash__(self) -> int:
        return hash((self.text, self.inputs, self.waves))


@dataclass(slots=True, repr=False, init=False, eq=False)
class Occupancy:
    """Waves a kernel reaches and what limits them."""

    waves_per_simd: int
    waves_per_cu: int
    workgroups_per_cu: int
    limits: dict[str, int]  # waves per SIMD each resource allows
    limiters: list[str]
    steps: list[NextStep] = field(default_factory=list)
    #: waves per SIMD with the LDS rounded up to the dispatcher's allocation unit, where that is fewer than
    #: LLVM's figure (which counts raw bytes); None where both agree
    allocated_waves_per_simd: int | None = None
    lds_allocated_bytes: int = 0  # the LDS the dispatcher gives a work-group: whole allocation units
    workgroup_limiter: list[str] = field(default_factory=list)  # what bounds workgroups_per_cu

    def __init__(self, waves_per_simd: int, waves_per_cu: int, workgroups_per_cu: int, limits: dict[str, int],
                 limiters: list[str], steps: list[NextStep] | None = None, allocated_waves_per_simd: int | None = None,
                 lds_allocated_bytes: int = 0, workgroup_limiter: list[str] | None = None) -> None:
        self.waves_per_simd = waves_per_simd
        self.waves_per_cu = waves_per_cu
        self.workgroups_per_cu = workgroups_per_cu
        self.limits = limits
        self.limiters = limiters
        self.steps = [] if steps is None else steps
        self.allocated_waves_per_simd = allocated_waves_per_simd
        self.lds_allocated_bytes = lds_allocated_bytes
        self.workgroup_limiter = [] if workgroup_limiter is None else workgroup_limiter

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Occupancy) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.waves_per_simd, self.waves_per_cu, self.workgroups_per_cu, self.limits, self.limiters, self.steps,
            self.allocated_waves_per_simd, self.lds_allocated_bytes, self.workgroup_limiter) == (
            other.waves_per_simd, other.waves_per_cu, other.workgroups_per_cu, other.limits, other.limiters,
            other.steps, other.allocated_waves_per_simd, other.lds_allocated_bytes, other.workgroup_limiter)

    @property
    def next_step(self) -> list[str]:
        return [step.text for step in self.steps]

    def to_json(self) -> dict:
        return {
            "waves_per_simd": self.waves_per_simd,
            "waves_per_cu": self.waves_per_cu,
            "workgroups_per_cu": self.workgroups_per_cu,
            "workgroup_limiter": self.workgroup_limiter,
            "limits": self.limits,
            "limiter": self.limiters,
            "next_step": self.next_step,
            "lds_allocated_bytes": self.lds_allocated_bytes,
            "allocated_waves_per_simd": self.allocated_waves_per_simd,
        }


@frozen_dataclass(frozen=True, slots=True, repr=False, init=False, eq=False)
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

    def __init__(self, vgprs: int, sgprs: int, lds_bytes: int, wg_size: int, wave_size: int, cumode: bool = False,
                 vgpr_label: str = VGPR, wg_min: int | None = None) -> None:
        object.__setattr__(self, "vgprs", vgprs)
        object.__setattr__(self, "sgprs", sgprs)
        object.__setattr__(self, "lds_bytes", lds_bytes)
        object.__setattr__(self, "wg_size", wg_size)
        object.__setattr__(self, "wave_size", wave_size)
        object.__setattr__(self, "cumode", cumode)
        object.__setattr__(self, "vgpr_label", vgpr_label)
        object.__setattr__(self, "wg_min", wg_min)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Inputs) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.vgprs, self.sgprs, self.lds_bytes, self.wg_size, self.wave_size, self.cumode, self.vgpr_label,
            self.wg_min) == (
            other.vgprs, other.sgprs, other.lds_bytes, other.wg_size, other.wave_size, other.cumode, other.vgpr_label,
            other.wg_min)

    def __hash__(self) -> int:
        return hash((
            self.vgprs, self.sgprs, self.lds_bytes, self.wg_size, self.wave_size, self.cumode, self.vgpr_label,
            self.wg_min))

    @property
    def smallest_wg(self) -> int:
        return self.wg_min if self.wg_min is not None else self.wg_size


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


def _launch_limits(target: Target, inputs: Inputs) -> tuple[int, int]:
    """Waves per SIMD allowed by LDS and by work-group slots: for one size when pinned, else LLVM's
    figure over the range."""
    if inputs.smallest_wg < inputs.wg_size:
        args = (inputs.smallest_wg, inputs.wg_size, inputs.wave_size, inputs.cumode)
        by_lds = waves_over_range(target, inputs.lds_bytes, *args)
        return by_lds, by_lds if inputs.lds_bytes == 0 else waves_over_range(target, 0, *args)
    return _lds_and_workgroup_limits(target, inputs.lds_bytes, inputs.wg_size, inputs.wave_size, inputs.cumode)[:2]


def _register_limits(target: Target, inputs: Inputs) -> dict[str, int]:
    return {inputs.vgpr_label: waves_with_vgprs(target, inputs.vgprs, inputs.wave_size),
            SGPR: waves_with_sgprs(target, inputs.sgprs)}


def resource_limits(target: Target, inputs: Inputs) -> dict[str, int]:
    """Waves per SIMD each resource allows."""
    by_lds, by_groups = _launch_limits(target, inputs)
    return {**_register_limits(target, inputs), LDS: by_lds, WORKGROUP: by_groups, WAVE_SLOTS: target.max_waves_per_simd}


def _single_sizes(inputs: Inputs) -> list[int]:
    """One size per waves-per-group count in the launch range (the largest size with that count)."""
    wave = inputs.wave_size
    return sorted({min(count * wave, inputs.wg_size)
                   for count in range(_ceil_div(inputs.smallest_wg, wave), _ceil_div(inputs.wg_size, wave) + 1)})


def size_spread(target: Target, inputs: Inputs) -> SizeSpread:
    """Waves per SIMD at each single work-group size of the range, registers included."""
    cap = min(min(_register_limits(target, inputs).values()), target.max_waves_per_simd)
    waves = {size: min(cap, *_lds_and_workgroup_limits(target, inputs.lds_bytes, size, inputs.wave_size,
                                                         inputs.cumode)[:2])
             for size in _single_sizes(inputs)}
    fewest, most = min(waves.values()), max(waves.values())
    return SizeSpread(fewest, min(s for s, w in waves.items() if w == fewest),
                      most, min(s for s, w in waves.items() if w == most), waves.get(256))


def occupancy(target: Target, inputs: Inputs) -> Occupancy:
    """Waves per SIMD (LLVM's `; Occupancy:`) with per-resource limits and the binding ones."""
    result = _llvm_occupancy(target, inputs)
    allocated = allocated_lds(target, inputs.lds_bytes)
    result.lds_allocated_bytes = allocated
    groups = workgroup_limits(target, inputs, result.limits)
    result.workgroups_per_cu = min(groups.values())
    result.workgroup_limiter = [name for name, count in groups.items() if count == result.workgroups_per_cu]
    if allocated != inputs.lds_bytes:
        by_units = achieved_waves(target, inputs)
        if by_units != result.waves_per_simd:
            result.allocated_waves_per_simd = by_units
            result.steps.append(_whole_units_step(target, inputs, allocated, result.waves_per_simd))
    if result.waves_per_simd < target.max_waves_per_simd:
        result.steps += next_steps(target, inputs, result.waves_per_simd, result.limiters)
    return result


def workgroup_limits(target: Target, inputs: Inputs, limits: dict[str, int]) -> dict[str, int]:
    """Work-groups of the largest size one CU (one WGP in WGP mode) holds by each resource: registers and wave
    slots through the waves per SIMD they allow, LDS in the dispatcher's whole allocation units (when the
    kernel uses any), barriers (when a work-group has more than one wave)."""
    simds = target.simds_per_cu(inputs.cumode)
    per_group = _ceil_div(max(inputs.wg_size, 1), inputs.wave_size)
    lds = allocated_lds(target, inputs.lds_bytes)
    lds_per_cu = target.lds_per_cu(inputs.cumode)
    groups = {name: limits[name] * simds // per_group for name in (inputs.vgpr_label, SGPR)}
    if lds:
        groups[LDS] = lds_per_cu // lds if lds <= lds_per_cu else 0
    if per_group > 1:
        groups[WORKGROUP] = target.max_barriers(inputs.cumode)
    groups[WAVE_SLOTS] = target.max_waves_per_simd * simds // per_group
    return groups


def _whole_units_step(target: Target, inputs: Inputs, allocated: int, waves: int) -> NextStep:
    """The LDS trim to whole allocation units that gives LLVM's figure on the hardware too."""
    granule = target.lds_alloc_granule
    trimmed = replace(inputs, lds_bytes=inputs.lds_bytes // granule * granule)
    return NextStep(f"use at most {trimmed.lds_bytes} bytes of LDS per work-group (now {inputs.lds_bytes}, which "
                    f"work-groups get as {allocated}: whole {granule}-byte units): {waves} waves per SIMD, LLVM's "
                    f"figure", trimmed, achieved_waves(target, trimmed))


def _llvm_occupancy(target: Target, inputs: Inputs) -> Occupancy:
    """LLVM's figure (raw LDS bytes) and the resources that bind it."""
    limits = resource_limits(target, inputs)
    groups = _lds_and_workgroup_limits(target, inputs.lds_bytes, inputs.wg_size, inputs.wave_size, inputs.cumode)[2]
    waves = min(limits.values())
    if waves == target.max_waves_per_simd:
        binding = [WAVE_SLOTS]
    else:
        binding = [name for name, value in limits.items() if value == waves]
    return Occupancy(waves, waves * target.simds_per_cu(inputs.cumode), groups, limits, binding)


def allocated_lds(target: Target, lds_bytes: int) -> int:
    """The LDS a work-group is given for `lds_bytes`: whole allocation units."""
    return _align_up(lds_bytes, target.lds_alloc_granule)


def achieved_waves(target: Target, inputs: Inputs) -> int:
    """Waves per SIMD the hardware gives: LLVM's figure with the LDS in whole allocation units (never more
    than LLVM's figure)."""
    return min(resource_limits(target, replace(inputs, lds_bytes=allocated_lds(target, inputs.lds_bytes))).values())


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


def next_steps(target: Target, inputs: Inputs, waves: int, binding: list[str]) -> list[NextStep]:
    """What to change for one more wave per SIMD than `waves`: each binding resource's change where it alone
    gains a wave, else (several resources binding together) all of them at once. Every step's numbers hold
    once the dispatcher rounds the LDS up to whole allocation units, and its `waves` are what it gives."""
    goal = waves + 1
    changes = [_change(target, inputs, name, goal) for name in binding]
    steps = []
    for change in changes:
        if change is not None and (gained := achieved_waves(target, change[1])) > waves:
            steps.append(NextStep(f"{change[0]}: {gained} waves per SIMD", change[1], gained))
    if steps or len(changes) < 2 or any(change is None for change in changes):
        return steps
    together = inputs
    for name in binding:
        change = _change(target, together, name, goal)
        if change is None:
            return []
        together = change[1]
    gained = achieved_waves(target, together)
    if gained <= waves:
        return []
    texts = " and ".join(change[0] for change in changes if change is not None)
    return [NextStep(f"{'both' if len(changes) == 2 else 'all of'}: {texts}: {gained} waves per SIMD", together, gained)]


def _free(name: str, now: int, most: int, note: str = "") -> str:
    """Advice to bring `name` from `now` registers down to `most`."""
    count = now - most
    return f"free {count} {name}{'s' if count != 1 else ''} ({now} -> {most}{note})"


def _change(target: Target, inputs: Inputs, name: str, goal: int) -> tuple[str, Inputs] | None:
    """How `name` must change for `goal` waves per SIMD by its own limit: the advice and the changed inputs."""
    if name == inputs.vgpr_label:
        most = max_vgprs_for(target, goal, inputs.wave_size)
        if most <= 0:
            return None
        return _free(name, inputs.vgprs, most), replace(inputs, vgprs=most)
    if name == SGPR:
        most_sgprs = max_sgprs_for(target, goal)
        if not most_sgprs:
            return None
        return _free(SGPR, inputs.sgprs, most_sgprs, ", extras included"), replace(inputs, sgprs=most_sgprs)
    if name == LDS:
        raw = largest_lds_for(target, inputs, goal)
        if raw is None:
            return None
        granule = target.lds_alloc_granule
        lds_ok = raw // granule * granule  # whole allocation units: what the dispatcher gives is what LLVM counts
        units = f"; LLVM's figure allows {raw}, but work-groups get LDS in {granule}-byte units" if lds_ok != raw else ""
        return (f"use at most {lds_ok} bytes of LDS per work-group (now {inputs.lds_bytes}{units})",
                replace(inputs, lds_bytes=lds_ok))
    if name == WORKGROUP:
        size = _nearest_wg_size_for(target, inputs, goal)
        if size is None:
            return None
        changed = with_largest_wg(inputs, size)
        bound = "" if changed.wg_min is None else "at most "
        now = f"{inputs.smallest_wg}..{inputs.wg_size}" if inputs.wg_min is not None else f"{inputs.wg_size}"
        return f"use work-groups of {bound}{size} work-items (now {now})", changed
    return None


def largest_lds_for(target: Target, inputs: Inputs, goal: int) -> int | None:
    """Most LDS bytes per work-group that still allow `goal` waves by LDS (None if none does)."""
    def by_lds(lds_bytes: int) -> int:
        return _launch_limits(target, replace(inputs, lds_bytes=lds_bytes))[0]

    low, high = 0, inputs.lds_bytes
    if by_lds(0) < goal:
        return None
    while low < high:  # largest LDS size that still gives `goal` waves
        middle = (low + high + 1) // 2
        if by_lds(middle) >= goal:
            low = middle
        else:
            high = middle - 1
    return low


def with_largest_wg(inputs: Inputs, size: int) -> Inputs:
    """The launch with `size` as its largest work-group (pinned launches stay pinned)."""
    if inputs.wg_min is None or size <= inputs.wg_min:
        return replace(inputs, wg_size=size, wg_min=None)
    return replace(inputs, wg_size=size)


def _nearest_wg_size_for(target: Target, inputs: Inputs, goal: int) -> int | None:
    candidates = range(inputs.wave_size, 1025, inputs.wave_size)
    good = [size for size in candidates if min(_launch_limits(target, with_largest_wg(inputs, size))) >= goal]
    return min(good, key=lambda size: (abs(size - inputs.wg_size), -size)) if good else None


def _lds_breakpoints(target: Target, cumode: bool) -> list[int]:
    """LDS sizes where the number of resident work-groups can change: lds_per_cu // k + 1, for k up to
    the CU's wave slots (more groups than slots never add a wave)."""
    per_cu = target.lds_per_cu(cumode)
    limit = target.lds_per_workgroup
    slots = target.max_waves_per_simd * target.simds_per_cu(cumode)
    return sorted({0} | {per_cu // k + 1 for k in range(1, slots + 2) if per_cu // k + 1 <= limit})


def _vgpr_breakpoints(target: Target, wave_size: int) -> list[int]:
    """VGPR counts where the waves the register file holds can change: one granule, and one past each."""
    granule, top = target.vgpr_alloc_granule(wave_size), target.addressable_vgprs
    return sorted({1} | {x for k in range(1, top // granule + 1) for x in (k * granule, k * granule + 1) if x <= top})


def _steps(xs, waves_at) -> list[tuple[int, int]]:
    """The points of a step curve where its value changes."""
    points: list[tuple[int, int]] = []
    for x in xs:
        waves = waves_at(x)
        if not points or points[-1][1] != waves:
            points.append((x, waves))
    return points


def what_if(target: Target, inputs: Inputs) -> dict[str, dict[str, list[tuple[int, int]]]]:
    """Occupancy as one input varies: `alone` is that resource's own limit (the others freed),
    `combined` the kernel's occupancy with the others as they are. The work-group axis is the
    launch's largest size (its smallest kept, unless that pins it)."""
    return {name: {kind: list(points) for kind, points in curves} for name, curves in _what_if(target, inputs)}


#: what-if curves, immutable: ((axis, ((kind, points), ...)), ...)
Curves = tuple[tuple[str, tuple[tuple[str, tuple[tuple[int, int], ...]], ...]], ...]


@lru_cache(maxsize=256)
def _what_if(target: Target, inputs: Inputs) -> Curves:
    """what_if's curves, kept for kernels with the same inputs. Each value is computed once: the other
    limits do not move along an axis."""
    limits = resource_limits(target, inputs)
    by_vgprs = {x: waves_with_vgprs(target, x, inputs.wave_size) for x in _vgpr_breakpoints(target, inputs.wave_size)}
    by_lds = {x: _launch_limits(target, replace(inputs, lds_bytes=x))[0] for x in _lds_breakpoints(target, inputs.cumode)}
    by_wg = {x: _launch_limits(target, with_largest_wg(inputs, x)) for x in range(inputs.wave_size, 1025, inputs.wave_size)}

    def without(*names: str) -> int:
        return min(value for name, value in limits.items() if name not in names)

    registers = min(limits[inputs.vgpr_label], limits[SGPR])
    curves = {
        "vgprs": {"alone": _steps(by_vgprs, by_vgprs.get),
                  "combined": _steps(by_vgprs, lambda x: min(by_vgprs[x], without(inputs.vgpr_label)))},
        "lds_bytes": {"alone": _steps(by_lds, by_lds.get),
                      "combined": _steps(by_lds, lambda x: min(by_lds[x], without(LDS)))},
        "wg_size": {"alone": _steps(by_wg, lambda x: by_wg[x][1]),
                    "combined": _steps(by_wg, lambda x: min(registers, target.max_waves_per_simd, *by_wg[x]))},
    }
    return tuple((name, tuple((kind, tuple(points)) for kind, points in kinds.items()))
                 for name, kinds in curves.items())


def what_if_json(target: Target, inputs: Inputs) -> dict[str, dict[str, list[list[int]]]]:
    return {name: {kind: [list(point) for point in points] for kind, points in curves.items()}
            for name, curves in what_if(target, inputs).items()}


def what_if_range(target: Target) -> dict[str, int]:
    """The largest value of each what-if axis."""
    return {"vgprs": target.addressable_vgprs, "lds_bytes": target.lds_per_workgroup, "wg_size": 1024}
