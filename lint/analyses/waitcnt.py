"""Wait-counter dataflow: which memory operations may still be outstanding at each instruction.

The model is LLVM's SIInsertWaitcnts (llvm-amdgpu-facts.md §2): every memory event counts on
one or more counters; events of one type on a counter retire in order, so a register written
by an event with `d` newer events on that counter is safe after `wait(d)`. SMEM retires out of
order, and a counter with mixed event types (LDS + SMEM, LDS-DMA + loads, or a FLAT access that
may touch both VMEM and LDS) only proves anything with `wait(0)`. A counter never holds more
than its maximum: the hardware stalls issue, so an event with MAX newer ones has retired.
Joins keep the larger outstanding count and the nearest (most recent) producer; loops are
iterated to a fixed point, blocks taken in program order. Non-kernel functions start with
unknown events in flight. Paths that cannot happen are dropped (_BranchFacts): identical re-tests
of an unchanged SCC condition, and SGPRs compared with constants, whose ranges each branch edge
narrows until the SGPR is written.

What LLVM's output shows and a listing cannot: a FLAT access counts on the LDS counter only when
the kernel (or function) can build an LDS address, i.e. reads the shared aperture
(`src_shared_base`/`src_shared_limit`, `hwreg(HW_REG_SH_MEM_BASES)`); otherwise it is a global
access, as LLVM treats flat-for-global and tgsplit code. An `s_setpc_b64` whose target was built
from a symbol (`s_getpc_b64` + `@rel32`, a GOT load) on every path into it, through copies and
VGPR-lane spills, is a tail call: the callee waits at entry.
On targets without a back-off barrier every counter drained before `s_barrier` is reported but never
assumed. A trap handler (it returns with `s_rfe`) must not leave results in flight into registers at
`s_rfe`, nor messages in flight at `s_rfe` or `s_endpgm`; `s_sendmsg_rtn` writes its destination
(EXEC too) when the message returns, on the LDS/SMEM counter.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field, replace
from heapq import heappop, heappush

from ..isa import absent_mnemonics
from ..isa.defuse import DefUse, Unit, register_units
from ..isa.waits import wait_counts
from ..model.frozen import frozen_dataclass
from ..model.ir import BasicBlock, Instruction, Kernel
from ..model.nodes import HWREG_IDS, Num, SpecialReg, hardware_register, mentions_symbols
from ..model.targets import Target
from .cfg import CFGAnalysis, ControlFlowGraph
from .defuse import DefUseAnalysis, InstructionFacts
from .manager import Analysis, AnalysisManager

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Literal

#: Need.access of an LDS DMA still in flight where the listing shows no overlap with the access (warnings)
LDS_DMA_UNPROVEN = ("lds-dma-unproven", "lds-dma-m0-elsewhere")
LDS_DMA: Unit = ("lds_dma", -1)  # LDS written by buffer_load ... lds / global_load_lds; in a state ("lds_dma", index)
LDS_STORE: Unit = ("lds_store", 0)  # LDS written by this wave's ds_write / ds atomics
_REGISTER_FILES = frozenset(("v", "s", "a"))
#: Registers a memory operation or message may write later: the register files, the trap temporaries, and
#: EXEC, VCC and M0 (`s_sendmsg_rtn_b32 exec_lo` or an SMEM load into them).
_RESULT_FILES = _REGISTER_FILES | {"ttmp", "exec", "vcc", "m0"}
#: What a target without a back-off barrier drains before s_barrier (LLVM waits for every counter there).
_BARRIER_DRAINED = ("vmcnt", "expcnt", "lgkmcnt")
LOAD_COUNTERS = frozenset(("vmcnt", "loadcnt", "samplecnt", "bvhcnt"))
STORE_COUNTERS = frozenset(("vscnt", "storecnt"))
#: Counters whose events write no register a later instruction could see half-written (gfx1250's
#: asynchronous LDS copies write LDS).
_NO_REGISTER_RESULTS = STORE_COUNTERS | {"xcnt", "asynccnt"}
#: Counters a callee may leave events on: LLVM waits for stores and asynchronous LDS copies only where asked.
_LEFT_BY_CALLEES = STORE_COUNTERS | {"asynccnt"}
#: Counters that protect registers an operation reads (its sources may not be overwritten yet):
#: a read of them needs no wait. expcnt for export/GDS/gfx6 store data, gfx1250 xcnt for addresses.
_SOURCE_LOCKS = frozenset(("export", "translation"))
#: Cache invalidations: loads still in flight would refill the cache behind them (LLVM waits first).
#: (gfx12's global_inv is not one: LLVM 22 issues it with loads in flight.)
_INVALIDATES = ("buffer_wbinvl1", "buffer_gl0_inv", "buffer_gl1_inv", "buffer_inv")


@dataclass(slots=True, repr=False, eq=False, init=False)
class Counter:
    """Outstanding events on one counter. Never changed once made (states share them): a change makes a
    new one."""

    pending: int = 0
    types: frozenset[str] = frozenset()
    regs: dict[Unit, tuple[int, int, str]] = field(default_factory=dict)  # unit -> (newer events, producer, type)
    flat: bool = False  # a FLAT access that may hit VMEM or LDS is outstanding
    unknown: bool = False  # events of the caller may be outstanding (function entry)
    unseen: bool = False  # a callee may have left events here: never call a wait useless

    def __init__(self, pending: int = 0, types: frozenset[str] = frozenset(),
                 regs: dict[Unit, tuple[int, int, str]] | None = None, flat: bool = False, unknown: bool = False,
                 unseen: bool = False) -> None:
        self.pending = pending
        self.types = types
        self.regs = {} if regs is None else regs
        self.flat = flat
        self.unknown = unknown
        self.unseen = unseen

    @property
    def out_of_order(self) -> bool:
        return self.flat or self.unknown or "smem" in self.types or len(self.types) > 1

    def merge(self, other: Counter) -> Counter:
        regs = dict(self.regs)
        for unit, entry in other.regs.items():
            if unit not in regs or entry[0] < regs[unit][0]:
                regs[unit] = entry
        return Counter(max(self.pending, other.pending), self.types | other.types, regs,
                       self.flat or other.flat, self.unknown or other.unknown, self.unseen or other.unseen)

    def same(self, other: Counter) -> bool:
        return (self.pending, self.types, self.regs, self.flat, self.unknown, self.unseen) == (
            other.pending, other.types, other.regs, other.flat, other.unknown, other.unseen)

    def waited(self, count: int) -> Counter:
        """The counter after a wait for `count` outstanding events."""
        if count == 0:
            return _DRAINED
        regs = self.regs
        if not self.out_of_order:
            regs = {unit: entry for unit, entry in regs.items() if entry[0] < count}
        return Counter(min(self.pending, count), self.types, regs, self.flat, self.unknown, self.unseen)


_DRAINED = Counter()


State = dict[str, Counter]


@frozen_dataclass(frozen=True, slots=True, repr=False, init=False, eq=False)
class Event:
    """Something an instruction adds to a wait counter."""

    counter: str
    kind: str
    units: frozenset[Unit]
    flat: bool = False  # part of a FLAT access that may go to VMEM or to LDS (not counted in order)

    def __init__(self, counter: str, kind: str, units: frozenset[Unit], flat: bool = False) -> None:
        object.__setattr__(self, "counter", counter)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "units", units)
        object.__setattr__(self, "flat", flat)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Event) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.counter, self.kind, self.units, self.flat) == (other.counter, other.kind, other.units, other.flat)

    def __hash__(self) -> int:
        return hash((self.counter, self.kind, self.units, self.flat))


@frozen_dataclass(frozen=True, slots=True, repr=False, init=False, eq=False)
class Need:
    """A wait some instruction needs: count on a counter, for a unit, because of a producer."""

    counter: str
    count: int
    unit: Unit
    producer: int | None  # instruction index; None for the caller's events at function entry
    #: "read", "overwritten", "source-overwritten" (a register the operation reads), "barrier-lds",
    #: "barrier-drain", "invalidate", "return", "trap-return" (s_rfe), "message" (a trap handler's exit with a
    #: message in flight), or one of LDS_DMA_UNPROVEN
    access: str

    def __init__(self, counter: str, count: int, unit: Unit, producer: int | None, access: str) -> None:
        object.__setattr__(self, "counter", counter)
        object.__setattr__(self, "count", count)
        object.__setattr__(self, "unit", unit)
        object.__setattr__(self, "producer", producer)
        object.__setattr__(self, "access", access)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Need) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.counter, self.count, self.unit, self.producer, self.access) == (
            other.counter, other.count, other.unit, other.producer, other.access)

    def __hash__(self) -> int:
        return hash((self.counter, self.count, self.unit, self.producer, self.access))


@dataclass(slots=True, repr=False, eq=False, init=False)
class WaitReport:
    """Per instruction: the waits it lacks, and for wait instructions whether they did anything."""

    missing: dict[int, list[Need]]
    useless_waits: list[int]  # wait instructions that retire nothing on any path
    states_before: dict[int, State]  # state before each wait instruction (for over-strict checks)

    def __init__(self, missing: dict[int, list[Need]], useless_waits: list[int],
                 states_before: dict[int, State]) -> None:
        self.missing = missing
        self.useless_waits = useless_waits
        self.states_before = states_before


def events_of(info: DefUse, target: Target, flat_lds: bool = True, instruction: Instruction | None = None) -> list[Event]:
    """The counter events one instruction starts (`flat_lds`: a FLAT access may reach LDS).
    A form the tables do not list writes no register we could name: its events mark none."""
    klass = info.klass
    if not klass.counters:
        return []
    gfx10 = target.major >= 10
    events = []
    registers = frozenset(unit for unit in info.defs if unit[0] in _RESULT_FILES) if info.variant else frozenset()
    registers = info.defs if registers == info.defs else registers  # one set kept, not two equal ones
    may_reach_lds = klass.unit == "vmem" and klass.memory == "flat" and flat_lds
    flat = may_reach_lds and target.major < 10  # gfx10+ count FLAT's two halves in order (LLVM)
    kept = target.wait_counter_max
    for counter in klass.counters:
        if counter not in kept:  # a counter the target does not have (an instruction it lacks): nothing to wait for
            continue
        if counter == "xcnt":  # gfx1250: the registers an access reads stay locked until translated
            sources = frozenset(unit for unit in info.uses if unit[0] in _REGISTER_FILES) if info.variant else frozenset()
            events.append(Event(counter, "smem" if klass.unit == "smem" else "translation", sources))
        elif counter == "expcnt" and klass.unit == "lds_parameter":
            events.append(Event(counter, "lds_parameter", registers))
        elif counter == "expcnt":  # export / GDS / gfx6 store data: the sources must not change
            sources = frozenset(unit for unit in info.uses if unit[0] == "v")
            if klass.unit == "vmem" and instruction is not None and instruction.operands:
                sources = frozenset(register_units(instruction.operands[0]))  # gfx6 MUBUF/MIMG data, not address
            events.append(Event(counter, "export", sources))
        elif klass.unit == "vmem":
            if counter in ("lgkmcnt", "dscnt"):
                # the LDS half counts like an LDS access; judged global it marks no register, and
                # counting it anyway only makes older LDS results retire sooner (never a false finding)
                events.append(Event(counter, "flat", registers, flat=True) if flat else
                              Event(counter, "lds", registers if may_reach_lds else frozenset()))
            elif klass.lds_dma:  # before gfx10 the same event type as loads: they retire in order together
                events.append(Event(counter, "lds_dma" if gfx10 else "vmem", frozenset({LDS_DMA})))
            elif counter in STORE_COUNTERS or klass.kind == "cache" or counter == "asynccnt":
                kind = "write" if counter in STORE_COUNTERS else "async" if counter == "asynccnt" else "read"
                events.append(Event(counter, kind, frozenset()))
            else:
                kind = (klass.sampler or "read") if gfx10 else "vmem"
                events.append(Event(counter, kind, registers, flat=flat))
        elif klass.unit == "smem":
            events.append(Event(counter, "smem", registers))
        elif klass.unit == "ds":
            marked = registers | ({LDS_STORE} if klass.kind in ("write", "write2", "atomic") else frozenset())
            events.append(Event(counter, klass.memory, marked))
        elif klass.unit == "message":  # s_sendmsg_rtn writes its destination when the answer comes back
            events.append(Event(counter, "message", registers))
        else:  # gfx12 barrier state queries and s_barrier_leave count as SMEM
            events.append(Event(counter, "smem", registers))
    return events


def _add_event(state: State, event: Event, index: int, maximum: int) -> None:
    counter = state[event.counter]
    if event.counter == "xcnt" and counter.types - {event.kind}:
        # gfx1250 waits itself where SMEM and VMEM accesses interleave: of the earlier translations at
        # most the latest is left, and what follows retires in order
        counter = Counter(min(counter.pending, 1), frozenset(),
                          {unit: entry for unit, entry in counter.regs.items() if entry[0] == 0}, unseen=counter.unseen)
    shifted = {unit: (entry[0] + 1, entry[1], entry[2]) for unit, entry in counter.regs.items() if entry[0] + 1 < maximum}
    for unit in event.units:
        shifted[unit] = (0, index, event.kind)
    if LDS_DMA in shifted:  # each LDS DMA is its own unit: a partial wait retires the oldest ones
        shifted[("lds_dma", index)] = shifted.pop(LDS_DMA)
    types = counter.types if event.kind in counter.types else counter.types | {event.kind}
    state[event.counter] = Counter(min(counter.pending + 1, maximum), types, shifted, counter.flat or event.flat,
                                   counter.unknown, counter.unseen)


@frozen_dataclass(frozen=True, slots=True, repr=False, init=False, eq=False)
class Access:
    """The events of one instruction, given whether a FLAT access may reach LDS."""

    events: tuple[Event, ...]
    reads_lds: bool

    def __init__(self, events: tuple[Event, ...], reads_lds: bool) -> None:
        object.__setattr__(self, "events", events)
        object.__setattr__(self, "reads_lds", reads_lds)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Access) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.events, self.reads_lds) == (other.events, other.reads_lds)

    def __hash__(self) -> int:
        return hash((self.events, self.reads_lds))

    def starts(self, counter: str, kind: str) -> bool:
        """Whether it starts an event of this kind on this counter."""
        return any(event.counter == counter and event.kind == kind for event in self.events)


@frozen_dataclass(frozen=True, slots=True, repr=False, init=False, eq=False)
class WaitFacts:
    """What the walk asks about one distinct instruction (shared by its occurrences)."""

    counts: dict[str, int] | None  # what it waits for, if it is a memory-counter wait
    expcnt_wait: int | None  # the expcnt wait a gfx11+ VINTERP makes itself
    invalidates: bool  # a cache invalidation (loads in flight must land first)
    reads_aperture: bool  # can build a generic address into LDS
    test_key: tuple | None  # an SCC test, as _BranchFacts compares them
    bound: Bound | None  # an SGPR compared with a constant: the values that set SCC
    access: tuple[Access, Access]  # FLAT judged global, FLAT that may reach LDS
    unit: str  # its class's unit
    #: may need a wait with no register in flight (a barrier, a return, a cache invalidation)
    needs_without_registers: bool

    def __init__(self, counts: dict[str, int] | None, expcnt_wait: int | None, invalidates: bool, reads_aperture: bool,
                 test_key: tuple | None, bound: Bound | None, access: tuple[Access, Access], unit: str,
                 needs_without_registers: bool) -> None:
        object.__setattr__(self, "counts", counts)
        object.__setattr__(self, "expcnt_wait", expcnt_wait)
        object.__setattr__(self, "invalidates", invalidates)
        object.__setattr__(self, "reads_aperture", reads_aperture)
        object.__setattr__(self, "test_key", test_key)
        object.__setattr__(self, "bound", bound)
        object.__setattr__(self, "access", access)
        object.__setattr__(self, "unit", unit)
        object.__setattr__(self, "needs_without_registers", needs_without_registers)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, WaitFacts) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.counts, self.expcnt_wait, self.invalidates, self.reads_aperture, self.test_key, self.bound,
            self.access, self.unit, self.needs_without_registers) == (
            other.counts, other.expcnt_wait, other.invalidates, other.reads_aperture, other.test_key, other.bound,
            other.access, other.unit, other.needs_without_registers)

    def __hash__(self) -> int:
        return hash((
            self.counts, self.expcnt_wait, self.invalidates, self.reads_aperture, self.test_key, self.bound,
            self.access, self.unit, self.needs_without_registers))


def wait_facts(shared: InstructionFacts, instruction: Instruction, target: Target) -> WaitFacts:
    """The instruction's wait facts, computed once per shared facts."""
    if shared.waits is None:
        info = shared.info
        klass = info.klass
        # ds_permute/ds_bpermute/ds_swizzle (kind "other") move data between lanes and touch no LDS memory
        as_global = Access(tuple(events_of(info, target, False, instruction)), klass.unit == "ds" and klass.kind != "other")
        as_lds = as_global  # only a FLAT access may reach LDS
        if klass.unit == "vmem" and klass.memory == "flat":
            as_lds = Access(tuple(events_of(info, target, True, instruction)), True)
        invalidates = instruction.mnemonic.startswith(_INVALIDATES)
        lacked = instruction.mnemonic in absent_mnemonics(target)  # not assembled there: it waits for nothing
        shared.waits = WaitFacts(
            None if lacked else wait_counts(instruction.mnemonic, instruction.operands, target),
            _built_in_expcnt_wait(instruction),
            invalidates, _reads_shared_aperture(instruction), _test_key(instruction), _bound(instruction),
            (as_global, as_lds), klass.unit, invalidates or klass.unit in ("barrier", "return", "endpgm"))
    return shared.waits


@dataclass(slots=True, repr=False, eq=False, init=False)
class _Walk:
    """What the walk over one kernel knows besides the counter state."""

    kernel: Kernel
    def_use: list[DefUse]
    facts: list[WaitFacts]
    access: list[Access]  # each instruction's events, as the kernel's FLAT accesses are judged
    target: Target
    is_function: bool
    flat_lds: bool  # FLAT accesses may reach LDS
    tail_calls: frozenset[int]
    lds_places: _LdsPlaces  # where LDS DMAs write and DS instructions access, as far as the listing shows
    lds_read_follows: Callable[[int, int], bool]  # (barrier, latest LDS writer) -> may other waves read it
    banked_vgprs: bool = False  # gfx1250 s_set_vgpr_msb modes meet: `v5` may name v261, so VGPRs are not tracked
    trap_handler: bool = False  # returns with s_rfe: entered by the hardware, returns to interrupted code
    maxima: dict[str, int] = field(default_factory=dict)  # the target's most outstanding events per counter

    def __init__(self, kernel: Kernel, def_use: list[DefUse], facts: list[WaitFacts], access: list[Access],
                 target: Target, is_function: bool, flat_lds: bool, tail_calls: frozenset[int], lds_places: _LdsPlaces,
                 lds_read_follows: Callable[[int, int], bool], banked_vgprs: bool = False, trap_handler: bool = False,
                 maxima: dict[str, int] | None = None) -> None:
        self.kernel = kernel
        self.def_use = def_use
        self.facts = facts
        self.access = access
        self.target = target
        self.is_function = is_function
        self.flat_lds = flat_lds
        self.tail_calls = tail_calls
        self.lds_places = lds_places
        self.lds_read_follows = lds_read_follows
        self.banked_vgprs = banked_vgprs
        self.trap_handler = trap_handler
        self.maxima = {} if maxima is None else maxima


def _needs(index: int, info: DefUse, facts: WaitFacts, access: Access, state: State, walk: _Walk) -> list[Need]:
    needs: list[Need] = []
    target = walk.target
    uses, defs = info.uses, info.defs
    for name, counter in state.items():
        regs = counter.regs
        if not regs and not counter.unknown:
            continue
        dmas = [(unit, entry) for unit, entry in regs.items() if unit[0] == "lds_dma"] if access.reads_lds else []
        if dmas:
            verdicts = {dma: walk.lds_places.overlap(dma[1], index) for dma, _ in dmas}
            dmas = [(dma, entry) for dma, entry in dmas if verdicts[dma] is not False]  # provably elsewhere: safe
        if dmas:
            shown = [(dma, entry) for dma, entry in dmas if verdicts[dma]]
            unit, oldest = min(shown or dmas, key=lambda item: item[1][0])
            # only M0 and the access address copied from one value show an overlap; otherwise the code chose the
            # regions (M0 set in the DMA's block) or the listing does not say where the DMA writes (M0 set elsewhere)
            verdict = "read" if shown else (
                "lds-dma-unproven" if all(dma[1] in walk.lds_places.m0_set for dma, _ in dmas) else "lds-dma-m0-elsewhere")
            needs.append(Need(name, 0 if counter.out_of_order else oldest[0], unit, oldest[1], verdict))
        if counter.unknown and name not in _NO_REGISTER_RESULTS:
            touched = [unit for unit in (*info.uses, *info.defs) if unit[0] in _REGISTER_FILES]
            if touched:
                needs.append(Need(name, 0, min(touched), None, "read" if touched[0] in info.uses else "overwritten"))
                continue
        for unit in uses:
            entry = regs.get(unit)
            if entry is not None and entry[2] not in _SOURCE_LOCKS and name != "xcnt":  # xcnt locks sources
                needs.append(Need(name, 0 if counter.out_of_order else entry[0], unit, entry[1], "read"))
        for unit in defs:
            entry = regs.get(unit)
            if entry is None or unit[0] not in _RESULT_FILES:
                continue
            if name in LOAD_COUNTERS and access.starts(name, entry[2]):
                continue  # loads of one type write their VGPRs in order
            if name == "xcnt" and entry[2] == "translation" and info.klass.unit == "vmem":
                continue  # VMEM addresses are translated in order: an earlier access's are done first (_overwritten)
            # a store's data, an export's sources, an address not yet translated: read by the operation, not written
            access_kind = "source-overwritten" if entry[2] in _SOURCE_LOCKS or name == "xcnt" else "overwritten"
            needs.append(Need(name, 0 if counter.out_of_order else entry[0], unit, entry[1], access_kind))
    if info.klass.unit == "barrier":
        for name in ("lgkmcnt", "dscnt"):
            lds_counter = state.get(name)
            store = lds_counter.regs.get(LDS_STORE) if lds_counter else None
            if lds_counter is not None and store is not None and walk.lds_read_follows(index, store[1]):
                needs.append(Need(name, 0 if lds_counter.out_of_order else store[0], LDS_STORE, store[1], "barrier-lds"))
        if not target.has_back_off_barrier:
            drained = {need.counter for need in needs if need.access == "barrier-lds"}  # said as a race already
            for name in _BARRIER_DRAINED:
                outstanding = state.get(name)
                if outstanding is not None and outstanding.pending and name not in drained:
                    producer = max((entry[1] for entry in outstanding.regs.values()), default=None)
                    needs.append(Need(name, 0, ("memory", 0), producer, "barrier-drain"))
    if facts.invalidates:
        for name in ("vmcnt", "loadcnt"):
            loads = state.get(name)
            if loads is not None and loads.pending:
                producer = max((entry[1] for entry in loads.regs.values()), default=None)
                needs.append(Need(name, 0, ("vmem", 0), producer, "invalidate"))
    if walk.trap_handler and info.klass.unit in ("return", "endpgm"):
        needs.extend(_trap_exit_needs(index, info, state, walk))
    if walk.is_function and info.klass.unit == "return" and index not in walk.tail_calls:
        for name, counter in state.items():
            if name not in _NO_REGISTER_RESULTS and (counter.regs or counter.unknown):
                unit = min(counter.regs) if counter.regs else ("v", 0)
                producer = counter.regs[unit][1] if counter.regs else None
                needs.append(Need(name, 0, unit, producer, "return"))
    return needs


def _trap_exit_needs(index: int, info: DefUse, state: State, walk: _Walk) -> list[Need]:
    """A trap handler's exit: at `s_rfe` the interrupted code resumes and cannot know of results still
    coming into registers; at `s_rfe` and `s_endpgm` messages must have gone out."""
    needs = []
    returns = info.klass.unit == "return" and walk.kernel.instructions[index].mnemonic.startswith("s_rfe")
    for name, counter in state.items():
        results = [unit for unit, entry in counter.regs.items() if unit[0] in _RESULT_FILES
                   and entry[2] not in _SOURCE_LOCKS] if returns and name not in _NO_REGISTER_RESULTS else ()
        if results:
            unit = min(results)
            needs.append(Need(name, 0, unit, counter.regs[unit][1], "trap-return"))
        elif (returns or info.klass.unit == "endpgm") and counter.pending and "message" in counter.types:
            needs.append(Need(name, 0, ("message", 0), None, "message"))
    return needs


def _walk_block(state: State, start: int, stop: int, walk: _Walk, report: WaitReport) -> State:
    """Walk one block from `state` (its counters replaced in place; returned), recording what it finds in `report`."""
    maxima = walk.maxima
    all_facts, accesses = walk.facts, walk.access
    idle = _idle(state)  # no counter holds a register or unknown events: only some instructions can need a wait
    for index in range(start, stop):
        facts = all_facts[index]
        counts = facts.counts
        if counts is not None and facts.unit == "wait":
            report.states_before[index] = dict(state)
            # when a translation is done (xcnt) is inferred, not known, and not all that gfx1250 counts on
            # asynccnt is modelled (the async barrier arrive): never called useless
            if counts and counts.keys().isdisjoint(("xcnt", "asynccnt")) and not any(
                    _retires(state[name], count) for name, count in counts.items()):
                report.useless_waits.append(index)
            for name, count in counts.items():
                state[name] = state[name].waited(count)
            if "xcnt" in state:
                _translated(state)
            idle = _idle(state)
            continue
        if facts.expcnt_wait is not None and "expcnt" in state:
            state["expcnt"] = state["expcnt"].waited(facts.expcnt_wait)  # gfx11+ VINTERP waits for expcnt itself
        access = accesses[index]
        needs = _needs(index, walk.def_use[index], facts, access, state, walk) if (
            not idle or facts.needs_without_registers) else None
        if needs:
            report.missing[index] = needs
            for need in needs:  # assume the wait is added, so one mistake gives one finding
                if need.access in LDS_DMA_UNPROVEN:  # said once; the loads' own registers stay tracked
                    state[need.counter] = replace(state[need.counter], regs={
                        unit: entry for unit, entry in state[need.counter].regs.items() if unit[0] != "lds_dma"})
                elif need.access != "barrier-drain":  # a policy, not a dependency: never assumed to drain
                    state[need.counter] = state[need.counter].waited(need.count)
        if facts.unit == "call":
            # an LLVM callee waits for everything but stores (and asynchronous LDS copies) before it
            # returns: they may be in flight. A hand-written subroutine may leave anything in flight: a
            # later wait is never useless.
            for name in state:
                stores = name in _LEFT_BY_CALLEES
                state[name] = Counter(maxima[name] if stores else 0, frozenset({"write"}) if stores else frozenset(),
                                      unseen=True)
            continue
        if "xcnt" in state and facts.unit == "vmem":
            _overwritten(state, walk.def_use[index].defs)
        for event in access.events:
            if walk.banked_vgprs:
                event = replace(event, units=frozenset(unit for unit in event.units if unit[0] != "v"))
            _add_event(state, event, index, maxima[event.counter])
            idle = idle and not event.units
    return state


def _overwritten(state: State, written: frozenset[Unit]) -> None:
    """gfx1250: a VMEM access writes its registers after its own translation, so after every earlier
    one: the address locks on them are gone."""
    xcnt = state["xcnt"]
    if not xcnt.regs.keys().isdisjoint(written):
        state["xcnt"] = replace(xcnt, regs={unit: entry for unit, entry in xcnt.regs.items()
                                            if unit not in written or entry[2] != "translation"})


def _idle(state: State) -> bool:
    return not any(counter.regs or counter.unknown for counter in state.values())


_ACCESS_COUNTERS = ("loadcnt", "storecnt", "samplecnt", "bvhcnt", "asynccnt")


def _translated(state: State) -> None:
    """gfx1250: an access that completed was translated, and translations retire in order unless
    SMEM is in flight. With SMEM known done (the caller's too), no more VMEM translations are
    outstanding than VMEM accesses: a wait for loads is a wait for their addresses."""
    xcnt, kmcnt = state["xcnt"], state["kmcnt"]
    if not kmcnt.pending and not kmcnt.unknown and (xcnt.unknown or "smem" in xcnt.types):
        # what is left in flight, the caller's events included, are VMEM translations
        xcnt = replace(xcnt, regs={unit: entry for unit, entry in xcnt.regs.items() if entry[2] != "smem"},
                       types=(xcnt.types - {"smem"}) | ({"translation"} if xcnt.unknown else frozenset()),
                       unknown=False)
    accesses = sum(state[name].pending for name in _ACCESS_COUNTERS if name in state)
    if not xcnt.unknown and "smem" not in xcnt.types:
        xcnt = xcnt.waited(accesses)
    elif not accesses and "translation" in xcnt.types:
        xcnt = replace(xcnt, regs={unit: entry for unit, entry in xcnt.regs.items() if entry[2] != "translation"},
                       types=xcnt.types - {"translation"})
    state["xcnt"] = xcnt


def _waits_for_everything(instruction: Instruction, target: Target) -> bool:
    """LLVM's function prologue wait: loads and LDS/SMEM drained (`s_waitcnt vmcnt(0) expcnt(0)
    lgkmcnt(0)`, gfx12 `s_wait_loadcnt_dscnt 0x0`)."""
    counts = wait_counts(instruction.mnemonic, instruction.operands, target) or {}
    return all(counts.get(name) == 0 for name in (("loadcnt", "dscnt") if target.major >= 12 else ("vmcnt", "lgkmcnt")))


def _built_in_expcnt_wait(instruction: Instruction) -> int | None:
    value = dict(instruction.modifiers).get("wait_exp") if instruction.mnemonic.startswith("v_interp") else None
    return int(value.value) if isinstance(value, Num) and isinstance(value.value, int) and value.value < 7 else None


def _retires(counter: Counter, count: int) -> bool:
    if (counter.unknown and count == 0) or counter.unseen:
        return True
    if counter.pending > count:
        return True
    return not counter.out_of_order and any(entry[0] >= count for entry in counter.regs.values())


_JUMPS = ("s_setpc_b64", "s_set_pc_i64")
_TRACE_LIMIT = 4096  # instructions one jump's trace looks back through; past it the jump counts as a return
#: A place a jump target may sit in while traced backwards: a register unit, or ("lane", VGPR unit, lane)
#: for an SGPR spilled to a VGPR lane with v_writelane_b32.
_Place = tuple


def _tail_calls(kernel: Kernel, def_use: list[DefUse], cfg: ControlFlowGraph) -> frozenset[int]:
    """`s_setpc_b64` / `s_set_pc_i64` jumps to an address the function built (`s_getpc_b64` +
    `callee@rel32@lo`, a symbol, a GOT load), followed back through copies, offsets, VGPR-lane
    spills and labels nothing branches to: jumps into another function, not returns."""
    jumps = [index for index, instruction in enumerate(kernel.instructions)
             if instruction.mnemonic in _JUMPS and instruction.operands]
    if not jumps:
        return frozenset()
    written = frozenset(unit for info in def_use for unit in info.defs)  # a jump through registers never written returns
    return frozenset(index for index in jumps
                     if not written.isdisjoint(register_units(kernel.instructions[index].operands[0]))
                     and _jumps_to_built_address(kernel, def_use, cfg, index))


def _jumps_to_built_address(kernel: Kernel, def_use: list[DefUse], cfg: ControlFlowGraph, jump: int) -> bool:
    """Whether every path into `jump` builds its target in the function: reaching the function's
    entry (the incoming return address) or anything the trace cannot follow makes it a return."""
    instructions = kernel.instructions
    target = frozenset(register_units(instructions[jump].operands[0]))
    stack: list[tuple[int, int, frozenset[_Place]]] = [(cfg.block_of[jump], jump, target)]
    seen = {(cfg.block_of[jump], target)}
    budget = _TRACE_LIMIT
    while stack:
        block, end, places = stack.pop()
        built = False
        for index in range(end - 1, cfg.starts[block] - 1, -1):
            budget -= 1
            if budget < 0:
                return False
            verdict = _trace_back(instructions[index], def_use[index], places)
            if verdict is None:
                return False
            if verdict is True:
                built = True
                break
            places = verdict
        if built:
            continue
        predecessors = cfg.blocks[block].predecessors
        if block == 0 or not predecessors:
            return False  # the value the function was entered with
        for predecessor in predecessors:
            if (predecessor, places) not in seen:
                seen.add((predecessor, places))
                stack.append((predecessor, cfg.starts[predecessor] + len(cfg.blocks[predecessor].instructions), places))
    return True


def _trace_back(instruction: Instruction, info: DefUse,
                places: frozenset[_Place]) -> frozenset[_Place] | Literal[True] | None:
    """One step back: True when the instruction builds a wanted address, the places the value was in
    before it, or None when it came from something the trace cannot follow."""
    mnemonic, operands, defs = instruction.mnemonic, instruction.operands, info.defs
    lanes = [place for place in places if place[0] == "lane"]
    if lanes and mnemonic.startswith("v_writelane_b32") and len(operands) == 3:
        lane = ("lane", *register_units(operands[0])[:1], str(operands[2]))
        if lane in places:
            return (places - {lane}) | frozenset(register_units(operands[1])[:1])
    elif any(place[1] in defs for place in lanes):
        return None  # the spill VGPR was overwritten
    written = places.intersection(defs)
    if not written:
        return places
    if (mnemonic.startswith(("s_getpc", "s_get_pc")) or info.klass.unit == "smem"
            or any(mentions_symbols(operand) for operand in operands)):
        return True
    if mnemonic.startswith("v_readlane_b32") and len(operands) == 3:
        return (places - written) | {("lane", *register_units(operands[1])[:1], str(operands[2]))}
    if mnemonic.startswith(("s_mov_b", "s_add_u32", "s_addc_u32", "s_add_i32", "s_sub_u32", "s_subb_u32",
                            "s_add_nc_u64", "s_sub_nc_u64")) and len(operands) >= 2:
        # a copy, or an offset added to the address: the value came from the first source
        destination, source = register_units(operands[0]), register_units(operands[1])
        if len(source) != len(destination):
            return None
        moved = dict(zip(destination, source, strict=True))
        return (places - written) | {moved[place] for place in written}
    return None


_WAVE_BYTES = 64 * 16  # the most an LDS DMA writes for one wave: 64 lanes of 16 bytes


class _LdsPlaces:
    """Scalar values M0 (for LDS DMAs) and DS address registers were copied from in their block:
    `s_mov_b32 m0, s2` / `s_add_u32 m0, s8, 0x46f0` / `s_mov_b32 m0, 0` and `v_mov_b32 v1, s2`.
    An access and a DMA from the same value are compared by offset; other pairs are unknown."""

    def __init__(self, kernel: Kernel, def_use: list[DefUse], starts: list[int]):
        self.kernel, self.def_use = kernel, def_use
        self.m0_set: set[int] = set()  # DMAs after a scalar write of M0 in the same block
        self.dma_place: dict[int, tuple] = {}  # DMA -> (source, offset) of its LDS address
        self.access_place: dict[int, tuple] = {}  # DS access -> (source, offset)
        if not any(info.klass.lds_dma for info in def_use):
            return
        block_starts, m0, m0_scalar = set(starts), None, False
        copies: dict[Unit, tuple] = {}  # VGPR -> the (source, offset) value a v_mov_b32 copied into it
        for index, (instruction, info) in enumerate(zip(kernel.instructions, def_use, strict=True)):
            if index in block_starts:
                m0, copies, m0_scalar = None, {}, False
            if info.klass.lds_dma:
                if m0_scalar:
                    self.m0_set.add(index)
                if m0 is not None:
                    self.dma_place[index] = (m0[0], m0[1] + _offset(instruction))
            elif info.klass.unit == "ds":
                address = _lds_address(instruction, info)
                units = register_units(address[0]) if address else ()
                if len(units) == 1 and units[0] in copies:
                    source, base = copies[units[0]]
                    self.access_place[index] = (source, base + _offset(instruction))
            written = info.defs
            if written:
                m0 = None if m0 is not None and (m0[0] in written) else m0
                copies = {unit: value for unit, value in copies.items() if unit not in written and value[0] not in written}
            if ("m0", 0) in written:
                m0_scalar = info.klass.unit == "salu"
                m0 = _scalar_value(instruction, m0) if m0_scalar else None
            elif info.klass.unit == "valu" and instruction.mnemonic.startswith("v_mov_b32") and len(written) == 1:
                value = _scalar_value(instruction, None, source_index=1)
                if value is not None:
                    copies[next(iter(written))] = value

    def overlap(self, dma: int, access: int) -> bool | None:
        """Whether the access touches what the DMA writes: True/False where both come from one value."""
        place, other = self.dma_place.get(dma), self.access_place.get(access)
        if place is None or other is None or place[0] != other[0]:
            return None
        return place[1] - 16 < other[1] < place[1] + _WAVE_BYTES


def _offset(instruction: Instruction) -> int:
    value = dict(instruction.modifiers).get("offset")
    return int(value.value) if isinstance(value, Num) and isinstance(value.value, int) else 0


def _scalar_value(instruction: Instruction, current: tuple | None, source_index: int = 1) -> tuple | None:
    """(source, offset) a scalar move/add writes: a constant's source is "const"."""
    operands, mnemonic = instruction.operands, instruction.mnemonic
    if len(operands) < 2:
        return None

    def value_of(node) -> tuple | None:
        if isinstance(node, Num) and isinstance(node.value, int):
            return ("const", node.value)
        units = register_units(node)
        if len(units) == 1 and units[0][0] == "s":
            return (units[0], 0)
        if units == (("m0", 0),):
            return current
        return None

    if mnemonic.startswith(("s_mov_b32", "s_movk_i32", "v_mov_b32")):
        return value_of(operands[source_index])
    if mnemonic.startswith(("s_add_u32", "s_add_i32")) and len(operands) == 3:
        left, right = value_of(operands[1]), value_of(operands[2])
        if left is not None and right is not None:
            if right[0] == "const":
                return (left[0], left[1] + right[1])
            if left[0] == "const":
                return (right[0], right[1] + left[1])
    return None


def _reads_shared_aperture(instruction: Instruction) -> bool:
    """Whether the instruction can build a generic address into LDS (reads the shared aperture)."""
    return any(isinstance(operand, SpecialReg) and operand.name in ("src_shared_base", "src_shared_limit")
               for operand in instruction.operands) or (
        instruction.mnemonic.startswith("s_getreg")
        and hardware_register(instruction.mnemonic, instruction.operands) == HWREG_IDS["HW_REG_SH_MEM_BASES"])


def _reads_lds(info: DefUse) -> bool:
    klass = info.klass
    return klass.unit == "ds" and klass.memory == "lds" and klass.kind in ("read", "read2", "atomic")


def _lds_address(instruction: Instruction, info: DefUse) -> tuple | None:
    """(address operand, offsets) of a DS instruction, to see a read of exactly what a write wrote."""
    if info.variant is None:
        return None
    names = [spec.name for spec in info.variant.operands]
    for name in ("addr", "vaddr"):
        if name in names and names.index(name) < len(instruction.operands):
            offsets = tuple(sorted((key, value) for key, value in instruction.modifiers if key.startswith("offset")))
            return instruction.operands[names.index(name)], offsets
    return None


class _LdsReadAfterBarrier:
    """Whether an LDS read can follow a barrier before this wave's LDS writes are known done
    (an LDS wait that retires them) and another barrier: only then can other waves see old data.
    A read of exactly the address the latest write used, with the address register unchanged,
    reads this wave's own data (in order), not another wave's."""

    def __init__(self, kernel: Kernel, def_use: list[DefUse], target: Target, cfg: ControlFlowGraph):
        self.kernel, self.def_use, self.target = kernel, def_use, target
        self.blocks, self.starts, self.block_of = cfg.blocks, cfg.starts, cfg.block_of
        self.memo: dict[tuple[int, int], bool] = {}

    def __call__(self, barrier: int, writer: int) -> bool:
        if (barrier, writer) not in self.memo:
            self.memo[barrier, writer] = self._search(barrier, writer)
        return self.memo[barrier, writer]

    def _own_address(self, writer: int, barrier: int):
        """The writer's address if its register is unchanged up to the barrier (one straight run)."""
        address = _lds_address(self.kernel.instructions[writer], self.def_use[writer])
        if address is None or self.block_of[writer] != self.block_of[barrier]:
            return None, frozenset()
        registers = frozenset(register_units(address[0]))
        if any(registers & self.def_use[between].defs for between in range(writer + 1, barrier)):
            return None, frozenset()
        return address, registers

    def _search(self, barrier: int, writer: int) -> bool:
        lds_counters = ("lgkmcnt", "dscnt")
        own, own_registers = self._own_address(writer, barrier)
        # (instruction index, retired, LDS events since the barrier, own address still valid)
        stack = [(barrier + 1, False, 0, own is not None)]
        seen = set()
        while stack:
            item = stack.pop()
            if item in seen:
                continue
            seen.add(item)
            index, retired, newer, valid = item
            if index >= len(self.block_of):
                continue  # past the end
            number = self.block_of[index]
            end = self.starts[number] + len(self.blocks[number].instructions)
            stopped = False
            while index < end:
                instruction = self.kernel.instructions[index]
                info = self.def_use[index]
                unit = info.klass.unit
                if _reads_lds(info) and not (valid and _lds_address(instruction, info) == own):
                    return True
                if valid and own_registers & info.defs:
                    valid = False
                if unit == "barrier" and retired:
                    stopped = True
                    break
                if unit == "wait":
                    counts = wait_counts(instruction.mnemonic, instruction.operands, self.target) or {}
                    if any(counts.get(name, 64) <= newer for name in lds_counters):
                        retired = True
                elif unit == "ds":
                    newer = min(newer + 1, 64)
                if unit in ("endpgm", "return"):
                    stopped = True
                    break
                index += 1
            if stopped:
                continue
            for successor in self.blocks[number].successors:
                stack.append((self.starts[successor], retired, newer, valid))
        return False


class WaitcntAnalysis(Analysis):
    """Fixed-point dataflow of outstanding memory events; None without a known target."""

    name = "waitcnt"

    @classmethod
    def run(cls, kernel: Kernel, manager: AnalysisManager) -> WaitReport | None:
        target = manager.module.target
        def_use = manager.get(DefUseAnalysis)
        if target is None or def_use is None:
            return None
        if def_use.instructions is not kernel.instructions:  # gfx1250: the VGPRs the banks select
            kernel = replace(kernel, instructions=def_use.instructions)
        cfg = manager.get(CFGAnalysis)
        blocks, starts = cfg.blocks, cfg.starts
        per_instruction = def_use.per_instruction
        # a callable function returns (s_setpc_b64) and never ends the program; its callers may
        # still have loads in flight at entry. Unmarked code that ends with s_endpgm is a kernel.
        # A trap handler (it ends in s_rfe) is entered by the hardware, not called; code that only
        # jumps on and does not wait at entry (a PAL shader chaining to the next) is not called either.
        mnemonics = {instruction.mnemonic for instruction in kernel.instructions}
        is_function = False
        tail_calls: frozenset[int] = frozenset()  # consulted for functions only
        if not kernel.is_kernel:
            tail_calls = _tail_calls(kernel, per_instruction, cfg)
            returns = any(instruction.mnemonic in ("s_setpc_b64", "s_set_pc_i64") and index not in tail_calls
                          for index, instruction in enumerate(kernel.instructions))
            # LLVM's calling convention makes a callable function wait at entry; one that also ends the
            # program somewhere (s_endpgm after an intrinsic) is still called.
            waits_at_entry = bool(blocks) and not blocks[0].predecessors and _waits_for_everything(
                kernel.instructions[0], target)
            is_function = not any(m.startswith("s_rfe") for m in mnemonics) and (
                waits_at_entry or (returns and not any(m.startswith("s_endpgm") for m in mnemonics)))
        facts = [shared.waits or wait_facts(shared, instruction, target)
                 for shared, instruction in zip(def_use.facts, kernel.instructions, strict=True)]
        flat_lds = any(fact.reads_aperture for fact in facts)
        maxima = target.wait_counter_max
        walk = _Walk(kernel, per_instruction, facts, [fact.access[flat_lds] for fact in facts], target,
                     is_function, flat_lds,
                     tail_calls, _LdsPlaces(kernel, per_instruction, starts),
                     _LdsReadAfterBarrier(kernel, per_instruction, target, cfg),
                     def_use.banks_unknown, any(m.startswith("s_rfe") for m in mnemonics), maxima)

        def initial() -> State:
            # a function starts with the caller's events in flight (stores write no register)
            return {name: Counter(unknown=is_function) for name in maxima}

        tests = _BranchFacts([fact.test_key for fact in facts], [fact.bound for fact in facts], per_instruction, blocks, starts,
                             maxima)
        incoming: list[dict[Facts, State]] = [{} for _ in blocks]
        if blocks:
            incoming[0][frozenset()] = initial()
        # blocks in program order, the first queued first: in code that branches forward, save
        # for loops, a join's predecessors are walked before it
        worklist = [0] if blocks else []
        queued = {0}
        # each block's reports from its latest walk, with the version of its states that walk started from:
        # where no join changed them since, the walk saw the final states and its reports stand
        walked: list[tuple[int, list[WaitReport]] | None] = [None] * len(blocks)
        visits = 0
        while worklist and visits < 50 * len(blocks) + 100:
            visits += 1
            index = heappop(worklist)
            queued.discard(index)
            version, reports = tests.versions[index], []
            for path_facts, start_state in list(incoming[index].items()):
                reports.append(WaitReport({}, [], {}))
                state = dict(start_state)
                out = _walk_block(state, starts[index], starts[index] + len(blocks[index].instructions), walk, reports[-1])
                for successor, edge_facts in tests.edges(index, path_facts):
                    if tests.join(incoming, successor, edge_facts, out) and successor not in queued:
                        queued.add(successor)
                        heappush(worklist, successor)
            walked[index] = (version, reports)
        reports = []
        for index, block in enumerate(blocks):
            latest = walked[index]
            if latest is not None and latest[0] == tests.versions[index]:
                reports.extend(latest[1])
                continue
            for start_state in incoming[index].values():
                report = WaitReport({}, [], {})
                state = dict(start_state)
                _walk_block(state, starts[index], starts[index] + len(block.instructions), walk, report)
                reports.append(report)
        return _combined(reports)


def _combined(reports: list[WaitReport]) -> WaitReport:
    """One report from the walks of each block under each set of branch facts: a need on any
    path, a wait useless on every path, the merged state before each wait."""
    combined = WaitReport({}, [], {})
    useful: set[int] = set()
    useless: set[int] = set()
    for report in reports:
        for index, needs in report.missing.items():
            combined.missing.setdefault(index, []).extend(
                need for need in needs if need not in combined.missing.get(index, ()))
        for index, state in report.states_before.items():
            current = combined.states_before.get(index)
            combined.states_before[index] = state if current is None else {
                name: current[name].merge(state[name]) for name in state}
            (useless if index in report.useless_waits else useful).add(index)
    combined.useless_waits = sorted(useless - useful)
    return combined


Facts = frozenset  # of (test, SCC value) and (SGPR unit, Intervals) known on a path


class _BranchFacts:
    """Path facts from SCC branches, so that paths which cannot happen are not walked.

    Re-tests of an unchanged condition (Tensile: `s_cmp_eq_u32 s5, 0` twice, loads under the first
    test and their wait under the second): a path that took one outcome of a test cannot take the
    other at an identical test while its operands are unchanged. Ranges of an SGPR compared with
    constants (`s_cmp_le_u32 s10, 2` guarding a prefetch stage, `s_cmp_eq_u32 s10, 1` before the
    loop): each branch edge narrows the values the SGPR can hold until it is written, and an edge
    that leaves none is not taken. Only tests that occur more than once and SGPRs compared with
    constants more than once are tracked; a fact is dropped where no later test can read it, a path
    reaching a block with the same counters as another shares its state (with the facts both hold),
    and a block keeps at most 8 sets of facts (more are merged into one without facts)."""

    LIMIT = 8
    #: joins into a block after which a count still growing jumps to its counter's maximum (where a loop that
    #: never waits for its stores would take it one trip at a time: 63 walks for gfx12's storecnt)
    WIDEN_AFTER = 8

    def __init__(self, keys: list[tuple | None], bounds: list[Bound | None], def_use: list[DefUse],
                 blocks: list[BasicBlock], starts: list[int], maxima: dict[str, int]):
        self.blocks = blocks
        self.maxima = maxima
        tracked = _repeated(filter(None, keys))  # tests are non-empty tuples
        ranged = _repeated(bound[0] for bound in bounds if bound is not None)
        self.collapsed: set[int] = set()
        self.versions = [0] * len(blocks)  # per block: how often join changed its states
        self.summaries: list[_BlockTest | None] = []
        self.live: list[frozenset] = []  # per block: the fact keys a test at or after its entry may read
        self.known_edges: dict[tuple[int, Facts], list[tuple[int, Facts]]] = {}  # edges() per block and facts
        if not tracked and not ranged:
            self.summaries = [None] * len(blocks)
            return
        operands = {key: frozenset(def_use[index].uses) for index, key in enumerate(keys) if key in tracked}
        operands.update((unit, frozenset((unit,))) for unit in ranged)
        read = frozenset().union(*operands.values())  # what any tracked test reads
        for number, block in enumerate(blocks):
            killed_before: set = set()
            killed_after: set = set()
            test: tuple | None = None
            bound: Bound | None = None
            for offset in range(len(block.instructions)):
                index = starts[number] + offset
                defs = def_use[index].defs
                killed = () if read.isdisjoint(defs) else {key for key, units in operands.items() if units & defs}
                if def_use[index].klass.unit == "call":  # the callee may write any SGPR
                    killed = set(operands)
                key, compared = keys[index], bounds[index]
                if key in tracked or (compared is not None and compared[0] in ranged):
                    test = key if key in tracked else None
                    bound = compared if compared is not None and compared[0] in ranged else None
                    killed_before, killed_after = killed_before | killed_after, set()
                elif ("scc", 0) in defs:
                    test = bound = None
                (killed_after if test is not None or bound is not None else killed_before).update(killed)
            last = block.terminator
            branch = last is not None and last.mnemonic in ("s_cbranch_scc0", "s_cbranch_scc1")
            taken = last is not None and last.mnemonic == "s_cbranch_scc1"
            bound = bound if branch else None
            when = (_complement(bound[1]), bound[1]) if bound is not None else ((), ())
            self.summaries.append(_BlockTest(frozenset(killed_before), test if branch else None, bound,
                                             frozenset(killed_after), taken, when))
        self.live = self._live_keys()

    def _live_keys(self) -> list[frozenset]:
        """Per block, the fact keys a test at its end or in a block after it can read (backward fixed point)."""
        tested: list[frozenset] = []
        killed: list[frozenset] = []
        for summary in self.summaries:
            assert summary is not None
            read = {summary.test} if summary.test is not None else set()
            if summary.bound is not None:
                read.add(summary.bound[0])
            tested.append(frozenset(read))
            killed.append(summary.killed_before | summary.killed_after)
        live = list(tested)
        changed = True
        while changed:
            changed = False
            for number in range(len(self.blocks) - 1, -1, -1):
                after = frozenset().union(*(live[successor] for successor in self.blocks[number].successors))
                new = tested[number] | (after - killed[number])
                if new != live[number]:
                    live[number], changed = new, True
        return live

    def edges(self, number: int, facts: Facts) -> list[tuple[int, Facts]]:
        """The successors a path with `facts` can reach, with the facts on each edge."""
        summary = self.summaries[number]
        if summary is None:
            return [(successor, facts) for successor in self.blocks[number].successors]
        found = self.known_edges.get((number, facts))
        if found is None:
            found = self.known_edges[number, facts] = self._edges(number, summary, facts)
        return found

    def _edges(self, number: int, summary: _BlockTest, facts: Facts) -> list[tuple[int, Facts]]:
        successors = self.blocks[number].successors
        killed_before, killed_after = summary.killed_before, summary.killed_after
        if killed_before:
            facts = frozenset(fact for fact in facts if fact[0] not in killed_before)
        test, bound = summary.test, summary.bound
        known, values = None, _ALL
        for key, value in facts:
            if key == test:
                known = value
            elif bound is not None and key == bound[0]:
                values = value
        if killed_after:
            facts = frozenset(fact for fact in facts if fact[0] not in killed_after)
        if (test is None and bound is None) or len(successors) != 2:
            return [(successor, self._live(successor, facts)) for successor in successors]
        edges = []
        for successor, outcome in zip(successors, (summary.taken, not summary.taken), strict=True):
            if known is not None and known != outcome:
                continue  # contradicts the earlier outcome of the same test
            edge_facts = facts if test is None or test in killed_after else facts | {(test, outcome)}
            if bound is not None:
                unit, when = bound[0], summary.when[outcome]
                left = when if values is _ALL else _intersection(values, when)
                if not left:
                    continue  # no value the SGPR can hold takes this edge
                if unit not in killed_after:
                    edge_facts = frozenset(fact for fact in edge_facts if fact[0] != unit) | {(unit, left)}
            edges.append((successor, self._live(successor, edge_facts)))
        return edges

    def _live(self, successor: int, facts: Facts) -> Facts:
        live = self.live[successor]
        return facts if all(fact[0] in live for fact in facts) else frozenset(
            fact for fact in facts if fact[0] in live)

    def join(self, incoming: list[dict[Facts, State]], number: int, facts: Facts, out: State) -> bool:
        """Merge `out` into block `number`'s states under `facts`; whether anything changed. A path
        arriving with the same counters as another one shares its state, with what both paths know."""
        states = incoming[number]
        if states and facts not in states and number not in self.collapsed:
            twin = next((known for known, state in states.items() if _same_state(state, out)), None)
            if twin is not None:
                common = _known_on_both(twin, facts)
                if common == twin:
                    return False
                out, facts = states.pop(twin), common
                self.versions[number] += 1
        if number in self.collapsed or (facts not in states and len(states) >= self.LIMIT):
            if number not in self.collapsed:
                self.collapsed.add(number)
                merged_all = None
                for state in states.values():
                    merged_all = state if merged_all is None else {n: merged_all[n].merge(state[n]) for n in state}
                states.clear()
                if merged_all is not None:
                    states[frozenset()] = merged_all
                self.versions[number] += 1
            facts = frozenset()
        current = states.get(facts)
        if current is None:  # `out` goes to other successors too: a state of its own (the counters are shared)
            states[facts] = dict(out)
        else:  # merging made new counters (where they differ)
            merged = {name: current[name] if counter is current[name] else current[name].merge(counter)
                      for name, counter in out.items()}
            if all(merged[name] is current[name] or merged[name].same(current[name]) for name in merged):
                return False
            if self.versions[number] >= self.WIDEN_AFTER:
                merged = {name: replace(counter, pending=self.maxima[name]) if counter.pending > current[name].pending
                          else counter for name, counter in merged.items()}
            states[facts] = merged
        self.versions[number] += 1
        return True


def _same_state(state: State, other: State) -> bool:
    return all(counter is state[name] or counter.same(state[name]) for name, counter in other.items())


def _known_on_both(first: Facts, second: Facts) -> Facts:
    """The facts that hold on either of two paths: equal test outcomes, and each SGPR's ranges joined."""
    other = dict(second)
    both = set()
    for key, value in first:
        if key not in other:
            continue
        if value == other[key]:
            both.add((key, value))
        elif isinstance(value, tuple):  # SGPR ranges (test outcomes are booleans)
            both.add((key, _normal([*value, *other[key]])))
    return frozenset(both)


@frozen_dataclass(frozen=True, slots=True, repr=False, init=False, eq=False)
class _BlockTest:
    """What a block does to path facts: keys it kills before and after its last SCC test, and that test."""

    killed_before: frozenset
    test: tuple | None  # the identical re-test the block branches on
    bound: Bound | None  # the SGPR range test the block branches on
    killed_after: frozenset
    taken: bool  # the SCC value that takes the branch
    when: tuple[Intervals, Intervals]  # the bound's SGPR values that clear SCC, and that set it

    def __init__(self, killed_before: frozenset, test: tuple | None, bound: Bound | None, killed_after: frozenset,
                 taken: bool, when: tuple[Intervals, Intervals]) -> None:
        object.__setattr__(self, "killed_before", killed_before)
        object.__setattr__(self, "test", test)
        object.__setattr__(self, "bound", bound)
        object.__setattr__(self, "killed_after", killed_after)
        object.__setattr__(self, "taken", taken)
        object.__setattr__(self, "when", when)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, _BlockTest) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.killed_before, self.test, self.bound, self.killed_after, self.taken, self.when) == (
            other.killed_before, other.test, other.bound, other.killed_after, other.taken, other.when)

    def __hash__(self) -> int:
        return hash((self.killed_before, self.test, self.bound, self.killed_after, self.taken, self.when))


def _repeated(items: Iterable[Hashable]) -> set:
    """The items that occur more than once."""
    seen: set = set()
    repeated: set = set()
    for item in items:
        (repeated if item in seen else seen).add(item)
    return repeated


#: Sorted, disjoint, inclusive ranges of 32-bit values (read unsigned); at most _MAX_INTERVALS of them.
Intervals = tuple[tuple[int, int], ...]
#: An SGPR compared with a constant: the unit, and the values for which the comparison sets SCC.
Bound = tuple[Unit, Intervals]
_U32_MAX = 0xFFFFFFFF
_ALL: Intervals = ((0, _U32_MAX),)
_MAX_INTERVALS = 4
_SWAPPED = {"eq": "eq", "lg": "lg", "lt": "gt", "le": "ge", "gt": "lt", "ge": "le"}
_COMPARISON = re.compile(r"s_cmp(k?)_(eq|lg|lt|le|gt|ge)_([iu])32$")


def _bound(instruction: Instruction) -> Bound | None:
    """`s_cmp_<op>_{u32,i32}` / `s_cmpk_<op>_{u32,i32}` of an SGPR with a constant: the SGPR and the
    values (read unsigned) for which SCC is set."""
    match = _COMPARISON.match(instruction.mnemonic) if instruction.mnemonic.startswith("s_cmp") else None
    if match is None or len(instruction.operands) != 2:
        return None
    sopk, relation, sign = match.groups()
    left, right = instruction.operands
    if not sopk and isinstance(left, Num):  # the constant first: `s_cmp_lt_u32 2, s10` is s10 > 2
        left, right, relation = right, left, _SWAPPED[relation]
    units = register_units(left)
    if len(units) != 1 or units[0][0] != "s" or not isinstance(right, Num) or not isinstance(right.value, int):
        return None
    constant = right.value & (0xFFFF if sopk else _U32_MAX)
    if sopk and sign == "i" and constant >= 0x8000:  # SOPK's simm16 is sign-extended for the signed forms
        constant = (constant - 0x10000) & _U32_MAX
    return units[0], _values_where(relation, constant, sign == "i")


def _values_where(relation: str, constant: int, signed: bool) -> Intervals:
    """The 32-bit values x (read unsigned) for which `x <relation> constant` holds."""
    low, high = (-(1 << 31), (1 << 31) - 1) if signed else (0, _U32_MAX)
    value = constant - (1 << 32) if signed and constant > high else constant
    ranges = {"eq": ((value, value),), "lg": ((low, value - 1), (value + 1, high)), "lt": ((low, value - 1),),
              "le": ((low, value),), "gt": ((value + 1, high),), "ge": ((value, high),)}[relation]
    unsigned = []
    for start, end in ranges:
        if start > end:
            continue
        if end >= 0:
            unsigned.append((max(start, 0), end))
        if start < 0:  # negative values read unsigned sit above 2**31
            unsigned.append((start + (1 << 32), min(end, -1) + (1 << 32)))
    return _normal(unsigned)


def _normal(ranges: list[tuple[int, int]]) -> Intervals:
    """Sorted and joined; past _MAX_INTERVALS the last ones widen into one (more values, never fewer)."""
    joined: list[tuple[int, int]] = []
    for start, end in sorted(ranges):
        if joined and start <= joined[-1][1] + 1:
            joined[-1] = (joined[-1][0], max(joined[-1][1], end))
        else:
            joined.append((start, end))
    if len(joined) > _MAX_INTERVALS:
        joined[_MAX_INTERVALS - 1:] = [(joined[_MAX_INTERVALS - 1][0], joined[-1][1])]
    return tuple(joined)


def _intersection(first: Intervals, second: Intervals) -> Intervals:
    ranges = [(max(a, c), min(b, d)) for a, b in first for c, d in second if max(a, c) <= min(b, d)]
    return _normal(ranges)


def _complement(ranges: Intervals) -> Intervals:
    """The 32-bit values not in `ranges`."""
    gaps, start = [], 0
    for low, high in ranges:
        if low > start:
            gaps.append((start, low - 1))
        start = high + 1
    if start <= _U32_MAX:
        gaps.append((start, _U32_MAX))
    return _normal(gaps)


def _test_key(instruction: Instruction) -> tuple | None:
    if instruction.mnemonic.startswith(("s_cmp_", "s_cmpk_", "s_bitcmp")):
        return (instruction.mnemonic, *map(str, instruction.operands))
    return None
