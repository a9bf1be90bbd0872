"""## What it finds
Kernels whose main loop the performance model predicts at least 5% slower per trip than in a
baseline written by `amdgpu-lint baseline` (pass it with `--baseline FILE` or `baseline = "..."`
in the configuration). The finding names the bound that moved most (VALU issue, MFMA pipe, VMEM
or LDS issue, memory latency, LDS/SMEM latency, barriers, MFMA dependencies, ...) and, as notes,
the lines whose cost per trip grew most.

The main loop is the innermost loop the simulated path spends the most cycles in (or, among
them, one `baseline --trip-count LABEL=N` names; the check reuses the trip counts, `--taken` and
`--kernarg` the baseline was written with). Its cycles per trip come from two runs of the CU
simulator (`report --simulate`) that differ only in the loop's trips (2 and 10 per entry, every
other loop 2 unless named), so the prologue, epilogue and ramp-up cancel. The waves simulated are
the kernel's occupancy per CU (WGP); the comparison is per wave, so a fall in occupancy that costs
time shows here too (occupancy-regression names the registers).

Only kernels whose baseline entry has a recorded main loop are simulated, so a check without a
baseline, or with one written before this rule existed, costs nothing. A kernel the simulator
cannot run (no loop on its path, no known target, a run stopping at a cap) is skipped quietly.

## Why it matters
A change that keeps occupancy can still cost time: one more dependent instruction in the hot loop,
a prefetch moved after its wait, an extra barrier. The model's numbers are not the hardware's
(no cache misses, one latency per kind of access), but the same model on both versions shows
which way the loop moved and where.

## Example
A prefetch a trip ahead undone (the load now waited for right after it is issued), on a gfx942
kernel at 2 waves/SIMD:
```
k.s:7:3: warning: 'k' is predicted 23% slower: its main loop (.Lloop, line 13) takes 804 cycles
per trip on a CU running 8 waves, 656 in the baseline; the bound that moved: memory latency
500 -> 648 cycles per wave and trip; most of it at line 14 (+148 cycles per wave and trip)
k.s:14:3: note: s_waitcnt vmcnt(0): 504 -> 652 cycles per wave and trip
```

## How to fix
Look at the lines the notes name: restore the prefetch distance, break the new dependency chain,
or move the wait later. When the slowdown is intended (a correctness fix, more work per trip),
refresh the baseline with `amdgpu-lint baseline`.
"""

from collections.abc import Iterator

from amdgpu_lint.analyses.perfmodel.mainloop import RECORDED_LINES, UNIT_BOUNDS, LoopCost, main_loop_cost
from amdgpu_lint.analyses.resources import ResourceAnalysis
from amdgpu_lint.driver.rule import KernelContext
from amdgpu_lint.model.diagnostics import Diagnostic, Note, Severity

from .occupancy_regression import baseline_key

CODE = "AGL108"
NAME = "performance-regression"
SEVERITY = Severity.WARNING
SUMMARY = "main loop predicted slower than in the baseline"
SCOPE = "kernel"
REQUIRES = (ResourceAnalysis,)

THRESHOLD = 1.05  # predicted at least 5% slower per wave and trip
RECORD = "performance"  # the baseline entry's key for the main loop's cost
SHOWN_LINES = 3


def _numbers(value: object, whole: bool = False) -> dict:
    """A recorded table of name -> number (`whole`: integers only), anything else left out."""
    if not isinstance(value, dict):
        return {}
    return {name: number for name, number in value.items() if isinstance(name, str)
            and isinstance(number, int if whole else (int, float)) and not isinstance(number, bool)}


def _strings(value: object) -> dict[str, str]:
    if not isinstance(value, dict):
        return {}
    return {name: text for name, text in value.items() if isinstance(name, str) and isinstance(text, str)}


def check(context: KernelContext) -> Iterator[Diagnostic]:
    options = context.module.options
    resources = context.get(ResourceAnalysis)
    if resources is None or options is None or not options.baseline or not context.kernel.is_kernel:
        return
    entry = options.baseline.get("kernels", {}).get(baseline_key(context.module.path, context.kernel.name))
    before = entry.get(RECORD) if isinstance(entry, dict) else None
    if not isinstance(before, dict):
        return
    cycles, was_waves = before.get("cycles_per_trip"), before.get("waves")
    if not isinstance(cycles, (int, float)) or not isinstance(was_waves, int) or cycles <= 0 or was_waves <= 0:
        return
    label = before.get("loop")
    now = main_loop_cost(context.module, context.kernel, resources.occupancy.waves_per_cu or 4,
                         trip_counts=_numbers(before.get("trip_counts"), whole=True), taken=_strings(before.get("taken")),
                         kernargs=_numbers(before.get("kernargs"), whole=True), manager=context.analyses,
                         prefer=label if isinstance(label, str) else None, keep_lines=None)
    if now is None or now.per_wave < THRESHOLD * cycles / was_waves:
        return
    yield context.diagnostic(context.kernel.where, _message(context.kernel.name, before, cycles, was_waves, now),
                             kernel=context.kernel.name, notes=_notes(before, now))


def _message(kernel: str, before: dict, cycles: float, was_waves: int, now: LoopCost) -> str:
    slower = now.per_wave / (cycles / was_waves) - 1
    loop = f"{now.label}, line {now.line}"
    if isinstance(before.get("loop"), str) and before["loop"] != now.label:
        loop += f"; the baseline measured {before['loop']}"
    waves = f"{now.waves} waves" + (f" ({was_waves} in the baseline)" if was_waves != now.waves else "")
    text = (f"'{kernel}' is predicted {slower:.0%} slower: its main loop ({loop}) takes {now.cycles_per_trip:g} "
            f"cycles per trip on a {now.unit} running {waves}, {cycles:g} in the baseline")
    bounds = _numbers(before.get("bounds"))
    grown = max(now.bounds.keys() | bounds.keys(), key=lambda name: (now.bounds.get(name, 0) - bounds.get(name, 0), name),
                default=None)
    if grown is not None and now.bounds.get(grown, 0) > bounds.get(grown, 0):
        per = "trip" if grown in UNIT_BOUNDS else "wave and trip"
        text += (f"; the bound that moved: {grown} {bounds.get(grown, 0):g} -> {now.bounds.get(grown, 0):g} "
                 f"cycles per {per}")
    lines = _grown_lines(before, now)
    if lines:
        key, growth = lines[0]
        text += f"; most of it at line {now.where[key].line} (+{growth:g} cycles per wave and trip)"
    return text


def _was(before: dict) -> tuple[dict[str, float], float]:
    """The lines the baseline recorded, and what one it did not record cost at most: 0, unless it kept only the
    costliest lines (then the least of those)."""
    was = _numbers(before.get("lines"))
    return was, min(was.values()) if len(was) >= RECORDED_LINES else 0


def _grown_lines(before: dict, now: LoopCost) -> list[tuple[str, float]]:
    """The lines whose cost per trip grew most."""
    was, floor = _was(before)
    growth = [(key, round(cost - was.get(key, floor), 1)) for key, cost in now.lines.items()]
    return sorted((item for item in growth if item[1] >= 0.5), key=lambda item: -item[1])[:SHOWN_LINES]


def _notes(before: dict, now: LoopCost) -> tuple[Note, ...]:
    was, floor = _was(before)
    notes = []
    for key, _ in _grown_lines(before, now):
        where = now.where[key]
        earlier = f"{was[key]:g}" if key in was else f"at most {floor:g}" if floor else "0"
        notes.append(Note(f"{key}: {earlier} -> {now.lines[key]:g} cycles per wave and trip", where.path,
                          where.line, where.column))
    return tuple(notes)
