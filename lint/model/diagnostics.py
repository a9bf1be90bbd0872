"""Diagnostics: what a rule reports, with location, severity, notes and fix; their counts and stable fingerprints."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from .ir import Provenance, SourceFile
from .severity import Severity

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any


@dataclass(frozen=True, slots=True, init=False, eq=False, repr=False)
class Note:
    """A secondary message, optionally at another location (e.g. where a producer was issued)."""

    message: str
    path: str | None = None
    line: int | None = None
    column: int | None = None
    expansion: bool = False  # a step of how the statement was produced (macro call, .rept, .include)

    def __init__(self, message: str, path: str | None = None, line: int | None = None, column: int | None = None,
                 expansion: bool = False) -> None:
        object.__setattr__(self, "message", message)
        object.__setattr__(self, "path", path)
        object.__setattr__(self, "line", line)
        object.__setattr__(self, "column", column)
        object.__setattr__(self, "expansion", expansion)

    def __repr__(self) -> str:
        return (f"{self.__class__.__qualname__}(message={self.message!r}, path={self.path!r}, line={self.line!r}, "
                f"column={self.column!r}, expansion={self.expansion!r})")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Note) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.message, self.path, self.line, self.column, self.expansion) == (
            other.message, other.path, other.line, other.column, other.expansion)

    def __hash__(self) -> int:
        return hash((self.message, self.path, self.line, self.column, self.expansion))


@dataclass(frozen=True, slots=True, init=False, eq=False, repr=False)
class Edit:
    """Replace the text between (line, column) and (end_line, end_column) with `text` (1-based)."""

    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    text: str

    def __init__(self, path: str, line: int, column: int, end_line: int, end_column: int, text: str) -> None:
        object.__setattr__(self, "path", path)
        object.__setattr__(self, "line", line)
        object.__setattr__(self, "column", column)
        object.__setattr__(self, "end_line", end_line)
        object.__setattr__(self, "end_column", end_column)
        object.__setattr__(self, "text", text)

    def __repr__(self) -> str:
        return (f"{self.__class__.__qualname__}(path={self.path!r}, line={self.line!r}, column={self.column!r}, "
                f"end_line={self.end_line!r}, end_column={self.end_column!r}, text={self.text!r})")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Edit) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.path, self.line, self.column, self.end_line, self.end_column, self.text) == (
            other.path, other.line, other.column, other.end_line, other.end_column, other.text)

    def __hash__(self) -> int:
        return hash((self.path, self.line, self.column, self.end_line, self.end_column, self.text))


#: How far `--fix` may trust a fix (ruff's terms): applied by `--fix`; applied with `--unsafe-fixes` too
#: (it may change what the code does); shown only, never applied (its edit is not a plain line of the file).
SAFE, UNSAFE, DISPLAY_ONLY = "safe", "unsafe", "display-only"


@dataclass(frozen=True, slots=True, init=False, eq=False, repr=False)
class Fix:
    """Edits that fix a finding. `isolated`: the rule reported the findings after this one in its kernel as if
    it were not made (hazards are found independently), so --fix applies it in a pass of its own there."""

    description: str
    edits: tuple[Edit, ...]
    applicability: str = SAFE
    isolated: bool = False

    def __init__(self, description: str, edits: tuple[Edit, ...], applicability: str = SAFE,
                 isolated: bool = False) -> None:
        object.__setattr__(self, "description", description)
        object.__setattr__(self, "edits", edits)
        object.__setattr__(self, "applicability", applicability)
        object.__setattr__(self, "isolated", isolated)

    def __repr__(self) -> str:
        return (f"{self.__class__.__qualname__}(description={self.description!r}, edits={self.edits!r}, "
                f"applicability={self.applicability!r}, isolated={self.isolated!r})")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Fix) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.description, self.edits, self.applicability, self.isolated) == (
            other.description, other.edits, other.applicability, other.isolated)

    def __hash__(self) -> int:
        return hash((self.description, self.edits, self.applicability, self.isolated))

    def applies(self, unsafe: bool) -> bool:
        """Whether `--fix` applies it (with `--unsafe-fixes` when `unsafe`)."""
        return self.applicability == SAFE or (unsafe and self.applicability == UNSAFE)

    def to_json(self) -> dict:
        return {
            "description": self.description,
            "applicability": self.applicability,
            "edits": [
                {"path": e.path, "line": e.line, "column": e.column, "end_line": e.end_line,
                 "end_column": e.end_column, "text": e.text}
                for e in self.edits
            ],
        }


@dataclass(frozen=True, slots=True, init=False, eq=False, repr=False)
class Diagnostic:
    """One finding of one rule at one location."""

    code: str
    name: str
    severity: Severity
    message: str
    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    kernel: str | None = None
    notes: tuple[Note, ...] = ()
    fix: Fix | None = None

    def __init__(self, code: str, name: str, severity: Severity, message: str, path: str, line: int, column: int,
                 end_line: int, end_column: int, kernel: str | None = None, notes: tuple[Note, ...] = (),
                 fix: Fix | None = None) -> None:
        object.__setattr__(self, "code", code)
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "severity", severity)
        object.__setattr__(self, "message", message)
        object.__setattr__(self, "path", path)
        object.__setattr__(self, "line", line)
        object.__setattr__(self, "column", column)
        object.__setattr__(self, "end_line", end_line)
        object.__setattr__(self, "end_column", end_column)
        object.__setattr__(self, "kernel", kernel)
        object.__setattr__(self, "notes", notes)
        object.__setattr__(self, "fix", fix)

    def __repr__(self) -> str:
        return (f"{self.__class__.__qualname__}(code={self.code!r}, name={self.name!r}, severity={self.severity!r}, "
                f"message={self.message!r}, path={self.path!r}, line={self.line!r}, column={self.column!r}, "
                f"end_line={self.end_line!r}, end_column={self.end_column!r}, kernel={self.kernel!r}, "
                f"notes={self.notes!r}, fix={self.fix!r})")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Diagnostic) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.code, self.name, self.severity, self.message, self.path, self.line, self.column, self.end_line,
            self.end_column, self.kernel, self.notes, self.fix) == (
            other.code, other.name, other.severity, other.message, other.path, other.line, other.column, other.end_line,
            other.end_column, other.kernel, other.notes, other.fix)

    def __hash__(self) -> int:
        return hash((
            self.code, self.name, self.severity, self.message, self.path, self.line, self.column, self.end_line,
            self.end_column, self.kernel, self.notes, self.fix))

    @property
    def sort_key(self) -> tuple:
        return (self.path, self.line, self.column, self.code, self.message)

    def to_json(self) -> dict:
        return {
            "code": self.code,
            "name": self.name,
            "severity": str(self.severity),
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "end_line": self.end_line,
            "end_column": self.end_column,
            "message": self.message,
            "kernel": self.kernel,
            "notes": [
                {"message": n.message, "path": n.path, "line": n.line, "column": n.column} for n in self.notes
            ],
            "fix": self.fix.to_json() if self.fix else None,
        }


def expansion_notes(where: Provenance) -> tuple[Note, ...]:
    """One note per expansion step (macro, .rept, include), innermost first."""
    return tuple(Note(step.describe(), step.path, step.line, step.column, expansion=True) for step in where.chain)


def summarize(diagnostics: list[Diagnostic], files: int) -> dict[str, Any]:
    counts = Counter(str(d.severity) for d in diagnostics)
    return {
        "files": files,
        "diagnostics": len(diagnostics),
        "errors": counts.get("error", 0),
        "warnings": counts.get("warning", 0),
        "info": counts.get("info", 0),
    }


@dataclass(slots=True, init=False, repr=False, eq=False)
class QuotedLines:
    """The lines of one file that findings point at: all the outputs need of a file once its
    module is gone (worker processes, the result cache). Reads like a SourceFile."""

    path: str
    lines: dict[int, str] = field(default_factory=dict)

    def __init__(self, path: str, lines: dict[int, str] | None = None) -> None:
        self.path = path
        self.lines = {} if lines is None else lines

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, QuotedLines) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.path, self.lines) == (other.path, other.lines)

    def __repr__(self) -> str:
        return f"{self.__class__.__qualname__}(path={self.path!r}, lines={self.lines!r})"

    def line_text(self, number: int) -> str:
        return self.lines.get(number, "")


#: What the outputs read source lines from: the file, or just the lines findings point at.
LineSource = SourceFile | QuotedLines


def quoted_lines(diagnostics: list[Diagnostic], sources: dict[str, SourceFile]) -> dict[str, QuotedLines]:
    """Per file, the text of every line a finding points at."""
    quoted: dict[str, QuotedLines] = {}
    for diagnostic in diagnostics:
        source = sources.get(diagnostic.path)
        if source is not None:
            quoted.setdefault(diagnostic.path, QuotedLines(diagnostic.path)).lines[diagnostic.line] = \
                source.line_text(diagnostic.line)
    return quoted


def stripped_line(diagnostic: Diagnostic, sources: Mapping[str, LineSource]) -> str:
    """The text of the diagnostic's line with runs of whitespace made one space ("" when unknown)."""
    source = sources.get(diagnostic.path)
    return " ".join((source.line_text(diagnostic.line) if source else "").split())


def fingerprint(diagnostic: Diagnostic, sources: Mapping[str, LineSource], occurrence: int,
                path: str | None = None) -> str:
    """Stable across unrelated edits: rule, path and the stripped text of the line, not its number.
    `path` is what is hashed for the file (default: the path as typed)."""
    import hashlib  # only the formats that print fingerprints pay for loading it

    hashed = f"{diagnostic.code}\0{diagnostic.path if path is None else path}\0{stripped_line(diagnostic, sources)}"
    digest = hashlib.sha256(hashed.encode()).hexdigest()[:16]
    return f"{digest}:{occurrence}"


def fingerprints(diagnostics: list[Diagnostic], sources: Mapping[str, LineSource], paths: list[str] | None = None) -> list[str]:
    """A fingerprint per finding, numbered among those with the same digest. `paths` (one per finding)
    replaces the typed paths in the hash: the outputs pass repository-relative ones, so fingerprints do
    not depend on the directory the linter ran from."""
    seen: Counter[str] = Counter()
    result = []
    for number, diagnostic in enumerate(diagnostics):
        base = fingerprint(diagnostic, sources, 0, None if paths is None else paths[number]).split(":")[0]
        seen[base] += 1
        result.append(f"{base}:{seen[base]}")
    return result
