"""`check --format gitlab`: a GitLab Code Quality report."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import TextIO

from ..diagnostics import Diagnostic, LineSource, Severity, fingerprints
from .uris import relative_uri


def write_gitlab(out: TextIO, diagnostics: list[Diagnostic], sources: dict[str, LineSource]) -> None:
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
