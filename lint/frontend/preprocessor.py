"""The GNU-as preprocessor layer: macros, repetition, conditionals, symbols and includes.

It reads source lines, expands `.macro/.rept/.irp/.irpc`, follows `.if` families and
`.include`, evaluates `.set/.equ/=` symbols, handles the C-preprocessor subset hand-written
.S kernels use (`#include`, object-like `#define`, `#if` families; in `.s` files a `#` line is a
comment, as llvm-mc reads it), and emits parsed
statements, each with its provenance (source line plus the expansion chain).
Runaway expansion stops with a diagnostic instead of hanging.
"""

from __future__ import annotations

import os
import re
from bisect import bisect_left
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path

from ..model.expr import EvalError, Functions, Value, evaluate
from ..model.ir import CodeLines, ExpansionStep, Finding, Provenance, SourceFile, SourceLine
from ..model.nodes import (
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
    Sym,
    UnOp,
    mentions_symbols,
    register_from_name,
    within_register_files,
)
from ..model.targets import LARGEST_REGISTER_FILES
from .options import DEFAULT_EXPANSION_BUDGET, DEFAULT_STATEMENT_BUDGET
from .register_symbols import RegisterSymbols
from .source import read_source
from .syntax import MODIFIER_WORDS, ParseFailure, is_unusual, parse_expressions, parse_statement

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final

#: LLVM's assembler refuses macros nested deeper than this.
MAX_MACRO_DEPTH = 20
MAX_INCLUDE_DEPTH = 32
#: Instruction statements longer than this are not parsed (no real instruction comes close).
MAX_INSTRUCTION_CHARS: Final = 65536
#: Characters one macro expansion or one `.irp` pass may make: a recursive macro that passes on its argument
#: written twice doubles it at each level.
MAX_EXPANSION_CHARS = 1 << 22
#: Characters the macro and `.irp` expansions of one file may make in all: each distinct statement text costs a
#: parse, so this bounds the parsing expansions cause (an `.irp` of 20,000 items in a 48 KB line took minutes).
EXPANSION_TEXT_BUDGET = 1 << 24
#: Files that go through the C preprocessor before the assembler (clang's `.S` and `.sx`).
CPP_SUFFIXES = (".S", ".sx")

#: Raw blocks: opening directive -> closing directive. Their lines are not assembly.
RAW_BLOCKS = {
    ".amdgpu_metadata": ".end_amdgpu_metadata",
    ".amd_kernel_code_t": ".end_amd_kernel_code_t",
    ".amd_amdgpu_hsa_metadata": ".end_amd_amdgpu_hsa_metadata",
    ".amdgpu_pal_metadata": ".end_amdgpu_pal_metadata",
}

_IF_DIRECTIVES = frozenset(
    [".if", ".ifdef", ".ifndef", ".ifnotdef", ".ifeq", ".ifne", ".ifgt", ".ifge", ".iflt", ".ifle", ".ifc", ".ifnc", ".ifeqs", ".ifnes", ".ifb", ".ifnb"]
)
_REPEAT_DIRECTIVES = frozenset((".rept", ".rep", ".irp", ".irpc"))  # .rep is .rept
_HANDLED: Final = frozenset(
    [".macro", ".endm", ".endmacro", ".exitm", ".purgem", ".endr", ".else", ".elseif", ".endif", ".include", ".set", ".equ", ".equiv", ".eqv", ".err", ".error", ".warning", ".altmacro", ".noaltmacro"]
) | _IF_DIRECTIVES | _REPEAT_DIRECTIVES | frozenset(RAW_BLOCKS)

_FIRST_WORD: Final = re.compile(r"([A-Za-z_.$][\w.$]*)")
_ASSIGNMENT: Final = re.compile(r"([A-Za-z_.$][\w.$]*)\s*=(?!=)\s*(.*)\Z")
_SUBSTITUTION = re.compile(r"\\(\(\)|@|[A-Za-z_][\w]*)")
_KERNEL_SCOPE_COUNTS = {".kernel.vgpr_count": "v", ".kernel.sgpr_count": "s"}
#: Names `lookup` may answer without a definition.
_ANSWERED_NAMES: Final = frozenset((".", ".amdgcn.next_free_vgpr", ".amdgcn.next_free_sgpr", *_KERNEL_SCOPE_COUNTS))
_LOCATION = re.compile(r"(?<![\w.$])\.(?![\w.$])")
_DOT_NOT_BEFORE_A_NAME = re.compile(r"\.(?![\w.$])")
_NAME_CHAR = re.compile(r"[\w.$]")
#: bytes per value of the data directives
_DATA_SIZES = {".byte": 1, ".short": 2, ".hword": 2, ".2byte": 2, ".value": 2, ".long": 4, ".int": 4, ".4byte": 4,
               ".word": 4, ".quad": 8, ".8byte": 8}
_SIZED_DIRECTIVES = frozenset(_DATA_SIZES) | {".zero", ".space", ".skip", ".fill", ".p2align", ".balign", ".align"}
_BARE_PARAMETER = re.compile(r"(?<![\w.$\\])(\\?)([A-Za-z_.$][\w.$]*)&?")
_CALL_FOLLOWS = re.compile(r"[ \t]*\(")  # what makes a name a keyword with a value: `vmcnt(0)`, `hwreg(...)`
_MACRO_PARAM = re.compile(r"([A-Za-z_][\w]*)\s*(?::\s*(req|vararg))?\s*(?:=\s*(\"[^\"]*\"|[^,\s]+))?")
_OPERATOR_CHARS = frozenset("+-*/%|&^<>=!~")
_CPP = re.compile(r"#\s*([A-Za-z_]\w*)?\s*(.*)\Z")
_DEFINED = re.compile(r"defined\s*(?:\(\s*([A-Za-z_]\w*)\s*\)|([A-Za-z_]\w*))")
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")


def _clobber_message(macro: str, clobbered: list[tuple[str, str]], text: str) -> str:
    """What LLVM 22 makes of a line where .altmacro put parameter values in place of keywords."""
    names = ", ".join(f"'{name}(' became '{value}('" for name, value in dict.fromkeys(clobbered))
    return (f"macro '{macro}' has parameters named like keywords: under .altmacro LLVM 22 substitutes bare parameter "
            f"names, so {names} and the line reads '{text.strip()}', which llvm-mc 22 rejects; LLVM 14 substituted "
            "only '\\name' (assembler-compat = \"llvm14\" in the configuration reads the file that way): rename the "
            "parameters, or write the statement outside .altmacro")


#: The names hwreg(...) and sendmsg(...) take, which llvm-mc reads as names even where a symbol is so named.
_FIELD_NAMES = ("HW_REG_", "MSG_", "GS_OP_", "SYSMSG_OP_")

class _ExpansionTooLarge(Exception):
    """An expansion would make more than MAX_EXPANSION_CHARS characters, or more than the file has left."""


@dataclass(slots=True, repr=False, eq=False, init=False)
class MacroParam:
    """A `.macro` parameter."""

    name: str
    default: str = ""
    required: bool = False
    vararg: bool = False

    def __init__(self, name: str, default: str = "", required: bool = False, vararg: bool = False) -> None:
        self.name = name
        self.default = default
        self.required = required
        self.vararg = vararg


@dataclass(slots=True, repr=False, eq=False, init=False)
class Macro:
    """A `.macro` definition: parameters and body lines."""

    name: str
    params: list[MacroParam]
    body: list[SourceLine]
    where: Provenance

    def __init__(self, name: str, params: list[MacroParam], body: list[SourceLine], where: Provenance) -> None:
        self.name = name
        self.params = params
        self.body = body
        self.where = where


@dataclass(slots=True, repr=False, eq=False, init=False)
class _Condition:
    """An open `.if` and the state of its branches."""

    active: bool  # this branch's lines are processed
    decided: bool  # some branch of this .if was (or can no longer be) taken
    line: SourceLine
    seen_else: bool = False

    def __init__(self, active: bool, decided: bool, line: SourceLine, seen_else: bool = False) -> None:
        self.active = active
        self.decided = decided
        self.line = line
        self.seen_else = seen_else


@dataclass(slots=True, repr=False, eq=False, init=False)
class _Frame:
    """Lines being read: a file or one expansion, with its expansion chain."""

    lines: Sequence[SourceLine]  # a whole file's CodeLines, or an expansion's lines
    chain: tuple[ExpansionStep, ...]
    source: SourceFile | None = None  # set for whole-file frames
    macro_depth: int = 0
    is_macro: bool = False
    index: int = 0
    conditions: list[_Condition] = field(default_factory=list)
    iterations: Iterator[list[SourceLine]] | None = None  # further passes of a .rept/.irp body

    def __init__(self, lines: Sequence[SourceLine], chain: tuple[ExpansionStep, ...], source: SourceFile | None = None,
                 macro_depth: int = 0, is_macro: bool = False, index: int = 0,
                 conditions: list[_Condition] | None = None,
                 iterations: Iterator[list[SourceLine]] | None = None) -> None:
        self.lines = lines
        self.chain = chain
        self.source = source
        self.macro_depth = macro_depth
        self.is_macro = is_macro
        self.index = index
        self.conditions = [] if conditions is None else conditions
        self.iterations = iterations


#: What the preprocessor emits: a statement, where it came from, and the body text of a raw block
#: (.amdgpu_metadata ...; "" for every other statement). A plain tuple: a file emits one a statement.
Emitted = tuple[Statement, Provenance, str]


@dataclass(slots=True, repr=False, init=False, eq=False)
class _Plain:
    """A statement text that needs no preprocessing: no directive of this layer, no assignment, parsed,
    and (for an instruction) free of symbols while its names are none; with the registers it reaches, for
    `.amdgcn.next_free_*`."""

    statement: Statement
    first_word: str  # a macro of this name would take the line instead ("" when it cannot)
    vgpr_end: int
    sgpr_end: int
    names: frozenset[str]  # names an instruction mentions: while none is a symbol, `statement` is as resolved

    def __init__(self, statement: Statement, first_word: str, vgpr_end: int, sgpr_end: int,
                 names: frozenset[str]) -> None:
        self.statement = statement
        self.first_word = first_word
        self.vgpr_end = vgpr_end
        self.sgpr_end = sgpr_end
        self.names = names

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, _Plain) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.statement, self.first_word, self.vgpr_end, self.sgpr_end, self.names) == (
            other.statement, other.first_word, other.vgpr_end, other.sgpr_end, other.names)


@dataclass(slots=True, repr=False, eq=False, init=False)
class PlainRun:
    """Consecutive plain statements of one file, read from its code lines `first` on, the last of them the
    only one with labels; what `run` hands on for most of a file (shared statements: who keeps them makes
    their provenance)."""

    statements: list[Statement]
    lines: CodeLines
    first: int
    chain: tuple[ExpansionStep, ...]

    def __init__(self, statements: list[Statement], lines: CodeLines, first: int,
                 chain: tuple[ExpansionStep, ...]) -> None:
        self.statements = statements
        self.lines = lines
        self.first = first
        self.chain = chain


#: `.set name, 12`, a symbol set to a decimal number: compilers write little else in `.set`
_CONSTANT_SET: Final = re.compile(r"\.set[ \t]+([A-Za-z_.$][\w.$]*)[ \t]*,[ \t]*(0|[1-9][0-9]{0,18})\Z")
_UNSEEN: Final[Any] = object()  # a text not looked up yet (None: looked up, not plain)
#: distinct statement texts whose preprocessing is remembered (repeated lines share one parse)
_PLAIN_TEXTS_KEPT: Final = 8192
#: plain statements handed on together at most
_PLAIN_RUN_MAX: Final = 4096
#: lines whose offsets the plain run reads at a time
_OFFSETS_WINDOW: Final = 512


#: Directives that go the general way: one opens a kernel scope; the builder evaluates the other as it
#: arrives, with this layer's state as it stands after it (a PlainRun leaves the state after its last one).
#: Directives only code object v2 files assemble (LLVM 14 and older did; LLVM 22 refuses them). In an
#: active region they switch an undecided .altmacro reading to LLVM 14's.
CODE_OBJECT_V2_MARKS = (".hsa_code_object_version", ".hsa_code_object_isa")
_NOT_PLAIN_DIRECTIVES: Final = frozenset((".amdgpu_hsa_kernel", ".amdhsa_code_object_version", *CODE_OBJECT_V2_MARKS))


#: The shapes of most distinct lines of a compiler listing (one per label or symbol), read without the statement
#: reader, as it reads them: a label alone, a directive, a branch to a label
_LABEL_ALONE: Final = re.compile(r"([A-Za-z_.][\w.]*):\Z", re.ASCII)
_DIRECTIVE: Final = re.compile(r"(\.[A-Za-z_][\w.]*)(?:[ \t]+([^=].*))?\Z", re.ASCII)
_BRANCH_TO_LABEL: Final = re.compile(r"(s_branch|s_cbranch_[a-z0-9_]+)[ \t]+([A-Za-z_.][\w.]*)\Z", re.ASCII)


def _plain(text: str) -> _Plain | None:
    """What `Preprocessor._process` would find for `text` whatever the state, or None if it depends on it."""
    return _plain_shape(text) or _plain_read(text)


def _plain_shape(text: str) -> _Plain | None:
    """`_plain_read` of a label, a directive or a branch to a label, without reading the statement; None for
    other texts and where the reader may read it otherwise (a name of this layer's directives, a register or
    modifier name as a branch target, an unusual character)."""
    label_alone = _LABEL_ALONE.match(text) if text[-1] == ":" else None
    if label_alone is not None:
        if label_alone.group(1).lower() in _HANDLED:
            return None
        return _Plain(Statement("empty", labels=(label_alone.group(1),)), "", 0, 0, frozenset())
    if text[0] == ".":
        directive = _DIRECTIVE.match(text)
        if directive is None or is_unusual(text):
            return None
        name = directive.group(1).lower()
        if name in _HANDLED or name in _NOT_PLAIN_DIRECTIVES:
            return None
        args = directive.group(2)
        return _Plain(Statement("directive", name, args=args.strip() if args else ""), directive.group(1), 0, 0,
                      frozenset())
    branch = _BRANCH_TO_LABEL.match(text)
    if branch is None or len(text) > MAX_INSTRUCTION_CHARS:
        return None
    mnemonic, label = branch.groups()
    if label.lower() in MODIFIER_WORDS or label in _ANSWERED_NAMES or register_from_name(label) is not None:
        return None
    return _Plain(Statement("instruction", mnemonic, operands=(Sym(label),), resolved=True), mnemonic, 0, 0,
                  frozenset((label,)))


def _plain_read(text: str) -> _Plain | None:
    """`_plain` by parsing the statement."""
    match = _FIRST_WORD.match(text)
    name, after = (match.group(1), match.end()) if match else ("", 0)
    if name.lower() in _HANDLED:
        return None
    first_word = name if name and text[after : after + 1] != ":" else ""
    if first_word and _ASSIGNMENT.match(text):
        return None
    if len(text) > MAX_INSTRUCTION_CHARS and not text.startswith("."):
        return None
    statement = parse_statement(text)
    if isinstance(statement, ParseFailure) or statement.name in _NOT_PLAIN_DIRECTIVES:
        return None
    ends = {"v": 0, "s": 0}
    names: frozenset[str] = frozenset()
    if statement.kind == "instruction":
        pair = statement.pair
        if not statement.resolved or (pair is not None and not pair.resolved):
            left_alone = _names_left_alone(statement)
            if left_alone is None:
                return None
            names = left_alone
            # what `_resolve_symbols` makes of it while none of `names` is a symbol: the same nodes, resolved
            statement = replace(statement, resolved=True, pair=None if pair is None else replace(pair, resolved=True))
        for operand in statement.operands + statement.pair.operands if statement.pair else statement.operands:
            if isinstance(operand, Reg) and operand.kind in ends:
                ends[operand.kind] = max(ends[operand.kind], operand.index + operand.count)
    return _Plain(statement, first_word, ends["v"], ends["s"], names)


def _names_left_alone(statement: Statement) -> frozenset[str] | None:
    """The names an instruction's operands and modifiers mention, when each would stay as it is unless it
    is a symbol (a branch target, `callee@rel32@lo+4`); None when resolving may change or reject more (a
    symbolic register index, a local label, a constant expression, a name `lookup` answers undefined)."""
    names: set[str] = set()
    nodes = [*statement.operands, *(value for _, value in statement.modifiers if value is not None)]
    if statement.pair is not None:
        nodes += [*statement.pair.operands, *(value for _, value in statement.pair.modifiers if value is not None)]
    while nodes:
        node = nodes.pop()
        if isinstance(node, Sym):
            names.add(node.name)
        elif isinstance(node, BinOp):
            if not mentions_symbols(node):
                return None  # a constant `_resolve_symbols` would work out
            nodes += (node.left, node.right)
        elif isinstance(node, (UnOp, Abs)):
            nodes.append(node.operand)
        elif isinstance(node, Call):
            nodes += node.args
        elif isinstance(node, ListExpr):
            nodes += node.items
        elif isinstance(node, (RegExpr, LocalRef)):
            return None
    return None if names & _ANSWERED_NAMES else frozenset(names)


def _angle_string_end(text: str, i: int) -> int | None:
    """Index just past the `>` closing the altmacro string that opens at text[i] (`!` escapes), or None."""
    j = i + 1
    while j < len(text):
        if text[j] == "!":
            j += 2
            continue
        if text[j] == ">":
            return j + 1
        j += 1
    return None


def split_macro_arguments(text: str, angle_strings: bool = False) -> list[tuple[int, str]]:
    """Split macro-call arguments (commas, or blanks not next to an operator); returns (start, text).
    With `angle_strings` (.altmacro), `<a, b>` is one argument."""
    args: list[tuple[int, str]] = []
    start: int | None = None
    depth, i, n = 0, 0, len(text)
    current: list[str] = []

    def finish() -> None:
        nonlocal start, current
        if start is not None:
            args.append((start, "".join(current).strip()))
        start, current = None, []

    while i < n:
        char = text[i]
        if angle_strings and char == "<" and start is None and (end := _angle_string_end(text, i)) is not None:
            start = i
            current.append(text[i:end])
            i = end
            continue
        if char == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            if start is None:
                start = i
            current.append(text[i : j + 1])
            i = j + 1
            continue
        if char in "([":
            depth += 1
        elif char in ")]":
            depth = max(0, depth - 1)
        if depth == 0 and char == ",":
            if start is None:
                args.append((i, ""))
            finish()
            i += 1
            continue
        if depth == 0 and char in " \t":
            j = i
            while j < n and text[j] in " \t":
                j += 1
            if j >= n:
                break
            previous = current[-1][-1:] if current and current[-1] else ""
            if text[j] == "," or (start is not None and (previous in _OPERATOR_CHARS or text[j] in _OPERATOR_CHARS)):
                i = j
                continue
            finish()
            i = j
            continue
        if start is None:
            start = i
        current.append(char)
        i += 1
    finish()
    return args


def _uses_location(source: SourceFile) -> bool:
    """Whether any line may use the location counter `.` (cheap, and errs towards yes). Code text
    lies in the file with the same neighbours or a comment's, so a file with no `.` anywhere has none."""
    if not any(dot.start() == 0 or not _NAME_CHAR.match(source.text, dot.start() - 1)
               for dot in _DOT_NOT_BEFORE_A_NAME.finditer(source.text)):
        return False  # (_LOCATION itself is slow on a whole file: no literal to search for first)
    return any("." in text and _LOCATION.search(text) for text in source.lines.texts())


_QUOTED = re.compile(r'"((?:\\.|[^"\\])*)"')
_ESCAPE = re.compile(r"\\([0-7]{1,3}|x[0-9a-fA-F]+|.)")
_NAMED_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f"}


def _unescape(text: str) -> str:
    """A quoted assembler string's text: octal, hex and C escapes as GNU as and llvm-mc read them."""
    def one(match: re.Match[str]) -> str:
        code = match.group(1)
        if code[0] in "01234567":
            return chr(int(code, 8))
        if code[0] == "x" and len(code) > 1:
            return chr(int(code[1:], 16) & 0xFF)
        return _NAMED_ESCAPES.get(code, code)

    return _ESCAPE.sub(one, text)


def _block_text(opening: SourceLine, body: list[SourceLine]) -> str:
    """A raw block's text as the assembler hands it on: comments gone, macro arguments substituted,
    indentation kept, and one text line per source line (so a YAML error maps back to its line)."""
    lines: list[str] = []
    for body_line in body:
        gap = body_line.number - opening.number - 1 - len(lines)
        if body_line.path == opening.path and gap > 0:
            lines += [""] * gap
        lines.append(" " * (body_line.column - 1) + body_line.text)
    return "\n".join(lines)


#: Directives that make the statement stream depend on more than each line (expansion, conditions, inclusion).
_EXPANDING_NAMES: Final = r"macro|rept|irpc?|if\w*|include|altmacro"


def _at_line_starts(pattern: re.Pattern[str], text: str) -> Iterator[re.Match[str]]:
    """The matches of `pattern` in `text` that only blanks precede on their line. (A pattern that starts
    with a literal is searched for at C speed; anchoring it with `^` and re.M would try every position.)"""
    for match in pattern.finditer(text):
        line_start = text.rfind("\n", 0, match.start()) + 1
        if not text[line_start : match.start()].strip(" \t"):
            yield match


@cache
def _expanding_or_opening(word: str, ascii_text: bool) -> re.Pattern[str]:
    """A directive that expands, conditions or includes (group 1), or a raw block's opening directive `word` (group
    2), in any case: one pass over the file finds both. In ASCII text it matches ASCII alone, which finds the same in
    two thirds of the time (it folds case by a table, where a Unicode pattern asks Unicode at every dot)."""
    name = word.removeprefix(".")
    # the letters the names start with, looked at first: most dots of a file start none, and the lookahead turns
    # them away in one step where the alternatives would try each name (a quarter of the search's time)
    letters = "".join(sorted({alternative[0] for alternative in _EXPANDING_NAMES.split("|")} | {name[:1]}))
    return re.compile(rf"\.(?=(?i:[{re.escape(letters)}]))(?i:({_EXPANDING_NAMES})\b|({re.escape(name)})(?![\w.$]))",
                      re.ASCII if ascii_text else 0)


def plain_block_texts(source: SourceFile, word: str) -> list[str] | None:
    """The bodies of `word` raw blocks (e.g. `.amdgpu_metadata`) as the preprocessor will hand them on,
    read ahead from the file; None when the file expands, conditions or includes anything (then only
    preprocessing can tell)."""
    lines = source.lines
    text = source.text
    if lines.cpp or lines.replaced:
        return None
    openings: list[int] = []
    for match in _at_line_starts(_expanding_or_opening(word, text.isascii()), text):
        if match.group(1) is not None:
            return None
        openings.append(match.start())
    closer = RAW_BLOCKS[word]
    starts = lines.starts
    texts: list[str] = []
    resume = 0  # code lines before this one are inside a block already read
    for opening in openings:
        index = bisect_left(starts, opening)
        if index < resume or index == len(starts) or starts[index] != opening:
            continue  # inside a block comment, or a block already read
        body: list[SourceLine] = []
        for inner in range(index + 1, len(starts)):
            found = _FIRST_WORD.match(lines.text_at(inner))
            first = found.group(1).lower() if found else ""
            if first == closer:
                break
            if first == word:
                return None  # nested: left to the preprocessor
            body.append(lines[inner])
        else:
            return None  # unterminated: the preprocessor reports it
        texts.append(_block_text(lines[index], body))
        resume = inner + 1
    return texts


class Preprocessor:
    """Turns one input file into a stream of parsed statements with provenance."""

    def __init__(
        self,
        include_dirs: list[str] | None = None,
        defsyms: dict[str, Value] | None = None,
        predefined: Mapping[str, Value] | None = None,
        statement_budget: int = DEFAULT_STATEMENT_BUDGET,
        expansion_budget: int = DEFAULT_EXPANSION_BUDGET,
        functions: Functions | None = None,
        size_of: Callable[[Statement], int | None] | None = None,
        register_files: dict[str, int] | None = None,
        bare_parameters: bool | None = True,
    ):
        self.include_dirs = [Path(d) for d in include_dirs or []]
        self.symbols: dict[str, Value | Node] = {**(predefined or {}), **(defsyms or {})}
        self.functions = functions or {}  # the processor's MC expression functions (extrasgprs, ...)
        #: how many registers of each file the target has: an operand beyond them is a MissingRegister
        self.register_files = register_files or LARGEST_REGISTER_FILES
        # the location counter `.`: bytes emitted so far per section (None once a size is unknown)
        self._size_of = size_of
        self._section = ".text"
        self._emitted: dict[str, list[Statement | None]] = {".text": []}  # per section; None: not recorded
        self._offsets: dict[str, list[int | None]] = {}  # their offsets, worked out on demand
        self._label_at: dict[str, tuple[str, int]] = {}  # label -> (section, position)
        self._with_labels = False  # label values are visible while evaluating an expression with `.`
        self._track_location = False  # only files that use `.` pay for recording statements
        self.macros: dict[str, Macro] = {}
        self.cpp = False  # whether '#' lines are C-preprocessor directives (.S files) or comments
        self.altmacro = False  # GNU as alternate macro mode: bare parameter names, %expr, <strings>
        #: whether .altmacro substitutes parameters named without `\` (LLVM 22 does, LLVM 14 did not);
        #: undecided (None): LLVM 22's until a code object v2 directive is assembled, then LLVM 14's
        self.bare_parameters = bare_parameters is not False
        self._compat_undecided = bare_parameters is None
        #: expanded lines where a bare parameter replaced a keyword before `(`: (the line, what happened)
        self._clobbered: dict[int, tuple[SourceLine, str]] = {}
        self.register_symbols = RegisterSymbols()  # counters, symbols counted from them, the registers they index
        self.cpp_defines: dict[str, str] = {}
        self._cpp_pattern: re.Pattern[str] | None = None
        self.findings: list[Finding] = []
        self.sources: dict[str, SourceFile] = {}
        self.statement_budget = statement_budget
        self.budget = statement_budget
        self.expansion_budget = expansion_budget
        self.expansion_left = expansion_budget  # of the statements expansions may still make
        self._budget_reported = False
        self._expansion_text_left = EXPANSION_TEXT_BUDGET
        self._macro_instantiations = 0  # the value of `\@`, as llvm-mc counts it
        self._aborted_macros: set[str] = set()
        self._stack: list[_Frame] = []
        self._next_free = {"v": 0, "s": 0}
        self._kernel_free = {"v": 0, "s": 0}  # `.kernel.vgpr_count` / `.kernel.sgpr_count` of the .amdgpu_hsa_kernel scope
        self._peeking: set[str] = set()  # deferred definitions being evaluated by `peek`
        # the plain run's window of a file's line offsets: (its lines, the first line's index, starts, ends)
        self._offsets_window: tuple[CodeLines | None, int, list[int], list[int]] = (None, 0, [], [])

    # ----------------------------------------------------------------- public API

    def run(self, source: SourceFile) -> Iterator[Emitted | PlainRun]:
        """Yield every statement of `source` after preprocessing (runs of a file's plain statements together)."""
        self.sources[source.path] = source
        self.cpp = source.path.endswith(CPP_SUFFIXES)
        self._track_location = _uses_location(source)
        self._stack = [_Frame(source.lines, (), source)]
        plain_texts: dict[str, _Plain | None] = {}
        while self._stack:
            frame = self._stack[-1]
            active = not frame.conditions or frame.conditions[-1].active
            if frame.source is not None and active and self._cpp_pattern is None:
                plain_run = self._plain_run(frame, frame.source, plain_texts)
                if plain_run is not None:
                    yield plain_run
            if frame.index >= len(frame.lines):
                self._close_frame(frame)
                following = next(frame.iterations, None) if frame.iterations else None
                if following is None:
                    self._stack.pop()
                else:
                    frame.lines, frame.index, frame.conditions = following, 0, []
                continue
            line = frame.lines[frame.index]
            frame.index += 1
            if self._clobbered and self._clobbered_line(line, frame):
                continue
            # the fast path in an expansion: a plain statement in an active region, with no #define or macro to apply
            if not line.is_cpp and active and self._cpp_pattern is None and self.budget > 0 and (
                    frame.source is not None or self.expansion_left > 0):
                plain = self._plain_text(line.text, plain_texts)
                if (plain is not None and plain.first_word not in self.macros
                        and self.symbols.keys().isdisjoint(plain.names)):
                    self._count(plain, frame.source is None)
                    yield plain.statement, Provenance(line.path, line.number, line.column, frame.chain), ""
                    continue
            yield from self._process(line, frame)
        self.findings.extend(self.register_symbols.findings())

    def _plain_text(self, text: str, known: dict[str, _Plain | None]) -> _Plain | None:
        """`_plain(text)`, remembered in `known`; an instruction naming a register the target does not have
        goes the general way (`_statement`), which puts a MissingRegister in its place."""
        seen = known.get(text, _UNSEEN)
        if seen is not _UNSEEN:
            return seen
        if len(known) >= _PLAIN_TEXTS_KEPT:
            known.clear()
        plain = _plain(text)
        if plain is not None and plain.statement.kind == "instruction" and \
                self._within_register_files(plain.statement) is not plain.statement:
            plain = None
        known[text] = plain
        return plain

    def _count(self, plain: _Plain, expanded: bool) -> None:
        """What a plain statement changes: the budgets, the next free registers and the location counter."""
        self.budget -= 1
        self.expansion_left -= expanded
        for counts in (self._next_free, self._kernel_free):
            counts["v"] = max(counts["v"], plain.vgpr_end)
            counts["s"] = max(counts["s"], plain.sgpr_end)
        if self._track_location:
            self._advance(plain.statement)

    def _plain_run(self, frame: _Frame, source: SourceFile, known: dict[str, _Plain | None]) -> PlainRun | None:
        """The fast path through a whole file (in an active region, no #define): the plain statements from
        where the frame stands (after any `.set` of a number), read from the file's offsets, up to the first
        line that needs more (None if it is the first). A plain statement changes no state of this layer but
        the budget, the next free registers and the location counter, so the region stays active and the
        macros the same. `source` is the whole file the frame reads."""
        lines = source.lines
        text, starts, ends, cpp = lines.text, lines.starts, lines.ends, lines.cpp
        odd = bool(cpp or lines.replaced)
        first = frame.index
        stop = min(len(lines), first + self.budget, first + _PLAIN_RUN_MAX)
        macros, track_location, symbols = self.macros, self._track_location, self.symbols
        statements: list[Statement] = []
        vgpr_end = sgpr_end = 0
        # the offsets are read as lists a window at a time (the window kept for the next run, which starts where this
        # one ends): compiled, reading an array element by index boxes the index and the element (two allocations
        # a read), where a list's are read in place
        window_lines, window_first, window_starts, window_ends = self._offsets_window
        if window_lines is not lines:
            window_first, window_starts, window_ends = 0, [], []
        for index in range(first, stop):
            offset = index - window_first
            if offset < 0 or offset >= len(window_starts):
                window_first, offset = index, 0
                window_starts = starts[index : index + _OFFSETS_WINDOW].tolist()
                window_ends = ends[index : index + _OFFSETS_WINDOW].tolist()
                self._offsets_window = (lines, window_first, window_starts, window_ends)
            if odd:
                if index in cpp:
                    break
                line_text = lines.text_at(index)
            else:
                line_text = text[window_starts[offset] : window_ends[offset]]
            # two names: `_UNSEEN` is typed Any, and a local typed Any is read attribute by attribute by name (by
            # dictionary lookups) in a compiled build, where `plain`, typed, reads its fields directly
            seen = known.get(line_text, _UNSEEN)
            plain: _Plain | None
            if seen is _UNSEEN:
                constant = _CONSTANT_SET.match(line_text) if line_text.startswith(".set") else None
                if constant is not None:  # `.set name, 12`: as `_define` would, without the general way
                    if statements:
                        break  # a run's statements are consecutive lines
                    name, value = constant.group(1, 2)
                    symbols[name] = int(value)
                    first = index + 1
                    continue
                plain = self._plain_text(line_text, known)
            else:
                plain = seen
            if plain is None or (macros and plain.first_word in macros) or (
                    plain.names and not symbols.keys().isdisjoint(plain.names)):
                break
            vgpr_end = max(vgpr_end, plain.vgpr_end)
            sgpr_end = max(sgpr_end, plain.sgpr_end)
            if track_location:
                self._advance(plain.statement)
            statements.append(plain.statement)
            if plain.statement.labels:
                break  # the builder may read this layer's state at a label (to hand code on): as it stands after it
        frame.index = first + len(statements)
        if not statements:
            return None
        self.budget -= len(statements)
        for counts in (self._next_free, self._kernel_free):
            counts["v"] = max(counts["v"], vgpr_end)
            counts["s"] = max(counts["s"], sgpr_end)
        return PlainRun(statements, lines, first, frame.chain)

    def peek(self, name: str) -> Value | None:
        """`lookup` that does not keep what a deferred definition evaluates to: what is read before the
        end of the file, while later definitions may still change it."""
        if name in self._peeking:
            return 0  # what `lookup` reads for a definition that refers to itself
        value = self.symbols.get(name)
        if value is None or isinstance(value, (int, float)):
            return self.lookup(name)
        self._peeking.add(name)
        try:
            return evaluate(value, self.peek, self.functions)
        except EvalError:
            return None
        finally:
            self._peeking.discard(name)

    def lookup(self, name: str) -> Value | None:
        """Symbol value for expression evaluation (deferred definitions evaluated on demand)."""
        value = self.symbols.get(name)
        if value is None:
            if name == "." and self._track_location:
                return self._location_of(self._section, len(self._emitted.get(self._section, [])))
            if self._with_labels and name in self._label_at:
                section, position = self._label_at[name]
                return self._location_of(section, position) if section == self._section else None
            if name in _KERNEL_SCOPE_COUNTS:
                return self._kernel_free[_KERNEL_SCOPE_COUNTS[name]]
            if name == ".amdgcn.next_free_vgpr":
                return self._next_free["v"]
            if name == ".amdgcn.next_free_sgpr":
                return self._next_free["s"]
            return None
        if isinstance(value, (int, float)):
            return value
        self.symbols[name] = 0  # guards against self-reference while evaluating
        try:
            result = evaluate(value, self.lookup, self.functions)
        except EvalError:
            self.symbols[name] = value
            return None
        self.symbols[name] = result
        return result

    # ----------------------------------------------------------------- helpers

    def _where(self, line: SourceLine, frame: _Frame, column: int | None = None) -> Provenance:
        return Provenance(line.path, line.number, column or line.column, frame.chain)

    def _report(self, rule: str, message: str, line: SourceLine, frame: _Frame, column: int | None = None) -> None:
        self.findings.append(Finding(rule, message, self._where(line, frame, column)))

    def _active(self, frame: _Frame) -> bool:
        return not frame.conditions or frame.conditions[-1].active

    def _close_frame(self, frame: _Frame) -> None:
        for condition in frame.conditions:
            self.findings.append(
                Finding("parse-error", "unterminated conditional: no matching .endif", self._where(condition.line, frame))
            )

    def _eval_text(self, text: str, line: SourceLine, frame: _Frame) -> Value | None:
        self._with_labels = _LOCATION.search(text) is not None  # `. - label`: a distance in bytes
        try:
            return self._evaluate_text(text, line, frame)
        finally:
            self._with_labels = False

    def _evaluate_text(self, text: str, line: SourceLine, frame: _Frame) -> Value | None:
        parsed = parse_expressions(text)
        if isinstance(parsed, ParseFailure):
            self._report("parse-error", f"bad expression '{text}': {parsed.message}", line, frame)
            return None
        if len(parsed) != 1:
            self._report("parse-error", f"expected one expression, found {len(parsed)}: '{text}'", line, frame)
            return None
        try:
            return evaluate(parsed[0], self.lookup, self.functions)
        except EvalError as error:
            self._report("parse-error", f"cannot evaluate '{text}': {error}", line, frame)
            return None

    def _substitute_cpp(self, text: str) -> str:
        """Replace #define names, rescanning the result as the C preprocessor does."""
        if self._cpp_pattern is None:
            return text
        for _ in range(16):
            replaced = self._cpp_pattern.sub(lambda m: self.cpp_defines[m.group(0)], text)
            if replaced == text:
                break
            text = replaced
        return text

    def _set_cpp_defines(self) -> None:
        names = sorted(self.cpp_defines, key=len, reverse=True)
        self._cpp_pattern = re.compile(r"\b(" + "|".join(map(re.escape, names)) + r")\b") if names else None

    # ----------------------------------------------------------------- the line loop

    def _process(self, line: SourceLine, frame: _Frame) -> Iterator[Emitted]:
        if line.is_cpp:
            self._cpp_line(line, frame)
            return
        text = self._substitute_cpp(line.text)
        match = _FIRST_WORD.match(text)
        name, after = (match.group(1), match.end()) if match else ("", 0)
        word = name.lower()
        if not self._active(frame):
            if word in _IF_DIRECTIVES or word in (".else", ".elseif", ".endif"):
                self._conditional(word, text[after:].strip(), line, frame)
            return
        if word in _HANDLED:
            yield from self._directive(word, text[after:].strip(), line, frame)
            return
        if word and text[after : after + 1] != ":":
            macro = self.macros.get(name)  # macro names are case-sensitive, directives are not
            if macro is not None:
                self._invoke(macro, text[after:], line, frame)
                return
            assignment = _ASSIGNMENT.match(text)
            if assignment:
                self._define(assignment.group(1), assignment.group(2), line, frame, "=")
                return
        yield from self._statement(text, line, frame)

    def _statement(self, text: str, line: SourceLine, frame: _Frame) -> Iterator[Emitted]:
        if len(text) > MAX_INSTRUCTION_CHARS and not text.startswith("."):
            self._report("parse-error", f"statement is {len(text):,} characters long (limit {MAX_INSTRUCTION_CHARS:,}); not parsed", line, frame)
            return
        parsed = parse_statement(text)
        if isinstance(parsed, ParseFailure):
            self._report("parse-error", parsed.message, line, frame, line.column + parsed.column - 1)
            return
        expanded = frame.source is None
        if self.budget <= 0 or (expanded and self.expansion_left <= 0):
            self._out_of_budget(line, frame)
            return
        self.budget -= 1
        self.expansion_left -= expanded
        if parsed.kind == "instruction":
            if not parsed.resolved or (parsed.pair is not None and not parsed.pair.resolved):
                resolved = self._resolve_symbols(parsed, line, frame)
                if resolved is None:
                    return
                parsed = resolved
            parsed = self._within_register_files(parsed)
            self._track_next_free(parsed)
        if parsed.kind == "directive" and parsed.name == ".amdgpu_hsa_kernel":
            self._kernel_free = {"v": 0, "s": 0}  # a new kernel scope
        if self._compat_undecided and parsed.kind == "directive" and parsed.name in CODE_OBJECT_V2_MARKS:
            self.bare_parameters = self._compat_undecided = False  # a v2 file: what LLVM 14 assembled
        self._advance(parsed)
        yield parsed, self._where(line, frame), ""

    def _advance(self, statement: Statement) -> None:
        """Record a statement for the location counter. Sizes are worked out only when an
        expression asks for `.`, so files that never do pay nothing for it."""
        if not self._track_location:
            return
        items = self._emitted.setdefault(self._section, [])
        for label in statement.labels:
            self._label_at[label] = (self._section, len(items))
        if statement.kind == "directive" and (statement.name in (".text", ".data", ".bss", ".rodata", ".section", ".pushsection")):
            args = statement.args.split(",")[0].strip()
            self._section = args if statement.name in (".section", ".pushsection") and args else statement.name
            self._emitted.setdefault(self._section, [])
        elif statement.kind in ("instruction", "directive"):
            items.append(statement)

    def _location_of(self, section: str, position: int) -> int | None:
        """Byte offset in `section` before its `position`-th statement: instructions by their
        encoded size, data and alignment directives by their bytes; None past an unknown size."""
        items = self._emitted.get(section, [])
        offsets = self._offsets.setdefault(section, [0])
        while len(offsets) <= position:
            here = offsets[-1]
            statement = items[len(offsets) - 1]
            if statement is None:
                here = None
            elif here is not None and statement.kind == "instruction":
                size = self._size_of(statement) if self._size_of else None
                here = None if size is None else here + size
            elif here is not None and statement.name in _SIZED_DIRECTIVES:
                here = self._after_data(statement.name, statement.args, here)
            offsets.append(here)
        return offsets[position]

    def _after_data(self, name: str, args: str, here: int) -> int | None:
        parsed = parse_expressions(args) if args else ()
        if isinstance(parsed, ParseFailure):
            return None
        try:
            values = [evaluate(node, self.lookup, self.functions) for node in parsed]
        except EvalError:
            return None
        if name in _DATA_SIZES:
            return here + _DATA_SIZES[name] * len(values)
        if name in (".zero", ".space", ".skip"):
            return here + int(values[0]) if values else None
        if name == ".fill":
            return here + int(values[0]) * int(values[1] if len(values) > 1 else 1) if values else None
        if not values:
            return None
        alignment = 1 << int(values[0]) if name == ".p2align" else int(values[0])  # .align is bytes on ELF
        return -(-here // alignment) * alignment if alignment > 0 else None

    def _within_register_files(self, statement: Statement) -> Statement:
        """The instruction with each operand naming registers the target does not have as a MissingRegister
        (the same statement when none does)."""
        pair = statement.pair and self._within_register_files(statement.pair)
        operands = within_register_files(statement.operands, self.register_files)
        if operands is statement.operands and pair is statement.pair:
            return statement
        return replace(statement, operands=operands, pair=pair)

    def _track_next_free(self, statement: Statement) -> None:
        operands = statement.operands + statement.pair.operands if statement.pair else statement.operands
        for operand in operands:
            if isinstance(operand, Reg) and operand.kind in ("v", "s"):
                end = operand.index + operand.count
                for counts in (self._next_free, self._kernel_free):
                    counts[operand.kind] = max(counts[operand.kind], end)

    def _resolve_symbols(self, statement: Statement, line: SourceLine, frame: _Frame) -> Statement | None:
        """Replace .set symbols in operands and modifiers by their values, as the assembler does.

        Register bounds must resolve, or the statement is reported and dropped as the assembler
        would; other expressions that still mention labels or external symbols (branch
        targets, `sym@rel32@lo`) stay symbolic.
        """
        failures: list[Node] = []
        try:
            operands = tuple(self._resolved(op, line, frame, failures) for op in statement.operands)
            modifiers = tuple((key, None if value is None else self._resolved(value, line, frame, failures))
                              for key, value in statement.modifiers)
            pair = self._resolve_symbols(statement.pair, line, frame) if statement.pair else None
        except RecursionError:
            self._report("parse-error", "expression nested too deeply", line, frame)
            return None
        if failures:
            return None
        return replace(statement, operands=operands, modifiers=modifiers, resolved=True, pair=pair)

    def _resolved(self, node: Node, line: SourceLine, frame: _Frame, failures: list[Node]) -> Node:
        """`node` with its symbols replaced by their values; a register bound that does not resolve is
        reported and added to `failures`. (A method, not a closure: a recursive closure is a reference cycle.)"""
        if isinstance(node, RegExpr):
            try:
                first = evaluate(node.first, self.lookup, self.functions)
                last = first if node.last is None else evaluate(node.last, self.lookup, self.functions)
            except EvalError as error:
                rule = "undefined-symbol" if error.symbol else "parse-error"
                self._report(rule, f"register index of '{node.kind}[...]': {error}", line, frame)
                failures.append(node)
                return node
            if not isinstance(first, int) or not isinstance(last, int) or not 0 <= first <= last:
                written = f"{first}" if node.last is None else f"{first}:{last}"
                self._report("parse-error", f"bad register range {node.kind}[{written}]", line, frame)
                failures.append(node)
                return node
            if self.register_symbols.counters and not isinstance(node.first, Num):
                use = self.register_symbols.indexed(node.first, node.kind, first)
                if use is not None:
                    self.register_symbols.add(use, self._where(line, frame))
            return Reg(node.kind, first, last - first + 1)
        if isinstance(node, (Sym, BinOp)):
            try:
                value = evaluate(node, self.lookup, self.functions)
                if not isinstance(value, float) or isinstance(node, Sym):
                    return Num(value)
            except EvalError:
                if isinstance(node, Sym):
                    return node
            # `vmcnt(1*n) & lgkmcnt(0)`: not a number as a whole, but its counts are; and floating-point
            # arithmetic stays as written, as llvm-mc refuses it as an operand
            return BinOp(node.op, self._resolved(node.left, line, frame, failures),
                         self._resolved(node.right, line, frame, failures))
        if isinstance(node, UnOp):
            inner = self._resolved(node.operand, line, frame, failures)
            return Num(-inner.value) if node.op == "-" and isinstance(inner, Num) else UnOp(node.op, inner)
        if isinstance(node, Abs):
            return Abs(self._resolved(node.operand, line, frame, failures))
        if isinstance(node, Call):
            named = node.name in ("hwreg", "sendmsg")  # llvm-mc reads a register or message name there as the name
            return Call(node.name, tuple(arg if named and isinstance(arg, Sym) and arg.name.startswith(_FIELD_NAMES)
                                         else self._resolved(arg, line, frame, failures) for arg in node.args))
        if isinstance(node, ListExpr):
            return ListExpr(tuple(self._resolved(item, line, frame, failures) for item in node.items))
        return node

    def _out_of_budget(self, line: SourceLine, frame: _Frame) -> None:
        if not self._budget_reported:
            self._budget_reported = True
            step = f"{frame.chain[0].describe()} at {frame.chain[0].path}:{frame.chain[0].line}" if frame.chain else f"at {line.path}:{line.number}"
            made = (f"expansions made more than {self.expansion_budget:,} statements" if self.budget > 0 else
                    f"expansion produced more than {self.statement_budget:,} statements")
            self._report(
                "parse-error",
                f"{made} ({step}); remaining expansions skipped",
                line,
                frame,
            )
        # drop every expansion frame; whole files keep going so the rest is still linted
        while self._stack and self._stack[-1].source is None:
            self._stack.pop()

    # ----------------------------------------------------------------- directives

    def _directive(self, word: str, args: str, line: SourceLine, frame: _Frame) -> Iterator[Emitted]:
        if word in _IF_DIRECTIVES or word in (".else", ".elseif", ".endif"):
            self._conditional(word, args, line, frame)
        elif word == ".macro":
            self._define_macro(args, line, frame)
        elif word in (".endm", ".endmacro", ".endr"):
            self._report("parse-error", f"'{word}' without a matching opening directive", line, frame)
        elif word == ".exitm":
            self._exit_macro(line, frame)
        elif word == ".purgem":
            name = args.strip()
            if self.macros.pop(name, None) is None:
                self._report("parse-error", f"'.purgem': no macro named '{name}'", line, frame)
        elif word in _REPEAT_DIRECTIVES:
            self._repeat(word, args, line, frame)
        elif word == ".include":
            self._include(args.strip(), line, frame)
        elif word in (".set", ".equ", ".equiv", ".eqv"):
            name, _, value = args.partition(",")
            if not name.strip() or not _:
                self._report("parse-error", f"'{word}' needs a symbol name and a value", line, frame)
            else:
                self._define(name.strip(), value.strip(), line, frame, word)
        elif word in (".altmacro", ".noaltmacro"):
            self.altmacro = word == ".altmacro"
        elif word in (".err", ".error"):
            message = args.strip().strip('"') or "assembly stopped by .err"
            self._report("parse-error", f"{word}: {message}", line, frame)
        elif word == ".warning":
            self.findings.append(Finding("parse-error", f".warning: {args.strip().strip(chr(34))}",
                                         self._where(line, frame), warning=True))
        elif word in RAW_BLOCKS:
            yield from self._raw_block(word, line, frame)

    def _exit_macro(self, line: SourceLine, frame: _Frame) -> None:
        """`.exitm`: leave the innermost macro expansion, with any loops and conditionals inside it."""
        inside: list[_Frame] = []
        for candidate in reversed(self._stack):
            if candidate.source is not None:
                break
            inside.append(candidate)
            if candidate.is_macro:
                for exited in inside:
                    exited.index, exited.iterations, exited.conditions = len(exited.lines), None, []
                return
        self._report("parse-error", "'.exitm' outside a macro", line, frame)

    def _define(self, name: str, value_text: str, line: SourceLine, frame: _Frame, how: str) -> None:
        if how == ".equiv" and name in self.symbols:
            self._report("parse-error", f"'.equiv': symbol '{name}' is already defined", line, frame)
            return
        parsed = parse_expressions(value_text)
        if isinstance(parsed, ParseFailure) or len(parsed) != 1:
            problem = parsed.message if isinstance(parsed, ParseFailure) else "expected one expression"
            self._report("parse-error", f"bad value for '{name}': {problem}", line, frame)
            return
        if not isinstance(parsed[0], Num):
            self.register_symbols.defined(name, parsed[0], self._where(line, frame))
        elif name in self.register_symbols.counted_from:
            self.register_symbols.defined(name, parsed[0], self._where(line, frame))  # no longer counted
        try:
            self.symbols[name] = evaluate(parsed[0], self.lookup, self.functions)
        except EvalError as error:
            if error.symbol is None:
                self._report("parse-error", f"cannot evaluate value of '{name}': {error}", line, frame)
                return
            self.symbols[name] = parsed[0]  # refers to labels or later symbols: evaluated on use

    def _conditional(self, word: str, args: str, line: SourceLine, frame: _Frame) -> None:
        conditions = frame.conditions
        if word == ".endif":
            if not conditions:
                self._report("parse-error", "'.endif' without a matching .if", line, frame)
            else:
                conditions.pop()
            return
        if word in (".else", ".elseif"):
            if not conditions or conditions[-1].seen_else:
                self._report("parse-error", f"'{word}' without a matching .if", line, frame)
                return
            current = conditions[-1]
            if current.decided:
                current.active = False
            elif word == ".else":
                current.active = current.decided = True
            else:
                current.active = current.decided = bool(self._eval_text(args, line, frame))
            current.seen_else = word == ".else"
            return
        if not self._active(frame):
            conditions.append(_Condition(False, True, line))
            return
        taken = self._condition_value(word, args, line, frame)
        conditions.append(_Condition(taken, taken, line))

    def _condition_value(self, word: str, args: str, line: SourceLine, frame: _Frame) -> bool:
        if word in (".ifdef", ".ifndef", ".ifnotdef"):
            defined = args.strip() in self.symbols or args.strip() in self.cpp_defines
            return defined if word == ".ifdef" else not defined
        if word in (".ifb", ".ifnb"):
            return (not args.strip()) == (word == ".ifb")
        if word in (".ifc", ".ifnc", ".ifeqs", ".ifnes"):
            parts = [part for _, part in split_macro_arguments(args)]
            if len(parts) != 2 and word in (".ifc", ".ifnc"):
                parts = [p.strip() for p in args.split(",", 1)] + [""] * (2 - len(args.split(",", 1)))
            left, right = (parts + ["", ""])[:2]
            same = left.strip().strip('"') == right.strip().strip('"')
            return same if word in (".ifc", ".ifeqs") else not same
        value = self._eval_text(args, line, frame)
        if value is None:
            return False
        return {
            ".if": value != 0, ".ifne": value != 0, ".ifeq": value == 0,
            ".ifgt": value > 0, ".ifge": value >= 0, ".iflt": value < 0, ".ifle": value <= 0,
        }[word]

    # ----------------------------------------------------------------- bodies and expansion

    def _collect_body(self, opening: SourceLine, frame: _Frame, openers: frozenset[str], closers: frozenset[str]):
        """Take lines up to the matching closer from `frame`; None (and a finding) if it never comes."""
        depth = 1
        body: list[SourceLine] = []
        while frame.index < len(frame.lines):
            line = frame.lines[frame.index]
            frame.index += 1
            match = _FIRST_WORD.match(line.text) if not line.is_cpp else None
            word = match.group(1).lower() if match else ""
            if word in openers:
                depth += 1
            elif word in closers:
                depth -= 1
                if depth == 0:
                    return body
            body.append(line)
        word = _FIRST_WORD.match(opening.text)
        self._report(
            "parse-error",
            f"unterminated '{word.group(1) if word else opening.text}': no matching {'/'.join(sorted(closers))}",
            opening,
            frame,
        )
        return None

    def _define_macro(self, args: str, line: SourceLine, frame: _Frame) -> None:
        body = self._collect_body(line, frame, frozenset((".macro",)), frozenset((".endm", ".endmacro")))
        name_match = _FIRST_WORD.match(args)
        if name_match is None:
            self._report("parse-error", "'.macro' needs a name", line, frame)
            return
        name = name_match.group(1)
        params = []
        for match in _MACRO_PARAM.finditer(args[name_match.end() :]):
            default = (match.group(3) or "").strip('"')
            params.append(MacroParam(match.group(1), default, match.group(2) == "req", match.group(2) == "vararg"))
        if body is not None:
            self.macros[name] = Macro(name, params, body, self._where(line, frame))
            self._aborted_macros.discard(name)

    def _invoke(self, macro: Macro, arg_text: str, line: SourceLine, frame: _Frame) -> None:
        if macro.name in self._aborted_macros:
            return
        if frame.macro_depth >= MAX_MACRO_DEPTH:
            self._aborted_macros.add(macro.name)
            self._report(
                "parse-error",
                f"macros nested deeper than {MAX_MACRO_DEPTH} levels while expanding '{macro.name}' "
                "(recursive macro?); expansion stopped",
                line,
                frame,
            )
            return
        values: dict[str, str] = {param.name: param.default for param in macro.params}
        positional = macro.params
        arguments = split_macro_arguments(arg_text, self.altmacro)
        position = 0
        for start, text in arguments:
            if self.altmacro:
                text = self._altmacro_argument(text, line, frame)
            keyword = re.match(r"([A-Za-z_]\w*)\s*=(?!=)\s*(.*)\Z", text, re.DOTALL)
            if keyword and keyword.group(1) in values:
                values[keyword.group(1)] = keyword.group(2)
                continue
            if position >= len(positional):
                self._report("parse-error", f"too many arguments for macro '{macro.name}'", line, frame)
                break
            param = positional[position]
            if param.vararg:
                values[param.name] = arg_text[start:].strip()
                break
            if text:  # an empty argument takes the parameter's default
                values[param.name] = text
            position += 1
        for param in macro.params:
            if param.required and not values[param.name]:
                self._report("parse-error", f"missing value for required parameter '{param.name}' of '{macro.name}'", line, frame)
                return
        step = ExpansionStep("macro", macro.name, line.path, line.number, line.column)
        try:
            lines = self._substituted(macro.body, values, self._macro_instantiations,
                                      bare=self.altmacro and self.bare_parameters, macro=macro.name)
        except _ExpansionTooLarge:
            self._refused(f"expanding macro '{macro.name}'", "not expanded", line, frame)
            return
        self._macro_instantiations += 1
        self._push(lines, frame, step, macro_depth=frame.macro_depth + 1, is_macro=True)

    def _altmacro_argument(self, text: str, line: SourceLine, frame: _Frame) -> str:
        """`%expr` is the expression's value; `<text>` is the text, `!` escaping the next character."""
        if text.startswith("%"):
            value = self._eval_text(text[1:], line, frame)
            return text if value is None else str(value)
        if text.startswith("<") and text.endswith(">") and _angle_string_end(text, 0) == len(text):
            return re.sub(r"!(.)", r"\1", text[1:-1])
        return text

    def _substituted(self, body: list[SourceLine], values: dict[str, str], counter: int,
                     bare: bool = False, macro: str = "") -> list[SourceLine]:
        """The body with the parameters' values in; raises _ExpansionTooLarge past MAX_EXPANSION_CHARS or what is
        left of EXPANSION_TEXT_BUDGET."""
        allowed = left = min(MAX_EXPANSION_CHARS, self._expansion_text_left)

        def spent(text: str) -> str:
            nonlocal left
            left -= len(text)
            if left < 0:
                raise _ExpansionTooLarge
            return text

        def replace(match: re.Match[str]) -> str:
            key = match.group(1)
            if key == "()":
                return ""
            if key == "@":
                return str(counter)
            return spent(values.get(key, match.group(0)))

        clobbered: list[tuple[str, str]] = []  # (keyword, value) on the line being substituted

        def replace_bare(match: re.Match[str]) -> str:
            # .altmacro: a parameter is named with or without `\`; `&` ends the name
            name = match.group(2)
            value = values.get(name)
            if value is None:
                return match.group(0)
            if not match.group(1) and value != name and _CALL_FOLLOWS.match(match.string, match.end()):
                clobbered.append((name, value))  # `vmcnt(...)` with a parameter named vmcnt
            return spent(value)

        result = []
        for source_line in body:
            text = spent(source_line.text)
            if bare and values:
                text = _BARE_PARAMETER.sub(replace_bare, text)
            if "\\" in text:
                text = _SUBSTITUTION.sub(replace, text)
            expanded = SourceLine(source_line.path, source_line.number, text, source_line.column, source_line.is_cpp)
            if clobbered:
                if not text.lstrip().startswith("."):  # an instruction, not a conditional
                    self._clobbered[id(expanded)] = (expanded, _clobber_message(macro, clobbered, text))
                clobbered.clear()
            result.append(expanded)
        self._expansion_text_left -= allowed - left
        return result

    def _clobbered_line(self, line: SourceLine, frame: _Frame) -> bool:
        """Report (once, when active) and skip an expanded line whose keyword a bare parameter replaced."""
        entry = self._clobbered.pop(id(line), None)
        if entry is None or entry[0] is not line:
            return False
        if self._active(frame):
            self._report("parse-error", entry[1], line, frame)
        return True

    def _refused(self, expansion: str, consequence: str, line: SourceLine, frame: _Frame) -> None:
        """Report an expansion too large to make: past MAX_EXPANSION_CHARS, or past what the file has left of
        EXPANSION_TEXT_BUDGET (reported once: from then on, every expansion that makes text is skipped)."""
        if self._expansion_text_left >= MAX_EXPANSION_CHARS:
            self._report("parse-error", f"{expansion} would make more than {MAX_EXPANSION_CHARS:,} characters; "
                         f"{consequence}", line, frame)
        elif self._expansion_text_left > 0:
            self._expansion_text_left = 0
            self._report("parse-error", f"expansions would make more than {EXPANSION_TEXT_BUDGET:,} characters in all "
                         f"({expansion}); remaining expansions skipped", line, frame)
    def _push(
        self,
        lines: list[SourceLine],
        frame: _Frame,
        step: ExpansionStep,
        macro_depth: int,
        is_macro: bool = False,
        iterations: Iterator[list[SourceLine]] | None = None,
    ) -> None:
        if len(frame.chain) >= MAX_MACRO_DEPTH + MAX_INCLUDE_DEPTH + 8:
            where = Provenance(step.path, step.line, step.column, frame.chain)
            self.findings.append(Finding("parse-error", "expansion nested too deeply; stopped", where))
            return
        self._stack.append(_Frame(lines, (step,) + frame.chain, None, macro_depth, is_macro, iterations=iterations))

    def _repeat(self, word: str, args: str, line: SourceLine, frame: _Frame) -> None:
        body = self._collect_body(line, frame, _REPEAT_DIRECTIVES, frozenset((".endr",)))
        if body is None:
            return
        values_per_pass: list[dict[str, str]]
        if word in (".rept", ".rep"):
            count = self._eval_text(args, line, frame)
            if count is None:
                return
            if not isinstance(count, int) or count < 0:
                self._report("parse-error", f"'.rept' count must be a non-negative integer, got {count}", line, frame)
                return
            passes = count
            values_per_pass = []
        else:
            name, _, rest = args.partition(",")
            name = name.strip()
            if not name:
                self._report("parse-error", f"'{word}' needs a parameter name", line, frame)
                return
            if word == ".irp":
                items = [text for _, text in split_macro_arguments(rest)] or [""]
            else:
                items = list(rest.strip()) or [""]
            values_per_pass = [{name: item} for item in items]
            passes = len(values_per_pass)
        total = passes * max(1, len(body))
        if total > self.statement_budget:
            self._report(
                "parse-error",
                f"'{word}' would produce {total:,} statements, more than the limit of {self.statement_budget:,}; skipped",
                line,
                frame,
            )
            return
        if total > self.budget:
            self._out_of_budget(line, frame)
            return
        if passes == 0 or not body:
            return
        step = ExpansionStep(word[1:], word, line.path, line.number, line.column)
        # `\@` in an .irp/.irpc body is the count of macro instantiations so far; .rept substitutes nothing
        bodies = self._passes(body, values_per_pass, word, line, frame) if values_per_pass else (body for _ in range(passes))
        first = next(bodies, None)
        if first is not None:
            self._push(first, frame, step, frame.macro_depth, iterations=bodies)

    def _passes(self, body: list[SourceLine], values_per_pass: list[dict[str, str]], word: str, line: SourceLine,
                frame: _Frame) -> Iterator[list[SourceLine]]:
        """The body of each `.irp`/`.irpc` pass, made as it is reached; none after one too large."""
        for values in values_per_pass:
            try:
                yield self._substituted(body, values, self._macro_instantiations)
            except _ExpansionTooLarge:
                self._refused(f"a '{word}' pass", "the rest skipped", line, frame)
                return

    def _raw_block(self, word: str, line: SourceLine, frame: _Frame) -> Iterator[Emitted]:
        closer = RAW_BLOCKS[word]
        body = self._collect_body(line, frame, frozenset((word,)), frozenset((closer,)))
        if body is None:
            return
        yield Statement("block", word), self._where(line, frame), _block_text(line, body)

    def _include(self, target: str, line: SourceLine, frame: _Frame, system: bool = False) -> None:
        quoted = _QUOTED.match(target.strip())
        name = _unescape(quoted.group(1)) if quoted else target.strip().strip('"<>')
        if not name:
            self._report("parse-error", "'.include' needs a file name", line, frame)
            return
        if sum(1 for step in frame.chain if step.kind == "include") >= MAX_INCLUDE_DEPTH:
            self._report("parse-error", f"includes nested deeper than {MAX_INCLUDE_DEPTH} levels (cycle?)", line, frame)
            return
        candidates = [] if system else [Path(os.path.dirname(line.path)) / name]
        candidates += [directory / name for directory in self.include_dirs]
        for candidate in candidates:
            if candidate.is_file():
                key = os.path.normpath(str(candidate))
                source = self.sources.get(key)
                if source is None:
                    try:
                        source = read_source(candidate, key)
                    except OSError as error:
                        self._report("parse-error", f"cannot read included file '{name}': {error.strerror}", line, frame)
                        return
                    self.sources[key] = source
                    if not self._track_location and _uses_location(source):
                        # what came before was not recorded: locations are unknown until the next section
                        self._track_location = True
                        self._emitted = {section: [None] for section in self._emitted}
                        self._offsets = {}
                    for problem in source.problems:
                        self.findings.append(Finding(problem.rule, problem.message, Provenance(key, problem.line, problem.column)))
                step = ExpansionStep("include", name, line.path, line.number, line.column)
                self._stack.append(_Frame(source.lines, (step,) + frame.chain, source, frame.macro_depth))
                return
        searched = ", ".join(str(c.parent) or "." for c in candidates) or "no directories"
        self._report("parse-error", f"included file '{name}' not found (searched {searched}; add -I DIR)", line, frame)

    # ----------------------------------------------------------------- C preprocessor subset

    def _cpp_line(self, line: SourceLine, frame: _Frame) -> None:
        if not self.cpp:
            return  # llvm-mc reads a line starting with '#' as a comment (or a line marker)
        match = _CPP.match(line.text)
        word = (match.group(1) or "") if match else ""
        rest = match.group(2).strip() if match else ""
        if word in ("if", "ifdef", "ifndef", "elif", "else", "endif"):
            self._cpp_conditional(word, rest, line, frame)
            return
        if not self._active(frame) or word == "" or word.isdigit() or word in ("line", "pragma", "ident"):
            return  # line markers (`# 12 "file"`), pragmas and null directives
        if word == "include":
            self._include(rest, line, frame, system=rest.startswith("<"))
        elif word == "define":
            name_match = _IDENTIFIER.match(rest)
            if name_match is None:
                self._report("parse-error", "'#define' needs a name", line, frame)
            elif rest[name_match.end() : name_match.end() + 1] == "(":
                self._report("unknown-directive", f"function-like '#define {name_match.group(0)}(...)' is not supported; not expanded", line, frame)
            else:
                self.cpp_defines[name_match.group(0)] = rest[name_match.end() :].strip()
                self._set_cpp_defines()
        elif word == "undef":
            self.cpp_defines.pop(rest.strip(), None)
            self._set_cpp_defines()
        elif word in ("error", "warning"):
            self._report("parse-error", f"#{word} {rest}", line, frame)
        else:
            self._report("unknown-directive", f"unsupported preprocessor directive '#{word}'", line, frame)

    def _cpp_conditional(self, word: str, rest: str, line: SourceLine, frame: _Frame) -> None:
        if word in ("ifdef", "ifndef"):
            defined = rest.strip() in self.cpp_defines or rest.strip() in self.symbols
            self._conditional(".if", "1" if defined == (word == "ifdef") else "0", line, frame)
        elif word in ("if", "elif"):
            directive = ".if" if word == "if" else ".elseif"
            if not self._active(frame) and word == "if":
                self._conditional(directive, "0", line, frame)
                return
            self._conditional(directive, self._cpp_expression(rest), line, frame)
        else:
            self._conditional("." + word, "", line, frame)

    def _cpp_expression(self, text: str) -> str:
        text = _DEFINED.sub(lambda m: "1" if (m.group(1) or m.group(2)) in self.cpp_defines else "0", text)
        text = self._substitute_cpp(text)
        # identifiers left after substitution are 0, as in the C preprocessor
        return _IDENTIFIER.sub(lambda m: m.group(0) if m.group(0) in self.symbols else "0", text)

