"""Statements and their expression and operand nodes, as the statement parser produces them.

Nodes are immutable and hashable so parsed statements can be shared between every
occurrence of the same source text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .frozen import frozen_dataclass

#: Register-file prefixes accepted in `v0`, `v[0:3]` forms (`acc` is LLVM's AGPR synonym).
REGISTER_PREFIXES = {"v": "v", "s": "s", "a": "a", "acc": "a", "ttmp": "ttmp"}

#: Named registers and operand keywords that are not numbered registers.
SPECIAL_REGISTERS = frozenset(
    ["vcc", "vcc_lo", "vcc_hi", "exec", "exec_lo", "exec_hi", "m0", "scc", "null", "off", "flat_scratch", "flat_scratch_lo", "flat_scratch_hi", "xnack_mask", "xnack_mask_lo", "xnack_mask_hi", "tba", "tba_lo", "tba_hi", "tma", "tma_lo", "tma_hi", "lds_direct", "src_lds_direct", "src_vccz", "src_execz", "src_scc", "src_shared_base", "src_shared_limit", "src_private_base", "src_private_limit", "src_pops_exiting_wave_id", "src_flat_scratch_base_lo", "src_flat_scratch_base_hi", "shared_base", "shared_limit", "private_base", "private_limit", "pops_exiting_wave_id", "vccz", "execz"]
)

_SINGLE_REGISTER = re.compile(r"(acc|ttmp|v|s|a)(\d+)(?:\.([lh]))?\Z")


@frozen_dataclass(frozen=True, slots=True, init=False, eq=False, repr=False)
class Num:
    """A numeric literal."""

    value: int | float

    def __init__(self, value: int | float) -> None:  # noqa: PYI041  # an int stays an int (mypyc makes a float of one)
        object.__setattr__(self, "value", value)

    def __repr__(self) -> str:
        return f"{self.__class__.__qualname__}(value={self.value!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Num) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.value,) == (other.value,)

    def __hash__(self) -> int:
        return hash((self.value,))


@frozen_dataclass(frozen=True, slots=True, init=False, eq=False, repr=False)
class Sym:
    """A symbol reference."""

    name: str

    def __init__(self, name: str) -> None:
        object.__setattr__(self, "name", name)

    def __repr__(self) -> str:
        return f"{self.__class__.__qualname__}(name={self.name!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sym) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.name,) == (other.name,)

    def __hash__(self) -> int:
        return hash((self.name,))


@frozen_dataclass(frozen=True, slots=True, init=False, eq=False, repr=False)
class LocalRef:
    """A numeric local label reference such as `1b` (backward) or `2f` (forward)."""

    label: int
    forward: bool

    def __init__(self, label: int, forward: bool) -> None:
        object.__setattr__(self, "label", label)
        object.__setattr__(self, "forward", forward)

    def __repr__(self) -> str:
        return f"{self.__class__.__qualname__}(label={self.label!r}, forward={self.forward!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LocalRef) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.label, self.forward) == (other.label, other.forward)

    def __hash__(self) -> int:
        return hash((self.label, self.forward))


@frozen_dataclass(frozen=True, slots=True, init=False, eq=False, repr=False)
class Str:
    """A string literal."""

    value: str

    def __init__(self, value: str) -> None:
        object.__setattr__(self, "value", value)

    def __repr__(self) -> str:
        return f"{self.__class__.__qualname__}(value={self.value!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Str) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.value,) == (other.value,)

    def __hash__(self) -> int:
        return hash((self.value,))


@frozen_dataclass(frozen=True, slots=True, init=False, eq=False, repr=False)
class BinOp:
    """A binary expression."""

    op: str
    left: Node
    right: Node

    def __init__(self, op: str, left: Node, right: Node) -> None:
        object.__setattr__(self, "op", op)
        object.__setattr__(self, "left", left)
        object.__setattr__(self, "right", right)

    def __repr__(self) -> str:
        return f"{self.__class__.__qualname__}(op={self.op!r}, left={self.left!r}, right={self.right!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BinOp) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.op, self.left, self.right) == (other.op, other.left, other.right)

    def __hash__(self) -> int:
        return hash((self.op, self.left, self.right))


@frozen_dataclass(frozen=True, slots=True, init=False, eq=False, repr=False)
class UnOp:
    """A unary expression."""

    op: str
    operand: Node

    def __init__(self, op: str, operand: Node) -> None:
        object.__setattr__(self, "op", op)
        object.__setattr__(self, "operand", operand)

    def __repr__(self) -> str:
        return f"{self.__class__.__qualname__}(op={self.op!r}, operand={self.operand!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, UnOp) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.op, self.operand) == (other.op, other.operand)

    def __hash__(self) -> int:
        return hash((self.op, self.operand))


@frozen_dataclass(frozen=True, slots=True, init=False, eq=False, repr=False)
class Call:
    """`name(args)`: operand modifiers (neg, abs, sext), wait counters, hwreg, sendmsg, ..."""

    name: str
    args: tuple[Node, ...]

    def __init__(self, name: str, args: tuple[Node, ...]) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "args", args)

    def __repr__(self) -> str:
        return f"{self.__class__.__qualname__}(name={self.name!r}, args={self.args!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Call) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.name, self.args) == (other.name, other.args)

    def __hash__(self) -> int:
        return hash((self.name, self.args))


@frozen_dataclass(frozen=True, slots=True, init=False, eq=False, repr=False)
class ListExpr:
    """A bracketed list of expressions."""

    items: tuple[Node, ...]

    def __init__(self, items: tuple[Node, ...]) -> None:
        object.__setattr__(self, "items", items)

    def __repr__(self) -> str:
        return f"{self.__class__.__qualname__}(items={self.items!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ListExpr) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.items,) == (other.items,)

    def __hash__(self) -> int:
        return hash((self.items,))


@frozen_dataclass(frozen=True, slots=True, init=False, eq=False, repr=False)
class Abs:
    """`|x|` absolute-value operand modifier."""

    operand: Node

    def __init__(self, operand: Node) -> None:
        object.__setattr__(self, "operand", operand)

    def __repr__(self) -> str:
        return f"{self.__class__.__qualname__}(operand={self.operand!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Abs) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.operand,) == (other.operand,)

    def __hash__(self) -> int:
        return hash((self.operand,))


@frozen_dataclass(frozen=True, slots=True, init=False, eq=False, repr=False)
class Reg:
    """A resolved register range: kind is v, s, a or ttmp; `half` is 'l'/'h' for true16 operands."""

    kind: str
    index: int
    count: int = 1
    half: str | None = None

    def __init__(self, kind: str, index: int, count: int = 1, half: str | None = None) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "count", count)
        object.__setattr__(self, "half", half)

    def __repr__(self) -> str:
        return (f"{self.__class__.__qualname__}(kind={self.kind!r}, index={self.index!r}, count={self.count!r}, "
                f"half={self.half!r})")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Reg) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.kind, self.index, self.count, self.half) == (other.kind, other.index, other.count, other.half)

    def __hash__(self) -> int:
        return hash((self.kind, self.index, self.count, self.half))

    @property
    def last(self) -> int:
        return self.index + self.count - 1

    def __str__(self) -> str:
        if self.count == 1:
            return f"{self.kind}{self.index}" + (f".{self.half}" if self.half else "")
        return f"{self.kind}[{self.index}:{self.last}]"


@frozen_dataclass(frozen=True, slots=True, init=False, eq=False, repr=False)
class RegExpr:
    """A register range whose bounds are expressions over symbols (`v[vgprA+1:vgprA+4]`)."""

    kind: str
    first: Node
    last: Node | None

    def __init__(self, kind: str, first: Node, last: Node | None) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "first", first)
        object.__setattr__(self, "last", last)

    def __repr__(self) -> str:
        return f"{self.__class__.__qualname__}(kind={self.kind!r}, first={self.first!r}, last={self.last!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RegExpr) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.kind, self.first, self.last) == (other.kind, other.first, other.last)

    def __hash__(self) -> int:
        return hash((self.kind, self.first, self.last))


@frozen_dataclass(frozen=True, slots=True, init=False, eq=False, repr=False)
class SpecialReg:
    """A named special register (vcc, exec, m0, scc, ...)."""

    name: str

    def __init__(self, name: str) -> None:
        object.__setattr__(self, "name", name)

    def __repr__(self) -> str:
        return f"{self.__class__.__qualname__}(name={self.name!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SpecialReg) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.name,) == (other.name,)

    def __hash__(self) -> int:
        return hash((self.name,))

    def __str__(self) -> str:
        return self.name


@frozen_dataclass(frozen=True, slots=True, init=False, eq=False, repr=False)
class MissingRegister:
    """An operand in the place of one naming registers its target does not have (`v[0:999999]`, `s102` on
    gfx9): it reads and writes nothing, so no analysis counts or sizes anything by it; register-budget
    reports it."""

    register: Reg

    def __init__(self, register: Reg) -> None:
        object.__setattr__(self, "register", register)

    def __repr__(self) -> str:
        return f"{self.__class__.__qualname__}(register={self.register!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, MissingRegister) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.register,) == (other.register,)

    def __hash__(self) -> int:
        return hash((self.register,))

    def __str__(self) -> str:
        return str(self.register)


Node = Num | Sym | LocalRef | Str | BinOp | UnOp | Call | ListExpr | Abs | Reg | RegExpr | SpecialReg | MissingRegister


def spelled(node: Node | None) -> str:
    """An operand as assembly writes it, after expansion (macro arguments and symbols as the parser resolved them)."""
    if node is None:
        return ""
    if isinstance(node, Num):
        value = node.value
        return f"0x{value:x}" if isinstance(value, int) and value >= 1 << 16 else str(value)
    if isinstance(node, (Reg, SpecialReg, MissingRegister)):
        return str(node)
    if isinstance(node, Sym):
        return node.name
    if isinstance(node, LocalRef):
        return f"{node.label}{'f' if node.forward else 'b'}"
    if isinstance(node, Str):
        return '"' + node.value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(node, BinOp):
        return f"{spelled(node.left)} {node.op} {spelled(node.right)}"
    if isinstance(node, UnOp):
        return f"{node.op}{spelled(node.operand)}"
    if isinstance(node, Call):
        return f"{node.name}({', '.join(map(spelled, node.args))})"
    if isinstance(node, ListExpr):
        return f"[{', '.join(map(spelled, node.items))}]"
    if isinstance(node, Abs):
        return f"|{spelled(node.operand)}|"
    last = f":{spelled(node.last)}" if node.last is not None else ""  # RegExpr
    return f"{node.kind}[{spelled(node.first)}{last}]"


def instruction_text(mnemonic: str, operands: tuple[Node, ...], modifiers: tuple[tuple[str, Node | None], ...]) -> str:
    """One instruction as assembly writes it: `v_add_f32 v2, v1, v0 clamp`."""
    parts = [", ".join(map(spelled, operands))] if operands else []
    parts += [name if value is None else f"{name}:{spelled(value)}" for name, value in modifiers]
    return " ".join([mnemonic, *parts])


def nests_deeper_than(nodes: Iterable[Node], depth: int) -> bool:
    """Whether any of `nodes` nests more than `depth` levels (walked with a list of its own, not by recursion: what
    asks is the guard before anything recursive walks a node)."""
    pending = [(node, 1) for node in nodes]
    while pending:
        node, level = pending.pop()
        if level > depth:
            return True
        level += 1
        if isinstance(node, BinOp):
            pending += ((node.left, level), (node.right, level))
        elif isinstance(node, (UnOp, Abs)):
            pending.append((node.operand, level))
        elif isinstance(node, Call):
            pending += ((arg, level) for arg in node.args)
        elif isinstance(node, ListExpr):
            pending += ((item, level) for item in node.items)
        elif isinstance(node, RegExpr):
            pending.append((node.first, level))
            if node.last is not None:
                pending.append((node.last, level))
    return False


def mentions_symbols(node: Node) -> bool:
    """Whether an operand refers to a symbol (a name, a local label, a symbolic register index)."""
    if isinstance(node, (RegExpr, Sym, LocalRef)):
        return True
    if isinstance(node, BinOp):
        return mentions_symbols(node.left) or mentions_symbols(node.right)
    if isinstance(node, (UnOp, Abs)):
        return mentions_symbols(node.operand)
    if isinstance(node, Call):
        return any(mentions_symbols(arg) for arg in node.args)
    if isinstance(node, ListExpr):
        return any(mentions_symbols(item) for item in node.items)
    return False


#: Hardware-register names of `hwreg(...)` whose ids the rules compare.
HWREG_IDS = {"HW_REG_MODE": 1, "HW_REG_STATUS": 2, "HW_REG_TRAPSTS": 3, "HW_REG_HW_ID": 4, "HW_REG_GPR_ALLOC": 5,
             "HW_REG_LDS_ALLOC": 6, "HW_REG_IB_STS": 7, "HW_REG_SH_MEM_BASES": 15}


def hardware_register(mnemonic: str, operands: tuple[Node, ...]) -> int | str | None:
    """The hardware register an s_setreg/s_getreg names: hwreg(NAME or id, ...) or a raw immediate."""
    for operand in operands:
        if isinstance(operand, Call) and operand.name.lower() == "hwreg" and operand.args:
            first = operand.args[0]
            if isinstance(first, Sym):
                return HWREG_IDS.get(first.name.upper(), first.name.upper())
            return int(first.value) if isinstance(first, Num) else None
        if isinstance(operand, Num) and not mnemonic.startswith("s_setreg_imm32"):
            return int(operand.value) & 0x3F
    if mnemonic.startswith("s_setreg_imm32") and operands and isinstance(operands[0], Num):
        return int(operands[0].value) & 0x3F
    return None


def register_from_name(name: str) -> Reg | SpecialReg | None:
    """Classify an identifier as a single register, a special register, or neither."""
    lowered = name.lower()
    match = _SINGLE_REGISTER.match(lowered)
    if match:
        return Reg(REGISTER_PREFIXES[match.group(1)], int(match.group(2)), 1, match.group(3))
    if lowered in SPECIAL_REGISTERS:
        return SpecialReg(lowered)
    return None


def signed_number(node: Node) -> Node:
    """`-5` or `-1.0` as the number it is (the parser keeps the minus as a unary expression); any other node as is."""
    if isinstance(node, UnOp) and node.op == "-" and isinstance(node.operand, Num):
        return Num(-node.operand.value)
    return node


def operand_register(node: Node) -> Reg | SpecialReg | RegExpr | None:
    """The register an operand names, looking through neg/abs/sext modifiers."""
    while True:
        if isinstance(node, (Reg, SpecialReg, RegExpr)):
            return node
        if isinstance(node, UnOp) and node.op == "-" or isinstance(node, Abs):
            node = node.operand
        elif isinstance(node, Call) and node.name in ("neg", "abs", "sext") and len(node.args) == 1:
            node = node.args[0]
        elif isinstance(node, ListExpr) and node.items:
            return _register_list(node)
        else:
            return None


def _register_list(node: ListExpr) -> Reg | None:
    """`[s0, s1, s2]`: LLVM's list syntax for consecutive registers."""
    regs = [item for item in node.items if isinstance(item, Reg)]
    if len(regs) != len(node.items):
        return None
    first = regs[0]
    for offset, reg in enumerate(regs):
        if reg.kind != first.kind or reg.index != first.index + offset:
            return None
    return Reg(first.kind, first.index, len(regs))


def within_register_files(operands: tuple[Node, ...], files: dict[str, int]) -> tuple[Node, ...]:
    """`operands`, each one naming registers beyond its file's size in `files` (or before its start) as a
    MissingRegister; the same tuple when none does."""
    kept: list[Node] | None = None
    for position, operand in enumerate(operands):
        register = operand if type(operand) is Reg else operand_register(operand)
        if type(register) is Reg and not 0 <= register.index <= files[register.kind] - register.count:
            if kept is None:
                kept = list(operands)
            kept[position] = MissingRegister(register)
    return operands if kept is None else tuple(kept)


@frozen_dataclass(frozen=True, slots=True, init=False, eq=False, repr=False)
class Statement:
    """One parsed statement. `kind` is instruction, directive, assignment or empty."""

    kind: str
    name: str = ""
    labels: tuple[str, ...] = ()
    operands: tuple[Node, ...] = ()
    modifiers: tuple[tuple[str, Node | None], ...] = ()
    args: str = ""
    resolved: bool = True  # False when operands or modifiers mention symbols (values set by .set)
    pair: Statement | None = None  # the second half of a gfx11+ dual-issue (VOPD) instruction

    def __init__(self, kind: str, name: str = "", labels: tuple[str, ...] = (), operands: tuple[Node, ...] = (),
                 modifiers: tuple[tuple[str, Node | None], ...] = (), args: str = "", resolved: bool = True,
                 pair: Statement | None = None) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "labels", labels)
        object.__setattr__(self, "operands", operands)
        object.__setattr__(self, "modifiers", modifiers)
        object.__setattr__(self, "args", args)
        object.__setattr__(self, "resolved", resolved)
        object.__setattr__(self, "pair", pair)

    def __repr__(self) -> str:
        return (f"{self.__class__.__qualname__}(kind={self.kind!r}, name={self.name!r}, labels={self.labels!r}, "
                f"operands={self.operands!r}, modifiers={self.modifiers!r}, args={self.args!r}, "
                f"resolved={self.resolved!r}, pair={self.pair!r})")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Statement) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.kind, self.name, self.labels, self.operands, self.modifiers, self.args, self.resolved, self.pair) == (
            other.kind, other.name, other.labels, other.operands, other.modifiers, other.args, other.resolved,
            other.pair)

    def __hash__(self) -> int:
        return hash((
            self.kind, self.name, self.labels, self.operands, self.modifiers, self.args, self.resolved, self.pair))
