"""Registers that may hold a written value on some path from the kernel entry.

At entry, a kernel has its ABI inputs (llvm AMDGPUUsage, "initial kernel execution state"):
user SGPRs, then the enabled system SGPRs (work-group IDs, work-group info, private segment
wave offset), the work-item ID VGPRs (v0..v2, or all packed in v0 on gfx90a/gfx94x/gfx11+),
EXEC, the trap temporaries, and flat_scratch where it is architected. A call may write
anything. A register that holds no written value on every path to a read is garbage there,
except where the garbage goes nowhere:

- a plain move copies it (also into or out of one lane, as SGPR spills do): the copy holds
  garbage too and is judged where it is used (a move into EXEC is such a use);
- the high half of a 64-bit multiply-add's addend (`v_mad_u64_u32`) only reaches the result's
  high half and the carry, which then hold garbage (LLVM leaves it undefined when only the
  low half of the result is used);
- LLVM's scratch setup on gfx6-gfx10 (flat_scratch, or the private segment buffer's base with
  `s_add_u32 s96, s96, s15`) adds the SGPR where the private-segment wave offset would be even
  when the kernel has no scratch, and so no wave offset: it then addresses no private memory
  the kernel uses;
- `s_bfe_i64`/`s_bfe_u64` of a field inside the low dword reads no bit of the high one;
- `v_pk_{fma,mul,add}_f32` reads of a source pair only the halves op_sel and op_sel_hi pick;
- a spill (a store to scratch) stores whole register tuples, halves never written included (the
  reload then counts as written).

Only code reachable from the entry is judged; an `s_setpc_b64` in a kernel is taken to jump to
any label the kernel uses as an address (LLVM's long branches).

Bytes of a VGPR are tracked where an instruction is known to write only some of them and keep the rest
(`_partial_writes`: d16 loads, `v_cvt_pk_{fp8,bf8}_f32`, `v_cvt_sr_{fp8,bf8}_f32`, SDWA `dst_sel` with
`UNUSED_PRESERVE`, true16 `.l`/`.h` destinations, `v_{fma,mad}_mix{lo,hi}_f16`); every other write counts as
a write of the whole register. Where such a register is read by an instruction known to read given bytes
(`_known_reads`: store data, matrix A/B sources, true16 and SDWA source halves), bytes no path wrote are
reported; other reads of it count as reads of written bits.

Half fresh, half stale (`_stale_reads`): such a read is also judged on its first execution. Where some of its
bytes are written on a path to it by a partial write, and the others are written on no path that reaches it
without passing through it first (only a write after it, around a loop, reaches them), its first execution
reads those bytes as garbage and every later one reads what an earlier trip left there: the fp8 conversion that
fills half the register each trip. A write before the loop or earlier in the trip, on any path, reaches them
at the first execution, and the read is not reported (a pad, a merge, a software-pipelined prologue). The
writes that may have run last are found walking back from the read, nearest first; one may run before the first
execution unless the read's block dominates it (or it follows the read in the read's block). The walks stop,
quiet, past 32 instructions looked at per instruction of the kernel.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from ..isa.defuse import DefUse, Unit, register_units
from ..model.frozen import frozen_dataclass
from ..model.ir import Instruction, Kernel
from ..model.nodes import BinOp, Call, Node, Num, Sym, UnOp
from ..model.targets import Target
from .cfg import CFGAnalysis, ControlFlowGraph, is_branch
from .defuse import DefUseAnalysis, InstructionFacts, through_private_segment
from .manager import Analysis, AnalysisManager

_SYSTEM_SGPRS = ("system_sgpr_workgroup_id_x", "system_sgpr_workgroup_id_y", "system_sgpr_workgroup_id_z",
                 "system_sgpr_workgroup_info")
#: Set up for every wave: EXEC, the trap temporaries and the trap handler addresses.
_HARDWARE_UNITS = frozenset((("exec", 0), ("exec", 1), ("tba", 0), ("tba", 1), ("tma", 0), ("tma", 1),
                             *(("ttmp", index) for index in range(16))))
#: Plain moves: the destination holds what the source held (the first two operands; a lane
#: select after them is an ordinary read).
_COPIES = re.compile(r"s_mov_b(32|64)|v_(dual_)?mov_b(32|64)(_e32|_e64)?|v_accvgpr_(read|write|mov)_b32(_e64)?|"
                     r"v_readlane_b32|v_readfirstlane_b32(_e32|_e64)?")
#: Moves into one lane of the destination: its other lanes keep what they held (SGPR spills).
_LANE_WRITES = re.compile(r"v_writelane_b32")
#: Multiply-adds of two 32-bit sources and a 64-bit addend into a 64-bit result (and a carry).
_WIDE_MADS = re.compile(r"v_mad(_co)?_[iu]64_[iu]32(_e64)?")


#: Packed 32-bit arithmetic on 64-bit register pairs (gfx90a+).
_PACKED_F32 = re.compile(r"v_pk_(fma|mul|add)_f32")
_STORES = ("scratch_store_", "buffer_store_")

#: Bytes of a 32-bit register, as a 4-bit mask.
ALL_BYTES = 0xF
_HALF_BYTES = {"l": 0x3, "h": 0xC}
_SEL_BYTES = {"BYTE_0": 0x1, "BYTE_1": 0x2, "BYTE_2": 0x4, "BYTE_3": 0x8, "WORD_0": 0x3, "WORD_1": 0xC}
#: Conversions into fp8/bf8 that write one half (pk) or one byte (sr) of the destination and keep the rest.
_FP8_PACKS = re.compile(r"v_cvt_pk_(fp8|bf8)_f32(_e64)?")
_FP8_ROUNDS = re.compile(r"v_cvt_sr_(fp8|bf8)_f32(_e64)?")
_MIXES = re.compile(r"v_(fma|mad)_mix(lo|hi)_f16")
#: One-component d16 loads (LDS, buffer, global, flat, scratch): the low half, or the high half with `hi`.
_D16_LOADS = re.compile(r"(ds_(read|load)|buffer_load|global_load|flat_load|scratch_load|tbuffer_load)_"
                        r"(\w*d16(_hi)?(_format)?_x|(u8|i8|u16|b16|ubyte|sbyte|short)_d16(_hi)?|d16(_hi)?_(u8|i8|b16))")
#: Stores whose data width the mnemonic names: bytes and halves (`d16_hi`: of the high half), or dwords.
_STORE_WIDTH = re.compile(r"(?:(?:buffer|global|flat|scratch)_store|ds_(?:write|store)2?(?:st64)?)_(d16_hi_)?"
                          r"(byte|short|dword|b8|b16|b32|b64|b96|b128)(?:x[234])?(_d16_hi)?")
_NARROW_STORES = {"byte": 0x1, "b8": 0x1, "short": 0x3, "b16": 0x3}


def packs_workitem_ids(target: Target) -> bool:
    return target.has_gfx90a_insts or target.major >= 11


def _system_sgpr_end(descriptor: dict) -> int:
    """One past the user SGPRs and the enabled work-group ID and info SGPRs."""
    return descriptor["user_sgpr_count"] + sum(1 for key in _SYSTEM_SGPRS if descriptor.get(key))


def abi_inputs(kernel: Kernel, target: Target) -> frozenset[Unit] | None:
    """Registers set up before the first instruction; None when the kernel's setup is unknown."""
    descriptor = kernel.descriptor
    if not descriptor or descriptor.get("user_sgpr_count") is None:
        return None
    count = _system_sgpr_end(descriptor)
    if descriptor.get("system_sgpr_private_segment_wavefront_offset") or descriptor.get("enable_private_segment"):
        count += 1
    workitem_vgprs = 1 if packs_workitem_ids(target) else (descriptor.get("system_vgpr_workitem_id") or 0) + 1
    return _abi_units(count, workitem_vgprs, target.architected_flat_scratch)


@lru_cache(maxsize=256)
def _abi_units(sgprs: int, vgprs: int, flat_scratch: bool) -> frozenset[Unit]:
    """The first SGPRs and VGPRs, the hardware's registers and, where it is architected, flat_scratch
    (one set shared by the kernels with this setup)."""
    inputs = {("s", index) for index in range(sgprs)} | {("v", index) for index in range(vgprs)} | _HARDWARE_UNITS
    return frozenset(inputs | {("flat_scratch", 0), ("flat_scratch", 1)} if flat_scratch else inputs)


def _absent_wave_offset_add(kernel: Kernel) -> tuple[Unit | None, Unit] | None:
    """(flat-scratch-init SGPR or None, the SGPR where the wave offset would be) for a kernel without
    scratch that asks for flat-scratch init or a private segment buffer: LLVM's scratch setup adds
    them (`s_add flat_scratch_lo|sN, sN, sW`, `s_add_u32 s96, s96, sW`)."""
    descriptor = kernel.descriptor
    setup = descriptor.get("user_sgpr_flat_scratch_init") or descriptor.get("user_sgpr_private_segment_buffer")
    if not setup or any(descriptor.get(key) for key in (
            "system_sgpr_private_segment_wavefront_offset", "enable_private_segment",
            "private_segment_fixed_size", "uses_dynamic_stack")):
        return None
    flat_init = (("s", kernel.user_sgpr_position("user_sgpr_flat_scratch_init"))
                 if descriptor.get("user_sgpr_flat_scratch_init") else None)
    return flat_init, ("s", _system_sgpr_end(descriptor))


@frozen_dataclass(frozen=True, slots=True, repr=False, init=False, eq=False)
class Flow:
    """How one instruction moves written values, where it is not simply `defs` written."""

    copies: tuple[tuple[Unit, Unit | None], ...] = ()  # destination <- source unit (None: a constant)
    one_lane: bool = False  # the copies fill one lane: garbage there leaves the destination as it was
    addend_high: Unit | None = None  # a wide multiply-add's addend high half ...
    reaches: tuple[Unit, ...] = ()  # ... and the units it alone reaches
    excused: frozenset[Unit] = frozenset()  # reads that use no garbage

    def __init__(self, copies: tuple[tuple[Unit, Unit | None], ...] = (), one_lane: bool = False,
                 addend_high: Unit | None = None, reaches: tuple[Unit, ...] = (),
                 excused: frozenset[Unit] = frozenset()) -> None:
        object.__setattr__(self, "copies", copies)
        object.__setattr__(self, "one_lane", one_lane)
        object.__setattr__(self, "addend_high", addend_high)
        object.__setattr__(self, "reaches", reaches)
        object.__setattr__(self, "excused", excused)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Flow) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.copies, self.one_lane, self.addend_high, self.reaches, self.excused) == (
            other.copies, other.one_lane, other.addend_high, other.reaches, other.excused)

    def __hash__(self) -> int:
        return hash((self.copies, self.one_lane, self.addend_high, self.reaches, self.excused))


_PLAIN = Flow()


def _copies(mnemonic: str, operands: tuple[Node, ...]) -> tuple[tuple[Unit, Unit | None], ...]:
    """Destination <- source units of a plain move (none if it is not one, or writes EXEC)."""
    lane_select = mnemonic in ("v_readlane_b32", "v_writelane_b32")
    if not (_COPIES.fullmatch(mnemonic) or _LANE_WRITES.fullmatch(mnemonic)) or len(operands) != 2 + lane_select:
        return ()
    destination, source = register_units(operands[0]), register_units(operands[1])
    if not destination or any(unit[0] == "exec" for unit in destination):
        return ()
    if not source:
        return tuple((unit, None) for unit in destination)
    return tuple(zip(destination, source, strict=True)) if len(source) == len(destination) else ()


def _lane_halves(node: Node | None, default: int, count: int) -> tuple[int, ...]:
    """An op_sel/op_sel_hi list as 0/1 per source (the default where it is absent or not plain numbers)."""
    items = getattr(node, "items", None)
    if items is None or not all(isinstance(item, Num) for item in items):
        return (default,) * count
    return tuple(int(item.value) & 1 for item in items) + (default,) * max(0, count - len(items))


def _packed_f32_flow(instruction: Instruction) -> Flow | None:
    """Packed 32-bit arithmetic reads, of each 64-bit source, the half op_sel picks for the low lane and the
    half op_sel_hi picks for the high one (low and high by default): the half neither picks is not read."""
    if not _PACKED_F32.fullmatch(instruction.mnemonic):
        return None
    modifiers = dict(instruction.modifiers)
    sources = instruction.operands[1:]
    low_lane = _lane_halves(modifiers.get("op_sel"), 0, len(sources))
    high_lane = _lane_halves(modifiers.get("op_sel_hi"), 1, len(sources))
    unread = [units[1 - low_lane[i]] for i, units in enumerate(map(register_units, sources))
              if len(units) == 2 and low_lane[i] == high_lane[i]]
    return Flow(excused=frozenset(unread)) if unread else None


def _flow(instruction: Instruction, absent_wave_offset: tuple[Unit | None, Unit] | None) -> Flow:
    mnemonic, operands = instruction.mnemonic, instruction.operands
    if mnemonic.startswith(_STORES) and through_private_segment(instruction) and operands:
        # a spill: LLVM stores whole register tuples, halves never written included (the reload counts as written)
        return Flow(excused=frozenset(register_units(operands[1 if mnemonic.startswith("scratch_") else 0])))
    packed = _packed_f32_flow(instruction)
    if packed is not None:
        return packed
    if instruction.modifiers:
        return _PLAIN
    if instruction.pair is not None:  # dual issue: two moves copy, anything else is plain
        first, second = _copies(mnemonic, operands), _copies(instruction.pair.mnemonic, instruction.pair.operands)
        return Flow(copies=first + second) if first and second else _PLAIN
    copies = _copies(mnemonic, operands)
    if copies:
        return Flow(copies=copies, one_lane=bool(_LANE_WRITES.fullmatch(mnemonic)))
    if _WIDE_MADS.fullmatch(mnemonic) and len(operands) in (4, 5):
        addend = register_units(operands[-1])
        factors = {unit for operand in operands[-3:-1] for unit in register_units(operand)}
        if len(addend) == 2 and addend[1] not in factors:
            carry = register_units(operands[1]) if len(operands) == 5 else ()
            return Flow(addend_high=addend[1], reaches=register_units(operands[0])[1:] + carry)
    if absent_wave_offset and mnemonic in ("s_add_u32", "s_add_i32") and len(operands) == 3:
        flat_init, wave_offset = absent_wave_offset
        sources = [unit for operand in operands[1:] for unit in register_units(operand)]
        if len(sources) == 2 and wave_offset in sources:
            other = sources[1 - sources.index(wave_offset)]
            if other == flat_init or register_units(operands[0]) == (other,):  # in place: a base plus the offset
                return Flow(excused=frozenset({wave_offset}))
    if mnemonic in ("s_bfe_i64", "s_bfe_u64") and len(operands) == 3 and isinstance(operands[2], Num):
        field = int(operands[2].value)
        source = register_units(operands[1])
        if (field & 0x3F) + ((field >> 16) & 0x7F) <= 32 and len(source) == 2:
            return Flow(excused=frozenset({source[1]}))
    return _PLAIN


def _operand_halves(node: Node) -> int:
    """Bytes a true16 operand names (`v1.h`: the high half), or all four."""
    half = getattr(node, "half", None)
    return _HALF_BYTES.get(half, ALL_BYTES) if isinstance(half, str) else ALL_BYTES


def _selected(modifiers: dict, name: str) -> int | None:
    value = modifiers.get(name)
    return _SEL_BYTES.get(value.name.upper()) if isinstance(value, Sym) else None


def _partial_writes(instruction: Instruction, info: DefUse, target: Target) -> tuple[tuple[Unit, int], ...]:
    """(VGPR, bytes written) for an instruction known to write only some bytes of its destination and keep
    the others; () where it writes whole registers or its width is not known (taken as whole)."""
    mnemonic, operands = instruction.mnemonic, instruction.operands
    destination = register_units(operands[0]) if operands else ()
    if len(destination) != 1 or destination[0][0] != "v" or info.klass.unit not in ("valu", "vmem", "ds"):
        return ()
    modifiers = dict(instruction.modifiers)
    written = _operand_halves(operands[0])
    if _D16_LOADS.fullmatch(mnemonic):
        if target.major < 9 or "tfe" in modifiers:  # gfx8 d16 loads do not keep the other half; tfe adds a dword
            return ()
        written = 0xC if "_hi" in mnemonic else 0x3
    elif _FP8_PACKS.fullmatch(mnemonic):
        picks = _lane_halves(modifiers.get("op_sel"), 0, 3)
        written = written if written != ALL_BYTES else (0xC if picks[2] else 0x3)
    elif _FP8_ROUNDS.fullmatch(mnemonic):
        byte_sel = modifiers.get("byte_sel")
        if isinstance(byte_sel, Num) and isinstance(byte_sel.value, int):
            index = byte_sel.value & 3
        else:
            picks = _lane_halves(modifiers.get("op_sel"), 0, 4)
            index = picks[2] + 2 * picks[3]
        written = 1 << index
    elif _MIXES.fullmatch(mnemonic):
        written = 0xC if "mixhi" in mnemonic else 0x3
    elif mnemonic.endswith("_sdwa"):
        unused = modifiers.get("dst_unused")
        selected = _selected(modifiers, "dst_sel")
        if not (isinstance(unused, Sym) and unused.name.upper() == "UNUSED_PRESERVE") or selected is None:
            return ()
        written = selected
    elif info.klass.unit != "valu":
        return ()
    return ((destination[0], written),) if written != ALL_BYTES else ()


def _known_reads(instruction: Instruction, info: DefUse) -> tuple[tuple[Unit, int], ...]:
    """(VGPR, bytes read) where the instruction is known to read just those bytes of a register: the data of
    a store (not a spill: a spill stores whole registers, bytes never written included), the A and B
    sources of a matrix instruction, true16 source halves, SDWA source selections."""
    mnemonic, operands, klass = instruction.mnemonic, instruction.operands, info.klass
    read: list[tuple[Unit, int]] = []
    if klass.matrix in ("mfma", "smfmac", "wmma", "swmmac"):
        read = [(unit, ALL_BYTES) for operand in operands[1:3] for unit in register_units(operand)]
    elif klass.unit in ("vmem", "ds") and klass.kind in ("store", "write", "write2"):
        match = _STORE_WIDTH.fullmatch(mnemonic)
        if match is None or (klass.unit == "vmem" and through_private_segment(instruction)) or info.variant is None:
            return ()
        high = bool(match.group(1) or match.group(3))
        bytes_read = _NARROW_STORES.get(match.group(2), ALL_BYTES) << (2 if high else 0)
        names = [spec.name for spec in info.variant.operands]
        for name in ("vdata", "data", "data0", "data1", "vsrc", "vdata0", "vdata1"):
            if name in names and names.index(name) < len(operands):
                read.extend((unit, bytes_read) for unit in register_units(operands[names.index(name)]))
    elif klass.unit == "valu":
        modifiers = dict(instruction.modifiers)
        sdwa = mnemonic.endswith("_sdwa")
        for position, operand in enumerate(operands[1:4], start=1):
            selected = _selected(modifiers, f"src{position - 1}_sel") if sdwa else None
            bytes_read = selected if selected is not None else _operand_halves(operand)
            if bytes_read != ALL_BYTES:
                read.extend((unit, bytes_read) for unit in register_units(operand)[:1])
    merged: dict[Unit, int] = {}  # a register named twice (an MFMA's A and B): once, with the bytes of both
    for unit, bytes_read in read:
        if unit[0] in ("v", "a"):
            merged[unit] = merged.get(unit, 0) | bytes_read
    return tuple(merged.items())


class _Bits:
    """Registers as bits of an int, numbered in the order instructions name them, shared by the kernels
    linted: once more than LIMIT are numbered, the next kernel starts a new numbering (a new generation;
    masks kept on shared facts are made again), so at most LIMIT plus one kernel's registers are kept."""

    LIMIT = 4096

    def __init__(self) -> None:
        self.bit_of: dict[Unit, int] = {}
        self.units: list[Unit] = []
        self.generation = 0

    def start_kernel(self) -> int:
        """The generation the kernel's masks are in."""
        if len(self.units) > self.LIMIT:
            self.bit_of, self.units, self.generation = {}, [], self.generation + 1
        return self.generation

    def mask(self, units: Iterable[Unit]) -> int:
        mask = 0
        for unit in units:
            bit = self.bit_of.get(unit)
            if bit is None:
                bit = self.bit_of[unit] = 1 << len(self.units)
                self.units.append(unit)
            mask |= bit
        return mask

    def units_of(self, mask: int) -> frozenset[Unit]:
        found = []
        while mask:
            lowest = mask & -mask
            found.append(self.units[lowest.bit_length() - 1])
            mask ^= lowest
        return frozenset(found)


@frozen_dataclass(frozen=True, slots=True, repr=False, init=False, eq=False)
class FlowBits:
    """A Flow in _Bits (0: no register)."""

    copies: tuple[tuple[int, int], ...]  # destination bit <- source bit (0: a constant)
    one_lane: bool
    addend_high: int
    reaches: int
    excused: int

    def __init__(self, copies: tuple[tuple[int, int], ...], one_lane: bool, addend_high: int, reaches: int,
                 excused: int) -> None:
        object.__setattr__(self, "copies", copies)
        object.__setattr__(self, "one_lane", one_lane)
        object.__setattr__(self, "addend_high", addend_high)
        object.__setattr__(self, "reaches", reaches)
        object.__setattr__(self, "excused", excused)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, FlowBits) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.copies, self.one_lane, self.addend_high, self.reaches, self.excused) == (
            other.copies, other.one_lane, other.addend_high, other.reaches, other.excused)

    def __hash__(self) -> int:
        return hash((self.copies, self.one_lane, self.addend_high, self.reaches, self.excused))

    @classmethod
    def of(cls, flow: Flow, bits: _Bits) -> FlowBits:
        return cls(tuple((bits.mask((destination,)), bits.mask((source,)) if source is not None else 0)
                         for destination, source in flow.copies),
                   flow.one_lane, bits.mask((flow.addend_high,)) if flow.addend_high is not None else 0,
                   bits.mask(flow.reaches), bits.mask(flow.excused))


@frozen_dataclass(frozen=True, slots=True, repr=False, init=False, eq=False)
class ByteWidths:
    """The bytes of registers an instruction is known to write (keeping the others) or read, in _Bits."""

    writes: tuple[tuple[int, int], ...]  # (register bit, bytes written)
    reads: tuple[tuple[int, int], ...]  # (register bit, bytes read)

    def __init__(self, writes: tuple[tuple[int, int], ...], reads: tuple[tuple[int, int], ...]) -> None:
        object.__setattr__(self, "writes", writes)
        object.__setattr__(self, "reads", reads)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ByteWidths) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.writes, self.reads) == (other.writes, other.reads)

    def __hash__(self) -> int:
        return hash((self.writes, self.reads))


_BITS = _Bits()
_CALL = FlowBits((), False, 0, 0, 0)  # a call: afterwards any register may hold a written value


def _masks_of(shared: InstructionFacts, instruction: Instruction,
              target: Target) -> tuple[int, int, int, FlowBits | None, ByteWidths | None]:
    """(generation, uses, defs, flow: None where it is plain, _CALL for a call, byte widths: None where it names
    none) of an instruction in _BITS, kept on its shared facts (without the kernel's scratch setup: the one flow
    that depends on it is made per kernel). A register written in part is not in defs."""
    info = shared.info
    flow = _flow(instruction, None)
    bits = _CALL if info.klass.unit == "call" else None if flow is _PLAIN else FlowBits.of(flow, _BITS)
    partial = _partial_writes(instruction, info, target)
    known = _known_reads(instruction, info)
    defs = info.defs.difference(unit for unit, _ in partial) if partial else info.defs
    widths = ByteWidths(tuple((_BITS.mask((unit,)), written) for unit, written in partial),
                        tuple((_BITS.mask((unit,)), read) for unit, read in known)) if partial or known else None
    shared.registers = (_BITS.generation, _BITS.mask(info.uses), _BITS.mask(defs), bits, widths)
    return shared.registers


@lru_cache(maxsize=64)
def _entry_bits(units: frozenset[Unit], generation: int) -> int:
    """The mask of a kernel setup's registers (_abi_units keeps one set per setup)."""
    return _BITS.mask(units)


#: Registers written in part on some path and in no other way on any: register bit -> (the bytes some path
#: wrote, the latest instruction that wrote them); None when there are none.
Partial = dict[int, tuple[int, int]] | None
#: (registers that may hold a written value, or None after a call: any; registers that may hold a copy of
#: garbage; registers written in part)
_State = tuple[int | None, int, Partial]
_ANYTHING: _State = (None, 0, None)


def _join(first: _State, second: _State) -> _State:
    if first[0] is None or second[0] is None:
        return _ANYTHING
    partial = first[2] if first[2] == second[2] else _join_bytes(first, second)
    return first[0] | second[0], first[1] | second[1], partial


def _join_bytes(first: _State, second: _State) -> Partial:
    """The bytes of each register written on either path (a path that wrote it whole: all of them)."""
    joined = {}
    for bit in {*(first[2] or ()), *(second[2] or ())}:
        written_bytes, writer = 0, -1
        for state in (first, second):
            entry = state[2].get(bit) if state[2] else None
            if entry is not None:
                written_bytes, writer = written_bytes | entry[0], max(writer, entry[1])
            elif state[0] is not None and state[0] & bit:
                written_bytes = ALL_BYTES
        if written_bytes != ALL_BYTES:
            joined[bit] = (written_bytes, writer)
    return joined or None


def _track_bytes(position: int, widths: ByteWidths | None, writes: int, flow: FlowBits | None, written: int,
                 partial: Partial, found: dict[int, tuple[tuple[Unit, int, int, int], ...]],
                 partial_writers: set[int]) -> tuple[int, Partial]:
    """One instruction's effect on the registers written in part: known-width reads of bytes no path wrote are
    recorded in `found` as (register, bytes read, bytes written, writer); whole writes end the tracking,
    copies carry it, partial writes start or extend it (and are added to `partial_writers`). `written` already
    has the instruction's whole writes."""
    if partial and widths is not None:
        missing = tuple((_BITS.units[bit.bit_length() - 1], wanted, entry[0], entry[1]) for bit, wanted in widths.reads
                        for entry in (partial.get(bit),) if entry is not None and wanted & ~entry[0])
        if missing:
            found[position] = missing
    if partial:
        carried = {destination: partial[source] for destination, source in (flow.copies if flow else ())
                   if source in partial}
        if carried or any(bit & writes for bit in partial):
            partial = {bit: entry for bit, entry in partial.items() if not bit & writes} | carried
    if widths is not None and widths.writes:
        partial_writers.add(position)
        partial = dict(partial) if partial else {}
        for bit, written_bytes in widths.writes:
            entry = partial.get(bit)
            if entry is not None:
                written_bytes |= entry[0]
            elif written & bit:
                continue  # the whole register was written before: it stays written
            if written_bytes == ALL_BYTES:
                del partial[bit]
            else:
                partial[bit] = (written_bytes, position)
            written |= bit
    return written, partial or None


def _step(uses: int, defs: int, flow: FlowBits, written: int, copied: int) -> tuple[int, int, int]:
    """Apply one instruction with a flow to the masks: (written, copied, the registers it reads as garbage)."""
    missing = uses & ~written & ~flow.excused
    if flow.copies:
        for destination, source in flow.copies:
            missing &= ~source
            if not source or written & source:
                written |= destination
                copied &= ~destination
            elif flow.one_lane and written & destination:
                copied |= destination
            else:
                written &= ~destination
                copied |= destination
        return written, copied, missing
    garbage_addend = flow.addend_high and not written & flow.addend_high
    written |= defs
    copied &= ~defs
    if garbage_addend:
        missing &= ~flow.addend_high
        written &= ~flow.reaches
        copied |= flow.reaches
    return written, copied, missing


#: A known-width read whose first execution finds some bytes written by a partial write and the others written
#: only after it, around a loop: (register, bytes read, bytes fresh: a partial write on a path to the read wrote
#: them, the nearest such write, bytes stale: no write reaches them on the first execution, a write that reaches
#: them only after the read has run); instructions as kernel indices (a tuple: no class to make at start-up)
StaleRead = tuple[Unit, int, int, int, int, int]


@dataclass(slots=True, repr=False, eq=False, init=False)
class Uninitialized:
    """For each instruction index, the registers it reads that hold no written value on any path."""

    reads: dict[int, frozenset[Unit]]
    copied: dict[int, frozenset[Unit]]  # the part of `reads` that holds copies of such registers
    #: known-width reads of bytes no path wrote: (register, bytes read, bytes some path wrote, the latest
    #: instruction that wrote part of it)
    partial: dict[int, tuple[tuple[Unit, int, int, int], ...]] = field(default_factory=dict)
    #: known-width reads of bytes half fresh, half left from an earlier trip
    stale: dict[int, tuple[StaleRead, ...]] = field(default_factory=dict)

    def __init__(self, reads: dict[int, frozenset[Unit]], copied: dict[int, frozenset[Unit]],
                 partial: dict[int, tuple[tuple[Unit, int, int, int], ...]] | None = None,
                 stale: dict[int, tuple[StaleRead, ...]] | None = None) -> None:
        self.reads = reads
        self.copied = copied
        self.partial = {} if partial is None else partial
        self.stale = {} if stale is None else stale


class InitializedAnalysis(Analysis):
    """Forward may-analysis: union at joins, fixed point over loops; None if it cannot apply."""

    name = "initialized"

    @classmethod
    def run(cls, kernel: Kernel, manager: AnalysisManager) -> Uninitialized | None:
        target = manager.module.target
        def_use = manager.get(DefUseAnalysis)
        if target is None or def_use is None or not kernel.is_kernel:
            return None
        entry = abi_inputs(kernel, target)
        if entry is None:
            return None
        cfg = manager.get(CFGAnalysis)
        absent_wave_offset = _absent_wave_offset_add(kernel)
        bits, generation = _BITS, _BITS.start_kernel()
        registers = [shared.registers if shared.registers is not None and shared.registers[0] == generation
                     else _masks_of(shared, instruction, target)
                     for shared, instruction in zip(def_use.facts, def_use.instructions, strict=True)]
        if absent_wave_offset is not None:
            for position, instruction in enumerate(kernel.instructions):
                if instruction.mnemonic in ("s_add_u32", "s_add_i32"):
                    flow = _flow(instruction, absent_wave_offset)
                    flow_bits = None if flow is _PLAIN else FlowBits.of(flow, bits)
                    registers[position] = (*registers[position][:3], flow_bits, registers[position][4])
        successors = _successors(kernel, cfg)
        starts, blocks = cfg.starts, cfg.blocks
        partial_writers: set[int] = set()  # reachable instructions that write part of a register

        def through(index: int, state: _State, report: Uninitialized) -> _State:
            written, copied, partial = state
            if written is None:
                return state
            flow: FlowBits | None  # annotated for mypyc, which otherwise infers None for it
            for position in range(starts[index], starts[index] + len(blocks[index].instructions)):
                _, read, writes, flow, widths = registers[position]
                if flow is None and read & written == read:  # reads written registers, writes its defs
                    written |= writes
                    if copied:
                        copied &= ~writes
                    if partial or (widths is not None and widths.writes):
                        written, partial = _track_bytes(position, widths, writes, flow, written, partial,
                                                        report.partial, partial_writers)
                    continue
                if flow is _CALL:
                    return _ANYTHING
                # the copies held before this instruction, where it may read garbage
                holding_copies = copied if read & written != read else 0
                if flow is None:
                    missing = read & ~written
                    written |= writes
                    copied &= ~writes
                else:
                    written, copied, missing = _step(read, writes, flow, written, copied)
                if partial or (widths is not None and widths.writes):
                    written, partial = _track_bytes(position, widths, writes, flow, written, partial,
                                                    report.partial, partial_writers)
                if missing:
                    report.reads[position] = bits.units_of(missing)
                    if missing & holding_copies:
                        report.copied[position] = bits.units_of(missing & holding_copies)
            return written, copied, partial

        incoming: dict[int, _State] = {0: (_entry_bits(entry, generation), 0, None)} if blocks else {}
        walked: dict[int, tuple[_State, Uninitialized]] = {}  # block -> the state of its latest walk, and what it found
        worklist = list(incoming)
        while worklist:
            index = worklist.pop(0)
            walked[index] = (incoming[index], Uninitialized({}, {}))
            outgoing = through(index, *walked[index])
            for successor in successors[index]:
                merged = _join(incoming[successor], outgoing) if successor in incoming else outgoing
                if incoming.get(successor) != merged:
                    incoming[successor] = merged
                    if successor not in worklist:
                        worklist.append(successor)
        report = Uninitialized({}, {})
        for index, state in sorted(incoming.items()):
            if walked[index][0] is state:  # walked with its final state
                report.reads.update(walked[index][1].reads)
                report.copied.update(walked[index][1].copied)
                report.partial.update(walked[index][1].partial)
            else:
                through(index, state, report)
        if partial_writers:
            report.stale = _stale_reads(registers, cfg, successors, set(incoming), _entry_bits(entry, generation),
                                        partial_writers, report.partial)
        return report


_Facts = tuple[int, int, int, FlowBits | None, ByteWidths | None]


def _stale_reads(registers: list[_Facts], cfg: ControlFlowGraph, successors: list[list[int]], reachable: set[int],
                 entry: int, partial_writers: set[int], never_written: dict[int, tuple[tuple[Unit, int, int, int], ...]]
                 ) -> dict[int, tuple[StaleRead, ...]]:
    """Known-width reads of a register one of `partial_writers` writes in part, judged on their first execution
    (see the module's docstring); judging stops, quiet, once it has looked at 32 times the kernel's instructions
    (a kernel of many such reads far from their writes)."""
    partly_written = 0
    for writer in partial_writers:
        widths = registers[writer][4]
        for bit, _ in widths.writes if widths is not None else ():
            partly_written |= bit
    walker = _Walker(registers, cfg, successors, reachable, entry)
    found: dict[int, tuple[StaleRead, ...]] = {}
    for position, facts in enumerate(registers):
        widths = facts[4]
        if widths is None or not any(bit & partly_written for bit, _ in widths.reads):
            continue
        if cfg.block_of[position] not in reachable:
            continue
        reported = {finding[0] for finding in never_written.get(position, ())}
        stale_reads = []
        for bit, wanted in widths.reads:
            if bit & partly_written and _BITS.units[bit.bit_length() - 1] not in reported:
                try:
                    read = walker.judge(position, bit, wanted)
                except _OverBudget:
                    return found
                if read is not None:
                    stale_reads.append(read)
        if stale_reads:
            found[position] = tuple(stale_reads)
    return found


def _dominance(successors: list[list[int]]) -> tuple[dict[int, int], dict[int, int]]:
    """The dominator tree of the blocks reached from the entry, as the interval each block's subtree spans in a
    depth-first numbering: block a dominates block b when entered[a] <= entered[b] < left[a] (Cooper, Harvey
    and Kennedy's iteration over reverse postorder)."""
    postorder: list[int] = []
    visited = {0}
    stack = [(0, iter(successors[0]))]
    while stack:
        block, pending = stack[-1]
        for successor in pending:
            if successor not in visited:
                visited.add(successor)
                stack.append((successor, iter(successors[successor])))
                break
        else:
            stack.pop()
            postorder.append(block)
    number = {block: index for index, block in enumerate(postorder)}  # the entry has the highest
    predecessors: dict[int, list[int]] = {block: [] for block in postorder}
    for block in postorder:
        for successor in successors[block]:
            predecessors[successor].append(block)
    idom = {0: 0}
    changed = True
    while changed:
        changed = False
        for block in reversed(postorder[:-1]):
            new = -1
            for predecessor in predecessors[block]:
                if predecessor in idom:
                    new = predecessor if new < 0 else _common_dominator(idom, number, predecessor, new)
            if idom.get(block) != new:
                idom[block], changed = new, True
    children: dict[int, list[int]] = {block: [] for block in postorder}
    for block, parent in idom.items():
        if block != 0:
            children[parent].append(block)
    entered, left, clock = {0: 0}, {}, 1
    walk = [(0, iter(children[0]))]
    while walk:
        block, pending = walk[-1]
        child = next(pending, None)
        if child is None:
            walk.pop()
            left[block] = clock
        else:
            entered[child], clock = clock, clock + 1
            walk.append((child, iter(children[child])))
    return entered, left


def _common_dominator(idom: dict[int, int], number: dict[int, int], first: int, second: int) -> int:
    while first != second:
        while number[first] < number[second]:
            first = idom[first]
        while number[second] < number[first]:
            second = idom[second]
    return first


class _OverBudget(Exception):
    """Judging has looked at more than its share of the kernel."""


class _Walker:
    """Walks back from a read to the writes of one byte that may have run last before it."""

    def __init__(self, registers: list[_Facts], cfg: ControlFlowGraph, successors: list[list[int]],
                 reachable: set[int], entry: int) -> None:
        self.registers, self.cfg, self.reachable, self.entry = registers, cfg, reachable, entry
        self.predecessors: list[list[int]] = [[] for _ in successors]
        for block, targets in enumerate(successors):
            for target in targets:
                self.predecessors[target].append(block)
        self.budget = 32 * len(registers) + 4096  # instructions looked at, in all
        self.dominance = _dominance(successors)

    def spend(self, steps: int) -> None:
        self.budget -= steps
        if self.budget < 0:
            raise _OverBudget

    def judge(self, position: int, bit: int, wanted: int) -> StaleRead | None:
        """The read at `position` of the bytes `wanted` of register `bit`, half fresh and half stale, or None."""
        fresh = stale = 0
        fresh_writer = stale_writer = -1
        for byte in (0x1, 0x2, 0x4, 0x8):
            if not wanted & byte:
                continue
            before, writer = self.last_writer(position, bit, byte)
            if before is None:
                continue  # written before the first execution by a whole write, a call or the kernel's setup
            if before:
                fresh |= byte
                fresh_writer = writer if fresh_writer < 0 else fresh_writer
            elif writer < 0:
                return None  # never written on any path: the partial write's own finding
            else:
                stale |= byte
                stale_writer = writer if stale_writer < 0 else stale_writer
        if not (fresh and stale):
            return None
        return _BITS.units[bit.bit_length() - 1], wanted, fresh, fresh_writer, stale, stale_writer

    def last_writer(self, position: int, bit: int, byte: int) -> tuple[bool | None, int]:
        """Of `byte` of register `bit`, as read at `position`: (True, a partial write that may run last before the
        read's first execution), (None, -1) where some other write, a call or the kernel's setup may, else
        (False, a write that reaches the read only after it ran, or -1 where none does)."""
        registers, cfg = self.registers, self.cfg
        starts, blocks = cfg.starts, cfg.blocks
        home = cfg.block_of[position]
        entered, left = self.dominance
        later = -1
        walks = [(home, position)]  # (block, the index after the last instruction still to look at)
        seen: set[int] = set()
        for block, end in walks:  # breadth first, nearest writes first: grows as it goes
            start = position + 1 if block == home and end > position else starts[block]
            self.spend(end - start + 1)
            for index in range(end - 1, start - 1, -1):
                _, _, defs, flow, widths = registers[index]
                partial = widths is not None and any(written == bit and covered & byte
                                                     for written, covered in widths.writes)
                if flow is _CALL:
                    return None, -1
                if defs & bit or partial:
                    # it may run before the read's first execution unless every path to it runs the read first
                    if index < position if block == home else not entered[home] <= entered[block] < left[home]:
                        return (True, index) if partial else (None, -1)
                    later = index if later < 0 else later
                    break
            else:
                if block == home and end > position:
                    continue  # this path runs the read before: not its first execution
                if block == 0 and self.entry & bit:
                    return None, -1
                for predecessor in self.predecessors[block]:
                    if predecessor in self.reachable and predecessor not in seen:
                        seen.add(predecessor)
                        walks.append((predecessor, starts[predecessor] + len(blocks[predecessor].instructions)))
        return False, later


def _successors(kernel: Kernel, cfg: ControlFlowGraph) -> list[list[int]]:
    """The CFG's edges, plus one from each `s_setpc_b64` to each block whose label is used as a value."""
    successors = [list(block.successors) for block in cfg.blocks]
    if not any(block.terminator is not None and block.terminator.mnemonic == "s_setpc_b64" for block in cfg.blocks):
        return successors
    address_taken = sorted({cfg.block_of_label[name] for instruction in kernel.instructions
                            if not is_branch(instruction.mnemonic)
                            for operand in instruction.operands for name in _names(operand)
                            if name in cfg.block_of_label})
    for block in cfg.blocks:
        if block.terminator is not None and block.terminator.mnemonic == "s_setpc_b64":
            successors[block.index].extend(index for index in address_taken if index not in successors[block.index])
    return successors


def _names(node: Node) -> list[str]:
    """Symbols an operand expression mentions."""
    if isinstance(node, Sym):
        return [node.name]
    if isinstance(node, BinOp):
        return _names(node.left) + _names(node.right)
    if isinstance(node, UnOp):
        return _names(node.operand)
    if isinstance(node, Call):
        return [name for argument in node.args for name in _names(argument)]
    return []
