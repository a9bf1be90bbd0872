"""`check --format text`: gcc-style findings with a source snippet, caret and notes; coloured on a terminal."""

from __future__ import annotations

import os
from typing import TextIO

from ..diagnostics import UNSAFE, Diagnostic, LineSource, summarize


def _snippet(source: LineSource | None, diagnostic: Diagnostic) -> list[str]:
    if source is None:
        return []
    text = source.line_text(diagnostic.line).replace("\t", " ")
    if not text.strip():
        return []
    if len(text) > 200:
        start = max(0, diagnostic.column - 80)
        text = text[start : start + 160]
        column = diagnostic.column - start
    else:
        column = diagnostic.column
    width = max(1, min(diagnostic.end_column, len(text) + 1) - column)
    gutter = f"{diagnostic.line:>5} | "
    return [gutter + text, " " * (len(gutter) - 2) + "| " + " " * (column - 1) + "^" + "~" * (width - 1)]


_ANSI = {"error": "\033[1;31m", "warning": "\033[1;33m", "info": "\033[1;36m", "note": "\033[1;36m"}
_RESET = "\033[0m"


def use_colour(out: TextIO) -> bool:
    """Colour on a terminal unless NO_COLOR is set (no-color.org)."""
    return hasattr(out, "isatty") and out.isatty() and not os.environ.get("NO_COLOR")


def _highlighter():
    from pygments import highlight
    from pygments.formatters import TerminalFormatter

    from .lexer import AMDGPULexer

    lexer, formatter = AMDGPULexer(), TerminalFormatter()
    return lambda text: highlight(text, lexer, formatter).rstrip("\n")


def write_text(out: TextIO, diagnostics: list[Diagnostic], sources: dict[str, LineSource], files: int,
               fixed: int | None = None) -> None:
    """Findings, then a summary: when `--fix` fixed some, ruff's "Found N (M fixed, K remaining)"."""
    colour = use_colour(out)
    paint = _highlighter() if colour and diagnostics else None
    for diagnostic in diagnostics:
        severity = str(diagnostic.severity)
        if colour:
            severity = f"{_ANSI[severity]}{severity}{_RESET}"
        out.write(
            f"{diagnostic.path}:{diagnostic.line}:{diagnostic.column}: {severity}: "
            f"{diagnostic.message} [{diagnostic.code} {diagnostic.name}]\n"
        )
        for number, line in enumerate(_snippet(sources.get(diagnostic.path), diagnostic)):
            if paint and number == 0:
                gutter, _, code = line.partition("| ")
                line = gutter + "| " + paint(code)
            out.write(line + "\n")
        for note in diagnostic.notes:
            where = f"{note.path}:{note.line}:{note.column}: " if note.path else ""
            out.write(f"{where}note: {note.message}\n")
    if fixed:
        _write_fix_summary(out, diagnostics, fixed, files)
        return
    summary = summarize(diagnostics, files)
    if diagnostics:
        out.write(
            f"Found {summary['diagnostics']} problem{'s' if summary['diagnostics'] != 1 else ''} "
            f"({summary['errors']} errors, {summary['warnings']} warnings, {summary['info']} info) "
            f"in {files} file{'s' if files != 1 else ''}.\n"
        )
    else:
        out.write(f"No problems found in {files} file{'s' if files != 1 else ''}.\n")
    _write_fixable(out, diagnostics)


def _write_fix_summary(out: TextIO, diagnostics: list[Diagnostic], fixed: int, files: int) -> None:
    found = fixed + len(diagnostics)
    out.write(f"Found {found} problem{'s' if found != 1 else ''} ({fixed} fixed, {len(diagnostics)} remaining) "
              f"in {files} file{'s' if files != 1 else ''}.\n")
    unsafe = sum(1 for d in diagnostics if d.fix and d.fix.applicability == UNSAFE)
    if unsafe:
        out.write(f"{unsafe} more fixable with --unsafe-fixes.\n")


def _write_fixable(out: TextIO, diagnostics: list[Diagnostic]) -> None:
    """How many findings `--fix` would fix (and `--unsafe-fixes` too), ruff's hint."""
    safe = sum(1 for d in diagnostics if d.fix and d.fix.applies(False) and all(e.path == d.path for e in d.fix.edits))
    unsafe = sum(1 for d in diagnostics if d.fix and d.fix.applicability == UNSAFE)
    if safe:
        out.write(f"{safe} fixable with --fix{f' ({unsafe} more with --unsafe-fixes)' if unsafe else ''}.\n")
    elif unsafe:
        out.write(f"{unsafe} fixable with --fix --unsafe-fixes.\n")
