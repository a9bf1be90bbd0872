"""The whole launch's time: rounds of work-groups on the device's CUs (or WGPs), each round simulated on one unit
with the device's memory system (memory.py), and long loops extrapolated from their steady state.

Rounds: the device runs `slots` work-groups at once (launch.py: units x work-groups per unit). A grid of G
work-groups takes G // slots full rounds and, if G % slots is not 0, a tail round of the rest spread over the units
(ceil(tail / units) per unit on min(tail, units) of them, which then share the DRAM bandwidth among fewer CUs).
The launch takes full x (a full round's cycles) + (the tail round's cycles), at the device's clock. Real
dispatchers start a work-group as soon as a slot frees; rounds ignore that overlap (and the time to launch).

Steady state: a loop of many trips (more than EXTRAPOLATE_FROM per entry) is simulated at STEP and then 2, 4, 8 ...
x STEP trips per entry, timing when every wave starts each trip, until the unit's cycles per trip (of every wave)
in the second quarter of all trip starts and in the third agree within STEADY (0.25%): the first quarter warms up,
the last drains as waves finish. The round's cycles are then the last simulation's plus the remaining trips at
that cost; its busy units, stalls and instructions by class extend linearly from the last two simulations. A
loop whose cost per trip never settles is simulated up to MAX_SIMULATED_TRIPS and extended from there, with a
warning.

Work-groups at different paces: oldest-first issue may let the older work-groups run ahead (the DGEMM fixture's
older one at 1648 cycles a trip, the younger at 3296); the faster finish first and the rest drain at another pace.
The unit's pace over the second and third quarters then mixes the two and misses the drain. When the work-groups'
cycles per trip differ by more than UNEVEN, the round's cycles are extended by the cycles a trip added between the
last two runs (each phase, the drain included, grows with the trips). That is steady when two such slopes agree
within STEADY, or when the slope agrees with a phase-by-phase prediction (`_uneven`: each work-group's pace until
the next ones finish, the drain's after), which needs no third run. A wait that grows with the trips at a
hand-over (the cached streaming probe's starved fourth work-group) is one the paces miss and the slopes catch."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ...model.devices import Device, Launch
from ...model.ir import Kernel, Module
from ..cfg import CFGAnalysis
from ..defuse import DefUseAnalysis
from ..latency import lane_bytes
from ..manager import AnalysisManager
from ..prefetch import PrefetchAnalysis
from ..resources import ResourceAnalysis
from .launch import fill
from .machine import machine_for
from .memory import MemorySystem, memory_system
from .simulator import LoopRun, SimulatedPath, Simulation, bottleneck, simulate, trace

EXTRAPOLATE_FROM = 48  # trips per entry above which the main loop is extrapolated
STEP = 16  # trips per entry added between two simulations
#: per-trip cycles agreeing this closely (relative) count as steady. A compute-bound loop repeats to the cycle; a
#: DRAM-bound one is steady only on average (its waves take the DRAM queue in a shifting order), its quarters of
#: trips differing by up to ~0.5% at 32-128 trips: 0.25% keeps the prediction within 0.3% of simulating every trip
STEADY = 0.0025
MAX_SIMULATED_TRIPS = 512
#: work-groups whose cycles per trip differ by more than this (relative) progress unevenly (predict._uneven)
UNEVEN = 0.02
_MEMORY_WAITS = ("waiting on vmcnt", "waiting on loadcnt", "waiting on vscnt", "waiting on storecnt")
BOUNDS = ("memory bandwidth", "MFMA", "VALU issue", "LDS", "memory latency", "barriers")  # ties: the first wins


@dataclass(slots=True)
class Round:
    """One round of work-groups: how many each busy unit runs, on how many units, and its simulation."""

    workgroups_per_unit: int
    busy_units: int
    count: int  # how many such rounds the launch has
    simulation: Simulation

    def to_json(self) -> dict:
        return {"workgroups_per_unit": self.workgroups_per_unit, "busy_units": self.busy_units, "rounds": self.count,
                "cycles": self.simulation.cycles, "waves_per_unit": self.simulation.waves}


@dataclass(slots=True)
class Prediction:
    """The launch's predicted time and what bounds it."""

    device: str
    clock_mhz: int
    workgroups: int
    slots: int  # work-groups at once
    rounds: list[Round]  # the full rounds' (if any), then the tail's (if any)
    cycles: int
    bounds: dict[str, float]  # bound -> share of the launch's time it is busy (or waves are held by it)
    warnings: list[str] = field(default_factory=list)

    @property
    def milliseconds(self) -> float:
        return self.cycles / (self.clock_mhz * 1000)

    @property
    def bound(self) -> str:
        return max(BOUNDS, key=lambda name: (self.bounds[name], -BOUNDS.index(name)))

    def to_json(self) -> dict:
        full = self.workgroups // self.slots  # a tail that fills every unit as deep as a full round is still a tail
        return {"predicted_ms": round(self.milliseconds, 6), "device": self.device, "clock_mhz": self.clock_mhz,
                "cycles": self.cycles, "workgroups": self.workgroups, "workgroups_at_once": self.slots,
                "full_rounds": full, "tail_workgroups": self.workgroups - full * self.slots,
                "rounds": [r.to_json() for r in self.rounds], "bound": self.bound,
                "bounds": {name: round(self.bounds[name], 3) for name in BOUNDS}, "warnings": self.warnings}


def main_loop(path: SimulatedPath, trip_counts: dict[str, int]) -> tuple[LoopRun, int] | None:
    """The loop the path spends most trips in and its trips per entry, if it runs more than EXTRAPOLATE_FROM per
    entry (the count --trip-count gives it, else the path's; a path cut at the trace cap runs fewer)."""
    loops = [loop for loop in path.loops if loop.entries and loop.trips / loop.entries > EXTRAPOLATE_FROM]
    loop = max(loops, key=lambda loop: loop.trips, default=None)
    if loop is None:
        return None
    return loop, trip_counts.get(loop.label, round(loop.trips / loop.entries))


def steady_simulation(module: Module, kernel: Kernel, waves: int, *, trip_counts: dict[str, int],
                      taken: dict[str, str], kernargs: dict[str, int] | None = None,
                      group_waves: int | None = None, memory: MemorySystem | None = None,
                      main: tuple[LoopRun, int] | None | bool = True) -> Simulation | None:
    """`simulate`, with the main loop's trips extrapolated from its steady state when it has many (module
    docstring). `main` is the main loop if the caller knows it already (True: find it)."""
    manager = AnalysisManager(module, kernel)
    if module.target is None or manager.get(DefUseAnalysis) is None:
        return None
    if main is True:
        main = main_loop(trace(manager, trip_counts, taken, kernargs), trip_counts)

    def run(trips: dict[str, int], mark: int | None = None) -> Simulation | None:
        return simulate(module, kernel, waves, trip_counts=trips, taken=taken, kernargs=kernargs,
                        group_waves=group_waves, memory=memory, mark=mark)

    if not isinstance(main, tuple):
        return run(trip_counts)
    loop, trips = main
    cfg = manager.get(CFGAnalysis)
    header = cfg.starts[cfg.block_of_label[loop.label]]
    simulated = [STEP]
    before = run({**trip_counts, loop.label: STEP}, header)
    slope: float | None = None  # cycles a trip added between the last two runs
    while True:
        last = 2 * simulated[-1]
        if last >= trips or before is None:
            return run(trip_counts)
        after = run({**trip_counts, loop.label: last}, header)
        if after is None:
            return None
        simulated.append(last)
        earlier, slope = slope, (after.cycles - before.cycles) / (last - last // 2)
        uneven = _uneven(after, last, trips) if loop.entries == 1 else None
        if uneven is not None:  # work-groups at different paces: the run grows by the same cycles a trip
            guess = after.cycles + slope * (trips - last)
            steady = (earlier is not None and abs(slope - earlier) <= STEADY * slope) or abs(
                guess - uneven.cycles) <= STEADY * guess
        else:
            windows = _per_trip(after.marks)
            steady = windows is not None and abs(windows[0] - windows[1]) <= STEADY * windows[1]
        if steady or last >= MAX_SIMULATED_TRIPS:
            break
        before = after
    if uneven is not None:
        per_trip = slope
    else:
        per_trip = sum(windows) / 2 if windows is not None else slope / loop.entries
    cycles = round(after.cycles + loop.entries * (trips - last) * per_trip)
    result = _extend(before, after, last // 2, last, trips, loop, cycles)
    result.extrapolated = {"loop": loop.label, "line": loop.line, "trips_per_entry": trips, "entries": loop.entries,
                           "simulated_trips": simulated, "steady": steady, "cycles_per_trip": round(per_trip, 3)}
    if uneven is not None:
        result.extrapolated["workgroup_paces"] = uneven.to_json()
    if not steady:
        result.warnings.append(f"the loop at line {loop.line} ({loop.label}) did not reach a steady cost per trip "
                               f"within {last} trips; its {trips} trips are extended from there")
    return result


@dataclass(slots=True)
class Paces:
    """Work-groups that progress at different paces (oldest-first issue lets the oldest run ahead): per phase (from
    one group of work-groups finishing to the next) each running work-group's cycles per trip, and the run's cycles
    at the full trips they predict."""

    phases: list[tuple[list[int], dict[int, float]]]  # (the work-groups that finish it, work-group -> cycles per trip)
    cycles: float

    def to_json(self) -> list[dict]:
        return [{"finishing": finishing, "cycles_per_trip": {str(group): round(rate, 1) for group, rate in rates.items()}}
                for finishing, rates in self.phases]


def _uneven(simulation: Simulation, simulated: int, trips: int) -> Paces | None:
    """When the work-groups of a run of `simulated` trips (one entry of the loop) progress at paces more than UNEVEN
    apart: the run's cycles at `trips`, predicted phase by phase. In the run, the fastest work-groups finish first
    and the others run on at another pace (the drain). In the full run every phase lasts longer: the work-groups that
    end it have `trips - simulated` more trips, the others progress meanwhile at their pace in it, and what they have
    left over the simulated run's remainder runs in the next phases. The warm-up, the hand-overs and the end are the
    simulated run's. None when they keep pace, or a phase is too short to tell."""
    groups = _workgroup_starts(simulation.marks, max(1, simulation.group_waves))
    if len(groups) < 2 or any(len(starts) != simulated for starts in groups):
        return None
    first_end = min(starts[-1] for starts in groups)
    paces = [_pace(starts, -math.inf, first_end) for starts in groups]
    if any(pace is None for pace in paces):
        return None
    pace_of = [pace for pace in paces if pace is not None]
    if max(pace_of) <= (1 + UNEVEN) * min(pace_of):
        return None
    clusters: list[list[int]] = []  # work-groups at one pace finish together
    for group in sorted(range(len(groups)), key=pace_of.__getitem__):
        if clusters and pace_of[group] <= (1 + UNEVEN) * pace_of[clusters[-1][0]]:
            clusters[-1].append(group)
        else:
            clusters.append([group])
    series = [[sum(groups[group][trip] for group in cluster) / len(cluster) for trip in range(simulated)]
              for cluster in clusters]
    order = sorted(range(len(clusters)), key=lambda cluster: series[cluster][-1])
    left = dict.fromkeys(order, float(trips - simulated))  # trips each has beyond the simulated run's
    phases: list[tuple[list[int], dict[int, float]]] = []
    added, begin = 0.0, -math.inf
    for position, ending in enumerate(order):
        running = order[position:]
        end = series[ending][-1]
        rates = {cluster: _pace(series[cluster], begin, end) for cluster in running}
        known = {cluster: rate for cluster, rate in rates.items() if rate is not None}
        if len(known) < len(rates):
            return None
        length = left[ending] * known[ending]
        added += length
        for cluster in running:
            left[cluster] = max(0.0, left[cluster] - length / known[cluster])
        phases.append((sorted(clusters[ending]), {group: known[cluster] for cluster in running
                                                   for group in clusters[cluster]}))
        begin = end
    return Paces(phases, simulation.cycles + added)


def _workgroup_starts(marks: list[list[tuple[int, int]]], group_waves: int) -> list[list[float]]:
    """Per work-group (`group_waves` consecutive waves), when it started each trip: its waves' starts averaged."""
    groups = []
    for first in range(0, len(marks), group_waves):
        waves = [[cycle for _, cycle in wave] for wave in marks[first:first + group_waves] if wave]
        if waves:
            groups.append([sum(wave[trip] for wave in waves) / len(waves) for trip in range(min(map(len, waves)))])
    return groups


def _pace(starts: list[float], begin: float, end: float) -> float | None:
    """Cycles per trip over the middle half of the trip starts in (begin, end] (the first quarter warms up or hands
    over from the phase before, the last may feel the next); None for fewer than four."""
    inside = [start for start in starts if begin < start <= end]
    quarter = len(inside) // 4
    if quarter < 1:
        return None
    return (inside[3 * quarter] - inside[quarter]) / (2 * quarter)


def _per_trip(marks: list[list[tuple[int, int]]]) -> tuple[float, float] | None:
    """The unit's cycles per trip of every wave, from when the waves started their trips (`marks`: path position,
    cycle): all starts in time order, the mean gap between them in the second quarter of the starts and in the third
    (the first quarter warms up, the last drains as waves finish), times the waves. Waves need not keep pace with
    each other (oldest-first issue lets the oldest run ahead): the unit's rate of trips is what is steady."""
    starts = sorted(cycle for wave in marks for _, cycle in wave)
    waves = sum(1 for wave in marks if wave)
    quarter = len(starts) // 4 // max(waves, 1) * waves  # whole rounds of starts: waves often start in bursts
    if quarter < 1:
        return None
    first, second = (waves * (starts[end] - starts[begin]) / quarter
                     for begin, end in ((quarter, 2 * quarter), (2 * quarter, 3 * quarter)))
    return first, second


def _extend(before: Simulation, after: Simulation, first: int, last: int, trips: int, loop: LoopRun,
            cycles: int) -> Simulation:
    """`after` (at `last` trips per entry) extended to `trips` and `cycles`: its busy units, stalls and instructions
    linearly, the slope from `before` (at `first`)."""
    scale = (trips - last) / (last - first)

    def line(low: float, high: float) -> float:
        return high + (high - low) * scale

    cycles = max(1, cycles)
    after.utilization = {unit: line(before.utilization.get(unit, 0) * before.cycles, share * after.cycles) / cycles
                         for unit, share in after.utilization.items()}
    after.stalls = {reason: round(line(before.stalls.get(reason, 0), count)) for reason, count in after.stalls.items()}
    after.per_line = {index: {reason: round(line(before.per_line.get(index, {}).get(reason, 0), count))
                              for reason, count in reasons.items()} for index, reasons in after.per_line.items()}
    after.clocks_per_wave = line(before.clocks_per_wave, after.clocks_per_wave)
    after.wait_rate = line(before.wait_rate * before.cycles, after.wait_rate * after.cycles) / cycles
    after.starve_rate = line(before.starve_rate * before.cycles, after.starve_rate * after.cycles) / cycles
    after.stall_rate = min(1.0, sum(after.stalls.values()) / max(1.0, after.clocks_per_wave * after.waves))
    after.work_items_per_cycle *= after.cycles / cycles
    after.cycles = cycles
    path = after.path
    path.by_class = {name: round(line(before.path.by_class.get(name, 0), count))
                     for name, count in path.by_class.items()}
    for run in path.loops:
        if run.label == loop.label:  # its trips as the full path counts them, and where they came from
            run.trips, run.from_kernargs = run.entries * trips, loop.from_kernargs
    path.trips = {run.label: run.trips for run in path.loops if run.trips}
    after.bottleneck = bottleneck(after)
    return after


def requested_bytes_per_wave(manager: AnalysisManager, path: SimulatedPath, main: tuple[LoopRun, int] | None,
                             trip_counts: dict[str, int], taken: dict[str, str], kernargs: dict[str, int] | None) -> int:
    """Bytes one wave's vector memory instructions move along `path` (its main loop's trips extended linearly)."""
    def_use = manager.get(DefUseAnalysis)
    assert def_use is not None  # (predict() returns first without it)
    wave = def_use.wave_size
    units = [info.klass.unit for info in def_use.per_instruction]
    sizes = [lane_bytes(instruction.mnemonic) * wave if unit == "vmem" else 0
             for instruction, unit in zip(manager.kernel.instructions, units, strict=True)]
    if main is None:
        return sum(sizes[index] for index in path.indices)
    loop, trips = main
    low, high = (sum(sizes[index] for index in trace(manager, {**trip_counts, loop.label: n}, taken, kernargs).indices)
                 for n in (STEP, 2 * STEP))
    return round(high + (high - low) * (trips - 2 * STEP) / STEP)


def predict(module: Module, kernel: Kernel, launch: Launch, device: Device, *, trip_counts: dict[str, int],
            taken: dict[str, str], kernargs: dict[str, int] | None = None,
            working_set: int | None = None) -> Prediction | None:
    """The launch's time on `device` (module docstring); None without a target, resources or the device's clock."""
    target = module.target
    manager = AnalysisManager(module, kernel)
    resources = manager.get(ResourceAnalysis)
    def_use = manager.get(DefUseAnalysis)
    if target is None or resources is None or not device.clock_mhz or def_use is None:
        return None
    occupancy = resources.occupancy
    geometry = fill(launch, target, occupancy, resources.cumode)
    if geometry.per_unit < 1:
        return None
    machine = machine_for(target)
    cus = machine.cus(resources.cumode)
    wave_size = def_use.wave_size
    group_waves = max(1, -(-resources.wg_size // wave_size))
    path = trace(manager, trip_counts, taken, kernargs)
    main = main_loop(path, trip_counts)
    requested = (requested_bytes_per_wave(manager, path, main, trip_counts, taken, kernargs) * group_waves
                 * launch.workgroups)
    timing = manager.get(PrefetchAnalysis)
    assert timing is not None  # (None without a target only)
    fallback = timing.table["vmem_load"]
    fallback_latency = (fallback.low + fallback.high) // 2
    total, slots, units = launch.workgroups, geometry.slots_per_wave, geometry.units
    full, tail = divmod(total, slots)
    shapes = [(geometry.per_unit, units, full)] if full else []
    if tail:
        shapes.append((math.ceil(tail / units), min(tail, units), 1))
    rounds: list[Round] = []
    simulated: dict[tuple[int, int], Simulation] = {}  # a tail as deep and wide as a full round runs as one
    for per_unit, busy, count in shapes:
        if (per_unit, busy) not in simulated:
            memory = memory_system(device, busy * cus, requested, working_set, fallback_latency)
            found = steady_simulation(module, kernel, per_unit * group_waves, trip_counts=trip_counts, taken=taken,
                                      kernargs=kernargs, group_waves=group_waves, memory=memory, main=main)
            if found is None:
                return None
            simulated[per_unit, busy] = found
        rounds.append(Round(per_unit, busy, count, simulated[per_unit, busy]))
    cycles = sum(r.count * r.simulation.cycles for r in rounds)
    bounds = {name: sum(r.count * r.simulation.cycles * _shares(r.simulation)[name] for r in rounds) / max(1, cycles)
              for name in BOUNDS}
    warnings = [warning for r in rounds for warning in r.simulation.warnings]
    warnings += [warning for r in rounds[:1] for warning in r.simulation.path.warnings()]
    return Prediction(device.name, device.clock_mhz, total, slots, rounds, cycles, bounds, list(dict.fromkeys(warnings)))


def _shares(simulation: Simulation) -> dict[str, float]:
    """Per bound, the share of the round's time it holds: a unit's busy share, or the share of wave time waves
    wait on memory counters while DRAM is not saturated (latency), or at barriers."""
    wave_time = max(1.0, simulation.clocks_per_wave * simulation.waves)
    dram = min(1.0, simulation.utilization.get("DRAM", 0.0))
    waiting = sum(simulation.stalls.get(reason, 0) for reason in _MEMORY_WAITS) / wave_time
    return {"memory bandwidth": dram, "MFMA": simulation.utilization.get("MFMA", 0.0),
            "VALU issue": simulation.utilization.get("VALU", 0.0), "LDS": simulation.utilization.get("LDS", 0.0),
            "memory latency": min(1.0, waiting) * (1 - dram),
            "barriers": min(1.0, simulation.stalls.get("barrier", 0) / wave_time)}
