"""Wait-state hazards (LLVM's GCNHazardRecognizer, llvm-amdgpu-facts.md §3) on gfx6-gfx9 and CDNA.

For each instruction, walk back over every predecessor path counting wait states (each
instruction is one, `s_nop k` is k+1) and ask every hazard row whether an earlier instruction
is its producer; a row needs N states, so a producer `s` states back leaves N-s missing. Where
LLVM 22's measured values differ from the source text, the measured values are used. The facts
are kept once per distinct instruction (analyses.defuse.InstructionFacts), and each consumer
remembers what its rows answered for each producer it has met.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache

from ..isa.defuse import DefUse, Unit, register_units
from ..model.frozen import frozen_dataclass
from ..model.ir import BasicBlock, Instruction, Kernel
from ..model.nodes import Node, Num, Reg, Sym, hardware_register
from ..model.targets import Target
from .cfg import CFGAnalysis
from .defuse import DefUseAnalysis, InstructionFacts
from .manager import Analysis, AnalysisManager

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

_VECTOR = ("v", "a")
SHORT_LOOKAHEAD: Final = 5  # the most wait states any non-MFMA row asks for
_SCALAR = ("s", "vcc")
_DPP_MODIFIERS = frozenset(("quad_perm", "row_shl", "row_shr", "row_ror", "wave_shl", "wave_rol", "wave_shr", "wave_ror",
                            "row_mirror", "row_half_mirror", "row_bcast", "row_share", "row_xmask", "row_newbcast", "dpp8"))


_serials = itertools.count()
_AFTER_LIMIT = 4096


@dataclass(slots=True, eq=False, repr=False)
class Facts:
    """What the hazard rows ask about one distinct instruction on one target (shared by its occurrences)."""

    operands: tuple[Node, ...]
    modifiers: tuple[tuple[str, Node | None], ...]
    info: DefUse
    mnemonic: str
    unit: str  # its class's unit
    wait_states: int
    valu: bool
    mfma: bool
    dgemm: bool
    xdl: bool
    passes: int
    vector_defs: frozenset
    scalar_defs: frozenset
    writes_exec: bool
    writes_vcc: bool
    names_a0: bool = False  # reads or writes a0 (any AGPR tuple holding it): widens LLVM's soft-clause window
    dpp: bool = False  # a DPP instruction (by suffix or by its lane-pattern modifiers)
    src_ab: frozenset = frozenset()
    src_c: frozenset = frozenset()
    dst: frozenset = frozenset()
    rows: tuple[HazardRow, ...] = ()  # the target's rows this can be the second instruction of
    produces: frozenset[HazardRow] = frozenset()  # the target's rows this can be the first instruction of
    serial: int = field(default_factory=lambda: next(_serials))  # never reused: names it in `after` memos
    #: producer serial -> (row, wait states needed) of every row that pair needs states for, in row order
    #: (by serial, so that no instruction's facts keep another's alive)
    after: dict[int, tuple[tuple[HazardRow, int], ...]] = field(default_factory=dict)

    @property
    def memory(self) -> bool:
        return self.unit in ("vmem", "ds", "export")


_A0: Final = ("a", 0)


def facts_of(instruction: Instruction, info: DefUse, rows: tuple[HazardRow, ...]) -> Facts:
    """The facts of an instruction; `rows` are the target's rows, kept where it can be their consumer."""
    klass = info.klass
    mfma = klass.matrix in ("mfma", "smfmac")
    facts = Facts(
        instruction.operands, instruction.modifiers, info, instruction.mnemonic, klass.unit, instruction.wait_states,
        klass.unit == "valu", mfma, mfma and "f64" in instruction.mnemonic, klass.xdl, klass.passes,
        _part(info.defs, _VECTOR), _part(info.defs, _SCALAR),
        any(u[0] == "exec" for u in info.defs), any(u[0] == "vcc" for u in info.defs),
        _A0 in info.defs or _A0 in info.uses,
    )
    facts.dpp = facts.valu and (facts.mnemonic.endswith("_dpp") or any(
        name in _DPP_MODIFIERS for name, _ in instruction.modifiers))
    if mfma and len(instruction.operands) >= 4:
        operands = [frozenset(register_units(operand)) for operand in instruction.operands[:4]]
        facts.dst = operands[0]
        facts.src_ab = operands[1] | operands[2]
        if klass.matrix == "smfmac":  # the accumulator is the destination; the fourth operand is the sparsity index
            facts.src_ab |= operands[3]
            facts.src_c = facts.dst
        else:
            facts.src_c = operands[3]
    facts.rows = tuple(row for row in rows if row.consumer(facts))
    facts.produces = frozenset(row for row in rows if row.producer(facts))
    return facts


def _part(units: frozenset, files: tuple[str, ...]) -> frozenset:
    """The units of these register files (the set itself where they are all of it: one copy kept)."""
    part = frozenset(unit for unit in units if unit[0] in files)
    return units if part == units else part


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class HazardRow:
    """One wait-state rule: where it applies, its producer and consumer, and the states needed."""

    number: int
    description: str
    applies: Callable[[Target], bool]
    states: Callable[[Facts, Facts, Target], int]  # producer, consumer -> wait states needed (0: none)
    consumer: Callable[[Facts], bool] = lambda c: True  # cheap filter: can this be the second instruction?
    producer: Callable[[Facts], bool] = lambda p: True  # cheap filter: can this be the first instruction?
    advisory: str = ""  # why a finding of this row is only a warning (empty: a definite hazard)
    guide: str = ""  # the row of AMD's ISA guide that documents it, where one does


#: The wait-state table of AMD's MI300 (CDNA3) and CDNA4 ISA guides, which list the gfx940 co-execution rows.
_TABLE = "AMD's CDNA3/CDNA4 ISA guide, section 4.5, Table 11"
#: VALUs that read an SGPR pair (or VCC) as a per-lane mask, in their last operand: a carry-in or v_cndmask's
#: condition. AMD's guide tells these apart from a read "as a constant" (one value for every lane).
_MASK_READERS = ("v_addc_co_u32", "v_subb_co_u32", "v_subbrev_co_u32", "v_cndmask_b32", "v_cndmask_b16")


def _mask_read(c: Facts) -> frozenset:
    """The SGPRs (or VCC) a VALU reads as a lane mask: a v_addc/v_subb/v_subbrev's carry-in, v_cndmask's condition."""
    if c.mnemonic.startswith(_MASK_READERS) and c.operands:
        return frozenset(unit for unit in register_units(c.operands[-1]) if unit[0] in _SCALAR)
    return frozenset()


def _constant_read(c: Facts) -> frozenset:
    """What a VALU reads other than as a lane mask (a mask reader's other operands may name the same SGPRs)."""
    mask = _mask_read(c)
    if not mask:
        return c.info.uses
    others = (frozenset(register_units(operand)) for operand in c.operands[:-1])  # the mask again: a carry-out
    return (c.info.uses - mask) | frozenset(unit for units in others if units != mask for unit in units
                                            if unit in c.info.uses)


def _gfx940(t: Target) -> bool:
    return t.is_gfx94_plus


def _mfma_result_states(p: Facts, t: Target, memory: bool = False, overwrite: bool = False) -> int:
    """Rows 18-20 and 22 on gfx90a+: wait states before an MFMA's result is read (by a VALU, a memory
    instruction, v_accvgpr_read or another MFMA's SrcA/B) or overwritten by a VALU or memory instruction."""
    if p.dgemm:
        if p.passes == 4:
            return 9 if memory else 6
        if memory:
            return 18
        return 19 if t.name == "gfx950" and not overwrite else 11
    if not t.is_gfx94_plus:
        return p.passes + 3  # gfx90a SMFMA: 5 / 11 / 19
    if not p.xdl:
        return p.passes + 2
    return p.passes + 3 + (1 if t.name == "gfx950" and p.passes != 2 else 0)


def _row18(p: Facts, c: Facts, t: Target) -> int:
    if not (p.mfma and c.mnemonic.startswith("v_accvgpr_read") and p.dst & c.info.uses):
        return 0
    if t.name == "gfx908":
        return {2: 4, 8: 10}.get(p.passes, 18)
    return _mfma_result_states(p, t)


def _row19(p: Facts, c: Facts, t: Target) -> int:
    if not p.mfma or c.mfma or c.mnemonic.startswith("v_accvgpr_read") or not (c.valu or c.memory):
        return 0
    if not (p.dst & c.info.uses):
        return 0
    return _mfma_result_states(p, t, memory=c.memory)


def _row20(p: Facts, c: Facts, t: Target) -> int:
    if not p.mfma or c.mfma or not (c.valu or c.memory) or not (p.dst & c.info.defs):
        return 0
    return _mfma_result_states(p, t, memory=c.memory, overwrite=True)


def _row21(p: Facts, c: Facts, t: Target) -> int:
    if not p.mfma or p.dgemm or c.mfma or not (c.valu or c.memory) or not (p.src_c & c.info.defs):
        return 0
    if t.is_gfx94_plus and not p.xdl:
        return 0
    return p.passes - 1


def _row22(p: Facts, c: Facts, t: Target) -> int:
    if not (p.mfma and c.mfma and p.dst & c.src_ab):
        return 0
    if t.name == "gfx908":
        return 2
    return _mfma_result_states(p, t)


def _row24(p: Facts, c: Facts, t: Target) -> int:
    """Back-to-back accumulation into exactly the same registers."""
    if not (p.mfma and c.mfma and p.dst and p.dst == c.src_c):
        return 0
    if t.name == "gfx908":
        return 0  # LLVM 22 emits these adjacent on gfx908 (the facts' "2" is for partial overlap)
    if p.dgemm and c.dgemm and p.passes == 4 and c.passes == 4:
        return 4
    return 2 if t.is_gfx94_plus and p.passes == 2 else 0


def _row23(p: Facts, c: Facts, t: Target) -> int:
    """A result read as SrcC of the next MFMA, overlapping but not identical."""
    if not (p.mfma and c.mfma and p.dst & c.src_c) or p.dst == c.src_c:
        return 0
    if t.name == "gfx908":
        return 2
    if p.dgemm:  # nothing before an XDL MFMA (on gfx90a: every non-DGEMM one)
        return 0 if c.xdl else 4 if p.passes == 4 else p.passes + 1
    if t.is_gfx94_plus:
        if not p.xdl:
            return 0 if c.xdl else p.passes
        gfx950_extra = t.name == "gfx950" and (c.xdl or p.passes != 2)
        return p.passes + 1 + (1 if gfx950_extra else 0)
    return p.passes + (1 if c.dgemm else 0)


def _row27(p: Facts, c: Facts, t: Target) -> int:
    """gfx908: v_accvgpr_write overwrites an AGPR an MFMA still reads (SrcC) or writes."""
    if not (p.mfma and c.mnemonic.startswith("v_accvgpr_write")):
        return 0
    overwrite = p.passes - 1 if p.dst & c.info.defs else 0
    early_read = {8: 5, 16: 13}.get(p.passes, 0) if p.src_c & c.info.defs else 0
    return max(overwrite, early_read)


def _base_opcode(mnemonic: str) -> str:
    return mnemonic.removesuffix("_e32").removesuffix("_e64")


def _row30(p: Facts, c: Facts, t: Target) -> int:
    """A DOT result: read as SrcA/B by the same DOT opcode, or read or overwritten by another VALU."""
    if p.info.klass.matrix != "dot" or not c.valu or c.mfma or not p.vector_defs:
        return 0
    if _base_opcode(p.mnemonic) == _base_opcode(c.mnemonic):
        sources = frozenset(unit for operand in c.operands[1:3] for unit in register_units(operand))
        return 3 if p.vector_defs & sources else 0
    return 3 if p.vector_defs & (c.info.uses | c.info.defs) else 0


def _lane_select(c: Facts) -> frozenset:
    if c.mnemonic.startswith(("v_readlane", "v_writelane")) and len(c.operands) >= 3:
        return frozenset(register_units(c.operands[2]))
    return frozenset()


def _is_dpp(c: Facts) -> bool:
    return c.dpp


def _dpp_permuted(c: Facts) -> frozenset:
    """The registers of a DPP instruction's first source, the one the lane pattern permutes."""
    operands = c.operands
    variant = c.info.variant
    if variant is not None and len(variant.operands) == len(operands):
        source = next((operand for spec, operand in zip(variant.operands, operands) if not spec.is_def), None)
        return frozenset(register_units(source))
    return frozenset(register_units(operands[1])) if len(operands) > 1 else frozenset()


def _dpp_unpermuted(c: Facts) -> frozenset:
    """The other VGPRs a DPP instruction reads, the old value of its destination included (LLVM's
    DPP forms take it as an operand: lanes the masks disable keep it)."""
    destination = frozenset(register_units(c.operands[0])) if c.operands else frozenset()
    return (c.info.uses | destination) - _dpp_permuted(c)


def _wide_store_data(p: Facts) -> frozenset:
    if p.unit != "vmem" or p.info.klass.kind not in ("store", "atomic"):
        return frozenset()
    for operand in p.operands:
        if isinstance(operand, Reg) and operand.kind in _VECTOR and operand.count > 2:
            return frozenset(register_units(operand))
    return frozenset()


def _sgpr_soffset(p: Facts) -> bool:
    operands = p.operands
    return p.info.klass.memory == "buffer" and len(operands) >= 4 and isinstance(operands[3], Reg) and operands[3].kind == "s"


_NO_DEFAULT_OP_SEL_HI = ("v_fma_mix", "v_mad_mix", "v_dot4_", "v_dot8_", "v_accvgpr")


def _modifier(modifiers: tuple[tuple[str, Node | None], ...], name: str):
    return next((value for key, value in modifiers if key == name), None)


def _bits(value) -> list[int]:
    items = getattr(value, "items", None)
    return [int(item.value) if isinstance(item, Num) else 0 for item in items] if items is not None else []


def _writes_part_of_dst(p: Facts) -> bool:
    """Row 14: the result is forwarded as a partial dword (LLVM's getDstSelForwardingOperand):
    SDWA with dst_sel other than DWORD, VOP3 with a destination op_sel bit, or VOP3P whose
    op_sel_hi[0] is set (the default for packed math, which LLVM reads as the same bit)."""
    if not p.valu or p.mfma:
        return False
    dst_sel = _modifier(p.modifiers, "dst_sel")
    if dst_sel is not None:
        return not (isinstance(dst_sel, Sym) and dst_sel.name.upper() == "DWORD") and not (isinstance(dst_sel, Num) and dst_sel.value == 6)
    encoding = p.info.variant.encoding if p.info.variant else ""
    if encoding == "VOP3P":
        if p.mnemonic.startswith(_NO_DEFAULT_OP_SEL_HI):
            return bool(_bits(_modifier(p.modifiers, "op_sel_hi"))[:1] == [1])
        hi = _bits(_modifier(p.modifiers, "op_sel_hi"))
        return not hi or hi[0] == 1
    if encoding == "VOP3":
        op_sel = _bits(_modifier(p.modifiers, "op_sel"))
        sources = max(len(p.operands) - 1, 0)
        return any(op_sel[sources:])
    return False


def _row9(p: Facts, c: Facts, t: Target) -> int:
    data = _wide_store_data(p)
    if not data or not c.valu or not (data & c.info.defs):
        return 0
    if _sgpr_soffset(p):
        return 1 if t.is_gfx94_plus else 0
    return 2 if t.is_gfx94_plus else 1


def _same_hwreg(p: Facts, c: Facts) -> bool:
    first = hardware_register(p.mnemonic, p.operands)
    return first is not None and first == hardware_register(c.mnemonic, c.operands)


def _reads_m0_after_salu(c: Facts, t: Target) -> bool:
    """Row 8 as LLVM 22 applies it (checked with llc-22 on gfx601, gfx700, gfx810, gfx900, gfx90a):
    on gfx9 s_movrel*, v_interp* in the VINTRP encoding (not the VOP3 `v_interp_p2_legacy_f16`),
    ds_*_addtid, LDS DMA and lds_direct reads; on gfx8 and gfx9
    s_sendmsg, s_ttracedata and GDS. v_movrel* is not protected on any generation."""
    mnemonic = c.mnemonic
    if mnemonic.startswith(("s_sendmsg", "s_ttracedata")) or c.info.klass.memory == "gds":
        return True
    interp = mnemonic.startswith("v_interp") and c.info.variant is not None and c.info.variant.encoding == "VINTRP"
    return t.major == 9 and (mnemonic.startswith("s_movrel") or interp or "_addtid" in mnemonic
                             or c.info.klass.lds_dma or "lds_direct" in str(c.operands))


ROWS: tuple[HazardRow, ...] = (
    HazardRow(1, "VALU writes an SGPR that a VMEM instruction reads", lambda t: 8 <= t.major <= 9,
              lambda p, c, t: 5 if p.valu and c.unit == "vmem" and p.scalar_defs & c.info.uses else 0,
              consumer=lambda c: c.unit == "vmem", producer=lambda p: p.valu),
    HazardRow(2, "VALU writes the lane-select SGPR of v_readlane/v_writelane", lambda t: True,
              lambda p, c, t: 4 if p.valu and p.scalar_defs & _lane_select(c) else 0,
              consumer=lambda c: c.mnemonic.startswith(("v_readlane", "v_writelane")), producer=lambda p: p.valu),
    HazardRow(3, "VALU writes VCC that v_div_fmas reads", lambda t: True,
              lambda p, c, t: 4 if p.valu and p.writes_vcc and c.mnemonic.startswith("v_div_fmas") else 0,
              consumer=lambda c: c.mnemonic.startswith("v_div_fmas"), producer=lambda p: p.valu and p.writes_vcc),
    HazardRow(4, "VALU writes a VGPR that a DPP instruction permutes (its first source)", lambda t: True,
              lambda p, c, t: 2 if p.valu and _is_dpp(c) and p.vector_defs & _dpp_permuted(c) else 0,
              consumer=lambda c: c.valu, producer=lambda p: p.valu),
    HazardRow(4, "VALU writes a VGPR that a DPP instruction reads without permuting it", lambda t: True,
              lambda p, c, t: 2 if p.valu and _is_dpp(c) and p.vector_defs & _dpp_unpermuted(c) else 0,
              consumer=lambda c: c.valu, producer=lambda p: p.valu,
              advisory="LLVM asks for these wait states before every VGPR a DPP instruction reads (also its second "
                       "source, accumulator and the old value of its destination), but AMD's examples and MIOpen "
                       "protect only the permuted first source"),
    HazardRow(5, "VALU writes EXEC before a DPP instruction", lambda t: True,
              lambda p, c, t: 5 if p.valu and p.writes_exec and _is_dpp(c) else 0,
              consumer=lambda c: c.valu, producer=lambda p: p.valu and p.writes_exec),
    HazardRow(6, "s_setreg writes a hardware register that s_getreg reads", lambda t: True,
              lambda p, c, t: 2 if p.mnemonic.startswith("s_setreg") and c.mnemonic.startswith("s_getreg")
              and _same_hwreg(p, c) else 0,
              consumer=lambda c: c.mnemonic.startswith("s_getreg"),
              producer=lambda p: p.mnemonic.startswith("s_setreg")),
    HazardRow(7, "s_setreg writes a hardware register that the next s_setreg writes", lambda t: True,
              lambda p, c, t: (2 if t.major >= 8 else 1) if p.mnemonic.startswith("s_setreg")
              and _same_hwreg(p, c) else 0,
              consumer=lambda c: c.mnemonic.startswith("s_setreg"),
              producer=lambda p: p.mnemonic.startswith("s_setreg")),
    HazardRow(8, "SALU writes M0 that the next instruction reads", lambda t: t.major in (8, 9),
              lambda p, c, t: 1 if p.unit == "salu" and ("m0", 0) in p.info.defs
              and ("m0", 0) in c.info.uses and _reads_m0_after_salu(c, t) else 0,
              consumer=lambda c: ("m0", 0) in c.info.uses,
              producer=lambda p: p.unit == "salu" and ("m0", 0) in p.info.defs),
    HazardRow(9, "VALU overwrites the data VGPRs of a store wider than 64 bits", lambda t: t.major <= 9, _row9,
              consumer=lambda c: c.valu, producer=lambda p: bool(_wide_store_data(p))),
    HazardRow(10, "VALU writes an SGPR/VCC that the next VALU reads as a constant (gfx940 co-execution)", _gfx940,
              lambda p, c, t: 2 if p.valu and c.valu and p.scalar_defs & _constant_read(c) else 0,
              consumer=lambda c: c.valu, producer=lambda p: p.valu,
              guide=f"{_TABLE}: VALU writes SGPR, VALU reads that SGPR as a constant: 2"),
    HazardRow(10, "VALU writes the SGPR/VCC that the next VALU reads as a lane mask (carry-in, v_cndmask's "
                  "condition) (gfx940 co-execution)", _gfx940,
              lambda p, c, t: 2 if p.valu and c.valu and p.scalar_defs & _mask_read(c)
              and not p.scalar_defs & _constant_read(c) else 0,
              consumer=lambda c: bool(_mask_read(c)), producer=lambda p: p.valu,
              advisory=f"LLVM inserts 2 wait states; AMD's ISA guide does not require them ({_TABLE} asks 2 for a "
                       "read as a constant and 0 for a carry-in; its 'Wave64 use of SGPRs' reads v_cndmask's "
                       "condition as it reads a carry-in, a mask with a bit per lane)"),
    HazardRow(11, "VALU writes a VGPR that v_readlane reads", _gfx940,
              lambda p, c, t: 1 if p.valu and c.mnemonic.startswith("v_readlane")
              and len(c.operands) > 1 and p.vector_defs & frozenset(register_units(c.operands[1])) else 0,
              consumer=lambda c: c.mnemonic.startswith("v_readlane"), producer=lambda p: p.valu,
              guide=f"{_TABLE}: VALU writes VGPR, V_READLANE reads that VGPR: 1"),
    HazardRow(11, "VALU writes a VGPR that v_readfirstlane reads", _gfx940,
              lambda p, c, t: 1 if p.valu and c.mnemonic.startswith("v_readfirstlane")
              and len(c.operands) > 1 and p.vector_defs & frozenset(register_units(c.operands[1])) else 0,
              consumer=lambda c: c.mnemonic.startswith("v_readfirstlane"), producer=lambda p: p.valu,
              advisory=f"LLVM inserts 1 wait state; AMD's ISA guide does not require it ({_TABLE} names V_READLANE "
                       "only)"),
    HazardRow(12, "VALU writes EXEC before v_readlane/v_readfirstlane/v_writelane", _gfx940,
              lambda p, c, t: 4 if p.valu and p.writes_exec
              and c.mnemonic.startswith(("v_readlane", "v_readfirstlane", "v_writelane")) else 0,
              consumer=lambda c: c.mnemonic.startswith(("v_readlane", "v_readfirstlane", "v_writelane")),
              producer=lambda p: p.valu and p.writes_exec,
              guide=f"{_TABLE}: V_CMPX writes EXEC, V_READLANE/V_READFIRSTLANE/V_WRITELANE: 4"),
    HazardRow(13, "transcendental result read by a non-transcendental VALU", _gfx940,
              lambda p, c, t: 1 if p.info.klass.rate == "trans" and c.valu and c.info.klass.rate != "trans"
              and p.vector_defs & c.info.uses else 0,
              consumer=lambda c: c.valu, producer=lambda p: p.info.klass.rate == "trans",
              guide=f"{_TABLE}: VALU Trans op, non-trans VALU consumes its result: 1"),
    HazardRow(14, "VALU writes part of a dword (SDWA dst_sel, op_sel) that the next VALU reads", _gfx940,
              lambda p, c, t: 1 if c.valu and p.vector_defs & c.info.uses and _writes_part_of_dst(p) else 0,
              consumer=lambda c: c.valu, producer=lambda p: p.valu and not p.mfma,
              guide=f"{_TABLE}: VALU writes a VGPR with OPSEL or SDWA changing the result's bit position, "
                    "VALU reads it: 1"),
    HazardRow(14, "VALU writes part of a dword (SDWA dst_sel, op_sel) that the next VALU overwrites", _gfx940,
              lambda p, c, t: 1 if c.valu and p.vector_defs & c.info.defs and not p.vector_defs & c.info.uses
              and _writes_part_of_dst(p) else 0,
              consumer=lambda c: c.valu, producer=lambda p: p.valu and not p.mfma,
              advisory=f"LLVM inserts 1 wait state; AMD's ISA guide does not require it ({_TABLE} lists the read "
                       "only)"),
    HazardRow(16, "VALU writes EXEC before an MFMA", lambda t: t.has_mai,
              lambda p, c, t: 4 if p.valu and not p.mfma and p.writes_exec
              and (c.mfma or (t.name == "gfx908" and c.mnemonic.startswith("v_accvgpr_write"))) else 0,
              consumer=lambda c: c.mfma or c.mnemonic.startswith("v_accvgpr_write"),
              producer=lambda p: p.valu and not p.mfma and p.writes_exec),
    HazardRow(17, "VALU writes a VGPR that an MFMA (or, on gfx908, v_accvgpr_write) reads", lambda t: t.has_mai,
              lambda p, c, t: 2 if p.valu and not p.mfma and p.info.klass.matrix != "dot"
              and not (t.name == "gfx908" and p.mnemonic.startswith("v_accvgpr_write"))
              and ((c.mfma and p.vector_defs & (c.src_ab | c.src_c))
                   or (t.name == "gfx908" and c.mnemonic.startswith("v_accvgpr_write") and p.vector_defs & c.info.uses))
              else 0,
              consumer=lambda c: c.mfma or c.mnemonic.startswith("v_accvgpr_write"),
              producer=lambda p: p.valu and not p.mfma),
    HazardRow(18, "MFMA result read by v_accvgpr_read", lambda t: t.has_mai, _row18,
              consumer=lambda c: c.mnemonic.startswith("v_accvgpr_read"), producer=lambda p: p.mfma),
    HazardRow(19, "MFMA result read by a VALU or memory instruction", lambda t: t.has_gfx90a_insts, _row19,
              consumer=lambda c: c.valu or c.memory, producer=lambda p: p.mfma),
    HazardRow(20, "MFMA result overwritten by a VALU or memory instruction", lambda t: t.has_gfx90a_insts, _row20,
              consumer=lambda c: c.valu or c.memory, producer=lambda p: p.mfma),
    HazardRow(21, "MFMA SrcC overwritten before the MFMA has read it", lambda t: t.has_gfx90a_insts, _row21,
              consumer=lambda c: c.valu or c.memory, producer=lambda p: p.mfma and not p.dgemm),
    HazardRow(22, "MFMA result read as SrcA/B of the next MFMA", lambda t: t.has_mai, _row22,
              consumer=lambda c: c.mfma, producer=lambda p: p.mfma),
    HazardRow(23, "MFMA result read as SrcC of the next MFMA (partial overlap)", lambda t: t.has_mai, _row23,
              consumer=lambda c: c.mfma, producer=lambda p: p.mfma),
    HazardRow(24, "MFMA result accumulated into the next MFMA (same registers)", lambda t: t.has_mai, _row24,
              consumer=lambda c: c.mfma, producer=lambda p: p.mfma),
    HazardRow(25, "v_accvgpr_write then an MFMA or v_accvgpr_read of that AGPR (gfx908)", lambda t: t.name == "gfx908",
              lambda p, c, t: (1 if c.mfma and p.vector_defs & c.src_c else 3 if c.mnemonic.startswith("v_accvgpr_read")
                               and p.vector_defs & c.info.uses else 0) if p.mnemonic.startswith("v_accvgpr_write") else 0,
              consumer=lambda c: c.mfma or c.mnemonic.startswith("v_accvgpr_read"),
              producer=lambda p: p.mnemonic.startswith("v_accvgpr_write")),
    HazardRow(26, "v_accvgpr_read result used by a memory instruction (gfx908)", lambda t: t.name == "gfx908",
              lambda p, c, t: 2 if p.mnemonic.startswith("v_accvgpr_read") and c.memory and p.vector_defs & c.info.uses else 0,
              consumer=lambda c: c.memory, producer=lambda p: p.mnemonic.startswith("v_accvgpr_read")),
    HazardRow(27, "v_accvgpr_write overwrites an AGPR an MFMA still reads or writes (gfx908)", lambda t: t.name == "gfx908",
              _row27, consumer=lambda c: c.mnemonic.startswith("v_accvgpr_write"), producer=lambda p: p.mfma),
    HazardRow(28, "DGEMM then v_fma_f64/v_fmac_f64", lambda t: t.has_gfx90a_insts,
              lambda p, c, t: 2 if p.dgemm and c.mnemonic.startswith(("v_fma_f64", "v_fmac_f64")) else 0,
              consumer=lambda c: c.mnemonic.startswith(("v_fma_f64", "v_fmac_f64")), producer=lambda p: p.dgemm),
    HazardRow(30, "DOT result read or overwritten by the next VALU", lambda t: t.has_gfx90a_insts, _row30,
              consumer=lambda c: c.valu, producer=lambda p: p.info.klass.matrix == "dot"),
    HazardRow(32, "VALU writes a VGPR that v_permlane16/32_swap reads (gfx950)", lambda t: t.name == "gfx950",
              lambda p, c, t: 2 if p.valu and c.mnemonic.startswith(("v_permlane16_swap", "v_permlane32_swap"))
              and p.vector_defs & c.info.uses else 0,
              consumer=lambda c: c.mnemonic.startswith(("v_permlane16_swap", "v_permlane32_swap")),
              producer=lambda p: p.valu),
)

SOFT_CLAUSE = HazardRow(15, "memory soft clause with xnack: a clause member writes a register the clause reads, "
                            "or a store or atomic joins the clause", lambda t: True, lambda p, c, t: 1)


#: Scalar memory instructions that write memory (LLVM breaks a soft clause before any of them).
_SMEM_WRITES = ("s_store", "s_buffer_store", "s_scratch_store", "s_atomic", "s_buffer_atomic")


def _soft_clause(consumer: int, facts: list[Facts], start: int) -> int | None:
    """Row 15: with xnack, consecutive SMEM (or VMEM) instructions may be replayed; a member that
    writes what the clause reads, or a store or atomic after members that write registers, must start
    a new clause. An atomic writes a register only when it returns (glc/sc0). Members are looked for
    from `start` on (LLVM's look-ahead window). Returns the clause start."""
    this = facts[consumer]
    kind = this.unit
    if kind not in ("smem", "vmem"):
        return None
    members = []
    index = consumer - 1
    while index >= start and facts[index].unit == kind:
        members.append(index)
        index -= 1
    if not members:
        return None
    # loops, not unions of generated sets: compiled, each step is native
    defs: set[Unit] = set()
    for member in members:
        for unit in facts[member].info.defs:
            if unit[0] in ("v", "s", "a"):
                defs.add(unit)
    if not defs:
        return None
    if this.info.klass.kind in ("store", "atomic") or this.mnemonic.startswith(_SMEM_WRITES):
        return members[-1]
    for unit in this.info.defs:
        if unit[0] in ("v", "s", "a"):
            defs.add(unit)
    for reader in (*members, consumer):
        for unit in facts[reader].info.uses:
            if unit in defs:
                return members[-1]
    return None


DGEMM_BETWEEN: Final = HazardRow(29, "VALU writes a VGPR, a DGEMM follows, then a memory instruction reads the VGPR (gfx90a)",
                          lambda t: t.has_gfx90a_insts and not t.is_gfx94_plus, lambda p, c, t: 2)


def _dgemm_between(consumer: int, facts: list[Facts], start: int) -> int | None:
    """Row 29: [VALU writes v] [DGEMM] [VMEM/DS/FLAT reads v] leaves one wait state of the two
    needed. Returns the VALU's index."""
    if consumer - 2 < start or not facts[consumer].memory:
        return None
    dgemm, valu = facts[consumer - 1], facts[consumer - 2]
    if dgemm.dgemm and valu.valu and not valu.mfma and valu.vector_defs & facts[consumer].info.uses:
        return consumer - 2
    return None


@frozen_dataclass(frozen=True, slots=True, repr=False, init=False, eq=False)
class Hazard:
    """A consumer too close to a producer under one row."""

    consumer: int
    producer: int
    row: HazardRow
    needed: int  # wait states the row asks for
    present: int  # wait states between producer and consumer on the worst path

    def __init__(self, consumer: int, producer: int, row: HazardRow, needed: int, present: int) -> None:
        object.__setattr__(self, "consumer", consumer)
        object.__setattr__(self, "producer", producer)
        object.__setattr__(self, "row", row)
        object.__setattr__(self, "needed", needed)
        object.__setattr__(self, "present", present)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Hazard) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.consumer, self.producer, self.row, self.needed, self.present) == (
            other.consumer, other.producer, other.row, other.needed, other.present)

    def __hash__(self) -> int:
        return hash((self.consumer, self.producer, self.row, self.needed, self.present))


@dataclass(slots=True, repr=False, eq=False, init=False)
class HazardReport:
    """Every kernel hazard found, per consumer."""

    hazards: dict[int, Hazard] = field(default_factory=dict)  # consumer -> the hazard needing most states
    #: consumer -> the advisory hazard needing most states, where it needs more than the definite one
    advisories: dict[int, Hazard] = field(default_factory=dict)

    def __init__(self, hazards: dict[int, Hazard] | None = None, advisories: dict[int, Hazard] | None = None) -> None:
        self.hazards = {} if hazards is None else hazards
        self.advisories = {} if advisories is None else advisories


_CLAUSE_UNITS: Final = ("smem", "vmem")  # units whose instructions form soft clauses


def _shared_facts(shared: InstructionFacts, instruction: Instruction, rows: tuple[HazardRow, ...]) -> Facts:
    """The hazard facts of an instruction, computed once per shared facts."""
    shared.hazard = facts_of(instruction, shared.info, rows)
    return shared.hazard


@lru_cache(maxsize=64)
def _rows_of(target: Target) -> tuple[HazardRow, ...]:
    return tuple(row for row in ROWS if row.applies(target))


class HazardAnalysis(Analysis):
    name = "hazards"

    @classmethod
    def run(cls, kernel: Kernel, manager: AnalysisManager) -> HazardReport | None:
        target = manager.module.target
        def_use = manager.get(DefUseAnalysis)
        if target is None or def_use is None or target.major >= 10:
            return None
        rows = _rows_of(target)
        facts = [shared.hazard or _shared_facts(shared, instruction, rows)
                 for instruction, shared in zip(def_use.instructions, def_use.facts, strict=True)]
        lookahead, far = SHORT_LOOKAHEAD, None
        if any(fact.mfma for fact in facts):  # an MFMA's result may need up to 19 states
            lookahead, far = 19, _FarProducers(facts)
        cfg = manager.get(CFGAnalysis)
        starts, block_of = cfg.starts, cfg.block_of
        report = HazardReport()
        xnack = "xnack" in target.supported_features and target.features.get("xnack", True) and target.major >= 8
        clause_window = _clause_window(facts) if xnack else SHORT_LOOKAHEAD
        dgemm_row = DGEMM_BETWEEN.applies(target)
        for consumer, this in enumerate(facts):
            if not this.rows and not (xnack and this.unit in _CLAUSE_UNITS) and not (dgemm_row and this.memory):
                continue  # nothing can be its producer
            found, advisory = _search(consumer, facts, target, lookahead, far, cfg.blocks, starts, block_of) if (
                this.rows) else (None, None)
            if found is None and dgemm_row:
                valu = _dgemm_between(consumer, facts, starts[block_of[consumer]])
                if valu is not None:
                    found = Hazard(consumer, valu, DGEMM_BETWEEN, 2, 1)
            if found is None and xnack and this.unit in _CLAUSE_UNITS:
                # LLVM sees the clause only within its look-ahead window of emitted instructions
                clause_start = _soft_clause(consumer, facts, max(starts[block_of[consumer]], consumer - clause_window))
                if clause_start is not None:
                    found = Hazard(consumer, clause_start, SOFT_CLAUSE, 1, 0)
            if found is not None:
                report.hazards[consumer] = found
            if advisory is not None and (found is None or _missing(advisory) > _missing(found)):
                report.advisories[consumer] = advisory
        return report


def _clause_window(facts: list[Facts]) -> int:
    """How many instructions back LLVM's recognizer sees a soft clause: 19 in a function using a0
    (any AGPR tuple holding it), else 5; MFMAs accumulating in VGPRs do not widen it."""
    return 19 if any(entry.names_a0 for entry in facts) else SHORT_LOOKAHEAD


def _missing(hazard: Hazard) -> int:
    return hazard.needed - hazard.present


def _needs(producer: Facts, consumer: Facts, target: Target) -> tuple[tuple[HazardRow, int], ...]:
    """(row, wait states) of the consumer's rows that need states after the producer; memoized in consumer.after
    (emptied when it holds _AFTER_LIMIT producers, so that an instruction seen everywhere stays small)."""
    if len(consumer.after) >= _AFTER_LIMIT:
        consumer.after.clear()
    produced = producer.produces
    found = consumer.after[producer.serial] = tuple(
        (row, needed) for row in consumer.rows
        if row in produced and (needed := row.states(producer, consumer, target)) > 0)
    return found


class _FarProducers:
    """For walks past SHORT_LOOKAHEAD wait states, where only MFMA results matter: the nearest MFMA at or
    before each instruction, and the wait states of the instructions before each (to skip to it)."""

    def __init__(self, facts: list[Facts]):
        self.states_before = list(itertools.accumulate((f.wait_states for f in facts), initial=0))
        self.nearest_mfma: list[int] = []
        nearest = -1
        for index, entry in enumerate(facts):
            if entry.mfma:
                nearest = index
            self.nearest_mfma.append(nearest)


_NO_UNITS: Final[frozenset] = frozenset()
#: MFMA-to-MFMA rows on SrcC: judged against the nearest MFMA writing any SrcC register only
_SRC_C_ROWS: Final = frozenset((23, 24))


def _search(consumer: int, facts: list[Facts], target: Target, lookahead: int, far: _FarProducers | None,
            blocks: list[BasicBlock], starts: list[int], block_of: list[int]) -> tuple[Hazard | None, Hazard | None]:
    """The definite and the advisory hazard missing most wait states for `consumer`, over every path
    back (within the lookahead), counting the fewest states on any path as LLVM does. For an MFMA's SrcC,
    as in LLVM, only the nearest MFMA on the path writing any of its registers counts (an older one's
    result is overwritten by then). Typed parameters: a compiled build reads their fields and adds their numbers
    directly."""
    this = facts[consumer]
    after = this.after
    src_c = this.src_c if this.mfma else _NO_UNITS
    definite: Hazard | None = None
    advisory: Hazard | None = None
    stack = [(consumer - 1, 0, block_of[consumer], False)]
    entered: dict[tuple[int, bool], int] | None = None  # (block, SrcC's writer seen) -> fewest states entering it
    while stack:
        index, states, block, src_c_written = stack.pop()
        first = starts[block]
        while index >= first and states < lookahead:
            if states >= SHORT_LOOKAHEAD:
                # only MFMA results need more than 5 wait states: past that, skip to the nearest in the block
                assert far is not None  # the lookahead is longer only with MFMAs (`far`)
                nearest = max(far.nearest_mfma[index], first - 1)
                states += far.states_before[index + 1] - far.states_before[nearest + 1]
                index = nearest
                if index < first or states >= lookahead:
                    break
            producer = facts[index]
            if producer.produces:
                needs = after.get(producer.serial)
                for row, needed in _needs(producer, this, target) if needs is None else needs:
                    if needed <= states or (src_c_written and row.number in _SRC_C_ROWS):
                        continue
                    if row.advisory:
                        if advisory is None or needed - states > _missing(advisory):
                            advisory = Hazard(consumer, index, row, needed, states)
                    elif definite is None or needed - states > _missing(definite):
                        definite = Hazard(consumer, index, row, needed, states)
            src_c_written = src_c_written or bool(producer.mfma and producer.dst & src_c)
            states += producer.wait_states
            index -= 1
        if states >= lookahead:
            continue
        for predecessor in blocks[block].predecessors:
            if entered is None:
                entered = {}
            elif entered.get((predecessor, src_c_written), lookahead) <= states:
                continue
            entered[(predecessor, src_c_written)] = states
            stack.append((starts[predecessor] + len(blocks[predecessor].instructions) - 1, states, predecessor, src_c_written))
    return definite, advisory
