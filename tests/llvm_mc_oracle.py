"""llvm-mc-22 as the judge of one line, and the linter's findings on it: the tests of the built-in assembler checks
(issue 36) ask both about every case, so an expectation cannot drift from the assembler."""

from __future__ import annotations

import shutil
import subprocess

LLVM_MC = shutil.which("llvm-mc-22")


def llvm_mc_says(tmp_path, target: str, line: str) -> str:
    """What llvm-mc-22 prints for `line` assembled for `target`, a target id (`gfx1100:wavefrontsize64+`)."""
    assert LLVM_MC is not None
    processor, *features = target.split(":")
    path = tmp_path / "k.s"
    path.write_text(line + "\n")
    command = [LLVM_MC, "-triple=amdgcn-amd-amdhsa", f"-mcpu={processor}", "-filetype=null", str(path)]
    if features:
        command.append("-mattr=" + ",".join(f"{feature[-1]}{feature[:-1]}" for feature in features))
    return subprocess.run(command, capture_output=True, text=True, check=False).stderr


def findings_on_the_line(snippet, target: str, line: str, rules: tuple[str, ...] = ("unknown-instruction",)) -> list[str]:
    """The messages of `rules` on `line`, linted as the one instruction of a kernel for `target`."""
    result = snippet.lint(f"k:\n  {line}\n  s_endpgm\n", mcpu=target)
    return [d.message for d in result.diagnostics if d.name in rules and d.line == 2]


def assert_linter_verdict(snippet, target: str, line: str, message: str | None,
                          rules: tuple[str, ...] = ("unknown-instruction",), attributed: bool = False) -> None:
    """The linter gives `line` one finding of `rules` whose words include `message` (naming llvm-mc 22 as its source
    where `attributed`), or none (None)."""
    found = findings_on_the_line(snippet, target, line, rules)
    if message is None:
        assert found == []
    else:
        assert len(found) == 1 and message in found[0] and (not attributed or "as llvm-mc 22 says" in found[0]), found


def assert_llvm_mc_verdict(tmp_path, target: str, line: str, message: str | None) -> None:
    """llvm-mc-22 refuses `line` with an error whose words include `message` (any error where it is ""), or
    assembles it (None)."""
    stderr = llvm_mc_says(tmp_path, target, line)
    if message is None:
        assert "error" not in stderr, stderr
    else:
        assert "error: " in stderr and message in stderr, stderr
