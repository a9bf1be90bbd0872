"""What llvm-mc 22 refuses of matrix and register-tuple operands, from its own answers.

tables/matrix_operands.jsonl (written by scripts/gen_matrix_operands.py, which probes llvm-mc 22 with instances its
disassembler prints) holds, per probed configuration (a processor of each instruction set, in each wave size and
true16 mode that matters):

- `matrix`: for MFMA, SMFMAC, WMMA, SWMMAC and `v_accvgpr_*`, the combinations of VGPRs and AGPRs llvm-mc refuses
  over the register operands, the values of `cbsz`, `abid`, `blgp`, `index_key`, the bits of `neg_lo`, `neg_hi`
  and `op_sel`, `clamp`, and the kinds of source (inline constant, literal, SGPR, special register) it refuses;
- `aliases`: the names the tables give a matrix instruction that llvm-mc prints by another;
- `alignment`: the VGPR/AGPR tuples of 64 bits or more that must start on an even register (gfx90a and later CDNA,
  gfx1250);
- `agprs`: the VGPR operands, alone or in pairs, that may not be AGPRs (memory data on gfx908, ...);
- `low_vgprs`: the operands of gfx11, gfx12 and gfx1250 `_e32` and `_dpp` forms that reach only v0-v127;
- `tuple_alignments` (every processor): the first registers SGPR and trap-temporary tuples must start on
  (`s[2:3]`, `s[4:7]`).

A finding needs every configuration the kernel may run in to refuse the instruction; a configuration, instruction
or operand count the probes did not see is quiet.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from ..model.nodes import Abs, ListExpr, Node, Num, Reg, SpecialReg, UnOp, signed_number
from .mnemonics import operand_kind
from .probe_table import ProbeTable

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..model.ir import Instruction
    from . import InstructionSet

_TABLE = Path(__file__).parent / "tables" / "matrix_operands.jsonl"
#: processor (prefix) -> the processor probed for its instruction set
_PROBED = (("gfx908", "gfx908"), ("gfx90a", "gfx90a"), ("gfx942", "gfx942"), ("gfx9-4-generic", "gfx942"),
           ("gfx950", "gfx950"), ("gfx11", "gfx1100"), ("gfx120", "gfx1200"), ("gfx12-generic", "gfx1200"),
           ("gfx125", "gfx1250"))
_VALUES = ("cbsz", "abid", "blgp", "index_key")
#: llvm-mc's words for an SGPR or trap-temporary tuple on a first register it cannot start on
_MISALIGNED = "invalid register alignment"
#: a matrix instruction whose register widths are not the configuration's (another wave size's)
_MISFIT = "operand widths of another configuration"
_BITS = ("neg_lo", "neg_hi", "op_sel")


@cache
def _probed(configuration: str) -> tuple[str, str, str] | None:
    """(the probed configuration, it without its true16 mode, the probed processor) for a configuration of
    tables/mnemonics.jsonl, or None where no processor of its instruction set was probed."""
    processor, *features = configuration.split(":")
    probed = next((found for prefix, found in _PROBED if processor.startswith(prefix)), None)
    if probed is None:
        return None
    full = ":".join((probed, *features))
    return full, ":".join((probed, *(part for part in features if "true16" not in part))), probed


def _source_kind(node: Node) -> str | None:
    """The probe kind of a source: `int`, `neg`, `float` (inline constants), `literal`, `s`, a special register's
    name; None for anything else."""
    kind = operand_kind(node)
    if kind == "iconst":
        number = signed_number(node)
        if not isinstance(number, Num):
            return None
        return "float" if isinstance(number.value, float) else "neg" if number.value < 0 else "int"
    if kind == "literal":
        return "literal"
    if isinstance(node, Reg) and node.kind == "s" and node.half is None:
        return "s"
    if isinstance(node, SpecialReg):
        return node.name.removeprefix("src_")
    return None


class MatrixOperands(ProbeTable):
    """The table: a line per mnemonic, decoded when first looked up."""

    def __init__(self, text: str):
        super().__init__(text)
        self._configurations = {name: index for index, name in enumerate(self.facts["configurations"])}
        self._aliases: dict[str, dict[str, str]] = self.facts["aliases"]
        self._rows: dict[str, dict[str, list]] = {}
        self._alignments: dict[str, dict[str, dict[str, int]]] = {
            processor: multiples for multiples, processors in self.facts["tuple_alignments"] for processor in processors}

    def _facts(self, section: str, names: tuple[str | None, ...], configuration: str) -> dict | None:
        """The facts of the first of `names` the section has on the configuration, or None."""
        column = self._configurations.get(configuration)
        if column is None:
            return None
        for name in names:
            if name is None or name not in self._lines:
                continue
            row = self._rows.get(name)
            if row is None:
                row = self._rows[name] = json.loads(self._lines[name])[1]
            for facts, columns in row.get(section, ()):
                if column in columns:
                    return facts
        return None

    def refusal(self, instruction: Instruction, configurations: list[str], instructions: InstructionSet) -> str | None:
        """llvm-mc's message refusing the instruction's operands on every one of the configurations, or None.
        `instructions`: the target's, for the other spellings it accepts (`v_accvgpr_write`)."""
        if instruction.pair is not None or not configurations:
            return None
        found = set()
        printed = instructions.printed_names().get(instruction.mnemonic)
        for configuration in configurations:
            message = self._refusal_on(instruction, configuration, printed)
            if message is None:
                return None
            if message is not _MISFIT:  # the widths are another wave size's: llvm-mc refuses them here
                found.add(message)
        return min(found) if found else None

    def _refusal_on(self, instruction: Instruction, configuration: str, printed: str | None) -> str | None:
        multiples = self._alignments.get(configuration.split(":")[0])
        if multiples is not None and _misaligned(instruction.operands, multiples):
            return _MISALIGNED
        probed = _probed(configuration)
        if probed is None:
            return None
        full, any_true16, processor = probed
        mnemonic, operands = instruction.mnemonic, instruction.operands
        key = full if full in self._configurations else any_true16
        names = (mnemonic, printed, self._aliases.get(key, {}).get(mnemonic))
        matrix = self._facts("matrix", names, key)
        index = None
        if matrix is not None and len(operands) == matrix["count"]:
            if any(isinstance(node, Reg) and width and node.count != width
                   for node, width in zip(operands, matrix["widths"], strict=True)):
                return _MISFIT
            index = _matrix_refusal(matrix, operands, instruction.modifiers)
        else:
            matrix = None
        facts = self._facts("alignment", names, processor)
        if facts is None and mnemonic.startswith("v_"):  # unsuffixed: llvm-mc picks the encoding, judged if both agree
            short, long = (self._facts("alignment", (mnemonic + suffix,), processor) for suffix in ("_e32", "_e64"))
            facts = short if short == long else None
        if index is None and facts is not None and len(operands) == facts["count"]:
            index = _alignment_refusal(facts, operands)
        facts = self._facts("agprs", names, processor)
        if index is None and facts is not None and len(operands) == facts["count"]:
            index = _agpr_refusal(facts, operands)
        if index is None and matrix is not None:  # llvm-mc checks the overlap once the operands match
            index = _overlap_refusal(matrix, operands)
        wave32 = ":".join(part for part in full.split(":") if "wavefrontsize" not in part)
        facts = self._facts("low_vgprs", (mnemonic,), wave32)
        if index is None and facts is not None and len(operands) == facts["count"]:
            index = _low_vgpr_refusal(facts, operands)
        return None if index is None else self._messages[index]


def _matrix_refusal(facts: dict, operands: tuple[Node, ...], modifiers) -> int | None:
    """The message index refusing a matrix instruction's register files, modifiers or sources, or None."""
    files = []
    for slot in facts["slots"]:
        node = operands[slot]
        if not isinstance(node, Reg) or node.kind not in ("v", "a") or node.half is not None:
            break
        files.append(node.kind)
    else:
        refused = facts["files"].get("".join(files))
        if refused is not None:
            return refused
    probes: dict[str, int] = facts["probes"]
    for name, value in modifiers:
        if name == "clamp":
            keys = ["clamp"]
        elif name in _VALUES and isinstance(value, Num) and isinstance(value.value, int) and value.value >= 0:
            keys = [_value_key(probes, name, value.value)]
        elif name in _BITS and isinstance(value, ListExpr) and len(value.items) == 3:
            bits = [f"{name}:[{','.join('1' if bit == position else '0' for bit in range(3))}]" for position in range(3)]
            refused = {probes.get(key, -1) for key in bits}
            if len(refused) == 1 and min(refused) >= 0 and facts["unnamed"] == min(refused):
                return min(refused)  # the instruction takes no such modifier, whatever its value
            keys = [key for key, item in zip(bits, value.items, strict=True) if isinstance(item, Num) and item.value == 1]
        else:
            continue
        for key in keys:
            refused = probes.get(key, -1)
            if refused >= 0:
                return refused
    for slot, node in enumerate(operands[1:], 1):
        kind = _source_kind(node)
        if kind is not None:
            refused = probes.get(f"{slot}:{kind}", -1)
            if refused >= 0:
                return refused
    return None


def _overlap_refusal(facts: dict, operands: tuple[Node, ...]) -> int | None:
    """The message index refusing an MFMA accumulator that partly overlaps its result, or None."""
    result, accumulator = (_register(operands[0]), _register(operands[3])) if len(operands) > 3 else (None, None)
    if result is None or accumulator is None or result.kind != accumulator.kind or \
            (result.index, result.count) == (accumulator.index, accumulator.count):
        return None
    if result.index < accumulator.index + accumulator.count and accumulator.index < result.index + result.count:
        refused = facts["probes"].get("overlap", -1)
        return refused if refused >= 0 else None
    return None


def _value_key(probes: dict[str, int], name: str, value: int) -> str:
    """The probe that answers `name:value`: its own, or past the largest value probed, that one's."""
    key = f"{name}:{value}"
    if key in probes:
        return key
    largest = max((int(probe.split(":")[1]) for probe in probes if probe.startswith(name + ":")), default=None)
    return f"{name}:{largest}" if largest is not None and value > largest else key


def _alignment_refusal(facts: dict, operands: tuple[Node, ...]) -> int | None:
    """The message index for the first VGPR/AGPR tuple (or single register: `ds_gws_init`'s data on gfx90a) on an
    odd register where the facts say it must be even."""
    for key, single in (("slots", False), ("singles", True)):
        for slot, index in facts.get(key, {}).items():
            node = _register(operands[int(slot)])
            if node is not None and node.kind in ("v", "a") and (node.count == 1) == single and node.index % 2 == 1:
                return index
    return None


def _low_vgpr_refusal(facts: dict, operands: tuple[Node, ...]) -> int | None:
    """The message index for the first VGPR past v127 where the facts say the form reaches only v0-v127: a true16
    half (`v130.l`) judged by a probe of one, a whole VGPR by a probe of one."""
    for slot, node in enumerate(operands):
        register = _register(node)
        if register is not None and register.kind == "v" and register.count == 1 and register.index >= 128:
            index = facts["halves" if register.half is not None else "whole"].get(str(slot))
            if index is not None:
                return index
    return None


def _misaligned(operands: tuple[Node, ...], multiples: dict[str, dict[str, int]]) -> bool:
    """Whether an SGPR or trap-temporary tuple starts where llvm-mc refuses it (`s[1:2]`, `s[2:5]`)."""
    for node in operands:
        register = _register(node)
        if register is not None and register.count >= 2 and register.kind in multiples:
            multiple = multiples[register.kind].get(str(register.count))
            if multiple is not None and register.index % multiple:
                return True
    return False


def _register(node: Node) -> Reg | None:
    node = node.operand if isinstance(node, (Abs, UnOp)) else node
    return node if isinstance(node, Reg) else None


def _agpr_refusal(facts: dict, operands: tuple[Node, ...]) -> int | None:
    slots = ",".join(str(slot) for slot, node in enumerate(operands) if isinstance(node, Reg) and node.kind == "a")
    return facts["refused"].get(slots) if slots else None


@cache
def matrix_operands() -> MatrixOperands:
    return MatrixOperands(_TABLE.read_text())
