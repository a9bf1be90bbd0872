"""`check --format sarif`: SARIF 2.1.0 for GitHub code scanning and other SARIF viewers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TextIO

from .. import __version__
from ..diagnostics import Diagnostic, LineSource, Severity, fingerprints
from ..driver.rule import RULES_URL, Rule, documentation_url
from .uris import relative_uri

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


#: GitHub code scanning rejects a run with more results than this.
SARIF_MAX_RESULTS = 25000
_LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


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
        "helpUri": documentation_url(rule.code, rule.name),
        "defaultConfiguration": {"level": _LEVELS[rule.severity]},
        "properties": {"tags": ["amdgpu", rule.name.split("-")[0]], "precision": "high",
                       "problem.severity": "recommendation" if rule.severity == Severity.INFO else _LEVELS[rule.severity]},
    }


def sarif_log(diagnostics: list[Diagnostic], rules: tuple[Rule, ...], sources: dict[str, LineSource], root: Path) -> dict:
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


def write_sarif(out: TextIO, diagnostics: list[Diagnostic], rules: tuple[Rule, ...], sources: dict[str, LineSource]) -> None:
    json.dump(sarif_log(diagnostics, rules, sources, Path.cwd()), out, indent=2)
    out.write("\n")
