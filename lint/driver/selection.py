"""Which rules a run turns on: ruff-style `--select`/`--ignore`, severities and per-file ignores."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..model.severity import Severity

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..model.diagnostics import Diagnostic
    from .rule import Rule


class SelectionError(ValueError):
    """A --select/--ignore entry names no rule."""


def near_miss(text: str, rules: tuple[Rule, ...]) -> str:
    """"; did you mean missing-wait?" for a near miss of a rule's name or code, else ""."""
    import difflib

    spellings = {rule.name: rule.name for rule in rules} | {rule.code.lower(): rule.code for rule in rules}
    close = difflib.get_close_matches(text.strip().lower(), spellings, n=1, cutoff=0.75)
    return f"; did you mean {spellings[close[0]]}?" if close else ""


@dataclass(slots=True)
class RuleSelection:
    """ruff-style selection: codes, names, code prefixes or ALL; ignore wins over select."""

    select: list[str] = field(default_factory=lambda: ["ALL"])
    ignore: list[str] = field(default_factory=list)
    severities: dict[str, Severity] = field(default_factory=dict)
    per_file_ignores: list[tuple[str, list[str]]] = field(default_factory=list)  # (absolute glob, rules)

    @staticmethod
    def _matches_diagnostic(diagnostic: Diagnostic, token: str) -> bool:
        return RuleSelection._matches(diagnostic.code, diagnostic.name, token)

    @staticmethod
    def _matches(code: str, name: str, token: str) -> bool:
        token = token.strip()
        return token.upper() == "ALL" or token.lower() == name or code.startswith(token.upper())

    def validate(self, rules: tuple[Rule, ...]) -> None:
        per_file = [token for _, tokens in self.per_file_ignores for token in tokens]
        for token in self.select + self.ignore + list(self.severities) + per_file:
            if not any(self._matches(rule.code, rule.name, token) for rule in rules):
                raise SelectionError(f"no rule matches '{token}'{near_miss(token, rules)} (see 'amdgpu-lint rules')")

    def enabled(self, rules: tuple[Rule, ...]) -> list[Rule]:
        return [rule for rule in rules if self.selects(rule.code, rule.name)]

    def selects(self, code: str, name: str) -> bool:
        """Whether the rule with this code and name is on (known without importing the rules)."""
        return (any(self._matches(code, name, t) for t in self.select)
                and not any(self._matches(code, name, t) for t in self.ignore))
