"""Register liveness: which registers hold a value some later instruction reads."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..model.ir import Kernel
from .cfg import CFGAnalysis
from .defuse import DefUseAnalysis
from .manager import Analysis, AnalysisManager

_TRACKED = ("v", "a", "s")  # the register files whose pressure is reported (not VCC, EXEC, M0, ...)


@dataclass(slots=True)
class Liveness:
    """Registers live into each instruction."""

    live_vgprs: list[int]  # per instruction: architectural VGPRs live into it
    live_agprs: list[int]  # per instruction: AGPRs (accumulation registers) live into it
    live_sgprs: list[int]  # per instruction: numbered SGPRs live into it

    def peak(self, file: str) -> tuple[int, int] | None:
        """(most registers of `file` ("v", "a" or "s") live at once, the first instruction where they are);
        None for a kernel without instructions."""
        counts = {"v": self.live_vgprs, "a": self.live_agprs, "s": self.live_sgprs}[file]
        if not counts:
            return None
        most = max(counts)
        return most, counts.index(most)


class LivenessAnalysis(Analysis):
    """Backward may-analysis over the CFG (union at splits, fixed point over loops)."""

    name = "liveness"

    @classmethod
    def run(cls, kernel: Kernel, manager: AnalysisManager) -> Liveness | None:
        def_use = manager.get(DefUseAnalysis)
        if def_use is None:
            return None
        cfg = manager.get(CFGAnalysis)
        blocks, starts = cfg.blocks, cfg.starts
        infos = def_use.per_instruction
        live_in: list[frozenset] = [frozenset()] * len(blocks)
        changed = True
        while changed:
            changed = False
            for index in reversed(range(len(blocks))):
                live = set().union(*(live_in[s] for s in blocks[index].successors)) if blocks[index].successors else set()
                for offset in reversed(range(len(blocks[index].instructions))):
                    info = infos[starts[index] + offset]
                    live -= info.defs - info.preserved
                    live |= {unit for unit in info.uses if unit[0] in _TRACKED}
                frozen = frozenset(live)
                if frozen != live_in[index]:
                    live_in[index], changed = frozen, True
        vgprs, agprs, sgprs = [0] * len(infos), [0] * len(infos), [0] * len(infos)
        for index, block in enumerate(blocks):
            live = set().union(*(live_in[s] for s in block.successors)) if block.successors else set()
            for offset in reversed(range(len(block.instructions))):
                position = starts[index] + offset
                info = infos[position]
                live -= info.defs - info.preserved
                live |= {unit for unit in info.uses if unit[0] in _TRACKED}
                per_file = Counter(unit[0] for unit in live)
                vgprs[position], agprs[position], sgprs[position] = per_file["v"], per_file["a"], per_file["s"]
        return Liveness(vgprs, agprs, sgprs)
