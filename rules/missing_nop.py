"""## What it finds
Two instructions closer together than the hardware allows on gfx6-gfx9 and CDNA (gfx908,
gfx90a, gfx942, gfx950), which do not interlock on these dependencies: an MFMA result read
or overwritten before the MFMA has finished (by a VALU, a memory instruction, `v_accvgpr_read`
or another MFMA), an MFMA's SrcC overwritten before it was read, a VALU-written VGPR read by an
MFMA, a VALU-written SGPR read by a VMEM address or by `v_readlane`, VCC before `v_div_fmas`,
EXEC before DPP or MFMA, M0 after an SALU write, store data overwritten right after a wide store,
back-to-back `s_setreg`/`s_getreg` of one hardware register, DOT results, partial-dword
results (SDWA `dst_sel`, `op_sel`, packed math) on gfx940+, transcendental results, and the
gfx940 co-execution rules. RDNA (gfx10-12) hazards are not checked yet. Wait states are counted as LLVM's
GCNHazardRecognizer counts them: each instruction is one, `s_nop k` is k+1, the worst path
across blocks decides; where LLVM 22 measures a different number than its source, the
measured number is used.

## Why it matters
The second instruction reads the old value (or the first one's write lands after the second):
wrong numbers, no fault, and the behaviour changes with clocks and neighbours.

## Example
```
v_mfma_f32_32x32x8f16 a[0:15], v[0:1], v[2:3], a[0:15]
v_accvgpr_read_b32 v4, a0          ; needs 18 wait states on gfx908
```

## How to fix
Insert the `s_nop` the message gives (the fix does it), or move independent work between the two.
"""

from collections.abc import Iterator

from amdgpu_lint.analyses.hazards import HazardAnalysis
from amdgpu_lint.diagnostics import Diagnostic, Severity
from amdgpu_lint.driver.rule import KernelContext

CODE = "AGL301"
NAME = "missing-nop"
SEVERITY = Severity.ERROR
SUMMARY = "dependent instructions closer than the hardware's wait states"
SCOPE = "kernel"
REQUIRES = (HazardAnalysis,)


def nops_for(states: int) -> list[str]:
    """`s_nop` lines giving `states` wait states (one s_nop gives at most 16)."""
    lines = []
    while states > 0:
        chunk = min(states, 16)
        lines.append(f"s_nop {chunk - 1}")
        states -= chunk
    return lines


def check(context: KernelContext) -> Iterator[Diagnostic]:
    report = context.get(HazardAnalysis)
    if report is None:
        return
    kernel = context.kernel
    target = context.module.target
    for consumer, hazard in sorted(report.hazards.items()):
        instruction = kernel.instructions[consumer]
        producer = kernel.instructions[hazard.producer]
        missing = hazard.needed - hazard.present
        lines = nops_for(missing)
        insertion = " and ".join(f"`{line}`" for line in lines)
        yield context.diagnostic(
            instruction.where,
            f"{hazard.row.description} (row {hazard.row.number}): {producer.mnemonic} at {producer.where} needs "
            f"{hazard.needed} wait states before {instruction.mnemonic} on {target.name}, there are {hazard.present}; "
            f"insert {insertion} before this line",
            kernel=kernel.name,
            fix=context.insert_before(instruction.where, lines, f"insert {insertion}"),
        )
