"""Lint driver: build a module from a file and run the selected rules over it."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

from .builder import BuildOptions, build_module
from .diagnostics import Diagnostic, Severity
from .ir import Module
from .passes import AnalysisManager
from .rule import KernelContext, ModuleContext, Rule
from .source import read_source


class SelectionError(ValueError):
    """A --select/--ignore entry names no rule."""


@dataclass
class RuleSelection:
    """ruff-style selection: codes, names, code prefixes or ALL; ignore wins over select."""

    select: list[str] = field(default_factory=lambda: ["ALL"])
    ignore: list[str] = field(default_factory=list)
    severities: dict[str, Severity] = field(default_factory=dict)

    @staticmethod
    def _matches(rule: Rule, token: str) -> bool:
        token = token.strip()
        return token.upper() == "ALL" or token.lower() == rule.name or rule.code.startswith(token.upper())

    def validate(self, rules: tuple[Rule, ...]) -> None:
        for token in self.select + self.ignore + list(self.severities):
            if not any(self._matches(rule, token) for rule in rules):
                raise SelectionError(f"no rule matches '{token}' (see 'amdgpu-lint rules')")

    def enabled(self, rules: tuple[Rule, ...]) -> list[Rule]:
        return [
            rule
            for rule in rules
            if any(self._matches(rule, t) for t in self.select) and not any(self._matches(rule, t) for t in self.ignore)
        ]


@dataclass
class FileResult:
    path: str
    module: Module | None
    diagnostics: list[Diagnostic]
    error: str | None = None  # the file could not be read at all


def run_rules(module: Module, rules: list[Rule]) -> list[Diagnostic]:
    diagnostics: list[Diagnostic] = []
    for rule in rules:
        if rule.scope == "module":
            diagnostics.extend(rule.check(ModuleContext(module, rule)))
    kernel_rules = [rule for rule in rules if rule.scope == "kernel"]
    for kernel in module.kernels if kernel_rules else ():
        manager = AnalysisManager(module, kernel)
        for rule in kernel_rules:
            diagnostics.extend(rule.check(KernelContext(module, rule, kernel, manager)))
    return diagnostics


def _apply_severities(diagnostics: list[Diagnostic], selection: RuleSelection) -> list[Diagnostic]:
    if not selection.severities:
        return diagnostics
    result = []
    for diagnostic in diagnostics:
        for token, severity in selection.severities.items():
            if token.lower() == diagnostic.name or token.upper() == diagnostic.code:
                diagnostic = replace(diagnostic, severity=severity)
        result.append(diagnostic)
    return result


def lint_file(path: str | Path, options: BuildOptions, rules: list[Rule], selection: RuleSelection | None = None) -> FileResult:
    shown = str(path)
    try:
        source = read_source(path, shown)
    except OSError as error:
        return FileResult(shown, None, [], f"{shown}: cannot read: {error.strerror or error}")
    module = build_module(source, options)
    diagnostics = run_rules(module, rules)
    if selection is not None:
        diagnostics = _apply_severities(diagnostics, selection)
    diagnostics.sort(key=lambda d: d.sort_key)
    return FileResult(shown, module, diagnostics)
