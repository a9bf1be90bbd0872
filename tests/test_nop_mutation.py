"""Mutation test: delete each s_nop LLVM inserted in MFMA-heavy and packed-math kernels; missing-nop must notice.

The only tolerated misses are LLVM -O0 artifacts: when LLVM expands a copy of a register tuple
(gfx908 v_accvgpr_write runs) or an SGPR-pair spill (v_writelane runs on gfx94x), it attaches an
implicit operand naming the whole tuple to one of the expanded instructions, and its hazard
recognizer honours that operand. The instructions themselves have no such dependency.
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

TARGETS = ("gfx908", "gfx90a", "gfx942", "gfx950")
TUPLE_EXPANSIONS = ("v_writelane_b32", "v_accvgpr_write_b32")


def _noticed(text: str) -> bool:
    module = build_module(split_lines("k.s", text), BuildOptions())
    return bool(run_rules(module, [find_rule("missing-nop")]))


@lru_cache(maxsize=1)
def results():
    per_target = defaultdict(lambda: {"nops": 0, "noticed": 0, "artifacts": 0, "unexplained": []})
    for name in ("mfma_hazards.ll", "mfma_gemm.ll", "mfma_dgemm.ll", "packed_dot.ll"):
        ir = (FIXTURES / "llvm" / name).read_text()
        for target in TARGETS:
            if not fixture_supports(name, target):
                continue
            for opt in (0, 1, 2):
                lines = compile_ir(ir, target, opt).split("\n")
                assert not _noticed("\n".join(lines)), (name, target, opt)
                for index, line in enumerate(lines):
                    if not re.match(r"\s*s_nop\b", line):
                        continue
                    entry = per_target[target]
                    entry["nops"] += 1
                    if _noticed("\n".join(lines[:index] + lines[index + 1:])):
                        entry["noticed"] += 1
                    elif opt == 0 and lines[index - 1].split()[0] == lines[index + 1].split()[0] in TUPLE_EXPANSIONS:
                        entry["artifacts"] += 1
                    else:
                        entry["unexplained"].append(f"{name} -O{opt} line {index + 1}")
    return dict(per_target)


def test_every_deleted_nop_is_noticed_or_a_tuple_expansion_artifact():
    for target, entry in results().items():
        assert entry["unexplained"] == [], target
        assert entry["noticed"] + entry["artifacts"] == entry["nops"]
        assert entry["noticed"] / entry["nops"] >= 0.9 and entry["nops"] >= 30, (target, entry)
