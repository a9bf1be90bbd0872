"""## What it finds
Two instructions closer together than the hardware allows, or a hazard LLVM 22 mitigates left unmitigated.

**gfx6-gfx9 and CDNA** (gfx908, gfx90a, gfx942, gfx950), which do not interlock on these dependencies:
an MFMA result read or overwritten before the MFMA has finished (by a VALU, a memory instruction,
`v_accvgpr_read` or another MFMA), an MFMA's SrcC overwritten before it was read, a VALU-written VGPR read by
an MFMA, a VALU-written SGPR read by a VMEM address or by `v_readlane`, VCC before `v_div_fmas`, EXEC before
DPP or MFMA, a VGPR a DPP instruction reads, M0 after an SALU write (gfx8-9), store data overwritten right
after a wide store, back-to-back `s_setreg`/`s_getreg` of one hardware register, a memory soft clause that
replays into its own results (xnack), DOT results, partial-dword results (SDWA `dst_sel`, `op_sel`, packed
math) on gfx940+, transcendental results, and the gfx940 co-execution rules. Wait states are counted as
LLVM's GCNHazardRecognizer counts them: each instruction is one, `s_nop k` is k+1, the worst path across
blocks decides. The numbers are LLVM 22's: MFMA pass counts and XDL as its scheduling models give them
(checked against llvm-mca-22 and llc-22 for every MFMA and SMFMAC of gfx908-gfx950), and where LLVM 22
measures a different number than its source, the measured number is used.

Where each CDNA row comes from: the gfx940 co-execution rows (VALU writes an SGPR read as a constant, 2;
VALU writes a VGPR that `v_readlane` reads, 1; `v_cmpx` before `v_readlane`/`v_readfirstlane`/`v_writelane`,
4; a transcendental result read by a non-transcendental VALU, 1; a partial-dword result read by the next
VALU, 1) are in the wait-state table of AMD's CDNA3 (MI300) and CDNA4 ISA guides (section 4.5, Table 11)
with LLVM's counts: errors, and the message names the table row. Where LLVM asks for more than the guide,
the finding is a warning that says so ("LLVM inserts N wait states; AMD's ISA guide does not require it"): an
SGPR or VCC read as a lane mask, the carry-in of `v_addc`/`v_subb`/`v_subbrev` (the table lists 0) or
`v_cndmask`'s condition (the guide's "Wave64 use of SGPRs" reads it as it reads a carry-in, a mask with a bit
per lane, not a constant; a `v_cmp` result selected by the next `v_cndmask` is the common case), `v_readfirstlane`
after a VGPR write (the table names `v_readlane` only), a partial-dword result the next VALU only
overwrites, and a DPP instruction's other VGPRs (second source, accumulator, old value of the destination;
AMD's examples and MIOpen protect only the permuted first source). The other rows are LLVM's.

**RDNA** (gfx10, gfx11, gfx12, gfx1250 and their generic targets) has no wait-state rows: LLVM fixes each
hazard with a specific instruction, searching back over every path with no distance limit unless a row
says otherwise. The rows (rdna-hazards.md's letters; all from LLVM 22, H, I, J and N also in AMD's RDNA3 ISA
guide, sections 7.2.8, 12.2.1.2 and 7.9):

| row | targets | hazard | what ends it | LLVM's fix |
|---|---|---|---|---|
| A | gfx101x (xnack), gfx1250 | SMEM soft clause: a member reads what an earlier one writes, or a store | any other instruction | `s_nop 0` |
| B | gfx101x | 16-byte NSA image instruction, then a buffer access with offset bit 1 or 2 | any instruction | `s_nop 0` |
| C | gfx10 | FP VMEM atomic, then `s_denorm_mode` within 3 wait states | a VALU, an `s_waitcnt` | `s_nop 2` |
| D | gfx101x | VMEM/DS reads an SGPR (EXEC, M0), an SALU/SMEM writes it | a VALU, `s_waitcnt 0`, depctr vm_vsrc 0 | `s_waitcnt_depctr depctr_vm_vsrc(0)` |
| E | gfx101x | SMEM reads an SGPR, a VALU writes it | an SALU (not SOPP), lgkmcnt(0) | `s_mov_b32 null, 0` |
| F | gfx101x | a non-VALU reads EXEC (every VMEM/DS does), a VALU writes it | a VALU writing an SGPR, depctr sa_sdst 0 | `s_waitcnt_depctr depctr_sa_sdst(0)` |
| G | gfx101x | LDS and VMEM on the two sides of a branch | `s_waitcnt_vscnt null, 0x0` | `s_waitcnt_vscnt null, 0x0` |
| H | gfx101x, gfx11, gfx12, gfx1250 | `v_cmpx`, then a `v_permlane` | a VALU other than `v_nop` | `v_mov_b32_e32 vN, vN` (its source) |
| I | gfx11, gfx12 | a VALU reads or writes an LDS-direct load's destination | VMEM/DS/export; 15 VALUs | the load's `wait_vdst`/`wait_va_vdst` |
| J | gfx11, gfx12 | a VMEM/DS access touches it | a VALU, export, `s_waitcnt 0`, depctr vm_vsrc 0 | depctr (gfx11), `wait_vm_vsrc:0` (gfx12) |
| K | gfx11 wave64 | a VALU reads Va and Vb: a VALU wrote Va, an SALU EXEC, a VALU Vb, close together | VMEM/DS/export, depctr va_vdst 0, more VALUs | `s_waitcnt_depctr depctr_va_vdst(0)` |
| L | gfx1100-gfx1103 | a transcendental result read within 5 VALUs | 6 VALUs, 2 transcendentals, VMEM/DS/export, depctr va_vdst 0 | `s_waitcnt_depctr depctr_va_vdst(0)` |
| M | gfx11 wave64 | a VALU reads an SGPR as lane mask/carry-in, an ALU writes it | the wait, before the next read | depctr sa_sdst / va_sdst / va_vcc after the write |
| N | gfx11, gfx12, gfx1250 | a WMMA result read as A/B of the next WMMA | any VALU | `v_nop` |
| O | gfx1250 | a VALU or XDL WMMA touches a running WMMA's result or sources | 2-9 VALUs by WMMA kind | `v_nop`s |
| P | gfx1250 | a transcendental's result read, or source overwritten, by the next VALU | any VALU | `v_nop` |
| Q | gfx1200, gfx1201 | an SGPR (pair a VALU has read) read after an SALU or VALU write | SMEM, buffer/image access, the wait | `s_wait_alu depctr_sa_sdst(0)` / `va_sdst` / `va_vcc` |
| R | gfx1150-gfx1153 graphics (PAL, Mesa) | a shader that exports starts below priority 2; an export run ends without `s_setprio 0` | - | `s_setprio 2` at entry; `s_setprio 0`, waits and `s_nop`s after |
| S, T, U, V | gfx1250 | status `s_getreg`; async barrier arrive; s102/s103 as flat scratch base; MODE bit 0 `s_setreg` | - | `s_wait_alu 0`; `depctr_vm_vsrc(0)` around; `sa_sdst va_sdst`; two `v_nop` |
| X | gfx11, gfx12 | `s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)` | - | `s_nop 0` before it |

`s_waitcnt_depctr` and `s_wait_alu` are read field by field, as named fields or raw immediates (`0xffe3` is
vm_vsrc 0, `0xfffe` sa_sdst 0); `s_delay_alu` is a scheduling hint and ends nothing. Rows K and M apply to
wave64 only: where the wave size is not known, they stay quiet. Row R depends on the calling convention (LLVM
skips compute shaders and kernels), so it is checked only in PAL and Mesa listings.

## Why it matters
The second instruction reads the old value (or the first one's write lands after the second): wrong numbers,
no fault, and the behaviour changes with clocks and neighbours. On RDNA the hardware bugs behind rows D-G and
K-M corrupt SGPRs, EXEC or VGPRs the same way.

## Example
```
v_mfma_f32_32x32x8f16 a[0:15], v[0:1], v[2:3], a[0:15]
v_accvgpr_read_b32 v4, a0          ; needs 18 wait states on gfx908

s_mov_b32 s0, 7                    ; gfx1201
v_add_nc_u32_e32 v2, s0, v0        ; row Q: needs s_wait_alu depctr_sa_sdst(0) before it
```

## How to fix
Insert what the message gives, where it says (`amdgpu-lint check --fix` does it): `s_nop` on gfx6-gfx9 and
CDNA; on RDNA the instruction llc-22 writes there (`s_waitcnt_depctr ...` on gfx10/gfx11, `s_wait_alu ...` on
gfx12, `v_nop`, `s_mov_b32 null, 0`, ...), or the LDS-direct load's own wait field. Or move independent work
between the two.
"""

import re
from collections.abc import Iterator

from amdgpu_lint.analyses.hazards import Hazard, HazardAnalysis
from amdgpu_lint.driver.rule import KernelContext
from amdgpu_lint.model.diagnostics import DISPLAY_ONLY, SAFE, Diagnostic, Edit, Fix, Severity
from amdgpu_lint.model.ir import Instruction
from amdgpu_lint.model.targets import Target

CODE = "AGL301"
NAME = "missing-nop"
SEVERITY = Severity.ERROR
SUMMARY = "dependent instructions without the wait states or the wait LLVM puts between them"
SCOPE = "kernel"
REQUIRES = (HazardAnalysis,)  # and on RDNA targets RdnaHazardAnalysis, imported only when one is linted

TYPE_CHECKING = False
if TYPE_CHECKING:
    from amdgpu_lint.analyses.rdna_hazards import RdnaHazard


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
        from amdgpu_lint.analyses.rdna_hazards import RdnaHazardAnalysis

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


def _rdna_diagnostic(context: KernelContext, target: Target, hazard: "RdnaHazard") -> Diagnostic:
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
    where, fix = "before this line", context.insert_before(instruction.where, list(hazard.lines), f"insert {insertion}",
                                                          isolated=True)
    if hazard.after is not None:
        where = "after this line"
        following = kernel.instructions[hazard.after + 1] if hazard.after + 1 < len(kernel.instructions) else None
        if following is not None and hazard.after + 1 not in kernel.labels.values():
            fix = context.insert_before(following.where, list(hazard.lines), f"insert {insertion}", isolated=True)
        else:  # a label (a block the wait must not move into) or nothing follows: right below the line
            fix = context.insert_after(instruction.where, list(hazard.lines), f"insert {insertion}", isolated=True)
    return context.diagnostic(instruction.where, f"{message}; insert {insertion} {where}", kernel=kernel.name, fix=fix)


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
