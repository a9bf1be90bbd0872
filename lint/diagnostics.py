"""Diagnostics: what a rule reports, with location, severity and notes."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from .ir import Provenance


class Severity(IntEnum):
    INFO = 0
    WARNING = 1
    ERROR = 2

    def __str__(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Severity:
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise ValueError(f"unknown severity '{text}' (use error, warning or info)") from None


@dataclass(frozen=True, slots=True)
class Note:
    message: str
    path: str | None = None
    line: int | None = None
    column: int | None = None


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace the text between (line, column) and (end_line, end_column) with `text` (1-based)."""

    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    text: str


@dataclass(frozen=True, slots=True)
class Fix:
    description: str
    edits: tuple[Edit, ...]

    def to_json(self) -> dict:
        return {
            "description": self.description,
            "edits": [
                {"path": e.path, "line": e.line, "column": e.column, "end_line": e.end_line,
                 "end_column": e.end_column, "text": e.text}
                for e in self.edits
            ],
        }


@dataclass(frozen=True, slots=True)
class Diagnostic:
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
    return tuple(Note(step.describe(), step.path, step.line, step.column) for step in where.chain)
