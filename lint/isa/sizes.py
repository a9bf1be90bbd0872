"""Encoded size of an instruction in bytes, as llvm-mc 22 would encode it, or None when unsure.

32-bit encodings (SOP*, VOP1/VOP2/VOPC, gfx6-7 SMRD) take 4 bytes, every other encoding 8, and a
literal constant adds 4. An unsuffixed VALU mnemonic whose operands do not fit its 32-bit form
(a non-VGPR second source, an explicit carry or compare destination other than VCC, source
modifiers, clamp/omod/op_sel) is encoded as VOP3, as the assembler promotes it. gfx10+ image
instructions with separate address registers (NSA) add a dword per four extra addresses. Where
the row or the operands leave the form open (DPP, SDWA and VOPD details, unknown instructions),
the size is None and callers must not rely on it.
"""

from __future__ import annotations

from ..model.nodes import Abs, Call, ListExpr, Node, Num, Reg, SpecialReg, UnOp, signed_number
from ..model.targets import Target
from . import Variant

_SHORT = frozenset(("SOP1", "SOP2", "SOPC", "SOPK", "SOPP", "VOP1", "VOP2", "VOPC", "LDSDIR", "VINTRP"))
_VOP3_MODIFIERS = frozenset(("clamp", "omod", "op_sel", "op_sel_hi", "neg_lo", "neg_hi", "mul", "div", "byte_sel"))
_INLINE_FLOATS = frozenset((0.0, 0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0, 0.15915494309189535))
#: gfx12's 96-bit memory encodings
_MEMORY_96 = frozenset(("VBUFFER", "VFLAT", "VGLOBAL", "VSCRATCH", "VIMAGE", "VSAMPLE"))
_VOP1_ON_TABLES_AS_VOP3P = frozenset(("v_accvgpr_mov_b32",))
#: immediates that are encoded in the instruction word itself (SOPK simm16, SOPP, s_waitcnt ...)
_IMMEDIATE_IN_WORD = frozenset(("SOPK", "SOPP"))


def _is_literal(node: Node) -> bool:
    """Whether an operand needs a 32-bit literal dword."""
    node = signed_number(node)
    if isinstance(node, Num):
        if isinstance(node.value, float):
            return node.value not in _INLINE_FLOATS
        return not -16 <= node.value <= 64
    # anything else is a symbol the assembler leaves to the linker (`sym@rel32@lo`): a literal with a fixup
    return not isinstance(node, (Reg, SpecialReg, Call, Abs, ListExpr, UnOp))


def _needs_vop3(variant: Variant, operands: tuple[Node, ...], modifiers: frozenset[str]) -> bool:
    if modifiers & _VOP3_MODIFIERS:
        return True
    specs = variant.operands
    if len(operands) < len(specs):  # the special register the syntax leaves out (v_cmpx's exec)
        specs = tuple(spec for spec in specs if spec.implicit_register is None)
    for spec, node in zip(specs, operands, strict=False):
        if isinstance(node, (Abs, UnOp)) or (isinstance(node, Call) and node.name in ("neg", "abs")):
            return True
        if spec.name.startswith("vsrc") and not (isinstance(node, Reg) and node.kind == "v"):
            return True
        if spec.implicit_register in ("vcc", "exec") and not (isinstance(node, SpecialReg) and node.name.startswith(spec.implicit_register)):
            return True
    return False


def instruction_size(mnemonic: str, operands: tuple[Node, ...], modifiers: tuple[tuple[str, Node | None], ...],
                     variant: Variant | None, target: Target, pair_operands: tuple[Node, ...] | None = None) -> int | None:
    """Bytes llvm-mc encodes one instruction in, or None; `pair_operands` are the second half of a
    gfx11+ dual-issue (VOPD) pair: one 64-bit word, plus a literal either half may use."""
    if not target.isa_exact:
        return None  # a neighbour's table (gfx1250 reads the GFX12 page): its encodings differ
    if pair_operands is not None:
        return 12 if any(_is_literal(node) for node in (*operands, *pair_operands)) else 8
    return _encoded_size(mnemonic, variant, operands, frozenset(name for name, _ in modifiers), target)


def _encoded_size(mnemonic: str, variant: Variant | None, operands: tuple[Node, ...], modifiers: frozenset[str],
                  target: Target) -> int | None:
    if variant is None or mnemonic.endswith(("_dpp", "_sdwa")) or "dpp8" in modifiers or "dpp_ctrl" in modifiers \
            or any(name.startswith(("row_", "quad_perm", "dst_sel", "src0_sel")) for name in modifiers):
        return None
    encoding = variant.encoding
    if encoding in _MEMORY_96:
        return 12
    if mnemonic in _VOP1_ON_TABLES_AS_VOP3P:
        return 4
    if mnemonic == "s_setreg_imm32_b32":
        return 8  # SOPK with a 32-bit immediate after the word
    if encoding == "SMRD" and target.major < 8:
        offset = operands[2] if len(operands) > 2 else Num(0)
        if isinstance(offset, (Reg, SpecialReg)):
            return 4
        # an 8-bit dword offset fits the word; gfx7 takes a larger one as a literal
        return (4 if offset.value < 256 else 8) if isinstance(offset, Num) and isinstance(offset.value, int) else None
    if encoding == "VOP3PX2":
        return 16
    if encoding == "MIMG" and target.major >= 10 and len(operands) > 1 and isinstance(operands[1], Reg) and operands[1].count > 1:
        return None  # several address registers: contiguous or NSA is the assembler's choice
    short = encoding in _SHORT and not mnemonic.endswith("_e64") and not (
        encoding.startswith("VOP") and _needs_vop3(variant, operands, modifiers))
    size = 4 if short else 8
    if encoding == "MIMG" and target.major >= 10 and operands[1:2] and isinstance(operands[1], ListExpr):
        return size + 4 * ((len(operands[1].items) - 1 + 3) // 4)  # NSA: a dword per four more addresses
    if encoding in _IMMEDIATE_IN_WORD or not (encoding.startswith(("SOP", "VOP"))):
        return size  # memory offsets and export targets are fields of the instruction, never literals
    if any(_is_literal(node) for node in operands):
        size += 4
    return size

