"""## What it finds
Two instructions closer together than the hardware allows on gfx6-gfx9 and CDNA (gfx908,
gfx90a, gfx942, gfx950), which do not interlock on these dependencies: an MFMA result read
or overwritten before the MFMA has finished (by a VALU, a memory instruction, `v_accvgpr_read`
or another MFMA), an MFMA's SrcC overwritten before it was read, a VALU-written VGPR read by an
MFMA, a VALU-written SGPR read by a VMEM address or by `v_readlane`, VCC before `v_div_fmas`,
EXEC before DPP or MFMA, a VGPR a DPP instruction reads, M0 after an SALU write (gfx8-9),
store data overwritten right after a wide store, back-to-back `s_setreg`/`s_getreg` of one
hardware register, a memory soft clause that replays into its own results (xnack), DOT results,
partial-dword results (SDWA `dst_sel`, `op_sel`, packed math) on gfx940+, transcendental
results, and the gfx940 co-execution rules. RDNA (gfx10-12) hazards are not checked yet. Wait
states are counted as LLVM's GCNHazardRecognizer counts them: each instruction is one, `s_nop k`
is k+1, the worst path across blocks decides. The numbers are LLVM 22's: MFMA pass counts and
XDL as its scheduling models give them (checked against llvm-mca-22 and llc-22 for every MFMA
and SMFMAC of gfx908-gfx950), and where LLVM 22 measures a different number than its source, the
measured number is used.

LLVM also asks for two wait states before a DPP instruction reads a VGPR that a VALU wrote as
its second source, accumulator or the old value of its destination; AMD's examples and MIOpen
protect only the permuted first source, so those findings are warnings (the permuted source
is an error).

## Why it matters
The second instruction reads the old value (or the first one's write lands after the second):
wrong numbers, no fault, and the behaviour changes with clocks and neighbours.

## Example
```
v_mfma_f32_32x32x8f16 a[0:15], v[0:1], v[2:3], a[0:15]
v_accvgpr_read_b32 v4, a0          ; needs 18 wait states on gfx908
```

## How to fix
Insert the `s_nop` the message gives (`amdgpu-lint check --fix` does it), or move independent work
between the two.
"""

import re
from collections.abc import Iterator

from amdgpu_lint.analyses.hazards import Hazard, HazardAnalysis
from amdgpu_lint.analyses.rdna_hazards import RdnaHazard, RdnaHazardAnalysis
from amdgpu_lint.driver.rule import KernelContext
from amdgpu_lint.model.diagnostics import DISPLAY_ONLY, SAFE, Diagnostic, Edit, Fix, Severity
from amdgpu_lint.model.ir import Instruction
from amdgpu_lint.model.targets import Target

CODE = "AGL301"
NAME = "missing-nop"
SEVERITY = Severity.ERROR
SUMMARY = "dependent instructions closer than the hardware's wait states"
SCOPE = "kernel"
REQUIRES = (HazardAnalysis, RdnaHazardAnalysis)


def nops_for(states: int) -> list[str]:
    """`s_nop` lines giving `states` wait states (one s_nop gives at most 16)."""
    lines = []
    while states > 0:
        chunk = min(states, 16)
        lines.append(f"s_nop {chunk - 1}")
        states -= chunk
    return lines


def check(context: KernelContext) -> Iterator[Diagnostic]:
    target = context.module.target
    if target is not None and target.major >= 10:
        rdna = context.get(RdnaHazardAnalysis)
        if rdna is not None:
            yield from (_rdna_diagnostic(context, target, hazard) for hazard in rdna.hazards)
        return
    report = context.get(HazardAnalysis)
    if report is None or target is None:  # the analysis is None without a target
        return
    findings: list[tuple[int, Hazard, Severity | None]] = [
        (consumer, hazard, None) for consumer, hazard in report.hazards.items()]
    findings += [(consumer, hazard, Severity.WARNING) for consumer, hazard in report.advisories.items()]
    for consumer, hazard, severity in sorted(findings, key=lambda finding: (finding[0], finding[2] is not None)):
        yield _diagnostic(context, target, consumer, hazard, severity)


def _diagnostic(context: KernelContext, target: Target, consumer: int, hazard: Hazard,
                severity: Severity | None) -> Diagnostic:
    kernel = context.kernel
    instruction = kernel.instructions[consumer]
    producer = kernel.instructions[hazard.producer]
    lines = nops_for(hazard.needed - hazard.present)
    insertion = " and ".join(f"`{line}`" for line in lines)
    why = f" ({hazard.row.advisory})" if hazard.row.advisory else f" ({hazard.row.guide})" if hazard.row.guide else ""
    return context.diagnostic(
        instruction.where,
        f"{hazard.row.description} (row {hazard.row.number}): {producer.mnemonic} at {producer.where} needs "
        f"{hazard.needed} wait states before {instruction.mnemonic} on {target.name}, there are "
        f"{hazard.present}; insert {insertion} before this line{why}",
        kernel=kernel.name,
        severity=severity,
        fix=context.insert_before(instruction.where, lines, f"insert {insertion}", isolated=True),  # hazards are independent
    )


def _rdna_diagnostic(context: KernelContext, target: Target, hazard: RdnaHazard) -> Diagnostic:
    kernel = context.kernel
    instruction = kernel.instructions[hazard.consumer]
    if hazard.producer is not None:
        producer = kernel.instructions[hazard.producer]
        cause = f"{producer.mnemonic} at {producer.where} reaches {instruction.mnemonic}"
    else:
        cause = hazard.detail or f"{instruction.mnemonic}"
    message = f"{hazard.row.description} (row {hazard.row.letter}): {cause} on {target.name} with nothing between that LLVM accepts"
    if hazard.field is not None:
        name, value = hazard.field
        return context.diagnostic(instruction.where, f"{message}; set `{name}:{value}` on this line", kernel=kernel.name,
                                  fix=_set_field(context, instruction, name, value))
    insertion = " and ".join(f"`{line}`" for line in hazard.lines)
    where, at = "before this line", instruction.where
    if hazard.after is not None:
        where = "after this line"
        following = kernel.instructions[hazard.after + 1] if hazard.after + 1 < len(kernel.instructions) else None
        at = following.where if following is not None else instruction.where
    return context.diagnostic(
        instruction.where, f"{message}; insert {insertion} {where}", kernel=kernel.name,
        fix=context.insert_before(at, list(hazard.lines), f"insert {insertion}", isolated=True),
    )


def _set_field(context: KernelContext, instruction: Instruction, name: str, value: int) -> Fix:
    """A fix setting a `name:value` field of the instruction on its own line (appended when the line lacks it)."""
    where = instruction.where
    source = context.module.sources.get(where.path)
    text = source.line_text(where.line) if source else ""
    code, comment = (text.split(";", 1) + [""])[:2] if ";" in text else (text, "")
    if re.search(rf"\b{name}:\s*\w+", code):
        code = re.sub(rf"\b{name}:\s*\w+", f"{name}:{value}", code)
    else:
        code = f"{code.rstrip()} {name}:{value}" + (" " if comment else "")
    new = code + (f";{comment}" if comment else "")
    applicability = DISPLAY_ONLY if where.chain or source is None else SAFE
    edit = Edit(where.path, where.line, 1, where.line, len(text) + 1, new)
    return Fix(f"set {name}:{value}", (edit,), applicability, isolated=True)
