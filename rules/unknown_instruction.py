"""## What it finds
Instructions that do not exist on the kernel's target, such as `v_mfma_*` on gfx1030 or a
gfx950-only instruction in a gfx942 kernel, with the closest valid mnemonics and the targets
that do have it; and operands that no encoding of the instruction accepts: a wrong operand
count, or a register range of the wrong width (`global_load_dwordx4 v[0:1], ...`).

## Why it matters
llvm-mc rejects the file. Kernels ported between generations (CDNA to RDNA, gfx90a to
gfx942, gfx11 to gfx12 where memory instructions were renamed) hit this first, and a
wrong-width register range is usually an off-by-one in a `.set` register allocation.

## Example
```
.amdgcn_target "amdgcn-amd-amdhsa--gfx1030"
  v_mfma_f32_32x32x8f16 a[0:15], v[0:1], v[2:3], a[0:15]
```

## How to fix
Use the instruction the target has (the message lists the closest ones), select the right
target with `.amdgcn_target` or `--mcpu`, or fix the register range.

Whether a target has a mnemonic at all (in its wave size) comes from probing llvm-mc 22 with every
mnemonic on every processor LLVM 22 knows (`scripts/gen_mnemonic_verdicts.py`), so the finding carries
llvm-mc's own words ("instruction not supported on this GPU", "sdwa variant of this instruction is not
supported", "instruction requires wavesize=32") on every target, gfx6 and gfx1250 included; such an
instruction counts for nothing in the analyses. The probed mnemonics include every name of llvm-mc's own
mnemonic table, so a name no processor has is "not an instruction" on every target too. Special registers a
target lacks (`tba` on gfx9+,
`ttmp12` before gfx9, `null` before gfx10) and the modifiers and kinds of operand llvm-mc refuses on an
instruction as it prints it (a WMMA's `clamp`, an SGPR source of an MFMA, a literal in a VOP3 before
gfx10, DPP and SDWA controls on gfx6-7) come from probes as well (`scripts/gen_operand_verdicts.py`).

Modifier names are judged from probes too. A `name:value` whose name no instruction of any processor takes
(`sdwa_sel:1`, `offsett:4`) is llvm-mc's "not a valid operand." on every instruction the probes printed (the
names: `scripts/gen_modifier_names.py`, from our tables and llvm-mc's disassembler, each taken by llvm-mc
somewhere). llvm-mc reads a modifier's name by the mnemonic without its encoding suffix, so a name one form of a
VALU instruction refuses so is refused in every form (`v_sqrt_f32 v0, v4 byte_sel:1` on gfx90a). `clamp` and
`mul:`/`div:` are refused on an `_e32` form that refused them, and on an unsuffixed mnemonic whose VOP3 form
refuses them as well, unless an SDWA form (gfx8-10) may take them (`v_max_u32 v0, v4, v8 clamp` is refused on
gfx11, taken on gfx9), and after the controls of a VOP3 DPP or an SDWA form (`... row_mask:0xf clamp`), where
the probes of that form refused them so.

Inside operands, the fields llvm-mc checks as it reads them are checked the same way
(`lint/isa/operand_fields.py`, facts per processor probed by `scripts/gen_operand_fields.py`): ds_swizzle
offsets (FFT and ROTATE exist from gfx9; each mode's lane ids, group sizes and masks), `hwreg(...)` names per
processor, ids, offsets and widths (and LLVM 22's `{id: 51, offset: 1, size: 31}`), `sendmsg(...)` messages,
operations and streams, `s_waitcnt` counts per generation, `s_delay_alu` names, SOPK 16-bit immediates, and
expressions llvm-mc refuses as operands: floating-point arithmetic, a relocatable symbol in a 16- or 64-bit
field, an SMEM offset, a SOPK immediate or under an input modifier, or beside another literal. A name that
is none of llvm-mc's but could be a spelling it takes without printing it is left alone.

The form llvm-mc encodes a VALU instruction in is read from its suffix or its controls (DPP, DPP8, SDWA), and
what each form takes comes from probes of that form (`scripts/gen_vop_forms.py`): a DPP source that is not a
VGPR on gfx8-9, an SGPR or constant in gfx8's SDWA and a literal in any SDWA form (with `neg`, `abs`, `sext`
set aside), an output modifier there before gfx9, a form the instruction lacks on the target (`v_mac_f32` has
no SDWA form on gfx9), and a lane mask of the other wave size on gfx10+ (`vcc` or `s[0:1]` in wave32, `vcc_lo`
or `s0` in wave64, on a VOPC destination, a carry or a `v_cndmask_b32` mask, where the wave size is declared),
and the constant bus of each form (two different SGPRs in a VOP3 before gfx10, three, or a literal and two
SGPRs, from gfx10; two different literals).

The instruction-syntax tables also give each operand's register files: a VGPR in a scalar instruction or an
SGPR where a VALU or memory instruction writes or reads only VGPRs (`s_min_u32 s0, v4, s8`, `v_not_b32 s0, v4`,
`flat_atomic_or s[4:5], v8`) is llvm-mc's "invalid operand for instruction". A VALU source is judged where its
form is certain, as probed with llvm-mc 22: written `_e32`, or unsuffixed without the vcc a VOP3 form would name
(`v_cmp_eq_u32 v0, s4`; gfx9-10 may take it as SDWA) or with no VOP3 form (`v_fmaak_f32`), a VOP3-only row (`v_readlane_b32 s0, v0, v4`), and DPP,
whose src0 and src1 take only VGPRs (but src1 of the VOP3 DPP form from gfx1150). Widths include the addresses of
DS (one VGPR), flat (two), scratch (one) and global instructions (two with `off`, else one), gfx11's 16-bit
operands and, on gfx90a and later, the VGPR pair a 32-bit DPP source of a float instruction may be written as.
These operand checks of LLVM 22's instruction-syntax tables are made on gfx6
with gfx7's table (gfx6's instructions take the same operands there) and skipped on gfx1250, whose operands
gfx12's table does not always describe (`v_mul_u64` writes a VGPR pair on gfx1250).

On gfx6 and gfx1250/gfx1251, read with a neighbour's instruction-syntax table, each register operand's width and
file are also checked against probes of their own (`scripts/gen_operand_shapes.py`): the shapes of the instances
llvm-mc's disassembler prints (gfx8's on gfx6, which it cannot disassemble) and of the syntax rows, written under
every spelling the processor accepts and probed with registers of other widths and files. An operand every
probed shape its other operands fit refuses is llvm-mc's "invalid operand for instruction" (or "too few operands
for instruction") (`ds_read_i8 v[0:1], v4`, `s_mul_f32 s0, s4, s[8:9]` on gfx1250); images, true16 halves,
symbols and expressions are not judged.

Matrix and register-tuple operands are judged from probes of llvm-mc 22 as well
(`scripts/gen_matrix_operands.py`): an MFMA's VGPR/AGPR results and accumulator (AGPRs only on gfx908, one file
for both from gfx90a; an accumulator partly over the result), its `cbsz`/`abid`/`blgp` ranges and the constants,
literals and SGPRs its sources refuse (`v_accvgpr_write a0, 100`); a WMMA/SWMMAC's `index_key` range, the
`neg_lo`/`neg_hi`/`op_sel` bits it takes, `clamp`; 64-bit and wider VGPR/AGPR tuples that must start on an even
register (gfx90a and later CDNA, gfx1250: `global_load_dwordx2 v[1:2], ...`) and SGPR tuples on every processor
(`s[1:2]`, `s[2:5]`: "invalid register alignment"); AGPR data of memory instructions before gfx90a; the VGPRs
past v127 that 16-bit `_e32` and `_dpp` forms cannot reach on gfx11 and gfx12; and the operand widths that halve
in wave64 (`global_load_tr_b128`, WMMA).

Memory instructions (MUBUF, MTBUF, MIMG, SMEM, FLAT/global/scratch, DS) are checked against probes of llvm-mc 22
on every processor (`scripts/gen_memory_operands.py`): modifiers the processor lacks (`d16`, `a16`, `r128`, `dlc`,
`addr64` on gfx8+, cache policy on gfx6-7 SMRD), refused pairs and repeats (`lds tfe`), the `offset:` range of
each instruction (the SMEM offset operand, `offset0:`/`offset1:` too), constant soffsets, MTBUF `format:`,
`dfmt:`, `nfmt:` values and format names, an image's data width against dmask, `tfe` and `d16`, its address width
against `dim:` and `a16`, and a missing `dim:` on gfx10+; a FLAT or global atomic written with the register of its
returned value but without the bit that asks for it, or with the bit and without the register (`glc`, `sc0` on
gfx940-950, a `th:` RETURN policy from gfx12). Symbols and names the probes never saw are not judged.

Implicit registers llvm-mc wants written are checked against its answers for each syntax row written without them
(`scripts/gen_implicit_operands.py`): gfx8's `v_add_u32 v0, v1, v2` lacks its carry-out `vcc`, gfx6-9's
`v_addc_u32`/`v_subb_u32` and `v_div_scale_*` their `vcc` operands, while `v_cndmask_b32` and VOPC compares may
leave theirs out. A MUBUF load leaves out its data register only with `lds` (loading into LDS), and takes none
with it.
"""

from collections.abc import Iterator

from amdgpu_lint.analyses.defuse import DefUseAnalysis, declared_wave_size, kernel_wave_size
from amdgpu_lint.driver.rule import KernelContext
from amdgpu_lint.isa import InstructionSet, instruction_set, pages_with
from amdgpu_lint.isa.implicit_operands import implicit_operands
from amdgpu_lint.isa.matrix_operands import matrix_operands
from amdgpu_lint.isa.memory_operands import atomic_return_refusal, memory_refusal
from amdgpu_lint.isa.mnemonics import (
    NOT_AN_INSTRUCTION,
    MnemonicVerdicts,
    mnemonic_verdicts,
    operand_kind,
    operand_verdicts,
)
from amdgpu_lint.isa.operand_fields import field_problem
from amdgpu_lint.isa.operand_shapes import operand_shapes
from amdgpu_lint.isa.vop_forms import vop_form_refusal
from amdgpu_lint.model.diagnostics import Diagnostic, Severity
from amdgpu_lint.model.ir import Instruction
from amdgpu_lint.model.nodes import Abs, Reg, SpecialReg, UnOp
from amdgpu_lint.model.targets import Target

CODE = "AGL006"
NAME = "unknown-instruction"
SEVERITY = Severity.ERROR
SUMMARY = "instruction or operand form the target does not have"
SCOPE = "kernel"
_DUAL_FAMILY = "v_dual_mov_b32"
_TARGET_FIRST = frozenset(("exp", "export", "exp_compr"))
REQUIRES = (DefUseAnalysis,)


def check(context: KernelContext) -> Iterator[Diagnostic]:
    target = context.module.target
    if target is None:
        return
    verdicts = mnemonic_verdicts()
    wave_size, known = kernel_wave_size(context.module, context.kernel)
    columns = verdicts.columns(target, wave_size if known else None)
    masks = verdicts.columns(target, declared_wave_size(context.module, context.kernel))  # not what code suggests
    exact = target.isa_exact or target.major == 6  # gfx6's operands are those of gfx7's table
    instructions = instruction_set(target)
    def_use = context.get(DefUseAnalysis)
    assert def_use is not None  # (None without a target only)
    judged_on = (columns, masks)
    for instruction, info, facts in zip(context.kernel.instructions, def_use.per_instruction, def_use.facts,
                                        strict=True):
        verdict = facts.assembler_verdict  # worked out once per distinct instruction
        if verdict is None or verdict[0] != judged_on:
            verdict = facts.assembler_verdict = (judged_on, _verdict(instruction, target, columns, verdicts,
                                                                     instructions, masks))
        if verdict[1] is not None:
            yield context.diagnostic(instruction.where, verdict[1], kernel=context.kernel.name)
            continue
        if not exact:
            continue
        if instruction.pair is None and info.variant is not None:
            missing = []  # the target's tables have a form of it
        else:
            halves = (instruction, instruction.pair) if instruction.pair else (instruction,)
            missing = [half.mnemonic for half in halves
                       if half.mnemonic not in instructions and not (columns and verdicts.knows(half.mnemonic))]
        if missing:
            for mnemonic in missing:
                yield context.diagnostic(instruction.where, _unknown_message(mnemonic, target.name, instructions),
                                         kernel=context.kernel.name)
        elif info.problem:
            yield context.diagnostic(instruction.where, info.problem, kernel=context.kernel.name)


def _verdict(instruction: Instruction, target: Target, columns: tuple[int, ...], verdicts: MnemonicVerdicts,
             instructions: InstructionSet, masks: tuple[int, ...]) -> str | None:
    """What llvm-mc 22 refuses of the instruction on the target, from the probes: the mnemonic, a special register,
    a modifier or a kind of operand; None where they find nothing. Lane masks are judged on `masks`, the
    configurations of the wave size declared (not one the code only suggests)."""
    rejection = _rejection(instruction, columns, verdicts, instructions)
    if rejection is not None:
        return _rejection_message(instruction.mnemonic, rejection, target.name, instructions, verdicts, columns)
    register = _refused_register(instruction, columns, verdicts)
    if register is not None:
        return f"{register} ({target.name}, as llvm-mc 22 says)"
    refusal = (_refused_operands(instruction, columns) or memory_refusal(instruction, columns)
               or atomic_return_refusal(instruction, target, instructions)
               or implicit_operands().refusal(instruction, columns, instructions)
               or matrix_operands().refusal(instruction, verdicts.names(columns), instructions)
               or operand_shapes().refusal(instruction, columns))
    if refusal is not None:
        return f"'{instruction.mnemonic}': {refusal} ({target.name}, as llvm-mc 22 says)"
    return field_problem(instruction, target, columns) or vop_form_refusal(instruction, target.name, columns, masks)


def _rejection(instruction: Instruction, columns: tuple[int, ...], verdicts: MnemonicVerdicts,
               instructions: InstructionSet) -> str | None:
    """llvm-mc's message for an instruction the target rejects whatever its operands, or None. A dual-issue pair
    is judged by its family (`v_dual_mov_b32` is both an X and a Y half wherever VOPD exists): a bare half is
    read as an X half, and some halves exist only as Y. A mnemonic the probes never saw accepted (their
    candidates include the assembler's own mnemonic table) is reported unless an instruction table knows it."""
    if instruction.pair is not None:
        return verdicts.rejection(_DUAL_FAMILY, columns)
    message = verdicts.rejection(instruction.mnemonic, columns)
    if message == NOT_AN_INSTRUCTION and (instruction.mnemonic in instructions or pages_with(instruction.mnemonic)):
        return None
    return message


def _refused_register(instruction: Instruction, columns: tuple[int, ...], verdicts: MnemonicVerdicts) -> str | None:
    """llvm-mc's message for the first special register operand the target does not have (`tba` on gfx9+,
    `ttmp12` before gfx9, `null` before gfx10), or None."""
    if instruction.mnemonic in _TARGET_FIRST:
        return None  # its first operand names an export target (`null` there is one)
    for operand in _registers_named(instruction.operands):
        message = verdicts.register_rejection(operand, columns)
        if message is not None:
            return message
    return None


def _refused_operands(instruction: Instruction, columns: tuple[int, ...]) -> str | None:
    """llvm-mc's message for a modifier or a kind of operand it refuses on this instruction, from the probes."""
    if instruction.pair is not None:
        return None
    verdicts = operand_verdicts()
    return verdicts.unknown_modifier(instruction.mnemonic, instruction.modifiers) or verdicts.refusal(
        instruction.mnemonic, columns, [operand_kind(operand) for operand in instruction.operands],
        [name for name, _ in instruction.modifiers])


def _registers_named(nodes) -> Iterator[str]:
    for node in nodes:
        if isinstance(node, SpecialReg):
            yield node.name
        elif isinstance(node, Reg) and node.kind == "ttmp":
            yield from (f"ttmp{index}" for index in range(node.index, node.index + node.count))
        elif isinstance(node, (Abs, UnOp)):
            yield from _registers_named((node.operand,))


def _rejection_message(mnemonic: str, message: str, target: str, instructions: InstructionSet, verdicts: MnemonicVerdicts,
                       columns: tuple[int, ...]) -> str:
    """llvm-mc's words, with where the mnemonic does exist and what the target has instead (of the names its table
    has, those llvm-mc takes on it: gfx1250 is read with gfx12's)."""
    if message == NOT_AN_INSTRUCTION:
        return _unknown_message(mnemonic, target, instructions)
    text = f"'{mnemonic}': {message} ({target}, as llvm-mc 22 says)"
    accepting = {name.split(":")[0] for name in verdicts.accepting(mnemonic)}
    elsewhere = sorted({name for name in accepting if not name.endswith("-generic")} or accepting, key=_processor_order)
    if elsewhere and "not supported on this GPU" in message:
        text += f"; it exists on {', '.join(elsewhere[:4])}{', ...' if len(elsewhere) > 4 else ''}"
    guesses = [guess for guess in instructions.suggestions(mnemonic) if verdicts.rejection(guess, columns) is None] \
        if "not supported on this GPU" in message else []
    if guesses:
        text += f"; did you mean {' or '.join(repr(g) for g in guesses)}?"
    return text


def _processor_order(name: str) -> tuple[int, str]:
    digits = name[3:].split("-")[0]
    return (int(digits[:-2]) if "-" not in name[3:] else int(digits), name)


def _unknown_message(mnemonic: str, target: str, instructions: InstructionSet) -> str:
    message = f"'{mnemonic}' is not an instruction on {target}"
    elsewhere = [page for page in pages_with(mnemonic) if page != target]
    if elsewhere:
        message += f" (it exists on {', '.join(elsewhere[:4])}{', ...' if len(elsewhere) > 4 else ''})"
    guesses = instructions.suggestions(mnemonic)
    if guesses:
        message += f"; did you mean {' or '.join(repr(g) for g in guesses)}?"
    return message
