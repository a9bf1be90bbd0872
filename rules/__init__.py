"""The rule registry: one module per rule, each with CODE, NAME, SEVERITY, SUMMARY and check()."""

from __future__ import annotations

from amdgpu_lint.driver.rule import Rule

from . import (
    assembler_error,
    input_conversion,
    invalid_encoding,
    issue_oversubscription,
    lds_budget,
    lds_race,
    metadata_mismatch,
    missing_nop,
    missing_wait,
    occupancy_below_target,
    occupancy_regression,
    overstrict_wait,
    parse_error,
    performance_regression,
    redundant_wait,
    register_budget,
    register_file_mixup,
    scratch_spill,
    short_prefetch,
    too_few_workgroups,
    undefined_symbol,
    uninitialized_register,
    unknown_directive,
    unknown_instruction,
    unknown_target,
    unused_suppression,
)

_MODULES = (
    parse_error,
    unknown_directive,
    undefined_symbol,
    unknown_target,
    input_conversion,
    issue_oversubscription,
    invalid_encoding,
    unknown_instruction,
    assembler_error,
    register_file_mixup,
    uninitialized_register,
    register_budget,
    lds_budget,
    metadata_mismatch,
    scratch_spill,
    short_prefetch,
    occupancy_below_target,
    occupancy_regression,
    performance_regression,
    too_few_workgroups,
    missing_wait,
    redundant_wait,
    overstrict_wait,
    lds_race,
    missing_nop,
    unused_suppression,
)

RULES: tuple[Rule, ...] = tuple(sorted((Rule.from_module(m) for m in _MODULES), key=lambda rule: rule.code))
#: Each rule by its exact code (how a job names its rules).
BY_CODE: dict[str, Rule] = {rule.code: rule for rule in RULES}


def find_rule(name_or_code: str) -> Rule | None:
    key = name_or_code.strip()
    for rule in RULES:
        if key.upper() == rule.code or key.lower() == rule.name:
            return rule
    return None
