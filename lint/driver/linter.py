"""Lint driver: build a module from a file and run the selected rules over it."""

from __future__ import annotations

import fnmatch
import itertools
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path

from ..analyses.manager import AnalysisManager
from ..frontend.builder import EarlyKernelsUnsafe, build_module, same_value, start_assembler
from ..frontend.options import BuildOptions, is_other_input, is_source_input
from ..frontend.source import read_source, split_lines
from ..model.diagnostics import DISPLAY_ONLY, Diagnostic, LineSource, Note, QuotedLines, Severity, quoted_lines
from ..model.ir import Instruction, Kernel, Module, ReadProblem, SourceFile
from ..model.nodes import LocalRef, Sym
from ..rules import RULES, assembler_error
from .rule import KernelContext, ModuleContext, Rule
from .selection import RuleSelection
from .suppressions import Suppressions

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from ..frontend.assembler import Assembler, AssemblerRun


@dataclass(slots=True, repr=False)
class FileResult:
    """What linting one input produced: findings, quoted lines and kernel summaries."""

    path: str
    module: Module | None
    diagnostics: list[Diagnostic]
    error: str | None = None  # the file could not be read at all
    quoted: dict[str, QuotedLines] = field(default_factory=dict)  # the lines findings point at, when no module is kept
    skipped: str | None = None  # why the file was not linted: a note, not a failure
    notes: tuple[str, ...] = ()  # how its listing was made differently (a compile's added flags), each naming
    # the input: said once
    assembler: Assembler | None = None  # the user's assembler, when the file was linted with it

    def without_module(self) -> FileResult:
        """What an output needs once the module is dropped: the findings and the lines they point at."""
        if self.module is None:
            return self
        quoted = {**quoted_lines(self.diagnostics, self.module.sources), **self.quoted}  # moved to source lines: kept
        return FileResult(self.path, None, self.diagnostics, self.error, quoted, notes=self.notes,
                          assembler=self.assembler)


#: directives only AMDGPU assembly has (target, kernel descriptor, metadata, code object)
_AMDGPU_DIRECTIVES = (".amdgcn_", ".amdhsa_", ".amdgpu_", ".amd_kernel_code_t", ".hsa_code_object")
NOT_AMDGPU = "not AMDGPU assembly (no AMDGPU target, directive or instruction); pass --mcpu to lint it"


def looks_like_amdgpu(module: Module) -> bool:
    """Whether a module shows any sign of AMDGPU code: a target, a problem reading it, an AMDGPU
    directive, or an instruction that some AMDGPU processor has. CPU assembly (x86, Arm, ...) shows none."""
    from ..isa import pages_with

    source = module.sources.get(module.path)
    if module.target is not None or source is None or source.problems:
        return True
    if any(statement.name.startswith(_AMDGPU_DIRECTIVES) for statement, _ in module.directives):
        return True
    return any(pages_with(instruction.mnemonic) for kernel in module.kernels for instruction in kernel.instructions)


def skipped_unless_amdgpu(result: FileResult) -> FileResult:
    """The result, or for a file that is not AMDGPU code at all (no target and no sign of it), a note instead."""
    if result.module is not None and not looks_like_amdgpu(result.module):
        return FileResult(result.path, None, [], skipped=NOT_AMDGPU)
    return result


def run_rules(module: Module, rules: list[Rule], processes: int = 1, assembled: AssemblerRun | None = None) -> list[Diagnostic]:
    """Module and kernel rules, then inline suppressions (and the rule reporting unused ones). With two
    `processes`, a forked copy lints the first half of the kernels (by instructions). `assembled`: the user's
    assembler running on the file, read once the kernels are linted."""
    kernel_rules = [rule for rule in rules if rule.scope == "kernel"]
    if processes < 2 or not kernel_rules or len(module.kernels) < 2:
        return _module_rules(module, rules, _kernel_rules(module, module.kernels, kernel_rules), assembled)
    from .forks import in_two

    linted = in_two(partial(_kernel_rules, module, rules=kernel_rules), module.kernels,
                    [len(kernel.instructions) for kernel in module.kernels])
    return _module_rules(module, rules, linted, assembled)


def _kernel_rules(module: Module, kernels: list[Kernel], rules: list[Rule]) -> list[Diagnostic]:
    diagnostics: list[Diagnostic] = []
    for kernel in kernels if rules else ():
        manager = AnalysisManager(module, kernel)
        for rule in rules:
            diagnostics.extend(rule.check(KernelContext(module, rule, kernel, manager)))
    return diagnostics


def _module_rules(module: Module, rules: list[Rule], kernel_diagnostics: list[Diagnostic],
                  assembled: AssemblerRun | None = None) -> list[Diagnostic]:
    """Module rules (the assembler's messages among them), then inline suppressions over everything (and the rule
    reporting unused ones)."""
    diagnostics: list[Diagnostic] = []
    module.assembled = assembled
    try:
        for rule in rules:
            if rule.scope == "module":
                diagnostics.extend(rule.check(ModuleContext(module, rule)))
    finally:
        module.assembled = None
    diagnostics += kernel_diagnostics
    if assembled is not None:
        diagnostics = assembler_error.deduplicated(diagnostics, module.path)
    suppressions = Suppressions(module.sources)
    diagnostics = suppressions.apply(diagnostics)
    known = frozenset(r.name for r in RULES) | frozenset(r.code for r in RULES)
    for rule in rules:
        if rule.scope == "suppressions":
            diagnostics.extend(rule.check(ModuleContext(module, rule), suppressions.unused(), known))
    return diagnostics


class _ReadSymbols(dict):
    """A module's symbols as kernel rules read them, each value read remembered. It takes the place of
    `Module.symbols`, which kernel rules only `get` from (a dict, empty: what is not read through `get` is not there)."""

    def __init__(self, symbols: dict[str, Any], reads: dict[str, Any]):
        super().__init__()
        self._symbols, self._reads = symbols, reads

    def get(self, name: str, default: Any = None) -> Any:
        value = self._reads[name] = self._symbols.get(name, default)
        return value


def _naming_undefined(instructions: list[Instruction], module: Module) -> list[Instruction]:
    """The instructions whose label operand (`Instruction.branch_target`) names nothing the file has defined so
    far (labels and symbols are never undefined again: module rules need only these of a linted kernel)."""
    labels, symbols = module.defined_labels, module.symbols
    kept = []
    for instruction in instructions:  # one loop, no call per instruction: it sees every instruction of the file
        for operand in instruction.operands:
            if isinstance(operand, (Sym, LocalRef)):
                if not isinstance(operand, Sym) or (operand.name not in labels and operand.name not in symbols):
                    kept.append(instruction)
                break
    return kept


#: A file with this many code lines is shared by two processes when a core is spare (`processes`): below it,
#: the second process costs about what it saves (`check`: 10k lines 0.97x the time, 20k 0.92x, 100k 0.7x).
SPLIT_LINES = 40_000
#: The part of a split file whose kernels the forked copy lints: it builds only that part, while this process
#: builds the whole file (module rules need all of it) and lints the kernels of the rest.
COPY_PART = 0.6


def worth_sharing(source: SourceFile | None, processes: int) -> int:
    """`processes`, or one for a file too short for a second process to gain (or none)."""
    return processes if source is not None and len(source.lines) >= SPLIT_LINES else 1


def run_rules_streamed(source: SourceFile, options: BuildOptions, rules: list[Rule],
                       processes: int = 1, assembled: AssemblerRun | None = None) -> tuple[Module, list[Diagnostic]]:
    """Build and lint with each kernel's rules run as soon as the kernel is complete; the module keeps of a
    linted kernel only what module rules read (its instructions naming a label not defined yet). When the rest of
    the file changes what a kernel was linted with, the file is built and linted again all at once. With two
    `processes` and a long file, a forked copy lints the kernels of its first part (`_Split`)."""
    from .forks import CopyFailed, fork_copy

    kernel_rules = [rule for rule in rules if rule.scope == "kernel"]
    split = processes > 1 and bool(kernel_rules) and len(source.lines) > 0
    boundary = source.lines.numbers[int(len(source.lines) * COPY_PART)] if split else 0
    for early in (True, False):
        copy = None
        if early and split:
            copy = fork_copy(partial(_build_and_lint, source, options, kernel_rules, _Split(source.path, boundary, True)))
        here = partial(_build_and_lint, source, options, kernel_rules,
                       _Split(source.path, boundary, False) if copy else None, early)
        module, found, reads = here() if copy is None else copy.alongside(here)
        all_reads = [reads]
        if copy is not None:
            try:
                _, copied, copy_reads = copy.result()
            except CopyFailed:
                return run_rules_streamed(source, options, rules, 1, assembled)  # what failed there fails here, as without a copy
            found.update(copied)
            all_reads.append(copy_reads)
        if module is None:
            continue
        if early and not all(same_value(module.symbols.get(name), value) for read in all_reads for name, value in read.items()):
            continue
        linted = [diagnostic for number in sorted(found) for diagnostic in found[number]]
        return module, _module_rules(module, rules, linted, assembled)
    raise AssertionError("a build without early kernels is always safe")


class _CopyDone(Exception):
    """The forked copy has linted its part's kernels: it builds no further."""


@dataclass(slots=True, repr=False, init=False, eq=False)
class _Split:
    """Which of two processes lints a kernel of a split file: the forked copy those handed on before the first
    that begins at or after `boundary` (a line of the file), this process the others. Both see the same kernels
    in the same order, so they agree without a word."""

    path: str
    boundary: int
    in_copy: bool
    reached: bool = False  # a kernel at or after the boundary has been handed on

    def __init__(self, path: str, boundary: int, in_copy: bool, reached: bool = False) -> None:
        self.path = path
        self.boundary = boundary
        self.in_copy = in_copy
        self.reached = reached

    def lints(self, kernel: Kernel) -> bool:
        if not self.reached and kernel.instructions:
            where = kernel.instructions[0].where
            start = where.chain[-1] if where.chain else where  # its place in the file itself
            if start.path == self.path and start.line >= self.boundary:
                self.reached = True
                if self.in_copy:
                    raise _CopyDone
        return self.in_copy != self.reached


def _build_and_lint(source: SourceFile, options: BuildOptions, kernel_rules: list[Rule], split: _Split | None,
                        early: bool = True) -> tuple[Module | None, dict[int, list[Diagnostic]], dict[str, Any]]:
    """(the module, or None when early kernels were unsafe; each linted kernel's findings by its number in the
    order kernels were handed on; the symbol values the rules read). In the copy: the last two only."""
    found: dict[int, list[Diagnostic]] = {}
    reads: dict[str, Any] = {}
    numbers = itertools.count()

    def handle(module: Module, kernels: list[Kernel]) -> None:
        symbols = module.symbols
        module.symbols = _ReadSymbols(symbols, reads)
        try:
            for kernel, number in zip(kernels, numbers):
                if split is None or split.lints(kernel):
                    found[number] = _kernel_rules(module, [kernel], kernel_rules)
        finally:
            module.symbols = symbols
        if module.target is None:
            return  # kept whole: what the file's instructions are tells whether it is AMDGPU code at all
        for kernel in kernels:
            kernel.instructions = _naming_undefined(kernel.instructions, module)
            kernel.labels, kernel.descriptor, kernel.metadata = {}, {}, None

    module: Module | None = None
    try:
        module = build_module(source, options, handle, early)
    except (EarlyKernelsUnsafe, _CopyDone):
        pass
    return None if split is not None and split.in_copy else module, found, reads


def _per_file_ignored(diagnostics: list[Diagnostic], selection: RuleSelection) -> list[Diagnostic]:
    """`diagnostics` less those a per-file-ignores pattern matching their file's resolved path turns off."""
    if not selection.per_file_ignores:
        return diagnostics
    resolved: dict[str, str] = {}
    kept = []
    for diagnostic in diagnostics:
        path = resolved.get(diagnostic.path)
        if path is None:
            path = resolved[diagnostic.path] = Path(diagnostic.path).resolve().as_posix()
        if not any(fnmatch.fnmatch(path, pattern) and any(RuleSelection._matches_diagnostic(diagnostic, t) for t in tokens)
                   for pattern, tokens in selection.per_file_ignores):
            kept.append(diagnostic)
    return kept


def _apply_severities(diagnostics: list[Diagnostic], selection: RuleSelection) -> list[Diagnostic]:
    if not selection.severities:
        return diagnostics
    result = []
    for diagnostic in diagnostics:
        for token, severity in selection.severities.items():
            if token.lower() == diagnostic.name or token.upper() == diagnostic.code:
                diagnostic = replace(diagnostic, severity=severity)
        result.append(diagnostic)
    return result


def lint_file(path: str | Path, options: BuildOptions, rules: list[Rule], selection: RuleSelection | None = None,
              keep_module: bool = True, processes: int = 1, started: AssemblerRun | None = None) -> FileResult:
    """Lint one assembly file (without `keep_module`, the module keeps little of each kernel, and a long file
    may be shared by `processes`; `started`: the assembler already running on it)."""
    shown = str(path)
    try:
        source = read_source(path, shown)
    except OSError as error:
        return FileResult(shown, None, [], f"{shown}: cannot read: {error.strerror or error}")
    return lint_source(source, options, rules, selection, keep_module, processes, started)


def lint_input(path: Path, options: BuildOptions, rules: list[Rule], selection: RuleSelection | None = None,
               keep_module: bool = True, processes: int = 1, buffer: str | None = None,
               assembled: AssemblerRun | None = None) -> list[FileResult]:
    """Lint any input: assembly (skipped with a note when it is CPU assembly; `assembled`: the assembler already
    running on it), or LLVM IR / code objects / Triton entries turned into assembly; a HIP or OpenCL source's
    unsaved `buffer` text instead of the file."""
    if not is_other_input(path) and not is_source_input(path, options):
        return [skipped_unless_amdgpu(lint_file(path, options, rules, selection, keep_module, processes, assembled))]
    from ..frontend import inputs
    from ..frontend.compile import CompileError

    try:
        prepared = inputs.prepare(path, options, buffer)
    except OSError as error:
        return [FileResult(str(path), None, [], f"{path}: cannot read: {error.strerror or error}")]
    except CompileError as failed:  # names of their own: mypyc types a name once per function
        return [_compile_failed(path, failed, rules)]
    except inputs.InputError as unreadable:
        source = split_lines(str(path), "")
        source.problems.append(ReadProblem("input-conversion", str(unreadable), 1))
        return [lint_source(source, options, rules, selection)]
    results = []
    for item in prepared:
        result = lint_source(item.source, replace(item.options, assembler=None), rules, selection)  # made, not written
        result.diagnostics = [_shown_only(d) for d in result.diagnostics]
        if item.generated:
            result.diagnostics = [_with_origin(d, item) for d in result.diagnostics]
        result.notes = tuple(f"{item.origin}: {note}" for note in item.notes)
        results.append(result)
    return results


def _compile_failed(path: Path, error, rules: list[Rule]) -> FileResult:
    """A source that did not compile: one input-conversion finding where the compiler says its first error is."""
    where = error.path or str(path)
    rule = next((rule for rule in rules if rule.name == "input-conversion"), None)
    if rule is None:
        return FileResult(str(path), None, [])
    finding = Diagnostic(rule.code, rule.name, Severity.ERROR, f"does not compile: {error}", where, error.line,
                         error.column, error.line, error.column + 1)
    return FileResult(str(path), None, [finding])


def _shown_only(diagnostic: Diagnostic) -> Diagnostic:
    """A finding on a listing made from another input (or a Triton cache entry): its fix edits that
    listing, not the user's source, so --fix never applies it."""
    return replace(diagnostic, fix=replace(diagnostic.fix, applicability=DISPLAY_ONLY)) if diagnostic.fix else diagnostic


def _with_origin(diagnostic: Diagnostic, item) -> Diagnostic:
    message = f"{diagnostic.message} [{item.target}]" if item.target else diagnostic.message
    return replace(diagnostic, message=message, notes=(*diagnostic.notes, Note(f"listing {item.described}")))


def lint_source(source: SourceFile, options: BuildOptions, rules: list[Rule], selection: RuleSelection | None = None,
                keep_module: bool = True, processes: int = 1, started: AssemblerRun | None = None) -> FileResult:
    """Lint a read file; without `keep_module`, each kernel is linted as soon as it is complete and the
    module keeps little of it (memory bounded by the largest kernel, not the file), and a long file may be
    shared by `processes` (`run_rules_streamed`). `started`: the user's assembler, started on the file before
    it was read (taken if it is the run the lint would start, else stopped)."""
    processes = worth_sharing(source, processes)
    assembler = options.assembler if any(rule.name == assembler_error.NAME for rule in rules) else None
    assembled = start_assembler(source, options, started) if assembler is not None else None
    try:
        if keep_module:
            module = build_module(source, options)
            diagnostics = run_rules(module, rules, processes, assembled)
        else:
            module, diagnostics = run_rules_streamed(source, options, rules, processes, assembled)
    finally:
        if assembled is not None:
            assembled.close()
    if selection is not None:
        diagnostics = _per_file_ignored(_apply_severities(diagnostics, selection), selection)
    quoted: dict[str, QuotedLines] = {}
    if options.locations == "source" and any(d.path == source.path for d in diagnostics) and ".loc" in source.text:
        from ..model.debuglines import debug_lines
        from .locations import at_source_lines

        debug = debug_lines(source.text, source.path)
        if debug:
            texts = {number: source.line_text(number) for d in diagnostics if d.path == source.path
                     for number in (d.line, *(n.line for n in d.notes if n.path == source.path and n.line))}
            diagnostics, quoted = at_source_lines(diagnostics, source.path, debug, texts)
    diagnostics.sort(key=lambda d: d.sort_key)
    if options.baseline and options.baseline.get("findings"):
        from .baseline import ROOT_ENTRY, finding_keys

        known = set(options.baseline["findings"])
        lines: dict[str, LineSource] = {**module.sources, **quoted}
        keys = finding_keys(diagnostics, lines, legacy=ROOT_ENTRY not in options.baseline)
        diagnostics = [d for d, key in zip(diagnostics, keys, strict=True) if key not in known]
    return FileResult(source.path, module, diagnostics, quoted=quoted, assembler=assembler)
