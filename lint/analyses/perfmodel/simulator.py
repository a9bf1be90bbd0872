"""A compute-unit simulator in the manner of Pyramid's Scrutinizer (a GCN CU model), extended to CDNA and RDNA.

N waves of one kernel run on one unit of the target's machine (machines.json): a CU of 4 SIMDs on GCN/CDNA,
on RDNA a WGP of 4 SIMDs (WGP mode) or a CU of 2 (CU mode); wave w runs on SIMD w mod SIMDs. A SIMD gets an
issue turn every `issue_interval` cycles (4 on GCN/CDNA, SIMD s at cycles s, s+4, ...; every cycle on RDNA)
and may issue, each to a different wave, at most one scalar (SALU, SMEM or branch), one VALU (MFMA included),
one VMEM and one LDS instruction; `s_waitcnt`, `s_barrier` and `s_nop` issue freely. Arbitration is oldest
wave first. Latencies and each CU's VMEM/LDS request rates come from the latency table (a WGP has two CUs'
worth). Counters retire in order per type; a wait holds its wave until few enough events are outstanding.
MFMAs occupy their SIMD's matrix pipe for passes x 4 cycles, and an instruction reading an MFMA result waits
until the result is there.
The path one wave takes is fixed beforehand, as the one a kernel spends its time in. A loop (the blocks from a
label to the last branch back to it) runs `trip_count` trips (per loop label, default 8) at every entry;
a conditional back-edge is taken until they are done, except one with more of its loop after it, which falls
through (each trip runs the whole body). A forward conditional branch goes the way that reaches a loop named in
`trip_count`, or else the way that still reaches a loop where only one way does (so an early exit that skips
every loop, such as Tensile's numIter == 0 test, is not taken), and otherwise falls through. `taken` steers any
conditional branch, back-edges too, by its label or its line: T/N at each arrival, the pattern repeated. A long
branch (`s_getpc_b64`, a PC-relative label offset added, `s_setpc_b64`) goes to its label when that is in the
kernel. The result says which path ran: blocks and lines, each loop's entries and trips, instructions by class,
the loops and MFMAs it left out and any cap it reached. With `kernargs` (scalars.py) a branch on an SCC that the
kernel's scalar code computes from the arguments given goes the way the kernel would; past the path's cap such a
loop is walked on, off the path, only to count its trips (MAX_COUNTED).

Assumptions (as in the Scrutinizer): without a device's memory system no cache misses (one latency per access
type, the middle of the table's range; with one, memory.py's L2 hit rate and DRAM share); coherent control flow (no divergence); no bank conflicts beyond the table;
SMEM in order. Consecutive simulated waves form work-groups of the kernel's size (the last one may be partial),
each with its own barrier.
"""

from __future__ import annotations

import math
import re
from collections import Counter as Tally
from collections import defaultdict, deque
from dataclasses import dataclass, field
from functools import lru_cache

from ...isa.classes import RETURNS
from ...model.ir import Instruction, Kernel, Module
from ...model.nodes import BinOp, Call, Node, Num, Reg, Sym, UnOp
from ...model.targets import Target
from ..cfg import CFGAnalysis, branch_label, is_conditional_branch, is_unconditional_branch
from ..defuse import DefUseAnalysis
from ..latency import REFERENCE_BYTES, lane_bytes, request_cycles
from ..ldsrace import LdsAddressAnalysis, element_bytes
from ..manager import AnalysisManager
from ..prefetch import PrefetchAnalysis
from ..resources import ResourceAnalysis
from .machine import Machine, machine_for
from .memory import MemorySystem
from .scalars import kernel_arguments

DEFAULT_TRIP_COUNT = 8
MAX_TRACE = 200_000
#: instructions walked past MAX_TRACE, off the path, only to count the trips of a loop the kernel arguments decide
MAX_COUNTED = 5_000_000
MAX_CYCLES = 20_000_000
DRAM_BACKLOG = 4  # L2 misses a CU may have queued for its share of DRAM bandwidth before another waits to issue
STUCK_CYCLES = 200_000  # no instruction issued for this long: stop (a wait that nothing satisfies)
_ENDS = frozenset(("s_endpgm", "s_endpgm_saved", *RETURNS))  # where a path stops
_CATEGORY = {"valu": "valu", "vmem": "vmem", "ds": "lds", "salu": "scalar", "smem": "scalar", "branch": "scalar",
             "message": "scalar", "export": "export"}  # everything else issues freely


@dataclass(slots=True)
class Step:
    """One instruction of the trace with what the simulator needs of it."""

    category: str  # scalar, valu, vmem, lds, free
    cost: int  # cycles the wave (or MFMA pipe) is busy
    latency: int  # cycles until its result / counter event completes (memory)
    counters: tuple[str, ...]  # counter events it starts
    waits: dict[str, int] | None  # counts it waits for
    mfma_passes: int
    reads: int  # register units read, as a bit mask (one bit per unit of the kernel)
    writes: int  # register units written, likewise
    pipe_cycles: int  # cycles of the CU's VMEM or LDS pipe it takes
    barrier: bool = False
    nop: bool = False
    unit: str = ""  # the instruction class's unit (salu, smem, branch, ...)
    dram_cycles: float = 0.0  # cycles of the CU's share of DRAM bandwidth its L2 misses take (with a memory system)
    result_latency: int = 0  # RDNA VALU: cycles from issue until a dependent instruction may read what it writes
    trans_cycles: int = 0  # RDNA transcendental: cycles it holds its SIMD's transcendental unit
    holds_valu: bool = False  # gfx11+ VALU: waiting for an operand no s_delay_alu named holds the SIMD's VALU
    waits_valu: bool = False  # gfx11+ DS, VMEM, export: issues only once every VALU result of the wave is written
    #: s_delay_alu: (instructions ahead, VALU/TRANS/SALU, n) -- that instruction waits for the n-th VALU
    #: (transcendental) back, or n cycles after the last SALU
    delays: tuple[tuple[int, str, int], ...] = ()
    priority: int | None = None  # s_setprio: the wave's new issue priority
    trans: bool = False  # a transcendental (counted by TRANS32_DEP, not VALU_DEP)


@dataclass(slots=True)
class Simulation:
    """The result of simulating a kernel's waves on one CU or WGP."""

    waves: int
    cycles: int
    clocks_per_wave: float
    utilization: dict[str, float]
    stall_rate: float  # share of the waves' time stalled, for any reason (barrier, memory, MFMA, pipes, ...)
    stalls: dict[str, int]  # reason -> wave-cycles
    per_line: dict[int, dict[str, int]]  # instruction index -> reason -> wave-cycles
    path: SimulatedPath
    wait_rate: float = 0.0  # share of SIMD turns nothing issues while a wave waits on a memory counter
    starve_rate: float = 0.0  # share of SIMD time with no wave left on the SIMD (the tail)
    work_items_per_cycle: float = 0.0  # throughput of the CU
    bottleneck: str = ""
    unit: str = "CU"  # what the waves ran on: a CU, or a WGP in gfx10+ WGP mode
    warnings: list[str] = field(default_factory=list)  # a cap the simulation stopped at
    group_waves: int = 0  # waves per work-group (each work-group has its own barrier)
    issued: dict[int, int] = field(default_factory=dict)  # instruction index -> wave-cycles its issues took
    memory: MemorySystem | None = None  # the device's memory system it ran with (None: the latency table's)
    extrapolated: dict | None = None  # how a long loop's trips were extrapolated from a steady state (predict.py)
    #: per wave, (path position, cycle) each time it issued the instruction `simulate` was asked to mark
    marks: list[list[tuple[int, int]]] = field(default_factory=list)

    @property
    def trace_length(self) -> int:
        return len(self.path.indices)

    def to_json(self) -> dict:
        return {"waves": self.waves, "unit": self.unit, "workgroup_waves": self.group_waves, "cycles": self.cycles, "clocks_per_wave": round(self.clocks_per_wave, 1),
                "work_items_per_cycle": round(self.work_items_per_cycle, 3),
                "utilization": {k: round(v, 3) for k, v in self.utilization.items()},
                "stall_rate": round(self.stall_rate, 3), "wait_rate": round(self.wait_rate, 3),
                "starve_rate": round(self.starve_rate, 3), "stalls": self.stalls, "bottleneck": self.bottleneck,
                "trace_length": self.trace_length, "warnings": self.warnings} | (
                    {"memory": self.memory.to_json()} if self.memory is not None else {}) | (
                    {"extrapolated": self.extrapolated} if self.extrapolated is not None else {})


@dataclass(slots=True)
class LoopRun:
    """One loop of the kernel and how the path ran it."""

    label: str  # the label its back-edges go to
    line: int  # the line of its first instruction
    entries: int = 0  # times the path entered it
    trips: int = 0  # iterations over all entries
    from_kernargs: bool = False  # its trips came from the kernel's scalar code on the arguments given

    def to_json(self) -> dict:
        return {"label": self.label, "line": self.line, "entries": self.entries, "trips": self.trips,
                "from_kernargs": self.from_kernargs}


@dataclass(slots=True)
class SimulatedPath:
    """The instructions one wave executes, and what that path covers of the kernel."""

    indices: list[int]  # instruction indices in execution order
    blocks: int = 0  # distinct basic blocks executed
    of_blocks: int = 0  # basic blocks in the kernel
    trips: dict[str, int] = field(default_factory=dict)  # loop label -> iterations run (over all entries)
    skipped_loops: list[tuple[str, int]] = field(default_factory=list)  # (label, line) of loops never entered
    long_branches: int = 0  # s_setpc_b64 long branches followed
    by_class: dict[str, int] = field(default_factory=dict)  # instructions executed per class
    mfmas: int = 0  # distinct MFMA instructions in the kernel
    mfmas_run: int = 0  # of which on the path
    never_run: list[int] = field(default_factory=list)  # instruction indices the path does not reach
    loops: list[LoopRun] = field(default_factory=list)  # every loop, in kernel order
    truncated: bool = False  # the path reached MAX_TRACE instructions before the kernel's end
    unknown: list[str] = field(default_factory=list)  # what --trip-count and --taken name that is not there

    def warnings(self) -> list[str]:
        """What makes the simulation unrepresentative: loops it skipped, MFMAs it left out, the cap, options that
        name nothing."""
        found = [f"the path skips the loop at line {line} ({label}); pass --taken or --trip-count to steer it"
                 for label, line in self.skipped_loops]
        if self.mfmas and self.mfmas_run * 2 < self.mfmas:
            found.append(f"only {self.mfmas_run} of the kernel's {self.mfmas} MFMA instructions are on the "
                         "simulated path")
        if self.truncated:
            found.append(f"the path stops at the simulator's cap of {MAX_TRACE} instructions before the kernel "
                         "ends; lower --trip-count to simulate it whole")
        return found + self.unknown

    def to_json(self) -> dict:
        return {"blocks": self.blocks, "of_blocks": self.of_blocks, "trips": self.trips,
                "loops": [loop.to_json() for loop in self.loops],
                "skipped_loops": [{"label": label, "line": line} for label, line in self.skipped_loops],
                "long_branches": self.long_branches, "executed_by_class": self.by_class,
                "mfmas": self.mfmas, "mfmas_run": self.mfmas_run, "truncated": self.truncated,
                "warnings": self.warnings()}


@dataclass(slots=True)
class _Loop:
    """A loop found from its back-edges: the blocks from its header (its key) to `end`, in layout order."""

    label: str
    end: int  # its last latch
    labels: set[str] = field(default_factory=set)  # every label its back-edges go to (one block may have several)

    def counted(self, trip_counts: dict[str, int]) -> bool:
        """Whether --trip-count names it."""
        return not self.labels.isdisjoint(trip_counts)

    def trip_count(self, trip_counts: dict[str, int]) -> int:
        """Its trips per entry: the count given for one of its labels, else the default."""
        return next((trip_counts[label] for label in sorted(self.labels) if label in trip_counts), DEFAULT_TRIP_COUNT)


def _loops_of(cfg) -> dict[int, _Loop]:
    """Loop header block -> the loop, from every branch that goes back to a block at or before its own."""
    loops: dict[int, _Loop] = {}
    for block in cfg.blocks:
        label = _back_edge_label(block, cfg)
        if label is None:
            continue
        header = cfg.block_of_label[label]
        loop = loops.setdefault(header, _Loop(label, block.index))
        loop.end = max(loop.end, block.index)
        loop.labels.add(label)
    return loops


def _decides(pattern: str, arrivals: int) -> bool:
    """Whether a branch steered by `pattern` (T taken, N not, repeated) is taken at its `arrivals`-th arrival."""
    return pattern[(arrivals - 1) % len(pattern)] == "T"


def trace(manager: AnalysisManager, trip_counts: dict[str, int], taken: dict[str, str],
          kernargs: dict[str, int] | None = None) -> SimulatedPath:
    """The path one wave executes, each loop run its trip count per entry (the module docstring says how it
    chooses at branches). `taken` maps a label, or the line of one branch, to the pattern (T/N) of the conditional
    branches to that label (at that line). With `kernargs` (argument name -> value) a branch on a known SCC goes
    the way the kernel's scalar code decides (scalars.py), unless --taken or --trip-count says otherwise."""
    cfg = manager.get(CFGAnalysis)
    kernel = manager.kernel
    scalars, problems = kernel_arguments(kernel, kernargs or {})
    def_use = manager.get(DefUseAnalysis)
    defs = [info.defs for info in def_use.per_instruction] if scalars is not None and def_use is not None else []
    long_branches = _long_branch_targets(kernel, cfg)
    loops = _loops_of(cfg)
    headers = {header: loop.label for header, loop in loops.items()}
    by_label = {label: header for header, loop in loops.items() for label in loop.labels}
    named = {by_label[label] for label in trip_counts if label in by_label}
    loop_ahead = _loop_ahead(cfg, set(headers), long_branches)
    named_ahead = _loop_ahead(cfg, named, long_branches) if named else loop_ahead
    inside: list[tuple[int, ...]] = [() for _ in cfg.blocks]  # block -> headers of the loops it is in
    for header, loop in sorted(loops.items()):
        for member in range(header, loop.end + 1):
            inside[member] += (header,)
    iterations: dict[int, int] = {}  # loop header -> iterations begun in the current entry
    done: set[int] = set()  # loops whose trips in the current entry are done
    runs = {header: LoopRun(loop.label, kernel.instructions[cfg.starts[header]].where.line)
            for header, loop in sorted(loops.items())}
    arrivals: Tally = Tally()  # branch block -> times the path reached it
    path: list[int] = []
    entered: set[int] = set()
    followed = 0
    previous: tuple[int, ...] = ()
    block: int | None = 0
    counted = 0  # instructions walked past the cap, off the path
    while block is not None and cfg.blocks:
        if len(path) >= MAX_TRACE and not (counted < MAX_COUNTED and any(runs[header].from_kernargs
                                                                         for header in inside[block])):
            break  # the cap; only a loop the arguments decide is walked on, to count its trips
        for header in inside[block]:
            if header not in previous:  # entered from outside the loop: a new entry, its trips counted afresh
                iterations[header] = 1
                done.discard(header)
                runs[header].entries += 1
                runs[header].trips += 1
        previous = inside[block]
        entered.add(block)
        current = cfg.blocks[block]
        if len(path) < MAX_TRACE:
            path.extend(range(cfg.starts[block], cfg.starts[block] + len(current.instructions)))
        else:
            counted += len(current.instructions)
        if scalars is not None:
            for index in range(cfg.starts[block], cfg.starts[block] + len(current.instructions)):
                scalars.run(kernel.instructions[index], defs[index])
        last = current.terminator
        following = block + 1 if block + 1 < len(cfg.blocks) else None
        if last is not None and block in long_branches:
            block, followed = long_branches[block], followed + 1
            continue
        if last is None or last.mnemonic in _ENDS:
            break
        label = branch_label(last)
        target_block = cfg.block_of_label.get(label) if label else None
        conditional = is_conditional_branch(last.mnemonic)
        known = scalars.branch(last.mnemonic) if scalars is not None and conditional else None
        if conditional:
            arrivals[block] += 1
        if label and target_block is not None and target_block <= block and (
                conditional or is_unconditional_branch(last.mnemonic)):
            loop = loops[target_block]
            steer = taken.get(str(last.where.line), taken.get(label)) if conditional else None
            if steer is None and known is not None and not loop.counted(trip_counts):
                runs[target_block].from_kernargs = True
                if known:  # the kernel's own counter decides: no trip count
                    iterations[target_block] += 1
                    runs[target_block].trips += 1
                    block = target_block
                else:
                    done.add(target_block)
                    block = following
                continue
            if steer is not None:
                wanted = _decides(steer, arrivals[block])
            else:  # a conditional latch with another one after it falls through: each trip runs the whole body
                wanted = not conditional or block == loop.end
            if not wanted:
                block = following
                continue
            if target_block not in done and iterations[target_block] < loop.trip_count(trip_counts):
                iterations[target_block] += 1
                runs[target_block].trips += 1
                block = target_block
                continue
            done.add(target_block)
            # done: leave through the fall-through (or, after an unconditional latch, past it)
            block = following
        elif conditional and target_block is not None:
            steer = taken.get(str(last.where.line), taken.get(label or ""))
            if steer is not None or known is not None:
                block = target_block if (_decides(steer, arrivals[block]) if steer is not None else known) else following
                continue
            leaves = any(header <= block <= loops[header].end < target_block for header in done)
            ahead = named_ahead if named_ahead[target_block] != (following is not None and named_ahead[following]) \
                else loop_ahead
            into_loop = ahead[target_block] and (following is None or not ahead[following])
            block = target_block if (leaves or into_loop) else following
        elif is_unconditional_branch(last.mnemonic):
            block = target_block
        else:
            block = following
    result = _described(kernel, cfg, path, entered, headers, followed)
    result.loops = list(runs.values())
    result.trips = {run.label: run.trips for run in result.loops if run.trips}
    result.truncated = counted > 0 or (block is not None and len(path) >= MAX_TRACE)
    result.unknown = problems + [f"--trip-count {label}: no loop branches back to {label}" for label in trip_counts
                                 if label not in by_label]
    branches = [b.terminator for b in cfg.blocks
                if b.terminator is not None and is_conditional_branch(b.terminator.mnemonic)]
    named_branches = {branch_label(branch) for branch in branches} | {str(branch.where.line) for branch in branches}
    result.unknown += [f"--taken {name}: no conditional branch goes to {name} or is at line {name}" for name in taken
                       if name not in named_branches]
    return result


def loop_bodies(manager: AnalysisManager) -> dict[str, range]:
    """Each loop (by the label the path's trips are counted under) -> the indices of its instructions, from its
    header to its last latch."""
    cfg = manager.get(CFGAnalysis)
    return {loop.label: range(cfg.starts[header], cfg.starts[loop.end] + len(cfg.blocks[loop.end].instructions))
            for header, loop in sorted(_loops_of(cfg).items())}


def _back_edge_label(block, cfg) -> str | None:
    """The label a block's branch goes back to (its loop's header), if it does."""
    last = block.terminator
    label = branch_label(last) if last is not None and (
        is_conditional_branch(last.mnemonic) or is_unconditional_branch(last.mnemonic)) else None
    target = cfg.block_of_label.get(label) if label else None
    return label if target is not None and target <= block.index else None


def _loop_ahead(cfg, headers: set[int], long_branches: dict[int, int]) -> list[bool]:
    """Per block: whether one of `headers` can be reached from it going forward (branches, fall-throughs and
    long branches to later blocks)."""
    ahead = [False] * len(cfg.blocks)
    for block in reversed(cfg.blocks):
        later = [successor for successor in block.successors if successor > block.index]
        if long_branches.get(block.index, -1) > block.index:
            later.append(long_branches[block.index])
        ahead[block.index] = block.index in headers or any(ahead[successor] for successor in later)
    return ahead


def _long_branch_targets(kernel: Kernel, cfg) -> dict[int, int]:
    """Blocks ending in a long branch to a label of this kernel -> that label's block: `s_setpc_b64 s[a:b]` where
    s[a:b] came from `s_getpc_b64` and the instructions since then added one label's offset to it."""
    found: dict[int, int] = {}
    for block in cfg.blocks:
        last = block.terminator
        if last is None or last.mnemonic not in ("s_setpc_b64", "s_set_pc_i64") or not last.operands:
            continue
        pc = last.operands[0]
        start = cfg.starts[block.index]
        instructions = kernel.instructions[max(0, start - 8): start + len(block.instructions) - 1]
        labels: set[str] = set()
        for instruction in reversed(instructions):
            if instruction.mnemonic == "s_getpc_b64" and instruction.operands and instruction.operands[0] == pc:
                targets = {label for label in labels if label in cfg.block_of_label}
                if len(targets) == 1:
                    found[block.index] = cfg.block_of_label[targets.pop()]
                break
            labels.update(_symbols(instruction))
    return found


def _symbols(instruction: Instruction) -> set[str]:
    """The symbol names an instruction's operands use, without relocation specifiers (`label@rel32@lo` -> label)."""
    names: set[str] = set()
    stack: list[Node] = [operand for operand in instruction.operands if not isinstance(operand, Reg)]
    while stack:
        node = stack.pop()
        if isinstance(node, Sym):
            names.add(node.name.split("@")[0])
        elif isinstance(node, BinOp):
            stack += [node.left, node.right]
        elif isinstance(node, UnOp):
            stack.append(node.operand)
    return names


def _described(kernel: Kernel, cfg, path: list[int], entered: set[int], headers: dict[int, str],
               followed: int) -> SimulatedPath:
    on_path = set(path)
    mfmas = [index for index, instruction in enumerate(kernel.instructions)
             if instruction.mnemonic.startswith(("v_mfma", "v_smfmac", "v_wmma", "v_swmmac"))]
    return SimulatedPath(
        path, len(entered), len(cfg.blocks),
        skipped_loops=[(label, kernel.instructions[cfg.starts[header]].where.line)
                       for header, label in sorted(headers.items()) if header not in entered],
        long_branches=followed, mfmas=len(mfmas), mfmas_run=sum(index in on_path for index in mfmas),
        never_run=[index for index in range(len(kernel.instructions)) if index not in on_path])


def _steps(kernel: Kernel, manager: AnalysisManager, machine: Machine, target: Target,
           memory: MemorySystem | None = None) -> list[Step]:
    """Per instruction what the simulator needs, from the cached def/use, timing and LDS address analyses; with
    `memory`, vector memory's latency and DRAM share from it."""
    def_use = manager.get(DefUseAnalysis)
    timing = manager.get(PrefetchAnalysis)
    assert def_use is not None and timing is not None  # (None without a target only)
    table, wave = timing.table, def_use.wave_size
    holds = machine.holds_valu(target)
    passes = machine.wave64_passes if wave == 64 else 1
    lds = manager.get(LdsAddressAnalysis) if any(info.klass.unit == "ds" for info in def_use.per_instruction) else {}
    latency_of = {unit: (table[name].low + table[name].high) // 2
                  for unit, name in (("vmem", "vmem_load"), ("ds", "lds_read"), ("smem", "smem_load"))}
    if memory is not None:
        latency_of["vmem"] = memory.latency
    pipes = {"vmem": table["vmem_issue_per_cu"], "ds": table["lds_issue_per_cu"]}
    bits: dict = {}  # register unit -> its bit in the masks

    def mask(units) -> int:
        return sum(1 << bits.setdefault(unit, len(bits)) for unit in units)

    steps = []
    for index, (instruction, info) in enumerate(zip(kernel.instructions, def_use.per_instruction, strict=True)):
        klass = info.klass
        unit = klass.unit
        mnemonic = instruction.mnemonic
        extra = 0  # LDS bank-conflict cycles
        if unit == "ds":
            pipe = max(1, round(pipes["ds"].low * lds_lane_bytes(mnemonic, klass.kind) * wave / REFERENCE_BYTES))
            access = lds.get(index)
            if access is not None and access.address is not None and klass.memory == "lds":
                extra = round(pipe * conflict_ratio(access.address.lane, access.pieces, wave, machine.lds_banks,
                                              b128_read_phases=target.major < 10 and klass.kind == "read")) - pipe
        else:
            pipe = max(1, round(request_cycles(pipes[unit], mnemonic, wave))) if unit in pipes else 0
        step = Step(
            _CATEGORY.get(unit, "free"), timing.cycles[index], latency_of.get(unit, 0) + extra,
            tuple(timing.events.get(index, ())), timing.waits.get(index) if unit == "wait" else None,
            klass.passes if klass.matrix in ("mfma", "smfmac") else 0,
            mask(info.uses), mask(info.defs), pipe + extra, barrier=mnemonic == "s_barrier",
            nop=mnemonic == "s_nop", unit=unit, waits_valu=holds and unit in ("ds", "vmem", "export"),
            dram_cycles=memory.dram_cycles(lane_bytes(mnemonic) * wave) if memory is not None and unit == "vmem"
            else 0.0)
        if mnemonic == "s_setprio" and instruction.operands and isinstance(instruction.operands[0], Num):
            step.priority = min(3, max(0, int(instruction.operands[0].value)))
        elif mnemonic == "s_delay_alu" and instruction.operands:
            step.category, step.cost, step.delays = "free", 0, _delay_alu(instruction.operands[0])
        elif unit == "valu" and not step.mfma_passes and machine.valu_latency:
            if passes > 1 and target.major >= 11 and klass.matrix in ("", "dot") and _DUAL_ISSUE.match(mnemonic):
                step.cost = table["valu_issue"].low  # a wave64 through both VALU paths at once: one pass
            if target.major == 11:
                step.cost += _bank_cycles(instruction, klass.matrix)
            step.holds_valu = holds
            step.trans = klass.rate == "trans"
            step.result_latency = machine.valu_latency.get(klass.rate, machine.valu_latency["full"])
            if step.trans and machine.trans_unit:  # one VALU issue cycle per pass, then the transcendental unit
                step.trans_cycles, step.cost = step.cost, table["valu_issue"].low * passes
        steps.append(step)
    return steps


#: opcodes a gfx11+ wave64 issues in one pass, its two halves on the SIMD's two VALU paths (Mesa ACO's
#: is_dual_issue_capable; its conditional cases, v_fma_mix and gfx11.5's VOPC, are left out)
_DUAL_ISSUE = re.compile(r"v_(fma|fmac|fmaak|fmamk|mul|add|sub|subrev|min|max|min_num|max_num)_f(16|32)(_e32|_e64)?$"
                         r"|v_(mov|cndmask)_b32(_e32|_e64)?$|v_dot2\w*_(f16|bf16)(_e32|_e64)?$"
                         r"|v_(add|sub|subrev|mad|and|or|xor|lshlrev|lshrrev|ashrrev)(_nc)?_[iub]16(_e32|_e64)?$")


def _bank_cycles(instruction: Instruction, matrix: str) -> int:
    """gfx11 VGPR bank cycles (bank = register number mod 4): a WMMA whose A, B and C start in fewer than three
    banks takes 2 more (measured on gfx1151, LLVM issue #204254); a VOPD pair one more per extra distinct VGPR one
    bank serves for its two halves' SRC0 and VSRC1 (an accumulator comes through the SRC2 port): four distinct banks
    issue in one cycle, conflicting ones took 2-3 on the 7900 XTX (seb-v's SGEMM study)."""
    if matrix == "wmma":
        starts = [operand.index % 4 for operand in instruction.operands[1:4] if isinstance(operand, Reg)
                  and operand.kind == "v"]
        return 2 if len(starts) == 3 and len(set(starts)) < 3 else 0
    if instruction.pair is None:
        return 0
    read: dict[int, set[int]] = {}
    for half in (instruction, instruction.pair):
        for operand in half.operands[1:]:
            if isinstance(operand, Reg) and operand.kind == "v":
                read.setdefault(operand.index % 4, set()).add(operand.index)
    return max(map(len, read.values()), default=1) - 1


_DELAY_IDS = {**{f"VALU_DEP_{n}": ("VALU", n) for n in range(1, 5)},
              **{f"TRANS32_DEP_{n}": ("TRANS", n) for n in range(1, 4)},
              **{f"SALU_CYCLE_{n}": ("SALU", n) for n in range(1, 4)}}
_DELAY_CODES = {1: "VALU_DEP_1", 2: "VALU_DEP_2", 3: "VALU_DEP_3", 4: "VALU_DEP_4", 5: "TRANS32_DEP_1",
                6: "TRANS32_DEP_2", 7: "TRANS32_DEP_3", 9: "SALU_CYCLE_1", 10: "SALU_CYCLE_2", 11: "SALU_CYCLE_3"}
_SKIPS = {"SAME": 0, "NEXT": 1, "SKIP_1": 2, "SKIP_2": 3, "SKIP_3": 4, "SKIP_4": 5}


def _delay_alu(operand: Node) -> tuple[tuple[int, str, int], ...]:
    """An s_delay_alu operand (`instid0(VALU_DEP_1) | instskip(NEXT) | instid1(...)`, or its number) as (instructions
    ahead, VALU/TRANS/SALU, n) per dependency it names; FMA_ACCUM_CYCLE_1 and what cannot be read name none."""
    fields: dict[str, str] = {}
    if isinstance(operand, Num) and isinstance(operand.value, int):
        value = operand.value
        skip = next((name for name, code in _SKIPS.items() if code == (value >> 4) & 7), "SAME")
        fields = {"instid0": _DELAY_CODES.get(value & 15, ""), "instskip": skip,
                  "instid1": _DELAY_CODES.get((value >> 7) & 15, "")}
    else:
        stack = [operand]
        while stack:
            node = stack.pop()
            if isinstance(node, BinOp):
                stack += [node.left, node.right]
            elif isinstance(node, Call) and len(node.args) == 1 and isinstance(node.args[0], Sym):
                fields[node.name] = node.args[0].name
    found = []
    second = 1 + _SKIPS.get(fields.get("instskip", "SAME"), 0)
    for name, ahead in (("instid0", 1), ("instid1", second)):
        if fields.get(name) in _DELAY_IDS:
            found.append((ahead, *_DELAY_IDS[fields[name]]))
    return tuple(found)


#: ds_read_b128's lane phases on CDNA (Composable Kernel's LDS bank-conflict notes, measured on MI300 too): eight
#: lanes a cycle, in these groups, and the same +32 for lanes 32-63; other accesses take consecutive lanes
_B128_READ_PHASES = ((0, 1, 2, 3, 20, 21, 22, 23), (4, 5, 6, 7, 16, 17, 18, 19), (8, 9, 10, 11, 28, 29, 30, 31),
                     (12, 13, 14, 15, 24, 25, 26, 27))


def lds_lane_bytes(mnemonic: str, kind: str) -> int:
    """Bytes an LDS access moves per lane through the banks: its element (at least a dword: a byte or short still
    takes a bank access), twice for the two-address forms (ds_read2*, ds_write2*, ds_load_2addr*, ...)."""
    size = max(4, element_bytes(mnemonic))
    return 2 * size if kind in ("read2", "write2") else size


@lru_cache(maxsize=256)
def conflict_ratio(stride: int, pieces: tuple[tuple[int, int], ...], wave: int, banks: int,
                   b128_read_phases: bool = False) -> float:
    """How many times its conflict-free cycles an LDS access takes when lane i accesses `stride * i` plus each
    piece's (offset, bytes): the lanes one cycle serves (as many as fill the banks: 32 dwords) are held for as
    many cycles as the most distinct dwords one bank holds among them; lanes reading the same dword share it
    (broadcast). A two-address access is its two pieces one after the other."""
    cycles = phases = 0
    for offset, size in pieces:
        per_cycle = max(1, banks * 4 // max(size, 4))
        if b128_read_phases and size == 16 and banks == 32:
            groups = [tuple(lane + half for lane in group) for half in range(0, wave, 32)
                      for group in _B128_READ_PHASES]
        else:
            groups = [tuple(range(first, min(first + per_cycle, wave))) for first in range(0, wave, per_cycle)]
        for group in groups:
            by_bank: dict[int, set[int]] = {}
            for lane in group:
                start = stride * lane + offset
                for dword in range(start // 4, (start + size - 1) // 4 + 1):
                    by_bank.setdefault(dword % banks, set()).add(dword)
            cycles += max(map(len, by_bank.values()))
            phases += 1
    return cycles / max(phases, 1)


@dataclass(slots=True)
class _Wave:
    """One simulated wave's position and what it waits for."""

    number: int
    simd: int
    position: int = 0  # into the trace
    ready: int = 0  # cycle from which it may issue again
    events: dict[str, deque[int]] = field(default_factory=dict)  # counter -> completion cycles of events in flight, oldest first
    # MFMA results in flight: (cycle ready, units written), oldest first; one matrix pipe per SIMD
    # runs a wave's MFMAs one after another, so they are ready in issue order
    results: deque[tuple[int, int]] = field(default_factory=deque)
    at_barrier: bool = False
    done_at: int | None = None
    busy_with: str = "busy"  # why `ready` is in the future: "s_nop" counts as a stall, "busy" does not
    waiting: bool = False  # held by an s_waitcnt at its last turn
    released: bool = False  # every wave reached the barrier it is at
    priority: int = 0  # its s_setprio priority: the SIMD's issue goes to the highest, then to the oldest
    pending: list[tuple[int, int]] = field(default_factory=list)  # RDNA VALU results in flight: (cycle written, units)
    pending_until: int = 0  # when the last of them is written
    valu_done: list[int] = field(default_factory=list)  # when the last VALUs' results are written, oldest last
    trans_done: list[int] = field(default_factory=list)  # likewise the last transcendentals
    salu_at: int = 0  # issue cycle of its last SALU instruction
    delays: dict[int, list[tuple[str, int]]] = field(default_factory=dict)  # path position -> s_delay_alu waits
    delay_until: int = 0  # the s_delay_alu wait of the instruction it is at
    operands_at: int = 0  # when the operands of the VALU it is at are written (gfx11+: the VALU holds until then)


def simulate(module: Module, kernel: Kernel, waves: int, *, trip_counts: dict[str, int] | None = None,
             taken: dict[str, str] | set[str] | None = None, simds: int | None = None,
             group_waves: int | None = None, kernargs: dict[str, int] | None = None,
             manager: AnalysisManager | None = None, memory: MemorySystem | None = None,
             mark: int | None = None) -> Simulation | None:
    """Run `waves` copies of the kernel on one CU (one WGP in gfx10+ WGP mode); None without a known target.
    Consecutive waves form work-groups of `group_waves` (default: the kernel's work-group size in waves), each
    with its own barrier. `simds` narrows the unit to its first SIMDs (tests); `manager`: the kernel's analyses,
    when the caller has them. With `memory` (memory.py) vector memory takes the device's latency and each CU's
    share of its DRAM bandwidth instead of the latency table's. With `mark` (an instruction index) the result has
    the cycle each wave issued it at, every time (`marks`)."""
    if module.target is None or not kernel.instructions:
        return None
    manager = manager or AnalysisManager(module, kernel)
    def_use = manager.get(DefUseAnalysis)
    if def_use is None:
        return None
    resources = manager.get(ResourceAnalysis)
    cumode = resources.cumode if resources is not None else False
    machine = machine_for(module.target)
    interval = machine.issue_interval
    pipes = machine.memory_pipes(cumode)
    unit_simds = machine.simds(cumode)
    simds = unit_simds if simds is None else min(simds, unit_simds)
    steered = taken if isinstance(taken, dict) else dict.fromkeys(taken or (), "T")
    simulated = trace(manager, trip_counts or {}, steered, kernargs)
    path = simulated.indices
    wave_size = def_use.wave_size
    by_index = _steps(kernel, manager, machine, module.target, memory)
    simulated.by_class = dict(Tally("mfma" if by_index[index].mfma_passes else by_index[index].unit
                                    for index in path).most_common())
    crew = [_Wave(w, w % simds) for w in range(waves)]
    if group_waves is None:
        group_waves = -(-resources.wg_size // wave_size) if resources is not None else waves
    groups = [crew[first:first + max(group_waves, 1)] for first in range(0, waves, max(group_waves, 1))]
    on_simd = [[wave for wave in crew if wave.simd == simd] for simd in range(simds)]  # oldest first
    turn_simds = [[simd for simd in range(simds) if simd % interval == phase] for phase in range(interval)]
    # unit -> busy cycles (DRAM's are fractions): float-valued, as a compiled build checks (a Counter's values are ints)
    busy: defaultdict[str, float] = defaultdict(float)
    stalls: Tally = Tally()
    per_line: dict[int, Tally] = {}
    matrix_free = [0] * simds
    valu_free = [0] * simds
    trans_free = [0] * simds
    # one per CU of the unit, and its DRAM share (fractional cycles: bytes over a share of the bandwidth)
    pipes_free: list[dict[str, float]] = [{"vmem": 0, "lds": 0, "dram": 0.0} for _ in range(pipes)]
    pipe_of = [simd * pipes // unit_simds for simd in range(simds)]
    mfma_cycles = machine.mfma_pass_cycles
    idle_turns = turns = 0
    marks: list[list[tuple[int, int]]] = [[] for _ in crew]
    cycle = last_issue = 0
    progress = quiet_since = 0  # state changes so far; the cycle since which there were none
    last_turn: dict[int, tuple[list[tuple[str, int]], bool]] = {}  # SIMD -> its last turn's stalls and idleness
    while any(w.done_at is None for w in crew) and cycle < MAX_CYCLES and cycle - last_issue < STUCK_CYCLES:
        if cycle - quiet_since >= interval:
            # a whole round changed nothing, and no time it compared against has passed since: every
            # turn repeats its SIMD's last one until the next such time
            resume = min(_next_change(crew, cycle - interval, matrix_free, valu_free, pipes_free, trans_free),
                         last_issue + STUCK_CYCLES, MAX_CYCLES)
            if resume > cycle:
                for turn_simd, (stalled_before, idle_before) in last_turn.items():
                    repeats = _turns_of(turn_simd, cycle, resume, interval)
                    turns += repeats
                    idle_turns += repeats * idle_before
                    for repeated, index in stalled_before:
                        stalls[repeated] += interval * repeats
                        per_line[index][repeated] += interval * repeats
                cycle = quiet_since = resume
                if cycle >= MAX_CYCLES or cycle - last_issue >= STUCK_CYCLES:
                    break
        before = progress
        for simd in turn_simds[cycle % interval]:
            turns += 1
            issued_categories: set[str] = set()
            issued_any = False
            stalled: list[tuple[str, int]] = []
            pipe_free = pipes_free[pipe_of[simd]]
            reprioritized = False
            for wave in on_simd[simd]:
                if wave.done_at is not None:
                    continue
                while wave.done_at is None:
                    if wave.position >= len(path):
                        wave.done_at = max(cycle, wave.ready)
                        progress += 1
                        break
                    index = path[wave.position]
                    step = by_index[index]
                    if step.barrier and wave.released:
                        wave.released = False
                        if index == mark:
                            marks[wave.number].append((wave.position, cycle))
                        wave.position += 1
                        progress += 1
                        continue
                    if step.barrier and not wave.at_barrier and wave.ready <= cycle:
                        wave.at_barrier = True  # arrives; held until every wave of its work-group has
                        issued_any = True
                        break
                    reason = _blocked(wave, step, cycle, matrix_free[simd], valu_free[simd], pipe_free, issued_categories,
                                      trans_free[simd])
                    wave.waiting = reason is not None and reason.startswith("waiting on")
                    if reason is not None:
                        if reason != "busy":
                            stalls[reason] += interval
                            line = per_line.get(index)
                            if line is None:
                                line = per_line[index] = Tally()
                            line[reason] += interval
                            stalled.append((reason, index))
                        break
                    issued_any = True
                    start = cycle
                    if step.holds_valu and wave.operands_at > cycle:  # gfx11+: it holds the VALU until then
                        start = wave.operands_at
                        held = "VALU dependency (no s_delay_alu)"
                        stalls[held] += start - cycle
                        per_line.setdefault(index, Tally())[held] += start - cycle
                    _issue(wave, step, cycle, busy, matrix_free, pipe_free, issued_categories, mfma_cycles, interval,
                           start)
                    if step.category == "valu" and not step.mfma_passes:
                        valu_free[simd] = start + step.cost
                        if step.trans_cycles:
                            trans_free[simd] = start + step.trans_cycles
                    reprioritized |= step.priority is not None
                    if index == mark:
                        marks[wave.number].append((wave.position, cycle))
                    wave.position += 1
                    if step.category != "free":
                        break  # one real instruction per wave per turn; free ones continue
            if reprioritized:  # the highest priority first, then the oldest
                on_simd[simd].sort(key=lambda other: (-other.priority, other.number))
            idle = False
            if issued_any:
                last_issue = cycle
                progress += 1
            elif any(w.done_at is None and w.waiting for w in on_simd[simd]):
                idle_turns += 1
                idle = True
            last_turn[simd] = stalled, idle
        progress += sum(_release_barrier(group) for group in groups)
        if progress != before:
            quiet_since = cycle + 1
        cycle += 1
    total = max([w.done_at or cycle for w in crew] + matrix_free) or 1  # the matrix pipe drains too
    per_simd = total * simds
    per_pipe = total * pipes
    units = {"VALU": busy["valu"] / per_simd, "MFMA": busy["mfma"] / per_simd, "SALU": busy["salu"] / per_simd,
             "SMEM": busy["smem"] / per_simd, "branch": busy["branch"] / per_simd, "VMEM": busy["vmem"] / per_pipe,
             "LDS": busy["lds"] / per_pipe, "export": busy["export"] / per_pipe}
    if memory is not None:
        units["DRAM"] = busy["dram"] / per_pipe
    empty = sum(total - max((w.done_at or total) for w in on_simd[s]) if on_simd[s] else total for s in range(simds))
    wave_time = sum((w.done_at or total) for w in crew)
    result = Simulation(waves, total, wave_time / waves, units,
                        min(1.0, sum(stalls.values()) / max(1, wave_time)), dict(stalls),
                        {i: dict(t) for i, t in per_line.items()}, simulated,
                        wait_rate=idle_turns / max(1, turns), starve_rate=empty / per_simd,
                        work_items_per_cycle=waves * wave_size / total, unit=machine.unit(cumode),
                        group_waves=min(group_waves, waves), memory=memory, marks=marks if mark is not None else [],
                        issued={index: count * by_index[index].cost * waves for index, count in Tally(path).items()})
    result.bottleneck = bottleneck(result)
    if any(w.done_at is None for w in crew):
        result.warnings.append(
            f"the simulation stops at its cap of {MAX_CYCLES} cycles before every wave ends" if cycle >= MAX_CYCLES
            else f"the simulation stops: no wave issued for {STUCK_CYCLES} cycles (a wait or barrier that nothing "
                 "satisfies)")
    return result


def _blocked(wave: _Wave, step: Step, cycle: int, matrix_free: int, valu_free: int, pipe_free, issued,
             trans_free: int = 0) -> str | None:
    if wave.ready > cycle:
        return wave.busy_with
    if step.waits is not None:
        for counter, count in step.waits.items():
            in_flight = wave.events.get(counter)
            while in_flight and in_flight[0] <= cycle:  # completions are in order: retire from the front
                in_flight.popleft()
            if in_flight and len(in_flight) > count:
                return f"waiting on {counter}"
        return None
    if step.barrier:
        return "barrier"
    pending = wave.results
    while pending and pending[0][0] <= cycle:
        pending.popleft()
    if any(units & step.reads for _, units in pending):
        return "MFMA result"
    if wave.delays and wave.position in wave.delays:  # reached an instruction an s_delay_alu named
        wave.delay_until = max(wave.delay_until, _delay_time(wave, wave.delays.pop(wave.position)))
    if wave.delay_until > cycle:
        return "s_delay_alu"
    wave.operands_at = 0
    written_later = wave.pending
    if written_later:
        if wave.pending_until <= cycle:  # every result written
            written_later.clear()
        else:
            if len(written_later) > 8:
                written_later[:] = [entry for entry in written_later if entry[0] > cycle]
            reads = step.reads
            needed = wave.pending_until if step.waits_valu else max(
                (written for written, units in written_later if units & reads), default=0)
            if needed > cycle and not step.holds_valu:
                return "VALU dependency"
            wave.operands_at = needed
    if step.trans_cycles and trans_free > cycle:
        return "transcendental unit busy"
    if step.mfma_passes and matrix_free > cycle:
        return "MFMA pipe busy"
    if step.category == "valu" and not step.mfma_passes and valu_free > cycle:
        return "VALU busy"  # a multi-cycle op (quarter rate, transcendental, f64) of another wave
    if step.dram_cycles and pipe_free["dram"] - cycle > DRAM_BACKLOG * step.dram_cycles:
        return "DRAM bandwidth"  # the CU's share of the device's DRAM bandwidth has enough earlier misses queued
    if step.category in ("vmem", "lds") and pipe_free[step.category] > cycle:
        return f"{'VMEM' if step.category == 'vmem' else 'LDS'} pipe busy"
    if step.category != "free" and step.category in issued:
        return "busy"  # the SIMD already issued this kind this turn (to an older wave)
    return None


def _delay_time(wave: _Wave, waits: list[tuple[str, int]]) -> int:
    """The cycle an instruction named by s_delay_alu may issue from: when the n-th VALU (transcendental) back wrote
    its result, or n cycles after the last SALU."""
    until = 0
    for kind, count in waits:
        if kind == "SALU":
            until = max(until, wave.salu_at + count)
        else:
            history = wave.trans_done if kind == "TRANS" else wave.valu_done
            if len(history) >= count:
                until = max(until, history[-count])
    return until


def _issue(wave: _Wave, step: Step, cycle: int, busy: defaultdict[str, float], matrix_free, pipe_free, issued, mfma_cycles: int,
           interval: int, start: int | None = None) -> None:
    """Issue `step` at `cycle`; it executes from `start` (later when a gfx11+ VALU holds for its operands)."""
    if step.waits is not None:
        return
    start = cycle if start is None else start
    wave.delay_until = 0
    for offset, kind, count in step.delays:
        wave.delays.setdefault(wave.position + offset, []).append((kind, count))
    if step.priority is not None:
        wave.priority = step.priority
    if step.category != "free":
        issued.add(step.category)
    if step.mfma_passes:
        finish = cycle + step.mfma_passes * mfma_cycles
        matrix_free[wave.simd] = finish
        busy["mfma"] += step.mfma_passes * mfma_cycles
        wave.results.append((finish, step.writes))
        wave.ready = cycle + interval
        wave.busy_with = "busy"
        return
    if step.category in ("vmem", "lds"):
        pipe_free[step.category] = max(pipe_free[step.category], cycle) + step.pipe_cycles
        busy[step.category] += step.pipe_cycles
        if step.dram_cycles:
            pipe_free["dram"] = max(pipe_free["dram"], cycle) + step.dram_cycles
            busy["dram"] += step.dram_cycles
    elif step.category in ("valu", "export"):
        busy[step.category] += step.cost
        if step.result_latency:
            written = start + max(step.result_latency, step.cost)
            wave.pending.append((written, step.writes))
            wave.pending_until = max(wave.pending_until, written)
            history = wave.trans_done if step.trans else wave.valu_done
            history.append(written)
            if len(history) > 4:
                del history[0]
    elif step.category == "scalar":
        busy[step.unit] += min(step.cost, interval)  # a branch's latency is the wave's, not the SIMD's
        if step.unit == "salu":
            wave.salu_at = cycle
    arrives = cycle + step.latency
    if step.dram_cycles:  # its data is back once the queued misses before it and its own have been moved
        arrives = max(arrives, math.ceil(pipe_free["dram"]))
    for counter in step.counters:
        queue = wave.events.setdefault(counter, deque())
        done = max(arrives, queue[-1] if queue else 0)  # in-order return per counter
        queue.append(done)
    wave.ready = start + step.cost
    wave.busy_with = "s_nop" if step.nop else "busy"


def _release_barrier(group: list[_Wave]) -> bool:
    """Release a work-group's waves at its barrier when every running wave of it has reached it (True if it
    did)."""
    if any(w.done_at is None and not w.at_barrier for w in group):
        return False
    released = False
    for wave in group:
        if wave.done_at is None:
            wave.at_barrier = False
            wave.released = released = True
    return released


def _next_change(crew, after: int, matrix_free: list[int], valu_free: list[int],
                 pipes_free: list[dict[str, float]], trans_free: list[int]) -> int:
    """The first cycle after `after` at which a time the simulation compares against passes: a wave
    becomes ready, an event completes, an MFMA result or a pipe frees (MAX_CYCLES if none is due)."""
    times = [*matrix_free, *valu_free, *trans_free, *(free for pipe in pipes_free for free in pipe.values())]
    for wave in crew:
        if wave.done_at is None:
            times.append(wave.ready)
            times.append(wave.delay_until)
            times.extend(written for written, _ in wave.pending if written > after)
            for queue in wave.events.values():  # in completion order: the first one after `after`
                times.append(next((done for done in queue if done > after), 0))
            times.append(next((ready for ready, _ in wave.results if ready > after), 0))
    return math.ceil(min((time for time in times if time > after), default=MAX_CYCLES))  # the DRAM share's is fractional


def _turns_of(simd: int, start: int, stop: int, interval: int) -> int:
    """How many cycles in [start, stop) are `simd`'s turn (cycle % interval == simd % interval)."""
    phase = simd % interval
    return (stop - 1 - phase) // interval - (start - 1 - phase) // interval


def hot_lines(kernel: Kernel, result: Simulation, limit: int = 5) -> list[tuple[int, int, str, float]]:
    """(line, instruction index, main reason, share of all stall cycles) of the most stalled lines."""
    total = max(1, sum(result.stalls.values()))
    ranked = sorted(result.per_line.items(), key=lambda item: -sum(item[1].values()))[:limit]
    return [(kernel.instructions[index].where.line, index, max(reasons, key=reasons.__getitem__),
             sum(reasons.values()) / total) for index, reasons in ranked]


def line_stalls(kernel: Kernel, result: Simulation) -> list[dict]:
    """Stall wave-cycles per source line (the instructions a line expands to added up), by reason, most stalled first;
    one row per line and call sites: `expanded_from` names where the line was expanded (the outermost macro call,
    `.rept` or `.include` in each file), empty for a line that is not."""
    by_line: dict[tuple, Tally] = {}
    for index, reasons in result.per_line.items():
        where = kernel.instructions[index].where
        sites = tuple(sorted(site for site in where.per_file().items() if site != (where.path, where.line)))
        by_line.setdefault((where.path, where.line, sites), Tally()).update(reasons)
    rows = [{"path": path, "line": line, "cycles": sum(reasons.values()), "reasons": dict(reasons.most_common()),
             "expanded_from": [{"path": site_path, "line": site_line} for site_path, site_line in sites]}
            for (path, line, sites), reasons in by_line.items()]
    return sorted(rows, key=lambda row: (-row["cycles"], row["path"], row["line"]))


def bottleneck(result: Simulation) -> str:
    """One sentence naming what bounds the kernel."""
    unit, share = max(result.utilization.items(), key=lambda item: item[1])
    waiting = {reason: cycles for reason, cycles in result.stalls.items() if reason.startswith("waiting on")}
    wave_cycles = max(1, result.clocks_per_wave * result.waves)
    memory = sum(waiting.values()) / wave_cycles
    if share >= 0.6:
        head = f"{unit}-bound: {unit} busy {share:.0%}"
    elif memory >= 0.3:
        head = f"latency-bound: waves spend {memory:.0%} of their time waiting for memory"
    else:
        head = f"no unit saturated (busiest: {unit} {share:.0%})"
    vm = sum(c for r, c in waiting.items() if r in ("waiting on vmcnt", "waiting on loadcnt")) / wave_cycles
    tail = "VMEM latency hidden" if vm < 0.05 else f"VMEM latency exposed ({vm:.0%} of wave time)"
    return f"{head}; {tail}"
