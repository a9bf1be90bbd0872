"""The pre-commit hook, run through `pre-commit try-repo` against this checkout."""

import os
import shutil
import subprocess
import sys

import pytest
from conftest import ROOT

GOOD = '.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"\nk:\n s_endpgm\n'
BAD = '.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"\nk:\n s_branch .Lmissing\n s_endpgm\n'


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_hook_fails_on_a_bad_kernel_and_passes_on_a_good_one(tmp_path):
    pytest.importorskip("pre_commit")
    if not (ROOT / ".git").exists():
        pytest.skip("try-repo needs this checkout to be a git repository")
    project = tmp_path / "project"
    project.mkdir()
    environment = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "cache"), "GIT_AUTHOR_NAME": "t",
                   "GIT_AUTHOR_EMAIL": "t@example.invalid", "GIT_COMMITTER_NAME": "t",
                   "GIT_COMMITTER_EMAIL": "t@example.invalid"}
    subprocess.run(["git", "init", "-q"], cwd=project, check=True, env=environment)
    (project / "good.s").write_text(GOOD)
    (project / "bad.S").write_text(BAD)
    subprocess.run(["git", "add", "."], cwd=project, check=True, env=environment)

    def try_repo(*files: str) -> subprocess.CompletedProcess:
        command = [sys.executable, "-m", "pre_commit", "try-repo", str(ROOT), "amdgpu-lint", "--files", *files]
        return subprocess.run(command, cwd=project, capture_output=True, text=True, env=environment, timeout=600)

    passing = try_repo("good.s")
    assert passing.returncode == 0, passing.stdout + passing.stderr
    failing = try_repo("good.s", "bad.S")
    assert failing.returncode == 1, failing.stdout + failing.stderr
    assert "bad.S:3:2: error: s_branch target '.Lmissing' is not defined" in failing.stdout
