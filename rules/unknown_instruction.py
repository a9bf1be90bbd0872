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
mnemonic table, so a name no processor has is "not an instruction" on every target too. Special registers a target lacks (`tba` on gfx9+,
`ttmp12` before gfx9, `null` before gfx10) and the modifiers and kinds of operand llvm-mc refuses on an
instruction as it prints it (a WMMA's `clamp`, an SGPR source of an MFMA, a literal in a VOP3 before
gfx10, DPP and SDWA controls on gfx6-7) come from probes as well (`scripts/gen_operand_verdicts.py`).
The operand checks of LLVM 22's instruction-syntax tables are made on gfx6 with gfx7's table (gfx6's
instructions take the same operands there) and skipped on gfx1250, whose operands gfx12's table does not
always describe (`v_mul_u64` writes a VGPR pair on gfx1250).
"""

from collections.abc import Iterator

from amdgpu_lint.analyses.defuse import DefUseAnalysis, kernel_wave_size
from amdgpu_lint.driver.rule import KernelContext
from amdgpu_lint.isa import instruction_set, pages_with
from amdgpu_lint.isa.mnemonics import (
    NOT_AN_INSTRUCTION,
    MnemonicVerdicts,
    mnemonic_verdicts,
    operand_kind,
    operand_verdicts,
)
from amdgpu_lint.model.diagnostics import Diagnostic, Severity
from amdgpu_lint.model.nodes import Abs, Reg, SpecialReg, UnOp

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
    exact = target.isa_exact or target.major == 6  # gfx6's operands are those of gfx7's table
    instructions = instruction_set(target)
    def_use = context.get(DefUseAnalysis)
    for instruction, info, facts in zip(context.kernel.instructions, def_use.per_instruction, def_use.facts,
                                        strict=True):
        verdict = facts.assembler_verdict  # worked out once per distinct instruction
        if verdict is None or verdict[0] != columns:
            verdict = facts.assembler_verdict = (columns, _verdict(instruction, target.name, columns, verdicts,
                                                                   instructions))
        if verdict[1] is not None:
            yield context.diagnostic(instruction.where, verdict[1], kernel=context.kernel.name)
            continue
        if not exact:
            continue
        halves = (instruction, instruction.pair) if instruction.pair else (instruction,)
        if instruction.pair is None and info.variant is not None:
            missing = []  # the target's tables have a form of it
        else:
            missing = [half.mnemonic for half in halves
                       if half.mnemonic not in instructions and not (columns and verdicts.knows(half.mnemonic))]
        if missing:
            for mnemonic in missing:
                yield context.diagnostic(instruction.where, _unknown_message(mnemonic, target.name, instructions),
                                         kernel=context.kernel.name)
        elif info.problem:
            yield context.diagnostic(instruction.where, info.problem, kernel=context.kernel.name)


def _verdict(instruction, target: str, columns: tuple[int, ...], verdicts: MnemonicVerdicts,
             instructions) -> str | None:
    """What llvm-mc 22 refuses of the instruction on the target, from the probes: the mnemonic, a special register,
    a modifier or a kind of operand; None where they find nothing."""
    rejection = _rejection(instruction, columns, verdicts, instructions)
    if rejection is not None:
        return _rejection_message(instruction.mnemonic, rejection, target, instructions, verdicts)
    register = _refused_register(instruction, columns, verdicts)
    if register is not None:
        return f"{register} ({target}, as llvm-mc 22 says)"
    refusal = _refused_operands(instruction, columns)
    if refusal is not None:
        return f"'{instruction.mnemonic}': {refusal} ({target}, as llvm-mc 22 says)"
    return None


def _rejection(instruction, columns: tuple[int, ...], verdicts: MnemonicVerdicts, instructions) -> str | None:
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


def _refused_register(instruction, columns: tuple[int, ...], verdicts: MnemonicVerdicts) -> str | None:
    """llvm-mc's message for the first special register operand the target does not have (`tba` on gfx9+,
    `ttmp12` before gfx9, `null` before gfx10), or None."""
    if instruction.mnemonic in _TARGET_FIRST:
        return None  # its first operand names an export target (`null` there is one)
    for operand in _registers_named(instruction.operands):
        message = verdicts.register_rejection(operand, columns)
        if message is not None:
            return message
    return None


def _refused_operands(instruction, columns: tuple[int, ...]) -> str | None:
    """llvm-mc's message for a modifier or a kind of operand it refuses on this instruction, from the probes."""
    if instruction.pair is not None:
        return None
    return operand_verdicts().refusal(instruction.mnemonic, columns,
                                      [operand_kind(operand) for operand in instruction.operands],
                                      [name for name, _ in instruction.modifiers])


def _registers_named(nodes) -> Iterator[str]:
    for node in nodes:
        if isinstance(node, SpecialReg):
            yield node.name
        elif isinstance(node, Reg) and node.kind == "ttmp":
            yield from (f"ttmp{index}" for index in range(node.index, node.index + node.count))
        elif isinstance(node, (Abs, UnOp)):
            yield from _registers_named((node.operand,))


def _rejection_message(mnemonic: str, message: str, target: str, instructions, verdicts: MnemonicVerdicts) -> str:
    """llvm-mc's words, with where the mnemonic does exist and what the target has instead."""
    if message == NOT_AN_INSTRUCTION:
        return _unknown_message(mnemonic, target, instructions)
    text = f"'{mnemonic}': {message} ({target}, as llvm-mc 22 says)"
    accepting = {name.split(":")[0] for name in verdicts.accepting(mnemonic)}
    elsewhere = sorted({name for name in accepting if not name.endswith("-generic")} or accepting, key=_processor_order)
    if elsewhere and "not supported on this GPU" in message:
        text += f"; it exists on {', '.join(elsewhere[:4])}{', ...' if len(elsewhere) > 4 else ''}"
    guesses = instructions.suggestions(mnemonic) if "not supported on this GPU" in message else []
    if guesses:
        text += f"; did you mean {' or '.join(repr(g) for g in guesses)}?"
    return text


def _processor_order(name: str) -> tuple[int, str]:
    digits = name[3:].split("-")[0]
    return (int(digits[:-2]) if "-" not in name[3:] else int(digits), name)


def _unknown_message(mnemonic: str, target: str, instructions) -> str:
    message = f"'{mnemonic}' is not an instruction on {target}"
    elsewhere = [page for page in pages_with(mnemonic) if page != target]
    if elsewhere:
        message += f" (it exists on {', '.join(elsewhere[:4])}{', ...' if len(elsewhere) > 4 else ''})"
    guesses = instructions.suggestions(mnemonic)
    if guesses:
        message += f"; did you mean {' or '.join(repr(g) for g in guesses)}?"
    return message
