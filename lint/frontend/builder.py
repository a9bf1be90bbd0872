"""Build the IR Module from one input file: target, kernels, descriptors, metadata, code."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from ..model.expr import EvalError, evaluate, target_functions
from ..model.ir import Finding, Instruction, Kernel, Module, Provenance, SourceFile
from ..model.nodes import LocalRef, Statement, Sym
from ..model.targets import NON_HSA_MARKS, Target, UnknownTarget, old_spelling, parse_target_id, with_mcpu_features
from .directives import is_notable
from .metadata import (
    AMDHSA_DIRECTIVES,
    AMDHSA_MAXIMA,
    MetadataError,
    against_target,
    fill_descriptor_defaults,
    parse_kernel_code_t,
    parse_metadata_yaml,
    read_v2_code_props,
    unusable_counts,
    usable_entry,
)
from .options import BuildOptions
from .preprocessor import (
    CODE_OBJECT_V2_MARKS,
    Emitted,
    PlainRun,
    Preprocessor,
    plain_block_texts,
)
from .syntax import ParseFailure, parse_expressions

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final

    from .assembler import AssemblerRun

_TARGET_DIRECTIVE = re.compile(r'\s*\.amdgcn_target\s+"([^"]*)"')
#: what a lint does with functions as the build hands them on
KernelHandler = Callable[[Module, list[Kernel]], None]
_FUNCTION_TYPES: Final = ("@function", "%function", "STT_FUNC", "@STT_AMDGPU_HSA_KERNEL", "STT_AMDGPU_HSA_KERNEL")


def _scan_target(source: SourceFile) -> tuple[str, int] | None:
    """Find `.amdgcn_target` before preprocessing (generation symbols depend on it)."""
    for index, text in enumerate(source.lines.texts()):
        if text.startswith(".amdgcn_target"):
            match = _TARGET_DIRECTIVE.match(text)
            if match:
                return match.group(1), source.lines.numbers[index]
    return None




def _is_hsa(source: SourceFile, declared: tuple[str, int] | None) -> bool:
    """Whether the file is for the amdhsa OS: its `.amdgcn_target` says so; without one, hand-written
    ROCm kernels (ROCR's blit and trap shaders, MIOpen) are assembled for amdhsa, and a listing for
    another OS shows itself by what only it contains."""
    if declared:
        return "amdhsa" in declared[0]
    return not any(text.startswith(NON_HSA_MARKS) for text in source.lines.texts())


def mentions_code_object_v2(source: SourceFile) -> bool:
    """Whether the file has a code object v2 directive (`.hsa_code_object_version`/`.hsa_code_object_isa`),
    in whatever `.if` branch."""
    return ".hsa_code_object_" in source.text and any(
        text.startswith(CODE_OBJECT_V2_MARKS) for text in source.lines.texts())


def _predefined(target: Target, source: SourceFile, declared: tuple[str, int] | None) -> dict[str, int]:
    """The assembler's predefined symbols; for a file with code object v2 directives also
    `.option.machine_version_*`, which LLVM up to 14 defined from the target in that mode (MIOpen's macros
    branch on them before the directives are reached)."""
    symbols = target.generation_symbols(_is_hsa(source, declared))
    return {**target.generation_symbols(False), **symbols} if mentions_code_object_v2(source) else symbols


def resolve_target(
    declared: tuple[str, int] | None, path: str, mcpu: str | None, findings: list[Finding]
) -> Target | None:
    """The target from `.amdgcn_target`, else `--mcpu`/config. Unknown names become findings."""
    candidates: list[tuple[str, Provenance]] = []
    if declared:
        candidates.append((declared[0], Provenance(path, declared[1])))
    if mcpu:
        candidates.append((mcpu, Provenance(path, 1)))
    for text, where in candidates:
        try:
            target = parse_target_id(text)
        except UnknownTarget as error:
            findings.append(Finding("unknown-target", f"unknown processor '{error}' in target '{text}'", where))
            continue
        today = old_spelling(text) if declared and text == declared[0] else None
        if today is not None:
            findings.append(Finding("unknown-target", f"'{text}' is the target spelling of before 2020, which llvm-mc 22 "
                                    f"refuses; read as '{today}' (write \"{_today(text, today)}\")", where))
        return with_mcpu_features(target, mcpu) if declared and text == declared[0] else target
    return None


def start_assembler(source: SourceFile, options: BuildOptions, started: AssemblerRun | None = None) -> AssemblerRun | None:
    """The user's assembler started on the file for the target the build reads (`.amdgcn_target`, else `--mcpu`),
    with its include directories and symbols; None without an assembler or a known target. `started`: a run begun
    before the file was read (`driver.session`), taken when it is on this file with this command line, else stopped."""
    from .assembler import AssemblerRun, assembler_arguments

    declared = _scan_target(source)
    arguments = None if options.assembler is None else assembler_arguments(
        options.assembler, declared[0] if declared else None, _is_hsa(source, declared), options.mcpu,
        options.include_dirs, options.defsyms)
    if started is not None:
        if started.arguments == arguments and started.path == source.path:
            return started
        started.close()
    return None if arguments is None else AssemblerRun(arguments, source.path, source.text)


def _today(text: str, target_id: str) -> str:
    """`text` (a target in the spelling of before 2020) with its processor part spelt as `target_id`."""
    return f"{text.rsplit('--', 1)[0]}--{target_id}" if "--" in text else target_id


@dataclass(slots=True, repr=False, init=False, eq=False)
class KernelCode:
    """An .amd_kernel_code_t block's evaluated fields, in the code stream."""

    fields: dict[str, int | None]
    where: Provenance
    lines: dict[str, Provenance]  # where each field is

    def __init__(self, fields: dict[str, int | None], where: Provenance, lines: dict[str, Provenance]) -> None:
        self.fields = fields
        self.where = where
        self.lines = lines


class _Builder:
    def __init__(self, module: Module, preprocessor: Preprocessor):
        self.module = module
        self.pre = preprocessor
        self.code: list[str | Instruction | KernelCode] = []  # labels, instructions and .amd_kernel_code_t blocks
        self.function_symbols: set[str] = set()
        self.kernel_symbols: set[str] = set()
        self.descriptors: dict[str, tuple[dict[str, Any], Provenance]] = {}
        self.open_descriptor: tuple[str, dict[str, Any], Provenance] | None = None
        self.local_label_count: dict[int, int] = {}
        self.pending_forward: list[tuple[Instruction, int, int]] = []  # (instr, operand index, label)
        # handing kernels on before the end of the file (None: all at the end)
        self.early: _EarlyKernels | None = None

    # ---------------------------------------------------------------- stream

    def consume(self, item: Emitted) -> None:
        statement, where, raw = item
        for label in statement.labels:
            self._label(label, where)
        kind = statement.kind
        if kind == "instruction":
            instruction = Instruction.from_statement(statement, where)
            if LocalRef in map(type, statement.operands):
                self._resolve_local_refs(instruction)
            self.code.append(instruction)
        elif kind == "directive":
            self._directive(statement, where)
        elif kind == "block":
            if is_notable(statement.name) or self.module.target is None:
                self.module.directives.append((statement, where))
            self._block(statement.name, raw, where)

    def consume_run(self, run: PlainRun) -> None:
        """`consume` for each statement of a run of a file's plain statements (none is a raw block)."""
        path, chain, first = run.lines.path, run.chain, run.first
        stop = first + len(run.statements)
        for statement, number, column in zip(run.statements, run.lines.numbers[first:stop],
                                             run.lines.columns[first:stop]):
            where = Provenance(path, number, column, chain)
            if statement.labels:
                for label in statement.labels:
                    self._label(label, where)
            if statement.kind == "instruction":  # mentions no symbol, so no local label (`1b`) either
                pair = statement.pair  # Instruction.from_statement, without a call per instruction: the hot path
                self.code.append(Instruction(statement.name, statement.operands, statement.modifiers, where,
                                             None if pair is None else Instruction.from_statement(pair, where)))
            elif statement.kind == "directive":
                self._directive(statement, where)

    def _label(self, name: str, where: Provenance) -> None:
        if self.early is not None and self.code and self._is_entry(name) and not self.pending_forward \
                and self.open_descriptor is None:
            self._hand_on(self.early)
        if name.isdigit():
            number = int(name)
            count = self.local_label_count.get(number, 0) + 1
            self.local_label_count[number] = count
            name = f"{number}@{count}"
            still_pending = []
            for instruction, index, label in self.pending_forward:
                if label == number:
                    operands = list(instruction.operands)
                    operands[index] = Sym(name)
                    instruction.operands = tuple(operands)
                else:
                    still_pending.append((instruction, index, label))
            self.pending_forward = still_pending
        elif name in self.module.defined_labels:
            self.module.findings.append(Finding("parse-error", f"label '{name}' is defined more than once", where))
        self.module.defined_labels.add(name)
        self.code.append(name)

    def _resolve_local_refs(self, instruction: Instruction) -> None:
        for index, operand in enumerate(instruction.operands):
            if not isinstance(operand, LocalRef):
                continue
            if operand.forward:
                self.pending_forward.append((instruction, index, operand.label))
            elif operand.label in self.local_label_count:
                operands = list(instruction.operands)
                operands[index] = Sym(f"{operand.label}@{self.local_label_count[operand.label]}")
                instruction.operands = tuple(operands)

    def _directive(self, statement: Statement, where: Provenance) -> None:
        name, args = statement.name, statement.args
        if is_notable(name) or self.module.target is None:
            self.module.directives.append((statement, where))
        if self.open_descriptor is not None:
            if name == ".end_amdhsa_kernel":
                kernel_name, values, start = self.open_descriptor
                self.descriptors[kernel_name] = (values, start)
                self.open_descriptor = None
            elif name.startswith(".amdhsa_"):
                key = name[len(".amdhsa_") :]
                values = self.open_descriptor[1]
                if key in values:
                    self.module.findings.append(Finding("parse-error", f"'{name}' repeated in .amdhsa_kernel block", where))
                values[key] = (args, where)
            return
        if name == ".amdhsa_kernel":
            kernel_name = args.strip().strip('"')
            if not kernel_name:
                self.module.findings.append(Finding("parse-error", "'.amdhsa_kernel' needs a kernel name", where))
                kernel_name = "<unnamed>"
            self.open_descriptor = (kernel_name, {}, where)
            self._becomes_entry(kernel_name)
            self.kernel_symbols.add(kernel_name)
        elif name == ".end_amdhsa_kernel":
            self.module.findings.append(Finding("parse-error", "'.end_amdhsa_kernel' without .amdhsa_kernel", where))
        elif name.startswith(".amdhsa_") and name not in (".amdhsa_code_object_version",):
            self.module.findings.append(Finding("parse-error", f"'{name}' is only valid inside an .amdhsa_kernel block", where))
        elif name == ".amdhsa_code_object_version":
            self.module.code_object_version = self._evaluate_int(args, where)
        elif name == ".type":
            symbol, _, kind = args.partition(",")
            symbol = symbol.strip().strip('"')
            if kind.strip() in _FUNCTION_TYPES:
                self._becomes_entry(symbol)
                self.function_symbols.add(symbol)
                if "HSA_KERNEL" in kind:
                    self.kernel_symbols.add(symbol)
        elif name == ".amdgpu_hsa_kernel":
            self._becomes_entry(args.strip())
            self.kernel_symbols.add(args.strip())
            self.function_symbols.add(args.strip())

    def _block(self, name: str, raw: str, where: Provenance) -> None:
        if name == ".amdgpu_metadata":
            if self.early is not None and raw == self.early.metadata_text:
                self.module.metadata = self.early.metadata  # read ahead from this very text
            else:
                try:
                    self.module.metadata = parse_metadata_yaml(raw)
                except MetadataError as error:
                    line = Provenance(where.path, where.line + 1 + error.line_offset, 1, where.chain)
                    self.module.findings.append(Finding("parse-error", str(error), line))
                    return
            for problem in unusable_counts(self.module.metadata or {}):
                self.module.findings.append(Finding("parse-error", f"in .amdgpu_metadata: {problem}", where))
        elif name == ".amd_amdgpu_hsa_metadata":
            for kernel, props in read_v2_code_props(raw).items():
                self.module.code_props_v2[kernel] = {
                    key: (value, Provenance(where.path, where.line + 1 + offset, column, where.chain))
                    for key, (value, offset, column) in props.items()}
        elif name == ".amd_kernel_code_t":
            fields, bad = parse_kernel_code_t(raw)
            for offset, text in bad:
                line = Provenance(where.path, where.line + 1 + offset, 1, where.chain)
                self.module.findings.append(Finding("parse-error", f"expected 'key = value' in .amd_kernel_code_t, found '{text}'", line))
            lines = {key: Provenance(where.path, where.line + 1 + offset, 1, where.chain)
                     for key, (offset, _) in fields.items()}
            values = {key: self._evaluate_int(text, lines[key]) for key, (_, text) in fields.items()}
            self.code.append(KernelCode(values, where, lines))

    def _evaluate_int(self, text: str, where: Provenance, lookup: Callable[[str], Any] | None = None) -> int | None:
        """The integer value of `text` (None when it has none), symbols read by `lookup` (the preprocessor's)."""
        if text.isascii() and text.isdigit() and (text[0] != "0" or text == "0") and len(text) < 20:
            return int(text)  # a decimal literal, as most descriptor fields are
        parsed = parse_expressions(text)
        if isinstance(parsed, ParseFailure) or len(parsed) != 1:
            message = parsed.message if isinstance(parsed, ParseFailure) else "expected one value"
            self.module.findings.append(Finding("parse-error", f"bad value '{text}': {message}", where))
            return None
        try:
            value = evaluate(parsed[0], lookup or self.pre.lookup, self.pre.functions)
        except EvalError:
            return None  # refers to symbols LLVM resolves at link time; not an error
        return value if isinstance(value, int) else None

    # ---------------------------------------------------------------- finishing

    def _becomes_entry(self, name: str) -> None:
        """Note a label that code handed on early read as inside a function, now named a function."""
        if (self.early is not None and name in self.module.defined_labels and not self._is_entry(name)
                and name not in self.code):
            self.early.relabelled = True

    def _is_entry(self, name: str) -> bool:
        """Whether a label starts a function, as far as the file has said so far."""
        return (name in self.function_symbols or name in self.kernel_symbols or name in self.descriptors
                or (self.early is not None and name in self.early.described))

    def finish(self) -> None:
        module = self.module
        if self.open_descriptor is not None:
            module.findings.append(
                Finding("parse-error", "unterminated '.amdhsa_kernel': no matching .end_amdhsa_kernel", self.open_descriptor[2])
            )
            self.descriptors[self.open_descriptor[0]] = (self.open_descriptor[1], self.open_descriptor[2])
        for instruction, _, number in self.pending_forward:
            module.findings.append(
                Finding("undefined-symbol", f"forward reference '{number}f' has no later label '{number}:'", instruction.where)
            )
        if module.target is None and module.metadata and isinstance(module.metadata.get("amdhsa.target"), str):
            with contextlib.suppress(UnknownTarget):
                module.target = parse_target_id(module.metadata["amdhsa.target"])
        if self.early is not None:
            self.early.confirm(self)
        kernels = [kernel for _, kernel in self._split_functions(self.code)]
        self._attach_metadata(kernels, metadata_entries(module.metadata), final=True)
        module.kernels.extend(kernels)

    def _hand_on(self, early: _EarlyKernels) -> None:
        """The code so far is complete functions: build them and hand them on (module.kernels keeps
        what the handler leaves of them). A function whose descriptor reads a symbol the file has not
        defined yet (a caller's resource symbols before its callee's) is held back, with what follows
        it, until that symbol is defined (or too much code waits)."""
        if early.waiting and len(self.code) < HELD_BACK_ITEMS and all(self.pre.peek(n) is None for n in early.waiting):
            return
        items = self.code
        handed: list[Kernel] = []
        cut = len(items)
        early.waiting = set()
        for start, kernel in self._split_functions(items):
            mark = len(self.module.findings)
            reads: dict[str, Any] = {}

            def recorded(name: str, reads: dict[str, Any] = reads) -> Any:
                value = reads[name] = self.pre.peek(name)
                return value

            self._attach_metadata([kernel], early.entries, final=False, lookup=recorded)
            waiting = {name for name, value in reads.items() if value is None}
            if waiting and len(items) < HELD_BACK_ITEMS:
                del self.module.findings[mark:]
                early.waiting, cut = waiting, start
                break
            if kernel.descriptor_where is not None:
                del self.descriptors[kernel.name]
                early.described.add(kernel.name)
            early.reads.update(reads)
            handed.append(kernel)
        self.code = items[cut:]
        entries = {item for item in items[:cut] if isinstance(item, str) and self._is_entry(item)}
        early.handed.update((kernel.name, kernel.is_kernel) for kernel in handed)
        early.handed.update((name, False) for name in entries if name not in early.handed)
        early.had_code = early.had_code or any(kernel.instructions for kernel in handed)
        if handed:
            early.handle(self.module, handed)
            self.module.kernels.extend(handed)

    def _split_functions(self, items: list[str | Instruction | KernelCode]) -> list[tuple[int, Kernel]]:
        """Cut a code stream at function labels; code before any of them forms its own function. Each
        function comes with the index of the item it starts at."""
        module = self.module
        kernels: list[tuple[int, Kernel]] = []
        current: Kernel | None = None
        pending_labels: list[str] = []

        def start_unnamed(where: Provenance) -> Kernel:
            kernel = Kernel(pending_labels[0] if pending_labels else "<top-level>", where)
            kernel.labels = {label: 0 for label in pending_labels}
            pending_labels.clear()
            kernels.append((0, kernel))
            return kernel

        for index, item in enumerate(items):
            if isinstance(item, Instruction):
                current = current or start_unnamed(item.where)
                if not current.instructions:
                    current.where = item.where
                current.instructions.append(item)
            elif isinstance(item, str):
                if self._is_entry(item):
                    current = Kernel(item, Provenance(module.path, 0))
                    kernels.append((index, current))
                    pending_labels.clear()
                elif current is None:
                    pending_labels.append(item)
                else:
                    current.labels[item] = len(current.instructions)
            else:
                current = current or start_unnamed(item.where)
                current.kernel_code_t = item.fields
                current.kernel_code_where = {"": item.where, **item.lines}
                current.is_kernel = True
        return [(start, k) for start, k in kernels if k.instructions or k.name in self.descriptors]

    def _attach_metadata(self, kernels: list[Kernel], entries: dict[str, dict[str, Any]], final: bool,
                         lookup: Callable[[str], Any] | None = None) -> None:
        """Descriptors, kernel markings and metadata entries of `kernels`; at the end of the file, descriptors
        with no code become kernels of their own."""
        module = self.module
        by_name = {kernel.name: kernel for kernel in kernels}
        has_code = any(kernel.instructions for kernel in kernels) or (self.early is not None and self.early.had_code)
        for name, (raw_values, where) in list(self.descriptors.items()):
            kernel = by_name.get(name)
            if kernel is None:
                if not final:
                    continue
                # a descriptor may describe code assembled elsewhere (llvm-mc accepts it); next to
                # other code, a missing label is more likely a misspelt one
                if has_code:
                    module.findings.append(Finding("undefined-symbol", f".amdhsa_kernel '{name}' has no code label '{name}:'", where))
                kernel = Kernel(name, where)
                kernels.append(kernel)
                by_name[name] = kernel
            values: dict[str, Any] = {}
            for key, (text, directive_where) in raw_values.items():
                if key not in AMDHSA_DIRECTIVES:
                    continue  # reported by the unknown-directive rule
                value = self._evaluate_int(text, directive_where, lookup)
                if value is not None and not 0 <= value <= AMDHSA_MAXIMA[key]:
                    module.findings.append(Finding(
                        "parse-error", f"'.amdhsa_{key}' is {value}, out of range (0 to {AMDHSA_MAXIMA[key]})",
                        directive_where))
                    value = None  # unknown: nothing is sized by it
                refused = against_target(key, value, module.target)
                if refused:
                    module.findings.append(Finding("parse-error", refused, directive_where))
                values[key] = value
            for missing in fill_descriptor_defaults(values, module.target):
                module.findings.append(Finding("parse-error", f".amdhsa_kernel '{name}' lacks required '.amdhsa_{missing}'", where))
            kernel.descriptor = values
            kernel.descriptor_where = where
            kernel.is_kernel = True
        for name, kernel in by_name.items():
            if name in self.kernel_symbols:
                kernel.is_kernel = True
        for name, kernel in by_name.items():
            entry = entries.get(name)
            if entry is not None:
                kernel.metadata = entry
                kernel.is_kernel = True


def metadata_entries(metadata: dict[str, Any] | None) -> dict[str, dict[str, Any]]:
    """Each kernel's entry in the metadata's `amdhsa.kernels`, by name (a later entry of a name wins)."""
    entries = (metadata or {}).get("amdhsa.kernels") or []
    return {entry[".name"]: usable_entry(entry) for entry in (entries if isinstance(entries, list) else [])
            if isinstance(entry, dict) and isinstance(entry.get(".name"), str)}


#: code items (instructions, labels) held back at most, waiting for symbols, before it is handed on anyway
HELD_BACK_ITEMS = 20_000


class EarlyKernelsUnsafe(Exception):
    """Something later in the file changed what kernels handed on early were built from: build again, all at the end."""


@dataclass(slots=True, repr=False, init=False, eq=False)
class _EarlyKernels:
    """Kernels handed on as soon as their code is complete, and what that assumed of the rest of the file."""

    handle: KernelHandler
    metadata: dict[str, Any] | None  # the `.amdgpu_metadata` document, read ahead
    metadata_text: str | None  # its text
    entries: dict[str, dict[str, Any]] = field(default_factory=dict)  # its kernels' entries by name
    described: set[str] = field(default_factory=set)  # kernels whose descriptor was attached early
    relabelled: bool = False  # a label handed on inside a function was later named a function
    handed: dict[str, bool] = field(default_factory=dict)  # function -> marked a kernel when handed on
    reads: dict[str, Any] = field(default_factory=dict)  # symbol -> the value its descriptor fields read
    waiting: set[str] = field(default_factory=set)  # symbols held-back functions read before their definition
    had_code: bool = False

    def __init__(self, handle: KernelHandler, metadata: dict[str, Any] | None, metadata_text: str | None,
                 entries: dict[str, dict[str, Any]] | None = None, described: set[str] | None = None,
                 relabelled: bool = False, handed: dict[str, bool] | None = None, reads: dict[str, Any] | None = None,
                 waiting: set[str] | None = None, had_code: bool = False) -> None:
        self.handle = handle
        self.metadata = metadata
        self.metadata_text = metadata_text
        self.entries = {} if entries is None else entries
        self.described = set() if described is None else described
        self.relabelled = relabelled
        self.handed = {} if handed is None else handed
        self.reads = {} if reads is None else reads
        self.waiting = set() if waiting is None else waiting
        self.had_code = had_code

    def confirm(self, builder: _Builder) -> None:
        """Raise EarlyKernelsUnsafe unless the whole file agrees with what the early kernels assumed."""
        same = (builder.module.metadata == self.metadata
                and not self.relabelled
                and not any(name in builder.descriptors for name in self.handed)
                and all(is_kernel or name not in builder.kernel_symbols for name, is_kernel in self.handed.items())
                and all(same_value(builder.pre.lookup(name), value) for name, value in self.reads.items()))
        if not same:
            raise EarlyKernelsUnsafe()


def same_value(now: Any, before: Any) -> bool:
    return now is before or (type(now) is type(before) and now == before)


def _size_function(target: Target):
    """Encoded size of a parsed instruction on `target` (for the location counter `.`)."""
    from ..isa.defuse import def_use
    from ..isa.sizes import instruction_size

    def size_of(statement: Statement) -> int | None:
        info = def_use(statement.name, statement.operands, statement.modifiers, target, target.default_wave_size, True)
        return instruction_size(statement.name, statement.operands, statement.modifiers, info.variant, target,
                                statement.pair.operands if statement.pair else None)

    return size_of


def build_module(source: SourceFile, options: BuildOptions,
                 handle_kernels: KernelHandler | None = None, early: bool = True) -> Module:
    """Read, preprocess and build one file into a Module (never raises on bad input).

    With `handle_kernels`, each function is handed to it as soon as the file is known to add nothing
    to it (in a listing that expands and includes nothing: at the next function, with the metadata
    read ahead), and module.kernels keeps what the handler leaves. If the rest of the file changes
    what an early function was built from, EarlyKernelsUnsafe is raised: build again without early
    hand-over (`handle_kernels` given, `early=False`)."""
    findings: list[Finding] = [Finding(p.rule, p.message, Provenance(source.path, p.line, p.column)) for p in source.problems]
    declared = _scan_target(source)
    target = resolve_target(declared, source.path, options.mcpu, findings)
    preprocessor = Preprocessor(
        options.include_dirs,
        options.defsyms,
        predefined=_predefined(target, source, declared) if target else None,
        statement_budget=options.statement_budget,
        expansion_budget=options.expansion_budget,
        functions=target_functions(target) if target else None,
        size_of=_size_function(target) if target else None,
        register_files=target.register_files if target else None,
        bare_parameters=None if options.assembler_compat is None else options.assembler_compat != "llvm14",
    )
    triple = declared[0].rsplit("--", 1)[0] if declared and "--" in declared[0] else None
    module = Module(source.path, target, target_triple=triple, findings=findings, options=options)
    module.sources = preprocessor.sources
    module.symbols = preprocessor.symbols
    builder = _Builder(module, preprocessor)
    # a code object v2 metadata block comes after the kernels it describes: no kernel is handed on early
    if handle_kernels is not None and early and target is not None and ".amd_amdgpu_hsa_metadata" not in source.text:
        ahead = _metadata_ahead(source)
        if ahead is not None:
            builder.early = _EarlyKernels(handle_kernels, *ahead,
                                          entries=metadata_entries(ahead[0]))
    for item in preprocessor.run(source):
        if isinstance(item, PlainRun):
            builder.consume_run(item)
        else:
            builder.consume(item)
    handed = len(module.kernels)
    builder.finish()
    module.findings.extend(preprocessor.findings)
    already_reported = any(f.rule == "unknown-target" for f in module.findings)
    if module.target is None and not already_reported and module.kernels:
        module.findings.append(
            Finding(
                "unknown-target",
                "no target: add '.amdgcn_target \"amdgcn-amd-amdhsa--gfxNNN\"' or pass --mcpu (or set mcpu in config)",
                Provenance(source.path, 1),
            )
        )
    if handle_kernels is not None:
        handle_kernels(module, module.kernels[handed:])
    return module


def _metadata_ahead(source: SourceFile) -> tuple[dict[str, Any] | None, str | None] | None:
    """The file's `.amdgpu_metadata` document and its text (None, None when it has none), read before
    preprocessing; None when that cannot be known ahead."""
    blocks = plain_block_texts(source, ".amdgpu_metadata")
    if blocks is None or len(blocks) > 1:
        return None
    if not blocks:
        return None, None
    try:
        return parse_metadata_yaml(blocks[0]), blocks[0]
    except MetadataError:
        return None

