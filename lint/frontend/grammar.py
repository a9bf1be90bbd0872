"""The Lark grammar (grammars/amdgpu_asm.lark): the statements the hand-written reader in
syntax.py leaves, and the message and column of every statement that does not parse.

Imported on first use only: compiler output rarely needs it, and loading Lark costs a small
file most of its time.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from ..model.nodes import Abs, ListExpr, Node, Num, Statement, Str, Sym
from .syntax import (
    LiteralOutOfRange,
    NestedTooDeeply,
    ParseFailure,
    as_operand,
    call,
    fold_binop,
    labelled,
    local_ref,
    number,
    operation,
    record,
    reg_range,
    unop,
)


class _ToNodes(Transformer):
    """Builds nodes directly while parsing (Lark's inline-transformer mode), with syntax.py's builders."""

    def number(self, children):
        return number(str(children[0]))

    def float(self, children):
        return Num(float(children[0]))

    def string(self, children):
        return Str(str(children[0])[1:-1])

    def local_ref(self, children):
        return local_ref(str(children[0]))

    def symbol(self, children):
        # a name is a register only where an operand stands (see as_operand); inside an expression
        # such as a register index `v[acc0 + 1]` it is a symbol, as llvm-mc reads it
        return Sym(str(children[0]))

    def reg_range(self, children):
        return reg_range(str(children[0]), children[1], children[2])

    def call(self, children):
        return call(str(children[0]), tuple(child for child in children[1:] if child is not None))

    def list(self, children):
        return ListExpr(tuple(as_operand(child) for child in children if child is not None))

    def record(self, children):
        return record(tuple(child for child in children if child is not None))

    def field(self, children):
        return (str(children[0]), children[1])

    def abs(self, children):
        return Abs(as_operand(children[1]))

    def binop(self, children):
        return fold_binop(str(children[1]), children[0], children[2])

    def unop(self, children):
        return unop(str(children[0]), children[1])

    def modifier(self, children):
        return ("modifier", str(children[0]).lower(), children[1])

    def group(self, children):
        return children

    def exprlist(self, children):
        return tuple(as_operand(child) for child in children if child is not None)

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
        return operation(str(children[0]), [group for group in children[1:] if group is not None])

    def directive(self, children):
        return Statement("directive", str(children[0]).lower(), args=str(children[1] or "").strip())

    def assignment(self, children):
        return Statement("assignment", str(children[0]), args=str(children[2]).strip())

    def start(self, children):
        labels = tuple(child[1] for child in children if isinstance(child, tuple))
        return labelled(labels, children[-1] if children and isinstance(children[-1], Statement) else None)


_TOKEN_WORDS = {
    "NAME": "a name", "MNEMONIC": "an instruction", "DIRECTIVE": "a directive", "LABEL": "a label",
    "NUMBER": "a number", "FLOAT": "a number", "STRING": "a string", "COMMA": "','",
    "LSQB": "'['", "RSQB": "']'", "LBRACE": "'{'", "RBRACE": "'}'", "LPAR": "'('", "RPAR": "')'", "COLON": "':'", "PIPE": "'|'",
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
        position: int | None = getattr(error, "pos_in_stream", None)  # lark declares it None
        found = text[position] if position is not None and position < len(text) else "end of statement"
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


def _parse(text: str, start: str):
    try:
        return _parser().parse(text, start=start)
    except UnexpectedInput as error:
        return _failure(error, text)
    except RecursionError:
        return ParseFailure("expression nested too deeply", 1)
    except (LiteralOutOfRange, NestedTooDeeply) as refused:  # a name of its own: mypyc types a name once per function
        return ParseFailure(str(refused), 1)


def grammar_statement(text: str) -> Statement | ParseFailure:
    """One statement by the grammar."""
    return _parse(text, "start")


def grammar_expressions(text: str) -> tuple[Node, ...] | ParseFailure:
    """A comma-separated expression list by the grammar."""
    return _parse(text, "exprlist")
