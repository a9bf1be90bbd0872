"""Wait-counter dataflow: which memory operations may still be outstanding at each instruction.

The model is LLVM's SIInsertWaitcnts (llvm-amdgpu-facts.md §2): every memory event counts on
one or more counters; events of one type on a counter retire in order, so a register written
by an event with `d` newer events on that counter is safe after `wait(d)`. SMEM retires out of
order, and a counter with mixed event types (LDS + SMEM, LDS-DMA + loads, or a FLAT access that
may touch both VMEM and LDS) only proves anything with `wait(0)`. A counter never holds more
than its maximum: the hardware stalls issue, so an event with MAX newer ones has retired.
Joins keep the larger outstanding count and the nearest (most recent) producer; loops are
iterated to a fixed point. Non-kernel functions start with unknown events in flight.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..ir import Kernel
from ..isa.defuse import DefUse, Unit
from ..isa.waits import wait_counts
from ..targets import Target
from .cfg import CFGAnalysis
from .defuse import DefUseAnalysis
from .manager import Analysis, AnalysisManager

LDS_DMA: Unit = ("lds_dma", 0)  # LDS written by buffer_load ... lds / global_load_lds
LDS_STORE: Unit = ("lds_store", 0)  # LDS written by this wave's ds_write / ds atomics
_REGISTER_FILES = frozenset(("v", "s", "a"))
LOAD_COUNTERS = frozenset(("vmcnt", "loadcnt", "samplecnt", "bvhcnt"))
#: Cache invalidations: loads still in flight would refill the cache behind them (LLVM waits first).
_INVALIDATES = ("buffer_wbinvl1", "buffer_gl0_inv", "buffer_gl1_inv", "buffer_inv", "global_inv")


@dataclass(slots=True)
class Counter:
    """Outstanding events on one counter."""

    pending: int = 0
    types: frozenset[str] = frozenset()
    regs: dict[Unit, tuple[int, int, str]] = field(default_factory=dict)  # unit -> (newer events, producer, type)
    flat: bool = False  # a FLAT access that may hit VMEM or LDS is outstanding
    unknown: bool = False  # events of the caller may be outstanding (function entry)

    def copy(self) -> Counter:
        return Counter(self.pending, self.types, dict(self.regs), self.flat, self.unknown)

    @property
    def out_of_order(self) -> bool:
        return self.flat or self.unknown or "smem" in self.types or len(self.types) > 1

    def merge(self, other: Counter) -> Counter:
        regs = dict(self.regs)
        for unit, entry in other.regs.items():
            if unit not in regs or entry[0] < regs[unit][0]:
                regs[unit] = entry
        return Counter(max(self.pending, other.pending), self.types | other.types, regs,
                       self.flat or other.flat, self.unknown or other.unknown)

    def same(self, other: Counter) -> bool:
        return (self.pending, self.types, self.regs, self.flat, self.unknown) == (
            other.pending, other.types, other.regs, other.flat, other.unknown)

    def wait(self, count: int) -> None:
        if count == 0:
            self.pending, self.types, self.regs, self.flat, self.unknown = 0, frozenset(), {}, False, False
            return
        if not self.out_of_order:
            self.regs = {unit: entry for unit, entry in self.regs.items() if entry[0] < count}
        self.pending = min(self.pending, count)


State = dict[str, Counter]


@dataclass(frozen=True, slots=True)
class Event:
    counter: str
    kind: str
    units: frozenset[Unit]
    flat: bool = False  # part of a FLAT access that may go to VMEM or to LDS


@dataclass(frozen=True, slots=True)
class Need:
    """A wait some instruction needs: count on a counter, for a unit, because of a producer."""

    counter: str
    count: int
    unit: Unit
    producer: int | None  # instruction index; None for the caller's events at function entry
    access: str  # "read", "overwritten", "barrier-lds", "barrier-vmem", "return"


@dataclass
class WaitReport:
    """Per instruction: the waits it lacks, and for wait instructions whether they did anything."""

    missing: dict[int, list[Need]]
    useless_waits: list[int]  # wait instructions that retire nothing on any path
    states_before: dict[int, State]  # state before each wait instruction (for over-strict checks)


def events_of(info: DefUse, target: Target) -> list[Event]:
    """The counter events one instruction starts."""
    klass = info.klass
    if not klass.counters:
        return []
    gfx10 = target.major >= 10
    events = []
    registers = frozenset(unit for unit in info.defs if unit[0] in _REGISTER_FILES)
    flat = klass.unit == "vmem" and klass.memory == "flat"
    for counter in klass.counters:
        if counter == "expcnt":  # export / GDS / gfx6 store data: the sources must not change
            sources = frozenset(unit for unit in info.uses if unit[0] == "v")
            events.append(Event(counter, "export", sources))
        elif klass.unit == "vmem":
            if counter in ("lgkmcnt", "dscnt"):
                events.append(Event(counter, "flat", registers, flat=True))
            elif klass.lds_dma:
                events.append(Event(counter, "lds_dma", frozenset({LDS_DMA})))
            elif counter in ("vscnt", "storecnt"):
                events.append(Event(counter, "write", frozenset()))
            else:
                kind = (klass.sampler or "read") if gfx10 else "vmem"
                events.append(Event(counter, kind, registers, flat=flat))
        elif klass.unit == "smem":
            events.append(Event(counter, "smem", registers))
        elif klass.unit == "ds":
            marked = registers | ({LDS_STORE} if klass.kind in ("write", "write2", "atomic") else frozenset())
            events.append(Event(counter, klass.memory, marked))
        elif klass.unit == "message":
            events.append(Event(counter, "message", frozenset()))
    return events


def _add_event(state: State, event: Event, index: int, maximum: int) -> None:
    counter = state[event.counter]
    shifted = {unit: (entry[0] + 1, entry[1], entry[2]) for unit, entry in counter.regs.items() if entry[0] + 1 < maximum}
    for unit in event.units:
        shifted[unit] = (0, index, event.kind)
    counter.regs = shifted
    counter.pending = min(counter.pending + 1, maximum)
    counter.types = counter.types | {event.kind}
    counter.flat = counter.flat or event.flat


def _needs(index: int, info: DefUse, mnemonic: str, state: State, target: Target, is_function: bool) -> list[Need]:
    needs: list[Need] = []
    own = {(event.counter, event.kind) for event in events_of(info, target)}
    uses = set(info.uses)
    if info.klass.unit == "ds" or (info.klass.unit == "vmem" and info.klass.memory == "flat"):
        uses.add(LDS_DMA)
    for name, counter in state.items():
        if counter.unknown:
            touched = [unit for unit in (*info.uses, *info.defs) if unit[0] in _REGISTER_FILES]
            if touched:
                needs.append(Need(name, 0, min(touched), None, "read" if touched[0] in info.uses else "overwritten"))
                continue
        for unit in uses:
            entry = counter.regs.get(unit)
            if entry is not None:
                needs.append(Need(name, 0 if counter.out_of_order else entry[0], unit, entry[1], "read"))
        for unit in info.defs:
            entry = counter.regs.get(unit)
            if entry is None or unit[0] not in _REGISTER_FILES:
                continue
            if name in LOAD_COUNTERS and (name, entry[2]) in own:
                continue  # loads of one type write their VGPRs in order
            needs.append(Need(name, 0 if counter.out_of_order else entry[0], unit, entry[1], "overwritten"))
    if info.klass.unit == "barrier":
        for name in ("lgkmcnt", "dscnt"):
            counter = state.get(name)
            entry = counter.regs.get(LDS_STORE) if counter else None
            if entry is not None:
                needs.append(Need(name, 0 if counter.out_of_order else entry[0], LDS_STORE, entry[1], "barrier-lds"))
        vm = state.get("vmcnt")
        if not target.has_back_off_barrier and vm is not None and vm.pending:
            producer = max((entry[1] for entry in vm.regs.values()), default=None)
            needs.append(Need("vmcnt", 0, ("vmem", 0), producer, "barrier-vmem"))
    if mnemonic.startswith(_INVALIDATES):
        for name in ("vmcnt", "loadcnt"):
            counter = state.get(name)
            if counter is not None and counter.pending:
                producer = max((entry[1] for entry in counter.regs.values()), default=None)
                needs.append(Need(name, 0, ("vmem", 0), producer, "invalidate"))
    if is_function and info.klass.unit == "return":
        for name, counter in state.items():
            if name not in ("vscnt", "storecnt") and (counter.regs or counter.unknown):
                unit = min(counter.regs) if counter.regs else ("v", 0)
                producer = counter.regs[unit][1] if counter.regs else None
                needs.append(Need(name, 0, unit, producer, "return"))
    return needs


def _walk_block(state: State, instructions, def_use: list[DefUse], start: int, target: Target,
                is_function: bool, report: WaitReport | None) -> State:
    maxima = target.wait_counter_max
    for offset, instruction in enumerate(instructions):
        index = start + offset
        info = def_use[index]
        counts = wait_counts(instruction.mnemonic, instruction.operands, target) if info.klass.unit == "wait" else None
        if counts is not None:
            if report is not None:
                report.states_before[index] = {name: counter.copy() for name, counter in state.items()}
                if counts and not any(_retires(state[name], count) for name, count in counts.items()):
                    report.useless_waits.append(index)
            for name, count in counts.items():
                state[name].wait(count)
            continue
        needs = _needs(index, info, instruction.mnemonic, state, target, is_function)
        if needs:
            if report is not None:
                report.missing[index] = needs
            for need in needs:  # assume the wait is added, so one mistake gives one finding
                state[need.counter].wait(need.count)
        if info.klass.unit == "call":
            # the callee waits for everything but stores before it returns: its stores may be in flight
            for name in state:
                stores = name in ("vscnt", "storecnt")
                state[name] = Counter(maxima[name] if stores else 0, frozenset({"write"}) if stores else frozenset())
            continue
        for event in events_of(info, target):
            _add_event(state, event, index, maxima[event.counter])
    return state


def _retires(counter: Counter, count: int) -> bool:
    if counter.unknown and count == 0:
        return True
    if counter.pending > count:
        return True
    return not counter.out_of_order and any(entry[0] >= count for entry in counter.regs.values())


class WaitcntAnalysis(Analysis):
    """Fixed-point dataflow of outstanding memory events; None without a known target."""

    name = "waitcnt"

    @classmethod
    def run(cls, kernel: Kernel, manager: AnalysisManager) -> WaitReport | None:
        target = manager.module.target
        def_use = manager.get(DefUseAnalysis)
        if target is None or def_use is None:
            return None
        cfg = manager.get(CFGAnalysis)
        blocks, starts = cfg.blocks, cfg.starts
        # a callable function returns (s_setpc_b64) and never ends the program; its callers may
        # still have loads in flight at entry. Unmarked code that ends with s_endpgm is a kernel.
        mnemonics = {instruction.mnemonic for instruction in kernel.instructions}
        is_function = not kernel.is_kernel and "s_setpc_b64" in mnemonics and not any(
            m.startswith("s_endpgm") for m in mnemonics)

        def initial() -> State:
            # stores in flight from the caller write no register: only the other counters are unknown
            return {name: Counter(unknown=is_function and name not in ("vscnt", "storecnt"))
                    for name in target.wait_counter_max}

        incoming: list[State | None] = [None] * len(blocks)
        if blocks:
            incoming[0] = initial()
        worklist = [0] if blocks else []
        visits = 0
        while worklist and visits < 50 * len(blocks) + 100:
            visits += 1
            index = worklist.pop(0)
            state = {name: counter.copy() for name, counter in incoming[index].items()}
            out = _walk_block(state, blocks[index].instructions, def_use.per_instruction, starts[index],
                              target, is_function, None)
            for successor in blocks[index].successors:
                current = incoming[successor]
                merged = out if current is None else {name: current[name].merge(out[name]) for name in out}
                if current is None or any(not merged[name].same(current[name]) for name in merged):
                    incoming[successor] = {name: counter.copy() for name, counter in merged.items()}
                    if successor not in worklist:
                        worklist.append(successor)
        report = WaitReport({}, [], {})
        for index, block in enumerate(blocks):
            if incoming[index] is not None:
                state = {name: counter.copy() for name, counter in incoming[index].items()}
                _walk_block(state, block.instructions, def_use.per_instruction, starts[index], target,
                            is_function, report)
        return report
