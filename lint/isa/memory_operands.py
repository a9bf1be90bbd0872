"""What llvm-mc 22 refuses in a memory instruction's modifiers and fields, per processor.

tables/memory.jsonl (written by scripts/gen_memory_operands.py, which probes llvm-mc 22 on every processor with
an instance of each MUBUF, MTBUF, MIMG, SMEM, FLAT/global/scratch and DS mnemonic it has) holds per mnemonic and
processor: the modifiers refused alone, twice, or after another (`tfe` then `lds`), in every operand shape they
could ask for; the range of `offset:` (and of the SMEM offset operand, `offset0:`/`offset1:`) with llvm-mc's
message past each end; the kinds of constant a buffer soffset refuses; an image's data width for each dmask size,
`tfe` and `d16`, its address widths for each `dim:` and `a16`, and whether `dim:` is required. The header holds
per processor the MTBUF format facts: the `format:`/`dfmt:`/`nfmt:` ranges and the format names (as llvm-mc
prints them) it takes alone and in pairs.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from ..model.nodes import ListExpr, Node, Num, Reg, Sym, signed_number
from ..model.targets import Target
from . import InstructionSet
from .probe_table import ProbeTable

_TABLE = Path(__file__).parent / "tables" / "memory.jsonl"
_INV_2PI = 0.15915494309189535
_INLINE_FLOATS = frozenset((0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0))
#: modifiers whose checks are the MTBUF format facts
_FORMAT_FIELDS = frozenset(("format", "dfmt", "nfmt"))
_DIM_PREFIX = "SQ_RSRC_IMG_"
#: facts written as they are (the others name an entry of the header's `parts`)
_RAW = frozenset(("n", "dim"))


class MemoryFacts(ProbeTable):
    """The table, with each mnemonic's line decoded when first looked up."""

    def __init__(self, text: str):
        super().__init__(text)
        self._processor_of: list[int] = self.facts["configurations"]
        self._parts: list = self.facts["parts"]
        sets: list[dict] = self.facts["format_sets"]
        self._formats: dict[int, dict] = {int(index): sets[value] for index, value in self.facts["formats"].items()}
        self._rows: dict[str, dict[int, dict]] = {}

    def _row(self, mnemonic: str) -> dict[int, dict]:
        row = self._rows.get(mnemonic)
        if row is None:
            line = self._lines.get(mnemonic)
            row = {}
            if line is not None:
                for coded, members in json.loads(line)[1]:
                    facts = {key: value if key in _RAW else self._parts[value] for key, value in coded.items()}
                    row.update(dict.fromkeys(members, facts))
            self._rows[mnemonic] = row
        return row

    def refusal(self, mnemonic: str, operands: tuple[Node, ...], modifiers: tuple[tuple[str, Node | None], ...],
                columns: tuple[int, ...]) -> str | None:
        """llvm-mc's message for what every one of the configurations refuses in the instruction, or None."""
        if mnemonic not in self._lines or not columns:
            return None
        row = self._row(mnemonic)
        found: set[str] = set()
        for processor in {self._processor_of[column] for column in columns if column < len(self._processor_of)}:
            facts = row.get(processor)
            if facts is None:
                return None
            message = self._refusal_on(mnemonic, facts, self._formats.get(processor, {}), operands, modifiers)
            if message is None:
                return None
            found.add(message)
        return min(found) if found else None

    def _message(self, code: int) -> str | None:
        return self._messages[code] if code >= 0 else None

    def _refusal_on(self, mnemonic: str, facts: dict, formats: dict, operands: tuple[Node, ...],
                    modifiers: tuple[tuple[str, Node | None], ...]) -> str | None:
        names = [name for name, _ in modifiers]
        values = dict(modifiers)
        for name in names:
            code = facts.get("refused", {}).get(name)
            if code is not None and name not in _FORMAT_FIELDS:
                return self._messages[code]
        twice = facts.get("twice", {})
        pairs = facts.get("pairs", {})
        for index, name in enumerate(names):
            if name in names[index + 1 :] and name in twice:
                return self._messages[twice[name]]
            for later in names[index + 1 :]:
                code = pairs.get(f"{name} {later}")
                if code is not None:
                    return self._messages[code]
        ranges = facts.get("ranges", {})
        for name in ("offset", "offset0", "offset1"):
            if name in values and name in ranges:
                message = self._out_of_range(ranges[name], values[name])
                if message is not None:
                    return message
        count = facts.get("n")
        if count is not None and len(operands) == count and count:
            if "imm" in ranges:
                message = self._out_of_range(ranges["imm"], operands[-1])
                if message is not None:
                    return message
            constants = facts.get("soffset")
            if constants:
                kind = _constant_kind(operands[-1])
                if kind in constants:
                    return self._messages[constants[kind]]
        if "dim" in facts and "dim" not in values:
            return self._messages[facts["dim"]]
        message = self._image_sizes(facts, operands, values)
        if message is not None:
            return message
        if formats and mnemonic.startswith("tbuffer_"):
            return self._format_refusal(formats, names, values)
        return None

    def _out_of_range(self, bounds: list[int], node: Node | None) -> str | None:
        value = _integer(node)
        if value is None:
            return None
        low, high, above, below = bounds
        if value > high:
            return self._message(above)
        if value < low:
            return self._message(below)
        return None

    def _image_sizes(self, facts: dict, operands: tuple[Node, ...], values: dict[str, Node | None]) -> str | None:
        """The data width against dmask, tfe and d16; the address width against dim and a16."""
        if "data" in facts and operands and isinstance(operands[0], Reg) and "lwe" not in values:
            widths, code = facts["data"]
            mask = _integer(values["dmask"]) if "dmask" in values else 1
            if mask is not None and 0 < mask & 0xF:
                bits = (mask & 0xF).bit_count()
                expected = widths[(bits - 1) * 4 + 2 * int("tfe" in values) + int("d16" in values)]
                if expected.isdigit() and operands[0].count != int(expected):
                    return self._messages[code]
        if "address" in facts and len(operands) > 1 and isinstance(operands[1], Reg) and "dim" in values:
            masks, code = facts["address"]
            dim = values["dim"]
            name = dim.name if isinstance(dim, Sym) else None
            name = name[len(_DIM_PREFIX):] if name and name.startswith(_DIM_PREFIX) else name
            if name in masks and not masks[name][int("a16" in values)] >> operands[1].count & 1:
                return self._messages[code]
        return None

    def _format_refusal(self, formats: dict, names: list[str], values: dict[str, Node | None]) -> str | None:
        """MTBUF: `format:`, `dfmt:` and `nfmt:` values and format names."""
        for field in ("dfmt", "nfmt", "format"):
            if names.count(field) > 1 and f"twice_{field}" in formats:
                return self._messages[formats[f"twice_{field}"]]
            if field in values and field in formats:
                message = self._out_of_range(formats[field], values[field])
                if message is not None:
                    return message
        if "format" in values and "dfmt" in values and formats.get("both", -1) >= 0:
            return self._messages[formats["both"]]
        written = values.get("format")
        if not isinstance(written, ListExpr):
            return None
        items = written.items
        if not items:
            return self._message(formats.get("empty", -1))
        if len(items) > 2:
            return self._message(formats.get("triple", -1))
        if not all(isinstance(item, Sym) for item in items):
            return None
        spelled = [item.name for item in items if isinstance(item, Sym)]
        if len(spelled) == 1:
            return self._message(formats.get("names", {}).get(spelled[0], -1))
        pairs: dict[str, int] = formats.get("pairs", {})
        code = pairs.get(",".join(spelled))
        if code is None and any(name in formats.get("names", {}) for name in spelled):
            code = _same_kind(pairs, spelled)
        return self._message(code) if code is not None else None


def _same_kind(pairs: dict[str, int], spelled: list[str]) -> int | None:
    """The answer to two data formats (or two numeric formats) in one `format:[...]`: the probes' pairs of that
    kind, where they agree."""
    prefix = next((prefix for prefix in ("BUF_DATA_FORMAT_", "BUF_NUM_FORMAT_")
                   if all(name.startswith(prefix) for name in spelled)), None)
    if prefix is None:
        return None
    codes = {code for key, code in pairs.items() if all(name.startswith(prefix) for name in key.split(","))}
    return codes.pop() if len(codes) == 1 else None


def _integer(node: Node | None) -> int | None:
    """A written integer as llvm-mc reads it (64-bit two's complement), or None for anything else."""
    node = signed_number(node) if node is not None else None
    if not isinstance(node, Num) or isinstance(node.value, (float, bool)):
        return None
    value = node.value
    if 1 << 63 <= value < 1 << 64:
        value -= 1 << 64
    return value if -(1 << 63) <= value < 1 << 63 else None


def _constant_kind(node: Node) -> str | None:
    """The probe class of a constant soffset (`int`, `negative`, `literal`, `float`, `inv2pi`, `float_literal`)."""
    node = signed_number(node)
    if not isinstance(node, Num):
        return None
    value = node.value
    if isinstance(value, float):
        if value in _INLINE_FLOATS:
            return "float"
        if abs(value - _INV_2PI) < 1e-7:
            return "inv2pi"
        return "float_literal" if value != 0.0 else None
    if 0 <= value <= 64:
        return "int"
    if -16 <= value < 0:
        return "negative"
    return "literal" if 64 < value < 1 << 31 or -(1 << 31) <= value < -16 else None


@cache
def memory_facts() -> MemoryFacts | None:
    return MemoryFacts(_TABLE.read_text()) if _TABLE.exists() else None


def memory_refusal(instruction, columns: tuple[int, ...]) -> str | None:
    """llvm-mc 22's message for what it refuses in a memory instruction's modifiers and fields on every one of the
    configurations (MUBUF, MTBUF, MIMG, SMEM, FLAT/global/scratch, DS), or None."""
    facts = memory_facts()
    if facts is None or instruction.pair is not None:
        return None
    return facts.refusal(instruction.mnemonic, instruction.operands, instruction.modifiers, columns)


def atomic_return_refusal(instruction, target: Target, instructions: InstructionSet) -> str | None:
    """llvm-mc 22's message for a FLAT or global atomic whose cache-policy bit contradicts its operands: written
    with the returned value's register but without the bit that asks for it (`glc`; `sc0` on gfx940-950;
    `th:TH_ATOMIC_RETURN` or another RETURN policy from gfx12), or without it but with the bit (before gfx12)."""
    mnemonic = instruction.mnemonic
    if not mnemonic.startswith(("flat_atomic_", "global_atomic_")) or instruction.pair is not None:
        return None
    if mnemonic.startswith("flat_") and not target.isa_exact:
        return None  # gfx1250's FLAT takes an saddr, which the gfx12 table it is read with does not show
    variants = instructions.variants(mnemonic)
    if not variants:
        return None
    specs = variants[0].operands
    returns_into = bool(specs) and specs[0].is_def and specs[0].name == "vdst"
    count = len(instruction.operands)
    if count == len(specs) - returns_into:
        returning = False
    elif returns_into and count == len(specs):
        returning = True
    else:
        return None  # another form than the table's (a symbol or a missing operand): not judged
    written = dict(instruction.modifiers)
    if target.major >= 12:
        policy = written.get("th")
        if returning and (policy is None or (isinstance(policy, Sym) and "RETURN" not in policy.name.upper())):
            return "instruction must use th:TH_ATOMIC_RETURN"
        return None
    bit = "sc0" if target.is_gfx94_plus else "glc"
    if returning and bit not in written:
        return f"instruction must use {bit}"
    if not returning and bit in written:
        return f"instruction must not use {bit}"
    return None
