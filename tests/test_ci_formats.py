"""What GitHub code scanning, GitHub Actions and GitLab accept and show (issue 19 items 7-9): SARIF fields
and limits, repository-relative paths and fingerprints from any directory, the annotation summary and the
job summary, GitLab severities."""

import json
import sys

import pytest
from amdgpu_lint.cli import main
from amdgpu_lint.model.diagnostics import Diagnostic, Severity
from amdgpu_lint.outputs.sarif import FINGERPRINT_KEY, SARIF_MAX_RESULTS, write_sarif
from amdgpu_lint.rules import RULES
from conftest import FIXTURES
from test_baseline_paths import kernel
from test_formats import SCHEMA_PATH, validate

needs_schema = pytest.mark.skipif(not SCHEMA_PATH.is_file(), reason="../shared/sarif is not present")

#: a missing nop (row 30), a missing wait and a register beyond the descriptor's, on gfx90a
CRITICAL = """.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
k:
 v_dot2_f32_f16 v0, v1, v2, v3
 v_dot2_f32_f16 v4, v0, v2, v3
 global_load_dword v5, v[6:7], off
 v_add_f32 v8, v5, v5
 v_mov_b32 v70, 0
 s_endpgm
.amdhsa_kernel k
  .amdhsa_next_free_vgpr 64
  .amdhsa_next_free_sgpr 8
  .amdhsa_accum_offset 64
.end_amdhsa_kernel
"""


def run(capsys, *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(["check", "--no-config", "--no-cache", "--jobs", "1", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def repository(tmp_path):
    """A git checkout (a `.git` directory is all the root lookup needs) with a kernel two levels down."""
    (tmp_path / ".git").mkdir(parents=True)
    (tmp_path / "src" / "kernels").mkdir(parents=True)
    (tmp_path / "src" / "kernels" / "k.s").write_text(CRITICAL)
    return tmp_path


@needs_schema
def test_sarif_leaves_category_and_line_hash_to_github(capsys, monkeypatch):
    """No automationDetails (the upload's `category:` only applies when it is absent) and no
    primaryLocationLineHash (the upload computes it and warns when ours differs); our own fingerprint
    under our own key."""
    monkeypatch.chdir(FIXTURES.parent)
    _, out, _ = run(capsys, "--format", "sarif", "fixtures/examples")
    log = json.loads(out)
    validate(log)
    (sarif_run,) = log["runs"]
    assert "automationDetails" not in sarif_run
    results = sarif_run["results"]
    assert results and all(list(r["partialFingerprints"]) == [FINGERPRINT_KEY] for r in results)
    assert len({r["partialFingerprints"][FINGERPRINT_KEY] for r in results}) == len(results)
    for category, expected in (("amdgpu-lint/gfx942", "amdgpu-lint/gfx942/"), ("kernels/", "kernels/")):
        _, out, _ = run(capsys, "--format", "sarif", "--sarif-category", category, "fixtures/examples")
        log = json.loads(out)
        validate(log)
        assert log["runs"][0]["automationDetails"] == {"id": expected}


@needs_schema
def test_sarif_uris_are_encoded_repository_relative_and_based_only_when_relative(tmp_path, capsys, monkeypatch):
    root = repository(tmp_path / "repo")
    odd = root / "k%1" / "pre fetch#1.s"
    odd.parent.mkdir()
    odd.write_text(CRITICAL)
    outside = tmp_path / "elsewhere" / "k.s"
    outside.parent.mkdir()
    outside.write_text(CRITICAL)
    monkeypatch.chdir(root / "src")  # started below the root: URIs are still relative to the root
    _, out, _ = run(capsys, "--format", "sarif", "../k%1/pre fetch#1.s", str(outside))
    log = json.loads(out)
    validate(log)
    (sarif_run,) = log["runs"]
    assert sarif_run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == root.resolve().as_uri() + "/"
    locations = [r["locations"][0]["physicalLocation"]["artifactLocation"] for r in sarif_run["results"]]
    locations += [related["physicalLocation"]["artifactLocation"]
                  for r in sarif_run["results"] for related in r.get("relatedLocations", ())]
    locations += [change["artifactLocation"]
                  for r in sarif_run["results"] for fix in r.get("fixes", ()) for change in fix["artifactChanges"]]
    inside = [location for location in locations if "uriBaseId" in location]
    assert inside and all(location == {"uri": "k%251/pre%20fetch%231.s", "uriBaseId": "%SRCROOT%"} for location in inside)
    absolute = [location for location in locations if "uriBaseId" not in location]
    assert absolute and all(location == {"uri": outside.resolve().as_uri()} for location in absolute)


def test_sarif_over_the_cap_keeps_errors_first_and_says_what_was_cut(capsys):
    """Synthetic findings (the cap test only): warnings first in the file order, errors last, so a plain
    cut at 25,000 would drop every error."""
    def finding(number: int, severity: Severity) -> Diagnostic:
        return Diagnostic("AGL003", "undefined-symbol", severity, f"finding {number}", "big.s", number + 1, 1,
                          number + 1, 2)

    counts = {Severity.WARNING: 21_000, Severity.INFO: 3_000, Severity.ERROR: 4_000}
    diagnostics = [finding(number, severity) for severity, count in counts.items() for number in range(count)]
    write_sarif(sys.stdout, diagnostics, RULES, {})
    captured = capsys.readouterr()
    log = json.loads(captured.out)
    (sarif_run,) = log["runs"]
    levels = [r["level"] for r in sarif_run["results"]]
    assert len(levels) == SARIF_MAX_RESULTS
    assert levels.count("error") == 4_000 and levels.count("warning") == 21_000 and levels.count("note") == 0
    (notification,) = sarif_run["invocations"][0]["toolExecutionNotifications"]
    text = notification["message"]["text"]
    assert notification["level"] == "warning" and "28,000 results" in text and "3,000 of 3,000 notes" in text
    assert text.rstrip(".") in captured.err
    if SCHEMA_PATH.is_file():  # the run's shape (results trimmed: validating 25,000 is slow and adds nothing)
        sarif_run["results"] = sarif_run["results"][:3]
        validate(log)
    more_errors = [finding(number, Severity.ERROR) for number in range(SARIF_MAX_RESULTS + 5)]
    write_sarif(sys.stdout, more_errors, RULES, {})
    captured = capsys.readouterr()
    assert len(json.loads(captured.out)["runs"][0]["results"]) == SARIF_MAX_RESULTS
    assert "5 of 25,005 errors" in captured.err


def test_paths_and_fingerprints_do_not_depend_on_the_working_directory(tmp_path, capsys, monkeypatch):
    root = repository(tmp_path)
    outputs = {}
    for directory, path in ((root, "src/kernels/k.s"), (root / "src" / "kernels", "k.s"), (root / "src", "kernels/k.s")):
        monkeypatch.chdir(directory)
        sarif = json.loads(run(capsys, "--format", "sarif", path)[1])["runs"][0]
        gitlab = json.loads(run(capsys, "--format", "gitlab", path)[1])
        github = run(capsys, "--format", "github", path)[1]
        outputs[directory] = (
            sarif["originalUriBaseIds"],
            [(r["locations"][0]["physicalLocation"]["artifactLocation"], r["partialFingerprints"]) for r in sarif["results"]],
            [(issue["location"]["path"], issue["fingerprint"]) for issue in gitlab],
            [line.split("::")[1] for line in github.splitlines()],  # command and properties: file, lines, title
        )
    first, *others = outputs.values()
    assert all(other == first for other in others)
    assert {issue_path for issue_path, _ in first[2]} == {"src/kernels/k.s"}
    assert all(command.split()[1].startswith("file=src/kernels/k.s,") for command in first[3][1:])


def test_gitlab_and_github_paths_are_never_file_uris(tmp_path, capsys, monkeypatch):
    """Outside the working directory: relative to the repository root; outside the root: absolute."""
    root = repository(tmp_path / "repo")
    (root / "docs").mkdir()
    monkeypatch.chdir(root / "docs")
    outside = tmp_path / "k.s"
    outside.write_text(CRITICAL)
    paths = ["../src/kernels/k.s", str(outside)]
    issues = json.loads(run(capsys, "--format", "gitlab", *paths)[1])
    assert {issue["location"]["path"] for issue in issues} == {"src/kernels/k.s", outside.resolve().as_posix()}
    github = run(capsys, "--format", "github", *paths)[1]
    files = {line.split("file=")[1].split(",")[0] for line in github.splitlines() if "file=" in line}
    assert files == {"src/kernels/k.s", outside.resolve().as_posix().replace(":", "%3A")}
    assert "file:" not in github and "file:" not in json.dumps(issues)


def test_gitlab_project_dir_is_the_root_when_set(tmp_path, capsys, monkeypatch):
    root = repository(tmp_path)
    monkeypatch.chdir(root / "src")
    monkeypatch.setenv("CI_PROJECT_DIR", str(root / "src"))
    assert {issue["location"]["path"] for issue in json.loads(run(capsys, "--format", "gitlab", "kernels/k.s")[1])} \
        == {"kernels/k.s"}


def test_gitlab_critical_for_missing_wait_nop_and_register_budget(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "k.s").write_text(CRITICAL)
    severities = {(issue["check_name"], issue["severity"]) for issue in json.loads(run(capsys, "--format", "gitlab", "k.s")[1])}
    assert {("missing-nop", "critical"), ("missing-wait", "critical"), ("register-budget", "critical"),
            ("uninitialized-register", "minor")} == severities
    (tmp_path / ".amdgpu-lint.toml").write_text('[severity]\nmissing-wait = "warning"\n')  # configured down: not critical
    from amdgpu_lint.driver.config import find_config

    find_config.cache_clear()
    capsys.readouterr()
    main(["check", "--no-cache", "--format", "gitlab", "k.s"])
    issues = json.loads(capsys.readouterr().out)
    assert {issue["severity"] for issue in issues if issue["check_name"] == "missing-wait"} == {"minor"}


def many_errors(count: int) -> str:
    return kernel(64, "".join(f" s_branch .Lmissing{number}\n" for number in range(count)))


def test_github_notice_counts_what_annotations_cannot_show(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "k.s").write_text(many_errors(12))
    code, out, _ = run(capsys, "--format", "github", "k.s")
    lines = out.splitlines()
    assert code == 1 and len(lines) == 13
    assert lines[0] == ("::notice title=amdgpu-lint::amdgpu-lint: 12 errors in 1 file "
                        "(GitHub shows the first 10 errors and 10 warnings of a step as annotations; the log lists all)")
    (tmp_path / "k.s").write_text(many_errors(2))
    assert run(capsys, "--format", "github", "k.s")[1].splitlines()[0] == "::notice title=amdgpu-lint::amdgpu-lint: 2 errors in 1 file"
    (tmp_path / "k.s").write_text(kernel(64))
    assert run(capsys, "--format", "github", "k.s")[1] == ""


def test_github_job_summary_is_appended(tmp_path, capsys, monkeypatch):
    summary = tmp_path / "summary.md"
    summary.write_text("written by an earlier step\n")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    root = repository(tmp_path / "repo")
    (root / "src" / "kernels" / "many.s").write_text(many_errors(60))
    monkeypatch.chdir(root / "src")
    out = run(capsys, "--format", "github", "kernels")[1]
    assert out.splitlines()[0].endswith("; the log lists all, the job summary counts them per rule)")
    text = summary.read_text()
    assert text.startswith("written by an earlier step\n## amdgpu-lint check: 63 errors, 3 warnings in 2 files\n")
    assert "| `AGL003` undefined-symbol | 60 | 0 | 0 |" in text and "| `AGL201` missing-wait | 1 | 0 | 0 |" in text
    assert "### Findings (the first 50 of 66, most severe first)" in text
    assert "| `src/kernels/k.s:6` | `AGL201` missing-wait | v5 is read here but may still be loading" in text
    assert "| `src/kernels/many.s:4` | `AGL003` undefined-symbol |" in text
    assert "uninitialized-register" not in text.split("### Findings")[1]  # warnings come after 50 errors
    run(capsys, "--format", "text", "kernels")  # only the github format writes it
    assert summary.read_text() == text


def test_job_summary_shows_occupancy_against_the_baseline(tmp_path, capsys, monkeypatch):
    """report --baseline and baseline (against the snapshot it replaces) list every kernel's occupancy,
    regressions first; check --format github lists the regression findings."""
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    root = repository(tmp_path / "repo")
    kernels = root / "src" / "kernels"
    (kernels / "k.s").write_text(kernel(64))
    (kernels / "other.s").write_text(kernel(32).replace("k:", "other:").replace("kernel k", "kernel other"))
    monkeypatch.chdir(root)
    assert main(["baseline", "--no-config", "-o", "base.json", "src/kernels"]) == 0
    first = summary.read_text()
    assert "## amdgpu-lint baseline: occupancy of 2 kernels\n" in first and "Against the baseline" not in first
    (kernels / "k.s").write_text(kernel(65))
    monkeypatch.chdir(kernels)
    summary.write_text("")
    capsys.readouterr()
    assert main(["report", "--no-config", "--baseline", "../../base.json", "."]) == 0
    table = summary.read_text()
    assert "## amdgpu-lint report: occupancy of 2 kernels, 1 regression against `../../base.json`" in table
    rows = [line for line in table.splitlines() if line.startswith("| `")]
    assert rows == ["| `k` | `src/kernels/k.s:3` | gfx90a | 7 | VGPR+AGPR | 65 | 0 | 4 | 0 | 0 | **fell 8 → 7** (VGPR 64 → 65) |",
                    "| `other` | `src/kernels/other.s:3` | gfx90a | 8 | wave slots | 32 | 0 | 4 | 0 | 0 | unchanged |"]
    assert main(["report", "--no-config", "--baseline", "../../base.json", "--format", "html", "-o", "r.html", "."]) == 0
    page = (kernels / "r.html").read_text()
    assert '<th title="sort by against the baseline">against the baseline</th>' in page
    assert '<td data-v="0">fell 8 → 7 (VGPR 64 → 65)</td>' in page and '<td data-v="3">unchanged</td>' in page
    summary.write_text("")
    assert main(["check", "--no-config", "--no-cache", "--format", "github", "--baseline", "../../base.json", "."]) == 1
    assert "### Occupancy regressions (1)" in summary.read_text()
    monkeypatch.chdir(root)
    summary.write_text("")
    assert main(["baseline", "--no-config", "-o", "base.json", "src/kernels"]) == 0
    assert "1 regression against `base.json`" in summary.read_text()
    assert json.loads((root / "base.json").read_text())["kernels"]["src/kernels/k.s::k"]["waves_per_simd"] == 7


def test_unwritable_job_summary_is_a_warning(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "k.s").write_text(many_errors(1))
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(tmp_path / "missing" / "summary.md"))
    code, out, err = run(capsys, "--format", "github", "k.s")
    assert code == 1 and out.count("::error") == 1
    assert err.startswith("amdgpu-lint: warning: cannot append the job summary to ") and "Traceback" not in err


def test_a_bar_in_a_path_keeps_the_job_summary_table_and_messages_name_files_as_annotations_do(
        tmp_path, capsys, monkeypatch):
    """GitHub ends a table cell at `|` even inside a code span; a path under the repository root inside a message
    is written relative to it, as the annotation's `file=` is (an include search path here)."""
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    (root / "a|b").mkdir()
    (root / "a|b" / "k.s").write_text('.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"\n.include "absent.inc"\nk:\n s_endpgm\n')
    monkeypatch.chdir(root)
    out = run(capsys, "--format", "github", str(root / "a|b" / "k.s"))[1]
    annotation = next(line for line in out.splitlines() if line.startswith("::error"))
    assert "file=a|b/k.s" in annotation and f"(searched a|b;" in annotation and str(root) not in annotation
    row = next(line for line in summary.read_text().splitlines() if "`AGL001`" in line and line.startswith("| `a"))
    assert row.startswith("| `a\\|b/k.s:2` | `AGL001` parse-error |") and "(searched a\\|b;" in row
    assert len(row.replace("\\|", "").split("|")) == 5  # three cells
    sarif = json.loads(run(capsys, "--format", "sarif", str(root / "a|b" / "k.s"))[1])
    assert "(searched a|b;" in sarif["runs"][0]["results"][0]["message"]["text"]
