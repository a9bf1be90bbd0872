"""SARIF (schema-valid, GitHub limits), GitHub workflow commands, GitLab Code Quality,
inline suppressions, per-file ignores and the findings baseline."""

import gzip
import json

import jsonschema
import pytest
from amdgpu_lint import __version__
from amdgpu_lint.cli import main
from amdgpu_lint.driver.linter import lint_file
from amdgpu_lint.frontend.options import BuildOptions
from amdgpu_lint.rules import RULES
from conftest import FIXTURES, ROOT, names

SCHEMA_PATH = ROOT.parent / "shared" / "sarif" / "sarif-schema-2.1.0.json"
EXAMPLES = FIXTURES / "examples"


def sarif_of(capsys, *paths, extra=()):
    main(["check", "--no-config", "--format", "sarif", *extra, *map(str, paths)])
    return json.loads(capsys.readouterr().out)


def validate(log: dict) -> None:
    schema = json.loads(SCHEMA_PATH.read_text())
    validator = jsonschema.validators.validator_for(schema)
    validator(schema, format_checker=validator.FORMAT_CHECKER).validate(log)


@pytest.mark.skipif(not SCHEMA_PATH.is_file(), reason="../shared/sarif is not present")
def test_sarif_validates_and_respects_github_limits(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    log = sarif_of(capsys, "fixtures/examples", "fixtures/handwritten")
    validate(log)
    (run,) = log["runs"]
    rules = run["tool"]["driver"]["rules"]
    assert log["$schema"].endswith("sarif-2.1.0.json") and len(rules) <= 25000
    assert len(run["results"]) <= 25000 and len(gzip.compress(json.dumps(log).encode())) < 10 * 1024 * 1024
    for result in run["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        assert result["message"]["text"].endswith((".", "?"))
        location = result["locations"][0]["physicalLocation"]
        assert not location["artifactLocation"]["uri"].startswith(("/", "file:"))
        region = location["region"]
        assert region["endColumn"] > region["startColumn"]
        assert len(result.get("relatedLocations", [])) <= 1000
    for rule in rules:
        assert len(rule["shortDescription"]["text"]) <= 1024 and len(rule["fullDescription"]["text"]) <= 1024
        assert len(rule["properties"]["tags"]) <= 20
    missing = [r for r in run["results"] if r["ruleId"] == "AGL201"]
    assert missing and all("fixes" in r for r in missing)
    assert any(r.get("relatedLocations") for r in missing)  # the producing load


@pytest.mark.skipif(not SCHEMA_PATH.is_file(), reason="../shared/sarif is not present")
def test_sarif_of_every_test_input_validates(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    validate(sarif_of(capsys, "fixtures"))
    empty = sarif_of(capsys, "fixtures/handwritten/tensile_common.inc")
    validate(empty)


def test_github_annotations_escape_and_one_per_finding(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a,b:c.s").write_text('.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"\nk:\n s_branch .Lx\n s_bogus v0\n s_endpgm\n')
    assert main(["check", "--no-config", "--format", "github", "a,b:c.s"]) == 1
    notice, *lines = capsys.readouterr().out.strip().split("\n")
    assert notice == "::notice title=amdgpu-lint::amdgpu-lint: 2 errors in 1 file"
    assert len(lines) == 2  # then one command per finding
    assert lines[0].startswith("::error file=a%2Cb%3Ac.s,line=3,endLine=3,col=2,endColumn=14,")
    assert "title=amdgpu-lint (AGL003 undefined-symbol)::a,b:c.s:3:2: s_branch target" in lines[0]


def test_gitlab_code_quality(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    main(["check", "--no-config", "--format", "gitlab", "fixtures/examples"])
    issues = json.loads(capsys.readouterr().out)
    assert {"description", "check_name", "fingerprint", "severity", "location"} <= set(issues[0])
    assert len({issue["fingerprint"] for issue in issues}) == len(issues)
    assert {issue["severity"] for issue in issues} <= {"info", "minor", "major", "critical", "blocker"}
    assert all(not issue["location"]["path"].startswith("/") for issue in issues)


KERNEL = '.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"\nk:\n{}\n s_endpgm\n'


def test_inline_suppressions(snippet):
    bad = " s_branch .Lnope"
    assert names(snippet.lint(KERNEL.format(bad + "  ; amdgpu-lint: disable=undefined-symbol"))) == []
    assert names(snippet.lint(KERNEL.format(bad + "  ; amdgpu-lint: disable=AGL003"))) == []
    assert names(snippet.lint(KERNEL.format(" ; amdgpu-lint: disable-next-line=all\n" + bad))) == []
    assert names(snippet.lint("; amdgpu-lint: disable-file=undefined-symbol\n" + KERNEL.format(bad + "\n" + bad))) == []
    reenabled = "; amdgpu-lint: disable-file=undefined-symbol\n" + KERNEL.format(bad + "\n; amdgpu-lint: enable=undefined-symbol\n" + bad)
    result = snippet.lint(reenabled)
    assert names(result) == ["undefined-symbol"] and result.diagnostics[0].line == 6


def test_suppression_at_the_macro_call_site(snippet):
    text = ".macro JUMP\n s_branch .Lnope\n.endm\n" + KERNEL.format(" JUMP  ; amdgpu-lint: disable=undefined-symbol")
    assert names(snippet.lint(text)) == []


def test_unused_and_misspelt_suppressions(snippet):
    result = snippet.lint(KERNEL.format(" s_nop 0  ; amdgpu-lint: disable=missing-wait\n s_nop 1  ; amdgpu-lint: disable=missing-wiat"))
    assert names(result) == ["unused-suppression", "unused-suppression"]
    assert "nothing here is reported by it" in result.diagnostics[0].message
    assert "no rule is named 'missing-wiat'" in result.diagnostics[1].message


def test_per_file_ignores(tmp_path, capsys):
    (tmp_path / "generated").mkdir()
    (tmp_path / "generated" / "k.s").write_text(KERNEL.format(" s_branch .Lnope"))
    (tmp_path / "k.s").write_text(KERNEL.format(" s_branch .Lnope"))
    (tmp_path / ".amdgpu-lint.toml").write_text('[per-file-ignores]\n"generated/*.s" = ["undefined-symbol"]\n')
    from amdgpu_lint.driver.config import find_config

    find_config.cache_clear()
    main(["check", "--format", "json", str(tmp_path)])
    found = [d["path"] for d in json.loads(capsys.readouterr().out)["diagnostics"]]
    assert found == [str(tmp_path / "k.s")]


def test_findings_baseline_reports_only_new_ones(tmp_path, capsys):
    path = tmp_path / "k.s"
    path.write_text(KERNEL.format(" s_branch .Lnope"))
    snapshot = tmp_path / "baseline.json"
    assert main(["baseline", "--no-config", "--mcpu", "gfx90a", "-o", str(snapshot), str(path)]) == 0
    assert len(json.loads(snapshot.read_text())["findings"]) == 1
    assert main(["check", "--no-config", "--baseline", str(snapshot), str(path)]) == 0
    path.write_text(KERNEL.format(" s_nop 0\n s_branch .Lnope\n s_branch .Lnew"))  # old one moved, new one added
    capsys.readouterr()
    assert main(["check", "--no-config", "--format", "json", "--baseline", str(snapshot), str(path)]) == 1
    (new,) = json.loads(capsys.readouterr().out)["diagnostics"]
    assert "'.Lnew'" in new["message"]


@pytest.mark.parametrize("listings", [[], ["handwritten/gemm_pipeline_gfx942.s", "compiler/loop_saxpy_gfx942.s"]])
def test_report_json_is_what_json_dumps_writes(listings):
    """The report document is written a kernel at a time; the text is json.dumps's with indent=2."""
    import io

    from amdgpu_lint.driver.report import kernel_reports
    from amdgpu_lint.outputs.json_format import write_report_json

    modules = [lint_file(FIXTURES / "examples" / name, BuildOptions(), list(RULES)).module for name in listings]
    reports = kernel_reports([(module, kernel) for module in modules for kernel in module.kernels])
    if reports:
        reports[0]["odd"] = FIXTURES  # a value only `default=str` writes
    written = io.StringIO()
    write_report_json(written, reports)
    assert written.getvalue() == json.dumps({"version": __version__, "kernels": reports}, indent=2, default=str) + "\n"
