"""Control-flow graph: basic blocks split at labels and branches, with successor edges."""

from __future__ import annotations

from dataclasses import dataclass

from ..ir import BasicBlock, Instruction, Kernel
from ..nodes import Sym
from .manager import Analysis, AnalysisManager

#: Instructions that end the program or leave the function with no static successor.
EXITS = frozenset(("s_endpgm", "s_endpgm_saved", "s_endpgm_ordered_ps_done", "s_setpc_b64", "s_rfe_b64"))
#: Calls return to the next instruction.
CALLS = frozenset(("s_swappc_b64", "s_call_b64"))


def is_unconditional_branch(mnemonic: str) -> bool:
    return mnemonic == "s_branch"


def is_conditional_branch(mnemonic: str) -> bool:
    return mnemonic.startswith("s_cbranch_") and mnemonic not in ("s_cbranch_join", "s_cbranch_g_fork", "s_cbranch_i_fork")


def is_branch(mnemonic: str) -> bool:
    return is_unconditional_branch(mnemonic) or is_conditional_branch(mnemonic)


def branch_label(instruction: Instruction) -> str | None:
    target = instruction.branch_target
    return target.name if isinstance(target, Sym) else None


@dataclass
class ControlFlowGraph:
    blocks: list[BasicBlock]
    block_of_label: dict[str, int]
    starts: list[int]  # index of each block's first instruction in the kernel
    block_of: list[int]  # block of each instruction

    def reachable(self) -> set[int]:
        seen: set[int] = set()
        stack = [0] if self.blocks else []
        while stack:
            index = stack.pop()
            if index not in seen:
                seen.add(index)
                stack.extend(self.blocks[index].successors)
        return seen


class CFGAnalysis(Analysis):
    """Splits a kernel's instructions into basic blocks and links branch and fall-through edges."""

    name = "cfg"

    @classmethod
    def run(cls, kernel: Kernel, manager: AnalysisManager) -> ControlFlowGraph:
        instructions = kernel.instructions
        leaders = {0} if instructions else set()
        leaders.update(index for index in kernel.labels.values() if index < len(instructions))
        for index, instruction in enumerate(instructions):
            mnemonic = instruction.mnemonic
            if (is_branch(mnemonic) or mnemonic in EXITS) and index + 1 < len(instructions):
                leaders.add(index + 1)
        starts = sorted(leaders)
        labels_at: dict[int, list[str]] = {}
        for label, index in kernel.labels.items():
            labels_at.setdefault(index, []).append(label)
        blocks: list[BasicBlock] = []
        block_at: dict[int, int] = {}
        for number, start in enumerate(starts):
            end = starts[number + 1] if number + 1 < len(starts) else len(instructions)
            names = labels_at.get(start)
            blocks.append(BasicBlock(number, names[0] if names else None, instructions[start:end]))
            block_at[start] = number
        block_of_label = {label: block_at[index] for label, index in kernel.labels.items() if index in block_at}
        for block in blocks:
            last = block.terminator
            falls_through = block.index + 1 < len(blocks)
            if last is not None:
                mnemonic = last.mnemonic
                if mnemonic in EXITS:
                    falls_through = False
                elif is_branch(mnemonic):
                    target = block_of_label.get(branch_label(last) or "")
                    if target is not None:
                        block.successors.append(target)
                    # a target this kernel does not resolve (`s_branch 61`, a dword offset; a label
                    # elsewhere) may be the next block: never make the code after it unreachable
                    falls_through = falls_through and (is_conditional_branch(mnemonic) or target is None)
            if falls_through and block.index + 1 not in block.successors:
                block.successors.append(block.index + 1)
        for block in blocks:
            for successor in block.successors:
                blocks[successor].predecessors.append(block.index)
        block_of = [block.index for block in blocks for _ in block.instructions]
        return ControlFlowGraph(blocks, block_of_label, starts, block_of)
