"""The pre-commit hook: `check --includers` lints a changed header through the kernels that include
it, CPU assembly is skipped with a note (a configured AMDGPU kernel is not), and the hook itself runs
through `pre-commit try-repo` against this checkout in a fresh git repository."""

import os
import shutil
import subprocess
import sys

import pytest
import yaml
from amdgpu_lint.cli import main
from conftest import ROOT

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
GIT_ENVIRONMENT = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid", "GIT_COMMITTER_NAME": "t",
                   "GIT_COMMITTER_EMAIL": "t@example.invalid"}
TARGET = '.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"\n'
#: a load and a use of its result with no wait between: missing-wait, an error
LOAD_AND_USE = " global_load_dword v2, v1, s[0:1]\n v_add_u32 v3, v2, v2\n"
CLEAN = TARGET + "c:\n v_mov_b32 v1, 0\n s_endpgm\n"
X86 = """#include "asm.h"
\t.text
\t.globl\tadd
\t.type\tadd, @function
add:
\tleal\t(%rdi,%rsi), %eax
\tret
"""


def _repository(root, files: dict[str, str]) -> None:
    """A git repository at `root` holding `files` (added to the index, as pre-commit sees them)."""
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    environment = {**os.environ, **GIT_ENVIRONMENT}
    subprocess.run(["git", "init", "-q"], cwd=root, check=True, env=environment)
    subprocess.run(["git", "add", "."], cwd=root, check=True, env=environment)


#: kernels/a.s includes the header directly, kernels/b.S through wrap.inc; c.s includes nothing; the
#: header is found through the configured include directory
HEADER_PROJECT = {
    ".amdgpu-lint.toml": 'include-dirs = ["include"]\n',
    "include/load.inc": LOAD_AND_USE,
    "include/unused.inc": "; nothing includes this\n",
    "kernels/a.s": TARGET + 'a:\n v_mov_b32 v1, 0\n .include "load.inc"\n s_endpgm\n',
    "kernels/wrap.inc": '.include "load.inc"\n',
    "kernels/b.S": TARGET + 'b:\n v_mov_b32 v1, 0\n#include "wrap.inc"\n s_endpgm\n',
    "kernels/c.s": CLEAN,
}


@needs_git
def test_a_changed_header_is_linted_through_every_kernel_that_includes_it(tmp_path, monkeypatch, capsys):
    _repository(tmp_path, HEADER_PROJECT)
    monkeypatch.chdir(tmp_path)
    assert main(["check", "--no-cache", "--includers", "include/load.inc"]) == 1
    out = capsys.readouterr().out
    found = [line for line in out.splitlines() if "[AGL201 missing-wait]" in line]
    assert found == [f"{os.path.normpath(tmp_path / 'include/load.inc')}:2:2: error: v2 is read here but may still be "
                     f"loading (global_load_dword at {os.path.normpath(tmp_path / 'include/load.inc')}:1); insert "
                     "`s_waitcnt vmcnt(0)` before this line [AGL201 missing-wait]"] * 2
    assert "kernels/a.s:4:2: note: in file included from here ('load.inc')" in out
    assert "kernels/b.S:4:1: note: in file included from here ('wrap.inc')" in out and "in 2 files" in out
    assert main(["check", "--no-cache", "--includers", "include/unused.inc", "kernels/c.s"]) == 0
    captured = capsys.readouterr()
    assert "No problems found in 2 files" in captured.out
    assert "amdgpu-lint: note: include/unused.inc: skipped: a header no assembly file includes" in captured.err


@needs_git
def test_a_changed_kernel_brings_in_the_kernels_that_include_it_and_only_those(tmp_path, monkeypatch, capsys):
    _repository(tmp_path, {"common.s": TARGET + "k:\n v_mov_b32 v1, 0\n" + LOAD_AND_USE + " s_endpgm\n",
                           "user.s": '.include "common.s"\n', "other.s": CLEAN})
    monkeypatch.chdir(tmp_path)
    assert main(["check", "--no-cache", "--format", "json", "--includers", "common.s"]) == 1
    assert '"files": 2' in capsys.readouterr().out


def test_cpu_assembly_is_skipped_with_a_note_and_amdgpu_kernels_without_a_target_are_not(tmp_path, capsys):
    """x86 code has no AMDGPU target, directive or instruction: a note, not parse errors. A kernel
    with no .amdgcn_target is linted with the configured mcpu, or told it has no target."""
    cpu = tmp_path / "cpu" / "start.S"
    cpu.parent.mkdir()
    cpu.write_text(X86)
    configured = tmp_path / "gpu" / "k.s"
    configured.parent.mkdir()
    configured.write_text("k:\n v_mov_b32 v1, 0\n" + LOAD_AND_USE + " s_endpgm\n")
    (tmp_path / "gpu" / ".amdgpu-lint.toml").write_text('mcpu = "gfx90a"\n')
    bare = tmp_path / "bare.s"
    bare.write_text("k:\n v_mov_b32 v1, 0\n s_endpgm\n")

    assert main(["check", "--no-cache", str(cpu)]) == 0
    captured = capsys.readouterr()
    assert captured.err == (f"amdgpu-lint: note: {cpu}: skipped: not AMDGPU assembly (no AMDGPU target, directive or "
                            "instruction); pass --mcpu to lint it\n")
    assert "No problems found in 1 file" in captured.out

    assert main(["check", "--no-cache", str(cpu), str(configured), str(bare)]) == 1
    out = capsys.readouterr().out
    assert f"{configured}:4:2: error: v2 is read here" in out
    assert f"{bare}:1:1: error: no target" in out
    assert str(cpu) not in out

    assert main(["check", "--no-cache", "--mcpu", "gfx90a", str(cpu)]) == 1  # asked to: linted as AMDGPU
    assert f"{cpu}:6:" in capsys.readouterr().out


def test_the_hook_runs_on_kernels_and_headers():
    (hook,) = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    assert hook["entry"] == "amdgpu-lint check --includers" and hook.get("pass_filenames", True)
    pattern = __import__("re").compile(hook["files"])
    assert [name for name in ("a.s", "b.S", "c.asm", "d.amdgcn", "e.inc", "f.c", "g.sh", "h.json") if pattern.search(name)] \
        == ["a.s", "b.S", "c.asm", "d.amdgcn", "e.inc"]


@needs_git
def test_pre_commit_try_repo(tmp_path):
    """The hook as users install it, through `pre-commit try-repo` on this checkout (pre-commit makes
    a virtual environment and pip-installs the checkout into it, which needs the package index)."""
    pytest.importorskip("pre_commit")
    if not (ROOT / ".git").exists():
        pytest.skip("try-repo needs this checkout to be a git repository")
    project = tmp_path / "project"
    project.mkdir()
    _repository(project, {**HEADER_PROJECT, "cpu/start.S": X86,
                          "gpu/.amdgpu-lint.toml": 'mcpu = "gfx90a"\n',
                          "gpu/k.s": "k:\n v_mov_b32 v1, 0\n s_branch .Lmissing\n s_endpgm\n"})
    environment = {**os.environ, **GIT_ENVIRONMENT, "PRE_COMMIT_HOME": str(tmp_path / "cache")}

    def try_repo(*files: str) -> subprocess.CompletedProcess:
        command = [sys.executable, "-m", "pre_commit", "try-repo", str(ROOT), "amdgpu-lint", "--verbose", "--files", *files]
        return subprocess.run(command, cwd=project, capture_output=True, text=True, env=environment, timeout=600)

    passing = try_repo("kernels/c.s", "cpu/start.S", "include/unused.inc", "README.md")
    assert passing.returncode == 0, passing.stdout + passing.stderr
    assert "cpu/start.S: skipped: not AMDGPU assembly" in passing.stdout
    assert "include/unused.inc: skipped: a header no assembly file includes" in passing.stdout
    failing = try_repo("include/load.inc", "gpu/k.s", "cpu/start.S")
    assert failing.returncode == 1, failing.stdout + failing.stderr
    assert failing.stdout.count("load.inc:2:2: error: v2 is read here but may still be loading") == 2
    assert "gpu/k.s:3:2: error: s_branch target '.Lmissing' is not defined" in failing.stdout
    assert "cpu/start.S: skipped" in failing.stdout
