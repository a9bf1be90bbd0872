"""The register widths and files llvm-mc 22 takes in each operand, on processors read with a neighbour's table.

gfx6 is read with gfx7's instruction-syntax page and gfx1250/gfx1251 with gfx12's, which do not always describe
their operands. tables/operand_shapes.jsonl (written by scripts/gen_operand_shapes.py) holds, per mnemonic as
written and configuration, the shapes of the instances llvm-mc's disassembler prints (operand count, each
operand a register of a file and width or not, the modifiers that change what the operands must be) and, per
register operand, which other widths and files llvm-mc took there when probed and which it refused ("invalid
operand for instruction", or "too few operands for instruction" where no form is left). An operand is refused
where every shape of the written operand count and modifiers that the other operands fit refuses its file and
width. True16 halves, symbols, expressions and registers under a modifier are not judged.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

from ..model.nodes import Abs, Node, Reg, UnOp
from .mnemonics import operand_kind
from .probe_table import ProbeTable

_TABLE = Path(__file__).parent / "tables" / "operand_shapes.jsonl"
#: modifiers that leave what the operands may be as it is (cache policy, offsets, `clamp` and the output modifier,
#: which only narrow an unsuffixed VALU instruction to its VOP3 form); any other written modifier (`offen`, `tfe`,
#: `op_sel`, DPP controls, ...) must be one the probed instance had
_FREE = frozenset(("offset", "offset0", "offset1", "glc", "slc", "dlc", "scc", "nt", "sc0", "sc1", "th", "scope", "nv",
                   "clamp", "mul", "div", "gds", "format", "dfmt", "nfmt", "swz"))
_TOKEN = re.compile(r"[vsa]\d+|[il]")
#: one operand of a shape: `o` (not a register), `h` (a true16 half), or the probe tokens: (printed, taken, refused
#: as an invalid operand, refused as too few operands)
_Slot = str | tuple[str, frozenset[str], frozenset[str], frozenset[str]]
_Shape = tuple[tuple[_Slot, ...], str]


class OperandShapes(ProbeTable):
    """The table: its header read at once, a mnemonic's line decoded when first looked up."""

    def __init__(self, text: str):
        super().__init__(text)
        self._widths: tuple[int, ...] = tuple(self.facts["widths"])
        self._covered = frozenset(self.facts["columns"])
        self._rows: dict[str, dict[int, list[_Shape]]] = {}
        self._answers: dict[tuple, str | None] = {}
        self._slots: dict[str, _Slot] = {}  # the same operand strings recur across rows

    def _row(self, mnemonic: str) -> dict[int, list[_Shape]]:
        row = self._rows.get(mnemonic)
        if row is None:
            row = {}
            line = self._lines.get(mnemonic)
            for slots, forms, members in json.loads(line)[1] if line is not None else ():
                shape = (tuple(self._slot(text) for text in slots), forms)
                for member in members:
                    row.setdefault(member, []).append(shape)
            self._rows[mnemonic] = row
        return row

    def _slot(self, text: str) -> _Slot:
        slot = self._slots.get(text)
        if slot is None:
            slot = self._slots[text] = self._decode(text)
        return slot

    def _decode(self, text: str) -> _Slot:
        if text in ("o", "h"):
            return text
        printed, taken, other, few = (*text.split("|"), "", "", "")[:4]
        width = int(printed[1:])
        widths = sorted({*self._widths, width - 1, width + 1} - {0})
        probed = {f"{kind}{count}" for kind in "vsa" for count in widths} | {"i", "l"}
        took = frozenset(_TOKEN.findall(taken)) | {printed}
        too_few = frozenset(_TOKEN.findall(few))
        return printed, took, frozenset(probed - took - too_few - set(_TOKEN.findall(other))), too_few

    def refusal(self, instruction, columns: tuple[int, ...]) -> str | None:
        """llvm-mc's message where every configuration of `columns` refuses a register operand's width or file in
        every shape the instruction's other operands fit, or None."""
        if not columns or instruction.pair is not None or not self._covered.issuperset(columns) \
                or instruction.mnemonic not in self._lines:
            return None
        written = tuple(_written(operand) for operand in instruction.operands)
        judged = tuple(slot for slot, token in enumerate(written) if token is not None and token[0] in "vsa"
                       and not isinstance(instruction.operands[slot], (Abs, UnOp)))
        key = (instruction.mnemonic, columns, written, judged,
               shaping_modifiers(name for name, _ in instruction.modifiers))
        if key not in self._answers:  # the answer depends on the operands' files and widths, not their numbers
            self._answers[key] = self._refusal(*key)
        return self._answers[key]

    def _refusal(self, mnemonic: str, columns: tuple[int, ...], written: tuple[str | None, ...],
                 judged: tuple[int, ...], forms: str) -> str | None:
        row = self._row(mnemonic)
        if any(column not in row for column in columns):
            return None
        for slot in judged:
            messages = [_refused_on(row[column], written, forms, slot) for column in columns]
            if all(messages):
                return messages[0]
        return None


def shaping_modifiers(names) -> str:
    """The modifiers of `names` that may change what the operands must be, as the table writes them."""
    return ",".join(sorted(set(names) - _FREE))


def _refused_on(shapes: list[_Shape], written: tuple[str | None, ...], forms: str, slot: int) -> str | None:
    """llvm-mc's message where every shape with a register at `slot` that the other operands fit refuses the
    written operand there (and one does), else None; a shape printed with a constant or `off` there says nothing
    of registers."""
    matching = [slot_probes for slots, shape_forms in shapes
                if shape_forms == forms and len(slots) == len(written) and isinstance(slot_probes := slots[slot], tuple)
                and all(_fits(slots[other], token) for other, token in enumerate(written) if other != slot)]
    token = written[slot]
    if not matching or not all(token in probes[2] or token in probes[3] for probes in matching):
        return None
    return "invalid operand for instruction" if token in matching[0][2] else "too few operands for instruction"


def _fits(slot: _Slot, token: str | None) -> bool:
    """Whether a written operand (its probe token, `h`, or None for what no probe wrote) is one the shape takes: a
    register one its probes took, anything but a register where the printed instance has no register."""
    if isinstance(slot, tuple):
        return token is not None and token in slot[1]
    return token == "h" if slot == "h" else token is None or token in "il"


def _written(node: Node) -> str | None:
    """A written operand's probe token: `v2` (file and dwords), `i`/`l` for an inline constant or a literal, `h` for
    a true16 half; None for anything else (special registers, symbols, expressions)."""
    if isinstance(node, (Abs, UnOp)):
        node = node.operand
    if isinstance(node, Reg):
        if node.kind not in ("v", "s", "a"):
            return None
        return "h" if node.half is not None else f"{node.kind}{node.count}"
    return {"iconst": "i", "literal": "l"}.get(operand_kind(node) or "")


@cache
def operand_shapes() -> OperandShapes:
    return OperandShapes(_TABLE.read_text())
