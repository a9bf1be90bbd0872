"""Statement parser, memoized on statement text.

A hand-written reader takes the statements compilers write: labels, directives, and
instructions whose operands are registers, numbers, names, calls, lists, `|abs|` and arithmetic.
It gives up on anything else (strings, comparisons, VOPD pairs, odd characters, errors), and
the Lark grammar in grammars/amdgpu_asm.lark (frontend/grammar.py, loaded on first use) reads
those; both build their nodes with the functions below, so a statement's nodes do not depend on
which reader took it. Real kernels repeat most of their lines (unrolled loops, macro bodies), so
every distinct comment-free statement text is parsed once and the immutable result is shared.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache

from ..model.expr import EvalError, binary_op
from ..model.frozen import frozen_dataclass
from ..model.memo import Remembered
from ..model.nodes import (
    REGISTER_PREFIXES,
    Abs,
    BinOp,
    Call,
    ListExpr,
    LocalRef,
    Node,
    Num,
    Reg,
    RegExpr,
    SpecialReg,
    Statement,
    Sym,
    UnOp,
    mentions_symbols,
    nests_deeper_than,
    register_from_name,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

#: Operand words that are instruction modifiers, never operands, wherever they appear.
MODIFIER_WORDS: Final = frozenset(
    ["glc", "slc", "dlc", "nt", "sc0", "sc1", "scc_mod", "offen", "idxen", "addr64", "lds", "gds", "tfe", "lwe", "unorm", "da", "r128", "a16", "d16", "clamp", "done", "vm", "compr", "row_en", "high", "nv"]
)


@frozen_dataclass(frozen=True, slots=True, init=False, eq=False, repr=False)
class ParseFailure:
    """A statement the grammar rejected; `column` is 1-based within the statement text."""

    message: str
    column: int

    def __init__(self, message: str, column: int) -> None:
        object.__setattr__(self, "message", message)
        object.__setattr__(self, "column", column)

    def __repr__(self) -> str:
        return f"{self.__class__.__qualname__}(message={self.message!r}, column={self.column!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ParseFailure) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.message, self.column) == (other.message, other.column)

    def __hash__(self) -> int:
        return hash((self.message, self.column))


# ----------------------------------------------------------------- nodes, as both readers build them


class LiteralOutOfRange(ValueError):
    """A number wider than the 64 bits llvm-mc reads a literal into."""

    def __init__(self) -> None:
        super().__init__("literal value out of range (more than 64 bits)")


#: The most levels an operand may nest, counted from the operand to its deepest leaf (`-(-(x))`, `a+a+...`: each
#: operator a level; parentheses add none); deeper is a parse error. llvm-mc's only bound is its stack. A bound of ours,
#: not Python's recursion limit (which the pure build's recursive walks reach near 900 levels), so that both builds
#: answer alike: a compiled module recurses in C, past that limit, until the stack overflows.
MAX_NESTING = 512


class NestedTooDeeply(ValueError):
    """An operand nesting more than MAX_NESTING levels."""

    def __init__(self) -> None:
        super().__init__("expression nested too deeply")


#: Digits of the longest decimal literal that may fit in 64 bits: a longer one is not converted at all.
_MOST_DECIMAL_DIGITS = 20


def number(text: str) -> Num:
    """A NUMBER token: hex, binary, octal with a leading zero (when every digit is octal), or decimal.
    Raises LiteralOutOfRange for one wider than 64 bits."""
    if text[:2] in ("0x", "0X"):
        value = int(text, 16)
    elif text[:2] in ("0b", "0B"):
        value = int(text, 2)
    elif len(text) > 1 and text[0] == "0" and all(c in "01234567" for c in text):
        value = int(text, 8)
    elif len(text.lstrip("0")) > _MOST_DECIMAL_DIGITS:
        raise LiteralOutOfRange
    else:
        value = int(text)
    if value >> 64:
        raise LiteralOutOfRange
    return Num(value)


def local_ref(text: str) -> LocalRef:
    return LocalRef(int(text[:-1]), text[-1] == "f")


def fold_binop(op: str, left: Node, right: Node) -> Node:
    if isinstance(left, Num) and isinstance(right, Num) and isinstance(left.value, int) and isinstance(right.value, int):
        try:
            return Num(binary_op(op, left.value, right.value))
        except EvalError:
            pass
    return BinOp(op, left, right)


def unop(op: str, node: Node) -> Node:
    operand = as_operand(node)
    if isinstance(operand, Num):
        if op == "-":
            return Num(-operand.value)
        if op == "+":
            return operand
        if op == "~" and isinstance(operand.value, int):
            return Num(~operand.value)
    return UnOp(op, operand)


def _as_int(node: Node) -> int | None:
    return node.value if isinstance(node, Num) and isinstance(node.value, int) else None


def reg_range(name: str, first: Node, last: Node | None) -> Node:
    """`v[0:3]`, `s[n]`, or `name[...]` for a name that is no register file. A range of numbers that is
    none (`v[5:3]`, `v[-1]`) stays an expression, which the preprocessor reports as a bad range."""
    kind = REGISTER_PREFIXES.get(name.lower())
    if kind is None:
        return Call(f"{name}[]", (first,) if last is None else (first, last))
    lo = _as_int(first)
    hi = lo if last is None else _as_int(last)
    if lo is not None and hi is not None and 0 <= lo <= hi:
        return Reg(kind, lo, hi - lo + 1)
    return RegExpr(kind, first, last)


def call(name: str, args: tuple[Node, ...]) -> Call:
    return Call(name.lower() if name.lower() in ("neg", "abs", "sext") else name, tuple(map(as_operand, args)))


#: The name of the Call a structured operand `{id: 51, offset: 1}` is read into: a call of this name whose
#: arguments are one call per field, `id(51)`, in the order written.
RECORD = "{}"


def record(fields: tuple[tuple[str, Node], ...]) -> Call:
    """LLVM 22's structured operand `{name: value, ...}` (hwreg's `{id: 51, offset: 1, size: 31}`)."""
    return Call(RECORD, tuple(Call(name, (value,)) for name, value in fields))


def as_operand(node: Node) -> Node:
    """A name standing as an operand is a register when it spells one (`v0`, `acc3`, `vcc_lo`)."""
    if isinstance(node, Sym):
        return register_from_name(node.name) or node
    return node


#: Scalar instructions that take cache-policy modifiers; the other `s_` instructions take none, so a modifier word
#: standing alone as their operand is a symbol (`s_mov_b32 s0, gds`), as llvm-mc reads it.
_SCALAR_MEMORY = ("s_load", "s_store", "s_buffer", "s_scratch", "s_atomic", "s_dcache", "s_atc", "s_prefetch")


def _is_modifier_word(word: str, mnemonic: str, position: int = 0) -> bool:
    # `a16` is the AGPR a16 everywhere but in image instructions, where it is the 16-bit-address bit;
    # `scc` after another item of a group is gfx90a's cache-coherence bit, not the register
    if position == 0 and mnemonic.startswith("s_") and not mnemonic.startswith(_SCALAR_MEMORY):
        return False
    return (word in MODIFIER_WORDS and (word != "a16" or mnemonic.startswith("image_"))) or (word == "scc" and position > 0)


#: Words llvm-mc reads as a modifier written right after a register (`v_cvt_f16_u16_e64 v5, s1 noclamp`): the bits,
#: their `no` forms, and the DPP controls that take no value. Any other word there is an operand, as in
#: `v_mov_b32 v0 x` (a symbol; llvm-mc needs no comma before it).
_BARE_MODIFIERS = MODIFIER_WORDS | {f"no{word}" for word in MODIFIER_WORDS} | {"row_mirror", "row_half_mirror"}


def _reads_as_modifier(name: str, mnemonic: str, position: int, after_register: bool) -> bool:
    """Whether llvm-mc reads a bare word in an operand group as a modifier: a modifier word; any other word that is
    no register after a first item, but after a register only a word llvm-mc takes as a modifier there (`x` in
    `v_mov_b32 v0 x` is a symbol operand; `D` in `dim:1D`, a value the lexer split, follows no register)."""
    word = name.lower()
    if _is_modifier_word(word, mnemonic, position):
        return True
    if position == 0 or register_from_name(name) is not None:
        return False
    return not after_register or word in _BARE_MODIFIERS


#: One operand-group item that is a modifier: ("modifier", name, value).
Modifier = tuple[str, str, Node]


def operation(mnemonic: str, groups: list[list[Node | Modifier]]) -> Statement:
    """An instruction from its comma-separated groups of juxtaposed items (`s[0:1] offset:16 glc`)."""
    mnemonic = mnemonic.lower()
    if nests_deeper_than([item[2] if isinstance(item, tuple) else item for group in groups for item in group], MAX_NESTING):
        raise NestedTooDeeply  # before anything below walks the operands by recursion
    operands: list[Node] = []
    modifiers: list[tuple[str, Node | None]] = []
    for group in groups:
        after_register = False
        for position, item in enumerate([part for written in group for part in _juxtaposed(written)]):
            if isinstance(item, tuple):
                modifiers.append((item[1], item[2]))
                after_register = False
            elif isinstance(item, Sym) and _reads_as_modifier(item.name, mnemonic, position, after_register):
                modifiers.append((item.name.lower(), None))
                after_register = False
            else:
                operand = as_operand(item)
                operands.append(operand)
                after_register = isinstance(operand, (Reg, RegExpr, SpecialReg))
    return Statement(
        "instruction",
        mnemonic,
        operands=tuple(operands),
        modifiers=tuple(modifiers),
        resolved=not any(mentions_symbols(node) for node in (*operands, *(v for _, v in modifiers if v is not None))),
    )


def _juxtaposed(item: Node | Modifier) -> list[Node | Modifier]:
    """An item as the operands llvm-mc reads in it: `v0 -v1 v2` and `v0 |v1| v2`, operands written without
    commas, are a register then a negated or absolute one, not arithmetic on a register (which no operand is)."""
    if isinstance(item, BinOp) and _starts_with_register(item.left):
        if item.op == "-":
            return [*_juxtaposed(item.left), unop("-", item.right)]
        if item.op == "|" and isinstance(item.left, BinOp) and item.left.op == "|":
            return [*_juxtaposed(item.left.left), Abs(as_operand(item.left.right)), *_juxtaposed(item.right)]
    return [item]


def _starts_with_register(node: Node) -> bool:
    if isinstance(node, BinOp):
        return _starts_with_register(node.left)
    return isinstance(node, (Reg, RegExpr)) or (isinstance(node, Sym) and register_from_name(node.name) is not None)


def labelled(labels: tuple[str, ...], body: Statement | None) -> Statement:
    if body is None:
        return Statement("empty", labels=labels)
    return replace(body, labels=labels) if labels else body


# ----------------------------------------------------------------- the hand-written reader

def is_unusual(text: str) -> bool:
    """Whether the hand-written reader leaves `text` to the grammar: it holds anything but printable ASCII and
    tabs (a character outside `[\\t -~]`), VOPD's `::`, or a two-character operator it does not read. (The
    characters by `isascii` and `isprintable`, with tabs read as blanks: faster than searching for the class.)"""
    if not text.isascii() or not text.replace("\t", " ").isprintable():
        return True
    return "::" in text or "||" in text or "&&" in text


_NAME: Final = re.compile(r"[A-Za-z_.$][\w.$]*", re.ASCII)
#: Operand tokens, the grammar's terminals in the lexer's order; a number glued to a name, and any
#: other character, is a BAD token (the grammar decides).
_TOKEN: Final = re.compile(
    r"[ \t]*(?:(\d+\.\d*(?:[eE][+-]?\d+)?(?![\w.$@])|\d+[eE][+-]?\d+(?![\w.$@]))"  # 1 FLOAT
    r"|(\d+[bf](?![\w.$@]))"  # 2 LOCAL_REF
    r"|((?:0[xX][0-9a-fA-F]+|0[bB][01]+|\d+)(?![\w.$@]))"  # 3 NUMBER
    r"|([A-Za-z_.$][\w.$]*(?:@\w+)*)"  # 4 NAME
    r"|(<<|>>|[-+*/%|&^~(),\[\]:])"  # 5 operator or punctuation
    r"|(\S))",  # 6 BAD
    re.ASCII,
)
_FLOAT, _LOCAL, _NUMBER, _WORD, _PUNCT, _BAD = range(1, 7)
#: Binding strength of the binary operators the reader takes (the grammar's levels, loosest first).
_BINARY: Final = {"+": 1, "-": 1, "|": 2, "&": 2, "^": 2, "*": 3, "/": 3, "%": 3, "<<": 3, ">>": 3}
_ITEM_START: Final = frozenset("-+~([|")
#: How deep the reader recurses (three calls a level) before it leaves the text to the grammar, whose parser keeps a
#: stack of its own: well inside Python's recursion limit, and the same bound in a compiled build.
_READER_NESTING = 64


class _GiveUp(Exception):
    """The text is not in the reader's subset; the grammar reads it."""


class _Reader:
    """Recursive descent over one text's tokens, mirroring the grammar (an ambiguity between
    continuing an expression and starting a juxtaposed item goes to the expression, as the
    grammar's parser shifts)."""

    __slots__ = ("at", "depth", "kinds", "texts")

    def __init__(self, text: str):
        kinds: list[int] = []
        texts: list[str] = []
        for match in _TOKEN.finditer(text):
            kind = match.lastindex or _BAD  # every alternative is a group
            if kind == _BAD:
                raise _GiveUp
            kinds.append(kind)
            texts.append(match.group(kind))
        kinds.append(0)  # end of text
        texts.append("")
        self.kinds, self.texts, self.at, self.depth = kinds, texts, 0, 0

    def _take(self, punctuation: str) -> None:
        if self.kinds[self.at] != _PUNCT or self.texts[self.at] != punctuation:
            raise _GiveUp
        self.at += 1

    def _next_is(self, punctuation: str) -> bool:
        return self.kinds[self.at] == _PUNCT and self.texts[self.at] == punctuation

    def expression(self, loosest: int = 1) -> Node:
        left = self.unary()
        while self.kinds[self.at] == _PUNCT:
            op = self.texts[self.at]
            strength = _BINARY.get(op, 0)
            if strength < loosest:
                break
            self.at += 1
            left = fold_binop(op, left, self.expression(strength + 1))
        return left

    def unary(self) -> Node:
        """Every level of nesting passes here (a unary operator, or a primary's parentheses, brackets or call)."""
        self.depth += 1
        if self.depth > _READER_NESTING:
            raise _GiveUp
        kind, text = self.kinds[self.at], self.texts[self.at]
        if kind == _PUNCT and text in ("-", "+", "~"):
            self.at += 1
            node = unop(text, self.unary())
        else:
            node = self.primary()
        self.depth -= 1
        return node

    def primary(self) -> Node:
        kind, text = self.kinds[self.at], self.texts[self.at]
        self.at += 1
        if kind == _WORD:
            if self._next_is("["):
                self.at += 1
                first = self.expression()
                last = None
                if self._next_is(":"):
                    self.at += 1
                    last = self.expression()
                self._take("]")
                return reg_range(text, first, last)
            if self._next_is("("):
                self.at += 1
                return call(text, self._items_until(")"))
            return Sym(text)
        if kind == _NUMBER:
            return number(text)
        if kind == _FLOAT:
            return Num(float(text))
        if kind == _LOCAL:
            return local_ref(text)
        if kind == _PUNCT:
            if text == "(":
                inner = self.expression()
                self._take(")")
                return inner
            if text == "[":
                return ListExpr(tuple(map(as_operand, self._items_until("]"))))
            if text == "|":
                inner = self.unary()
                self._take("|")
                return Abs(as_operand(inner))
        raise _GiveUp

    def _items_until(self, closer: str) -> tuple[Node, ...]:
        """`[expr ("," expr)*]` then the closer."""
        if self._next_is(closer):
            self.at += 1
            return ()
        items = [self.expression()]
        while self._next_is(","):
            self.at += 1
            items.append(self.expression())
        self._take(closer)
        return tuple(items)

    def groups(self) -> list[list[Node | Modifier]]:
        """`[group ("," group)* [","]]` to the end of the text."""
        groups: list[list[Node | Modifier]] = []
        kinds, texts = self.kinds, self.texts
        while kinds[self.at]:
            group: list[Node | Modifier] = []
            while True:
                kind = kinds[self.at]
                if kind == _WORD and kinds[self.at + 1] == _PUNCT and texts[self.at + 1] == ":":
                    name = texts[self.at].lower()
                    self.at += 2
                    group.append(("modifier", name, self.expression()))
                elif kind in (_WORD, _NUMBER, _FLOAT, _LOCAL) or (kind == _PUNCT and texts[self.at] in _ITEM_START):
                    group.append(self.expression())
                else:
                    raise _GiveUp
                if not kinds[self.at]:
                    break
                if self._next_is(","):
                    self.at += 1
                    break
            groups.append(group)
        return groups

    def expressions(self) -> tuple[Node, ...]:
        """`[expr ("," expr)*]` to the end of the text."""
        if not self.kinds[self.at]:
            return ()
        items = [as_operand(self.expression())]
        while self._next_is(","):
            self.at += 1
            items.append(as_operand(self.expression()))
        if self.kinds[self.at]:
            raise _GiveUp
        return tuple(items)


def _read_statement(text: str) -> Statement | None:
    """The statement by the hand-written reader, or None when the grammar must read it."""
    if is_unusual(text):
        return None
    labels: list[str] = []
    at, size = 0, len(text)
    try:
        while True:
            while at < size and text[at] in " \t":
                at += 1
            if at == size:
                return labelled(tuple(labels), None)
            word = _NAME.match(text, at)
            if word is None:
                if not text[at].isdigit():
                    return None
                end = at
                while end < size and text[end].isdigit():
                    end += 1
                if text[end : end + 1] != ":":
                    return None
                labels.append(text[at:end])
                at = end + 1
                continue
            end = word.end()
            name = word.group()
            if text[end : end + 1] == ":":
                labels.append(name)
                at = end + 1
                continue
            rest = text[end:].lstrip(" \t")
            if rest[:1] == "=":
                return None  # an assignment
            if name[0] == ".":
                if name[1:2] in ("", ".", "$") or name[1].isdigit():
                    return None
                return Statement("directive", name.lower(), tuple(labels), args=rest.strip())
            if "$" in name or (rest and text[end] not in " \t"):
                return None
            return labelled(tuple(labels), operation(name, _Reader(rest).groups()))
    except (_GiveUp, RecursionError, ValueError):
        return None


def _read_expressions(text: str) -> tuple[Node, ...] | None:
    if is_unusual(text):
        return None
    try:
        return _Reader(text).expressions()
    except (_GiveUp, RecursionError, ValueError):
        return None


# ----------------------------------------------------------------- entry points

#: parsed statements by text: kept whole, the ~160k distinct texts of a million-line file were a fifth of its peak memory
_statements: Remembered[str, Statement | ParseFailure] = Remembered(16384)


def parse_statement(text: str) -> Statement | ParseFailure:
    """Parse one comment-free statement; results are shared between identical texts."""
    cached = _statements.get(text)
    if cached is None:
        cached = _read_statement(text)
        if cached is None:
            from .grammar import grammar_statement

            cached = grammar_statement(text)
        if text.endswith(",") and isinstance(cached, Statement):
            cached = _unfinished_counter_list(cached, text) or cached
        _statements.add(text, cached)
    return cached


#: Instructions whose named counters llvm-mc reads as one list to the end of the statement: a comma after the last
#: (`s_waitcnt vmcnt(0),`) asks for another ("expected a counter name"), where a trailing comma after other operands,
#: and after a plain number here, is taken.
_COUNTER_LISTS: Final = frozenset(("s_waitcnt", "s_waitcnt_depctr"))


def _unfinished_counter_list(statement: Statement, text: str) -> ParseFailure | None:
    """llvm-mc's refusal of a counter list `text` (ending with a comma) leaves unfinished, or None."""
    if statement.kind == "instruction" and statement.name.lower() in _COUNTER_LISTS and any(
            isinstance(operand, Call) for operand in statement.operands):
        return ParseFailure("expected a counter name", len(text) + 1)
    return None


@lru_cache(maxsize=8192)
def parse_expressions(text: str) -> tuple[Node, ...] | ParseFailure:
    """Parse a comma-separated expression list (directive arguments)."""
    fast = _read_expressions(text)
    if fast is None:
        from .grammar import grammar_expressions

        read = grammar_expressions(text)
    else:
        read = fast
    if not isinstance(read, ParseFailure) and nests_deeper_than(read, MAX_NESTING):
        return ParseFailure(str(NestedTooDeeply()), 1)
    return read
