"""Prefetch distance: for every vector-memory load, the cycles of independent work one wave
issues between the load and the first wait that must retire it.

Cycles are issue cycles from the latency table (analyses/latency.py). The walk follows every path
forward and keeps the shortest; inside a loop it stays in the loop, so a load issued for the
next iteration counts the rest of this iteration and the next one up to its wait, and a path
leaving the loop (the last iteration's prefetch) is not held against it. Counters retire in
order: a wait for `n` on the load's counter retires it once `n` or more newer events follow.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass

from ..model.frozen import frozen_dataclass
from ..model.ir import BasicBlock, Instruction, Kernel
from ..model.targets import Target
from .cfg import CFGAnalysis
from .defuse import DefUseAnalysis, InstructionFacts
from .latency import LatencyTable, issue_cycles, load_table
from .manager import Analysis, AnalysisManager
from .waitcnt import LOAD_COUNTERS, wait_facts

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

MAX_STEPS: Final = 4000  # instructions one walk may visit


@frozen_dataclass(frozen=True, slots=True, repr=False, init=False, eq=False)
class LoadDistance:
    """How far a load is from the wait that needs it."""

    load: int  # instruction index
    counter: str
    wait: int | None  # the wait that retires it on the shortest path (None: no wait within reach)
    cycles: int  # issue cycles of work between the load and that wait
    loop: int | None  # header block of the loop the load is in

    def __init__(self, load: int, counter: str, wait: int | None, cycles: int, loop: int | None) -> None:
        object.__setattr__(self, "load", load)
        object.__setattr__(self, "counter", counter)
        object.__setattr__(self, "wait", wait)
        object.__setattr__(self, "cycles", cycles)
        object.__setattr__(self, "loop", loop)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LoadDistance) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.load, self.counter, self.wait, self.cycles, self.loop) == (
            other.load, other.counter, other.wait, other.cycles, other.loop)

    def __hash__(self) -> int:
        return hash((self.load, self.counter, self.wait, self.cycles, self.loop))


@dataclass(slots=True, repr=False, eq=False, init=False)
class PrefetchReport:
    """Issue timing of one kernel: per instruction cycles, counter events and waits; per load its
    distance; per loop its instructions."""

    table: LatencyTable
    loads: list[LoadDistance]
    loops: dict[int, list[int]]  # loop header block -> instruction indices of the loop's blocks
    cycles: list[int]  # per instruction issue cycles
    events: dict[int, frozenset[str]]  # instruction -> counters it starts events on
    waits: dict[int, dict[str, int]]  # wait instruction -> counts it waits for

    def __init__(self, table: LatencyTable, loads: list[LoadDistance], loops: dict[int, list[int]], cycles: list[int],
                 events: dict[int, frozenset[str]], waits: dict[int, dict[str, int]]) -> None:
        self.table = table
        self.loads = loads
        self.loops = loops
        self.cycles = cycles
        self.events = events
        self.waits = waits

    def trip_cycles(self, header: int) -> int:
        """Issue cycles of one trip through the loop's blocks."""
        return sum(self.cycles[index] for index in self.loops[header])


def _loops(successors: list[list[int]]) -> list[frozenset[int]]:
    """Per block, the blocks of the cycle(s) through it (empty when it is in no loop)."""
    count = len(successors)
    reach = []
    for start in range(count):
        seen: set[int] = set()
        stack = list(successors[start])
        while stack:
            block = stack.pop()
            if block not in seen:
                seen.add(block)
                stack.extend(successors[block])
        reach.append(seen)
    return [frozenset(b for b in reach[block] if block in reach[b]) if block in reach[block] else frozenset()
            for block in range(count)]


class PrefetchAnalysis(Analysis):
    name = "prefetch"

    @classmethod
    def run(cls, kernel: Kernel, manager: AnalysisManager) -> PrefetchReport | None:
        module = manager.module
        target = module.target
        def_use = manager.get(DefUseAnalysis)
        if target is None or def_use is None:
            return None
        override = module.options.latency_table if module.options is not None else None
        table = load_table(target, override)
        instructions = def_use.instructions
        cycles = [shared.cycles[1] if shared.cycles is not None and shared.cycles[0] is table
                  else _issue_cycles(shared, instruction, table, target, def_use.wave_size)
                  for shared, instruction in zip(def_use.facts, instructions, strict=True)]
        cfg = manager.get(CFGAnalysis)
        blocks, starts, block_of = cfg.blocks, cfg.starts, cfg.block_of
        loops = _loops([block.successors for block in blocks])
        waits: dict[int, dict[str, int]] = {}
        events: dict[int, frozenset[str]] = {}
        vector_loads = []
        for index, info in enumerate(def_use.per_instruction):
            klass = info.klass
            if klass.counters:  # one event on each
                events[index] = klass.counters
                if klass.unit == "vmem" and klass.kind == "load" and not klass.lds_dma:
                    vector_loads.append(index)
            elif klass.unit == "wait":  # (a wait starts no event)
                counts = wait_facts(def_use.facts[index], instructions[index], target).counts
                if counts:
                    waits[index] = counts
        members = {min(loop): sorted(i for b in loop for i in range(starts[b], starts[b] + len(blocks[b].instructions)))
                   for loop in set(loops) if loop}
        loads = []
        for index in vector_loads:
            counter = next((c for c in sorted(LOAD_COUNTERS) if c in events.get(index, ())), None)
            if counter is None:
                continue
            loop = loops[block_of[index]]
            wait, distance = _walk(index, counter, loop, cycles, waits, events, blocks, starts, block_of)
            loads.append(LoadDistance(index, counter, wait, distance, min(loop) if loop else None))
        return PrefetchReport(table, loads, members, cycles, events, waits)


def _issue_cycles(shared: InstructionFacts, instruction: Instruction, table: LatencyTable, target: Target,
                  wave_size: int) -> int:
    """issue_cycles, kept on the shared facts for the table it was computed with."""
    shared.cycles = (table, issue_cycles(shared.info.klass, instruction, table, target, wave_size))
    return shared.cycles[1]


def _walk(load: int, counter: str, loop: frozenset[int], cycles: list[int], counted: dict[int, dict[str, int]],
          events: dict[int, frozenset[str]], blocks: list[BasicBlock], starts: list[int],
          block_of: list[int]) -> tuple[int | None, int]:
    """(retiring wait, cycles) on the shortest path from `load` (Dijkstra over instruction and
    number of newer events on the counter)."""
    def following(index: int) -> list[int]:
        block = block_of[index]
        if index < starts[block] + len(blocks[block].instructions) - 1:
            return [index + 1]
        return [starts[successor] for successor in blocks[block].successors if blocks[successor].instructions]

    queue: list[tuple[int, int, int]] = [(0, after, 0) for after in following(load)]  # cycles, instruction, newer
    best: dict[tuple[int, int], int] = {}
    steps = 0
    while queue and steps < MAX_STEPS:
        spent, index, newer = heapq.heappop(queue)
        steps += 1
        block = block_of[index]
        if index == starts[block] and loop and block not in loop:
            continue  # left the loop: the last trip's prefetch is not waited for here
        if best.get((index, newer), spent + 1) <= spent:
            continue
        best[(index, newer)] = spent
        waits = counted.get(index)
        if waits is not None and counter in waits and waits[counter] <= newer:
            return index, spent
        spent += cycles[index]
        newer += 1 if counter in events.get(index, ()) else 0
        for after in following(index):
            heapq.heappush(queue, (spent, after, newer))
    return None, 0
