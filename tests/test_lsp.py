"""The language server over stdio, driven by a pygls client: diagnostics on open and change,
the occupancy hover on a kernel label, and a quick fix that inserts the missing wait."""

import asyncio
import sys

import pytest

pytest.importorskip("pygls")
from lsprotocol import types  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402

SOURCE = """.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
k:
 v_mov_b32 v1, 0
 global_load_dword v2, v1, s[0:1]
 v_add_u32 v3, v2, v2
 s_endpgm
"""


async def _session(tmp_path):
    path = tmp_path / "k.s"
    path.write_text(SOURCE)
    uri = path.as_uri()
    client = LanguageClient("test-client", "1")
    published: asyncio.Queue = asyncio.Queue()

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_diagnostics(params: types.PublishDiagnosticsParams) -> None:
        published.put_nowait(params)

    await client.start_io(sys.executable, "-m", "amdgpu_lint", "lsp")
    try:
        await client.initialize_async(types.InitializeParams(capabilities=types.ClientCapabilities(),
                                                             root_uri=tmp_path.as_uri()))
        client.initialized(types.InitializedParams())
        client.text_document_did_open(types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="asm", version=1, text=SOURCE)))
        opened = await asyncio.wait_for(published.get(), 30)
        hover = await client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=1, character=0)))
        actions = await client.text_document_code_action_async(types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=types.Range(start=types.Position(line=4, character=0), end=types.Position(line=4, character=5)),
            context=types.CodeActionContext(diagnostics=opened.diagnostics)))
        fixed = SOURCE.replace(" v_add_u32", " s_waitcnt vmcnt(0)\n v_add_u32")
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=fixed)]))
        changed = await asyncio.wait_for(published.get(), 30)
        await client.shutdown_async(None)
        client.exit(None)
    finally:
        await client.stop()
    return opened, hover, actions, changed


def test_language_server(tmp_path):
    opened, hover, actions, changed = asyncio.run(_session(tmp_path))
    (diagnostic,) = opened.diagnostics
    assert (diagnostic.code, diagnostic.source, diagnostic.range.start.line) == ("AGL201", "amdgpu-lint", 4)
    assert diagnostic.severity == types.DiagnosticSeverity.Error
    assert "8/8 waves per SIMD" in hover.contents.value and "**k**" in hover.contents.value
    (action,) = actions
    (edit,) = action.edit.changes[next(iter(action.edit.changes))]
    assert edit.new_text == " s_waitcnt vmcnt(0)\n" and edit.range.start == edit.range.end
    assert len(changed.diagnostics) == 0 and changed.version == 2
