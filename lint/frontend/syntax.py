"""Statement parser: the Lark grammar in grammars/amdgpu_asm.lark, memoized on statement text.

Real kernels repeat most of their lines (unrolled loops, macro bodies), so every distinct
comment-free statement text is parsed once and the immutable result is shared.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from importlib import resources

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from ..expr import EvalError, binary_op
from ..nodes import (
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
    Statement,
    Str,
    Sym,
    UnOp,
    mentions_symbols,
    register_from_name,
)

#: Operand words that are instruction modifiers, never operands, wherever they appear.
MODIFIER_WORDS = frozenset(
    """glc slc dlc nt sc0 sc1 scc_mod offen idxen addr64 lds gds tfe lwe unorm da r128 a16 d16
    clamp done vm compr row_en high nv""".split()
)


@dataclass(frozen=True, slots=True)
class ParseFailure:
    """A statement the grammar rejected; `column` is 1-based within the statement text."""

    message: str
    column: int


def _fold_binop(op: str, left: Node, right: Node) -> Node:
    if isinstance(left, Num) and isinstance(right, Num) and isinstance(left.value, int) and isinstance(right.value, int):
        try:
            return Num(binary_op(op, left.value, right.value))
        except EvalError:
            pass
    return BinOp(op, left, right)


def _as_int(node: Node) -> int | None:
    return node.value if isinstance(node, Num) and isinstance(node.value, int) else None


class _ToNodes(Transformer):
    """Builds nodes directly while parsing (Lark's inline-transformer mode)."""

    def number(self, children):
        text = str(children[0])
        if text[:2] in ("0x", "0X"):
            return Num(int(text, 16))
        if text[:2] in ("0b", "0B"):
            return Num(int(text, 2))
        if len(text) > 1 and text[0] == "0":
            return Num(int(text, 8)) if all(c in "01234567" for c in text) else Num(int(text))
        return Num(int(text))

    def float(self, children):
        return Num(float(children[0]))

    def string(self, children):
        return Str(str(children[0])[1:-1])

    def local_ref(self, children):
        text = str(children[0])
        return LocalRef(int(text[:-1]), text[-1] == "f")

    def symbol(self, children):
        # a name is a register only where an operand stands (see _operand); inside an expression
        # such as a register index `v[acc0 + 1]` it is a symbol, as llvm-mc reads it
        return Sym(str(children[0]))

    def reg_range(self, children):
        name, first, last = str(children[0]), children[1], children[2]
        kind = REGISTER_PREFIXES.get(name.lower())
        if kind is None:
            return Call(f"{name}[]", (first,) if last is None else (first, last))
        lo = _as_int(first)
        hi = lo if last is None else _as_int(last)
        if lo is not None and hi is not None:
            return Reg(kind, lo, hi - lo + 1)
        return RegExpr(kind, first, last)

    def call(self, children):
        name = str(children[0])
        args = tuple(child for child in children[1:] if child is not None)
        return Call(name.lower() if name.lower() in ("neg", "abs", "sext") else name, tuple(map(_operand, args)))

    def list(self, children):
        return ListExpr(tuple(_operand(child) for child in children if child is not None))

    def abs(self, children):
        return Abs(_operand(children[1]))

    def binop(self, children):
        return _fold_binop(str(children[1]), children[0], children[2])

    def unop(self, children):
        op, operand = str(children[0]), _operand(children[1])
        if isinstance(operand, Num):
            if op == "-":
                return Num(-operand.value)
            if op == "+":
                return operand
            if op == "~" and isinstance(operand.value, int):
                return Num(~operand.value)
        return UnOp(op, operand)

    def modifier(self, children):
        return ("modifier", str(children[0]).lower(), children[1])

    def group(self, children):
        return children

    def exprlist(self, children):
        return tuple(_operand(child) for child in children if child is not None)

    def label(self, children):
        return ("label", str(children[0])[:-1].strip('"'))  # "a-b": a quoted symbol name

    def instruction(self, children):
        first, second = children[0], children[2]
        if second is None:
            return first
        return Statement(
            "instruction", first.name, operands=first.operands, modifiers=first.modifiers,
            resolved=first.resolved and second.resolved, pair=second,
        )

    def operation(self, children):
        mnemonic = str(children[0]).lower()
        operands: list[Node] = []
        modifiers: list[tuple[str, Node | None]] = []
        for group in children[1:]:
            if group is None:
                continue
            for position, item in enumerate(group):
                if isinstance(item, tuple):
                    modifiers.append((item[1], item[2]))
                elif isinstance(item, Sym) and (_is_modifier_word(item.name.lower(), mnemonic, position) or (
                        position > 0 and register_from_name(item.name) is None)):
                    modifiers.append((item.name.lower(), None))
                else:
                    operands.append(_operand(item))
        return Statement(
            "instruction",
            mnemonic,
            operands=tuple(operands),
            modifiers=tuple(modifiers),
            resolved=not any(mentions_symbols(node) for node in (*operands, *(v for _, v in modifiers if v is not None))),
        )

    def directive(self, children):
        return Statement("directive", str(children[0]).lower(), args=str(children[1] or "").strip())

    def assignment(self, children):
        return Statement("assignment", str(children[0]), args=str(children[2]).strip())

    def start(self, children):
        labels = tuple(child[1] for child in children if isinstance(child, tuple))
        body = children[-1] if children and isinstance(children[-1], Statement) else Statement("empty")
        return replace(body, labels=labels) if labels else body


def _operand(node: Node) -> Node:
    """A name standing as an operand is a register when it spells one (`v0`, `acc3`, `vcc_lo`)."""
    if isinstance(node, Sym):
        return register_from_name(node.name) or node
    return node


def _is_modifier_word(word: str, mnemonic: str, position: int = 0) -> bool:
    # `a16` is the AGPR a16 everywhere but in image instructions, where it is the 16-bit-address bit;
    # `scc` after another item of a group is gfx90a's cache-coherence bit, not the register
    return (word in MODIFIER_WORDS and (word != "a16" or mnemonic.startswith("image_"))) or (word == "scc" and position > 0)


_TOKEN_WORDS = {
    "NAME": "a name", "MNEMONIC": "an instruction", "DIRECTIVE": "a directive", "LABEL": "a label",
    "NUMBER": "a number", "FLOAT": "a number", "STRING": "a string", "COMMA": "','",
    "LSQB": "'['", "RSQB": "']'", "LPAR": "'('", "RPAR": "')'", "COLON": "':'", "PIPE": "'|'",
    "MINUS": "'-'", "PLUS": "'+'", "$END": "end of statement", "REST": "arguments",
    "LOCAL_REF": "a local label", "EQUALS": "'='",
}


def _describe_expected(expected: set[str]) -> str:
    words = sorted({_TOKEN_WORDS.get(name, name.lower()) for name in expected})
    if "a name" in words and "a number" in words:
        words = [w for w in words if w not in ("a name", "a number", "a string", "a local label")] + [
            "an operand"
        ]
    if len(words) > 6:
        return "an operand or an expression"
    return ", ".join(words[:-1]) + (" or " if len(words) > 1 else "") + words[-1]


@lru_cache(maxsize=1)
def _parser() -> Lark:
    grammar = resources.files("amdgpu_lint.grammars").joinpath("amdgpu_asm.lark").read_text()
    return Lark(
        grammar,
        parser="lalr",
        start=["start", "exprlist"],
        transformer=_ToNodes(),
        maybe_placeholders=True,
        propagate_positions=False,
        cache=True,  # LALR tables pickled under the temp dir, keyed by grammar and options
    )


def _failure(error: UnexpectedInput, text: str) -> ParseFailure:
    column = getattr(error, "column", None) or 1
    if isinstance(error, UnexpectedCharacters):
        found = text[error.pos_in_stream] if error.pos_in_stream < len(text) else "end of statement"
        return ParseFailure(f"unexpected character '{found}'", column)
    if isinstance(error, UnexpectedEOF):
        return ParseFailure(f"statement ends early; expected {_describe_expected(set(error.expected))}", len(text) + 1)
    if isinstance(error, UnexpectedToken):
        token: Token = error.token
        found = "end of statement" if token.type == "$END" else f"'{token}'"
        if token.type == "$END":
            column = len(text) + 1
        return ParseFailure(f"unexpected {found}; expected {_describe_expected(set(error.expected))}", column)
    return ParseFailure(str(error).splitlines()[0], column)


_statement_cache: dict[str, Statement | ParseFailure] = {}


def parse_statement(text: str) -> Statement | ParseFailure:
    """Parse one comment-free statement; results are shared between identical texts."""
    cached = _statement_cache.get(text)
    if cached is None:
        try:
            cached = _parser().parse(text, start="start")
        except UnexpectedInput as error:
            cached = _failure(error, text)
        except RecursionError:
            cached = ParseFailure("expression nested too deeply", 1)
        _statement_cache[text] = cached
    return cached


@lru_cache(maxsize=65536)
def parse_expressions(text: str) -> tuple[Node, ...] | ParseFailure:
    """Parse a comma-separated expression list (directive arguments)."""
    try:
        return _parser().parse(text, start="exprlist")
    except UnexpectedInput as error:
        return _failure(error, text)
    except RecursionError:
        return ParseFailure("expression nested too deeply", 1)
