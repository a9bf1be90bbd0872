"""Inline suppressions in assembly comments.

`; amdgpu-lint: disable=missing-wait` silences the rule on that line; `disable-next-line=` on the
next code line; `disable-file=` from the top of the file until an `enable=` for the same rule.
Rules are named by code, name or `all`. A finding inside a macro expansion is also silenced by a
directive on any line of its expansion chain (the macro call, the `.rept`, the `.include`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..model.diagnostics import Diagnostic
from ..model.ir import SourceFile

_DIRECTIVE = re.compile(r"amdgpu-lint:\s*(disable-next-line|disable-file|disable|enable)\s*=\s*([\w\-]+(?:\s*,\s*[\w\-]+)*)")


@dataclass(slots=True, repr=False, eq=False, init=False)
class Directive:
    """One `amdgpu-lint:` comment: what it does, to which rules, where."""

    kind: str
    rules: tuple[str, ...]
    path: str
    line: int
    column: int
    covers: set[int] = field(default_factory=set)  # lines it silences (whole file: empty + everywhere)
    everywhere: bool = False
    used: bool = False

    def __init__(self, kind: str, rules: tuple[str, ...], path: str, line: int, column: int,
                 covers: set[int] | None = None, everywhere: bool = False, used: bool = False) -> None:
        self.kind = kind
        self.rules = rules
        self.path = path
        self.line = line
        self.column = column
        self.covers = set() if covers is None else covers
        self.everywhere = everywhere
        self.used = used

    def names(self, diagnostic: Diagnostic) -> bool:
        return any(r == "all" or r.lower() == diagnostic.name or r.upper() == diagnostic.code for r in self.rules)


def parse(source: SourceFile) -> list[Directive]:
    directives: list[Directive] = []
    code_lines = source.lines.numbers  # ascending
    for number, comment in sorted(source.comments.items()):
        for match in _DIRECTIVE.finditer(comment):
            rules = tuple(part.strip() for part in match.group(2).split(","))
            raw = source.line_text(number)
            column = raw.find("amdgpu-lint") + 1 or 1
            directive = Directive(match.group(1), rules, source.path, number, column)
            if directive.kind == "disable":
                directive.covers = {number}
            elif directive.kind == "disable-next-line":
                following = next((line for line in code_lines if line > number), None)
                directive.covers = {following} if following else set()
            directives.append(directive)
    for directive in directives:
        if directive.kind == "disable-file":
            ends = [d.line for d in directives if d.kind == "enable" and d.line > directive.line
                    and set(d.rules) & set(directive.rules)]
            if ends:
                directive.covers = set(range(1, min(ends)))
            else:
                directive.everywhere = True
    return directives


class Suppressions:
    def __init__(self, sources: dict[str, SourceFile]):
        self.directives = [d for source in sources.values() for d in parse(source) if d.kind != "enable"]

    def apply(self, diagnostics: list[Diagnostic]) -> list[Diagnostic]:
        kept = []
        for diagnostic in diagnostics:
            places = {(diagnostic.path, diagnostic.line)} | {(n.path, n.line) for n in diagnostic.notes if n.path}
            silenced = False
            for directive in self.directives:
                if not directive.names(diagnostic):
                    continue
                if any(path == directive.path and (directive.everywhere or line in directive.covers) for path, line in places):
                    directive.used = True
                    silenced = True
            if not silenced:
                kept.append(diagnostic)
        return kept

    def unused(self) -> list[Directive]:
        return [directive for directive in self.directives if not directive.used]
