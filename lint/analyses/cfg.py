"""Control-flow graph: basic blocks split at labels and branches, with successor edges."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import chain, repeat

from ..isa.classes import RETURNS
from ..isa.sizes import instruction_size
from ..model.ir import BasicBlock, Instruction, Kernel
from ..model.nodes import Num, Sym, UnOp
from .manager import Analysis, AnalysisManager

#: Instructions that end the program or leave the function with no static successor.
EXITS = frozenset(("s_endpgm", "s_endpgm_saved", "s_endpgm_ordered_ps_done")) | RETURNS


def is_unconditional_branch(mnemonic: str) -> bool:
    return mnemonic == "s_branch"


def is_conditional_branch(mnemonic: str) -> bool:
    return mnemonic.startswith("s_cbranch_") and mnemonic not in ("s_cbranch_join", "s_cbranch_g_fork", "s_cbranch_i_fork")


@lru_cache(maxsize=4096)
def is_branch(mnemonic: str) -> bool:
    return is_unconditional_branch(mnemonic) or is_conditional_branch(mnemonic)


@lru_cache(maxsize=4096)
def _ends_block(mnemonic: str) -> bool:
    return is_branch(mnemonic) or mnemonic in EXITS


def branch_label(instruction: Instruction) -> str | None:
    target = instruction.branch_target
    return target.name if isinstance(target, Sym) else None


@dataclass(slots=True, repr=False, eq=False, init=False)
class ControlFlowGraph:
    """Basic blocks and their edges."""

    blocks: list[BasicBlock]
    block_of_label: dict[str, int]
    starts: list[int]  # index of each block's first instruction in the kernel
    block_of: list[int]  # block of each instruction

    def __init__(self, blocks: list[BasicBlock], block_of_label: dict[str, int], starts: list[int],
                 block_of: list[int]) -> None:
        self.blocks = blocks
        self.block_of_label = block_of_label
        self.starts = starts
        self.block_of = block_of

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
        ends = [index for index, instruction in enumerate(instructions) if _ends_block(instruction.mnemonic)]
        numeric_targets = _numeric_branch_targets(kernel, manager, ends)
        leaders = {0} if instructions else set()
        leaders.update(index for index in kernel.labels.values() if index < len(instructions))
        leaders.update(numeric_targets.values())
        leaders.update(index + 1 for index in ends if index + 1 < len(instructions))
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
                    last_index = starts[block.index] + len(block.instructions) - 1
                    if target is None and last_index in numeric_targets:
                        target = block_at[numeric_targets[last_index]]
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
        block_of = list(chain.from_iterable(repeat(block.index, len(block.instructions)) for block in blocks))
        return ControlFlowGraph(blocks, block_of_label, starts, block_of)


def _numeric_branch_targets(kernel: Kernel, manager: AnalysisManager, ends: list[int]) -> dict[int, int]:
    """Branches written as a signed dword offset from the next instruction (`s_branch 61`, as in
    SP3-translated kernels): branch index -> target index, where every size on the way is known
    and the offset lands on an instruction. Others stay unresolved (and the CFG conservative).
    `ends` are the instructions that end a block (branches among them)."""
    instructions = kernel.instructions
    branches: dict[int, int] = {}  # branch index -> its dword offset
    for index in ends:
        operands = instructions[index].operands
        if is_branch(instructions[index].mnemonic) and operands and (offset := _offset(operands[0])) is not None:
            branches[index] = offset
    if not branches or manager.module.target is None:
        return {}
    from .defuse import EncodedDefUseAnalysis

    facts = manager.get(EncodedDefUseAnalysis)
    target = manager.module.target
    assert facts is not None  # (it is None without a target only)
    offsets: list[int | None] = [0]
    for instruction, info in zip(kernel.instructions, facts.per_instruction, strict=True):
        size = instruction_size(instruction.mnemonic, instruction.operands, instruction.modifiers, info.variant, target,
                                instruction.pair.operands if instruction.pair else None)
        offsets.append(None if size is None or offsets[-1] is None else offsets[-1] + size)
    index_at = {offset: index for index, offset in enumerate(offsets[:-1]) if offset is not None}
    resolved = {}
    for index, offset in branches.items():
        after = offsets[index + 1]
        destination = index_at.get(after + 4 * offset) if after is not None else None
        if destination is not None and all(offsets[i] is not None for i in range(min(index, destination), max(index, destination) + 1)):
            resolved[index] = destination
    return resolved


def _offset(node) -> int | None:
    if isinstance(node, Num) and isinstance(node.value, int):
        return node.value
    if isinstance(node, UnOp) and node.op == "-" and isinstance(node.operand, Num) and isinstance(node.operand.value, int):
        return -node.operand.value
    return None
