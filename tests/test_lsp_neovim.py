"""The language server end to end in a real client: headless Neovim configured with the README's
snippet gets the diagnostics, the occupancy hover (also while a lint runs) and the quick fix, and the
server exits 0. Skipped when `nvim` is not installed (CI has pip packages only)."""

from __future__ import annotations

import json
import os
import re
import select
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

pytest.importorskip("pygls")

HARNESS = ROOT / "tests" / "lsp_neovim.lua"
SOURCE = """.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
k:
 v_mov_b32 v1, 0
 global_load_dword v2, v1, s[0:1]
 v_add_u32 v3, v2, v2
 s_endpgm
"""
#: Before the README's snippet: when Neovim started and, on Neovim 0.7 (Debian 12's), Lua filetype detection
#: switched on and `vim.lsp.start` (0.8+) spelled with the older API it wraps, one client per name and root.
PRELUDE = """_G.amdgpu_lint_started = vim.loop.hrtime()
vim.g.do_filetype_lua = 1  -- Neovim 0.7: vim.filetype.add's table is read only then (0.8 and later always)
if vim.lsp.start == nil then
  -- as 0.8's does: one client per name and root (FileType may fire twice when both filetype detections run)
  local started = {}
  vim.lsp.start = function(config)
    local key = config.name .. (config.root_dir or "")
    started[key] = started[key] or vim.lsp.start_client(config)
    vim.lsp.buf_attach_client(0, started[key])
  end
end
"""


def readme_snippet() -> str:
    """The Neovim configuration the README gives users."""
    (snippet,) = re.findall(r"```lua\n(.*?)```", (ROOT / "README.md").read_text(), re.S)
    return snippet


def run_neovim(path: Path, hover_line: int, action_line: int, home: Path) -> dict:
    """Open `path` in headless Neovim with the README's configuration, drive the harness and quit. The
    `amdgpu-lint` Neovim starts is this checkout's, through a script that keeps its exit code and stderr."""
    (home / "bin").mkdir(parents=True, exist_ok=True)
    init = home / "init.lua"
    init.write_text(PRELUDE + readme_snippet())
    script = home / "bin" / "amdgpu-lint"
    script.write_text(f'#!/bin/sh\n"{sys.executable}" -m amdgpu_lint "$@" 2>"{home}/server.err"\necho $? 1<>"{home}/server.rc"\n')
    script.chmod(0o755)
    os.mkfifo(home / "server.rc")  # the script writes the server's exit code there (opened read-write: never
    # waiting for a reader) once the server has exited
    output = home / "result.json"
    environment = {**os.environ, "PATH": f"{home / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}",
                   "LSP_RESULT": str(output), "LSP_HOVER_LINE": str(hover_line), "LSP_ACTION_LINE": str(action_line),
                   **{f"XDG_{kind}_HOME": str(home / kind.lower()) for kind in ("CONFIG", "DATA", "STATE", "CACHE")}}
    command = ["nvim", "--headless", "-i", "NONE", "--noplugin", "-u", str(init), str(path), "-c", f"luafile {HARNESS}"]
    # opened first, so that what the script writes waits in the pipe until it is read
    reader = os.open(home / "server.rc", os.O_RDONLY | os.O_NONBLOCK)
    try:
        subprocess.run(command, cwd=path.parent, env=environment, timeout=300, check=True,
                       stdin=subprocess.DEVNULL, capture_output=True)
        result = json.loads(output.read_text())
        # readable once the script has written (the server has exited); the minute only guards against a hang
        written = os.read(reader, 16) if select.select([reader], [], [], 60)[0] else b""
    finally:
        os.close(reader)
    result["exit"] = int(written) if written.strip() else None
    result["stderr"] = (home / "server.err").read_text(errors="replace")
    return result


@pytest.mark.skipif(shutil.which("nvim") is None, reason="Neovim is not installed")
def test_neovim_gets_diagnostics_hover_and_the_quick_fix_and_the_server_exits_0(tmp_path):
    path = tmp_path / "k.s"
    path.write_text(SOURCE)
    result = run_neovim(path, hover_line=1, action_line=4, home=tmp_path / "nvim")
    assert "error" not in result, result
    (diagnostic,) = result["diagnostics"]
    assert (diagnostic["code"], diagnostic["range"]["start"]["line"], diagnostic["severity"]) == ("AGL201", 4, 1)
    assert diagnostic["relatedInformation"][0]["message"] == "global_load_dword issued here"
    assert "**k** on gfx90a: **8/8 waves per SIMD**" in result["hover"]
    assert result["actions"] == ["AGL201: insert `s_waitcnt vmcnt(0)`"]
    assert result["fixed_lines"] == [" global_load_dword v2, v1, s[0:1]", " s_waitcnt vmcnt(0)", " v_add_u32 v3, v2, v2"]
    assert result["after_fix"] == []
    assert result["hover_latencies_ms"], "no hover was sent while the edit was linted"
    assert result["exit"] == 0 and result["stderr"] == ""


@pytest.mark.skipif(shutil.which("nvim") is None, reason="Neovim is not installed")
def test_neovim_shows_a_headers_findings_and_a_bad_configuration(tmp_path):
    """With the README's configuration an `.inc` opens as assembly, the server attaches and the finding inside its
    macro body shows at its line; a configuration the server cannot read is a diagnostic on line 1."""
    project = tmp_path / "project"
    project.mkdir()
    header = project / "macros.inc"
    header.write_text(".macro load_add\n global_load_dword v4, v1, s[0:1]\n v_add_u32 v5, v4, v4\n.endm\n")
    (project / "k.s").write_text('.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"\n.include "macros.inc"\nk:\n'
                                 " v_mov_b32 v1, 0\n load_add\n s_endpgm\n")
    result = run_neovim(header, hover_line=0, action_line=-1, home=tmp_path / "nvim")
    assert "error" not in result, result
    (diagnostic,) = result["diagnostics"]
    assert (diagnostic["code"], diagnostic["range"]["start"]["line"]) == ("AGL201", 2)
    (project / ".amdgpu-lint.toml").write_text("colour = 1\n")
    result = run_neovim(project / "k.s", hover_line=0, action_line=-1, home=tmp_path / "nvim2")
    (diagnostic,) = result["diagnostics"]
    assert diagnostic["range"]["start"]["line"] == 0 and "unknown key(s) colour" in diagnostic["message"]
