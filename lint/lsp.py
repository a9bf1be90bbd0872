"""`amdgpu-lint lsp`: a language server (pygls 2.x) over stdio.

Publishes diagnostics when a document is opened, saved or changed (changes are debounced), shows
a kernel's occupancy summary when hovering its label, and offers quick fixes for findings that
carry one (missing-wait inserts the wait).
"""

from __future__ import annotations

import argparse
import asyncio
from dataclasses import dataclass

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from . import __version__
from .analyses.manager import AnalysisManager
from .analyses.occupancy import size_spread
from .analyses.resources import ResourceAnalysis
from .diagnostics import Diagnostic, Severity
from .driver.rule import documentation_url
from .driver.session import lint_buffer
from .outputs.report_text import spread_text

DEBOUNCE_SECONDS = 0.3
_SEVERITY = {Severity.ERROR: types.DiagnosticSeverity.Error, Severity.WARNING: types.DiagnosticSeverity.Warning,
             Severity.INFO: types.DiagnosticSeverity.Information}


@dataclass
class Linted:
    """One document's last lint: its diagnostics and the hover text per kernel label."""

    diagnostics: list[Diagnostic]
    hovers: dict[int, str]  # 0-based line of a kernel label -> markdown


def _range(line: int, column: int, end_line: int, end_column: int) -> types.Range:
    """1-based inclusive-start, exclusive-end columns to LSP's 0-based positions."""
    return types.Range(start=types.Position(line=line - 1, character=column - 1),
                       end=types.Position(line=end_line - 1, character=end_column - 1))


def lint_text(path: str, text: str) -> Linted:
    """Lint an editor buffer as if it were the file at `path` (config and includes from there)."""
    module, diagnostics = lint_buffer(path, text)
    hovers: dict[int, str] = {}
    lines = text.splitlines()
    for kernel in module.kernels:
        resources = AnalysisManager(module, kernel).get(ResourceAnalysis)
        label = next((number for number, line in enumerate(lines) if line.strip().startswith(f"{kernel.name}:")), None)
        if resources is None or label is None:
            continue
        occupancy = resources.occupancy
        steps = "".join(f"\n- next: {step}" for step in occupancy.next_step)
        spread = spread_text(size_spread(module.target, resources.inputs).to_json(), resources.inputs.smallest_wg, resources.wg_size,
                             "pin the work-group size to know which")
        hovers[label] = (
            f"**{kernel.name}** on {module.target}: **{occupancy.waves_per_simd}/"
            f"{module.target.max_waves_per_simd} waves per SIMD**{spread}, limited by {', '.join(occupancy.limiters)}\n\n"
            f"VGPR {resources.vgprs} (AGPR {resources.agprs}), SGPR {resources.sgprs}, LDS {resources.lds_bytes} bytes, "
            f"work-group {resources.wg_sizes}{steps}"
        )
    return Linted(diagnostics, hovers)


class AmdgpuLanguageServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("amdgpu-lint", __version__)
        self.results: dict[str, Linted] = {}
        self.pending: dict[str, asyncio.Task] = {}

    def publish(self, uri: str) -> None:
        document = self.workspace.get_text_document(uri)
        path = to_fs_path(uri) or uri
        linted = lint_text(path, document.source)
        self.results[uri] = linted
        items = [
            types.Diagnostic(
                range=_range(d.line, d.column, d.end_line, d.end_column),
                message=d.message,
                severity=_SEVERITY[d.severity],
                code=d.code,
                code_description=types.CodeDescription(href=documentation_url(d.code, d.name)),
                source="amdgpu-lint",
            )
            for d in linted.diagnostics
        ]
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, version=document.version, diagnostics=items))

    def publish_later(self, uri: str) -> None:
        previous = self.pending.pop(uri, None)
        if previous is not None:
            previous.cancel()

        async def later() -> None:
            await asyncio.sleep(DEBOUNCE_SECONDS)
            self.pending.pop(uri, None)
            self.publish(uri)

        self.pending[uri] = asyncio.ensure_future(later())


server = AmdgpuLanguageServer()


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: AmdgpuLanguageServer, params: types.DidOpenTextDocumentParams) -> None:
    ls.publish(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: AmdgpuLanguageServer, params: types.DidChangeTextDocumentParams) -> None:
    ls.publish_later(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE, types.SaveOptions(include_text=False))
def did_save(ls: AmdgpuLanguageServer, params: types.DidSaveTextDocumentParams) -> None:
    ls.publish(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: AmdgpuLanguageServer, params: types.DidCloseTextDocumentParams) -> None:
    ls.results.pop(params.text_document.uri, None)
    ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[]))


@server.feature(types.TEXT_DOCUMENT_HOVER)
def hover(ls: AmdgpuLanguageServer, params: types.HoverParams) -> types.Hover | None:
    linted = ls.results.get(params.text_document.uri)
    text = linted.hovers.get(params.position.line) if linted else None
    if text is None:
        return None
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text))


@server.feature(types.TEXT_DOCUMENT_CODE_ACTION,
                types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]))
def code_actions(ls: AmdgpuLanguageServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    linted = ls.results.get(params.text_document.uri)
    if linted is None:
        return []
    first, last = params.range.start.line + 1, params.range.end.line + 1
    actions = []
    for diagnostic in linted.diagnostics:
        if diagnostic.fix is None or not (first <= diagnostic.line <= last):
            continue
        edits = [types.TextEdit(range=_range(e.line, e.column, e.end_line, e.end_column), new_text=e.text)
                 for e in diagnostic.fix.edits if e.path == diagnostic.path]
        actions.append(types.CodeAction(
            title=f"{diagnostic.code}: {diagnostic.fix.description}",
            kind=types.CodeActionKind.QuickFix,
            edit=types.WorkspaceEdit(changes={params.text_document.uri: edits}),
        ))
    return actions


def main(argv: list[str] | None = None) -> int:
    """`amdgpu-lint lsp`: serve on stdin/stdout until the client exits."""
    argparse.ArgumentParser(prog="amdgpu-lint lsp", description="The amdgpu-lint language server, on stdin/stdout.").parse_args(argv)
    server.start_io()
    return 0
