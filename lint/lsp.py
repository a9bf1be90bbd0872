"""`amdgpu-lint lsp`: a language server (pygls 2.x) over stdio.

Publishes diagnostics when a document is opened, saved or changed (changes are debounced). Linting
runs in a worker thread, one lint at a time, so requests are answered while it runs; a lint whose
document changed meanwhile is dropped unpublished. Findings inside `.include`d files are shown at
the include (or macro call) in the open document; a finding's notes (where the load was issued,
each expansion step) go out as related information. Hovering a kernel's label shows its occupancy
summary from the last finished lint, and findings that carry a fix offer it as a quick fix.

A header (`.inc`, `.h`, `.hpp`) is linted through the kernel files under the workspace that include it (as
saved on disk, or as open in the editor): its diagnostics are the findings inside it. When a file is saved,
the open documents that include it are linted again. A configuration that cannot be read is a message
in the editor and a diagnostic on line 1, not only a line in the server's log.

A HIP or OpenCL source (`.hip`, `.cl`) is compiled as it is in the editor, saved or not (a copy in a temporary
directory, its quoted includes searched in the file's own directory first; frontend/compile.py), once typing
pauses for COMPILE_DEBOUNCE_SECONDS, and its findings are published at its lines.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import re
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from . import __version__
from .analyses.manager import AnalysisManager
from .analyses.occupancy import size_spread
from .analyses.resources import ResourceAnalysis
from .driver.config import ConfigError
from .driver.rule import documentation_url
from .driver.session import lint_buffer, lint_saved
from .model.diagnostics import DISPLAY_ONLY, SAFE, Diagnostic, Note, Severity
from .model.ir import Module
from .outputs.report_text import spread_text

DEBOUNCE_SECONDS = 0.3
COMPILE_DEBOUNCE_SECONDS = 1.0  # a HIP or OpenCL buffer is compiled once typing pauses this long
HEADER_SUFFIXES = (".inc", ".h", ".hpp")  # linted through the kernel files that include them
COMPILED_SUFFIXES = (".hip", ".cl")  # compiled (the buffer as in the editor) and linted through their listings
KERNEL_SUFFIXES = (".s", ".S", ".asm")
MOST_INCLUDERS = 8  # kernel files a header is linted through
MOST_FILES_SEARCHED = 5000  # files read while looking for a header's includers
_SKIPPED_DIRECTORIES = frozenset((".git", ".hg", ".svn", ".venv", "venv", "node_modules", "__pycache__", "build"))
_SEVERITY = {Severity.ERROR: types.DiagnosticSeverity.Error, Severity.WARNING: types.DiagnosticSeverity.Warning,
             Severity.INFO: types.DiagnosticSeverity.Information}
_LABEL = re.compile(r"\s*([A-Za-z_.$][\w.$]*):")
logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Linted:
    """One finished lint of one version of a document."""

    version: int | None
    diagnostics: list[Diagnostic]  # the document's own findings and those inside files it includes
    published: list[types.Diagnostic]  # what the client was sent, in the same order
    hovers: dict[str, str]  # kernel name -> markdown
    sources: frozenset[str] = frozenset()  # the files the lint read (the document and what it includes)
    line_hovers: dict[int, str] = field(default_factory=dict)  # 0-based line (a kernel's declaration) -> markdown


def _range(line: int, column: int, end_line: int, end_column: int) -> types.Range:
    """1-based inclusive-start, exclusive-end columns to LSP's 0-based positions."""
    return types.Range(start=types.Position(line=line - 1, character=column - 1),
                       end=types.Position(line=end_line - 1, character=end_column - 1))


def _line_range(module: Module | None, path: str, line: int, column: int | None) -> types.Range:
    """From `column` (or the start) to the end of a source line's text."""
    source = module.sources.get(path) if module is not None else None
    text = source.line_text(line) if source else ""
    start = column or len(text) - len(text.lstrip()) + 1
    return _range(line, start, line, max(len(text.rstrip()) + 1, start + 1))


def _uri(path: str) -> str:
    return from_fs_path(path) or path


def _related(module: Module | None, note: Note) -> types.DiagnosticRelatedInformation:
    """`note`, which has a location (a path and a line), as related information."""
    assert note.path is not None and note.line is not None
    return types.DiagnosticRelatedInformation(
        location=types.Location(uri=_uri(note.path), range=_line_range(module, note.path, note.line, note.column)),
        message=note.message)


def to_lsp(module: Module | None, path: str, diagnostic: Diagnostic) -> types.Diagnostic | None:
    """The diagnostic as shown in the document at `path`: a finding inside an included file goes to the
    include or macro call in this document that produced it (None if nothing in it did)."""
    located = [note for note in diagnostic.notes if note.path is not None and note.line is not None]
    related = [_related(module, note) for note in located]
    message = "\n".join([diagnostic.message] + [note.message for note in diagnostic.notes if note not in located])
    if diagnostic.path == path:
        where = _range(diagnostic.line, diagnostic.column, diagnostic.end_line, diagnostic.end_column)
    else:
        anchor = next((note for note in located if note.expansion and note.path == path), None)
        if anchor is None:
            return None
        assert anchor.line is not None  # located
        where = _line_range(module, path, anchor.line, anchor.column)
        message = f"{Path(diagnostic.path).name}:{diagnostic.line}: {message}"
        related.insert(0, _related(module, Note("the finding", diagnostic.path, diagnostic.line, diagnostic.column)))
    return types.Diagnostic(
        range=where,
        message=message,
        severity=_SEVERITY[diagnostic.severity],
        code=diagnostic.code,
        code_description=types.CodeDescription(href=documentation_url(diagnostic.code, diagnostic.name)),
        source="amdgpu-lint",
        related_information=related or None,
    )


def _hover(module: Module, kernel) -> str | None:
    resources = AnalysisManager(module, kernel).get(ResourceAnalysis)
    target = module.target
    if resources is None or target is None:  # the analysis is None without a target
        return None
    occupancy = resources.occupancy
    steps = "".join(f"\n- next: {step}" for step in occupancy.next_step)
    spread = spread_text(size_spread(target, resources.inputs).to_json(), resources.inputs.smallest_wg,
                         resources.wg_size, "pin the work-group size to know which")
    return (
        f"**{kernel.name}** on {target}: **{occupancy.waves_per_simd}/"
        f"{target.max_waves_per_simd} waves per SIMD**{spread}, limited by {', '.join(occupancy.limiters)}\n\n"
        f"VGPR {resources.vgprs} (AGPR {resources.agprs}), SGPR {resources.sgprs}, LDS {resources.lds_bytes} bytes, "
        f"work-group {resources.wg_sizes}{steps}"
    )


def lint_text(path: str, text: str, version: int | None = None) -> Linted:
    """Lint an editor buffer as if it were the file at `path` (config and includes from there); CPU
    assembly (no AMDGPU target or code) gets nothing."""
    result = lint_buffer(path, text)
    module = result.module
    if module is None:
        return Linted(version, [], [], {})
    converted = [(d, to_lsp(module, path, d)) for d in result.diagnostics]
    shown = [(d, item) for d, item in converted if item is not None]
    hovers = {kernel.name: hover for kernel in module.kernels if (hover := _hover(module, kernel)) is not None}
    return Linted(version, [d for d, _ in shown], [item for _, item in shown], hovers, frozenset(module.sources))


def lint_compiled(path: str, buffer: str, version: int | None = None) -> Linted:
    """A HIP or OpenCL source as open in the editor (its `buffer`, compiled from a temporary copy whose includes
    resolve as the file's would): compiled for each configured target and linted; findings at its lines, and
    the hover of each kernel at its declaration line (per target)."""
    diagnostics: list[Diagnostic] = []
    published: list[types.Diagnostic] = []
    hovers: dict[int, list[str]] = {}
    text = buffer.split("\n")
    for result in lint_saved(path, buffer=buffer):
        module = result.module
        for diagnostic in result.diagnostics:
            shown = to_lsp(module, path, diagnostic) if diagnostic.path == path else None
            if shown is not None:
                diagnostics.append(diagnostic)
                published.append(shown)
        if module is None:
            continue
        from .model.debuglines import debug_lines

        listing = module.sources.get(module.path)
        located = debug_lines(listing.text, module.path).locations if listing is not None else {}
        for kernel in module.kernels:
            hover = _hover(module, kernel) if kernel.is_kernel else None
            first = next((located[i.where.line] for i in kernel.instructions if i.where.line in located
                          and located[i.where.line][0] == path), None)
            if hover is not None and first is not None:
                hovers.setdefault(_declaration_line(text, kernel.name, first[1]), []).append(hover)
    return Linted(version, diagnostics, published, {}, frozenset({path}),
                  {line: "\n\n---\n\n".join(texts) for line, texts in hovers.items()})


def _declaration_line(lines: list[str], symbol: str, body_line: int) -> int:
    """The 0-based line declaring the kernel named `symbol` (its C++ name when mangled), at or before its first
    instruction's line; that line itself when no declaration is found."""
    name = symbol
    mangled = re.match(r"_Z(\d+)", symbol)
    if mangled:
        name = symbol[mangled.end() : mangled.end() + int(mangled.group(1))]
    pattern = re.compile(rf"\b{re.escape(name)}\s*\(")
    found = [number for number in range(min(body_line, len(lines))) if pattern.search(lines[number])]
    return found[-1] if found else body_line - 1


def includers(header: str, root: str) -> list[str]:
    """Kernel files under `root` whose text `.include`s a file named as `header` is (the lint confirms which
    really include it), nearest to the header first."""
    name = Path(header).name
    directive = re.compile(rf'^[ \t]*(?:\.include|#[ \t]*include)[ \t]+["<][^">]*\b{re.escape(name)}[">]', re.MULTILINE)
    found: list[str] = []
    searched = 0
    for directory, subdirectories, files in os.walk(root):
        subdirectories[:] = sorted(d for d in subdirectories if d not in _SKIPPED_DIRECTORIES and not d.startswith("."))
        for file in sorted(files):
            if not file.endswith(KERNEL_SUFFIXES) or searched >= MOST_FILES_SEARCHED:
                continue
            searched += 1
            candidate = os.path.join(directory, file)
            try:
                if os.path.getsize(candidate) < (1 << 22) and directive.search(Path(candidate).read_text(errors="replace")):
                    found.append(candidate)
            except OSError:
                continue
    home = Path(header).resolve().parent
    return sorted(found, key=lambda path: (len(Path(path).resolve().relative_to(home).parts)
                                           if Path(path).resolve().is_relative_to(home) else 1 << 10, path))


def lint_header(path: str, root: str, texts: dict[str, str], version: int | None = None) -> Linted:
    """A header's findings: those inside it when the kernel files that include it are linted (each as open in the
    editor, `texts`, else as saved), at most MOST_INCLUDERS of them; the header itself as saved."""
    diagnostics: list[Diagnostic] = []
    published: list[types.Diagnostic] = []
    seen: set[tuple] = set()
    sources: set[str] = set()
    for includer in includers(path, root)[:MOST_INCLUDERS]:
        try:
            text = texts.get(includer) or Path(includer).read_text(errors="replace")
        except OSError:
            continue
        result = lint_buffer(includer, text)
        module = result.module
        if module is None or path not in module.sources:
            continue
        sources |= set(module.sources)
        for diagnostic in result.diagnostics:
            key = (diagnostic.path, diagnostic.line, diagnostic.column, diagnostic.code, diagnostic.message)
            shown = to_lsp(module, path, diagnostic) if diagnostic.path == path else None
            if shown is not None and key not in seen:
                seen.add(key)
                diagnostics.append(diagnostic)
                published.append(shown)
    return Linted(version, diagnostics, published, {}, frozenset(sources))


def configuration_problem(error: ConfigError) -> types.Diagnostic:
    """A configuration that cannot be read, as a diagnostic on the document's first line."""
    return types.Diagnostic(range=_range(1, 1, 1, 2), message=f"amdgpu-lint: {error}",
                            severity=types.DiagnosticSeverity.Error, source="amdgpu-lint")


class _Stdout:
    """The server's stdout; once the client has closed it, writes are dropped (and fd 1 goes to
    /dev/null so that the interpreter's final flush is quiet)."""

    def __init__(self, stream: BinaryIO) -> None:
        self.stream = stream
        self.closed = False

    def write(self, data: bytes) -> None:
        if self.closed:
            return
        try:
            self.stream.write(data)
            self.stream.flush()
        except (BrokenPipeError, ConnectionResetError, ValueError):
            self.closed = True
            os.dup2(os.open(os.devnull, os.O_WRONLY), self.stream.fileno())

    def flush(self) -> None:
        """Each write is flushed already."""

    def close(self) -> None:
        self.closed = True


class AmdgpuLanguageServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("amdgpu-lint", __version__)
        self.results: dict[str, Linted] = {}  # the last finished lint of each open document
        self.scheduled: dict[str, asyncio.Task] = {}  # the lint of each document's newest text
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="amdgpu-lint")
        self.shut_down = False
        self.config_problems: dict[str, str] = {}  # document -> the configuration problem last shown for it

    def schedule(self, uri: str, delay: float) -> None:
        """Lint the document's text as it is after `delay` seconds; any lint not yet published is dropped."""
        previous = self.scheduled.pop(uri, None)
        if previous is not None:
            previous.cancel()
        if not self.shut_down:
            self.scheduled[uri] = asyncio.ensure_future(self._lint(uri, delay))

    def forget(self, uri: str) -> None:
        previous = self.scheduled.pop(uri, None)
        if previous is not None:
            previous.cancel()
        self.results.pop(uri, None)
        self.config_problems.pop(uri, None)

    async def _lint(self, uri: str, delay: float) -> None:
        await asyncio.sleep(delay)
        document = self.workspace.get_text_document(uri)
        path = to_fs_path(uri) or uri
        loop = asyncio.get_running_loop()
        try:
            if path.endswith(COMPILED_SUFFIXES):
                linted = await loop.run_in_executor(self.worker, lint_compiled, path, document.source, document.version)
            elif path.endswith(HEADER_SUFFIXES):
                root = self.workspace.root_path or str(Path(path).parent)
                texts = {to_fs_path(open_uri) or open_uri: open_document.source
                         for open_uri, open_document in self.workspace.text_documents.items()}
                linted = await loop.run_in_executor(self.worker, lint_header, path, root, texts, document.version)
            else:
                linted = await loop.run_in_executor(self.worker, lint_text, path, document.source, document.version)
        except ConfigError as error:
            self._configuration_problem(uri, document.version, error)
            return
        except Exception:
            logger.exception("amdgpu-lint failed on %s", path)
            return
        if self.scheduled.get(uri) is not asyncio.current_task():
            return  # the document changed or closed meanwhile (this task was cancelled)
        del self.scheduled[uri]
        self.results[uri] = linted
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, version=linted.version, diagnostics=linted.published))

    def _configuration_problem(self, uri: str, version: int | None, error: ConfigError) -> None:
        """Tell the user once per distinct problem (a message), and mark the document (a diagnostic on line 1)."""
        if self.scheduled.get(uri) is asyncio.current_task():
            del self.scheduled[uri]
        if self.config_problems.get(uri) != str(error):
            self.config_problems[uri] = str(error)
            self.window_show_message(types.ShowMessageParams(type=types.MessageType.Error, message=f"amdgpu-lint: {error}"))
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, version=version, diagnostics=[configuration_problem(error)]))

    def relint_includers(self, saved: str) -> None:
        """Lint again the open documents whose last lint read `saved` (a header they include)."""
        for uri, linted in list(self.results.items()):
            if saved in linted.sources and uri not in self.scheduled and (to_fs_path(uri) or uri) != saved:
                self.schedule(uri, 0)

    def stop_linting(self) -> None:
        self.shut_down = True
        for uri in list(self.scheduled):
            self.forget(uri)
        self.worker.shutdown(wait=False, cancel_futures=True)


server = AmdgpuLanguageServer()


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: AmdgpuLanguageServer, params: types.DidOpenTextDocumentParams) -> None:
    ls.schedule(params.text_document.uri, 0)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: AmdgpuLanguageServer, params: types.DidChangeTextDocumentParams) -> None:
    compiled = params.text_document.uri.endswith(COMPILED_SUFFIXES)
    ls.schedule(params.text_document.uri, COMPILE_DEBOUNCE_SECONDS if compiled else DEBOUNCE_SECONDS)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE, types.SaveOptions(include_text=False))
def did_save(ls: AmdgpuLanguageServer, params: types.DidSaveTextDocumentParams) -> None:
    ls.schedule(params.text_document.uri, 0)
    ls.relint_includers(to_fs_path(params.text_document.uri) or params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: AmdgpuLanguageServer, params: types.DidCloseTextDocumentParams) -> None:
    ls.forget(params.text_document.uri)
    ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[]))


@server.feature(types.SHUTDOWN)
def shutdown(ls: AmdgpuLanguageServer, params: None) -> None:
    ls.stop_linting()


@server.feature(types.TEXT_DOCUMENT_HOVER)
def hover(ls: AmdgpuLanguageServer, params: types.HoverParams) -> types.Hover | None:
    """The occupancy of the kernel whose label is on the hovered line, from the last finished lint."""
    linted = ls.results.get(params.text_document.uri)
    if linted is None:
        return None
    lines = ls.workspace.get_text_document(params.text_document.uri).lines
    label = _LABEL.match(lines[params.position.line]) if params.position.line < len(lines) else None
    text = linted.line_hovers.get(params.position.line) or (linted.hovers.get(label.group(1)) if label else None)
    if text is None:
        return None
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text))


@server.feature(types.TEXT_DOCUMENT_CODE_ACTION,
                types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]))
def code_actions(ls: AmdgpuLanguageServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    """Fixes of the findings on the requested lines, when the last lint is of the text the client has."""
    uri = params.text_document.uri
    linted = ls.results.get(uri)
    if linted is None or linted.version != ls.workspace.get_text_document(uri).version:
        return []
    path = to_fs_path(uri) or uri
    first, last = params.range.start.line + 1, params.range.end.line + 1
    actions = []
    for diagnostic, shown in zip(linted.diagnostics, linted.published, strict=True):
        if diagnostic.fix is None or diagnostic.fix.applicability == DISPLAY_ONLY or diagnostic.path != path \
                or not (first <= diagnostic.line <= last):
            continue  # a display-only fix's edit is not a plain line of the document (a macro body, an include)
        edits = [types.TextEdit(range=_range(e.line, e.column, e.end_line, e.end_column), new_text=e.text)
                 for e in diagnostic.fix.edits if e.path == path]
        actions.append(types.CodeAction(
            title=f"{diagnostic.code}: {diagnostic.fix.description}",
            kind=types.CodeActionKind.QuickFix,
            diagnostics=[shown],
            is_preferred=diagnostic.fix.applicability == SAFE,
            edit=types.WorkspaceEdit(changes={uri: edits}),
        ))
    return actions


def main(argv: list[str] | None = None) -> int:
    """`amdgpu-lint lsp`: serve on stdin/stdout until the client exits; 0 after a shutdown request,
    else 1 (the LSP's exit codes)."""
    argparse.ArgumentParser(prog="amdgpu-lint lsp", description="The amdgpu-lint language server, on stdin/stdout.").parse_args(argv)
    # pygls annotates stdout as BinaryIO but only writes, flushes and closes it: what _Stdout does
    server.start_io(stdout=_Stdout(sys.stdout.buffer))  # type: ignore[arg-type]
    return 0 if server.shut_down else 1
