"""`check --format github`: workflow commands that GitHub Actions shows as annotations."""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from ..diagnostics import Diagnostic, Severity
from .uris import relative_uri


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
