"""What every rule module provides, and the contexts rules run in."""

from __future__ import annotations

import re
import sys
from bisect import bisect_left
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from functools import cache, cached_property
from pathlib import Path
from types import ModuleType

from ..analyses.cfg import is_branch
from ..analyses.manager import Analysis, AnalysisManager
from ..model.diagnostics import DISPLAY_ONLY, SAFE, UNSAFE, Diagnostic, Edit, Fix, Note, Severity, expansion_notes
from ..model.frozen import frozen_dataclass
from ..model.ir import Finding, Instruction, Kernel, Module, Provenance, SourceFile
from ..model.nodes import Reg

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..analyses.protocol import Result_co, Runs

#: Where each rule's documentation is published (docs/rules.md, one anchor per rule).
RULES_URL = "https://github.com/amdgpu-lint/amdgpu-lint/blob/main/docs/rules.md"


#: Labels opening a line (`.Lloop:`, `1:`), and the blanks after them; not VOPD's `::`.
_LABELS = re.compile(r"(?:\s*(?:[A-Za-z_.$][\w.$@]*|\d+)\s*:(?!:))+\s*")


def _above_suppressions(source: SourceFile, line: int) -> int:
    """`line`, or the first of the comment lines just above it that holds a `disable-next-line`
    suppression (which silences the next code line: an inserted line would take its place)."""
    numbers = source.lines.numbers
    index = bisect_left(numbers, line)
    previous_code = numbers[index - 1] if index > 0 else 0
    directives = [number for number in range(previous_code + 1, line)
                  if "disable-next-line" in source.comments.get(number, "")]
    return directives[0] if directives else line


@cache
def module_docstring(name: str) -> str:
    """An imported module's docstring, stripped. A compiled module keeps none (mypyc drops docstrings), so it
    is read from the module's source, which the build installs beside it."""
    module = sys.modules[name]
    if module.__doc__ is not None or module.__file__ is None:
        return (module.__doc__ or "").strip()
    import ast

    source = Path(module.__file__).with_name(name.rpartition(".")[2] + ".py")
    try:
        text = source.read_text(encoding="utf-8")
    except OSError:  # a build that left the sources out
        return ""
    return (ast.get_docstring(ast.parse(text), clean=False) or "").strip()


def documentation_url(code: str, name: str) -> str:
    """The rule's section of the published rule reference."""
    return f"{RULES_URL}#{code.lower()}-{name}"


@frozen_dataclass(frozen=True, slots=True, repr=False, init=False, eq=False)
class Rule:
    """A rule's identity and entry point, read from its module's constants."""

    code: str
    name: str
    severity: Severity
    summary: str
    module: str  # the rule module's name: its docstring is the rule's `explain` text
    scope: str  # "module" (once per file) or "kernel" (once per kernel, with analyses)
    requires: tuple[type[Analysis], ...]
    check: Callable[..., Iterable[Diagnostic]]  # (context), and for scope "suppressions" (context, unused, known)

    def __init__(self, code: str, name: str, severity: Severity, summary: str, module: str, scope: str,
                 requires: tuple[type[Analysis], ...], check: Callable[..., Iterable[Diagnostic]]) -> None:
        object.__setattr__(self, "code", code)
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "severity", severity)
        object.__setattr__(self, "summary", summary)
        object.__setattr__(self, "module", module)
        object.__setattr__(self, "scope", scope)
        object.__setattr__(self, "requires", requires)
        object.__setattr__(self, "check", check)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Rule) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.code, self.name, self.severity, self.summary, self.module, self.scope, self.requires, self.check) == (
            other.code, other.name, other.severity, other.summary, other.module, other.scope, other.requires,
            other.check)

    def __hash__(self) -> int:
        return hash((
            self.code, self.name, self.severity, self.summary, self.module, self.scope, self.requires, self.check))

    @property
    def explain(self) -> str:
        """What the rule finds, why it matters, an example and the fix: its module's docstring."""
        return module_docstring(self.module)

    @classmethod
    def from_module(cls, module: ModuleType) -> Rule:
        return cls(
            code=module.CODE,
            name=module.NAME,
            severity=module.SEVERITY,
            summary=module.SUMMARY,
            module=module.__name__,
            scope=getattr(module, "SCOPE", "module"),
            requires=tuple(getattr(module, "REQUIRES", ())),
            check=module.check,
        )


@dataclass(slots=True, repr=False, eq=False, init=False)
class ModuleContext:
    """What a module-level rule sees: the module and the rule itself."""

    module: Module
    rule: Rule

    def __init__(self, module: Module, rule: Rule) -> None:
        self.module = module
        self.rule = rule

    def diagnostic(
        self,
        where: Provenance,
        message: str,
        *,
        kernel: str | None = None,
        end_column: int | None = None,
        notes: tuple[Note, ...] = (),
        severity: Severity | None = None,
        fix: Fix | None = None,
    ) -> Diagnostic:
        """A diagnostic of this rule at `where` (a rule may report some findings at a lower severity)."""
        if end_column is None:
            source = self.module.sources.get(where.path)
            text = source.line_text(where.line) if source else ""
            end_column = max(len(text.rstrip()) + 1, where.column + 1)
        return Diagnostic(
            self.rule.code,
            self.rule.name,
            severity if severity is not None else self.rule.severity,
            message,
            where.path,
            where.line,
            where.column,
            where.line,
            end_column,
            kernel,
            notes + expansion_notes(where),
            fix,
        )

    def insert_before(self, where: Provenance, lines: list[str], description: str, *, isolated: bool = False) -> Fix:
        """A fix inserting `lines` just before the statement at `where`: above its line with the line's
        indentation (and above a `disable-next-line` suppression aimed at it), or after the labels that
        share its line (a branch to them must reach the inserted lines too). Shown only, never applied
        by --fix, when the statement comes from a macro, .rept or .include expansion: its line is not
        the file's own line to edit."""
        source = self.module.sources.get(where.path)
        text = source.line_text(where.line) if source else ""
        applicability = DISPLAY_ONLY if where.chain or source is None else SAFE
        labels = _LABELS.match(text, where.column - 1)
        if labels and text[labels.end():].strip():
            column = labels.end() + 1
            indent = re.sub(r"\S", " ", text[: labels.end()])
            insertion = "".join(f"{line}\n{indent}" for line in lines)
            edit = Edit(where.path, where.line, column, where.line, column, insertion)
            return Fix(description, (edit,), applicability, isolated)
        indent = text[: len(text) - len(text.lstrip())]
        above = _above_suppressions(source, where.line) if source else where.line
        edit = Edit(where.path, above, 1, above, 1, "".join(f"{indent}{line}\n" for line in lines))
        return Fix(description, (edit,), applicability, isolated)

    def insert_after(self, where: Provenance, lines: list[str], description: str, *, isolated: bool = False) -> Fix:
        """A fix inserting `lines` on the line after the statement at `where` (before any label there: what a branch
        to that label reaches is left as it was), with the statement's indentation; shown only for an expansion."""
        source = self.module.sources.get(where.path)
        text = source.line_text(where.line) if source else ""
        applicability = DISPLAY_ONLY if where.chain or source is None else SAFE
        indent = text[: len(text) - len(text.lstrip())]
        edit = Edit(where.path, where.line + 1, 1, where.line + 1, 1, "".join(f"{indent}{line}\n" for line in lines))
        return Fix(description, (edit,), applicability, isolated)

    def findings(self) -> Iterable[Finding]:
        """Findings the front end recorded under this rule's name."""
        return (finding for finding in self.module.findings if finding.rule == self.rule.name)

    def report_findings(self) -> Iterable[Diagnostic]:
        for finding in self.findings():
            yield self.diagnostic(finding.where, finding.message, end_column=finding.end_column,
                                  severity=Severity.WARNING if finding.warning else None)


@dataclass(repr=False, eq=False, init=False)
class KernelContext(ModuleContext):
    """What a kernel-level rule sees: the kernel and its cached analyses."""

    kernel: Kernel
    analyses: AnalysisManager

    def __init__(self, module: Module, rule: Rule, kernel: Kernel, analyses: AnalysisManager) -> None:
        self.module = module
        self.rule = rule
        self.kernel = kernel
        self.analyses = analyses

    def get(self, analysis: Runs[Result_co]) -> Result_co:
        return self.analyses.get(analysis)

    def insert_before(self, where: Provenance, lines: list[str], description: str, *, isolated: bool = False) -> Fix:
        """As for a module, and unsafe where an inserted instruction would move code the kernel
        addresses by hand (a numeric branch offset, a PC-relative offset from s_getpc_b64)."""
        fix = super().insert_before(where, lines, description, isolated=isolated)
        if fix.applicability != SAFE:
            return fix
        whole_kernel, before = self._hand_addressed
        reason = whole_kernel or before.get(self._index_of.get(id(where), -1))
        return replace(fix, description=f"{fix.description} ({reason})", applicability=UNSAFE) if reason else fix

    def insert_after(self, where: Provenance, lines: list[str], description: str, *, isolated: bool = False) -> Fix:
        """As for a module, and unsafe where an instruction inserted before the next one would be."""
        fix = super().insert_after(where, lines, description, isolated=isolated)
        if fix.applicability != SAFE:
            return fix
        whole_kernel, before = self._hand_addressed
        reason = whole_kernel or before.get(self._index_of.get(id(where), -2) + 1)
        return replace(fix, description=f"{fix.description} ({reason})", applicability=UNSAFE) if reason else fix

    @cached_property
    def _index_of(self) -> dict[int, int]:
        return {id(instruction.where): index for index, instruction in enumerate(self.kernel.instructions)}

    @cached_property
    def _hand_addressed(self) -> tuple[str | None, dict[int, str]]:
        """Why inserting an instruction could break the kernel's addressing: everywhere (a branch written
        as a dword offset, `s_branch 61`), or before given instructions (those after an s_getpc_b64 up to
        the one adding a constant offset to the PC it read, `s_add_u32 s4, s4, f@rel32@lo+4`)."""
        instructions = self.kernel.instructions
        for instruction in instructions:
            if is_branch(instruction.mnemonic) and instruction.operands and instruction.branch_target is None:
                return (f"the kernel branches by offset at line {instruction.where.line}: "
                        "an inserted instruction moves its target"), {}
        before: dict[int, str] = {}
        for index, instruction in enumerate(instructions):
            pc = instruction.operands[0] if instruction.mnemonic == "s_getpc_b64" and instruction.operands else None
            if not isinstance(pc, Reg):
                continue
            window = instructions[index + 1 : index + 5]
            offsets = [n for n, user in enumerate(window, index + 1) if _adds_offset_to(user, pc)]
            for n in range(index + 1, (offsets[-1] + 1) if offsets else index + 1):
                before[n] = (f"between s_getpc_b64 at line {instruction.where.line} and the PC-relative offset at "
                             f"line {instructions[offsets[-1]].where.line}: an inserted instruction moves it")
        return None, before


def _adds_offset_to(instruction: Instruction, pc: Reg) -> bool:
    """Whether `instruction` reads a register of `pc` together with a constant or symbolic operand."""
    sources = instruction.operands[1:]
    reads_pc = any(isinstance(o, Reg) and o.kind == pc.kind and pc.index <= o.index < pc.index + pc.count
                   for o in sources)
    return reads_pc and any(not isinstance(o, Reg) for o in sources)
