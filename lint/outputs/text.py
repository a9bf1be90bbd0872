"""`check --output-format text|concise`: gcc-style findings (text: with a source snippet, caret and
notes), coloured on a terminal; the summary line; `--statistics`."""

from __future__ import annotations

import os
from collections import Counter

from ..model.diagnostics import UNSAFE, Diagnostic, LineSource, Severity, summarize

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TextIO


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


def use_colour(out: TextIO, choice: str = "auto") -> bool:
    """`--color always|never`, else (auto): not when NO_COLOR is set and not empty (no-color.org), yes when
    FORCE_COLOR is (force-color.org; NO_COLOR wins when both are), else only on a terminal that is not dumb."""
    if choice != "auto":
        return choice == "always"
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return hasattr(out, "isatty") and out.isatty() and os.environ.get("TERM") != "dumb"


def _highlighter():
    from pygments import highlight
    from pygments.formatters import TerminalFormatter

    from .lexer import AMDGPULexer

    lexer, formatter = AMDGPULexer(), TerminalFormatter()
    return lambda text: highlight(text, lexer, formatter).rstrip("\n")


def _counted(count: int, noun: str, plural: str | None = None) -> str:
    return f"{count} {noun if count == 1 else plural or noun + 's'}"


def summary_line(diagnostics: list[Diagnostic], files: int) -> str:
    """"Found 3 problems (1 error, 2 warnings) in 2 files." or "No problems found in 1 file."."""
    where = _counted(files, "file")
    if not diagnostics:
        return f"No problems found in {where}."
    summary = summarize(diagnostics, files)
    kinds = [_counted(summary["errors"], "error"), _counted(summary["warnings"], "warning"),
             _counted(summary["info"], "info", "info")]
    shown = [kind for kind in kinds if not kind.startswith("0 ")]
    return f"Found {_counted(len(diagnostics), 'problem')} ({', '.join(shown)}) in {where}."


def write_text(out: TextIO, diagnostics: list[Diagnostic], sources: dict[str, LineSource], files: int, *,
               colour: bool | None = None, concise: bool = False, summary: bool = True, fixed: int | None = None) -> None:
    """Each finding (concise: its first line only), then the summary line unless `summary` is off: when `--fix`
    fixed some, ruff's "Found N (M fixed, K remaining)"."""
    colour = use_colour(out) if colour is None else colour
    paint = _highlighter() if colour and diagnostics and not concise else None
    for diagnostic in diagnostics:
        severity = str(diagnostic.severity)
        if colour:
            severity = f"{_ANSI[severity]}{severity}{_RESET}"
        out.write(
            f"{diagnostic.path}:{diagnostic.line}:{diagnostic.column}: {severity}: "
            f"{diagnostic.message} [{diagnostic.code} {diagnostic.name}]\n"
        )
        if concise:
            continue
        for number, line in enumerate(_snippet(sources.get(diagnostic.path), diagnostic)):
            if paint and number == 0:
                gutter, _, code = line.partition("| ")
                line = gutter + "| " + paint(code)
            out.write(line + "\n")
        for note in diagnostic.notes:
            where = f"{note.path}:{note.line}:{note.column}: " if note.path else ""
            out.write(f"{where}note: {note.message}\n")
    if not summary:
        return
    if fixed:
        _write_fix_summary(out, diagnostics, fixed, files)
        return
    out.write(summary_line(diagnostics, files) + "\n")
    _write_fixable(out, diagnostics)


def write_statistics(out: TextIO, diagnostics: list[Diagnostic], as_json: bool = False) -> None:
    """`--statistics`: findings per rule, most first (a JSON array with `--output-format json`)."""
    counts = Counter((d.code, d.name) for d in diagnostics)
    worst: dict[str, Severity] = {}
    for d in diagnostics:
        worst[d.code] = max(worst.get(d.code, d.severity), d.severity)
    rows = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    if as_json:
        import json

        json.dump([{"code": code, "name": name, "severity": str(worst[code]), "count": count}
                   for (code, name), count in rows], out, indent=2)
        out.write("\n")
        return
    width = len(str(rows[0][1])) if rows else 1
    name_width = max((len(name) for (_, name), _ in rows), default=0)
    out.writelines(f"{count:>{width}}  {code}  {name:<{name_width}}  {worst[code]}\n" for (code, name), count in rows)


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
