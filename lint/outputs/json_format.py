"""`--format json` for `check` (findings and a summary) and `report` (one entry per kernel)."""

from __future__ import annotations

import json

from .. import __version__
from ..model.diagnostics import Diagnostic, summarize

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, TextIO


def write_json(out: TextIO, diagnostics: list[Diagnostic], files: int, fixed: int | None = None,
               assemblers: list[dict[str, str]] | None = None) -> None:
    """With `fixed` (`--fix`), the summary counts the fixes applied too; the findings are those that remain.
    `assemblers`: the user's assemblers that checked the files, each's name, path and version (a "tool" section)."""
    document: dict[str, Any] = {
        "version": __version__,
        "diagnostics": [d.to_json() for d in diagnostics],
        "summary": summarize(diagnostics, files) | ({"fixed": fixed} if fixed is not None else {}),
    }
    if assemblers:
        document["tool"] = {"name": "amdgpu-lint", "version": __version__,
                            "assemblers": assemblers}
    out.write(json.dumps(document, indent=2) + "\n")  # one write: json.dump writes each token


def write_report_json(out: TextIO, reports: list[dict[str, Any]]) -> None:
    """The document `json.dumps(..., indent=2)` writes, made a kernel at a time: its pure-Python encoder passes
    each piece up through a generator a level, so two levels less is twice as fast (100k lines: 0.24 -> 0.13 s).
    A JSON string holds no raw newline, so indenting an entry's lines is safe."""
    if not reports:
        out.write(json.dumps({"version": __version__, "kernels": []}, indent=2) + "\n")
        return
    entries = ",\n    ".join(json.dumps(report, indent=2, default=str).replace("\n", "\n    ") for report in reports)
    out.write(f'{{\n  "version": {json.dumps(__version__)},\n  "kernels": [\n    {entries}\n  ]\n}}\n')
