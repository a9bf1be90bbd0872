"""The command line: formats, exit codes, selection, config, report, rules, explain."""

import json
import subprocess
import sys

import pytest
from amdgpu_lint.cli import main
from conftest import FIXTURES

GOOD = '.amdgcn_target "amdgcn-amd-amdhsa--gfx942"\nk:\n s_endpgm\n'
BAD = '.amdgcn_target "amdgcn-amd-amdhsa--gfx942"\nk:\n s_branch .Lmissing\n .p2aling 8\n s_endpgm\n'


def run(capsys, *argv):
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def files(tmp_path):
    (tmp_path / "good.s").write_text(GOOD)
    (tmp_path / "bad.s").write_text(BAD)
    return tmp_path


def test_text_output_is_gcc_style_with_snippet(capsys, files):
    code, out, _ = run(capsys, "check", "--no-config", str(files / "bad.s"))
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == f"{files / 'bad.s'}:3:2: error: s_branch target '.Lmissing' is not defined [AGL003 undefined-symbol]"
    assert lines[1] == "    3 |  s_branch .Lmissing"
    assert lines[2] == "      |  ^~~~~~~~~~~~~~~~~~"
    assert lines[-1] == "Found 2 problems (1 error, 1 warning) in 1 file."


def test_json_output_schema(capsys, files):
    code, out, _ = run(capsys, "check", "--no-config", "--format", "json", str(files))
    assert code == 1
    document = json.loads(out)
    keys = {"code", "name", "severity", "path", "line", "column", "end_line", "end_column", "message", "kernel"}
    assert all(keys <= set(d) for d in document["diagnostics"])
    assert [(d["name"], d["line"], d["kernel"]) for d in document["diagnostics"]] == [
        ("undefined-symbol", 3, "k"), ("unknown-directive", 4, None)]
    assert document["summary"] == {"files": 2, "diagnostics": 2, "errors": 1, "warnings": 1, "info": 0}


def test_exit_codes_and_fail_on(capsys, files):
    assert run(capsys, "check", "--no-config", str(files / "good.s"))[0] == 0
    assert run(capsys, "check", "--no-config", "--select", "unknown-directive", str(files / "bad.s"))[0] == 1
    assert run(capsys, "check", "--no-config", "--select", "AGL002", "--fail-on", "error", str(files / "bad.s"))[0] == 0
    code, _, err = run(capsys, "check", "--no-config", str(files / "missing.s"))
    assert code == 2 and "no such file" in err
    code, _, err = run(capsys, "check", "--no-config", "--select", "no-such-rule", str(files))
    assert code == 2 and "no rule matches" in err


def test_select_and_ignore(capsys, files):
    _, out, _ = run(capsys, "check", "--no-config", "--format", "json", "--ignore", "undefined-symbol", str(files))
    assert [d["code"] for d in json.loads(out)["diagnostics"]] == ["AGL002"]
    _, out, _ = run(capsys, "check", "--no-config", "--format", "json", "--select", "AGL00", "--ignore", "AGL002", str(files))
    assert [d["code"] for d in json.loads(out)["diagnostics"]] == ["AGL003"]


def test_output_file(capsys, files, tmp_path):
    target = tmp_path / "out.json"
    code, out, _ = run(capsys, "check", "--no-config", "--format", "json", "--output", str(target), str(files))
    assert code == 1 and out == "" and json.loads(target.read_text())["summary"]["diagnostics"] == 2


def test_directories_recurse_over_assembly_suffixes(capsys, tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.S").write_text(GOOD)
    (tmp_path / "sub" / "b.asm").write_text(GOOD)
    (tmp_path / "notes.txt").write_text("not assembly")
    _, out, _ = run(capsys, "check", "--no-config", "--format", "json", str(tmp_path))
    assert json.loads(out)["summary"]["files"] == 2


def test_mcpu_include_and_defsym(capsys, tmp_path):
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "regs.inc").write_text(".set vgprA, 3\n")
    (tmp_path / "k.s").write_text('.include "regs.inc"\nk:\n v_mov_b32 v[vgprA], v[EXTRA]\n s_endpgm\n')
    code, out, _ = run(capsys, "check", "--no-config", "--mcpu", "gfx90a", "-I", str(tmp_path / "inc"), "--defsym", "EXTRA=7", str(tmp_path / "k.s"))
    assert code == 0, out
    code, out, _ = run(capsys, "check", "--no-config", str(tmp_path / "k.s"))
    assert code == 1 and "unknown-target" in out and "parse-error" in out


def test_config_file_and_no_config(capsys, tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.amdgpu-lint]\nmcpu = "gfx90a"\nignore = ["unknown-directive"]\n')
    (tmp_path / "k.s").write_text("k:\n .p2aling 8\n s_endpgm\n")
    assert run(capsys, "check", str(tmp_path / "k.s"))[0] == 0
    code, out, _ = run(capsys, "check", "--no-config", str(tmp_path / "k.s"))
    assert code == 1 and "unknown-target" in out and "unknown-directive" in out
    (tmp_path / ".amdgpu-lint.toml").write_text("colour = 1\n")
    from amdgpu_lint.driver.config import find_config

    find_config.cache_clear()
    code, _, err = run(capsys, "check", str(tmp_path / "k.s"))
    assert code == 2 and "unknown key" in err


def test_the_readme_configuration_table_works_in_either_file(capsys, tmp_path):
    """pyproject.toml's `[tool.amdgpu-lint]` table, copied into .amdgpu-lint.toml, is read there too; errors name
    the file and the key."""
    from amdgpu_lint.driver.config import find_config

    (tmp_path / "k.s").write_text("k:\n .p2aling 8\n s_endpgm\n")
    (tmp_path / ".amdgpu-lint.toml").write_text('[tool.amdgpu-lint]\nmcpu = "gfx90a"\nignore = ["unknown-directive"]\n'
                                               '[tool.amdgpu-lint.per-file-ignores]\n"gen/*.s" = ["parse-error"]\n')
    find_config.cache_clear()
    assert run(capsys, "check", str(tmp_path / "k.s"))[0] == 0
    (tmp_path / ".amdgpu-lint.toml").write_text('mcpu = "gfx90a"\nseverity = { unknown-directive = "loud" }\n')
    find_config.cache_clear()
    code, _, err = run(capsys, "check", str(tmp_path / "k.s"))
    assert code == 2 and f"{tmp_path / '.amdgpu-lint.toml'}: 'severity.unknown-directive': unknown severity 'loud'" in err
    (tmp_path / ".amdgpu-lint.toml").write_text('[per-file-ignores]\n"gen/*.s" = 3\n')
    find_config.cache_clear()
    code, _, err = run(capsys, "check", str(tmp_path / "k.s"))
    assert code == 2 and "'per-file-ignores.gen/*.s' must be a string or a list of strings" in err


def test_report_text_and_json(capsys):
    path = FIXTURES / "handwritten" / "tensile_gemm_gfx90a.s"
    code, out, _ = run(capsys, "report", "--no-config", str(path))
    assert code == 0 and "kernel gemm_tn_gfx90a" in out and "target:        gfx90a (GFX9 (CDNA2))" in out
    code, out, _ = run(capsys, "report", "--no-config", "--format", "json", str(path))
    (kernel,) = json.loads(out)["kernels"]
    assert (kernel["name"], kernel["target"], kernel["kind"]) == ("gemm_tn_gfx90a", "gfx90a", "kernel")
    assert kernel["descriptor"]["accum_offset"] == 20 and kernel["metadata"][".agpr_count"] == 16


def test_rules_and_explain(capsys):
    code, out, _ = run(capsys, "rules")
    assert code == 0 and "AGL003  undefined-symbol" in out
    code, out, _ = run(capsys, "explain", "AGL003")
    assert code == 0 and "## How to fix" in out
    assert run(capsys, "explain", "parse-error")[0] == 0
    assert run(capsys, "explain", "nope")[0] == 2


def test_console_script_runs_as_module(tmp_path):
    (tmp_path / "k.s").write_text(BAD)
    process = subprocess.run([sys.executable, "-m", "amdgpu_lint", "check", "--no-config", str(tmp_path)], capture_output=True, text=True)
    assert process.returncode == 1 and "AGL003" in process.stdout and process.stderr == ""
