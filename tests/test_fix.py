"""`check --fix`, `--diff` and `--unsafe-fixes` through the real command line: the fixes land where the
findings say, nothing else changes, a second run has nothing to do, files are written only when asked and
atomically, and a fix whose line is not the file's own (a macro body, an included file) is left alone."""

from __future__ import annotations

import difflib
import json
import os
import re
import shutil
import stat
from collections import Counter
from pathlib import Path

import pytest
from amdgpu_lint.cli import main
from amdgpu_lint.driver import fixer
from amdgpu_lint.driver.session import Flags, jobs_for
from conftest import FIXTURES

# A gfx90a kernel with two mistakes --fix repairs: `v6` is read before its load returns (missing-wait),
# and an AGPR is read one instruction after the MFMA writing it (missing-nop).
KERNEL = """\
.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
.text
k:
    s_load_dwordx2 s[0:1], s[4:5], 0x0
    s_waitcnt lgkmcnt(0)
    global_load_dword v6, v0, s[0:1]
    v_add_f32 v7, v6, v6                 // v6 may still be loading
    v_mfma_f32_32x32x8f16 a[0:15], v[0:1], v[2:3], a[0:15]
    v_accvgpr_read_b32 v4, a0
    global_store_dword v0, v7, s[0:1]
    s_endpgm
"""
FIXED = KERNEL.replace(
    "    v_add_f32 v7", "    s_waitcnt vmcnt(0)\n    v_add_f32 v7").replace(
    "    v_accvgpr_read_b32", "    s_nop 15\n    s_nop 2\n    v_accvgpr_read_b32")


def check(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["check", "--no-config", "--no-cache", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def findings(capsys, path: Path) -> list[dict]:
    code, out, _ = check(capsys, "--format", "json", str(path))
    return json.loads(out)["diagnostics"]


def test_fix_inserts_the_wait_and_the_nops_and_nothing_else(tmp_path, capsys):
    path = tmp_path / "k.s"
    path.write_text(KERNEL)
    before = {d["name"] for d in findings(capsys, path)}
    assert {"missing-wait", "missing-nop"} <= before
    code, out, _ = check(capsys, "--fix", str(path))
    assert path.read_text() == FIXED
    assert "Found" in out and "(2 fixed, 0 remaining)" in out and code == 0
    assert findings(capsys, path) == []


def test_diff_shows_exactly_the_inserted_lines_and_writes_nothing(tmp_path, capsys):
    path = tmp_path / "k.s"
    path.write_text(KERNEL)
    path.chmod(0o640)
    status = path.stat()
    code, out, err = check(capsys, "--diff", str(path))
    added = [line for line in out.splitlines() if line.startswith("+") and not line.startswith("+++")]
    removed = [line for line in out.splitlines() if line.startswith("-") and not line.startswith("---")]
    assert added == ["+    s_waitcnt vmcnt(0)", "+    s_nop 15", "+    s_nop 2"] and removed == []
    assert f"--- {path}" in out and "Would fix 2 problems (0 remaining)." in err and code == 1
    assert path.read_text() == KERNEL and path.stat().st_mtime_ns == status.st_mtime_ns
    assert list(tmp_path.iterdir()) == [path]  # no temporary file left either


def test_hazards_found_independently_get_one_fix(tmp_path, capsys):
    """Each read of the MFMA's result is its own missing-nop finding; the first nops cover them all."""
    reads = KERNEL.replace("    v_accvgpr_read_b32 v4, a0\n", "    v_accvgpr_read_b32 v4, a0\n"
                           "    v_accvgpr_read_b32 v5, a1\n    v_accvgpr_read_b32 v8, a2\n")
    path = tmp_path / "k.s"
    path.write_text(reads)
    assert [d["name"] for d in findings(capsys, path)].count("missing-nop") == 3
    code, out, _ = check(capsys, "--fix", str(path))
    assert path.read_text() == FIXED.replace("    v_accvgpr_read_b32 v4, a0\n", "    v_accvgpr_read_b32 v4, a0\n"
                                             "    v_accvgpr_read_b32 v5, a1\n    v_accvgpr_read_b32 v8, a2\n")
    assert "Found 4 problems (4 fixed, 0 remaining)" in out  # by two fixes: the wait and the first read's nops


def test_a_second_run_finds_nothing_to_fix(tmp_path, capsys):
    path = tmp_path / "k.s"
    path.write_text(KERNEL)
    check(capsys, "--fix", str(path))
    once = path.read_bytes()
    code, out, err = check(capsys, "--diff", str(path))
    assert out == "" and "Would fix 0 problems (0 remaining)." in err and code == 0
    code, out, _ = check(capsys, "--fix", str(path))
    assert path.read_bytes() == once and out == "No problems found in 1 file.\n" and code == 0


def test_the_write_is_atomic_and_keeps_the_mode(tmp_path, capsys, monkeypatch):
    path = tmp_path / "k.s"
    path.write_text(KERNEL)
    path.chmod(0o751)
    replaced = []
    real_replace = os.replace
    monkeypatch.setattr(os, "replace", lambda source, target: (replaced.append((source, target)),
                                                               real_replace(source, target)))
    check(capsys, "--fix", str(path))
    ((source, target),) = replaced
    assert Path(source).parent == tmp_path and Path(target) == path.resolve()
    assert stat.S_IMODE(path.stat().st_mode) == 0o751 and path.read_text() == FIXED
    assert list(tmp_path.iterdir()) == [path]


def test_a_failed_write_leaves_the_file_and_no_temporary(tmp_path, capsys, monkeypatch):
    path = tmp_path / "k.s"
    path.write_text(KERNEL)

    def refuse(source, target):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "replace", refuse)
    code, _, err = check(capsys, "--fix", str(path))
    assert code == 2 and "not fixed: Permission denied" in err
    assert path.read_text() == KERNEL and list(tmp_path.iterdir()) == [path]


def test_a_symlink_is_followed_not_replaced(tmp_path, capsys):
    real = tmp_path / "real.s"
    real.write_text(KERNEL)
    link = tmp_path / "link.s"
    link.symlink_to(real)
    check(capsys, "--fix", str(link))
    assert link.is_symlink() and real.read_text() == FIXED


def test_line_endings_indentation_and_bom_are_kept(tmp_path, capsys):
    tabbed = KERNEL.replace("    ", "\t")
    path = tmp_path / "k.s"
    path.write_bytes(b"\xef\xbb\xbf" + tabbed.replace("\n", "\r\n").encode())
    check(capsys, "--fix", str(path))
    data = path.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf") and b"\n" not in data.replace(b"\r\n", b"")
    assert data[3:].decode().replace("\r\n", "\n") == FIXED.replace("    ", "\t")


def test_mixed_line_endings_stay_where_they_were(tmp_path, capsys):
    lines = KERNEL.splitlines(keepends=True)
    lines[6] = lines[6].replace("\n", "\r\n")  # only the line the wait goes above ends in CRLF
    path = tmp_path / "k.s"
    path.write_bytes("".join(lines).encode())
    check(capsys, "--fix", "--select", "missing-wait", str(path))
    assert path.read_bytes() == "".join(lines[:6] + ["    s_waitcnt vmcnt(0)\r\n"] + lines[6:]).encode()


def test_a_fix_inside_a_macro_is_not_applied(tmp_path, capsys):
    macro = KERNEL.replace("    v_add_f32 v7, v6, v6                 // v6 may still be loading\n",
                           "    ADD_SELF 7, 6\n")
    macro = macro.replace(".text\n", ".macro ADD_SELF dst, src\n    v_add_f32 v\\dst, v\\src, v\\src\n.endm\n.text\n")
    path = tmp_path / "k.s"
    path.write_text(macro)
    (wait,) = [d for d in findings(capsys, path) if d["name"] == "missing-wait"]
    assert wait["fix"]["applicability"] == "display-only"
    code, out, _ = check(capsys, "--fix", str(path))
    nops = "    s_nop 15\n    s_nop 2\n    v_accvgpr_read_b32"
    assert path.read_text() == macro.replace("    v_accvgpr_read_b32", nops)
    assert "(1 fixed, 1 remaining)" in out and code == 1
    assert "not fixed: its line comes from a macro" in out
    code, out, _ = check(capsys, "--fix", str(path))
    assert "(1 fixed" not in out and code == 1  # still reported, never applied


def test_a_fix_inside_an_included_file_is_not_applied(tmp_path, capsys):
    header = tmp_path / "body.inc"
    header.write_text("    v_add_f32 v7, v6, v6\n")
    main_file = tmp_path / "k.s"
    main_file.write_text(KERNEL.replace("    v_add_f32 v7, v6, v6                 // v6 may still be loading\n",
                                        '    .include "body.inc"\n'))
    before = main_file.read_text()
    code, out, _ = check(capsys, "--fix", "--select", "missing-wait", str(main_file))
    assert header.read_text() == "    v_add_f32 v7, v6, v6\n" and main_file.read_text() == before
    assert "body.inc:1:5: error" in out and code == 1


def test_a_label_sharing_the_line_stays_on_the_inserted_wait(tmp_path, capsys):
    labelled = KERNEL.replace("    v_add_f32 v7", ".Lhere: v_add_f32 v7")
    path = tmp_path / "k.s"
    path.write_text(labelled)
    check(capsys, "--fix", "--select", "missing-wait", str(path))
    assert ".Lhere: s_waitcnt vmcnt(0)\n        v_add_f32 v7, v6, v6" in path.read_text()
    assert [d for d in findings(capsys, path) if d["name"] == "missing-wait"] == []


def test_an_inserted_line_goes_above_a_disable_next_line_suppression(tmp_path, capsys):
    suppressed = KERNEL.replace("    v_accvgpr_read_b32", "    // amdgpu-lint: disable-next-line=missing-nop\n"
                                "    v_accvgpr_read_b32")
    path = tmp_path / "k.s"
    path.write_text(suppressed)
    code, _, _ = check(capsys, "--fix", str(path))
    assert path.read_text() == suppressed.replace("    v_add_f32 v7", "    s_waitcnt vmcnt(0)\n    v_add_f32 v7")
    assert code == 0  # the suppression still silences the nop, and is still used


GETPC = """\
.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
.text
k:
    s_load_dwordx2 s[0:1], s[4:5], 0x0
    s_getpc_b64 s[6:7]
    s_add_u32 s6, s0, callee@rel32@lo+4
    s_addc_u32 s7, s7, callee@rel32@hi+12
    s_endpgm
"""


def test_a_fix_inside_a_getpc_sequence_is_unsafe(tmp_path, capsys):
    path = tmp_path / "k.s"
    path.write_text(GETPC)
    (wait,) = [d for d in findings(capsys, path) if d["name"] == "missing-wait"]
    assert wait["fix"]["applicability"] == "unsafe" and "s_getpc_b64 at line 5" in wait["fix"]["description"]
    code, out, _ = check(capsys, "--fix", str(path))
    assert path.read_text() == GETPC and "1 fixable with --fix --unsafe-fixes." in out
    assert "not fixed: the fix is unsafe" in out
    code, out, _ = check(capsys, "--fix", "--unsafe-fixes", str(path))
    assert "    s_waitcnt lgkmcnt(0)\n    s_add_u32 s6, s0" in path.read_text()


def test_numeric_branch_offsets_make_every_fix_unsafe(tmp_path, capsys):
    path = tmp_path / "k.s"
    path.write_text(KERNEL.replace("    s_endpgm", "    s_branch 0\n    s_endpgm"))
    assert {d["fix"]["applicability"] for d in findings(capsys, path) if d["fix"]} == {"unsafe"}
    code, out, _ = check(capsys, "--diff", str(path))
    assert out == ""


def test_fix_with_json_reports_what_remains(tmp_path, capsys):
    path = tmp_path / "k.s"
    path.write_text(KERNEL.replace("    s_endpgm", "    s_bogus_op\n    s_endpgm"))
    code, out, _ = check(capsys, "--fix", "--format", "json", str(path))
    document = json.loads(out)
    assert document["summary"]["fixed"] == 2 and [d["name"] for d in document["diagnostics"]] == ["unknown-instruction"]
    assert document["diagnostics"][0]["line"] == 14 and code == 1  # the line in the fixed file


def test_a_file_named_twice_is_fixed_once(tmp_path, capsys):
    path = tmp_path / "k.s"
    path.write_text(KERNEL)
    code, out, err = check(capsys, "--fix", str(path), str(tmp_path))
    assert path.read_text() == FIXED and code == 0 and err == ""


def test_a_file_that_is_not_utf8_is_linted_not_fixed(tmp_path, capsys):
    path = tmp_path / "k.s"
    path.write_bytes(KERNEL.replace("// v6 may", "// v6 \xe9 may").encode("latin-1"))
    before = path.read_bytes()
    code, out, _ = check(capsys, "--fix", str(path))
    assert path.read_bytes() == before and "invalid-encoding" in out and "not fixed: the file is not UTF-8 text" in out


def test_fix_refuses_standard_input(capsys):
    code, _, err = check(capsys, "--fix", "-")
    assert code == 2 and "give paths, not standard input" in err


def test_ir_inputs_are_linted_never_edited(tmp_path, capsys):
    shutil.copy(FIXTURES / "races" / "lds_barrier_without_fence.ll", tmp_path / "race.ll")
    before = (tmp_path / "race.ll").read_bytes()
    code, out, _ = check(capsys, "--fix", "--mcpu", "gfx1100", str(tmp_path / "race.ll"))
    assert (tmp_path / "race.ll").read_bytes() == before and "missing-wait" in out
    assert "not fixed" in out and sorted(p.name for p in tmp_path.iterdir()) == ["race.ll"]


def test_text_output_says_how_many_are_fixable(tmp_path, capsys):
    path = tmp_path / "k.s"
    path.write_text(KERNEL)
    _, out, _ = check(capsys, str(path))
    assert out.endswith("2 fixable with --fix.\n")


def test_apply_edits_keeps_a_missing_final_newline():
    text = "a\r\nb"
    edit = fixer.Edit("f.s", 2, 1, 2, 1, "x\n")
    assert fixer.apply_edits(text, [edit]) == "a\r\nx\r\nb"
    assert fixer.apply_edits("a", [fixer.Edit("f.s", 1, 1, 1, 1, "x\n")]) == "x\na"


def inserted_lines(before: list[str], after: list[str]) -> list[str]:
    """The lines `after` adds to `before`; fails if it changes or removes any."""
    changes = difflib.SequenceMatcher(None, before, after, autojunk=False).get_opcodes()
    assert {tag for tag, *_ in changes} <= {"equal", "insert"}
    return [line for tag, _, _, start, end in changes if tag == "insert" for line in after[start:end]]


WAIT_OR_NOP = re.compile(r"^\s*(s_waitcnt\w*|s_wait_\w+|s_nop)\b")


@pytest.mark.parametrize("fixture, target", [("mfma_gemm.ll", "gfx90a"), ("lds_reduce.ll", "gfx942"),
                                             ("loop_saxpy.ll", "gfx1100")])
def test_fix_puts_back_each_wait_and_nop_llvm_placed(tmp_path, fixture, target):
    """Delete one wait or s_nop of LLVM's output at a time: whenever the linter notices, one fix makes the
    kernel clean again (and the fix is the only change: every other line is LLVM's)."""
    from llvm_oracle import compile_ir

    lines = compile_ir((FIXTURES / "llvm" / fixture).read_text(), target).split("\n")
    path = tmp_path / "k.s"
    noticed = 0
    for index, line in enumerate(lines):
        if not WAIT_OR_NOP.match(line):
            continue
        mutant = lines[:index] + lines[index + 1:]
        path.write_text("\n".join(mutant))
        (job,) = jobs_for([str(path)], Flags(mcpu=target, use_config=False))
        (fixed,) = fixer.fix_job(job, unsafe=False)
        if not fixed.fixes:
            continue
        noticed += 1
        assert fixed.converged and fixed.fixes == 1, line
        assert [d for d in fixed.result.diagnostics if d.name in ("missing-wait", "missing-nop")] == []
        inserted = inserted_lines(mutant, fixed.fixed.split("\n"))
        assert inserted and all(WAIT_OR_NOP.match(n) for n in inserted)
    assert noticed >= 3


# every bundled example, and every fixture kernel: fixed copies lint with no fixable finding left and still parse
EXAMPLES = sorted(p for p in (FIXTURES / "examples").rglob("*") if p.suffix == ".s") + sorted(
    p for p in (FIXTURES / "handwritten").iterdir() if p.suffix in (".s", ".S"))
FIXES_NEEDED = {"lds_barrier_without_fence_gfx1100.s": 2, "prefetch_gfx942.s": 1}


@pytest.mark.parametrize("example", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_every_example_fixes_cleanly(tmp_path, capsys, example):
    copies = tmp_path / example.parent.name
    shutil.copytree(example.parent, copies)  # with the headers it includes
    path = copies / example.name
    before = findings(capsys, path)
    code, out, _ = check(capsys, "--fix", "--format", "json", str(path))
    assert json.loads(out)["summary"]["fixed"] == FIXES_NEEDED.get(example.name, 0)
    after = findings(capsys, path)
    assert [d for d in after if d["fix"] and d["fix"]["applicability"] == "safe"] == []
    # what is left is what could not be fixed: no new finding (a parse error, say), none lost
    assert Counter(d["name"] for d in after) == Counter(d["name"] for d in before if not d["fix"])
    # and the only change is inserted waits and nops
    inserted = inserted_lines(example.read_text().splitlines(), path.read_text().splitlines())
    assert all(WAIT_OR_NOP.match(line) for line in inserted) and len(inserted) == FIXES_NEEDED.get(example.name, 0)
    _, out, _ = check(capsys, "--diff", str(path))
    assert out == ""


def test_sarif_and_the_editor_offer_no_display_only_fix(tmp_path, capsys):
    """A fix in a macro body is no edit of a plain line of the file: SARIF carries no `fixes` for it and the
    language server offers no quick fix, while the safe fix in the same file is offered by both."""
    from types import SimpleNamespace

    from amdgpu_lint import lsp
    from lsprotocol import types

    macro = KERNEL.replace("    v_add_f32 v7, v6, v6                 // v6 may still be loading\n", "    ADD_SELF 7, 6\n")
    macro = macro.replace(".text\n", ".macro ADD_SELF dst, src\n    v_add_f32 v\\dst, v\\src, v\\src\n.endm\n.text\n")
    path = tmp_path / "k.s"
    path.write_text(macro)
    _, out, _ = check(capsys, "--format", "sarif", str(path))
    results = {r["ruleId"]: r for r in json.loads(out)["runs"][0]["results"]}
    wait, nop = results["AGL201"], results["AGL301"]
    assert "fixes" not in wait and "fixes" in nop

    uri = path.as_uri()
    linted = lsp.lint_text(str(path), macro, version=1)
    server = SimpleNamespace(results={uri: linted},
                             workspace=SimpleNamespace(get_text_document=lambda _: SimpleNamespace(version=1)))
    whole = types.Range(start=types.Position(line=0, character=0), end=types.Position(line=99, character=0))
    actions = lsp.code_actions(server, types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=whole,
        context=types.CodeActionContext(diagnostics=[])))
    assert [action.title.split(":")[0] for action in actions] == ["AGL301"]
