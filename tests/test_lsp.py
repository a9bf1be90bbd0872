"""The language server over stdio, driven by a pygls client: diagnostics on open and change (with
related information), findings inside included files, the occupancy hover on a kernel label, a quick
fix that inserts the missing wait, answers while a lint runs, stale lints dropped, and exit codes."""

import asyncio
import json
import os
import re
import subprocess
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


class Session:
    """A client talking to `python -m amdgpu_lint lsp` (or the server `arguments` start); published diagnostics
    are queued in order."""

    def __init__(self, tmp_path, arguments: tuple[str, ...] = ("-m", "amdgpu_lint", "lsp")):
        self.root = tmp_path
        self.arguments = arguments
        self.client = LanguageClient("test-client", "1")
        self.published: asyncio.Queue = asyncio.Queue()

        @self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def on_diagnostics(params: types.PublishDiagnosticsParams) -> None:
            self.published.put_nowait(params)

    async def __aenter__(self) -> "Session":
        await self.client.start_io(sys.executable, *self.arguments)
        await self.client.initialize_async(types.InitializeParams(capabilities=types.ClientCapabilities(),
                                                                  root_uri=self.root.as_uri()))
        self.client.initialized(types.InitializedParams())
        return self

    async def __aexit__(self, *exc) -> None:
        await self.client.shutdown_async(None)
        self.client.exit(None)
        self.returncode = await asyncio.wait_for(self.client._server.wait(), 30)
        self.stderr = (await self.client._server.stderr.read()).decode()
        await self.client.stop()

    def open(self, path, text: str) -> str:
        uri = path.as_uri()
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="asm", version=1, text=text)))
        return uri

    def change(self, uri: str, version: int, text: str) -> None:
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))

    async def next_published(self) -> types.PublishDiagnosticsParams:
        return await asyncio.wait_for(self.published.get(), 60)

    async def hover(self, uri: str, line: int) -> types.Hover | None:
        return await asyncio.wait_for(self.client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=line, character=0))), 60)


def test_language_server(tmp_path):
    async def session():
        path = tmp_path / "k.s"
        path.write_text(SOURCE)
        async with Session(tmp_path) as lsp:
            uri = lsp.open(path, SOURCE)
            opened = await lsp.next_published()
            hover = await lsp.hover(uri, 1)
            actions = await lsp.client.text_document_code_action_async(types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                range=types.Range(start=types.Position(line=4, character=0), end=types.Position(line=4, character=5)),
                context=types.CodeActionContext(diagnostics=opened.diagnostics)))
            lsp.change(uri, 2, SOURCE.replace(" v_add_u32", " s_waitcnt vmcnt(0)\n v_add_u32"))
            changed = await lsp.next_published()
        return uri, opened, hover, actions, changed, lsp

    uri, opened, hover, actions, changed, lsp = asyncio.run(session())
    (diagnostic,) = opened.diagnostics
    assert (diagnostic.code, diagnostic.source, diagnostic.range.start.line) == ("AGL201", "amdgpu-lint", 4)
    assert diagnostic.severity == types.DiagnosticSeverity.Error
    (producer,) = diagnostic.related_information
    assert (producer.message, producer.location.uri, producer.location.range.start.line) == \
        ("global_load_dword issued here", uri, 3)
    assert "8/8 waves per SIMD" in hover.contents.value and "**k**" in hover.contents.value
    (action,) = actions
    (edit,) = action.edit.changes[uri]
    assert edit.new_text == " s_waitcnt vmcnt(0)\n" and edit.range.start == edit.range.end
    assert len(changed.diagnostics) == 0 and changed.version == 2
    assert (lsp.returncode, lsp.stderr) == (0, "")


def test_findings_in_included_files_are_shown_at_the_include_and_at_the_macro_call(tmp_path):
    """A use without its wait in an included body and in a macro from an included header: each is
    reported at the line of the open document that brought it in, pointing at the finding."""
    (tmp_path / "body.inc").write_text(" global_load_dword v2, v1, s[0:1]\n v_add_u32 v3, v2, v2\n")
    (tmp_path / "macros.inc").write_text(".macro load_add\n global_load_dword v4, v1, s[0:1]\n"
                                         " v_add_u32 v5, v4, v4\n.endm\n")
    text = ('.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"\n.include "macros.inc"\nk:\n v_mov_b32 v1, 0\n'
            ' .include "body.inc"\n s_waitcnt vmcnt(0)\n load_add\n s_endpgm\n')
    path = tmp_path / "k.s"
    path.write_text(text)

    async def session():
        async with Session(tmp_path) as lsp:
            lsp.open(path, text)
            return await lsp.next_published()

    published = asyncio.run(session())
    included = {d.range.start.line: d for d in published.diagnostics if d.code == "AGL201"}
    assert sorted(included) == [4, 6]
    body, macro = included[4], included[6]
    assert body.message.startswith("body.inc:2: v2 is read here but may still be loading")
    assert (body.range.start.character, body.range.end.character) == (1, 20)
    finding, producer, include = body.related_information
    assert (finding.message, finding.location.uri, finding.location.range.start.line) == \
        ("the finding", (tmp_path / "body.inc").as_uri(), 1)
    assert (producer.message, producer.location.range.start.line) == ("global_load_dword issued here", 0)
    assert (include.message, include.location.uri, include.location.range.start.line) == \
        ("in file included from here ('body.inc')", path.as_uri(), 4)
    assert macro.message.startswith("macros.inc:3: v4 is read here")
    assert macro.related_information[0].location.uri == (tmp_path / "macros.inc").as_uri()
    assert macro.related_information[-1].message == "in expansion of macro 'load_add'"


class LintGate:
    """Holds the server's lint worker at the start of each lint until the test releases it, and tells the test which
    document version it started: the test orders events by what the server says, never by how long anything takes.
    The server is `amdgpu-lint lsp` with its `lint_text` wrapped; the gate is two FIFOs, each opened by the test for
    reading and writing, so that neither side's open waits for the other. Closing the gate lets the worker go on."""

    SERVER = """
import sys
from amdgpu_lint import lsp

started_path, release_path = sys.argv[1:]
lint_text, pipes = lsp.lint_text, []


def gated(path, text, version=None):
    if not pipes:
        pipes.extend((open(started_path, "w"), open(release_path)))
    started, release = pipes
    started.write(f"{version}\\n")
    started.flush()
    release.readline()  # until the test releases this lint ('' once the gate is closed)
    return lint_text(path, text, version)


lsp.lint_text = gated
sys.exit(lsp.main([]))
"""

    def __init__(self, directory) -> None:
        self.started_path, self.release_path = directory / "started.fifo", directory / "release.fifo"
        os.mkfifo(self.started_path)
        os.mkfifo(self.release_path)

    def server(self) -> tuple[str, ...]:
        """The arguments of `python` that start the gated server."""
        return ("-c", self.SERVER, str(self.started_path), str(self.release_path))

    async def __aenter__(self) -> "LintGate":
        self.release_end = os.open(self.release_path, os.O_RDWR)
        self.started = asyncio.StreamReader()
        started_end = os.fdopen(os.open(self.started_path, os.O_RDWR), "rb", buffering=0)
        self.transport, _ = await asyncio.get_running_loop().connect_read_pipe(
            lambda: asyncio.StreamReaderProtocol(self.started), started_end)
        return self

    async def __aexit__(self, *exc) -> None:
        self.transport.close()
        os.close(self.release_end)

    async def next_started(self) -> int:
        """The version of the document whose lint the worker starts next (and holds)."""
        return int(await asyncio.wait_for(self.started.readline(), 60))

    def release(self) -> None:
        """Let the held lint go on."""
        os.write(self.release_end, b"\n")


def test_requests_are_answered_while_a_lint_runs_and_stale_lints_are_dropped(tmp_path):
    """With each lint held in the worker (never the event loop) until released: the hover sent while the first
    lint runs is answered, before any diagnostics; during the lint of an edit, the hover comes from the last
    finished lint (found by the label's name, though the edit moved it down a line); an edit that arrives while
    its predecessor is being linted drops the predecessor's result."""
    path = tmp_path / "k.s"
    path.write_text(SOURCE)
    gate = LintGate(tmp_path)

    async def session():
        async with Session(tmp_path, gate.server()) as lsp, gate:
            uri = lsp.open(path, SOURCE)
            first_started = await gate.next_started()
            during_first = await lsp.hover(uri, 1)
            unpublished_at_first_hover = lsp.published.empty()
            gate.release()
            first = await lsp.next_published()
            lsp.change(uri, 2, "; edit 2\n" + SOURCE)
            second_started = await gate.next_started()  # the debounce is over: version 2 is being linted
            lsp.change(uri, 3, "; edit 3\n" + SOURCE)
            during_edit = await lsp.hover(uri, 2)
            unpublished_at_edit_hover = lsp.published.empty()
            gate.release()  # version 2's lint ends, and is dropped
            third_started = await gate.next_started()
            gate.release()
            after_edit = await lsp.next_published()
            return ((first_started, second_started, third_started), during_first, unpublished_at_first_hover, first,
                    during_edit, unpublished_at_edit_hover, after_edit)

    started, during_first, unpublished_at_first_hover, first, during_edit, unpublished_at_edit_hover, after_edit = \
        asyncio.run(session())
    assert started == (1, 2, 3)
    assert during_first is None and unpublished_at_first_hover
    assert first.version == 1 and [d.range.start.line for d in first.diagnostics] == [4]
    assert unpublished_at_edit_hover and "**k** on gfx90a" in during_edit.contents.value
    assert after_edit.version == 3 and [d.range.start.line for d in after_edit.diagnostics] == [5]


def _message(payload: dict) -> bytes:
    body = json.dumps(payload).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _serve(messages: list[dict], client_leaves: bool = False) -> tuple[int, list[dict], str]:
    """Initialize the server, send `messages` and close its stdin: its exit code, replies and stderr.
    A client that leaves closes the server's stdout before sending the messages (as Neovim's `:qa`
    does right after its shutdown request), so the server's answers meet a broken pipe."""
    server = subprocess.Popen([sys.executable, "-m", "amdgpu_lint", "lsp"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}, "processId": None}}
    server.stdin.write(_message(initialize) + _message({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
    server.stdin.flush()
    length = int(server.stdout.readline().split(b":")[1])
    while server.stdout.readline().strip():
        pass
    replies = [json.loads(server.stdout.read(length))]
    if client_leaves:
        server.stdout.close()
    server.stdin.write(b"".join(_message(m) for m in messages))
    server.stdin.close()
    if not client_leaves:
        output = server.stdout.read()
        replies += [json.loads(body) for body in re.findall(rb"\r\n\r\n(\{.*?\})(?=Content-Length|$)", output)]
    stderr = server.stderr.read().decode()
    return server.wait(timeout=60), replies, stderr


def test_exit_codes_follow_the_protocol_and_a_client_gone_early_is_no_traceback():
    shutdown, exit_ = {"jsonrpc": "2.0", "id": 2, "method": "shutdown"}, {"jsonrpc": "2.0", "method": "exit"}
    returncode, replies, stderr = _serve([shutdown, exit_])
    assert (returncode, stderr) == (0, "")
    assert [(reply["id"], reply.get("result", "")) for reply in replies][1:] == [(2, None)]
    assert _serve([exit_])[0] == 1  # exit without shutdown
    assert _serve([shutdown], client_leaves=True) == (0, [replies[0]], "")


HEADER = """.macro load_add
 global_load_dword v4, v1, s[0:1]
 v_add_u32 v5, v4, v4
.endm
"""
INCLUDER = ('.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"\n.include "inc/macros.inc"\nk:\n v_mov_b32 v1, 0\n'
            " load_add\n s_endpgm\n")


def test_a_header_is_linted_through_the_kernels_that_include_it_and_saving_it_relints_them(tmp_path):
    """Opening the header: the finding inside its macro body, at its own line. Saving a fixed header: the open
    kernel file that includes it is linted again and loses the finding."""
    (tmp_path / "inc").mkdir()
    header = tmp_path / "inc" / "macros.inc"
    header.write_text(HEADER)
    kernel = tmp_path / "src" / "k.s"
    kernel.parent.mkdir()
    kernel.write_text(INCLUDER.replace('"inc/macros.inc"', '"../inc/macros.inc"'))

    async def session():
        async with Session(tmp_path) as lsp:
            kernel_uri = lsp.open(kernel, kernel.read_text())
            first = await lsp.next_published()
            header_uri = lsp.open(header, HEADER)
            in_header = await lsp.next_published()
            fixed = HEADER.replace(" v_add_u32", " s_waitcnt vmcnt(0)\n v_add_u32")
            header.write_text(fixed)
            lsp.change(header_uri, 2, fixed)
            lsp.client.text_document_did_save(types.DidSaveTextDocumentParams(
                text_document=types.TextDocumentIdentifier(uri=header_uri)))
            after = {}
            while set(after) != {kernel_uri, header_uri}:
                published = await lsp.next_published()
                after[published.uri] = published
        return kernel_uri, header_uri, first, in_header, after

    kernel_uri, header_uri, first, in_header, after = asyncio.run(session())
    assert first.uri == kernel_uri and [d.code for d in first.diagnostics] == ["AGL201"]
    assert in_header.uri == header_uri
    (inside,) = in_header.diagnostics
    assert (inside.code, inside.range.start.line) == ("AGL201", 2)  # v_add_u32 in the macro body
    assert inside.message.startswith("v4 is read here but may still be loading")
    assert not after[kernel_uri].diagnostics and not after[header_uri].diagnostics


def test_a_bad_configuration_is_a_message_and_a_diagnostic_on_line_1(tmp_path):
    (tmp_path / ".amdgpu-lint.toml").write_text("colour = 1\n")
    path = tmp_path / "k.s"
    path.write_text(SOURCE)
    messages: list[types.ShowMessageParams] = []

    async def session():
        async with Session(tmp_path) as lsp:
            @lsp.client.feature(types.WINDOW_SHOW_MESSAGE)
            def on_message(params: types.ShowMessageParams) -> None:
                messages.append(params)

            lsp.open(path, SOURCE)
            return await lsp.next_published()

    published = asyncio.run(session())
    (diagnostic,) = published.diagnostics
    assert diagnostic.range.start.line == 0 and diagnostic.severity == types.DiagnosticSeverity.Error
    assert ".amdgpu-lint.toml: unknown key(s) colour" in diagnostic.message
    (message,) = messages
    assert message.type == types.MessageType.Error and "unknown key(s) colour" in message.message
