"""gfx1250's VGPR banks: `s_set_vgpr_msb` and the registers an instruction really names.

gfx1250 has 1024 VGPRs, but an instruction encodes 8 bits of a VGPR's number. `s_set_vgpr_msb N` sets
the two high bits for each operand slot of the instructions after it (until the next one): bits 1:0 for
src0, 3:2 for src1, 5:4 for src2 and 7:6 for the destination (the high byte of N, LLVM's record of the
mode before, changes nothing). So under `s_set_vgpr_msb 0x41`, `v_mov_b32 v5, v6` writes v261 from v262,
as llvm-objdump-22 prints it (`v5 /*v261*/`). Which operand is which slot, probed with llvm-mc-22 and
llvm-objdump-22 on every gfx1250 instruction of LLVM's MC tests (tests/test_vgpr_banks.py): a written
VGPR is the destination; a memory instruction's address (vaddr, addr) is src0, its data (vdata, vsrc,
data0) src1 and data1 src2; any other source is the slot of its place among the sources (a VOPD half's
as well; the fourth and later ones, as a scaled WMMA's scales, have none and stay in v0-v255).
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from ..model.ir import Instruction
from ..model.nodes import Abs, Call, ListExpr, Node, Num, Reg, UnOp
from ..model.targets import Target
from .defuse import operand_specs

MNEMONIC = "s_set_vgpr_msb"
_DST = 3  # the destination's slot: bits 7:6
_ADDRESS = frozenset(("vaddr", "addr"))
_DATA = frozenset(("vdata", "vsrc", "data0", "data"))
_SECOND_DATA = frozenset(("data1",))
_UNBANKED = ("v_wmma_ld_scale",)  # its two scale operands, as a scaled WMMA's, are never renamed


def set_mode(instruction: Instruction) -> int | None:
    """The mode an `s_set_vgpr_msb` sets (its low byte); None for an operand that is not a number."""
    operands = instruction.operands
    if len(operands) == 1 and isinstance(operands[0], Num) and isinstance(operands[0].value, int):
        return operands[0].value & 0xFF
    return None


def in_bank(instruction: Instruction, mode: int, target: Target) -> Instruction:
    """`instruction` with each VGPR operand renamed to the register it names under `mode` (itself if none
    changes)."""
    if not mode or instruction.mnemonic.startswith(_UNBANKED):
        return instruction
    operands = _renamed(instruction, mode, target)
    pair = instruction.pair
    if pair is not None:
        pair = in_bank(pair, mode, target)
    if operands is instruction.operands and pair is instruction.pair:
        return instruction
    return replace(instruction, operands=operands, pair=pair)


def _renamed(instruction: Instruction, mode: int, target: Target) -> tuple[Node, ...]:
    operands = instruction.operands
    slots = _slots(instruction.mnemonic, len(operands), frozenset(name for name, _ in instruction.modifiers), target)
    renamed = list(operands)
    for index, slot in enumerate(slots):
        high = (mode >> (2 * slot)) & 3 if slot is not None else 0
        if high:
            renamed[index] = _shifted(operands[index], high * 256)
    return operands if renamed == list(operands) else tuple(renamed)


@lru_cache(maxsize=4096)
def _slots(mnemonic: str, count: int, modifiers: frozenset[str], target: Target) -> tuple[int | None, ...]:
    """The slot (0-2 a source, 3 the destination, None none) of each operand: by the table operand it stands for
    (the variant depends only on the operand count and modifier names), else the written order."""
    specs = operand_specs(mnemonic, count, modifiers, target)
    slots: list[int | None] = []
    source = 0
    for index, spec in enumerate(specs):
        if spec is None:  # no variant fits: the written order (destination first)
            slots.append(_DST if index == 0 else index - 1 if index <= 3 else None)
            continue
        if spec.is_def:
            slots.append(_DST)
            continue
        if spec.name in _ADDRESS:
            slots.append(0)
        elif spec.name in _DATA:
            slots.append(1)
        elif spec.name in _SECOND_DATA:
            slots.append(2)
        else:
            slots.append(source if source <= 2 else None)
        source += 1
    return tuple(slots)


def _shifted(node: Node, offset: int) -> Node:
    """The operand with its VGPRs `offset` higher (through neg/abs/sext and lists)."""
    if isinstance(node, Reg):
        return replace(node, index=node.index + offset) if node.kind == "v" else node
    if isinstance(node, Abs):
        return Abs(_shifted(node.operand, offset))
    if isinstance(node, UnOp):
        return UnOp(node.op, _shifted(node.operand, offset))
    if isinstance(node, Call):
        return Call(node.name, tuple(_shifted(arg, offset) for arg in node.args))
    if isinstance(node, ListExpr):
        return ListExpr(tuple(_shifted(item, offset) for item in node.items))
    return node
