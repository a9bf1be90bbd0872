"""Registers that may have been written on some path from the kernel entry.

At entry, a kernel has its ABI inputs (llvm AMDGPUUsage, "initial kernel execution state"):
user SGPRs, then the enabled system SGPRs (work-group IDs, work-group info, private segment
wave offset), the work-item ID VGPRs (v0..v2, or all packed in v0 on gfx90a/gfx94x/gfx11+),
EXEC, the trap temporaries, and flat_scratch where it is architected. A call may write
anything. A read of a register outside this set on every path is a read of garbage.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..ir import Kernel
from ..isa.defuse import Unit
from ..targets import Target
from .cfg import CFGAnalysis
from .defuse import DefUseAnalysis
from .manager import Analysis, AnalysisManager

_SYSTEM_SGPRS = ("system_sgpr_workgroup_id_x", "system_sgpr_workgroup_id_y", "system_sgpr_workgroup_id_z",
                 "system_sgpr_workgroup_info")
_ALWAYS_DEFINED_FILES = frozenset(("exec", "ttmp", "tba", "tma"))


def packs_workitem_ids(target: Target) -> bool:
    return target.has_gfx90a_insts or target.major >= 11


def abi_inputs(kernel: Kernel, target: Target) -> set[Unit] | None:
    """Registers set up before the first instruction; None when the kernel's setup is unknown."""
    descriptor = kernel.descriptor
    if not descriptor or descriptor.get("user_sgpr_count") is None:
        return None
    count = descriptor["user_sgpr_count"] + sum(1 for key in _SYSTEM_SGPRS if descriptor.get(key))
    if descriptor.get("system_sgpr_private_segment_wavefront_offset") or descriptor.get("enable_private_segment"):
        count += 1
    inputs: set[Unit] = {("s", index) for index in range(count)}
    workitem_dims = (descriptor.get("system_vgpr_workitem_id") or 0) + 1
    inputs |= {("v", 0)} if packs_workitem_ids(target) else {("v", index) for index in range(workitem_dims)}
    if target.architected_flat_scratch:
        inputs |= {("flat_scratch", 0), ("flat_scratch", 1)}
    return inputs


@dataclass
class Uninitialized:
    """For each instruction index, the registers it reads that no path has written."""

    reads: dict[int, frozenset[Unit]]


class InitializedAnalysis(Analysis):
    """Forward may-analysis: union at joins, fixed point over loops; None if it cannot apply."""

    name = "initialized"

    @classmethod
    def run(cls, kernel: Kernel, manager: AnalysisManager) -> Uninitialized | None:
        target = manager.module.target
        def_use = manager.get(DefUseAnalysis)
        if target is None or def_use is None or not kernel.is_kernel:
            return None
        entry = abi_inputs(kernel, target)
        if entry is None:
            return None
        cfg = manager.get(CFGAnalysis)
        starts = cfg.starts
        EVERYTHING = None  # after a call, any register may have been written
        incoming: list[set[Unit] | None] = [set() for _ in cfg.blocks]
        if cfg.blocks:
            incoming[0] = set(entry)
        outgoing: list[set[Unit] | None | bool] = [False] * len(cfg.blocks)
        worklist = list(range(len(cfg.blocks)))
        while worklist:
            index = worklist.pop(0)
            state = incoming[index]
            written = None if state is EVERYTHING else set(state)
            for offset in range(len(cfg.blocks[index].instructions)):
                info = def_use.per_instruction[starts[index] + offset]
                if info.klass.unit == "call":
                    written = EVERYTHING
                elif written is not EVERYTHING:
                    written |= info.defs
            if outgoing[index] is not False and outgoing[index] == written:
                continue
            outgoing[index] = written
            for successor in cfg.blocks[index].successors:
                current = incoming[successor]
                merged = EVERYTHING if (written is EVERYTHING or current is EVERYTHING) else current | written
                if merged != current or outgoing[successor] is False:
                    incoming[successor] = merged
                    if successor not in worklist:
                        worklist.append(successor)
        reads: dict[int, frozenset[Unit]] = {}
        for index, block in enumerate(cfg.blocks):
            state = incoming[index]
            if state is EVERYTHING or outgoing[index] is False and index != 0:
                continue  # unreachable blocks and code after calls are not judged
            written = set(state)
            for offset in range(len(block.instructions)):
                info = def_use.per_instruction[starts[index] + offset]
                if info.klass.unit == "call":
                    break
                missing = frozenset(unit for unit in info.uses if unit not in written and unit[0] not in _ALWAYS_DEFINED_FILES)
                if missing:
                    reads[starts[index] + offset] = missing
                written |= info.defs
        return Uninitialized(reads)
