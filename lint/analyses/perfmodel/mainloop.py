"""A kernel's main loop and its predicted cycles per trip (what `amdgpu-lint baseline` records and the
performance-regression rule compares).

The main loop is the innermost loop the simulated path spends the most cycles in (among the loops
`--trip-count` names, when it names any). Its cost per trip is a difference of two runs of the simulator that
differ only in its trips (LOW_TRIPS and HIGH_TRIPS per entry; every other loop keeps its `--trip-count`, else
runs LOW_TRIPS): the prologue, the epilogue and the waves' ramp-up cancel, leaving the steady state. The same
difference splits the cost by bound (each unit's busy cycles, each kind of stall) and by source line (issue and
stall cycles of the line's instructions). Deterministic: the simulator has no randomness.
"""

from __future__ import annotations

import re
from collections import Counter as Tally
from collections import defaultdict
from dataclasses import dataclass, field

from ...model.ir import Kernel, Module, Provenance
from ..manager import AnalysisManager

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .simulator import Simulation

LOW_TRIPS = 2  # trips per entry of the main loop in the first run, of every loop not named in the runs
HIGH_TRIPS = 10  # the main loop's in the second
RECORDED_LINES = 64  # the costliest lines a baseline records
#: the simulator's units (its utilization keys) -> the bound their busy cycles are
_UNIT_BOUNDS = {"VALU": "VALU issue", "MFMA": "MFMA pipe", "SALU": "scalar issue", "SMEM": "scalar issue",
                "branch": "scalar issue", "VMEM": "VMEM issue", "LDS": "LDS issue", "export": "export"}
#: the simulator's stall reasons -> the bound they are (waits on a counter by the counter's kind)
_STALL_BOUNDS = {"barrier": "barriers", "MFMA result": "MFMA dependencies", "MFMA pipe busy": "MFMA pipe contention",
                 "VALU busy": "multi-cycle VALU", "VMEM pipe busy": "VMEM pipe contention",
                 "LDS pipe busy": "LDS pipe contention", "s_nop": "s_nop"}
_COMMENT = re.compile(r"//|;")  # where a line's comment starts (a key leaves it out: editing it moves nothing)
#: stall reasons that are waits for a unit another wave holds
CONTENTION = frozenset({"VALU busy", "VMEM pipe busy", "LDS pipe busy", "MFMA pipe busy"})
#: the bounds that are a unit's busy cycles (per SIMD or pipe); the others are stalls, per wave
UNIT_BOUNDS = frozenset(_UNIT_BOUNDS.values())
_LDS_SMEM_COUNTERS = ("lgkmcnt", "dscnt", "kmcnt")


def stall_bound(reason: str) -> str:
    """The bound a stall reason of the simulator belongs to."""
    if reason.startswith("waiting on "):
        return "LDS/SMEM latency" if reason.removeprefix("waiting on ") in _LDS_SMEM_COUNTERS else "memory latency"
    return _STALL_BOUNDS.get(reason, reason)


@dataclass(slots=True, repr=False, init=False, eq=False)
class LoopCost:
    """The main loop's predicted cost per trip on one CU (WGP) running `waves` waves."""

    label: str
    line: int  # of its first instruction
    waves: int
    cycles_per_trip: float  # the unit's cycles for one trip of every wave
    bounds: dict[str, float]  # bound -> cycles per trip: a unit's busy cycles (per SIMD or pipe), a stall's per wave
    lines: dict[str, float]  # line key (its code, spaces collapsed, "#n" from the second alike) -> wave-cycles per trip
    unit: str = "CU"  # what the waves ran on: a CU, or a WGP in gfx10+ WGP mode
    where: dict[str, Provenance] = field(default_factory=dict)  # line key -> where it is now

    def __init__(self, label: str, line: int, waves: int, cycles_per_trip: float, bounds: dict[str, float],
                 lines: dict[str, float], unit: str = "CU", where: dict[str, Provenance] | None = None) -> None:
        self.label = label
        self.line = line
        self.waves = waves
        self.cycles_per_trip = cycles_per_trip
        self.bounds = bounds
        self.lines = lines
        self.unit = unit
        self.where = {} if where is None else where

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LoopCost) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.label, self.line, self.waves, self.cycles_per_trip, self.bounds, self.lines, self.unit,
            self.where) == (
            other.label, other.line, other.waves, other.cycles_per_trip, other.bounds, other.lines, other.unit,
            other.where)

    @property
    def per_wave(self) -> float:
        """Cycles per trip of one wave's share of the unit: what compares across occupancies."""
        return self.cycles_per_trip / max(1, self.waves)

    def to_json(self) -> dict:
        return {"loop": self.label, "line": self.line, "waves": self.waves,
                "cycles_per_trip": self.cycles_per_trip, "bounds": self.bounds, "lines": self.lines}


def main_loop_cost(module: Module, kernel: Kernel, waves: int, *, trip_counts: dict[str, int] | None = None,
                   taken: dict[str, str] | None = None, kernargs: dict[str, int] | None = None,
                   manager: AnalysisManager | None = None, prefer: str | None = None,
                   keep_lines: int | None = RECORDED_LINES) -> LoopCost | None:
    """The main loop's cost per trip with `waves` waves on the unit; None when the kernel has no loop the path
    enters, no known target, or a run stops at a cap. `prefer`: the loop to measure when it is a candidate (the
    one a baseline measured); `keep_lines`: the costliest lines kept (None: all)."""
    if module.target is None or not kernel.instructions:
        return None
    from .simulator import loop_bodies, simulate  # imported only when a snapshot asks for a measure (start-up)

    manager = manager or AnalysisManager(module, kernel)
    bodies = loop_bodies(manager)
    if not bodies:
        return None
    given = dict(trip_counts or {})
    counts = {label: given.get(label, LOW_TRIPS) for label in bodies} | given

    def run(per_entry: dict[str, int]) -> Simulation | None:
        result = simulate(module, kernel, waves, trip_counts=per_entry, taken=taken, kernargs=kernargs,
                          manager=manager)
        return None if result is None or result.warnings or result.path.truncated else result

    low = run(counts)
    if low is None:
        return None
    innermost = [label for label, body in bodies.items()
                 if low.path.trips.get(label) and not any(other != body and other.start >= body.start
                                                          and other.stop <= body.stop for other in bodies.values())]
    named = [label for label in innermost if label in given]
    candidates = named or innermost
    if not candidates:
        return None
    main = prefer if prefer in candidates else max(
        candidates, key=lambda label: (sum(_line_cycles(low, bodies[label]).values()), -bodies[label].start))
    high = run(counts | {main: counts[main] + HIGH_TRIPS - LOW_TRIPS})
    if high is None:
        return None
    trips = high.path.trips.get(main, 0) - low.path.trips.get(main, 0)
    cycles = (high.cycles - low.cycles) / trips if trips > 0 else 0.0
    if cycles <= 0:
        return None
    body = bodies[main]
    low_lines, high_lines = _line_cycles(low, body), _line_cycles(high, body)
    per_line: dict[str, float] = defaultdict(float)
    key_of: dict[tuple[str, int], str] = {}  # (path, line) -> its key
    first: dict[str, Provenance] = {}  # key -> its first instruction's place
    seen: Tally = Tally()
    for index in body:
        at = kernel.instructions[index].where
        spot = (at.path, at.line)
        if spot not in key_of:
            source = module.sources.get(at.path)
            code = _COMMENT.split(source.line_text(at.line) if source else "", maxsplit=1)[0]
            text = " ".join(code.split()) or kernel.instructions[index].mnemonic
            seen[text] += 1
            key_of[spot] = text if seen[text] == 1 else f"{text} #{seen[text]}"
            first[key_of[spot]] = at
        per_line[key_of[spot]] += (high_lines.get(index, 0) - low_lines.get(index, 0)) / (trips * waves)
    costliest = sorted(per_line.items(), key=lambda item: -item[1])[:keep_lines]
    kept = {key: round(value, 1) for key, value in costliest if round(value, 1) > 0}
    return LoopCost(main, kernel.instructions[body.start].where.line, waves, round(cycles, 1),
                    _bounds(low, high, trips), kept, high.unit, {key: first[key] for key in kept})


def _line_cycles(result: Simulation, body: range) -> dict[int, int]:
    """Wave-cycles each instruction of `body` cost: its issues and the stalls it caused (waiting for what it needs,
    not for a unit another wave's instruction holds: that wait is the other instruction's cost, shown in the
    unit's bound)."""
    return {index: result.issued.get(index, 0) + sum(cycles for reason, cycles in result.per_line.get(index, {}).items()
                                                     if reason not in CONTENTION)
            for index in body if index in result.issued or index in result.per_line}


def _bounds(low: Simulation, high: Simulation, trips: int) -> dict[str, float]:
    bounds: dict[str, float] = defaultdict(float)
    for unit, name in _UNIT_BOUNDS.items():
        bounds[name] += (high.utilization[unit] * high.cycles - low.utilization[unit] * low.cycles) / trips
    for reason in set(low.stalls) | set(high.stalls):
        bounds[stall_bound(reason)] += (high.stalls.get(reason, 0) - low.stalls.get(reason, 0)) / (trips * high.waves)
    return {name: round(value, 1) for name, value in sorted(bounds.items()) if round(value, 1) > 0}
