"""What every rule module provides, and the contexts rules run in."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from ..analyses.manager import Analysis, AnalysisManager
from ..diagnostics import Diagnostic, Edit, Fix, Note, Severity, expansion_notes
from ..ir import Finding, Kernel, Module, Provenance

#: Where each rule's documentation is published (docs/rules.md, one anchor per rule).
RULES_URL = "https://github.com/amdgpu-lint/amdgpu-lint/blob/main/docs/rules.md"


def documentation_url(code: str, name: str) -> str:
    """The rule's section of the published rule reference."""
    return f"{RULES_URL}#{code.lower()}-{name}"


@dataclass(frozen=True)
class Rule:
    """A rule's identity and entry point, read from its module's constants."""

    code: str
    name: str
    severity: Severity
    summary: str
    explain: str
    scope: str  # "module" (once per file) or "kernel" (once per kernel, with analyses)
    requires: tuple[type[Analysis], ...]
    check: Callable[[Any], Iterable[Diagnostic]]

    @classmethod
    def from_module(cls, module: ModuleType) -> Rule:
        return cls(
            code=module.CODE,
            name=module.NAME,
            severity=module.SEVERITY,
            summary=module.SUMMARY,
            explain=(module.__doc__ or "").strip(),
            scope=getattr(module, "SCOPE", "module"),
            requires=tuple(getattr(module, "REQUIRES", ())),
            check=module.check,
        )


@dataclass
class ModuleContext:
    """What a module-level rule sees: the module and the rule itself."""

    module: Module
    rule: Rule

    def diagnostic(
        self,
        where: Provenance,
        message: str,
        *,
        kernel: str | None = None,
        end_column: int | None = None,
        notes: tuple[Note, ...] = (),
        severity: Severity | None = None,
        fix: Fix | None = None,
    ) -> Diagnostic:
        """A diagnostic of this rule at `where` (a rule may report some findings at a lower severity)."""
        if end_column is None:
            source = self.module.sources.get(where.path)
            text = source.line_text(where.line) if source else ""
            end_column = max(len(text.rstrip()) + 1, where.column + 1)
        return Diagnostic(
            self.rule.code,
            self.rule.name,
            severity if severity is not None else self.rule.severity,
            message,
            where.path,
            where.line,
            where.column,
            where.line,
            end_column,
            kernel,
            notes + expansion_notes(where),
            fix,
        )

    def insert_before(self, where: Provenance, lines: list[str], description: str) -> Fix:
        """A fix that inserts `lines` above the statement at `where`, with its indentation."""
        source = self.module.sources.get(where.path)
        text = source.line_text(where.line) if source else ""
        indent = text[: len(text) - len(text.lstrip())] or "    "
        insertion = "".join(f"{indent}{line}\n" for line in lines)
        return Fix(description, (Edit(where.path, where.line, 1, where.line, 1, insertion),))

    def findings(self) -> Iterable[Finding]:
        """Findings the front end recorded under this rule's name."""
        return (finding for finding in self.module.findings if finding.rule == self.rule.name)

    def report_findings(self) -> Iterable[Diagnostic]:
        for finding in self.findings():
            yield self.diagnostic(finding.where, finding.message, end_column=finding.end_column)


@dataclass
class KernelContext(ModuleContext):
    """What a kernel-level rule sees: the kernel and its cached analyses."""

    kernel: Kernel
    analyses: AnalysisManager

    def get(self, analysis: type[Analysis]) -> Any:
        return self.analyses.get(analysis)
