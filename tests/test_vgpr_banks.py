"""gfx1250's VGPR banks (issue 40, 1): `s_set_vgpr_msb` selects the high bits of the VGPR each operand slot names,
and every analysis sees the register the hardware uses. Checked against llvm-objdump-22, which prints the real
register beside each renamed operand (`v5 /*v261*/`), and against llc-22's own listing."""

import re
import shutil
import subprocess

import pytest
from amdgpu_lint.analyses.defuse import DefUseAnalysis
from amdgpu_lint.analyses.manager import AnalysisManager
from amdgpu_lint.isa.banks import in_bank
from amdgpu_lint.isa.defuse import register_units
from conftest import FIXTURES
from llvm_oracle import compile_ir

#: one instruction of each operand layout: VOP1/2/3, VOPC, VOP3 with a carry-out, VOPD (fmamk: its literal is
#: src1), DS (addtid has no address: its data is still src1), global/scratch loads, stores and returning atomics,
#: WMMA and a scaled WMMA (its scales are never renamed)
LINES = [
    "v_mov_b32 v5, v6", "v_add_f32 v1, v2, v3", "v_fma_f32 v1, s2, v3, v4", "v_cmp_gt_f32 vcc_lo, v1, v2",
    "v_cmp_gt_i32_e64 s0, v1, v2", "v_add_co_u32 v1, s4, v2, v3", "v_cndmask_b32_e64 v1, v2, v3, s0",
    "v_dual_add_f32 v2, v1, v5 :: v_dual_fmamk_f32 v3, v6, 0x402f6c8b, v4",
    "ds_store_b32 v1, v2", "ds_store_addtid_b32 v1", "ds_load_b32 v1, v2", "ds_cmpstore_rtn_b32 v1, v2, v3, v4",
    "global_load_b32 v1, v2, s[0:1]", "global_store_b32 v1, v2, s[0:1]", "global_atomic_add_u32 v1, v2, v3, s[0:1] th:TH_ATOMIC_RETURN",
    "scratch_load_b32 v5, off, s2", "scratch_store_b32 off, v2, s1",
    "v_wmma_f32_16x16x32_f16 v[0:7], v[8:15], v[16:23], v[0:7]",
    "v_wmma_scale_f32_16x16x128_f8f6f4 v[0:7], v[8:23], v[24:39], v[40:47], v1, v2",
]
_ANNOTATED = re.compile(r"v\[?(\d+)(?::\d+)?\]?(?:\.[lh])?(?:\s*/\*v\[?(\d+))?")


def _vgprs(instruction) -> list[int]:
    """The first VGPR of each VGPR operand (both halves of a VOPD pair)."""
    found = []
    for part in (instruction, instruction.pair):
        for operand in part.operands if part is not None else ():
            found += [index for kind, index in register_units(operand) if kind == "v"][:1]
    return found


def _printed(line: str) -> list[int]:
    """The first VGPR of each VGPR operand as LLVM prints it: the real one where a comment gives it."""
    operands = line.split(None, 1)[1] if " " in line else ""
    return [int(match.group(2) or match.group(1)) for match in _ANNOTATED.finditer(operands.replace("::", ","))]


def _kernel_def_use(snippet, text: str):
    module = snippet.build(text)
    kernel = module.kernels[0]
    return kernel, AnalysisManager(module, kernel).get(DefUseAnalysis)


@pytest.mark.skipif(shutil.which("llvm-mc-22") is None or shutil.which("llvm-objdump-22") is None,
                    reason="llvm-mc-22 or llvm-objdump-22 missing")
@pytest.mark.parametrize("mode", [0x39, 0xE4, 0x41, 0xFF])
def test_banks_are_the_registers_llvm_objdump_prints(snippet, tmp_path, mode):
    # 0x39: src0 bank 1, src1 2, src2 3, dst 0; 0xe4 the other way round: each slot shows in a different bank
    source = "".join(f"s_set_vgpr_msb {mode}\n{line}\n" for line in LINES)
    (tmp_path / "p.s").write_text(source)
    subprocess.run(["llvm-mc-22", "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx1250", "-filetype=obj", str(tmp_path / "p.s"),
                    "-o", str(tmp_path / "p.o")], check=True, capture_output=True)
    listing = subprocess.run(["llvm-objdump-22", "-d", "--mcpu=gfx1250", str(tmp_path / "p.o")], check=True,
                             capture_output=True, text=True).stdout
    printed = [line.split("//")[0].strip() for line in listing.splitlines() if line.startswith("\t")]
    printed = [line for line in printed if not line.startswith("s_set_vgpr_msb")]
    kernel, def_use = _kernel_def_use(snippet, '.amdgcn_target "amdgcn-amd-amdhsa--gfx1250"\nk:\n' + source)
    ours = [instruction for instruction in def_use.instructions if instruction.mnemonic != "s_set_vgpr_msb"]
    assert len(ours) == len(printed) == len(LINES)
    for line, instruction, theirs in zip(LINES, ours, printed, strict=True):
        assert _vgprs(instruction) == _printed(theirs), (line, theirs)


_MC_TESTS = FIXTURES.parent.parent / "shared" / "conformance" / "llvm" / "MC"


def _accepted(lines: list[str]) -> list[str]:
    """The lines llvm-mc-22 assembles for gfx1250."""
    answer = subprocess.run(["llvm-mc-22", "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx1250", "-o", "/dev/null"],
                            input="\n".join(lines) + "\n", capture_output=True, text=True)
    rejected = {int(number) for number in re.findall(r"<stdin>:(\d+):\d+: error", answer.stderr)}
    return [line for number, line in enumerate(lines, 1) if number not in rejected]


def _disassembled(lines: list[str], mode: int, directory) -> list[str]:
    source = directory / f"m{mode}.s"
    source.write_text("".join(f"s_set_vgpr_msb {mode}\n{line}\n" for line in lines))
    subprocess.run(["llvm-mc-22", "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx1250", "-filetype=obj", str(source), "-o",
                    str(directory / f"m{mode}.o")], check=True, capture_output=True)
    listing = subprocess.run(["llvm-objdump-22", "-d", "--mcpu=gfx1250", str(directory / f"m{mode}.o")], check=True,
                             capture_output=True, text=True).stdout
    printed = [line.split("//")[0].strip() for line in listing.splitlines() if line.startswith("\t")]
    return [line for line in printed if not line.startswith("s_set_vgpr_msb")]


@pytest.mark.skipif(shutil.which("llvm-mc-22") is None or shutil.which("llvm-objdump-22") is None
                    or not _MC_TESTS.is_dir(), reason="llvm-mc-22, llvm-objdump-22 or LLVM's MC tests missing")
def test_every_gfx1250_instruction_of_llvm_mc_tests(snippet, tmp_path):
    """Each line of LLVM's gfx1250 (and gfx12 memory) MC tests naming a VGPR, under two modes that put every slot in
    a different bank: our registers are those llvm-objdump-22 prints, operand for operand."""
    files = sorted(_MC_TESTS.glob("gfx1250_asm_*.s")) + [_MC_TESTS / f"gfx12_asm_{name}.s" for name in ("ds", "vflat")]
    lines = [line.split("//")[0].strip() for path in files if path.is_file() for line in path.read_text().splitlines()]
    lines = _accepted(list(dict.fromkeys(line for line in lines if line and not line.startswith((".", "#"))
                                         and re.search(r"\bv\[?\d", line) and "vgpr_msb" not in line)))
    assert len(lines) > 1000
    kernel, _ = _kernel_def_use(snippet, '.amdgcn_target "amdgcn-amd-amdhsa--gfx1250"\nk:\n'
                                + "".join(f" {line}\n" for line in lines))
    assert len(kernel.instructions) == len(lines)
    target = snippet.build('.amdgcn_target "amdgcn-amd-amdhsa--gfx1250"\n').target
    for mode in (0x39, 0xE4):
        for line, instruction, theirs in zip(lines, kernel.instructions, _disassembled(lines, mode, tmp_path), strict=True):
            assert _vgprs(in_bank(instruction, mode, target)) == _printed(theirs), (hex(mode), line, theirs)


def test_llc_listing_agrees_with_every_comment_and_has_no_finding(snippet):
    """llc-22's gfx1250 WMMA tile past v255: each operand LLVM annotates is the register we rename it to, the
    others keep their number, and nothing is reported."""
    listing = compile_ir((FIXTURES / "rdna" / "wmma_banks_gfx1250.ll").read_text(), "gfx1250", 2)
    assert "s_set_vgpr_msb" in listing and "/*v[" in listing
    result = snippet.lint(listing, "wmma_banks.s")
    assert [d.message for d in result.diagnostics if str(d.severity) == "error"] == []
    kernel = result.module.kernels[0]
    def_use = AnalysisManager(result.module, kernel).get(DefUseAnalysis)
    lines = listing.split("\n")
    renamed = 0
    for instruction in def_use.instructions:
        text = lines[instruction.where.line - 1].split(";")[0].strip()
        if text.startswith("v_") or text.startswith(("global_", "ds_", "scratch_")):
            assert _vgprs(instruction) == _printed(text), text
            renamed += "/*v" in text
    assert renamed > 100 and not def_use.banks_unknown
    # the fixture has what drew false row N/O errors before: a WMMA result and the next WMMA's A with the same
    # encoded registers in different banks
    wmmas = [index for index, instruction in enumerate(kernel.instructions) if instruction.mnemonic.startswith("v_wmma")]
    collisions = [(first, second) for first, second in zip(wmmas, wmmas[1:])
                  if kernel.instructions[first].operands[0] == kernel.instructions[second].operands[1]
                  and def_use.instructions[first].operands[0] != def_use.instructions[second].operands[1]]
    assert collisions


def test_a_v_nop_llvm_put_between_banked_wmmas_is_needed(snippet):
    """Deleting a v_nop llc-22 wrote after a WMMA whose result the next one reads (through the banks) is caught."""
    listing = compile_ir((FIXTURES / "rdna" / "wmma_banks_gfx1250.ll").read_text(), "gfx1250", 2)
    lines = listing.split("\n")
    nops = [index for index, line in enumerate(lines) if line.strip() == "v_nop"]
    assert nops
    for index in nops[:8]:
        mutant = "\n".join(lines[:index] + lines[index + 1:])
        found = [d for d in snippet.lint(mutant, "mutant.s").diagnostics if d.name == "missing-nop"]
        assert found, f"line {index + 1}"
