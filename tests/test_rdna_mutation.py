"""Mutation test on RDNA: delete each hazard mitigation LLVM 22 put into its gfx10-gfx1250 output; missing-nop
must notice, with a fix that restores the deleted line, and must find nothing in the untouched listings.

Which lines are mitigations LLVM itself says: a wait that only the hazard recognizer writes (`s_wait_alu`,
`s_waitcnt_depctr`, `s_mov_b32 null, 0`, `v_nop`, `s_nop`, `v_mov_b32 vN, vN`), and an `s_waitcnt_vscnt null, 0x0`
only where the listing compiled with the hazard's feature turned off (`-lds-branch-vmem-war-hazard`) lacks it
(the memory model writes the same wait before barriers and volatile accesses).
"""

import difflib
import re
from collections import Counter
from functools import lru_cache

from amdgpu_lint.analyses.rdna_hazards import DEPCTR_FIELDS, depctr_value
from amdgpu_lint.driver.linter import run_rules
from amdgpu_lint.frontend.builder import build_module
from amdgpu_lint.frontend.options import BuildOptions
from amdgpu_lint.frontend.source import split_lines
from amdgpu_lint.frontend.syntax import parse_statement
from amdgpu_lint.model.targets import parse_target_id
from amdgpu_lint.rules import find_rule
from conftest import FIXTURES
from llvm_oracle import compile_ir

#: (processor, features): wave32 by default on gfx10+, and the wave64 rows (M) with +wavefrontsize64
TARGETS = (("gfx1010", ""), ("gfx1030", ""), ("gfx1100", ""), ("gfx1151", ""), ("gfx1201", ""), ("gfx1250", ""),
           ("gfx1100", "+wavefrontsize64"), ("gfx1151", "+wavefrontsize64"), ("gfx1201", "+wavefrontsize64"))
FIXTURE_NAMES = ("rdna/hazards.ll", "rdna/wmma_gfx1250.ll", "rdna/wmma_banks_gfx1250.ll", "llvm/loop_saxpy.ll", "llvm/lds_reduce.ll", "llvm/many_args.ll",
                 "llvm/calls_atomics.ll")
ONLY_ON = {"rdna/wmma_gfx1250.ll": "gfx1250", "rdna/wmma_banks_gfx1250.ll": "gfx1250"}  # fixtures whose intrinsics one processor has
_MITIGATION = re.compile(r"\s*(s_waitcnt_depctr|s_wait_alu|s_mov_b32 null, 0$|v_nop$|s_nop \d+$|v_mov_b32_e32 (v\d+), \2$)")
_VSCNT = re.compile(r"\s*s_waitcnt_vscnt null, 0x0$")
_ROW = re.compile(r"\(row ([A-Z])\)")


def _findings(text: str):
    module = build_module(split_lines("k.s", text), BuildOptions())
    return run_rules(module, [find_rule("missing-nop")])


def _zero_fields(line: str, target: str) -> frozenset[str] | None:
    """The depctr fields a wait line sets to 0, less hold_cnt (llvmlite's in-process LLVM caches the first
    target's default, so a listing may show `depctr_hold_cnt(0)` or `0xff83` where llc-22 prints neither)."""
    statement = parse_statement(line.strip())
    value = depctr_value(getattr(statement, "operands", ()), parse_target_id(target))
    if value is None:
        return None
    return frozenset(name for name, (low, width) in DEPCTR_FIELDS.items()
                     if name != "hold_cnt" and (value >> low) & ((1 << width) - 1) == 0)


def _restores(fix_text: str, deleted: str, target: str) -> bool:
    fix_text, deleted = fix_text.strip(), deleted.strip()
    if fix_text == deleted:
        return True
    if fix_text.split()[0] in ("s_wait_alu", "s_waitcnt_depctr") and deleted.split()[0] == fix_text.split()[0]:
        return _zero_fields(fix_text, target) == _zero_fields(deleted, target)
    return False


def _inserted_lines(listing: list[str], without: list[str]) -> set[int]:
    """Indices of `listing` lines that the listing compiled without the hazard feature does not have."""
    matcher = difflib.SequenceMatcher(None, without, listing, autojunk=False)
    return {index for tag, _, _, start, end in matcher.get_opcodes() if tag in ("insert", "replace")
            for index in range(start, end)}


@lru_cache(maxsize=1)
def results() -> tuple[Counter, Counter, list[str], list[str]]:
    """(mutants, caught) per (row, target), the findings on untouched listings, and the misses."""
    mutants: Counter = Counter()
    caught: Counter = Counter()
    untouched: list[str] = []
    missed: list[str] = []
    for name in FIXTURE_NAMES:
        ir = (FIXTURES / name).read_text()
        for target, features in TARGETS:
            if ONLY_ON.get(name, target) != target:
                continue
            label = target + features
            for opt in (0, 2):
                lines = compile_ir(ir, target, opt, features).split("\n")
                untouched += [f"{name} {label} -O{opt}: {d.message}" for d in _findings("\n".join(lines))]
                branch_waits: set[int] = set()
                if target == "gfx1010":
                    plain = compile_ir(ir, target, opt, "-lds-branch-vmem-war-hazard").split("\n")
                    branch_waits = _inserted_lines(lines, plain)
                for index, line in enumerate(lines):
                    if not (_MITIGATION.match(line) or (index in branch_waits and _VSCNT.match(line))):
                        continue
                    found = _findings("\n".join(lines[:index] + lines[index + 1:]))
                    restoring = [d for d in found if d.fix and any(_restores(edit.text, line, target) for edit in d.fix.edits)]
                    row = _ROW.search(restoring[0].message).group(1) if restoring else "?"
                    mutants[row, label] += 1
                    if restoring:
                        caught[row, label] += 1
                    else:
                        missed.append(f"{name} {label} -O{opt} line {index + 1}: {line.strip()}")
    return mutants, caught, untouched, missed


def test_untouched_llvm_output_has_no_finding():
    assert results()[2] == []


def test_deleted_mitigations_are_found_with_the_line_llvm_wrote():
    mutants, caught, _, missed = results()
    total = sum(mutants.values())
    assert total >= 200 and not missed, missed
    assert sum(caught.values()) / total >= 0.95
    for key, count in mutants.items():
        assert caught[key] / count >= 0.95, key


def test_the_corpus_exercises_the_rows_llvm_inserts_from_ir():
    """Q on gfx12, D and G on gfx1010, L on gfx1100, H on gfx11/gfx12/gfx1250, O and P on gfx1250, M on gfx11 wave64."""
    mutants = results()[0]
    for row, target in (("Q", "gfx1201"), ("D", "gfx1010"), ("G", "gfx1010"), ("L", "gfx1100"), ("H", "gfx1100"),
                        ("H", "gfx1151"), ("H", "gfx1201"), ("H", "gfx1250"), ("P", "gfx1250"),
                        ("M", "gfx1100+wavefrontsize64"), ("M", "gfx1151+wavefrontsize64"),
                        ("Q", "gfx1201+wavefrontsize64"), ("O", "gfx1250")):
        assert mutants[row, target] >= 1, (row, target)
