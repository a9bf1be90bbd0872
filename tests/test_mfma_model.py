"""MFMA/SMFMAC pass counts and hazards against LLVM 22 itself, for every matrix instruction of our
gfx908, gfx90a, gfx942 and gfx950 tables (where Debian's llvm-22 tools are installed).

The pass counts are llvm-mca-22's matrix-pipe cycles; the hazards are the wait states llc-22's
hazard recognizer inserts between an MFMA and what follows it: a VALU reading or overwriting the
result or SrcC, a store, an LDS write, v_accvgpr_read, v_fma_f64, and a second MFMA reading the
result as SrcA/B, as the exact SrcC or overlapping it (every instruction paired with one of each
class: XDL or not, DGEMM, SMFMAC, each pass count).
"""

import re
from functools import cache

import pytest
from amdgpu_lint.driver.linter import run_rules
from amdgpu_lint.frontend.builder import build_module
from amdgpu_lint.frontend.options import BuildOptions
from amdgpu_lint.frontend.source import split_lines
from amdgpu_lint.frontend.syntax import parse_statement
from amdgpu_lint.isa.defuse import def_use
from amdgpu_lint.rules import find_rule
from amdgpu_lint.model.targets import parse_target_id
from llvm_mfma_oracle import (
    LLC,
    LLVM_MC,
    LLVM_MCA,
    accepted_widths,
    llc_wait_states,
    matrix_line,
    matrix_mnemonics,
    mca_passes,
    missing_tools,
)

TARGETS = ("gfx908", "gfx90a", "gfx942", "gfx950")
#: gfx950's f8f6f4 forms by cbsz/blgp (fp8 8 dwords, fp6 6, fp4 4 per source).
F8F6F4_FORMATS = ((8, 8, ""), (6, 6, " cbsz:2 blgp:2"), (4, 8, " cbsz:4"), (4, 4, " cbsz:4 blgp:4"))


def _skip_without(*tools):
    if missing := missing_tools(*tools):
        pytest.skip(f"{', '.join(missing)} not installed (Debian's llvm-22)")


def _klass(cpu: str, line: str):
    statement = parse_statement(line)
    target = parse_target_id(f"amdgcn-amd-amdhsa--{cpu}")
    return def_use(statement.name, statement.operands, statement.modifiers, target, 64).klass


@cache
def _widths(cpu: str) -> dict:
    return accepted_widths(cpu, matrix_mnemonics(cpu), "a" if cpu == "gfx908" else "v")


def _forms(mnemonic: str, widths):
    """(widths, format modifiers) of each form to check."""
    if "f8f6f4" not in mnemonic:
        return [(widths, "")]
    return [((widths[0], a, b), formats) for a, b, formats in F8F6F4_FORMATS]


@pytest.mark.parametrize("cpu", TARGETS)
def test_pass_counts_match_llvm_mca(cpu):
    """llvm-mca gives f8f6f4's machine opcode the fp6/fp4 count whatever the formats; llc's hazard
    recognizer (next test) doubles it for fp8/bf8, so only the 6-bit form is compared here."""
    _skip_without(LLVM_MC, LLVM_MCA)
    file = "a" if cpu == "gfx908" else "v"
    widths = _widths(cpu)
    assert len(widths) >= {"gfx908": 20, "gfx90a": 27, "gfx942": 89, "gfx950": 109}[cpu]
    forms = [(m, *_forms(m, w)[1 if "f8f6f4" in m else 0]) for m, w in widths.items()]
    lines = [matrix_line(m, w, file=file, formats=formats) for m, w, formats in forms]
    theirs = mca_passes(cpu, lines)
    ours = [_klass(cpu, line).passes for line in lines]
    assert [(line, o, t) for line, o, t in zip(lines, ours, theirs, strict=True) if o != t] == []


def _needed(cpu: str, first: str, second: str) -> int:
    text = f'.amdgcn_target "amdgcn-amd-amdhsa--{cpu}"\nk:\n {first}\n {second}\n s_endpgm\n'
    found = run_rules(build_module(split_lines("k.s", text), BuildOptions()), [find_rule("missing-nop")])
    return int(re.search(r"needs (\d+) wait states", found[0].message).group(1)) if found else 0


def _representatives(cpu: str, forms: list[tuple[str, tuple, str]]) -> list[tuple[str, tuple, str]]:
    """One form of each class (XDL or not, DGEMM, SMFMAC, pass count)."""
    chosen = {}
    for mnemonic, widths, formats in forms:
        klass = _klass(cpu, matrix_line(mnemonic, widths, formats=formats))
        chosen.setdefault((klass.passes, klass.xdl, klass.matrix, "f64" in mnemonic), (mnemonic, widths, formats))
    return list(chosen.values())


def _scenarios(cpu: str, widths: dict) -> list[tuple[str, str]]:
    file = "a" if cpu == "gfx908" else "v"
    forms = [(m, w, f) for m, base in sorted(widths.items()) for w, f in _forms(m, base)]
    pairs = []
    for mnemonic, w, formats in forms:
        smfmac = mnemonic.startswith("v_smfmac")

        def line(m=mnemonic, ws=w, fs=formats, **places):
            return matrix_line(m, ws, file=places.pop("file", file), formats=fs, **places)

        first = line(src_c=None if smfmac else 32)
        d = w[0]
        if file == "a":
            pairs += [(first, "v_accvgpr_read_b32 v250, a0"), (first, "v_accvgpr_write_b32 a0, v1"),
                      (first, "v_accvgpr_write_b32 a32, v1")]
        else:
            pairs += [(first, second) for second in (
                "v_mov_b32 v250, v0", "v_mov_b32 v0, 0", "v_mov_b32 v32, 0", "v_mov_b32 v120, 0",
                "global_store_dword v[250:251], v0, off", f"global_store_dword v[250:251], v{d - 1}, off",
                "ds_write_b32 v250, v0", "v_fma_f64 v[250:251], v[240:241], v[242:243], v[244:245]")]
            pairs.append((line(src_c=None if smfmac else 32, file="a"), "v_accvgpr_read_b32 v250, a0"))
        for m, ws, fs in _representatives(cpu, forms):
            other_smfmac = m.startswith("v_smfmac")
            accumulator = None if other_smfmac else 200
            pairs.append((first, line(m, ws, fs, dst=160, src_a=0, src_c=accumulator)))
            pairs.append((first, line(m, ws, fs, dst=160, src_b=0, src_c=accumulator)))
            if other_smfmac:
                pairs.append((first, line(m, ws, fs, dst=160).replace("v120", f"{file}0")))
                if ws[0] == d:
                    pairs.append((first, line(m, ws, fs, dst=0)))
                continue
            if ws[0] == d:
                pairs.append((first, line(m, ws, fs, dst=160, src_c=0)))
            if d > 2 and ws[0] <= d:
                pairs.append((first, line(m, ws, fs, dst=160, src_c=2)))
            elif ws[0] > d:
                pairs.append((first, line(m, ws, fs, dst=160, src_c=0)))
    return pairs


@pytest.mark.parametrize("cpu", TARGETS)
def test_hazard_wait_states_match_llc(cpu):
    _skip_without(LLVM_MC, LLC)
    widths = _widths(cpu)
    pairs = _scenarios(cpu, widths)
    theirs = llc_wait_states(cpu, pairs)
    ours = [_needed(cpu, first, second) for first, second in pairs]
    mismatches = [(pair, o, t) for pair, o, t in zip(pairs, ours, theirs, strict=True) if o != t]
    assert len(pairs) >= 10 * len(widths) and mismatches == []
