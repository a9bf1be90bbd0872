"""assembler-error: the user's assembler (llvm-mc) run beside the lint, each of its messages at the outermost line
of the file. The suite lints without an assembler ($AMDGPU_LINT_ASSEMBLER=none, tests/conftest.py); these tests name
llvm-mc-22 and skip where it is not installed, but for the parts that need no assembler (reading its output,
choosing it, turning it off)."""

from __future__ import annotations

import asyncio
import json
import shutil
import textwrap
from pathlib import Path

import pytest
from amdgpu_lint.cli import main
from amdgpu_lint.driver.session import Flags, UsageError, assembler_started_early, lint_buffer, settings_for
from amdgpu_lint.frontend.assembler import parse_messages

LLVM_MC = shutil.which("llvm-mc-22")
needs_llvm_mc = pytest.mark.skipif(LLVM_MC is None, reason="llvm-mc-22 is not installed (the assembler these tests run)")

#: lines llvm-mc 22 refuses that amdgpu-lint's own rules do not report, inside a macro, a .rept and an include too;
#: and one they do report (line 8, the SMEM offset past 21 bits: one finding, ours)
KERNEL = """\
.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
.macro TWO_SGPRS
  v_writelane_b32 v0, s0, s1
.endm
.text
k:
  v_writelane_b32 v0, s0, s1
  s_load_dwordx2 s[0:1], s[4:5], 0x1000000
  TWO_SGPRS
  .rept 2
  v_writelane_b32 v1, s2, s3
  .endr
  .include "part.inc"
  s_endpgm
"""
PART = "  v_writelane_b32 v2, s4, s5\n"
EXPECTED_LINES = [7, 9, 10, 13]


def run(capsys, *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().out


@pytest.fixture
def kernel(tmp_path: Path) -> Path:
    (tmp_path / "part.inc").write_text(PART)
    path = tmp_path / "k.s"
    path.write_text(KERNEL)
    return path


@needs_llvm_mc
def test_every_error_of_the_assembler_is_at_its_line_in_text_json_and_sarif(capsys, kernel):
    code, text = run(capsys, "check", "--no-config", "--no-cache", "--assembler", "llvm-mc-22", str(kernel))
    assert code == 1
    assert [int(line.split(":")[1]) for line in text.splitlines() if "[AGL009 assembler-error]" in line] == EXPECTED_LINES
    assert "k.s:7:27: error: llvm-mc-22: invalid operand (violates constant bus restrictions)" in text
    assert [line.split("k.s:8:3: ")[1] for line in text.splitlines() if "k.s:8:3: error" in line] == [
        "error: 's_load_dwordx2': expected a 21-bit signed offset (gfx90a, as llvm-mc 22 says) [AGL006 unknown-instruction]"]

    _, out = run(capsys, "check", "--no-config", "--no-cache", "--assembler", "llvm-mc-22", "--format", "json", str(kernel))
    document = json.loads(out)
    found = {d["line"]: d for d in document["diagnostics"] if d["name"] == "assembler-error"}
    assert sorted(found) == EXPECTED_LINES
    assert found[9]["message"].endswith("(in expansion of macro 'TWO_SGPRS')")
    assert found[9]["notes"][0]["message"] == "line 1 of the expansion: 'v_writelane_b32 v0, s0, s1'"
    assert found[10]["message"].endswith("(in .rept expansion)")
    (included,) = found[13]["notes"]  # the included file's own line
    assert (Path(included["path"]).name, included["line"]) == ("part.inc", 1)
    (assembler,) = document["tool"]["assemblers"]
    assert assembler["name"] == "llvm-mc-22" and "22" in assembler["version"]

    _, out = run(capsys, "check", "--no-config", "--no-cache", "--assembler", "llvm-mc-22", "--format", "sarif", str(kernel))
    run_log = json.loads(out)["runs"][0]
    assert sorted(r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in run_log["results"]
                  if r["ruleId"] == "AGL009") == EXPECTED_LINES
    assert run_log["tool"]["extensions"][0]["name"] == "llvm-mc-22"


@needs_llvm_mc
def test_one_finding_per_line_where_ours_and_the_assembler_agree(capsys, tmp_path):
    path = tmp_path / "k.s"
    path.write_text('.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"\nk:\n  v_bogus v0\n  v_writelane_b32 v0, s0, s1\n  s_endpgm\n')
    _, out = run(capsys, "check", "--no-config", "--no-cache", "--assembler", "llvm-mc-22", "--format", "json", str(path))
    found = [(d["line"], d["name"]) for d in json.loads(out)["diagnostics"]]
    assert found == [(3, "unknown-instruction"), (4, "assembler-error")]


@needs_llvm_mc
def test_a_register_the_target_lacks_is_one_finding_ours(capsys, tmp_path):
    path = tmp_path / "k.s"
    path.write_text('.amdgcn_target "amdgcn-amd-amdhsa--gfx803"\nk:\n  s_mov_b32 s0, ttmp12\n  s_endpgm\n')
    _, out = run(capsys, "check", "--no-config", "--no-cache", "--assembler", "llvm-mc-22", "--format", "json", str(path))
    assert [(d["line"], d["name"]) for d in json.loads(out)["diagnostics"]] == [(3, "register-budget")]


@needs_llvm_mc
def test_a_warning_of_the_assembler_is_a_warning(capsys, tmp_path):
    path = tmp_path / "k.s"
    path.write_text('.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"\nk:\n  .warning "careful"\n  s_endpgm\n')
    _, out = run(capsys, "check", "--no-config", "--no-cache", "--assembler", "llvm-mc-22", "--select",
                 "assembler-error", "--format", "json", str(path))
    (finding,) = json.loads(out)["diagnostics"]
    assert (finding["line"], finding["severity"], finding["message"]) == (3, "warning", "llvm-mc-22: careful")


@needs_llvm_mc
def test_a_cached_result_does_not_run_the_assembler_again(capsys, kernel, tmp_path, monkeypatch):
    log = tmp_path / "runs.log"
    wrapper = tmp_path / "logging-llvm-mc"
    wrapper.write_text(f'#!/bin/sh\necho "$@" >> {log}\nexec {LLVM_MC} "$@"\n')
    wrapper.chmod(0o755)
    monkeypatch.setenv("AMDGPU_LINT_CACHE_DIR", str(tmp_path / "cache"))
    outputs = [run(capsys, "check", "--no-config", "--assembler", str(wrapper), str(kernel))[1] for _ in range(2)]
    assembled = [line for line in log.read_text().splitlines() if "--triple=" in line]
    assert len(assembled) == 1 and outputs[0] == outputs[1] and outputs[0].count("assembler-error") == len(EXPECTED_LINES)


#: the buffer as edited, not saved: line 7 no longer reads two SGPRs
UNSAVED = KERNEL.replace("  v_writelane_b32 v0, s0, s1\n  s_load", "  v_writelane_b32 v0, s0, s0\n  s_load")


@needs_llvm_mc
def test_the_editor_assembles_the_unsaved_buffer(kernel):
    result = lint_buffer(str(kernel), UNSAVED, Flags(assembler="llvm-mc-22"))
    assert sorted(d.line for d in result.diagnostics if d.name == "assembler-error") == EXPECTED_LINES[1:]


@needs_llvm_mc
def test_the_language_server_publishes_the_assemblers_errors(kernel, monkeypatch):
    pytest.importorskip("pygls")
    from lsprotocol import types
    from test_lsp import Session

    monkeypatch.setenv("AMDGPU_LINT_ASSEMBLER", "llvm-mc-22")

    async def session():
        async with Session(kernel.parent) as lsp:
            lsp.open(kernel, UNSAVED)
            return await lsp.next_published()

    published = asyncio.run(session())
    found = [d for d in published.diagnostics if d.code == "AGL009"]
    assert sorted(d.range.start.line + 1 for d in found) == EXPECTED_LINES[1:]
    assert all(d.severity == types.DiagnosticSeverity.Error for d in found)


@needs_llvm_mc
def test_a_repository_does_not_choose_the_assembler_unless_trusted(capsys, kernel, tmp_path, monkeypatch):
    log = tmp_path / "runs.log"
    wrapper = tmp_path / "repository-llvm-mc"
    wrapper.write_text(f'#!/bin/sh\necho "$@" >> {log}\nexec {LLVM_MC} "$@"\n')
    wrapper.chmod(0o755)
    (tmp_path / ".amdgpu-lint.toml").write_text(f'assembler = "{wrapper}"\n')
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "user-config"))
    monkeypatch.delenv("AMDGPU_LINT_ASSEMBLER")
    _, out = run(capsys, "check", "--no-cache", "--format", "json", str(kernel))
    (chosen,) = json.loads(out)["tool"]["assemblers"]
    assert not log.exists() and chosen["path"] != str(wrapper)  # the default one ran instead
    _, out = run(capsys, "check", "--no-cache", "--trust-repository-compiler", "--format", "json", str(kernel))
    assert log.exists() and json.loads(out)["tool"]["assemblers"][0]["path"] == str(wrapper)


def test_assembler_none_turns_it_off_and_a_missing_one_is_a_usage_error(capsys, kernel, tmp_path):
    code, out = run(capsys, "check", "--no-config", "--no-cache", "--assembler", "none", "--format", "json", str(kernel))
    document = json.loads(out)
    assert "tool" not in document and not [d for d in document["diagnostics"] if d["name"] == "assembler-error"]
    with pytest.raises(UsageError, match="assembler 'no-such-llvm-mc' not found"):
        settings_for(kernel, Flags(assembler="no-such-llvm-mc", use_config=False))


def test_the_suite_lints_without_an_assembler(kernel):
    """conftest's choice: findings do not depend on whether llvm-mc is on PATH."""
    assert settings_for(kernel, Flags(use_config=False)).options.assembler is None


#: what llvm-mc 22 writes for an error two macros deep, one in a .rept, one in a nested include, and a warning
STDERR = textwrap.dedent("""\
    <instantiation>:1:1: error: invalid instruction
    v_bogus_in v3
    ^
    <instantiation>:1:1: note: while in macro instantiation
    IN 3
    ^
    <stdin>:13:3: note: while in macro instantiation
      OUT
      ^
    <instantiation>:2:3: error: invalid instruction
      v_bogus_r v0
      ^
    <stdin>:10:3: note: while in macro instantiation
      .rept 2
      ^
    <instantiation>:1:1: error: invalid instruction
    v_bogus_r v0
    ^
    <stdin>:10:3: note: while in macro instantiation
      .rept 2
      ^
    Included from <stdin>:14:
    Included from inc/h2.s:1:
    inc/h3.s:1:3: error: invalid instruction
      v_bogus3 v0
      ^
    <stdin>:15:3: warning: careful
      .warning "careful"
      ^
    """)


def test_the_assemblers_messages_are_moved_to_the_outermost_line_with_the_steps_as_notes():
    macro, rept, include, warning = parse_messages(STDERR, "src/r.s")
    assert (macro.line, macro.column, macro.message) == (13, 3, "invalid instruction (in expansion of macro 'OUT')")
    assert [(s.message, s.path, s.line) for s in macro.steps] == [
        ("line 1 of the expansion: 'v_bogus_in v3'", None, None),
        ("in expansion of macro 'IN', line 1 of the enclosing expansion", None, None)]
    assert (rept.line, rept.message, len(rept.steps)) == (10, "invalid instruction (in .rept expansion)", 1)  # one a line
    assert (include.line, include.message) == (14, "invalid instruction (in an included file)")
    assert [(s.path, s.line) for s in include.steps] == [("src/inc/h3.s", 1), ("src/inc/h2.s", 1)]
    assert (warning.error, warning.line, warning.message, warning.steps) == (False, 15, "careful", ())


def test_an_assembler_that_does_not_know_the_processor_says_nothing():
    stderr = "'gfx940' is not a recognized processor for this target (ignoring processor)\n" \
             "<stdin>:3:3: error: instruction not supported on this GPU\n"
    assert parse_messages(stderr, "k.s") == []



@needs_llvm_mc
def test_the_assembler_assembles_with_the_features_mcpu_adds(capsys, tmp_path):
    path = tmp_path / "k.s"
    path.write_text('.amdgcn_target "amdgcn-amd-amdhsa--gfx1200"\nk:\n  v_add_f16 v0.l, v1.l, v2.l\n  s_endpgm\n')
    argv = ["check", "--no-config", "--no-cache", "--assembler", "llvm-mc-22", "--format", "json", str(path)]
    refused = json.loads(run(capsys, *argv)[1])["diagnostics"]  # gfx12 assembles without 16-bit halves by default
    assert [(d["line"], d["name"]) for d in refused] == [(3, "assembler-error")]
    assert json.loads(run(capsys, *argv, "--mcpu", "gfx1200:real-true16+")[1])["diagnostics"] == []


def test_past_an_include_the_assembler_did_not_find_it_says_nothing():
    """The linter finds an include beside the including file too; llvm-mc does not, and then misses its macros."""
    stderr = ("<stdin>:3:3: error: invalid operand for instruction\n"
              "<stdin>:5:12: error: Could not find include file 'macros.inc'\n"
              "<stdin>:9:3: error: invalid instruction\n")
    (before,) = parse_messages(stderr, "k.s")
    assert (before.line, before.message) == (3, "invalid operand for instruction")


@needs_llvm_mc
def test_a_run_started_before_the_file_was_read_is_replaced_when_the_build_reads_another_target(capsys, tmp_path):
    """`check` of one file starts the assembler before reading the file, from a quick look at its `.amdgcn_target`;
    that look sees one inside a /* */ comment, the build does not: the lint stops that run and starts its own."""
    path = tmp_path / "k.s"
    path.write_text('/*\n.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"\n*/\n.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"\n'
                    "k:\n  v_accvgpr_write_b32 a0, v0\n  s_endpgm\n")
    early = assembler_started_early([str(path)], Flags(use_config=False, assembler=LLVM_MC), None)
    assert early is not None and "--mcpu=gfx1100" in early.arguments
    early.close()
    code, out = run(capsys, "check", "--no-config", "--no-cache", "--assembler", "llvm-mc-22", str(path))
    assert code == 0 and "assembler-error" not in out  # llvm-mc for gfx1100 refuses the gfx90a target and the AGPR
    path.write_text(path.read_text().replace("/*\n", "").replace("*/\n", ""))
    assert "assembler-error" in run(capsys, "check", "--no-config", "--no-cache", "--assembler", "llvm-mc-22", str(path))[1]
