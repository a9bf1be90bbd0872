"""LLVM 22's own view of the matrix instructions, for differential tests (Debian's llvm-22 tools).

`mca_passes` reads the matrix pipe's cycles llvm-mca-22 gives an instruction (its pass count);
`llc_wait_states` runs two instructions through llc-22's hazard recognizer (MIR, pass
post-RA-hazard-rec) and counts the wait states of the s_nops it inserts between them. Instructions
are written as assembly; llvm-mc-22 -show-inst names their opcode and operands for the MIR.
"""

from __future__ import annotations

import itertools
import re
import shutil
import subprocess

from amdgpu_lint.isa import instruction_set
from amdgpu_lint.model.targets import parse_target_id

LLVM_MC, LLVM_MCA, LLC = "llvm-mc-22", "llvm-mca-22", "llc-22"
Widths = tuple[int, int, int]  # destination, SrcA, SrcB dwords

#: Operand widths tried until llvm-mc accepts an instance (destination first).
_WIDTHS = list(itertools.product((4, 16, 32, 8, 2), (1, 2, 4, 8), (1, 2, 4, 8)))
#: MIR of the non-matrix instructions the scenarios use: MC opcode base -> (pseudo, defines a register, implicit uses).
_PLAIN = {"V_MOV_B32_e32": ("V_MOV_B32_e32", True, ""), "V_ACCVGPR_READ_B32": ("V_ACCVGPR_READ_B32_e64", True, ""),
          "V_ACCVGPR_WRITE_B32": ("V_ACCVGPR_WRITE_B32_e64", True, ""),
          "V_FMA_F64": ("V_FMA_F64_e64", True, ", implicit $mode"),
          "GLOBAL_STORE_DWORD": ("GLOBAL_STORE_DWORD", False, ""), "DS_WRITE_B32": ("DS_WRITE_B32_gfx9", False, "")}


def missing_tools(*tools: str) -> list[str]:
    return [tool for tool in tools if shutil.which(tool) is None]


def _run(command: list[str], text: str) -> subprocess.CompletedProcess:
    return subprocess.run(command, input=text, capture_output=True, text=True, check=False)


def matrix_mnemonics(cpu: str) -> list[str]:
    """Every MFMA/SMFMAC row of our tables for the processor (not the scale-load helper)."""
    names = instruction_set(parse_target_id(f"amdgcn-amd-amdhsa--{cpu}"))
    return sorted(m for m in names if m.startswith(("v_mfma", "v_smfmac")) and m != "v_mfma_ld_scale_b32")


def _registers(file: str, base: int, count: int) -> str:
    return f"{file}{base}" if count == 1 else f"{file}[{base}:{base + count - 1}]"


def matrix_line(mnemonic: str, widths: Widths, dst: int = 0, src_a: int = 64, src_b: int = 96,
                src_c: int | None = None, file: str = "v", formats: str = "") -> str:
    """One instance; SrcC (an MFMA's fourth operand) defaults to the destination, an SMFMAC
    accumulates into its destination and reads its sparsity index from v120."""
    d, a, b = widths
    sources = f"{_registers('v', src_a, a)}, {_registers('v', src_b, b)}"
    if mnemonic.startswith("v_smfmac"):
        return f"{mnemonic} {_registers(file, dst, d)}, {sources}, v120{formats}"
    line = f"{mnemonic} {_registers(file, dst, d)}, {sources}, {_registers(file, dst if src_c is None else src_c, d)}"
    if mnemonic.startswith("v_mfma_scale"):
        line += ", v121, v122"
    return line + formats


def accepted_widths(cpu: str, mnemonics: list[str], file: str = "v") -> dict[str, Widths]:
    """The first operand widths llvm-mc accepts for each mnemonic (ones it rejects are left out)."""
    found: dict[str, Widths] = {}
    for widths in _WIDTHS:
        pending = [m for m in mnemonics if m not in found]
        if not pending:
            break
        run = _run([LLVM_MC, "-triple=amdgcn-amd-amdhsa", f"-mcpu={cpu}"],
                   "\n".join(matrix_line(m, widths, file=file) for m in pending) + "\n")
        rejected = {int(line) for line in re.findall(r"<stdin>:(\d+):\d+: error", run.stderr)}
        found.update((m, widths) for number, m in enumerate(pending, 1) if number not in rejected)
    return found


def mca_passes(cpu: str, lines: list[str]) -> list[int]:
    """The cycles llvm-mca-22 holds the matrix pipe for each instruction (one iteration)."""
    run = _run([LLVM_MCA, "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={cpu}", "--instruction-info", "-iterations=1"],
               "\n".join(lines) + "\n")
    table = run.stdout.split("Instruction Info:")[1].split("Resources:")[0]
    rows = [line.split() for line in table.splitlines() if re.match(r"\s*\d+\s+\d+\s+[\d.]+\s", line)]
    assert len(rows) == len(lines), run.stderr
    return [round(float(row[2])) for row in rows]


def _mc_instructions(cpu: str, lines: list[str]) -> list[tuple[str, list[str]]]:
    run = _run([LLVM_MC, "-triple=amdgcn-amd-amdhsa", f"-mcpu={cpu}", "-show-inst"], "\n".join(lines) + "\n")
    assert "error" not in run.stderr, run.stderr
    instructions = []
    for chunk in run.stdout.split("<MCInst #")[1:]:
        operands = ["$" + value.lower() if kind == "Reg" else value
                    for kind, value in re.findall(r"<MCOperand (Reg|Imm):([\w-]+)>", chunk)]
        instructions.append((chunk.split()[1], operands))
    assert len(instructions) == len(lines)
    return instructions


def _mir(opcode: str, operands: list[str]) -> str:
    base = re.sub(r"_(vi|gfx90a|gfx940|gfx950)$", "", opcode)
    if base in _PLAIN:
        pseudo, defines, implicit = _PLAIN[base]
        if not defines:
            return f"{pseudo} {', '.join(operands)}{implicit}, implicit $exec"
        return f"{operands[0]} = {pseudo} {', '.join(operands[1:])}{implicit}, implicit $exec"
    pseudo = re.sub(r"_gfx9(0a|40|50)_vcd$", "_vgprcd_e64", opcode)
    pseudo = re.sub(r"_(gfx9(0a|40|50)_acd|vi|gfx940)$", "_e64", pseudo)
    return f"{operands[0]} = {pseudo} {', '.join(operands[1:])}, implicit $mode, implicit $exec"


def llc_wait_states(cpu: str, pairs: list[tuple[str, str]]) -> list[int]:
    """Wait states llc-22's hazard recognizer puts between the two instructions of each pair."""
    instructions = _mc_instructions(cpu, [line for pair in pairs for line in pair])
    functions = []
    for number in range(len(pairs)):
        first, second = (_mir(*instructions[2 * number + i]) for i in (0, 1))
        functions.append(f"---\nname: f{number}\ntracksRegLiveness: false\nbody: |\n  bb.0:\n"
                         f"    {first}\n    {second}\n    S_ENDPGM 0\n...\n")
    run = _run([LLC, "-mtriple=amdgcn-amd-amdhsa", f"-mcpu={cpu}", "-run-pass=post-RA-hazard-rec", "-x", "mir", "-",
                "-o", "-"], "".join(functions))
    assert run.returncode == 0, run.stderr
    bodies = run.stdout.split("\nname:")[1:]
    assert len(bodies) == len(pairs)
    return [sum(int(n) + 1 for n in re.findall(r"S_NOP (\d+)", body)) for body in bodies]
