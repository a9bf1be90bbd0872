"""`check --format gitlab`: a GitLab Code Quality report.

Paths are relative to `$CI_PROJECT_DIR` (GitLab's checkout) when set, else to the repository root,
and fingerprints hash that path, so neither depends on the directory `check` runs from."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from ..model.diagnostics import Diagnostic, LineSource, Severity, fingerprints
from .uris import RepositoryPaths, repository_root

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TextIO

#: rules whose errors mean silently wrong results: a value read before it arrives, a hazard, a register the wave
#: was not given
CRITICAL_RULES = frozenset({"missing-wait", "missing-nop", "register-budget"})
_SEVERITIES = {Severity.ERROR: "major", Severity.WARNING: "minor", Severity.INFO: "info"}


def gitlab_severity(diagnostic: Diagnostic) -> str:
    """`critical` for the errors of CRITICAL_RULES (not when configured down to a warning), else by severity."""
    if diagnostic.severity == Severity.ERROR and diagnostic.name in CRITICAL_RULES:
        return "critical"
    return _SEVERITIES[diagnostic.severity]


def write_gitlab(out: TextIO, diagnostics: list[Diagnostic], sources: dict[str, LineSource]) -> None:
    """GitLab Code Quality: an array of issues with unique fingerprints."""
    project_dir = os.environ.get("CI_PROJECT_DIR")
    names = RepositoryPaths(Path(project_dir) if project_dir else repository_root())
    paths = [names.display(d.path) for d in diagnostics]
    issues = []
    for d, path, print_ in zip(diagnostics, paths, fingerprints(diagnostics, sources, paths), strict=True):
        issues.append({
            "description": f"{d.code}: {names.in_text(d.message)}",
            "check_name": d.name,
            "fingerprint": hashlib.md5(print_.encode()).hexdigest(),
            "severity": gitlab_severity(d),
            "location": {"path": path,
                         "positions": {"begin": {"line": d.line, "column": d.column},
                                       "end": {"line": d.end_line, "column": d.end_column}}},
        })
    out.write(json.dumps(issues, indent=2) + "\n")  # one write: json.dump writes each token
