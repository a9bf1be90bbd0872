"""What llvm-mc 22 refuses inside an instruction's structured operands and immediate fields, without assembling.

The facts that differ by processor come from tables/operand_fields.json (scripts/gen_operand_fields.py asks
llvm-mc-22 on every processor): which ds_swizzle modes exist (FFT and ROTATE from gfx9), the hardware register
names of `hwreg(...)`, the messages and operations of `sendmsg(...)`, the largest `s_waitcnt` and
`s_waitcnt_depctr` counts, the value names of `s_delay_alu`, the range of each SOPK 16-bit immediate, and the
scalar instructions whose immediate takes no symbol. The field ranges and the order llvm-mc checks them in (a
swizzle's group size before its lane id, a hwreg's id before its offset and width) are its messages as the
probes show them. Everything here is a lookup on the instruction's parsed operands; a value this
module cannot read (a symbol defined later, an expression) is left to the assembler.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

from ..model.nodes import Abs, BinOp, Call, ListExpr, Node, Num, SpecialReg, Str, Sym, UnOp
from ..model.targets import Target
from .mnemonics import mnemonic_verdicts, operand_kind

_TABLE = Path(__file__).parent / "tables" / "operand_fields.json"
#: operand words that are no relocations: interpolation attributes and parameters (`attr0.x`, `p10`), and the
#: symbols llvm-mc defines itself (`UC_VERSION_GFX12` of s_version, `.amdgcn.gfx_generation_number`, ...)
_NOT_A_SYMBOL = re.compile(r"(?i:attr\d+\.[xyzw]|p0|p10|p20)|UC_VERSION_\w+|\.(?:amdgcn|option)\..*")
_INVALID = "invalid operand for instruction"
_WIDE_IMMEDIATE = "invalid immediate: only 16-bit values are legal"
#: a symbol with no value yet (undefined, defined later, a label) where llvm-mc needs a number as it reads the line
_NOT_ABSOLUTE = "expected absolute expression"
#: swizzle modes -> how many values follow the mode
_SWIZZLE_ARGUMENTS = {"QUAD_PERM": 4, "BITMASK_PERM": 1, "BROADCAST": 2, "SWAP": 1, "REVERSE": 1, "FFT": 1,
                      "ROTATE": 2}
_HWREG_MNEMONICS = {"s_getreg_b32": 1, "s_setreg_b32": 0, "s_setreg_imm32_b32": 0}
_SENDMSG_MNEMONICS = {"s_sendmsg": 0, "s_sendmsghalt": 0, "s_sendmsg_rtn_b32": 1, "s_sendmsg_rtn_b64": 1}
_RECORD_FIELDS = ("id", "offset", "size")
_DELAY_FIELDS = ("instid0", "instskip", "instid1")
#: scalar memory instructions, whose offset operand (the third) takes no relocatable expression
_SCALAR_MEMORY = ("s_load_", "s_buffer_load_", "s_store_", "s_buffer_store_", "s_scratch_")
#: VALU operand types of 64 and 16 bits a relocatable expression fits in no operand of (64-bit integer types are
#: left out: gfx942 and gfx1250 take a 64-bit literal, and a shift's amount is 32 bits)
_NOT_32_BITS = ("f64", "f16", "b16", "i16", "u16")


class _Fields:
    """The table, its processors' rows looked up by name."""

    def __init__(self, table: dict):
        self.names: dict[str, list[str]] = table["names"]
        self.hwreg_names = frozenset(self.names["hwreg"])
        self.operations = frozenset(self.names["operations"])
        self.sopk: dict[str, list[int]] = table["sopk"]
        self.no_symbol = frozenset(table["no_symbol"])
        self._rows: list[dict] = table["rows"]
        self._processors: dict[str, int] = table["processors"]

    def row(self, target: str) -> dict | None:
        index = self._processors.get(target)
        return None if index is None else self._rows[index]


@cache
def _fields() -> _Fields:
    return _Fields(json.loads(_TABLE.read_text()))


def field_problem(instruction, target: Target, columns: tuple[int, ...]) -> str | None:
    """llvm-mc 22's message for the first operand field of `instruction` it refuses on `target`, worded as the other
    verdicts of unknown-instruction are; None where these checks find nothing."""
    if instruction.pair is not None:
        return None
    message = _problem(instruction.mnemonic, instruction.operands, instruction.modifiers, target, columns)
    return None if message is None else f"'{instruction.mnemonic}': {message} ({target.name}, as llvm-mc 22 says)"


def _problem(mnemonic: str, operands: tuple[Node, ...], modifiers, target: Target,
             columns: tuple[int, ...]) -> str | None:
    fields = _fields()
    row = fields.row(target.name)
    if mnemonic.startswith("ds_swizzle"):
        offset = next((value for name, value in modifiers if name == "offset"), None)
        return None if offset is None else _swizzle(offset, row)
    if mnemonic in _HWREG_MNEMONICS:
        return _hwreg_operand(operands, _HWREG_MNEMONICS[mnemonic], row, fields)
    if any(isinstance(operand, Call) and operand.name == "{}" for operand in operands):
        return "unknown token in expression"  # the structured operand is hwreg's alone
    if mnemonic in _SENDMSG_MNEMONICS:
        return _sendmsg_operand(operands, _SENDMSG_MNEMONICS[mnemonic], row, mnemonic.startswith("s_sendmsg_rtn"),
                                fields)
    if mnemonic == "s_waitcnt":
        return _waitcnt(operands, row)
    if mnemonic == "s_delay_alu":
        return _delay_alu(operands, row)
    if mnemonic in ("s_waitcnt_depctr", "s_wait_alu") and not (operands and isinstance(operands[0], Num)):
        return _depctr(operands, row)
    if mnemonic in fields.sopk:
        return _sopk(operands, fields.sopk[mnemonic])
    if mnemonic in fields.no_symbol:
        return _INVALID if len(operands) == 1 and _relocatable(operands[0]) else None
    if mnemonic == "s_cbranch_join" and operands and isinstance(operands[0], Num):
        return _INVALID  # it takes the saved-mask SGPR, not a number
    return _expression_operands(mnemonic, operands, target, columns)


# ----------------------------------------------------------------- ds_swizzle


def _swizzle(offset: Node, row: dict | None) -> str | None:
    if isinstance(offset, Num):
        return None if isinstance(offset.value, int) and 0 <= offset.value <= 0xFFFF else "expected a 16-bit offset"
    if isinstance(offset, Sym) and offset.name == "swizzle":
        return "expected a left parentheses"
    if not isinstance(offset, Call) or offset.name != "swizzle":
        return None
    if not offset.args:
        return "expected a swizzle mode"
    mode = offset.args[0]
    if not isinstance(mode, Sym) or mode.name not in _SWIZZLE_ARGUMENTS:
        return "expected a swizzle mode"
    if row is not None and mode.name == "FFT" and not row["swizzle_fft"]:
        return "FFT mode swizzle not supported on this GPU"
    if row is not None and mode.name == "ROTATE" and not row["swizzle_rotate"]:
        return "Rotate mode swizzle not supported on this GPU"
    values = offset.args[1:]
    wanted = _SWIZZLE_ARGUMENTS[mode.name]
    for position in range(wanted):  # llvm-mc reads and checks each value in turn
        if position >= len(values):
            return "expected a comma"
        problem = _swizzle_value(mode.name, position, values[position], values)
        if problem:
            return None if problem == "?" else problem
    return "expected a closing parentheses" if len(values) > wanted else None


def _swizzle_value(mode: str, position: int, value: Node, values: tuple[Node, ...]) -> str | None:
    """llvm-mc's message for one value of a swizzle, None when it is good, '?' when it cannot be read here."""
    if mode == "BITMASK_PERM":
        if not isinstance(value, Str):
            return "expected a string" if isinstance(value, Num) else "?"
        if len(value.value) != 5:
            return "expected a 5-character mask"
        return None if all(c in "01pi" for c in value.value) else "invalid mask"
    if _relocatable(value):
        return _NOT_ABSOLUTE
    if not isinstance(value, Num) or not isinstance(value.value, int):
        return "?"
    number = value.value
    if mode == "QUAD_PERM":
        return None if 0 <= number <= 3 else "expected a 2-bit lane id"
    if mode == "FFT":
        return None if 0 <= number <= 31 else "FFT swizzle must be in the interval [0,31]"
    if mode == "ROTATE":
        if position == 0:
            return None if number in (0, 1) else "direction must be 0 (left) or 1 (right)"
        return None if 0 <= number <= 31 else "number of threads to rotate must be in the interval [0,31]"
    if mode == "BROADCAST" and position == 1:
        group = values[0]
        if not isinstance(group, Num) or not isinstance(group.value, int):
            return "?"
        return None if 0 <= number < group.value else "lane id must be in the interval [0,group size - 1]"
    smallest, largest = (1, 16) if mode == "SWAP" else (2, 32)  # BROADCAST's and REVERSE's group size
    if not smallest <= number <= largest:
        return f"group size must be in the interval [{smallest},{largest}]"
    return None if number & (number - 1) == 0 else "group size must be a power of two"


# ----------------------------------------------------------------- hwreg


def _hwreg_operand(operands: tuple[Node, ...], position: int, row: dict | None, fields: _Fields) -> str | None:
    if position >= len(operands):
        return None
    operand = operands[position]
    if isinstance(operand, Num):
        return None if isinstance(operand.value, int) and 0 <= operand.value <= 0xFFFF else _WIDE_IMMEDIATE
    if not isinstance(operand, Call):
        return None
    if operand.name == "{}":
        return _hwreg_record(operand.args, fields)
    if operand.name != "hwreg" or not operand.args:
        return None
    if any(isinstance(arg, Call) and arg.name == "{}" for arg in operand.args):
        return "unknown token in expression"  # the structured form stands alone, not inside hwreg(...)
    register = operand.args[0]
    if isinstance(register, Sym):
        problem = _hwreg_name(register.name, row, fields)
        if problem:
            return problem
    elif isinstance(register, Num) and isinstance(register.value, int) and not 0 <= register.value <= 63:
        return "invalid hardware register: only 6-bit values are legal"
    if len(operand.args) == 2:
        return "expected a comma"
    if len(operand.args) > 3:
        return "expected a closing parenthesis"
    return _bitfield(operand.args[1:])


def _hwreg_name(name: str, row: dict | None, fields: _Fields) -> str | None:
    if name not in fields.hwreg_names:
        # a HW_REG_ name llvm-mc prints nowhere may be a spelling it takes: only a known name in the wrong case,
        # or a symbol of no value, is wrong
        wrong = name.upper() in fields.hwreg_names or not (name.startswith("HW_REG_") or _NOT_A_SYMBOL.fullmatch(name))
        return "expected a register name or an absolute expression" if wrong else None
    if row is not None and name not in row["hwreg"]:
        return "invalid hardware register: not supported on this GPU"
    return None


def _bitfield(values: tuple[Node, ...]) -> str | None:
    """The bit offset and width of a hwreg (in that order), where they are numbers."""
    if any(map(_relocatable, values)):
        return _NOT_ABSOLUTE
    if values and isinstance(values[0], Num) and isinstance(values[0].value, int) and not 0 <= values[0].value <= 31:
        return "invalid bit offset: only 5-bit values are legal"
    if len(values) > 1 and isinstance(values[1], Num) and isinstance(values[1].value, int) \
            and not 1 <= values[1].value <= 32:
        return "invalid bitfield width: only values from 1 to 32 are legal"
    return None


def _hwreg_record(entries: tuple[Node, ...], fields: _Fields) -> str | None:
    """LLVM 22's `{id: 51, offset: 1, size: 31}`: known fields, each once, with absolute values in range."""
    seen: dict[str, Node] = {}
    for entry in entries:
        if not isinstance(entry, Call) or len(entry.args) != 1:
            return None
        if entry.name not in _RECORD_FIELDS:
            return "unknown field"
        if entry.name in seen:
            return "duplicate field"
        value = entry.args[0]
        if _relocatable(value) or (isinstance(value, Sym) and value.name in fields.hwreg_names):
            return _NOT_ABSOLUTE  # names are hwreg(...)'s; here only numbers
        seen[entry.name] = value
    register = seen.get("id")
    if isinstance(register, Num) and isinstance(register.value, int) and not 0 <= register.value <= 63:
        return "invalid hardware register: only 6-bit values are legal"
    return _bitfield((seen.get("offset", Num(0)), seen.get("size", Num(32))))


# ----------------------------------------------------------------- sendmsg


def _sendmsg_operand(operands: tuple[Node, ...], position: int, row: dict | None, returns: bool,
                     fields: _Fields) -> str | None:
    if position >= len(operands):
        return None
    operand = operands[position]
    if isinstance(operand, Num) and not returns:
        return None if isinstance(operand.value, int) and 0 <= operand.value <= 0xFFFF else _WIDE_IMMEDIATE
    if row is None or not isinstance(operand, Call) or operand.name != "sendmsg" or not operand.args:
        return None
    messages = row.get("sendmsg_rtn" if returns else "sendmsg")
    message = operand.args[0]
    if len(operand.args) > 2 and isinstance(operand.args[2], Num) and operand.args[2].value not in range(4):
        return "invalid message stream id"  # two bits, whatever the message
    if isinstance(message, Num) and isinstance(message.value, int):
        largest = row.get("sendmsg_rtn_max" if returns else "sendmsg_max", 0)
        return None if 0 <= message.value <= largest else "invalid message id"
    if not isinstance(message, Sym) or messages is None:
        return None
    if message.name not in messages:  # a MSG_ name llvm-mc prints nowhere may be a spelling it takes
        wrong = message.name.upper() in messages or not (message.name.startswith("MSG_")
                                                           or _NOT_A_SYMBOL.fullmatch(message.name))
        return "expected a message name or an absolute expression" if wrong else None
    facts = messages[message.name]
    if facts is None:
        return "specified message id is not supported on this GPU"
    operations, needs_operation, with_stream, numbers = facts
    if operations is None:
        return "message does not support operations" if len(operand.args) > 1 else None
    if len(operand.args) == 1:
        return "missing message operation" if needs_operation else None
    operation = operand.args[1]
    if isinstance(operation, Num) and isinstance(operation.value, int):
        return None if operation.value in numbers else "invalid operation id"
    if not isinstance(operation, Sym) or operation.name not in fields.operations:
        return None
    if operation.name not in operations:
        return "expected an operation name or an absolute expression"  # another message's operation
    if len(operand.args) > 2:
        stream = operand.args[2]
        if operation.name not in with_stream or (
                isinstance(stream, Num) and isinstance(stream.value, int) and not 0 <= stream.value <= 3):
            return "invalid message stream id"
    return None


# ----------------------------------------------------------------- s_waitcnt, s_delay_alu, SOPK


def _calls(node: Node) -> list[Call] | None:
    """The counters of a wait operand (`vmcnt(0) & lgkmcnt(0)`), or None where it is something else."""
    if isinstance(node, Call):
        return [node]
    if isinstance(node, BinOp) and node.op in ("&", "|"):
        left, right = _calls(node.left), _calls(node.right)
        return None if left is None or right is None else left + right
    return None


def _waitcnt(operands: tuple[Node, ...], row: dict | None) -> str | None:
    if row is None or "waitcnt" not in row:
        return None
    for operand in operands:
        for counter in _calls(operand) or ():
            if counter.name not in row["waitcnt_counters"]:
                return f"invalid counter name {counter.name}"
            value = counter.args[0] if len(counter.args) == 1 else None
            if value is not None and _relocatable(value):
                return _NOT_ABSOLUTE
            largest = row["waitcnt"].get(counter.name)
            if largest is not None and isinstance(value, Num) and isinstance(value.value, int) \
                    and not 0 <= value.value <= largest:
                return f"too large value for {counter.name}"
    return None


def _depctr(operands: tuple[Node, ...], row: dict | None) -> str | None:
    """s_waitcnt_depctr / s_wait_alu: known counters, each once, within its range."""
    if row is None or "depctr" not in row:
        return None
    seen: set[str] = set()
    for operand in operands:
        for counter in _calls(operand) or ():
            largest = row["depctr"].get(counter.name)
            if largest is None:
                known = counter.name in _fields().names["depctr"]
                return f"{counter.name} is not supported on this GPU" if known else f"invalid counter name {counter.name}"
            if counter.name in seen:
                return f"duplicate counter name {counter.name}"
            seen.add(counter.name)
            value = counter.args[0] if len(counter.args) == 1 else None
            if value is not None and _relocatable(value):
                return _NOT_ABSOLUTE
            if isinstance(value, Num) and isinstance(value.value, int) and not 0 <= value.value <= largest:
                return f"invalid value for {counter.name}"
    return None


def _delay_alu(operands: tuple[Node, ...], row: dict | None) -> str | None:
    if row is None or "delay_alu" not in row:
        return None
    if len(operands) > 1:
        return _INVALID  # its fields are joined by '|', not listed
    for field in (_calls(operands[0]) or ()) if operands else ():
        if field.name not in _DELAY_FIELDS:
            return f"invalid field name {field.name}"
        if len(field.args) != 1:
            return None
        value = field.args[0]
        if isinstance(value, Num):
            return "expected a value name"
        names = row["delay_alu"]["instskip" if field.name == "instskip" else "instid"]
        if isinstance(value, Sym) and value.name not in names:
            return f"invalid value name {value.name}"
    return None


def _sopk(operands: tuple[Node, ...], bounds: list[int]) -> str | None:
    if not operands:
        return None
    value = operands[-1]
    if isinstance(value, Num) and isinstance(value.value, int):
        return None if bounds[0] <= value.value <= bounds[1] else _INVALID
    return _INVALID if _relocatable(value) else None


# ----------------------------------------------------------------- expressions as operands


def _relocatable(node: Node) -> bool:
    """An operand that is a symbol the assembler does not know yet (an undefined or later-defined name, a
    label), alone or in arithmetic: a relocation, which a 16-bit or 64-bit field cannot hold."""
    if isinstance(node, Sym):
        return _NOT_A_SYMBOL.fullmatch(node.name) is None
    if isinstance(node, BinOp):
        return (_relocatable(node.left) and isinstance(node.right, (Num, Sym))) or (
            _relocatable(node.right) and isinstance(node.left, (Num, Sym)))
    return False


def _float_arithmetic(node: Node) -> bool:
    """Arithmetic with a floating-point number in it, which llvm-mc does not evaluate."""
    if isinstance(node, BinOp):
        return any(isinstance(side, Num) and isinstance(side.value, float) or _float_arithmetic(side)
                   for side in (node.left, node.right))
    if isinstance(node, UnOp):
        return _float_arithmetic(node.operand)
    return False


def _expression_operands(mnemonic: str, operands: tuple[Node, ...], target: Target,
                         columns: tuple[int, ...]) -> str | None:
    verdicts = mnemonic_verdicts()
    for position, operand in enumerate(operands):
        if _float_arithmetic(operand.operand if isinstance(operand, Abs) else operand):
            return _INVALID
        inner = operand.operand if isinstance(operand, (Abs, UnOp)) else (
            operand.args[0] if isinstance(operand, Call) and operand.name in ("abs", "neg", "sext")
            and len(operand.args) == 1 else None)
        if inner is not None and mnemonic.startswith("v_") and _relocatable(inner) and not isinstance(operand, UnOp):
            return "expected an absolute expression"  # an input modifier needs a number
        if isinstance(operand, ListExpr):
            for item in operand.items:
                if isinstance(item, SpecialReg):
                    message = verdicts.register_rejection(item.name, columns)
                    if message is not None:
                        return message
        if position > 0 and _relocatable(operand):
            if mnemonic.startswith(_SCALAR_MEMORY) and position == 2:
                return _INVALID
            if _single_type(mnemonic) in _NOT_32_BITS:
                return _INVALID
    return _literals(mnemonic, operands, target)


def _literals(mnemonic: str, operands: tuple[Node, ...], target: Target) -> str | None:
    """Two literals in an ALU instruction, one of them a relocatable expression (two of the same symbol are two
    relocations); and a relocatable operand of a VOP3-only instruction before gfx10, which has no literal."""
    compares = mnemonic.startswith(("s_cmp_", "s_bitcmp"))
    sources = operands if compares else operands[1:]
    relocations = sum(map(_relocatable, sources))
    if not relocations or not mnemonic.startswith(("s_", "v_")) or mnemonic.startswith(_SCALAR_MEMORY):
        return None
    numbers = {source.value for source in sources if isinstance(source, Num) and operand_kind(source) == "literal"}
    major = target.major
    if relocations + len(numbers) > 1 and (mnemonic.startswith("s_") or major >= 10):
        return "only one unique literal operand is allowed"
    if (mnemonic.startswith("v_") and 8 <= major <= 9 and len(operands) >= 4
            and not mnemonic.endswith("_e32") and not any(isinstance(operand, SpecialReg) for operand in operands)
            and not any(word in mnemonic for word in ("madak", "madmk", "fmaak", "fmamk"))):
        return "literal operands are not supported"  # a VOP3 encoding holds no literal before gfx10
    return None


def _single_type(mnemonic: str) -> str | None:
    """The operand type of a VALU mnemonic that names one (`v_ceil_f64`, `v_add_u16`; not `v_cvt_f64_f32`)."""
    if not mnemonic.startswith("v_") or any(shift in mnemonic for shift in ("lshl", "lshr", "ashr")):
        return None
    words = mnemonic.removesuffix("_e32").removesuffix("_e64").split("_")
    types = [word for word in words[1:] if len(word) >= 3 and word[0] in "fbiu" and word[1:].isdigit()]
    return types[0] if len(types) == 1 and words[-1] == types[0] else None
