"""Where llvm-mc 22 wants an instruction's implicit registers written.

tables/implicit_operands.jsonl (written by scripts/gen_implicit_operands.py) holds, per mnemonic, the configurations
of tables/mnemonics.jsonl on which llvm-mc refuses an instance of its syntax row written without the registers the
row names whatever is written (gfx8's `v_add_u32 v0, v1, v2` without its carry `vcc`, gfx6-9's `v_addc_u32`,
`v_div_scale_f32`, gfx8's VOPC SDWA forms), with llvm-mc's message.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from . import InstructionSet, Variant
from .probe_table import ProbeTable

_TABLE = Path(__file__).parent / "tables" / "implicit_operands.jsonl"


def implicit_variant(variants: tuple[Variant, ...]) -> Variant | None:
    """The first syntax row with an implicit register and no optional operand (whose instance without the implicit
    registers leaves out nothing else): the row scripts/gen_implicit_operands.py probes, or None."""
    return next((variant for variant in variants if any(spec.implicit_register for spec in variant.operands)
                 and not any(spec.optional for spec in variant.operands)), None)


class ImplicitOperands(ProbeTable):
    """The table, with each mnemonic's line decoded when first looked up."""

    def __init__(self, text: str):
        super().__init__(text)
        self._rows: dict[str, dict[int, str]] = {}

    def _row(self, mnemonic: str) -> dict[int, str]:
        row = self._rows.get(mnemonic)
        if row is None:
            line = self._lines.get(mnemonic)
            row = {}
            if line is not None:
                for code, members in json.loads(line)[1]:
                    row.update(dict.fromkeys(members, self._messages[code]))
            self._rows[mnemonic] = row
        return row

    def refusal(self, instruction, columns: tuple[int, ...], instructions: InstructionSet) -> str | None:
        """llvm-mc's message where the instruction is written without its implicit registers and every one of the
        configurations wants them, or None."""
        mnemonic = instruction.mnemonic
        if mnemonic not in self._lines or not columns or instruction.pair is not None:
            return None
        variant = implicit_variant(instructions.variants(mnemonic))
        if variant is None:
            return None
        required = sum(spec.implicit_register is None for spec in variant.operands)
        if len(instruction.operands) != required:
            return None
        row = self._row(mnemonic)
        found = {row.get(column) for column in columns}
        if None in found:
            return None
        return min(message for message in found if message is not None)


@cache
def implicit_operands() -> ImplicitOperands:
    return ImplicitOperands(_TABLE.read_text())
