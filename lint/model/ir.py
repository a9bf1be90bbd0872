"""The IR: Module -> Kernel -> BasicBlock -> Instruction, each instruction with provenance, and
the source text the provenance points into."""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from .frozen import frozen_dataclass
from .nodes import LocalRef, Node, Num, Statement, Sym
from .targets import Target

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, overload  # noqa: TC004  # at run time, the stand-in below
globals().setdefault("overload", lambda function: function)  # without importing typing (the last definition runs)


@dataclass(slots=True, repr=False, init=False, eq=False)
class SourceLine:
    """The code part of one physical line. `column` is where `text` starts (1-based). A file's
    lines are made on demand from its CodeLines; macro expansion makes its own."""

    path: str
    number: int
    text: str
    column: int
    is_cpp: bool = False

    def __init__(self, path: str, number: int, text: str, column: int, is_cpp: bool = False) -> None:
        self.path = path
        self.number = number
        self.text = text
        self.column = column
        self.is_cpp = is_cpp

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SourceLine) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.path, self.number, self.text, self.column, self.is_cpp) == (
            other.path, other.number, other.text, other.column, other.is_cpp)


class CodeLines(Sequence[SourceLine]):
    """The code lines of one file, as offsets into its text: a few bytes a line, where a
    SourceLine and a copy of its text would cost two hundred."""

    __slots__ = ("columns", "cpp", "ends", "numbers", "path", "replaced", "starts", "text")

    def __init__(self, path: str, text: str):
        self.path = path
        self.text = text
        self.numbers = array("I")  # physical line numbers, ascending
        self.starts = array("I")  # where each line's code text starts and ends in `text`
        self.ends = array("I")
        self.columns = array("I")  # 1-based column of the code text in its line
        self.cpp: set[int] = set()  # indices of C-preprocessor lines (`#...`)
        self.replaced: dict[int, str] = {}  # code text that is no slice of `text` (a /* */ comment blanked out)

    def add(self, number: int, start: int, end: int, column: int, is_cpp: bool = False) -> None:
        if is_cpp:
            self.cpp.add(len(self.numbers))
        self.numbers.append(number)
        self.starts.append(start)
        self.ends.append(end)
        self.columns.append(column)

    def add_replaced(self, number: int, text: str, column: int) -> None:
        self.replaced[len(self.numbers)] = text
        self.add(number, 0, 0, column)

    def text_at(self, index: int) -> str:
        if self.replaced and index in self.replaced:
            return self.replaced[index]
        return self.text[self.starts[index] : self.ends[index]]

    def texts(self) -> Iterator[str]:
        """Every code text, in order."""
        if self.replaced:
            return (self.text_at(index) for index in range(len(self.numbers)))
        return map(self.text.__getitem__, map(slice, self.starts, self.ends))

    def __len__(self) -> int:
        return len(self.numbers)

    @overload
    def __getitem__(self, index: int) -> SourceLine: ...

    @overload
    def __getitem__(self, index: slice) -> list[SourceLine]: ...

    def __getitem__(self, index: int | slice) -> SourceLine | list[SourceLine]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self.numbers)))]
        if index < 0:
            index += len(self.numbers)
        return SourceLine(self.path, self.numbers[index], self.text_at(index), self.columns[index], index in self.cpp)


@frozen_dataclass(frozen=True, slots=True, repr=False, init=False, eq=False)
class ReadProblem:
    """Something wrong with the file as bytes: rule name, message, line, column."""

    rule: str
    message: str
    line: int
    column: int = 1

    def __init__(self, rule: str, message: str, line: int, column: int = 1) -> None:
        object.__setattr__(self, "rule", rule)
        object.__setattr__(self, "message", message)
        object.__setattr__(self, "line", line)
        object.__setattr__(self, "column", column)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ReadProblem) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.rule, self.message, self.line, self.column) == (
            other.rule, other.message, other.line, other.column)

    def __hash__(self) -> int:
        return hash((self.rule, self.message, self.line, self.column))


@dataclass(slots=True, repr=False)
class SourceFile:
    """One file's text (kept once, newlines normalised), where its lines start, its code lines and its comments."""

    path: str
    text: str
    lines: CodeLines
    line_starts: array = field(default_factory=lambda: array("I"))
    comments: dict[int, str] = field(default_factory=dict)
    problems: list[ReadProblem] = field(default_factory=list)

    def line_text(self, number: int) -> str:
        if not 0 < number <= len(self.line_starts):
            return ""
        start = self.line_starts[number - 1]
        end = self.text.find("\n", start)
        return self.text[start : end if end >= 0 else len(self.text)]

    @property
    def line_count(self) -> int:
        """How many physical lines the file has (as `raw_lines` would count, without making them)."""
        return len(self.line_starts)

    @property
    def raw_lines(self) -> list[str]:
        """Every physical line (made on demand)."""
        lines = self.text.split("\n")
        if lines[-1] == "":
            lines.pop()
        return lines


@frozen_dataclass(frozen=True, slots=True, repr=False, init=False, eq=False)
class ExpansionStep:
    """One step of how a statement was produced: kind is macro, rept, irp, irpc or include."""

    kind: str
    name: str
    path: str
    line: int
    column: int = 1

    def __init__(self, kind: str, name: str, path: str, line: int, column: int = 1) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "path", path)
        object.__setattr__(self, "line", line)
        object.__setattr__(self, "column", column)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ExpansionStep) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.kind, self.name, self.path, self.line, self.column) == (
            other.kind, other.name, other.path, other.line, other.column)

    def __hash__(self) -> int:
        return hash((self.kind, self.name, self.path, self.line, self.column))

    def describe(self) -> str:
        """Note text; the step's own path and line are reported alongside it."""
        if self.kind == "include":
            return f"in file included from here ('{self.name}')"
        if self.kind == "macro":
            return f"in expansion of macro '{self.name}'"
        return f"in {self.name} expansion"


@dataclass(slots=True, repr=False, init=False, eq=False)
class Provenance:
    """Where a statement came from: its source line plus the chain of expansions, innermost first.
    Never changed once made (not frozen only because a frozen one is several times slower to make,
    and a file makes one a statement)."""

    path: str
    line: int
    column: int = 1
    chain: tuple[ExpansionStep, ...] = ()

    def __init__(self, path: str, line: int, column: int = 1, chain: tuple[ExpansionStep, ...] = ()) -> None:
        self.path = path
        self.line = line
        self.column = column
        self.chain = chain

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Provenance) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.path, self.line, self.column, self.chain) == (other.path, other.line, other.column, other.chain)

    def __hash__(self) -> int:
        return hash((self.path, self.line, self.column, self.chain))

    def __str__(self) -> str:
        return f"{self.path}:{self.line}"

    def per_file(self) -> dict[str, int]:
        """The line each file shows this statement at: where it is, and in a file it was expanded from (a macro
        call, a `.rept`, an `.include`), the outermost step there."""
        lines = {self.path: self.line}
        for step in self.chain:  # innermost first: an outer step in the same file replaces an inner one
            lines[step.path] = step.line
        return lines


@frozen_dataclass(frozen=True, slots=True, repr=False, init=False, eq=False)
class Finding:
    """A problem found while reading or building, before rule metadata is attached."""

    rule: str
    message: str
    where: Provenance
    end_column: int | None = None
    warning: bool = False  # reported as a warning, whatever the rule's severity (`.warning "text"`)

    def __init__(self, rule: str, message: str, where: Provenance, end_column: int | None = None,
                 warning: bool = False) -> None:
        object.__setattr__(self, "rule", rule)
        object.__setattr__(self, "message", message)
        object.__setattr__(self, "where", where)
        object.__setattr__(self, "end_column", end_column)
        object.__setattr__(self, "warning", warning)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Finding) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.rule, self.message, self.where, self.end_column, self.warning) == (
            other.rule, other.message, other.where, other.end_column, other.warning)

    def __hash__(self) -> int:
        return hash((self.rule, self.message, self.where, self.end_column, self.warning))


@dataclass(slots=True, repr=False, init=False, eq=False)
class Instruction:
    """One machine instruction with its operands, modifiers and provenance."""

    mnemonic: str
    operands: tuple[Node, ...]
    modifiers: tuple[tuple[str, Node | None], ...]
    where: Provenance
    pair: Instruction | None = None  # second half of a gfx11+ dual-issue (VOPD) instruction

    def __init__(self, mnemonic: str, operands: tuple[Node, ...], modifiers: tuple[tuple[str, Node | None], ...],
                 where: Provenance, pair: Instruction | None = None) -> None:
        self.mnemonic = mnemonic
        self.operands = operands
        self.modifiers = modifiers
        self.where = where
        self.pair = pair

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Instruction) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.mnemonic, self.operands, self.modifiers, self.where, self.pair) == (
            other.mnemonic, other.operands, other.modifiers, other.where, other.pair)

    @classmethod
    def from_statement(cls, statement: Statement, where: Provenance) -> Instruction:
        pair = cls.from_statement(statement.pair, where) if statement.pair else None
        return cls(statement.name, statement.operands, statement.modifiers, where, pair)

    @property
    def wait_states(self) -> int:
        """Wait states (cycles of the issue pipe) it provides: 1, or k+1 for `s_nop k`."""
        if self.mnemonic == "s_nop" and self.operands and isinstance(self.operands[0], Num):
            return int(self.operands[0].value) + 1
        return 1

    @property
    def branch_target(self) -> Sym | LocalRef | None:
        """The label operand of a direct branch or call, if any."""
        for operand in self.operands:
            if isinstance(operand, (Sym, LocalRef)):
                return operand
        return None


@dataclass(slots=True, repr=False, eq=False, init=False)
class BasicBlock:
    """A straight-line run of instructions, entered at the top."""

    index: int
    label: str | None
    instructions: list[Instruction] = field(default_factory=list)
    successors: list[int] = field(default_factory=list)
    predecessors: list[int] = field(default_factory=list)

    def __init__(self, index: int, label: str | None, instructions: list[Instruction] | None = None,
                 successors: list[int] | None = None, predecessors: list[int] | None = None) -> None:
        self.index = index
        self.label = label
        self.instructions = [] if instructions is None else instructions
        self.successors = [] if successors is None else successors
        self.predecessors = [] if predecessors is None else predecessors

    @property
    def terminator(self) -> Instruction | None:
        return self.instructions[-1] if self.instructions else None


#: User SGPRs each `.amdhsa_user_sgpr_*` enable adds, in the order the hardware loads them.
USER_SGPRS = {
    "user_sgpr_private_segment_buffer": 4,
    "user_sgpr_dispatch_ptr": 2,
    "user_sgpr_queue_ptr": 2,
    "user_sgpr_kernarg_segment_ptr": 2,
    "user_sgpr_dispatch_id": 2,
    "user_sgpr_flat_scratch_init": 2,
    "user_sgpr_private_segment_size": 1,
}


@dataclass(slots=True, repr=False, eq=False, init=False)
class Kernel:
    """A kernel (has a descriptor or HSA kernel marking) or a plain function."""

    name: str
    where: Provenance
    instructions: list[Instruction] = field(default_factory=list)
    labels: dict[str, int] = field(default_factory=dict)  # label -> index of the next instruction
    is_kernel: bool = False
    descriptor: dict[str, Any] = field(default_factory=dict)  # .amdhsa_* values, defaults filled
    descriptor_where: Provenance | None = None
    metadata: dict[str, Any] | None = None  # this kernel's entry in amdhsa.kernels
    kernel_code_t: dict[str, Any] | None = None  # old .amd_kernel_code_t fields
    kernel_code_where: dict[str, Provenance] = field(default_factory=dict)  # each of those fields' line

    def __init__(self, name: str, where: Provenance, instructions: list[Instruction] | None = None,
                 labels: dict[str, int] | None = None, is_kernel: bool = False,
                 descriptor: dict[str, Any] | None = None, descriptor_where: Provenance | None = None,
                 metadata: dict[str, Any] | None = None, kernel_code_t: dict[str, Any] | None = None,
                 kernel_code_where: dict[str, Provenance] | None = None) -> None:
        self.name = name
        self.where = where
        self.instructions = [] if instructions is None else instructions
        self.labels = {} if labels is None else labels
        self.is_kernel = is_kernel
        self.descriptor = {} if descriptor is None else descriptor
        self.descriptor_where = descriptor_where
        self.metadata = metadata
        self.kernel_code_t = kernel_code_t
        self.kernel_code_where = {} if kernel_code_where is None else kernel_code_where

    def user_sgpr_position(self, enable: str) -> int:
        """First SGPR of the user SGPR that `enable` (a USER_SGPRS key) turns on, after those before it."""
        position = 0
        for key, size in USER_SGPRS.items():
            if key == enable:
                return position
            position += size if self.descriptor.get(key) else 0
        raise KeyError(enable)


@dataclass(slots=True, repr=False, eq=False, init=False)
class Module:
    """Everything read from one input file (and the files it includes)."""

    path: str
    target: Target | None
    target_triple: str | None = None  # the triple of .amdgcn_target, e.g. amdgcn-amd-amdhsa
    kernels: list[Kernel] = field(default_factory=list)
    sources: dict[str, SourceFile] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    # the notable directives (frontend.directives), or all of them while the target is unknown
    directives: list[tuple[Statement, Provenance]] = field(default_factory=list)
    symbols: dict[str, Any] = field(default_factory=dict)
    defined_labels: set[str] = field(default_factory=set)
    code_object_version: int | None = None
    metadata: dict[str, Any] | None = None  # the whole .amdgpu_metadata document
    #: code object v2 (.amd_amdgpu_hsa_metadata): each kernel's sizing CodeProps, {key: (value, where)}
    code_props_v2: dict[str, dict[str, tuple[int, Provenance]]] = field(default_factory=dict)
    options: Any = None  # the BuildOptions the module was built with (launch figures for analyses)
    assembled: Any = None  # while its rules run: the user's assembler on the file (frontend.assembler.AssemblerRun)

    def __init__(self, path: str, target: Target | None, target_triple: str | None = None,
                 kernels: list[Kernel] | None = None, sources: dict[str, SourceFile] | None = None,
                 findings: list[Finding] | None = None, directives: list[tuple[Statement, Provenance]] | None = None,
                 symbols: dict[str, Any] | None = None, defined_labels: set[str] | None = None,
                 code_object_version: int | None = None, metadata: dict[str, Any] | None = None,
                 code_props_v2: dict[str, dict[str, tuple[int, Provenance]]] | None = None, options: Any = None,
                 assembled: Any = None) -> None:
        self.path = path
        self.target = target
        self.target_triple = target_triple
        self.kernels = [] if kernels is None else kernels
        self.sources = {} if sources is None else sources
        self.findings = [] if findings is None else findings
        self.directives = [] if directives is None else directives
        self.symbols = {} if symbols is None else symbols
        self.defined_labels = set() if defined_labels is None else defined_labels
        self.code_object_version = code_object_version
        self.metadata = metadata
        self.code_props_v2 = {} if code_props_v2 is None else code_props_v2
        self.options = options
        self.assembled = assembled
