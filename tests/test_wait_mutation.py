"""Mutation test: delete each wait LLVM placed, one at a time; missing-wait must notice.

A deletion may go unnoticed only for a documented reason:
- "no-op": nothing the wait counts is outstanding there (redundant-wait reports the original
  wait; LLVM -O0 keeps memory-legalizer waits an earlier one already covered);
- "ordering": the wait protects no register, only memory order: the next memory access after it
  is an atomic, a barrier, cache maintenance, a call/return, or an access with coherence bits
  (glc/sc0/sc1/dlc/nt/scope/th), which is how LLVM's memory model spells release and
  volatile. Ordering is a property of the source program that assembly does not carry.
Any other unnoticed deletion fails the test.
"""

import re
from collections import defaultdict
from functools import lru_cache

from amdgpu_lint.driver.linter import run_rules
from amdgpu_lint.frontend.builder import build_module
from amdgpu_lint.frontend.options import BuildOptions
from amdgpu_lint.frontend.source import split_lines
from amdgpu_lint.rules import find_rule
from conftest import FIXTURES
from llvm_oracle import compile_ir, fixture_supports

TARGETS = ["gfx900", "gfx908", "gfx90a", "gfx942", "gfx950", "gfx1030", "gfx1100", "gfx1201"]
WAIT = re.compile(r"^\s*(s_waitcnt(_vscnt|_vmcnt|_lgkmcnt|_expcnt)?|s_wait_(loadcnt|storecnt|samplecnt|bvhcnt|expcnt|"
                  r"dscnt|kmcnt|loadcnt_dscnt|storecnt_dscnt))\b")
ORDERING_BITS = re.compile(r"\b(glc|sc0|sc1|dlc|nt|scope:|th:)")
ORDERING_OPS = ("s_barrier", "buffer_gl", "buffer_wbinvl1", "buffer_inv", "buffer_wbl2", "global_inv", "global_wb",
                "s_swappc", "s_call", "s_setpc", "s_getpc", "s_endpgm")
MEMORY_PREFIXES = ("global_", "buffer_", "scratch_", "flat_", "ds_", "s_load", "s_store", "s_buffer")


def _findings(text: str, rule: str):
    module = build_module(split_lines("k.s", text), BuildOptions())
    return [(d.line, d.message) for d in run_rules(module, [find_rule(rule)])]


def _why_unnoticed(lines: list[str], index: int, redundant_lines: set[int]) -> str | None:
    if index + 1 in redundant_lines:
        return "no-op"
    for line in lines[index + 1:]:
        text = line.split(";")[0].strip()
        if not text or text.endswith(":") or text.startswith(".") or WAIT.match(text):
            continue
        word = text.split()[0]
        if word.startswith(ORDERING_OPS) or "_atomic" in word:
            return "ordering"
        if word.startswith(MEMORY_PREFIXES):
            return "ordering" if ORDERING_BITS.search(text) else None
    return "ordering"  # falls off the end: no later instruction reads a protected register


@lru_cache(maxsize=1)
def mutation_results():
    results = defaultdict(lambda: {"waits": 0, "noticed": 0, "no-op": 0, "ordering": 0, "unexplained": []})
    for ir_path in sorted((FIXTURES / "llvm").glob("*.ll")):
        for target in TARGETS:
            if not fixture_supports(ir_path.name, target):
                continue
            for opt in (0, 2):
                assembly = compile_ir(ir_path.read_text(), target, opt)
                assert _findings(assembly, "missing-wait") == []
                redundant = {line for line, _ in _findings(assembly, "redundant-wait")}
                lines = assembly.split("\n")
                for index, line in enumerate(lines):
                    if not WAIT.match(line):
                        continue
                    entry = results[target]
                    entry["waits"] += 1
                    mutated = "\n".join(lines[:index] + lines[index + 1:])
                    if _findings(mutated, "missing-wait"):
                        entry["noticed"] += 1
                        continue
                    reason = _why_unnoticed(lines, index, redundant)
                    if reason is None:
                        entry["unexplained"].append(f"{ir_path.name} -O{opt} line {index + 1}: {line.strip()}")
                    else:
                        entry[reason] += 1
    return dict(results)


def test_every_deleted_wait_is_noticed_or_explained():
    for target, entry in mutation_results().items():
        assert entry["unexplained"] == [], target


def test_recall_per_target():
    """Register-protecting waits are all noticed; overall recall stays where it was measured."""
    for target, entry in mutation_results().items():
        register_waits = entry["waits"] - entry["no-op"] - entry["ordering"]
        assert entry["noticed"] == register_waits
        assert entry["noticed"] / entry["waits"] >= 0.65, (target, entry)
        assert entry["waits"] >= 30
