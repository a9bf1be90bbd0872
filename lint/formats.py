"""CI formats for `check`: SARIF 2.1.0, GitHub workflow commands, GitLab Code Quality."""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from pathlib import Path
from typing import TextIO

from . import __version__
from .diagnostics import Diagnostic, Severity
from .rule import Rule
from .source import SourceFile

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
RULES_URL = "https://github.com/amdgpu-lint/amdgpu-lint/blob/main/docs/rules.md"
#: GitHub code scanning rejects a run with more results than this.
SARIF_MAX_RESULTS = 25000
_LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def relative_uri(path: str, root: Path) -> str:
    """A repository-relative, forward-slash URI (GitHub resolves these against the checkout)."""
    absolute = Path(path).resolve()
    try:
        return absolute.relative_to(root.resolve()).as_posix()
    except ValueError:
        return absolute.as_uri()


def fingerprint(diagnostic: Diagnostic, sources: dict[str, SourceFile], occurrence: int) -> str:
    """Stable across unrelated edits: rule, path and the stripped text of the line, not its number."""
    source = sources.get(diagnostic.path)
    text = " ".join((source.line_text(diagnostic.line) if source else "").split())
    digest = hashlib.sha256(f"{diagnostic.code}\0{diagnostic.path}\0{text}".encode()).hexdigest()[:16]
    return f"{digest}:{occurrence}"


def fingerprints(diagnostics: list[Diagnostic], sources: dict[str, SourceFile]) -> list[str]:
    seen: Counter[str] = Counter()
    result = []
    for diagnostic in diagnostics:
        base = fingerprint(diagnostic, sources, 0).split(":")[0]
        seen[base] += 1
        result.append(f"{base}:{seen[base]}")
    return result


def _sentence(text: str) -> str:
    text = text.strip()
    return text if text.endswith((".", "!", "?")) else text + "."


def _region(line: int, column: int, end_line: int, end_column: int) -> dict:
    return {"startLine": line, "startColumn": column, "endLine": end_line, "endColumn": max(end_column, column + 1)}


def _rule_descriptor(rule: Rule) -> dict:
    full = rule.explain.split("## Why it matters")[0].replace("## What it finds", "").strip()
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": _sentence(rule.summary[:1000])},
        "fullDescription": {"text": full[:1000]},
        "help": {"text": rule.explain[:8000], "markdown": rule.explain[:8000]},
        "helpUri": f"{RULES_URL}#{rule.code.lower()}-{rule.name}",
        "defaultConfiguration": {"level": _LEVELS[rule.severity]},
        "properties": {"tags": ["amdgpu", rule.name.split("-")[0]], "precision": "high",
                       "problem.severity": "recommendation" if rule.severity == Severity.INFO else _LEVELS[rule.severity]},
    }


def sarif_log(diagnostics: list[Diagnostic], rules: tuple[Rule, ...], sources: dict[str, SourceFile], root: Path) -> dict:
    index = {rule.code: position for position, rule in enumerate(rules)}
    results = []
    for diagnostic, print_ in zip(diagnostics[:SARIF_MAX_RESULTS], fingerprints(diagnostics, sources), strict=False):
        location = {"physicalLocation": {
            "artifactLocation": {"uri": relative_uri(diagnostic.path, root), "uriBaseId": "%SRCROOT%"},
            "region": _region(diagnostic.line, diagnostic.column, diagnostic.end_line, diagnostic.end_column)}}
        related = [
            {"id": number, "message": {"text": _sentence(note.message)}, "physicalLocation": {
                "artifactLocation": {"uri": relative_uri(note.path, root), "uriBaseId": "%SRCROOT%"},
                "region": _region(note.line, note.column or 1, note.line, (note.column or 1) + 1)}}
            for number, note in enumerate(diagnostic.notes[:1000]) if note.path and note.line
        ]
        result = {
            "ruleId": diagnostic.code,
            "ruleIndex": index.get(diagnostic.code, -1),
            "level": _LEVELS[diagnostic.severity],
            "message": {"text": _sentence(diagnostic.message)},
            "locations": [location],
            "partialFingerprints": {"primaryLocationLineHash": print_},
        }
        if related:
            result["relatedLocations"] = related
        if diagnostic.fix is not None:
            result["fixes"] = [{
                "description": {"text": _sentence(diagnostic.fix.description)},
                "artifactChanges": [
                    {"artifactLocation": {"uri": relative_uri(edit.path, root), "uriBaseId": "%SRCROOT%"},
                     "replacements": [{"deletedRegion": {"startLine": edit.line, "startColumn": edit.column,
                                                          "endLine": edit.end_line, "endColumn": edit.end_column},
                                       "insertedContent": {"text": edit.text}}]}
                    for edit in diagnostic.fix.edits
                ],
            }]
        results.append(result)
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "amdgpu-lint", "version": __version__, "semanticVersion": __version__,
                                "informationUri": RULES_URL, "rules": [_rule_descriptor(rule) for rule in rules]}},
            "automationDetails": {"id": "amdgpu-lint/"},
            "originalUriBaseIds": {"%SRCROOT%": {"uri": root.resolve().as_uri() + "/"}},
            "columnKind": "unicodeCodePoints",
            "invocations": [{"executionSuccessful": True}],
            "results": results,
        }],
    }


def write_sarif(out: TextIO, diagnostics: list[Diagnostic], rules: tuple[Rule, ...], sources: dict[str, SourceFile]) -> None:
    json.dump(sarif_log(diagnostics, rules, sources, Path.cwd()), out, indent=2)
    out.write("\n")


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def write_github(out: TextIO, diagnostics: list[Diagnostic]) -> None:
    """One workflow command per finding (::error / ::warning / ::notice)."""
    command = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}
    for d in diagnostics:
        properties = [f"file={_escape_property(relative_uri(d.path, Path.cwd()))}", f"line={d.line}", f"endLine={d.end_line}"]
        if d.line == d.end_line:  # GitHub refuses columns on multi-line ranges
            properties += [f"col={d.column}", f"endColumn={d.end_column}"]
        properties.append(f"title={_escape_property(f'amdgpu-lint ({d.code} {d.name})')}")
        body = f"{d.path}:{d.line}:{d.column}: {d.message}"
        out.write(f"::{command[d.severity]} {','.join(properties)}::{_escape_data(body)}\n")


def write_gitlab(out: TextIO, diagnostics: list[Diagnostic], sources: dict[str, SourceFile]) -> None:
    """GitLab Code Quality: an array of issues with unique fingerprints."""
    severity = {Severity.ERROR: "major", Severity.WARNING: "minor", Severity.INFO: "info"}
    root = Path(os.environ.get("CI_PROJECT_DIR", Path.cwd()))
    issues = []
    for d, print_ in zip(diagnostics, fingerprints(diagnostics, sources), strict=True):
        issues.append({
            "description": f"{d.code}: {d.message}",
            "check_name": d.name,
            "fingerprint": hashlib.md5(print_.encode()).hexdigest(),
            "severity": severity[d.severity],
            "location": {"path": relative_uri(d.path, root),
                         "positions": {"begin": {"line": d.line, "column": d.column},
                                       "end": {"line": d.end_line, "column": d.end_column}}},
        })
    json.dump(issues, out, indent=2)
    out.write("\n")
