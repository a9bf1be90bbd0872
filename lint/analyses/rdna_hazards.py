"""Hazards on RDNA (gfx10, gfx11, gfx12, gfx1250) as LLVM 22 mitigates them (rdna-hazards.md rows A-X).

gfx10+ has none of the classic wait-state rows: LLVM's hazard recognizer instead fixes up each instruction
whose predecessors, on any path and at any distance, leave a hazard that only a specific instruction ends
(a VALU, an `s_waitcnt_depctr` field at 0, an SALU, ...), and gfx12 runs a separate pass for SGPR reads
(row Q). Each row here is a forward dataflow over the kernel's blocks: its state after an instruction says
which producers are still pending on some path, so a consumer is checked without walking back. The facts
each row asks of an instruction are kept once per distinct instruction (`InstructionFacts.rdna`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..isa.classes import SALU_ENCODINGS, VMEM_ENCODINGS
from ..isa.defuse import DefUse, register_units
from ..isa.waits import wait_counts
from ..model.ir import Instruction, Kernel, Module
from ..model.nodes import Call, Node, Num, Reg, SpecialReg, Sym, operand_register
from ..model.targets import Target
from .cfg import CFGAnalysis, ControlFlowGraph, is_branch
from .defuse import DefUseAnalysis, InstructionFacts, kernel_wave_size
from .manager import Analysis, AnalysisManager

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from typing import Any

# ---- s_waitcnt_depctr / s_wait_alu fields: name -> (lowest bit, width); all ones (the default) waits for nothing
DEPCTR_FIELDS = {"sa_sdst": (0, 1), "va_vcc": (1, 1), "vm_vsrc": (2, 3), "hold_cnt": (7, 1), "va_ssrc": (8, 1),
                 "va_sdst": (9, 3), "va_vdst": (12, 4)}
#: The order in which llvm-mc prints named fields.
_PRINT_ORDER = ("hold_cnt", "sa_sdst", "va_vdst", "va_sdst", "va_ssrc", "va_vcc", "vm_vsrc")
_DEPCTR = ("s_waitcnt_depctr", "s_wait_alu")


def depctr_fields_of(target: Target) -> tuple[str, ...]:
    """The fields `target`'s assembler knows (gfx1010-gfx1013 have no hold_cnt)."""
    return tuple(name for name in DEPCTR_FIELDS if name != "hold_cnt" or not (target.major == 10 and target.minor < 3))


def depctr_value(operands: tuple[Node, ...], target: Target) -> int | None:
    """The 16-bit immediate of an `s_waitcnt_depctr`/`s_wait_alu`: a raw number, or named fields (the others
    at their default); None where it is neither (an expression we do not evaluate, a field the target lacks)."""
    if len(operands) == 1 and isinstance(operands[0], Num) and isinstance(operands[0].value, int):
        return operands[0].value & 0xFFFF
    known = depctr_fields_of(target)
    value = sum(((1 << width) - 1) << low for name, (low, width) in DEPCTR_FIELDS.items() if name in known)
    for operand in _flatten(operands):
        if not (isinstance(operand, Call) and len(operand.args) == 1 and isinstance(operand.args[0], Num)):
            return None
        name = operand.name.lower().removeprefix("depctr_")
        if name not in known:
            return None
        low, width = DEPCTR_FIELDS[name]
        mask = ((1 << width) - 1) << low
        value = (value & ~mask) | ((int(operand.args[0].value) << low) & mask)
    return value


def _flatten(operands: tuple[Node, ...]) -> list[Node]:
    found: list[Node] = []
    for operand in operands:
        left, right = getattr(operand, "left", None), getattr(operand, "right", None)
        if left is not None and right is not None and getattr(operand, "op", "") in ("&", ","):
            found += _flatten((left, right))
        else:
            found.append(operand)
    return found


def field_is_zero(value: int | None, name: str) -> bool:
    if value is None:
        return False
    low, width = DEPCTR_FIELDS[name]
    return (value >> low) & ((1 << width) - 1) == 0


def depctr_line(major: int, fields: tuple[str, ...]) -> str:
    """The wait llc-22 writes for these fields at 0, in the spelling of the generation's assembler."""
    mnemonic = "s_wait_alu" if major >= 12 else "s_waitcnt_depctr"
    return f"{mnemonic} " + " ".join(f"depctr_{name}(0)" for name in _PRINT_ORDER if name in fields)


# ---- per-instruction facts

_PERMLANE = re.compile(r"v_permlane(16|x16|64|16_var|x16_var|16_swap|32_swap|_bcast|_up|_down|_xor|_idx_gen)")
_TRANS_F64 = re.compile(r"v_(rcp|rsq|sqrt)_f64")
_DEALLOC = ("MSG_DEALLOC_VGPRS",)
_SOPP_NOT_ENDING_E = ("s_setvskip", "s_version", "s_waitcnt_vscnt", "s_waitcnt_vmcnt", "s_waitcnt_expcnt")
_SCALAR_FILES = ("s", "vcc")
_MASK_READERS = ("v_cndmask_b32", "v_cndmask_b16", "v_add_co_ci_u32", "v_sub_co_ci_u32", "v_subrev_co_ci_u32",
                 "v_addc_co_u32", "v_subb_co_u32", "v_subbrev_co_u32", "v_div_fmas")


@dataclass(slots=True, eq=False)
class RdnaFacts:
    """What the RDNA rows ask about one distinct instruction on one target."""

    mnemonic: str
    valu: bool = False
    salu: bool = False  # SOP1/SOP2/SOPC/SOPK/SOPP
    sopp: bool = False
    smem: bool = False
    vmem: bool = False  # buffer, image, flat, global, scratch
    flat: bool = False  # flat, global, scratch (FLAT encodings)
    ds: bool = False
    export: bool = False
    trans: bool = False
    v_nop: bool = False
    wmma: bool = False
    swmmac: bool = False
    branch: bool = False  # s_branch, s_cbranch_*
    setpc: bool = False  # a call, return or indirect branch (not s_endpgm)
    call: bool = False
    depctr: int | None = None  # the immediate of s_waitcnt_depctr / s_wait_alu
    waitcnt_zero: bool = False  # s_waitcnt whose whole immediate is 0
    lgkm_zero: bool = False  # a wait for lgkmcnt 0 (s_waitcnt or s_waitcnt_lgkmcnt null, 0)
    vscnt_zero: bool = False  # s_waitcnt_vscnt null, 0
    sgpr_defs: frozenset = frozenset()  # SGPR, VCC, EXEC and M0 units written
    sgpr_uses: frozenset = frozenset()  # SGPR, VCC, EXEC and M0 units read
    explicit_sgpr_defs: frozenset = frozenset()  # those of sgpr_defs written through an operand
    vgpr_explicit_uses: frozenset = frozenset()  # VGPRs read through an operand (row P's WAR)
    vgpr_defs: frozenset = frozenset()
    vgpr_sources: frozenset = frozenset()  # VGPRs read as explicit sources
    #: the 16-bit halves (VGPR, "l"/"h") its explicit operands write and read: a true16 operand (`v0.h`) names one,
    #: a 32-bit one both (rows L and P: LLVM 22 sees v0.l and v0.h as two registers)
    vgpr_def_halves: frozenset = frozenset()
    vgpr_source_halves: frozenset = frozenset()
    writes_exec: bool = False
    reads_exec: bool = False
    exec_compare: bool = False  # a VALU compare writing EXEC (v_cmpx)
    permlane: bool = False
    permlane_source: str = ""  # the register name of a permlane's src0
    wmma_dst: frozenset = frozenset()
    wmma_sources: frozenset = frozenset()  # A, B (and a gfx12 SWMMAC's index)
    dst: frozenset = frozenset()  # the VGPRs of its vdst (row O)
    source_registers: tuple[frozenset, ...] = ()  # each distinct VGPR register read as an explicit source (row K)
    vopd: bool = False  # a dual-issue VALU pair
    wmma_category: int = -1  # gfx1250 XDL WMMA: 0 dense 8-cycle, 1 dense 16-cycle, 2 SWMMAC 8, 3 SWMMAC 16 (row O)
    mask_reads: frozenset = frozenset()  # SGPRs or VCC a VALU reads as a lane mask or carry-in (row M)
    first_sgpr_def: frozenset = frozenset()  # the first SGPR or VCC operand written (row M)
    dealloc_vgprs: bool = False
    priority: int | None = None  # s_setprio's priority
    hwreg: int | str | None = None  # the hardware register an s_getreg/s_setreg names (id, or its name)
    simm16_is_1: bool = False  # s_setreg whose simm16 is 1: hwreg(HW_REG_WAVE_MODE, 0, 1) (row V)
    scratch_base_read: frozenset = frozenset()  # s102/s103 read as src_flat_scratch_base_lo/hi or hwreg (row U)
    writes_scratch_base: frozenset = frozenset()  # s102/s103 written (row U)
    lds_direct: bool = False  # lds_param_load/lds_direct_load (gfx11), ds_param_load/ds_direct_load (gfx12)
    wait_vdst: int | None = None  # an LDS-direct load's wait_vdst / wait_va_vdst (omitted: 0)
    wait_vm_vsrc: int | None = None  # its wait_vm_vsrc (gfx12; omitted: 0)
    big_nsa: bool = False  # a gfx10 MIMG in the NSA encoding of 16 bytes or more (row B)
    offset_bits_1_2: bool = False  # a MUBUF/MTBUF whose immediate offset has bit 1 or 2 set (row B)
    nop: bool = False  # s_nop
    wait_states: int = 1
    #: row Q: (first SGPR number, count, is VCC) of each register read and written (explicit, plus VCC
    #: where the instruction implies it)
    q_uses: tuple[tuple[int, int, bool], ...] = ()
    q_defs: tuple[tuple[int, int, bool], ...] = ()


def _sgpr_number(node: Node) -> tuple[int, int, bool] | None:
    """(hardware number, count, is VCC) of an SGPR or VCC operand; None for others (EXEC, M0, NULL, TTMPs)."""
    if isinstance(node, Reg) and node.kind == "s":
        return (node.index, node.count, False) if node.index <= 127 else None
    if isinstance(node, SpecialReg):
        return {"vcc": (106, 2, True), "vcc_lo": (106, 1, True), "vcc_hi": (107, 1, True)}.get(node.name)
    register = getattr(node, "operand", None) or getattr(node, "value", None)
    return _sgpr_number(register) if isinstance(register, (Reg, SpecialReg)) else None


def rdna_facts_of(instruction: Instruction, info: DefUse, target: Target) -> RdnaFacts:
    mnemonic = instruction.mnemonic
    klass = info.klass
    encoding = info.variant.encoding if info.variant is not None else ""
    facts = RdnaFacts(mnemonic)
    facts.valu = klass.unit == "valu"
    facts.salu = encoding in SALU_ENCODINGS or (not encoding and mnemonic.startswith("s_") and klass.unit not in ("smem",))
    facts.sopp = encoding == "SOPP"
    facts.smem = klass.unit == "smem"
    facts.vmem = klass.unit == "vmem" or encoding in VMEM_ENCODINGS
    facts.flat = facts.vmem and klass.memory in ("flat", "global", "scratch")
    facts.ds = klass.unit == "ds"
    facts.export = klass.unit == "export"
    facts.trans = facts.valu and (klass.rate == "trans" or bool(_TRANS_F64.match(mnemonic)))
    facts.v_nop = mnemonic.startswith("v_nop")
    facts.nop = mnemonic == "s_nop"
    facts.wait_states = instruction.wait_states
    facts.wmma = klass.matrix in ("wmma", "swmmac")
    facts.swmmac = klass.matrix == "swmmac"
    facts.branch = mnemonic == "s_branch" or mnemonic.startswith("s_cbranch")
    facts.call = klass.unit == "call"
    facts.setpc = klass.unit in ("call", "return")
    units = info.defs
    facts.sgpr_defs = frozenset(u for u in units if u[0] in ("s", "vcc", "exec", "m0"))
    facts.sgpr_uses = frozenset(u for u in info.uses if u[0] in ("s", "vcc", "exec", "m0"))
    facts.vgpr_defs = frozenset(u for u in units if u[0] == "v")
    facts.writes_exec = any(u[0] == "exec" for u in units)
    facts.reads_exec = any(u[0] == "exec" for u in info.uses)
    explicit_defs, explicit_uses = _explicit(instruction, info)
    facts.vgpr_sources = frozenset(u for operand in explicit_uses for u in register_units(operand) if u[0] == "v")
    registers = [frozenset(u for u in register_units(operand) if u[0] == "v") for operand in explicit_uses]
    facts.source_registers = tuple(dict.fromkeys(units for units in registers if units))
    facts.vgpr_source_halves = frozenset(half for operand in explicit_uses for half in _halves(operand))
    facts.vgpr_def_halves = frozenset(half for operand in explicit_defs for half in _halves(operand))
    facts.explicit_sgpr_defs = frozenset(u for operand in explicit_defs for u in register_units(operand)) & facts.sgpr_defs
    facts.exec_compare = facts.valu and facts.writes_exec and mnemonic.startswith("v_cmp")
    facts.vopd = instruction.pair is not None
    if facts.valu and instruction.operands:
        facts.dst = frozenset(u for u in register_units(instruction.operands[0]) if u[0] == "v") & facts.vgpr_defs
    if facts.valu and mnemonic.startswith(_MASK_READERS):
        if mnemonic.endswith("_e64") and not mnemonic.startswith("v_div_fmas") and instruction.operands:
            facts.mask_reads = frozenset(u for u in register_units(instruction.operands[-1]) if u[0] in _SCALAR_FILES)
        else:
            facts.mask_reads = frozenset(u for u in info.uses if u[0] == "vcc")
    written = [frozenset(u for u in register_units(operand) if u[0] in _SCALAR_FILES) for operand in explicit_defs]
    written += [frozenset(u for u in info.defs if u[0] == "vcc")]
    facts.first_sgpr_def = next((units for units in written if units), frozenset())
    facts.permlane = facts.valu and bool(_PERMLANE.match(mnemonic))
    if facts.permlane and len(instruction.operands) > 1:
        source = instruction.operands[1]
        if isinstance(source, Reg) and source.kind == "v" and source.count == 1:
            # gfx1250 banks: the v_mov (inserted under the same s_set_vgpr_msb mode) names the register as the
            # permlane does, and changes nothing only where its dst and src0 banks are the same (else: quiet)
            destination = operand_register(instruction.operands[0])
            bank = destination.index // 256 if isinstance(destination, Reg) and destination.kind == "v" else 0
            if source.index // 256 == bank:
                facts.permlane_source = f"v{source.index % 256}"
    if facts.wmma and len(instruction.operands) >= 3:
        operands = instruction.operands
        facts.wmma_dst = frozenset(register_units(operands[0]))
        sources = list(operands[1:3])
        if facts.swmmac and target.major >= 12 and len(operands) >= 4:
            sources.append(operands[3])
        facts.wmma_sources = frozenset(u for operand in sources for u in register_units(operand))
        if target.is_gfx1250 and "16x16x4_f32" not in mnemonic:
            formats = [getattr(value, "name", getattr(value, "value", 0)) for name, value in instruction.modifiers
                       if name in ("matrix_a_fmt", "matrix_b_fmt")]
            eight_bit = "f8f6f4" in mnemonic and (len(formats) < 2 or any(f in (0, 1, "MATRIX_FMT_FP8", "MATRIX_FMT_BF8")
                                                                          for f in formats))
            long = "iu8" in mnemonic or eight_bit
            facts.wmma_category = (2 if facts.swmmac else 0) + (1 if long else 0)
    if mnemonic in _DEPCTR:
        facts.depctr = depctr_value(instruction.operands, target)
    elif mnemonic == "s_waitcnt":
        operands = instruction.operands
        if len(operands) == 1 and isinstance(operands[0], Num):
            facts.waitcnt_zero = operands[0].value == 0
        counts = wait_counts(mnemonic, operands, target) or {}
        named = {name for name in ("vmcnt", "expcnt", "lgkmcnt") if counts.get(name) == 0}
        facts.waitcnt_zero = facts.waitcnt_zero or named == {"vmcnt", "expcnt", "lgkmcnt"}
        facts.lgkm_zero = "lgkmcnt" in named
    elif mnemonic in ("s_waitcnt_lgkmcnt", "s_waitcnt_vscnt"):
        operands = instruction.operands
        zero = (len(operands) == 2 and isinstance(operands[0], SpecialReg) and operands[0].name == "null"
                and isinstance(operands[1], Num) and operands[1].value == 0)
        facts.lgkm_zero = zero and mnemonic == "s_waitcnt_lgkmcnt"
        facts.vscnt_zero = zero and mnemonic == "s_waitcnt_vscnt"
    elif mnemonic == "s_sendmsg" and instruction.operands:
        message = instruction.operands[0]
        if isinstance(message, Call) and message.args:
            message = message.args[0]
        facts.dealloc_vgprs = (isinstance(message, Sym) and message.name.upper() in _DEALLOC) or (
            isinstance(message, Num) and message.value == 3)
    if mnemonic == "s_setprio" and instruction.operands and isinstance(instruction.operands[0], Num):
        facts.priority = int(instruction.operands[0].value)
    if mnemonic.startswith(("s_getreg", "s_setreg")):
        facts.hwreg = _hwreg_name(instruction.operands)
        simm16 = instruction.operands[0] if mnemonic.startswith("s_setreg") and instruction.operands else None
        facts.simm16_is_1 = (isinstance(simm16, Num) and simm16.value == 1) or (
            isinstance(simm16, Call) and simm16.name.lower() == "hwreg" and facts.hwreg == "MODE"
            and [getattr(arg, "value", None) for arg in simm16.args[1:]] == [0, 1])
        if mnemonic.startswith("s_getreg") and facts.hwreg in ("SCRATCH_BASE_LO", "SCRATCH_BASE_HI"):
            facts.scratch_base_read = frozenset({("s", 102 if facts.hwreg.endswith("LO") else 103)})
    specials = {operand.name for operand in explicit_uses if isinstance(operand, SpecialReg)}
    if specials & {"src_flat_scratch_base_lo", "src_flat_scratch_base_hi"}:
        facts.scratch_base_read = frozenset(("s", 102 if name.endswith("lo") else 103) for name in specials
                                            if name.startswith("src_flat_scratch_base"))
    facts.writes_scratch_base = frozenset(u for u in facts.sgpr_defs if u in (("s", 102), ("s", 103)))
    facts.lds_direct = klass.unit == "lds_parameter"
    if facts.lds_direct:
        modifiers = dict(instruction.modifiers)
        vdst = modifiers.get("wait_vdst", modifiers.get("wait_va_vdst"))
        facts.wait_vdst = int(vdst.value) if isinstance(vdst, Num) else 0
        vsrc = modifiers.get("wait_vm_vsrc")
        facts.wait_vm_vsrc = int(vsrc.value) if isinstance(vsrc, Num) else 0
    if facts.vmem and klass.memory == "image" and target.major == 10:
        addresses = next((operand for operand in instruction.operands if type(operand).__name__ == "ListExpr"), None)
        facts.big_nsa = addresses is not None and len(getattr(addresses, "items", ())) >= 6
    if facts.vmem and klass.memory == "buffer":
        offset = dict(instruction.modifiers).get("offset")
        facts.offset_bits_1_2 = isinstance(offset, Num) and isinstance(offset.value, int) and bool(offset.value & 6)
    if facts.valu or facts.salu:
        implicit_vcc = tuple((106, 1 if unit_count == 1 else 2, True) for unit_count in [
            sum(1 for u in info.uses if u[0] == "vcc")] if unit_count)
        facts.q_uses = _q_registers(explicit_uses, info.uses, implicit_vcc)
        implicit_vcc_def = tuple((106, 1 if count == 1 else 2, True) for count in [
            sum(1 for u in info.defs if u[0] == "vcc")] if count)
        facts.q_defs = _q_registers(explicit_defs, info.defs, implicit_vcc_def)
    return facts


_HWREG_NAMES = {2: "STATUS", 4: "STATE_PRIV", 17: "EXCP_FLAG_PRIV", 18: "EXCP_FLAG_USER", 1: "MODE",
                20: "SCRATCH_BASE_LO", 21: "SCRATCH_BASE_HI"}


def _halves(operand: Node) -> list[tuple[int, str]]:
    """The 16-bit VGPR halves an operand names: `v0.h` one, `v0` or `v[0:1]` both of each register."""
    register = operand_register(operand)
    if not isinstance(register, Reg) or register.kind != "v":
        return []
    if register.half in ("l", "h"):
        return [(register.index, register.half)]
    return [(index, half) for index in range(register.index, register.index + register.count) for half in "lh"]


def _hwreg_name(operands: tuple[Node, ...]) -> str | None:
    """The gfx12 name of the hardware register (without HW_REG_ and WAVE_), for the ids the rows ask about."""
    for operand in operands:
        if isinstance(operand, Call) and operand.name.lower() == "hwreg" and operand.args:
            first = operand.args[0]
            if isinstance(first, Sym):
                return first.name.upper().removeprefix("HW_REG_").removeprefix("WAVE_")
            return _HWREG_NAMES.get(first.value) if isinstance(first, Num) and isinstance(first.value, int) else None
    return None


def _q_registers(operands: list[Node], units: frozenset, implicit_vcc: tuple) -> tuple[tuple[int, int, bool], ...]:
    found: list[tuple[int, int, bool]] = []
    for operand in operands:
        number = _sgpr_number(operand)
        if number is not None and number not in found:
            found.append(number)
    if implicit_vcc and not any(vcc for _, _, vcc in found):
        found += implicit_vcc
    return tuple(found)


def _explicit(instruction: Instruction, info: DefUse) -> tuple[list[Node], list[Node]]:
    """The explicit operands written and read: by the table variant's specs, else by their registers."""
    operands = list(instruction.operands)
    if instruction.pair is not None:
        operands += instruction.pair.operands
    variant = info.variant
    if variant is not None and len(variant.operands) == len(instruction.operands) and instruction.pair is None:
        defs = [operand for spec, operand in zip(variant.operands, operands) if spec.is_def]
        uses = [operand for spec, operand in zip(variant.operands, operands) if not spec.is_def]
        uses += [operand for operand in defs if set(register_units(operand)) & info.uses]
        return defs, uses
    defs = [operand for operand in operands if set(register_units(operand)) & info.defs]
    uses = [operand for operand in operands if set(register_units(operand)) & info.uses]
    return defs, uses


# ---- findings


@dataclass(frozen=True, slots=True)
class RdnaRow:
    """One RDNA hazard row: its letter in rdna-hazards.md and what it is."""

    letter: str
    description: str


@dataclass(frozen=True, slots=True)
class RdnaHazard:
    """A consumer one of whose rows is not satisfied: the lines to insert (before it, or after `after`)."""

    consumer: int
    producer: int | None  # the instruction that started the hazard, where one is known
    row: RdnaRow
    lines: tuple[str, ...]
    after: int | None = None  # insert after this instruction instead of before the consumer
    detail: str = ""
    field: tuple[str, int] | None = None  # instead of inserting lines: set this field of the consumer (name, value)


ROW_D = RdnaRow("D", "a VMEM or DS instruction reads an SGPR that a scalar instruction then writes")
ROW_E = RdnaRow("E", "an SMEM instruction reads an SGPR that a VALU then writes")
ROW_F = RdnaRow("F", "a non-VALU instruction reads EXEC that a VALU then writes")
ROW_G = RdnaRow("G", "LDS and VMEM accesses on the two sides of a branch")
ROW_H = RdnaRow("H", "v_cmpx writes EXEC before a v_permlane")
ROW_K = RdnaRow("K", "a VALU reads two VGPRs written around an SALU write of EXEC (gfx11 wave64 partial forwarding)")
ROW_L = RdnaRow("L", "a transcendental result read by a VALU too soon")
ROW_N = RdnaRow("N", "a WMMA result read as A or B of the next WMMA")
ROW_Q = RdnaRow("Q", "an SGPR read before the ALU write to it has landed (gfx12)")
ROW_O = RdnaRow("O", "a WMMA result or source touched by the next instructions while the WMMA runs (gfx1250)")
ROW_P = RdnaRow("P", "a transcendental result read, or its source overwritten, by the next VALU (gfx1250)")
ROW_M = RdnaRow("M", "a VALU reads an SGPR as a lane mask or carry-in, then an ALU instruction writes it (gfx11 wave64)")
ROW_B = RdnaRow("B", "a 16-byte NSA image instruction right before a buffer access with offset bit 1 or 2 (gfx101x)")
ROW_I = RdnaRow("I", "an LDS-direct load's destination read or written by a recent VALU (its wait_vdst field)")
ROW_J = RdnaRow("J", "an LDS-direct load's destination read or written by a VMEM or DS access still in flight")
ROW_R = RdnaRow("R", "an export without the priority LLVM requires around it (gfx1150-gfx1153)")
ROW_S = RdnaRow("S", "s_getreg of a wave status register without an s_wait_alu of every field (gfx1250)")
ROW_T = RdnaRow("T", "ds_atomic_async_barrier_arrive_b64 without s_wait_alu depctr_vm_vsrc(0) around it (gfx1250)")
ROW_U = RdnaRow("U", "s102/s103 written, then read as the flat scratch base (gfx1250)")
ROW_V = RdnaRow("V", "s_setreg of MODE bit 0 without two v_nop before it (gfx1250)")
ROW_X = RdnaRow("X", "s_sendmsg MSG_DEALLOC_VGPRS right after other work")
ROW_A = RdnaRow("A", "SMEM soft clause with xnack: a clause member reads what an earlier member writes")
ROW_C = RdnaRow("C", "a floating-point VMEM atomic before s_denorm_mode")


# ---- the dataflow engine: each row is (start state, merge, step); step returns (new state, hazard or None)

@dataclass(slots=True)
class _Flow:
    """A forward dataflow: states at block entries iterated to a fixed point, findings of the last visit."""

    start: Any
    merge: Callable[[Any, Any], Any]
    step: Callable[[Any, int, RdnaFacts], tuple[Any, RdnaHazard | list[RdnaHazard] | None]]


def _run_flow(flow: _Flow, facts: list[RdnaFacts], cfg: ControlFlowGraph, edges: list[list[int]]) -> list[RdnaHazard]:
    """Iterate the block entry states to a fixed point; blocks nothing branches or falls into start afresh."""
    blocks, starts = cfg.blocks, cfg.starts
    entered = [False] * len(blocks)
    for successors in edges:
        for successor in successors:
            entered[successor] = True
    entry: list[Any] = [None if entered[block] and block else flow.start for block in range(len(blocks))]
    found: dict[int, list[RdnaHazard]] = {}
    pending = list(range(len(blocks) - 1, -1, -1))
    queued = [True] * len(blocks)
    step, merge = flow.step, flow.merge
    while pending:
        block = pending.pop()
        queued[block] = False
        state = entry[block]
        if state is None:
            continue
        hazards: list[RdnaHazard] = []
        first = starts[block]
        for index in range(first, first + len(blocks[block].instructions)):
            state, hazard = step(state, index, facts[index])
            if hazard is not None:
                hazards += hazard if isinstance(hazard, list) else [hazard]
        found[block] = hazards
        for successor in edges[block]:
            old = entry[successor]
            new = state if old is None else merge(old, state)
            if new != old:
                entry[successor] = new
                if not queued[successor]:
                    queued[successor] = True
                    pending.append(successor)
    return [hazard for block in sorted(found) for hazard in found[block]]


def _edges(cfg: ControlFlowGraph) -> list[list[int]]:
    """The CFG's successors, less the fall-through the CFG keeps after an `s_branch` to a label it does not
    resolve (LLVM's branch to the empty block at a function's end): no path runs that way."""
    edges = []
    for block in cfg.blocks:
        successors = block.successors
        if block.instructions and block.instructions[-1].mnemonic == "s_branch":
            target = cfg.block_of_label.get(getattr(block.instructions[-1].branch_target, "name", ""))
            successors = [successor for successor in successors if successor == target]
        edges.append(successors)
    return edges


def _union(a: Any, b: Any) -> Any:
    return a | b


def _larger(a: Any, b: Any) -> Any:
    return max(a, b)


# ---- rows


def _row_d(facts: list[RdnaFacts]) -> _Flow:
    """VMEM/DS reads R (explicitly, or EXEC and M0 implicitly), then an SALU or SMEM writes R: until a VALU,
    `s_waitcnt 0` or a depctr with vm_vsrc 0 lies between."""
    def step(state: Any, index: int, f: RdnaFacts) -> tuple[Any, Any]:
        hazard: RdnaHazard | None = None
        if state and (f.salu or f.smem) and f.explicit_sgpr_defs:
            hit = [producer for unit, producer in state if unit in f.explicit_sgpr_defs]
            if hit:
                hazard = RdnaHazard(index, max(hit), ROW_D, ("s_waitcnt_depctr depctr_vm_vsrc(0)",))
                state = frozenset()
        if f.valu or f.waitcnt_zero or field_is_zero(f.depctr, "vm_vsrc"):
            return frozenset(), hazard
        if (f.vmem or f.ds) and f.sgpr_uses:
            state = state | frozenset((unit, index) for unit in f.sgpr_uses)
        return state, hazard
    return _Flow(frozenset(), _union, step)


def _row_e(facts: list[RdnaFacts]) -> _Flow:
    """SMEM reads an SGPR that a VALU then writes: until an SALU (not SOPP), or a wait for lgkmcnt 0."""
    def step(state: Any, index: int, f: RdnaFacts) -> tuple[Any, Any]:
        hazard: RdnaHazard | None = None
        if state and f.valu and f.sgpr_defs:
            hit = [producer for unit, producer in state if unit in f.sgpr_defs]
            if hit:
                hazard = RdnaHazard(index, max(hit), ROW_E, ("s_mov_b32 null, 0",))
                return frozenset(), hazard
        if f.lgkm_zero or (f.salu and not f.sopp and f.mnemonic not in _SOPP_NOT_ENDING_E):
            return frozenset(), hazard
        if f.smem:
            uses = [u for u in f.sgpr_uses if u[0] in _SCALAR_FILES]
            if uses:
                state = state | frozenset((unit, index) for unit in uses)
        return state, hazard
    return _Flow(frozenset(), _union, step)


def _row_f(facts: list[RdnaFacts]) -> _Flow:
    """A non-VALU reads EXEC (every VMEM and DS does), then a VALU writes it: until a VALU writing an SGPR,
    or a depctr with sa_sdst 0."""
    def step(state: Any, index: int, f: RdnaFacts) -> tuple[Any, Any]:
        hazard: RdnaHazard | None = None
        if f.valu:
            if state >= 0 and f.writes_exec:
                hazard = RdnaHazard(index, state, ROW_F, ("s_waitcnt_depctr depctr_sa_sdst(0)",))
                return -1, hazard
            return (-1 if f.sgpr_defs else state), hazard
        if field_is_zero(f.depctr, "sa_sdst"):
            return -1, hazard
        if f.reads_exec:
            return index, hazard
        return state, hazard
    return _Flow(-1, _larger, step)


def _row_g(facts: list[RdnaFacts]) -> _Flow:
    """An LDS access, a branch, then a VMEM access (or the other way round), with no memory access of either
    kind after the branch and no `s_waitcnt_vscnt null, 0` in between. State: (kind of the last access,
    whether a branch followed it, its index) for each path, kind 0 when none."""
    def step(state: Any, index: int, f: RdnaFacts) -> tuple[Any, Any]:
        kind = 1 if f.ds else 2 if f.vmem else 0
        hazard: RdnaHazard | None = None
        if kind:
            hit = [producer for other, branched, producer in state if branched and other != kind]
            if hit:
                hazard = RdnaHazard(index, max(hit), ROW_G, ("s_waitcnt_vscnt null, 0x0",))
            return frozenset(((kind, False, index),)), hazard
        if f.vscnt_zero:
            return frozenset(), hazard
        if f.branch and state:
            return frozenset((other, True, producer) for other, _, producer in state), hazard
        return state, hazard
    return _Flow(frozenset(), _union, step)


def _row_h(facts: list[RdnaFacts]) -> _Flow:
    """v_cmpx writes EXEC, then a v_permlane: until a VALU other than v_nop."""
    def step(state: Any, index: int, f: RdnaFacts) -> tuple[Any, Any]:
        hazard: RdnaHazard | None = None
        if not f.valu:
            return state, hazard
        if f.permlane and state >= 0 and f.permlane_source:
            hazard = RdnaHazard(index, state, ROW_H, (f"v_mov_b32_e32 {f.permlane_source}, {f.permlane_source}",))
        if f.exec_compare:
            return index, hazard
        return (state if f.v_nop else -1), hazard
    return _Flow(-1, _larger, step)


_TRANS_VALUS, _TRANS_TRANS = 5, 1


def _row_l(facts: list[RdnaFacts]) -> _Flow:
    """A transcendental writes V, then a VALU reads V as a source with at most 5 VALUs and 1 transcendental
    between: until a VMEM, DS or export, or a depctr with va_vdst 0. State: (VGPRs, producer, VALUs, TRANS)."""
    def step(state: Any, index: int, f: RdnaFacts) -> tuple[Any, Any]:
        hazard: RdnaHazard | None = None
        if f.vmem or f.ds or f.export or field_is_zero(f.depctr, "va_vdst"):
            return frozenset(), hazard
        if not f.valu:
            return state, hazard
        if state and f.vgpr_source_halves:
            hit = [producer for written, producer, _, _ in state if written & f.vgpr_source_halves]
            if hit:
                hazard = RdnaHazard(index, max(hit), ROW_L, ("s_waitcnt_depctr depctr_va_vdst(0)",))
                state = frozenset()
        if state:
            trans = 1 if f.trans else 0
            state = frozenset((written, producer, valus + 1, count + trans) for written, producer, valus, count in state
                              if valus + 1 <= _TRANS_VALUS and count + trans <= _TRANS_TRANS)
        if f.trans and f.vgpr_def_halves:
            state = state | {(f.vgpr_def_halves, index, 0, 0)}
        return state, hazard
    return _Flow(frozenset(), _union, step)


def _row_n(facts: list[RdnaFacts]) -> _Flow:
    """A WMMA writes D, and the next VALU is a WMMA reading D as A or B (gfx12: or as a SWMMAC index)."""
    def step(state: Any, index: int, f: RdnaFacts) -> tuple[Any, Any]:
        if not f.valu:
            return state, None
        hazard: RdnaHazard | None = None
        if f.wmma and state and facts[state[0]].wmma_dst & f.wmma_sources:
            hazard = RdnaHazard(index, state[0], ROW_N, ("v_nop",))
        return ((index,) if f.wmma else ()), hazard
    return _Flow((), _larger, step)


_Q_SALU, _Q_VALU = 1, 2
_ALL_PAIRS = (1 << 64) - 1


def _row_q(target: Target, entry_function: bool) -> _Flow:
    """gfx12's SGPR read hazards, as LLVM 22's AMDGPUWaitSGPRHazards pass tracks them. State: (pairs a VALU
    has read, SGPRs an SALU wrote, SGPRs a VALU wrote, who wrote VCC) as bit sets."""
    def step(state: Any, index: int, f: RdnaFacts) -> tuple[Any, Any]:
        tracked, salu_written, valu_written, vcc = state
        if f.smem or (f.vmem and not f.flat):
            return (tracked, 0, 0, 0), None
        if f.depctr is not None:
            if field_is_zero(f.depctr, "va_vcc"):
                vcc &= ~_Q_VALU
            if field_is_zero(f.depctr, "sa_sdst"):
                salu_written, vcc = 0, vcc & ~_Q_SALU
            if field_is_zero(f.depctr, "va_sdst"):
                valu_written = 0
            return (tracked, salu_written, valu_written, vcc), None
        if not (f.valu or f.salu):
            return state, None
        wait = 0  # bits: 1 sa_sdst, 2 va_sdst, 4 va_vcc
        if f.setpc:
            wait = (4 if vcc & _Q_VALU else 0) | (1 if salu_written or vcc & _Q_SALU else 0) | (2 if valu_written else 0)
        else:
            for number, count, is_vcc in f.q_uses:
                pair = 1 << ((number >> 1) & 0x3F)
                if not tracked & pair:
                    if f.valu:
                        tracked |= pair
                    continue
                if f.salu:
                    if is_vcc:
                        if vcc & _Q_VALU:
                            vcc = 0
                    else:
                        valu_written = 0
                bits = ((1 << count) - 1) << number
                if salu_written & bits:
                    wait |= 1
                if f.valu and valu_written & bits:
                    wait |= 2
                if is_vcc and vcc:
                    wait |= (1 if vcc & _Q_SALU else 0) | (4 if vcc & _Q_VALU else 0)
        hazard: RdnaHazard | None = None
        if wait:
            names = tuple(name for bit, name in ((1, "sa_sdst"), (2, "va_sdst"), (4, "va_vcc")) if wait & bit)
            hazard = RdnaHazard(index, None, ROW_Q, (depctr_line(target.major, names),), detail=_q_detail(wait, f))
            if wait & 4:
                vcc &= ~_Q_VALU
            if wait & 1:
                salu_written, vcc = 0, vcc & ~_Q_SALU
            if wait & 2:
                valu_written = 0
        if f.call:
            tracked = _ALL_PAIRS
        for number, count, is_vcc in f.q_defs:
            if not tracked & (1 << ((number >> 1) & 0x3F)):
                continue
            if is_vcc:
                vcc = _Q_SALU if f.salu else _Q_VALU
            elif f.salu:
                salu_written |= ((1 << count) - 1) << number
            else:
                valu_written |= ((1 << count) - 1) << number
        return (tracked, salu_written, valu_written, vcc), hazard

    def merge(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(x | y for x, y in zip(a, b, strict=True))
    return _Flow((0 if entry_function else _ALL_PAIRS, 0, 0, 0), merge, step)


def _q_detail(wait: int, f: RdnaFacts) -> str:
    reader = "a VALU" if f.valu else "an SALU"
    parts = [text for bit, text in ((1, "an SALU write"), (2, "a VALU write"), (4, "a VALU write of VCC")) if wait & bit]
    if f.setpc:
        return f"{' and '.join(parts)} still in flight when {f.mnemonic} leaves the function"
    if wait & 2 and any(unit[0] == "s" for unit in f.mask_reads):
        # issue 40, 3: llc-22 adds va_sdst(0) to a va_vcc(0) wait before such a read
        return (f"{reader} reads an SGPR as a lane mask after a VALU write to it (va_vcc waits for VCC only; an "
                "SGPR a VALU wrote waits on va_sdst, as llc-22 writes it)")
    return f"{reader} reads an SGPR after {' and '.join(parts)} to it"


def _row_p(facts: list[RdnaFacts]) -> _Flow:
    """gfx1250: a transcendental, then as the next VALU a non-transcendental one that reads its result or
    overwrites one of its sources. State: the last VALU's index if it was a transcendental, else -1."""
    def step(state: Any, index: int, f: RdnaFacts) -> tuple[Any, Any]:
        if not f.valu:
            return state, None
        hazard: RdnaHazard | None = None
        if state >= 0 and not f.trans:
            trans = facts[state]
            if trans.vgpr_def_halves & f.vgpr_source_halves or f.vgpr_def_halves & trans.vgpr_source_halves:
                hazard = RdnaHazard(index, state, ROW_P, ("v_nop",))
        return (index if f.trans else -1), hazard
    return _Flow(-1, _larger, step)


def _row_m(facts: list[RdnaFacts], block_ends: frozenset[int]) -> _Flow:
    """gfx11 wave64: a VALU reads an SGPR as a lane mask or carry-in, then an SALU or VALU writes it; LLVM puts a
    depctr wait right after the write, which may move down to just before the next read of what the write
    wrote, but not past the end of the block. State: (SGPRs read as masks since written, pending writes as
    (unit, writer, field))."""
    def step(state: Any, index: int, f: RdnaFacts) -> tuple[Any, Any]:
        masks, pending = state
        hazards: list[RdnaHazard] = []
        if f.depctr is not None:
            return (masks, frozenset(entry for entry in pending if not field_is_zero(f.depctr, entry[2]))), None
        if pending and f.sgpr_uses & frozenset(unit for unit, _, _ in pending):
            writers = {writer for unit, writer, _ in pending if unit in f.sgpr_uses}
            hazards += _mask_hazards(entry for entry in pending if entry[1] in writers)
            pending = frozenset(entry for entry in pending if entry[1] not in writers)
        if (f.salu or f.valu) and f.first_sgpr_def & masks:
            field = "sa_sdst" if f.salu else "va_vcc" if any(u[0] == "vcc" for u in f.first_sgpr_def) else "va_sdst"
            pending = pending | frozenset((unit, index, field) for unit in f.first_sgpr_def & masks)
        if f.sgpr_defs and masks:
            masks = masks - f.sgpr_defs
        if f.mask_reads:  # after its own write: a later writer finds this read first, walking back
            masks = masks | f.mask_reads
        if index in block_ends and pending:
            hazards += _mask_hazards(pending)
            pending = frozenset()
        return (masks, pending), hazards or None
    return _Flow((frozenset(), frozenset()), _pairwise_union, step)


def _machine_block_ends(cfg: ControlFlowGraph, edges: list[list[int]]) -> frozenset[int]:
    """The last instruction of each of LLVM's machine basic blocks: a block's last one, unless the block only falls
    through into one nothing else reaches (a label no branch names, as a -g listing's `.Ltmp` labels, ends none)."""
    ends = set()
    for start, block in zip(cfg.starts, cfg.blocks, strict=True):
        following = block.index + 1
        if (edges[block.index] == [following] and cfg.blocks[following].predecessors == [block.index]
                and not (block.terminator is not None and is_branch(block.terminator.mnemonic))):
            continue
        ends.add(start + len(block.instructions) - 1)
    return frozenset(ends)


def _mask_hazards(entries: Iterable[tuple[tuple[str, int], int, str]]) -> list[RdnaHazard]:
    writers = sorted({(writer, field) for _, writer, field in entries})
    return [RdnaHazard(writer, None, ROW_M, (depctr_line(11, (field,)),), after=writer) for writer, field in writers]


def _pairwise_union(a: tuple, b: tuple) -> tuple:
    return tuple(x | y for x, y in zip(a, b, strict=True))


_ALL_FIELDS = ("hold_cnt", "sa_sdst", "va_vdst", "va_sdst", "va_ssrc", "va_vcc", "vm_vsrc")
_STATUS_REGISTERS = ("STATUS", "STATE_PRIV", "EXCP_FLAG_PRIV", "EXCP_FLAG_USER")


def _row_s(facts: list[RdnaFacts]) -> _Flow:
    """gfx1250: every s_getreg of the wave's status registers right after an s_wait_alu with every field at 0.
    State: the previous instruction's depctr immediate (-1: none)."""
    def step(state: Any, index: int, f: RdnaFacts) -> tuple[Any, Any]:
        hazard: RdnaHazard | None = None
        if f.mnemonic.startswith("s_getreg") and f.hwreg in _STATUS_REGISTERS and not all(
                field_is_zero(state, name) for name in _ALL_FIELDS):
            hazard = RdnaHazard(index, None, ROW_S, (depctr_line(12, _ALL_FIELDS),))
        return (f.depctr if f.depctr is not None else -1), hazard
    return _Flow(-1, _either, step)


def _either(a: Any, b: Any) -> Any:
    return a if a == b else -1


def _row_t(facts: list[RdnaFacts]) -> _Flow:
    """gfx1250: ds_atomic_async_barrier_arrive_b64 with an s_wait_alu depctr_vm_vsrc(0) right before and after.
    State: (previous instruction's depctr immediate or -1, the arrive that needs the wait after it, or -1)."""
    wait = depctr_line(12, ("vm_vsrc",))

    def step(state: Any, index: int, f: RdnaFacts) -> tuple[Any, Any]:
        before, arrive = state
        hazards = []
        if arrive >= 0 and not field_is_zero(f.depctr, "vm_vsrc"):
            hazards.append(RdnaHazard(arrive, None, ROW_T, (wait,), after=arrive))
        if f.mnemonic.startswith("ds_atomic_async_barrier_arrive"):
            if not field_is_zero(before if before >= 0 else None, "vm_vsrc"):
                hazards.append(RdnaHazard(index, None, ROW_T, (wait,)))
            return (-1, index), hazards or None
        return ((f.depctr if f.depctr is not None else -1), -1), hazards or None
    return _Flow((-1, -1), _larger, step)


def _row_v(facts: list[RdnaFacts]) -> _Flow:
    """gfx1250: two v_nop right before an s_setreg whose simm16 is 1. State: v_nops just before (at most 2)."""
    def step(state: Any, index: int, f: RdnaFacts) -> tuple[Any, Any]:
        hazard: RdnaHazard | None = None
        if f.simm16_is_1 and state < 2:
            hazard = RdnaHazard(index, None, ROW_V, ("v_nop",) * (2 - state))
        return (min(state + 1, 2) if f.v_nop else 0), hazard
    return _Flow(0, _larger, step)


_SCRATCH_BASE_WRITERS = 10


def _row_u(facts: list[RdnaFacts]) -> _Flow:
    """gfx1250: s102/s103 written, then read as src_flat_scratch_base_lo/hi (or through s_getreg) before 10
    SGPR-writing ALU instructions pass, with no s_wait_alu with sa_sdst and va_sdst both at 0 between.
    State: frozenset of (register, writer, SGPR-writing ALU instructions since)."""
    def step(state: Any, index: int, f: RdnaFacts) -> tuple[Any, Any]:
        hazard: RdnaHazard | None = None
        if f.depctr is not None and field_is_zero(f.depctr, "sa_sdst") and field_is_zero(f.depctr, "va_sdst"):
            return frozenset(), None
        if state and f.scratch_base_read:
            hit = [writer for unit, writer, _ in state if unit in f.scratch_base_read]
            if hit:
                hazard = RdnaHazard(index, max(hit), ROW_U, (depctr_line(12, ("sa_sdst", "va_sdst")),))
                state = frozenset()
        if state and (f.salu or f.valu) and f.sgpr_defs:
            state = frozenset((unit, writer, count + 1) for unit, writer, count in state
                              if count + 1 < _SCRATCH_BASE_WRITERS)
        if f.writes_scratch_base:
            state = frozenset(entry for entry in state if entry[0] not in f.writes_scratch_base) | frozenset(
                (unit, index, 0) for unit in f.writes_scratch_base)
        return state, hazard
    return _Flow(frozenset(), _union, step)


def _row_b(facts: list[RdnaFacts]) -> _Flow:
    """gfx101x: an NSA image instruction of 16 bytes or more, then at once a buffer access whose offset has bit 1
    or 2 set. State: the previous instruction's index if it was such an image instruction, else -1."""
    def step(state: Any, index: int, f: RdnaFacts) -> tuple[Any, Any]:
        hazard: RdnaHazard | None = None
        if state >= 0 and f.offset_bits_1_2:
            hazard = RdnaHazard(index, state, ROW_B, ("s_nop 0",))
        return (index if f.big_nsa else -1), hazard
    return _Flow(-1, _larger, step)


_LDS_DIRECT_MAX_WAIT = 15


def _row_i(facts: list[RdnaFacts], target: Target) -> _Flow:
    """gfx11/gfx12: an LDS-direct load whose vdst a VALU read or wrote: its wait_vdst (gfx12 wait_va_vdst) field
    must be at most the VALUs since that VALU (0 if a transcendental passed; 15 at most), as LLVM sets it. A VMEM,
    DS or export drains them. State: frozenset of (VGPRs, producer, VALUs since, a transcendental passed)."""
    name = "wait_va_vdst" if target.major >= 12 else "wait_vdst"

    def step(state: Any, index: int, f: RdnaFacts) -> tuple[Any, Any]:
        hazard: RdnaHazard | None = None
        if f.lds_direct and state:
            counts = [(0 if trans else valus, producer) for vgprs, producer, valus, trans in state if vgprs & f.vgpr_defs]
            if counts:
                allowed, producer = min(counts)
                if f.wait_vdst is not None and f.wait_vdst > allowed:
                    hazard = RdnaHazard(index, producer, ROW_I, (), field=(name, allowed))
        if f.vmem or f.ds or f.export:
            return frozenset(), hazard
        if f.valu:
            state = frozenset((vgprs, producer, valus + 1, trans or f.trans) for vgprs, producer, valus, trans in state
                              if valus + 1 < _LDS_DIRECT_MAX_WAIT)
            touched = f.vgpr_defs | f.vgpr_sources
            if touched:  # LLVM counts 0 once it has seen a transcendental, the producer included
                state = state | {(touched, index, 0, f.trans)}
        return state, hazard
    return _Flow(frozenset(), _union, step)


def _row_j(facts: list[RdnaFacts], target: Target) -> _Flow:
    """gfx11/gfx12: a VMEM or DS access reads or writes V, then an LDS-direct load writes V: until a VALU, an
    export, `s_waitcnt 0` or a depctr with vm_vsrc 0 (gfx12: an LDS-direct load with wait_vm_vsrc:0). gfx11 waits
    with a depctr before it, gfx12 with the load's own wait_vm_vsrc:0. State: frozenset of (VGPR, producer)."""
    gfx12 = target.major >= 12

    def step(state: Any, index: int, f: RdnaFacts) -> tuple[Any, Any]:
        hazard: RdnaHazard | None = None
        if f.lds_direct:
            hit = [producer for unit, producer in state if unit in f.vgpr_defs]
            if hit and not (gfx12 and f.wait_vm_vsrc == 0):
                if gfx12:
                    hazard = RdnaHazard(index, max(hit), ROW_J, (), field=("wait_vm_vsrc", 0))
                else:
                    hazard = RdnaHazard(index, max(hit), ROW_J, ("s_waitcnt_depctr depctr_vm_vsrc(0)",))
            if hit or (gfx12 and f.wait_vm_vsrc == 0):
                return frozenset(), hazard
        if f.valu or f.export or f.waitcnt_zero or field_is_zero(f.depctr, "vm_vsrc"):
            return frozenset(), hazard
        if f.vmem or f.ds:
            state = state | frozenset((unit, index) for unit in f.vgpr_defs | f.vgpr_sources)
        return state, hazard
    return _Flow(frozenset(), _union, step)


_WMMA_READ_STATES = (5, 9, 3, 5)  # VALUs before an XDL WMMA reads the result as A/B, per category
_VALU_STATES = (4, 8, 2, 4)  # before a co-executable VALU reads or writes the result, or writes A/B


def _row_o(facts: list[RdnaFacts]) -> _Flow:
    """gfx1250: an XDL WMMA's result read as A/B (SWMMAC: or index) by the next XDL WMMA, or a co-executing VALU
    (not transcendental) reading or writing its result or overwriting its A/B (a dual-issue pair: reading its
    result only, as LLVM 22 checks it), with too few VALUs (v_nop counts) between. State: frozenset of (WMMA,
    VALUs since)."""
    def step(state: Any, index: int, f: RdnaFacts) -> tuple[Any, Any]:
        if not f.valu:
            return state, None
        hazard: RdnaHazard | None = None
        if state:
            missing, producer = 0, -1
            for wmma, valus in state:
                w = facts[wmma]
                if f.wmma_category >= 0:
                    needed = _WMMA_READ_STATES[w.wmma_category] if w.wmma_dst & f.wmma_sources else 0
                elif f.trans or f.wmma:
                    needed = 0
                else:  # a dual-issue pair: LLVM 22 checks what it reads, not what it writes
                    touched = w.wmma_dst & f.vgpr_sources if f.vopd else (
                        (w.wmma_dst & (f.vgpr_sources | f.dst)) or (w.wmma_sources & f.dst))
                    needed = _VALU_STATES[w.wmma_category] if touched else 0
                if needed - valus > missing:
                    missing, producer = needed - valus, wmma
            if missing > 0:
                hazard = RdnaHazard(index, producer, ROW_O, ("v_nop",) * missing)
                state = frozenset((wmma, valus + missing) for wmma, valus in state)
            state = frozenset((wmma, valus + 1) for wmma, valus in state if valus + 1 < _WMMA_READ_STATES[1])
        if f.wmma_category >= 0:
            state = state | {(index, 0)}
        return state, hazard
    return _Flow(frozenset(), _union, step)


_K_BEFORE_AND_ACROSS_EXEC = 2  # VALUs between Va's write and EXEC's, plus between EXEC's and Vb's
_K_AFTER = 4  # VALUs between Vb's write and the reader
_K_SEARCH = 8  # VALUs after which LLVM stops looking


def _row_k(facts: list[RdnaFacts], cfg: ControlFlowGraph, edges: list[list[int]]) -> list[RdnaHazard]:
    """gfx11 wave64: a VALU reads Va and Vb, where a VALU wrote Va, then an SALU wrote EXEC, then a VALU wrote Vb,
    close together (LLVM's partial forwarding). A backward search from each such reader, as LLVM's is: a VMEM,
    DS, export or a depctr with va_vdst 0 ends it, and so do more than 8 VALUs."""
    predecessors: list[list[int]] = [[] for _ in cfg.blocks]
    for block, successors in enumerate(edges):
        for successor in successors:
            predecessors[successor].append(block)
    found = []
    for index, f in enumerate(facts):
        if f.valu and len(f.source_registers) >= 2:
            producer = _partial_forwarding(index, f.source_registers, facts, cfg, predecessors)
            if producer is not None:
                found.append(RdnaHazard(index, producer, ROW_K, ("s_waitcnt_depctr depctr_va_vdst(0)",)))
    return found


def _partial_forwarding(consumer: int, sources: tuple[frozenset, ...], facts: list[RdnaFacts], cfg: ControlFlowGraph,
                        predecessors: list[list[int]]) -> int | None:
    """The first VALU write of the pattern (Va's) where the search from `consumer` finds one, else None."""
    starts, block_of = cfg.starts, cfg.block_of
    visited: set[int] = set()
    home = block_of[consumer]
    # (index to look at next, its block's first index, the block, VALUs passed, source -> VALUs passed when its
    # write was met, VALUs passed when EXEC's write was met)
    stack: list[tuple[int, int, int, int, dict[frozenset, int], int | None]] = [
        (consumer - 1, starts[home], home, 0, {}, None)]
    while stack:
        index, first, block, valus, written, exec_at = stack.pop()
        ended = False
        while index >= first:
            f = facts[index]
            if valus > _K_SEARCH or f.vmem or f.ds or f.export or field_is_zero(f.depctr, "va_vdst"):
                ended = True
                break
            changed = False
            if f.valu:
                for source in sources:
                    if source not in written and source & f.vgpr_defs:
                        written = {**written, source: valus}
                        changed = True
            elif exec_at is None and written and f.writes_exec:
                exec_at, changed = valus, True
            if changed and exec_at is not None:
                verdict = _partial_forwarding_verdict(written, exec_at)
                if verdict is not None:
                    if verdict:
                        return index
                    ended = True
                    break
            if f.valu:
                valus += 1
            index -= 1
        if ended:
            continue
        for predecessor in predecessors[block]:
            if predecessor not in visited:
                visited.add(predecessor)
                start = starts[predecessor]
                stack.append((start + len(cfg.blocks[predecessor].instructions) - 1, start, predecessor, valus, written,
                              exec_at))
    return None


def _partial_forwarding_verdict(written: dict[frozenset, int], exec_at: int) -> bool | None:
    """True: the pattern is complete; False: it can no longer be; None: look further back."""
    after_exec = [position for position in written.values() if position < exec_at]
    before_exec = [position for position in written.values() if position >= exec_at]
    if not after_exec:
        return None
    vb = min(after_exec)
    between_exec_and_vb = exec_at - vb - 1
    if vb > _K_AFTER or between_exec_and_vb > _K_BEFORE_AND_ACROSS_EXEC:
        return False
    if not before_exec:
        return None
    before = min(before_exec) - exec_at
    return before + between_exec_and_vb <= _K_BEFORE_AND_ACROSS_EXEC


_NORMAL_PRIORITY = 2


def _row_r(facts: list[RdnaFacts], kernel: Kernel, entry: bool) -> list[RdnaHazard]:
    """gfx1150-gfx1153 graphics shaders: a shader that exports starts at priority 2 or more (a callable function
    leaves that to its caller), and the last of a run of exports is followed by `s_setprio 0` (LLVM then waits
    for the exports, two `s_nop 0`, and raises it again)."""
    found = []
    instructions = kernel.instructions
    priority = facts[0].priority if facts else None
    if entry and facts and not (priority is not None and priority >= _NORMAL_PRIORITY):
        found.append(RdnaHazard(0, None, ROW_R, (f"s_setprio {_NORMAL_PRIORITY}",), detail="the shader exports"))
    for index, f in enumerate(facts):
        if not f.export or index + 1 >= len(facts):
            continue
        following = facts[index + 1]
        if following.export or following.priority == 0:
            continue
        end = following.mnemonic.startswith("s_endpgm")
        lines = ["s_setprio 0"] + ([] if end else ["s_waitcnt_expcnt null, 0x0"]) + ["s_nop 0", "s_nop 0"] + (
            [] if end else [f"s_setprio {_NORMAL_PRIORITY}"])
        found.append(RdnaHazard(index, None, ROW_R, tuple(lines), after=index, detail=f"{instructions[index].mnemonic}"))
    return found


def _row_x(facts: list[RdnaFacts]) -> _Flow:
    """s_sendmsg MSG_DEALLOC_VGPRS needs an s_nop right before it. State: the previous instruction was s_nop."""
    def step(state: Any, index: int, f: RdnaFacts) -> tuple[Any, Any]:
        hazard: RdnaHazard | None = None
        if f.dealloc_vgprs and not state:
            hazard = RdnaHazard(index, None, ROW_X, ("s_nop 0",))
        return f.nop, hazard
    return _Flow(False, _larger, step)


def _row_a(facts: list[RdnaFacts]) -> _Flow:
    """With xnack, back-to-back SMEM instructions form a clause; one that is a store, or that reads or writes
    what an earlier member writes (or writes what a member reads), must start a new clause.
    State: (first member, registers the members write, registers they read), () outside a clause."""
    def step(state: Any, index: int, f: RdnaFacts) -> tuple[Any, Any]:
        if not f.smem:
            return (), None
        written = frozenset(u for u in f.sgpr_defs if u[0] in _SCALAR_FILES)
        read = frozenset(u for u in f.sgpr_uses if u[0] in _SCALAR_FILES)
        hazard: RdnaHazard | None = None
        if state:
            first, members_write, members_read = state
            store = f.mnemonic.startswith(("s_store", "s_buffer_store", "s_scratch_store", "s_atomic", "s_buffer_atomic"))
            if members_write and (store or members_write & (read | written) or (members_write | written) & (members_read | read)):
                hazard = RdnaHazard(index, first, ROW_A, ("s_nop 0",))
                return (index, written, read), hazard
            return (first, members_write | written, members_read | read), hazard
        return (index, written, read), hazard
    return _Flow((), _larger, step)


def _row_c(facts: list[RdnaFacts]) -> _Flow:
    """A floating-point VMEM atomic, then s_denorm_mode within 3 wait states (a VALU or any s_waitcnt ends it).
    State: (producer, wait states since), () when none."""
    def step(state: Any, index: int, f: RdnaFacts) -> tuple[Any, Any]:
        hazard: RdnaHazard | None = None
        if f.mnemonic == "s_denorm_mode" and state and state[1] < 3:
            hazard = RdnaHazard(index, state[0], ROW_C, (f"s_nop {2 - state[1]}",))
            state = ()
        if f.valu or f.mnemonic.startswith("s_waitcnt"):
            return (), hazard
        if f.vmem and "_atomic" in f.mnemonic and _FP_ATOMIC.search(f.mnemonic):
            return (index, 0), hazard
        if state:
            states = state[1] + f.wait_states
            return ((state[0], states) if states < 3 else ()), hazard
        return state, hazard
    return _Flow((), _larger, step)


_FP_ATOMIC = re.compile(r"_atomic_(add|min|max|cmpswap|pk_add)_(f32|f64|f16|bf16|x2)|_atomic_f(add|min|max|cmpswap)")
@dataclass(slots=True)
class RdnaReport:
    """The RDNA hazards of a kernel, in instruction order."""

    hazards: list[RdnaHazard] = field(default_factory=list)


def _rows_for(target: Target) -> tuple[str, ...]:
    """The rows (letters) LLVM 22 applies on `target` (rdna-hazards.md §1)."""
    name = target.generic or target.name
    major, minor = target.major, target.minor
    rows: list[str] = []
    gfx101x = major == 10 and minor < 3
    if gfx101x:
        rows += ["B", "C", "D", "E", "F", "G", "H"]
        if target.features.get("xnack", True):
            rows.append("A")
    elif major == 10:
        rows.append("C")
    elif major == 11:
        rows += ["H", "I", "J", "K", "M", "N", "X"]
        if minor == 5 or name == "gfx11-generic":
            rows.append("R")
        if minor == 0 and name != "gfx11-generic":
            rows.append("L")
    elif major == 12 and not target.is_gfx1250:
        rows += ["H", "I", "J", "N", "Q", "X"]
    elif target.is_gfx1250:
        rows += ["A", "H", "N", "O", "P", "S", "T", "U", "V"]
    return tuple(rows)


_WAVE64_ROWS = ("K", "M")  # rows LLVM applies only when the wave is 64 wide
_FLOWS = {"A": _row_a, "C": _row_c, "D": _row_d, "E": _row_e, "F": _row_f, "G": _row_g, "H": _row_h, "L": _row_l,
          "N": _row_n, "O": _row_o, "P": _row_p, "X": _row_x, "B": _row_b, "S": _row_s,
          "T": _row_t, "U": _row_u, "V": _row_v}


class RdnaHazardAnalysis(Analysis):
    """The RDNA hazard rows LLVM 22 mitigates (None below gfx10 or without a target)."""

    name = "rdna-hazards"

    @classmethod
    def run(cls, kernel: Kernel, manager: AnalysisManager) -> RdnaReport | None:
        target = manager.module.target
        def_use = manager.get(DefUseAnalysis)
        if target is None or def_use is None or target.major < 10:
            return None
        facts = [shared.rdna or _shared_rdna(shared, instruction, target)
                 for instruction, shared in zip(def_use.instructions, def_use.facts, strict=True)]
        cfg = manager.get(CFGAnalysis)
        edges = _edges(cfg)
        report = RdnaReport()
        wave, known = _wave_size(manager.module, kernel)
        for letter in _rows_for(target):
            if not _may_apply(letter, facts):
                continue
            if letter in _WAVE64_ROWS:
                if wave != 64 or not known:
                    continue  # LLVM applies it to wave64 only; quiet where the wave size is a guess
                if letter == "K":
                    report.hazards += _row_k(facts, cfg, edges)
                    continue
                flow = _row_m(facts, _machine_block_ends(cfg, edges))
            elif letter == "Q":
                flow = _row_q(target, _entry_function(kernel, facts))
            elif letter == "R":
                # LLVM skips compute shaders and kernels, which only the calling convention tells apart: only
                # the graphics OSes' listings are checked
                triple = manager.module.target_triple or ""
                if "amdpal" in triple or "mesa3d" in triple:
                    report.hazards += _row_r(facts, kernel, _entry_function(kernel, facts))
                continue
            elif letter in ("I", "J"):
                flow = (_row_i if letter == "I" else _row_j)(facts, target)
            else:
                flow = _FLOWS[letter](facts)
            report.hazards += _run_flow(flow, facts, cfg, edges)
        if "G" in _rows_for(target) and not (any(f.ds for f in facts) and any(f.vmem for f in facts)):
            report.hazards = [hazard for hazard in report.hazards if hazard.row is not ROW_G]
        report.hazards.sort(key=lambda hazard: (hazard.consumer, hazard.row.letter))
        return report


def _wave_size(module: Module, kernel: Kernel) -> tuple[int, bool]:
    """The kernel's wave size and whether it is known; a function takes the one every kernel of the module's
    metadata has (LLVM compiles a module's functions for its kernels' wave size)."""
    wave, known = kernel_wave_size(module, kernel)
    if not known and module.metadata:
        sizes = {entry.get(".wavefront_size") for entry in module.metadata.get("amdhsa.kernels") or ()
                 if isinstance(entry, dict)}
        for size in (32, 64):
            if sizes == {size}:
                return size, True
    return wave, known


def _entry_function(kernel: Kernel, facts: list[RdnaFacts]) -> bool:
    """A kernel or shader, not a callable function: marked as one, or ending the program rather than returning."""
    if kernel.is_kernel or kernel.descriptor or kernel.metadata:
        return True
    return not any(f.setpc and not f.call for f in facts) or any(f.mnemonic.startswith("s_endpgm") for f in facts)


def _may_apply(letter: str, facts: list[RdnaFacts]) -> bool:
    """A cheap test that the kernel has the row's consumer at all."""
    test: Callable[[RdnaFacts], bool] = {
        "A": lambda f: f.smem, "C": lambda f: f.mnemonic == "s_denorm_mode", "D": lambda f: f.vmem or f.ds,
        "E": lambda f: f.smem, "F": lambda f: f.valu and f.writes_exec, "G": lambda f: f.ds,
        "H": lambda f: f.permlane, "R": lambda f: f.export, "K": lambda f: f.writes_exec and f.salu, "L": lambda f: f.trans, "M": lambda f: bool(f.mask_reads), "N": lambda f: f.wmma, "O": lambda f: f.wmma_category >= 0, "P": lambda f: f.trans, "Q": lambda f: f.valu or f.salu,
        "X": lambda f: f.dealloc_vgprs, "B": lambda f: f.offset_bits_1_2, "I": lambda f: f.lds_direct,
        "J": lambda f: f.lds_direct, "S": lambda f: f.hwreg in _STATUS_REGISTERS,
        "T": lambda f: f.mnemonic.startswith("ds_atomic_async_barrier_arrive"), "U": lambda f: bool(f.scratch_base_read),
        "V": lambda f: f.simm16_is_1,
    }[letter]
    return any(map(test, facts))


def _shared_rdna(shared: InstructionFacts, instruction: Instruction, target: Target) -> RdnaFacts:
    shared.rdna = rdna_facts_of(instruction, shared.info, target)
    return shared.rdna
