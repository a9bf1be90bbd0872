"""`check --format sarif`: SARIF 2.1.0 for GitHub code scanning and other SARIF viewers.

As GitHub's upload action wants it: URIs percent-encoded and relative to the repository root
(`%SRCROOT%`), whatever directory `check` ran from; no `automationDetails` unless a category is
given and no `primaryLocationLineHash` (the action fills both in); at most 25,000 results, the most
severe kept, and what was left out said in the run's notifications."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

from .. import __version__
from ..driver.rule import RULES_URL, Rule, documentation_url
from ..model.diagnostics import DISPLAY_ONLY, Diagnostic, LineSource, Severity, fingerprints
from .uris import RepositoryPaths, repository_root

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TextIO

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


#: GitHub code scanning rejects a run with more results than this.
SARIF_MAX_RESULTS = 25000
#: our own fingerprint's key in `partialFingerprints` (rule, repository-relative path, stripped line text)
FINGERPRINT_KEY = "amdgpuLint/v1"
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


def _kept_by_severity(diagnostics: list[Diagnostic]) -> tuple[list[int], str | None]:
    """Indices of the findings a run keeps under GitHub's cap, most severe first (errors, then warnings,
    then notes; in order within each), and what was cut (None when nothing was)."""
    if len(diagnostics) <= SARIF_MAX_RESULTS:
        return list(range(len(diagnostics))), None
    ranked = sorted(range(len(diagnostics)), key=lambda number: -diagnostics[number].severity)
    kept = sorted(ranked[:SARIF_MAX_RESULTS])
    found = Counter(diagnostics[number].severity for number in ranked)
    dropped = Counter(diagnostics[number].severity for number in ranked[SARIF_MAX_RESULTS:])
    cut = ", ".join(f"{dropped[severity]:,} of {found[severity]:,} {_LEVELS[severity]}s"
                    for severity in sorted(dropped, reverse=True))
    return kept, (f"{len(diagnostics):,} results, more than the {SARIF_MAX_RESULTS:,} GitHub code scanning accepts "
                  f"in a run: kept the most severe (errors first), left out {cut}")


def _result(diagnostic: Diagnostic, fingerprint: str, rule_index: int, paths: RepositoryPaths) -> dict:
    location = {"physicalLocation": {
        "artifactLocation": paths.sarif_location(diagnostic.path),
        "region": _region(diagnostic.line, diagnostic.column, diagnostic.end_line, diagnostic.end_column)}}
    related = [
        {"id": number, "message": {"text": _sentence(paths.in_text(note.message))}, "physicalLocation": {
            "artifactLocation": paths.sarif_location(note.path),
            "region": _region(note.line, note.column or 1, note.line, (note.column or 1) + 1)}}
        for number, note in enumerate(diagnostic.notes[:1000]) if note.path and note.line
    ]
    result = {
        "ruleId": diagnostic.code,
        "ruleIndex": rule_index,
        "level": _LEVELS[diagnostic.severity],
        "message": {"text": _sentence(paths.in_text(diagnostic.message))},
        "locations": [location],
        # primaryLocationLineHash is left to GitHub's upload action, which computes its own from the file
        "partialFingerprints": {FINGERPRINT_KEY: fingerprint},
    }
    if related:
        result["relatedLocations"] = related
    if diagnostic.fix is not None and diagnostic.fix.applicability != DISPLAY_ONLY:  # display-only: no plain line to edit
        result["fixes"] = [{
            "description": {"text": _sentence(diagnostic.fix.description)},
            "artifactChanges": [
                {"artifactLocation": paths.sarif_location(edit.path),
                 "replacements": [{"deletedRegion": {"startLine": edit.line, "startColumn": edit.column,
                                                      "endLine": edit.end_line, "endColumn": edit.end_column},
                                   "insertedContent": {"text": edit.text}}]}
                for edit in diagnostic.fix.edits
            ],
        }]
    return result


def sarif_log(diagnostics: list[Diagnostic], rules: tuple[Rule, ...], sources: dict[str, LineSource], root: Path,
              category: str | None = None, assemblers: list[dict[str, str]] | None = None) -> dict:
    """One run; URIs relative to `root` (the repository root). `category` (GitHub's analysis category)
    becomes `automationDetails.id`; without it the field is left out, so the upload action's own
    `category:` input applies."""
    index = {rule.code: position for position, rule in enumerate(rules)}
    paths = RepositoryPaths(root)
    prints = fingerprints(diagnostics, sources, [paths.display(d.path) for d in diagnostics])
    kept, cut = _kept_by_severity(diagnostics)
    invocation: dict = {"executionSuccessful": True}
    if cut is not None:
        invocation["toolExecutionNotifications"] = [{"level": "warning", "message": {"text": _sentence(cut)}}]
    run: dict = {
        "tool": {"driver": {"name": "amdgpu-lint", "version": __version__, "semanticVersion": __version__,
                            "informationUri": RULES_URL, "rules": [_rule_descriptor(rule) for rule in rules]}},
    }
    if assemblers:  # the user's assemblers whose messages are results of assembler-error
        run["tool"]["extensions"] = [{"name": a["name"], "version": a["version"], "fullName": a["path"]}
                                       for a in assemblers]
    if category:
        run["automationDetails"] = {"id": category if category.endswith("/") else category + "/"}
    run.update({
        "originalUriBaseIds": {"%SRCROOT%": {"uri": paths.root.as_uri().rstrip("/") + "/",
                                             "description": {"text": "The repository root."}}},
        "columnKind": "unicodeCodePoints",
        "invocations": [invocation],
        "results": [_result(diagnostics[number], prints[number], index.get(diagnostics[number].code, -1), paths)
                    for number in kept],
    })
    return {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}


def write_sarif(out: TextIO, diagnostics: list[Diagnostic], rules: tuple[Rule, ...], sources: dict[str, LineSource],
                category: str | None = None, assemblers: list[dict[str, str]] | None = None) -> None:
    """The log, with URIs relative to the repository root; what the result cap cut is also said on stderr."""
    log = sarif_log(diagnostics, rules, sources, repository_root(), category, assemblers)
    out.write(json.dumps(log, indent=2) + "\n")  # one write: json.dump writes each token
    for notification in log["runs"][0]["invocations"][0].get("toolExecutionNotifications", ()):
        print(f"amdgpu-lint: warning: {notification['message']['text']}", file=sys.stderr)
