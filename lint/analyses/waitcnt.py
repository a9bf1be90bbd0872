"""Wait-counter dataflow: which memory operations may still be outstanding at each instruction.

The model is LLVM's SIInsertWaitcnts (llvm-amdgpu-facts.md §2): every memory event counts on
one or more counters; events of one type on a counter retire in order, so a register written
by an event with `d` newer events on that counter is safe after `wait(d)`. SMEM retires out of
order, and a counter with mixed event types (LDS + SMEM, LDS-DMA + loads, or a FLAT access that
may touch both VMEM and LDS) only proves anything with `wait(0)`. A counter never holds more
than its maximum: the hardware stalls issue, so an event with MAX newer ones has retired.
Joins keep the larger outstanding count and the nearest (most recent) producer; loops are
iterated to a fixed point. Non-kernel functions start with unknown events in flight.

What LLVM's output shows and a listing cannot: a FLAT access counts on the LDS counter only when
the kernel (or function) can build an LDS address, i.e. reads the shared aperture
(`src_shared_base`/`src_shared_limit`, `hwreg(HW_REG_SH_MEM_BASES)`); otherwise it is a global
access, as LLVM treats flat-for-global and tgsplit code. An `s_setpc_b64` whose target was built
from a symbol (`s_getpc_b64` + `@rel32`, a GOT load) is a tail call: the callee waits at entry.
On targets without a back-off barrier `vmcnt(0)` before `s_barrier` is reported but never assumed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from operator import attrgetter, itemgetter

from ..isa.classes import RETURNS
from ..isa.defuse import DefUse, Unit, register_units
from ..isa.waits import wait_counts
from ..model.ir import Instruction, Kernel
from ..model.nodes import HWREG_IDS, Num, SpecialReg, hardware_register, mentions_symbols
from ..model.targets import Target
from .cfg import CFGAnalysis, ControlFlowGraph
from .defuse import DefUseAnalysis, InstructionFacts
from .manager import Analysis, AnalysisManager

LDS_DMA: Unit = ("lds_dma", -1)  # LDS written by buffer_load ... lds / global_load_lds; in a state ("lds_dma", index)
LDS_STORE: Unit = ("lds_store", 0)  # LDS written by this wave's ds_write / ds atomics
_REGISTER_FILES = frozenset(("v", "s", "a"))
LOAD_COUNTERS = frozenset(("vmcnt", "loadcnt", "samplecnt", "bvhcnt"))
STORE_COUNTERS = frozenset(("vscnt", "storecnt"))
#: Counters whose events write no register a later instruction could see half-written.
_NO_REGISTER_RESULTS = STORE_COUNTERS | {"xcnt"}
#: Counters that protect registers an operation reads (its sources may not be overwritten yet):
#: a read of them needs no wait. expcnt for export/GDS/gfx6 store data, gfx1250 xcnt for addresses.
_SOURCE_LOCKS = frozenset(("export", "translation"))
#: Cache invalidations: loads still in flight would refill the cache behind them (LLVM waits first).
#: (gfx12's global_inv is not one: LLVM 22 issues it with loads in flight.)
_INVALIDATES = ("buffer_wbinvl1", "buffer_gl0_inv", "buffer_gl1_inv", "buffer_inv")
_MNEMONIC = attrgetter("mnemonic")
_WAITS = attrgetter("waits")
_ACCESS = attrgetter("access")
_READS_APERTURE = attrgetter("reads_aperture")
_TEST_KEY = attrgetter("test_key")
_IS_LDS_DMA = attrgetter("klass.lds_dma")


@dataclass(slots=True)
class Counter:
    """Outstanding events on one counter. Never changed once made (states share them): a change makes a
    new one."""

    pending: int = 0
    types: frozenset[str] = frozenset()
    regs: dict[Unit, tuple[int, int, str]] = field(default_factory=dict)  # unit -> (newer events, producer, type)
    flat: bool = False  # a FLAT access that may hit VMEM or LDS is outstanding
    unknown: bool = False  # events of the caller may be outstanding (function entry)
    unseen: bool = False  # a callee may have left events here: never call a wait useless

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


@dataclass(frozen=True, slots=True)
class Event:
    """Something an instruction adds to a wait counter."""

    counter: str
    kind: str
    units: frozenset[Unit]
    flat: bool = False  # part of a FLAT access that may go to VMEM or to LDS (not counted in order)


@dataclass(frozen=True, slots=True)
class Need:
    """A wait some instruction needs: count on a counter, for a unit, because of a producer."""

    counter: str
    count: int
    unit: Unit
    producer: int | None  # instruction index; None for the caller's events at function entry
    access: str  # "read", "overwritten", "barrier-lds", "barrier-vmem", "return"


@dataclass(slots=True)
class WaitReport:
    """Per instruction: the waits it lacks, and for wait instructions whether they did anything."""

    missing: dict[int, list[Need]]
    useless_waits: list[int]  # wait instructions that retire nothing on any path
    states_before: dict[int, State]  # state before each wait instruction (for over-strict checks)


def events_of(info: DefUse, target: Target, flat_lds: bool = True, instruction: Instruction | None = None) -> list[Event]:
    """The counter events one instruction starts (`flat_lds`: a FLAT access may reach LDS).
    A form the tables do not list writes no register we could name: its events mark none."""
    klass = info.klass
    if not klass.counters:
        return []
    gfx10 = target.major >= 10
    events = []
    registers = frozenset(unit for unit in info.defs if unit[0] in _REGISTER_FILES) if info.variant else frozenset()
    registers = info.defs if registers == info.defs else registers  # one set kept, not two equal ones
    may_reach_lds = klass.unit == "vmem" and klass.memory == "flat" and flat_lds
    flat = may_reach_lds and target.major < 10  # gfx10+ count FLAT's two halves in order (LLVM)
    for counter in klass.counters:
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
            elif counter in STORE_COUNTERS or klass.kind == "cache":
                events.append(Event(counter, "write" if counter in STORE_COUNTERS else "read", frozenset()))
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
        else:  # gfx12 barrier state queries and s_barrier_leave count as SMEM
            events.append(Event(counter, "smem", registers))
    return events


def _add_event(state: State, event: Event, index: int, maximum: int) -> None:
    counter = state[event.counter]
    shifted = {unit: (entry[0] + 1, entry[1], entry[2]) for unit, entry in counter.regs.items() if entry[0] + 1 < maximum}
    for unit in event.units:
        shifted[unit] = (0, index, event.kind)
    if LDS_DMA in shifted:  # each LDS DMA is its own unit: a partial wait retires the oldest ones
        shifted[("lds_dma", index)] = shifted.pop(LDS_DMA)
    types = counter.types if event.kind in counter.types else counter.types | {event.kind}
    state[event.counter] = Counter(min(counter.pending + 1, maximum), types, shifted, counter.flat or event.flat,
                                   counter.unknown, counter.unseen)


@dataclass(frozen=True, slots=True)
class Access:
    """The events of one instruction, given whether a FLAT access may reach LDS."""

    events: tuple[Event, ...]
    reads_lds: bool

    def starts(self, counter: str, kind: str) -> bool:
        """Whether it starts an event of this kind on this counter."""
        return any(event.counter == counter and event.kind == kind for event in self.events)


@dataclass(frozen=True, slots=True)
class WaitFacts:
    """What the walk asks about one distinct instruction (shared by its occurrences)."""

    counts: dict[str, int] | None  # what it waits for, if it is a memory-counter wait
    expcnt_wait: int | None  # the expcnt wait a gfx11+ VINTERP makes itself
    invalidates: bool  # a cache invalidation (loads in flight must land first)
    reads_aperture: bool  # can build a generic address into LDS
    test_key: tuple | None  # an SCC test, as _RepeatedTests compares them
    access: tuple[Access, Access]  # FLAT judged global, FLAT that may reach LDS
    unit: str  # its class's unit
    #: may need a wait with no register in flight (a barrier, a return, a cache invalidation)
    needs_without_registers: bool


def wait_facts(shared: InstructionFacts, instruction: Instruction, target: Target) -> WaitFacts:
    """The instruction's wait facts, computed once per shared facts."""
    if shared.waits is None:
        info = shared.info
        klass = info.klass
        as_global = Access(tuple(events_of(info, target, False, instruction)), klass.unit == "ds")
        as_lds = as_global  # only a FLAT access may reach LDS
        if klass.unit == "vmem" and klass.memory == "flat":
            as_lds = Access(tuple(events_of(info, target, True, instruction)), True)
        invalidates = instruction.mnemonic.startswith(_INVALIDATES)
        shared.waits = WaitFacts(
            wait_counts(instruction.mnemonic, instruction.operands, target), _built_in_expcnt_wait(instruction),
            invalidates, _reads_shared_aperture(instruction), _test_key(instruction), (as_global, as_lds),
            klass.unit, invalidates or klass.unit in ("barrier", "return"))
    return shared.waits


@dataclass(slots=True)
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
    banked_vgprs: bool = False  # gfx1250 s_set_vgpr_msb: `v5` may name v261, so VGPRs are not tracked
    maxima: dict[str, int] = field(default_factory=dict)  # the target's most outstanding events per counter


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
            unit, oldest = min(dmas, key=lambda item: item[1][0])
            # M0 set in the block of every DMA still in flight: the code chose the regions, and
            # whether this access avoids them is not in the listing unless both come from one value
            unproven = all(verdicts[dma] is None and dma[1] in walk.lds_places.m0_set for dma, _ in dmas)
            needs.append(Need(name, 0 if counter.out_of_order else oldest[0], unit, oldest[1],
                              "lds-dma-unproven" if unproven else "read"))
        if counter.unknown and name not in _NO_REGISTER_RESULTS:
            touched = [unit for unit in (*info.uses, *info.defs) if unit[0] in _REGISTER_FILES]
            if touched:
                needs.append(Need(name, 0, min(touched), None, "read" if touched[0] in info.uses else "overwritten"))
                continue
        if regs.keys().isdisjoint(uses) and regs.keys().isdisjoint(defs):
            continue
        for unit in uses:
            entry = regs.get(unit)
            if entry is not None and entry[2] not in _SOURCE_LOCKS and name != "xcnt":  # xcnt locks sources
                needs.append(Need(name, 0 if counter.out_of_order else entry[0], unit, entry[1], "read"))
        for unit in defs:
            entry = regs.get(unit)
            if entry is None or unit[0] not in _REGISTER_FILES:
                continue
            if name in LOAD_COUNTERS and access.starts(name, entry[2]):
                continue  # loads of one type write their VGPRs in order
            if name == "xcnt" and entry[2] == "translation" and info.klass.unit == "vmem":
                continue  # VMEM addresses are translated in order: an earlier access's are done first
            needs.append(Need(name, 0 if counter.out_of_order else entry[0], unit, entry[1], "overwritten"))
    if info.klass.unit == "barrier":
        for name in ("lgkmcnt", "dscnt"):
            lds_counter = state.get(name)
            store = lds_counter.regs.get(LDS_STORE) if lds_counter else None
            if lds_counter is not None and store is not None and walk.lds_read_follows(index, store[1]):
                needs.append(Need(name, 0 if lds_counter.out_of_order else store[0], LDS_STORE, store[1], "barrier-lds"))
        vm = state.get("vmcnt")
        if not target.has_back_off_barrier and vm is not None and vm.pending:
            producer = max((entry[1] for entry in vm.regs.values()), default=None)
            needs.append(Need("vmcnt", 0, ("vmem", 0), producer, "barrier-vmem"))
    if facts.invalidates:
        for name in ("vmcnt", "loadcnt"):
            loads = state.get(name)
            if loads is not None and loads.pending:
                producer = max((entry[1] for entry in loads.regs.values()), default=None)
                needs.append(Need(name, 0, ("vmem", 0), producer, "invalidate"))
    if walk.is_function and info.klass.unit == "return" and index not in walk.tail_calls:
        for name, counter in state.items():
            if name not in _NO_REGISTER_RESULTS and (counter.regs or counter.unknown):
                unit = min(counter.regs) if counter.regs else ("v", 0)
                producer = counter.regs[unit][1] if counter.regs else None
                needs.append(Need(name, 0, unit, producer, "return"))
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
            # when a translation is done (xcnt) is inferred, not known: never called useless
            if counts and "xcnt" not in counts and not any(_retires(state[name], count) for name, count in counts.items()):
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
                if need.access == "lds-dma-unproven":  # said once; the loads' own registers stay tracked
                    state[need.counter] = replace(state[need.counter], regs={
                        unit: entry for unit, entry in state[need.counter].regs.items() if unit[0] != "lds_dma"})
                elif need.access != "barrier-vmem":  # a policy, not a dependency: never assumed to drain
                    state[need.counter] = state[need.counter].waited(need.count)
        if facts.unit == "call":
            # an LLVM callee waits for everything but stores before it returns: its stores may be in
            # flight. A hand-written subroutine may leave anything in flight: a later wait is never useless.
            for name in state:
                stores = name in STORE_COUNTERS
                state[name] = Counter(maxima[name] if stores else 0, frozenset({"write"}) if stores else frozenset(),
                                      unseen=True)
            continue
        for event in access.events:
            if walk.banked_vgprs:
                event = replace(event, units=frozenset(unit for unit in event.units if unit[0] != "v"))
            _add_event(state, event, index, maxima[event.counter])
            idle = idle and not event.units
    return state


def _idle(state: State) -> bool:
    return not any(counter.regs or counter.unknown for counter in state.values())


def _translated(state: State) -> None:
    """gfx1250: an access that completed was translated; with no VMEM (or SMEM) access left in
    flight, the registers their addresses came from are free."""
    xcnt = state["xcnt"]
    done = set()
    if not state["loadcnt"].pending and not state["storecnt"].pending:
        done.add("translation")
    if not state["kmcnt"].pending:
        done.add("smem")
    if done and xcnt.types & done:
        types = xcnt.types - done
        state["xcnt"] = replace(xcnt, regs={unit: entry for unit, entry in xcnt.regs.items() if entry[2] not in done},
                                types=types, pending=xcnt.pending if types else 0)


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


def _tail_calls(kernel: Kernel, def_use: list[DefUse], starts: list[int]) -> frozenset[int]:
    """`s_setpc_b64` instructions whose target the block built from a symbol (`s_getpc_b64` +
    `callee@rel32@lo`, a GOT load): jumps into another function, not returns."""
    found = set()
    block_start = 0
    starts_set = set(starts)
    for index, instruction in enumerate(kernel.instructions):
        if index in starts_set:
            block_start = index
        if instruction.mnemonic not in RETURNS or not instruction.operands:
            continue
        wanted = set(register_units(instruction.operands[0]))
        for earlier in range(index - 1, block_start - 1, -1):
            if not wanted & set(def_use[earlier].defs):
                continue
            producer: Instruction = kernel.instructions[earlier]
            if (producer.mnemonic.startswith(("s_getpc", "s_get_pc")) or def_use[earlier].klass.unit == "smem"
                    or any(mentions_symbols(operand) for operand in producer.operands)):
                found.add(index)
                break
            if not producer.mnemonic.startswith(("s_add", "s_addc", "s_sub")):
                break
    return frozenset(found)


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
        if not any(map(_IS_LDS_DMA, def_use)):
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
        cfg = manager.get(CFGAnalysis)
        blocks, starts = cfg.blocks, cfg.starts
        per_instruction = def_use.per_instruction
        # a callable function returns (s_setpc_b64) and never ends the program; its callers may
        # still have loads in flight at entry. Unmarked code that ends with s_endpgm is a kernel.
        # A trap handler (it ends in s_rfe) is entered by the hardware, not called; code that only
        # jumps on and does not wait at entry (a PAL shader chaining to the next) is not called either.
        mnemonics = set(map(_MNEMONIC, kernel.instructions))
        is_function = False
        tail_calls: frozenset[int] = frozenset()  # consulted for functions only
        if not kernel.is_kernel:
            tail_calls = _tail_calls(kernel, per_instruction, starts)
            returns = any(instruction.mnemonic in ("s_setpc_b64", "s_set_pc_i64") and index not in tail_calls
                          for index, instruction in enumerate(kernel.instructions))
            # LLVM's calling convention makes a callable function wait at entry; one that also ends the
            # program somewhere (s_endpgm after an intrinsic) is still called.
            waits_at_entry = bool(blocks) and not blocks[0].predecessors and _waits_for_everything(
                kernel.instructions[0], target)
            is_function = not any(m.startswith("s_rfe") for m in mnemonics) and (
                waits_at_entry or (returns and not any(m.startswith("s_endpgm") for m in mnemonics)))
        facts = list(map(_WAITS, def_use.facts))
        if not all(facts):  # some instruction's facts are not computed yet
            facts = [shared.waits or wait_facts(shared, instruction, target)
                     for shared, instruction in zip(def_use.facts, kernel.instructions, strict=True)]
        flat_lds = any(map(_READS_APERTURE, facts))
        maxima = target.wait_counter_max
        walk = _Walk(kernel, per_instruction, facts, list(map(itemgetter(flat_lds), map(_ACCESS, facts))), target,
                     is_function, flat_lds,
                     tail_calls, _LdsPlaces(kernel, per_instruction, starts),
                     _LdsReadAfterBarrier(kernel, per_instruction, target, cfg),
                     "s_set_vgpr_msb" in mnemonics, maxima)

        def initial() -> State:
            # a function starts with the caller's events in flight (stores write no register)
            return {name: Counter(unknown=is_function) for name in maxima}

        tests = _RepeatedTests(list(map(_TEST_KEY, facts)), per_instruction, blocks, starts, maxima)
        incoming: list[dict[Facts, State]] = [{} for _ in blocks]
        if blocks:
            incoming[0][frozenset()] = initial()
        worklist = [0] if blocks else []
        # each block's reports from its latest walk, with the version of its states that walk started from:
        # where no join changed them since, the walk saw the final states and its reports stand
        walked: list[tuple[int, list[WaitReport]] | None] = [None] * len(blocks)
        visits = 0
        while worklist and visits < 50 * len(blocks) + 100:
            visits += 1
            index = worklist.pop(0)
            version, reports = tests.versions[index], []
            for path_facts, start_state in list(incoming[index].items()):
                reports.append(WaitReport({}, [], {}))
                state = dict(start_state)
                out = _walk_block(state, starts[index], starts[index] + len(blocks[index].instructions), walk, reports[-1])
                for successor, edge_facts in tests.edges(index, path_facts):
                    if tests.join(incoming, successor, edge_facts, out) and successor not in worklist:
                        worklist.append(successor)
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


Facts = frozenset  # of (test, SCC value) known on a path


class _RepeatedTests:
    """Path facts for branches that re-test an unchanged condition (Tensile: `s_cmp_eq_u32 s5, 0`
    twice, loads under the first test and their wait under the second). A path that took one
    outcome of a test cannot take the other at an identical test while its operands are unchanged.
    Only tests that occur more than once are tracked; a block keeps at most 8 sets of facts."""

    LIMIT = 8
    #: joins into a block after which a count still growing jumps to its counter's maximum (where a loop that
    #: never waits for its stores would take it one trip at a time: 63 walks for gfx12's storecnt)
    WIDEN_AFTER = 8

    def __init__(self, keys: list[tuple | None], def_use: list[DefUse], blocks, starts: list[int],
                 maxima: dict[str, int]):
        self.blocks = blocks
        self.maxima = maxima
        counts: dict[tuple, int] = {}
        for key in filter(None, keys):  # tests are non-empty tuples
            counts[key] = counts.get(key, 0) + 1
        tracked = {key for key, count in counts.items() if count > 1}
        self.collapsed: set[int] = set()
        self.versions = [0] * len(blocks)  # per block: how often join changed its states
        self.summaries: list[tuple[frozenset, tuple | None, frozenset, bool] | None] = []
        if not tracked:
            self.summaries = [None] * len(blocks)
            return
        operands = {key: frozenset(def_use[index].uses) for index, key in enumerate(keys) if key in tracked}
        read = frozenset().union(*operands.values())  # what any tracked test reads
        for number, block in enumerate(blocks):
            killed_before: set[tuple] = set()
            killed_after: set[tuple] = set()
            test = None
            for offset, instruction in enumerate(block.instructions):
                index = starts[number] + offset
                defs = def_use[index].defs
                killed = () if read.isdisjoint(defs) else {key for key, units in operands.items() if units & defs}
                if keys[index] in tracked:
                    test, killed_before, killed_after = keys[index], killed_before | killed_after, set()
                elif ("scc", 0) in defs:
                    test = None
                (killed_after if test is not None else killed_before).update(killed)
            last = block.terminator
            branch = last is not None and last.mnemonic in ("s_cbranch_scc0", "s_cbranch_scc1")
            taken = last.mnemonic == "s_cbranch_scc1" if branch else False
            self.summaries.append((frozenset(killed_before), test if branch else None, frozenset(killed_after), taken))

    def edges(self, number: int, facts: Facts) -> list[tuple[int, Facts]]:
        """The successors a path with `facts` can reach, with the facts on each edge."""
        successors = self.blocks[number].successors
        summary = self.summaries[number]
        if summary is None:
            return [(successor, facts) for successor in successors]
        killed_before, test, killed_after, taken_value = summary
        facts = frozenset(fact for fact in facts if fact[0] not in killed_before)
        known = next((value for key, value in facts if key == test), None)
        facts = frozenset(fact for fact in facts if fact[0] not in killed_after)
        if test is None or len(successors) != 2:
            return [(successor, facts) for successor in successors]
        edges = []
        for successor, value in zip(successors, (taken_value, not taken_value), strict=True):
            if known is not None and known != value:
                continue  # contradicts the earlier outcome of the same test
            edge_facts = facts if test in killed_after else facts | {(test, value)}
            edges.append((successor, edge_facts))
        return edges

    def join(self, incoming: list[dict[Facts, State]], number: int, facts: Facts, out: State) -> bool:
        """Merge `out` into block `number`'s states under `facts`; whether anything changed."""
        states = incoming[number]
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


def _test_key(instruction: Instruction) -> tuple | None:
    if instruction.mnemonic.startswith(("s_cmp_", "s_cmpk_", "s_bitcmp")):
        return (instruction.mnemonic, *map(str, instruction.operands))
    return None
