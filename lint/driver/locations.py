"""Findings on compiler listings moved to the source lines they were compiled from.

A listing made with `-g` or `-gline-tables-only` (clang, hipcc `--save-temps`, every Triton `.amdgcn`) says with
`.file`/`.loc` which source line each instruction came from. A finding on such an instruction is reported at that
line, with a note naming the listing line and the instruction; the findings of one rule on one source line (an
unrolled loop's copies) become one, with their count. A finding whose producer (the load, the MFMA) was issued
from inline asm (`;;#ASMSTART` ... `;;#ASMEND`) says so, and its note points at the `asm` statement: the
compiler's wait and hazard passes do not see what inline asm issues, so this is where the real bugs of HIP code
are. Without a usable location (no `.loc`, `.loc 0 0`, a source file not on this machine) a finding stays on the
listing.
"""

from __future__ import annotations

import os
import re
from dataclasses import replace
from pathlib import Path

from ..model.debuglines import DebugLines, SourceLine
from ..model.diagnostics import DISPLAY_ONLY, Diagnostic, Note, QuotedLines


class _Sources:
    """The source files findings move to, each read once; None for one that is not on this machine."""

    def __init__(self) -> None:
        self.lines: dict[str, list[str] | None] = {}

    def get(self, path: str) -> list[str] | None:
        if path not in self.lines:
            try:
                self.lines[path] = Path(path).read_text(errors="replace").split("\n") if os.path.isfile(path) else None
            except OSError:
                self.lines[path] = None
        return self.lines[path]


def at_source_lines(diagnostics: list[Diagnostic], listing: str, debug: DebugLines,
                    instruction_text: dict[int, str]) -> tuple[list[Diagnostic], dict[str, QuotedLines]]:
    """Each finding on the listing at `listing` moved to its source line (see the module docstring); one per rule
    and source line. `instruction_text`: listing line -> the instruction there, for the notes. Also the source
    lines the moved findings point at (what outputs quote and fingerprint)."""
    sources = _Sources()
    moved: list[Diagnostic] = []
    grouped: dict[tuple[str, str, int, str | None], list[Diagnostic]] = {}
    for diagnostic in diagnostics:
        diagnostic = _inline_asm_producers(diagnostic, listing, debug)
        location = _location(diagnostic, listing, debug, instruction_text)
        lines = sources.get(location[0]) if location else None
        if location is None or lines is None or not 0 < location[1] <= len(lines):
            moved.append(diagnostic)
            continue
        path, line, column = location
        text = lines[line - 1]
        start = column or len(text) - len(text.lstrip()) + 1
        listed = instruction_text.get(diagnostic.line, "").strip()
        note = Note(f"in the listing: {listed}" if listed else "in the listing", listing, diagnostic.line, diagnostic.column)
        fix = diagnostic.fix
        if fix is not None:  # its edit is the listing's: never applied to the source, the note says where it goes
            note = replace(note, message=f"{note.message} (fix there: {fix.description})")
            fix = replace(fix, applicability=DISPLAY_ONLY)
        shown = replace(diagnostic, message=_sources_named(diagnostic.message, listing, debug), path=path, line=line,
                        column=start, end_line=line, end_column=max(len(text.rstrip()) + 1, start + 1),
                        notes=(*diagnostic.notes, note), fix=fix)
        grouped.setdefault((shown.code, path, line, shown.kernel), []).append(shown)
    for group in grouped.values():
        first = group[0]
        if len(group) > 1:
            others = tuple(note for later in group[1:] for note in later.notes[-1:])  # each copy's listing line
            first = replace(first, message=f"{first.message} ({len(group)} instructions of this line)",
                            notes=(*first.notes, *others))
        moved.append(first)
    quoted: dict[str, QuotedLines] = {}
    for diagnostic in moved:
        lines = sources.lines.get(diagnostic.path)
        if lines is not None and 0 < diagnostic.line <= len(lines):
            quoted.setdefault(diagnostic.path, QuotedLines(diagnostic.path)).lines[diagnostic.line] = lines[diagnostic.line - 1]
    return moved, quoted


#: how far past a kernel's label its first located instruction may be
_LABEL_REACH = 200


def _location(diagnostic: Diagnostic, listing: str, debug: DebugLines, texts: dict[int, str]) -> SourceLine | None:
    """Where a finding on the listing came from: its line's location; for a finding on a kernel's label (occupancy,
    registers), the location of the kernel's first instruction that has one."""
    if diagnostic.path != listing:
        return None
    found = debug.locations.get(diagnostic.line)
    if found is None and texts.get(diagnostic.line, "").rstrip().endswith(":"):
        found = next((debug.locations[n] for n in range(diagnostic.line + 1, diagnostic.line + _LABEL_REACH)
                      if n in debug.locations), None)
    return found


def _sources_named(message: str, listing: str, debug: DebugLines) -> str:
    """`message` with each `listing:N` it names (a producer, a wait) written as the source line N came from."""
    def named(match: re.Match[str]) -> str:
        location = debug.locations.get(int(match.group(1)))
        return f"{location[0]}:{location[1]}" if location else match.group(0)

    return re.sub(rf"{re.escape(listing)}:(\d+)", named, message)


def _inline_asm_producers(diagnostic: Diagnostic, listing: str, debug: DebugLines) -> Diagnostic:
    """A finding whose notes point at instructions issued from inline asm: the note points at the `asm` statement
    too, and the message says where the producer came from."""
    if not debug.inline_asm:
        return diagnostic
    notes: list[Note] = []
    from_asm = False
    for note in diagnostic.notes:
        notes.append(note)
        if note.path == listing and note.line in debug.inline_asm and not note.expansion:
            from_asm = True
            statement = debug.locations.get(note.line)
            if statement is not None:
                notes.append(Note(f"{note.message.split(' issued')[0]} comes from this inline asm statement: the "
                                  "compiler's wait and hazard passes do not see what inline asm issues",
                                  statement[0], statement[1], statement[2]))
    if not from_asm:
        return diagnostic
    return replace(diagnostic, message=f"{diagnostic.message} (the instruction it depends on was issued from inline asm)",
                   notes=tuple(notes))
