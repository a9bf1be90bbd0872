"""GitHub Actions: `check --format github` workflow commands (annotations) and the Markdown job summary
that `check --format github`, `report` and `baseline` append to `$GITHUB_STEP_SUMMARY`.

GitHub shows only the first 10 error and 10 warning annotations of a step, so a notice with
the counts comes first, and the job summary lists findings per rule and (report, baseline) the occupancy
of every kernel against the baseline. Paths are relative to the repository root (outputs/uris.py)."""

from __future__ import annotations

import os
import sys
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from ..model.diagnostics import Diagnostic, Severity
from .report_text import baseline_change
from .uris import RepositoryPaths, repository_root

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, TextIO

#: error and warning annotations GitHub shows per step; the rest are only in the log
ANNOTATIONS_SHOWN = 10
#: findings listed one by one in the job summary (every one is counted in the per-rule table)
SUMMARY_FINDINGS = 50
_COMMANDS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _count(number: int, noun: str) -> str:
    return f"{number:,} {noun}{'' if number == 1 else 's'}"


def _counts(diagnostics: list[Diagnostic]) -> Counter[Severity]:
    return Counter(d.severity for d in diagnostics)


def counts_text(diagnostics: list[Diagnostic], files: int) -> str:
    """"3 errors, 25 warnings in 12 files" (kinds with no finding left out)."""
    counts = _counts(diagnostics)
    found = [_count(counts[severity], _COMMANDS[severity]) for severity in sorted(counts, reverse=True)]
    return f"{', '.join(found) or 'no problems'} in {_count(files, 'file')}"


def summary_notice(diagnostics: list[Diagnostic], files: int) -> str | None:
    """The `::notice` workflow command with the counts (None without findings)."""
    if not diagnostics:
        return None
    text = f"amdgpu-lint: {counts_text(diagnostics, files)}"
    counts = _counts(diagnostics)
    if max(counts[Severity.ERROR], counts[Severity.WARNING]) > ANNOTATIONS_SHOWN:
        text += (f" (GitHub shows the first {ANNOTATIONS_SHOWN} errors and {ANNOTATIONS_SHOWN} warnings of a step"
                 " as annotations; the log lists all")
        text += ", the job summary counts them per rule)" if os.environ.get("GITHUB_STEP_SUMMARY") else ")"
    return f"::notice title=amdgpu-lint::{_escape_data(text)}"


def write_github(out: TextIO, diagnostics: list[Diagnostic], files: int) -> None:
    """The counts as a notice, then one workflow command per finding (::error / ::warning / ::notice)."""
    notice = summary_notice(diagnostics, files)
    if notice is not None:
        out.write(notice + "\n")
    paths = RepositoryPaths(repository_root())
    for d in diagnostics:
        path = paths.display(d.path)
        properties = [f"file={_escape_property(path)}", f"line={d.line}", f"endLine={d.end_line}"]
        if d.line == d.end_line:  # GitHub refuses columns on multi-line ranges
            properties += [f"col={d.column}", f"endColumn={d.end_column}"]
        properties.append(f"title={_escape_property(f'amdgpu-lint ({d.code} {d.name})')}")
        body = f"{path}:{d.line}:{d.column}: {paths.in_text(d.message)}"
        out.write(f"::{_COMMANDS[d.severity]} {','.join(properties)}::{_escape_data(body)}\n")


def _cell(text: Any) -> str:
    """Text safe in a Markdown table cell: one line, no column breaks, no HTML tags."""
    return " ".join(str(text).split()).replace("<", "&lt;").replace("|", "\\|")


def _code(text: str) -> str:
    return f"`{text.replace('`', '')}`"


def _code_cell(text: str) -> str:
    """`_code` in a table cell: GitHub ends a cell at a `|` even inside a code span, unless it is escaped."""
    return _code(" ".join(text.split()).replace("|", "\\|"))


def check_summary(diagnostics: list[Diagnostic], files: int) -> str:
    """`check`'s job summary: counts per rule, occupancy regressions, the first findings (most severe first)."""
    paths = RepositoryPaths(repository_root())
    lines = [f"## amdgpu-lint check: {counts_text(diagnostics, files)}", ""]
    if not diagnostics:
        return "\n".join(lines) + "\n"
    per_rule: dict[tuple[str, str], Counter[Severity]] = {}
    for d in diagnostics:
        per_rule.setdefault((d.code, d.name), Counter())[d.severity] += 1
    lines += ["| Rule | Errors | Warnings | Notices |", "| --- | ---: | ---: | ---: |"]
    lines += [f"| {_code_cell(code)} {name} | {counts[Severity.ERROR]} | {counts[Severity.WARNING]} | {counts[Severity.INFO]} |"
              for (code, name), counts in sorted(per_rule.items())]

    def row(d: Diagnostic) -> str:
        return (f"| {_code_cell(f'{paths.display(d.path)}:{d.line}')} | {_code_cell(d.code)} {d.name} | "
                f"{_cell(paths.in_text(d.message))} |")

    regressions = [d for d in diagnostics if d.name == "occupancy-regression"]
    if regressions:
        lines += ["", f"### Occupancy regressions ({len(regressions)})", "", "| Location | Rule | Message |",
                  "| --- | --- | --- |", *map(row, regressions)]
    first = sorted(diagnostics, key=lambda d: -d.severity)[:SUMMARY_FINDINGS]
    shown = f"the first {len(first)} of {len(diagnostics):,}, " if len(first) < len(diagnostics) else ""
    lines += ["", f"### Findings ({shown}most severe first)", "", "| Location | Rule | Message |", "| --- | --- | --- |",
              *map(row, first)]
    return "\n".join(lines) + "\n"


#: (column, report key) of the resources the occupancy table shows and compares
_RESOURCES = (("VGPR", "vgpr"), ("AGPR", "agpr"), ("SGPR", "sgpr"), ("LDS bytes", "lds_bytes"),
              ("Scratch bytes", "scratch_bytes"))


def _change(report: dict[str, Any], before: dict[str, Any] | None) -> tuple[int, str]:
    """`baseline_change`, a fall in bold."""
    rank, text = baseline_change(report, before)
    if rank == 0:
        fell, _, detail = text.partition(" (")
        return rank, f"**{fell}**" + (f" ({detail}" if detail else "")
    return rank, text


def occupancy_summary(command: str, rows: Iterable[tuple[dict[str, Any], dict[str, Any] | None]],
                      baseline: str | None) -> str:
    """`report`'s or `baseline`'s job summary: a row per kernel (waves per SIMD, limiter, resources) and,
    when `baseline` names the snapshot compared with, the change against it (regressions first)."""
    paths = RepositoryPaths(repository_root())
    rows = [(report, before) for report, before in rows if "waves_per_simd" in report]
    changes = [_change(report, before) for report, before in rows]
    fell = sum(rank == 0 for rank, _ in changes)
    title = f"## amdgpu-lint {command}: occupancy of {_count(len(rows), 'kernel')}"
    regressions = _count(fell, "regression") if fell else "no regression"
    lines = [title + (f", {regressions} against {_code(baseline)}" if baseline else ""), ""]
    if not rows:
        return "\n".join([*lines, "No kernel with a known target."]) + "\n"
    header = ["Kernel", "Location", "Target", "Waves/SIMD", "Limited by", *(name for name, _ in _RESOURCES)]
    align = ["---", "---", "---", "---:", "---", *("---:" for _ in _RESOURCES)]
    if baseline:
        header.append("Against the baseline")
        align.append("---")
    lines += ["| " + " | ".join(header) + " |", "| " + " | ".join(align) + " |"]
    for number in sorted(range(len(rows)), key=lambda number: changes[number][0] if baseline else 0):
        report = rows[number][0]
        cells = [_code_cell(report["name"]), _code_cell(f"{paths.display(report['path'])}:{report['line']}"),
                 _cell(report.get("target") or "?"), str(report["waves_per_simd"]),
                 _cell(", ".join(report.get("limiter") or ()) or "-"),
                 *(str(report.get(key, "-")) for _, key in _RESOURCES)]
        if baseline:
            cells.append(changes[number][1])
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def append_step_summary(markdown: str) -> None:
    """Append to `$GITHUB_STEP_SUMMARY` when it is set (never truncated: the job's other steps write there
    too). A failure to write is a warning: the lint result stands."""
    path = os.environ.get("GITHUB_STEP_SUMMARY")
    if not path:
        return
    try:
        with Path(path).open("a", encoding="utf-8") as summary:
            summary.write(markdown + "\n")
    except OSError as error:
        print(f"amdgpu-lint: warning: cannot append the job summary to {path}: {error.strerror or error}",
              file=sys.stderr)
