"""Cross-wave LDS races: an LDS access by one wave and a write of an overlapping range by another wave of the
same work-group with no barrier between them on some path.

Every wave of a work-group runs the same code. Two accesses race when one wave can be at one of them and
another wave at the other between the same two barriers: when some path from one to the other (through the
CFG, around loop back edges) crosses no barrier that the writer's counter (`lgkmcnt`/`dscnt` for DS,
`vmcnt`/`loadcnt` for an LDS DMA) was drained before. Where it was not drained and a read follows,
missing-wait reports the barrier; the barrier then counts as drained here, so one mistake gives one finding.

Each access gets an abstract address (`Value`): a uniform base (a constant, a kernel-uniform SGPR value or
symbol, or a block's phase: the registers toggled or stepped per iteration, `s_xor`/`v_xor`, `s_add` wrapped
by `s_cmp` and `s_cselect`, with their few possible values together) plus multiples of the lane id and the wave id (the work-item id v0 of
a one-dimensional work-group is lane + wave size * wave; `v_mbcnt` is the lane; shifts and masks that keep
those parts whole are followed, so is `v_readfirstlane` of a wave id). Anything else (a mask that splits the
lane id, a value read from memory into a VGPR) is unknown, and an access at an unknown address is not
compared. Two accesses are compared per phase, for a lane of one wave and a lane of another: an overlap on
every phase shows the race; on some phases only, it cannot be excluded; on none, the buffers are apart.
Writes of the same bytes in every wave (address and data alike in every wave) race with no read and no
like write, and atomics not with atomics.

Accesses are judged executed by every wave only where EXEC is the whole wave (saved and restored copies are
followed) and no branch so far tested a value the analysis cannot show uniform; elsewhere an overlap cannot
be shown (only some waves may run them). A work-group of one wave (`.reqd_workgroup_size`, or
`.max_flat_workgroup_size` no larger than the wave) has no cross-wave race, and a kernel whose work-group size
nothing states (no metadata, no `--wg-size`) is not checked: it may be launched with one wave per work-group.
Non-kernel functions are not checked (their callers' registers are unknown).
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass
from functools import lru_cache
from operator import attrgetter

from ..isa.classes import InstructionClass
from ..isa.defuse import DefUse, Unit, register_units
from ..isa.waits import wait_counts
from ..model.frozen import frozen_dataclass
from ..model.ir import Instruction, Kernel, Module
from ..model.nodes import BinOp, Num, Reg, SpecialReg, Sym
from ..model.targets import Target
from .cfg import CFGAnalysis, ControlFlowGraph
from .defuse import DefUseAnalysis
from .manager import Analysis, AnalysisManager
from .waitcnt import WaitcntAnalysis, WaitReport

_MAX_PHASES = 4  # possible values a loop phase keeps before it is unknown
_MAX_PENDING = 4096  # pending accesses at a block entry before the kernel is given up
_KLASS = attrgetter("klass")


class _Worklist:
    """The blocks a forward dataflow still has to visit, lowest number first, each queued once; `pop` gives None
    when none is left or after 30 visits per block (plus 100), with `exhausted` set."""

    def __init__(self, blocks: int):
        self.pending = {0}
        self.visits_left = 30 * blocks + 100
        self.exhausted = False

    def pop(self) -> int | None:
        if not self.pending:
            return None
        if self.visits_left == 0:
            self.exhausted = True
            return None
        self.visits_left -= 1
        number = min(self.pending)
        self.pending.remove(number)
        return number

    def push(self, number: int) -> None:
        self.pending.add(number)


@frozen_dataclass(frozen=True, slots=True, repr=False, init=False, eq=False)
class Value:
    """A 32-bit value `base + offsets[phase] + lane * lane_id + wave * wave_id`. `base` is None (a constant)
    or a token for a value the same in every wave; `phase` is None or a block's phase (its registers' possible
    values on entry, the keys of `offsets`; None when there is no phase). The work-item id of a
    one-dimensional work-group is `lane_id + wave_size * wave_id`. `lanelo`: the half-made lane id of
    `v_mbcnt_lo` in wave64 (only `v_mbcnt_hi` makes it a value)."""

    base: tuple | None
    phase: tuple | None
    offsets: tuple[tuple, ...]
    lane: int = 0
    wave: int = 0
    lanelo: bool = False

    def __init__(self, base: tuple | None, phase: tuple | None, offsets: tuple[tuple, ...], lane: int = 0,
                 wave: int = 0, lanelo: bool = False) -> None:
        object.__setattr__(self, "base", base)
        object.__setattr__(self, "phase", phase)
        object.__setattr__(self, "offsets", offsets)
        object.__setattr__(self, "lane", lane)
        object.__setattr__(self, "wave", wave)
        object.__setattr__(self, "lanelo", lanelo)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Value) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.base, self.phase, self.offsets, self.lane, self.wave, self.lanelo) == (
            other.base, other.phase, other.offsets, other.lane, other.wave, other.lanelo)

    def __hash__(self) -> int:
        return hash((self.base, self.phase, self.offsets, self.lane, self.wave, self.lanelo))

    @property
    def uniform(self) -> bool:
        """The same in every lane of every wave."""
        return not (self.lane or self.wave or self.lanelo)

    @property
    def alike(self) -> bool:
        """The same in every wave, lane by lane."""
        return not (self.wave or self.lanelo)


@lru_cache(maxsize=1024)
def _const(value: int) -> Value:
    return Value(None, None, ((None, _signed(value)),))


@lru_cache(maxsize=256)
def _entry(number: int) -> Value:
    """SGPR `number` as the hardware set it up."""
    return Value(("entry", number), None, ((None, 0),))


@lru_cache(maxsize=1024)
def _plain(mnemonic: str) -> str:
    """The mnemonic without its encoding suffix."""
    return _SUFFIX.sub("", mnemonic)


def _signed(value: int) -> int:
    value &= 0xFFFFFFFF
    return value - (1 << 32) if value >= 1 << 31 else value


_FULL_EXEC = Value(("exec-full",), None, ((None, 0),))  # EXEC (or a saved copy of it) with every lane on
_EXEC = ("exec", 0)
_UNIFORM = ("uniform", 0)  # the env key saying every branch so far was uniform (a marker, never a register)
_UNIFORM_FLAG = Value(("uniform",), None, ((None, 0),))
_SCC = ("scc-uniform", 0)  # the env key saying the latest SCC came from uniform values
_VCC = ("vcc-uniform", 0)  # and VCC
_SCC_VALUE = ("scc-value", 0)  # SCC (1 or 0) per phase, where a comparison of known values set it
#: a value the same in every wave of the work-group that the analysis does not follow (a loop counter, a size
#: computed from kernel arguments): it keeps branches on it uniform but is never compared as an address
SOME_UNIFORM = Value(("?",), None, ((None, 0),))  # the env key saying the latest SCC came from uniform values


@frozen_dataclass(frozen=True, slots=True, repr=False, init=False, eq=False)
class LdsAccess:
    """One LDS access: where (the address, its pieces of (offset, bytes) per lane) and how it is ordered."""

    index: int
    writes: bool
    address: Value | None
    pieces: tuple[tuple[int, int], ...]
    everywhere: bool  # full EXEC on a uniform path: every wave runs it
    counter: str | None  # the counter a write retires on (None for reads)
    atomic: bool = False
    #: a write of the same bytes to the same place in every wave (its address and data alike in every wave):
    #: what it writes, to compare with another such write; None otherwise
    same_bytes: tuple | None = None

    def __init__(self, index: int, writes: bool, address: Value | None, pieces: tuple[tuple[int, int], ...],
                 everywhere: bool, counter: str | None, atomic: bool = False, same_bytes: tuple | None = None) -> None:
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "writes", writes)
        object.__setattr__(self, "address", address)
        object.__setattr__(self, "pieces", pieces)
        object.__setattr__(self, "everywhere", everywhere)
        object.__setattr__(self, "counter", counter)
        object.__setattr__(self, "atomic", atomic)
        object.__setattr__(self, "same_bytes", same_bytes)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LdsAccess) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.index, self.writes, self.address, self.pieces, self.everywhere, self.counter, self.atomic,
            self.same_bytes) == (
            other.index, other.writes, other.address, other.pieces, other.everywhere, other.counter, other.atomic,
            other.same_bytes)

    def __hash__(self) -> int:
        return hash((
            self.index, self.writes, self.address, self.pieces, self.everywhere, self.counter, self.atomic,
            self.same_bytes))


@frozen_dataclass(frozen=True, slots=True, repr=False, init=False, eq=False)
class Race:
    """An access (`second`) that may touch what `first` accessed in another wave with no barrier between."""

    first: int
    second: int
    shown: bool  # an overlap on every phase, both run by every wave
    reason: str  # why it is not shown, when it is not

    def __init__(self, first: int, second: int, shown: bool, reason: str) -> None:
        object.__setattr__(self, "first", first)
        object.__setattr__(self, "second", second)
        object.__setattr__(self, "shown", shown)
        object.__setattr__(self, "reason", reason)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Race) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.first, self.second, self.shown, self.reason) == (
            other.first, other.second, other.shown, other.reason)

    def __hash__(self) -> int:
        return hash((self.first, self.second, self.shown, self.reason))


@dataclass(slots=True, repr=False, eq=False, init=False)
class LdsRaceReport:
    """Races by the later access, and the accesses with their abstract addresses."""

    races: dict[int, list[Race]]
    accesses: dict[int, LdsAccess]
    threads: int
    wave: int

    def __init__(self, races: dict[int, list[Race]], accesses: dict[int, LdsAccess], threads: int, wave: int) -> None:
        self.races = races
        self.accesses = accesses
        self.threads = threads
        self.wave = wave


_SIZE = re.compile(r"(?:_[biuf]|_d16_hi_[biu]|_d16_[biu])(8|16|32|64|96|128)(?:_|$)")
_SUFFIX = re.compile(r"_e(32|64)$")


def element_bytes(mnemonic: str) -> int:
    match = None
    for match in _SIZE.finditer(mnemonic):
        pass
    return int(match.group(1)) // 8 if match else 4


def _modifier(instruction: Instruction, name: str) -> int:
    value = dict(instruction.modifiers).get(name)
    return int(value.value) if isinstance(value, Num) and isinstance(value.value, int) else 0


def _pieces(instruction: Instruction, kind: str) -> tuple[tuple[int, int], ...]:
    mnemonic = instruction.mnemonic
    size = element_bytes(mnemonic)
    if kind in ("read2", "write2"):
        scale = size * (64 if "st64" in mnemonic else 1)
        return ((_modifier(instruction, "offset0") * scale, size), (_modifier(instruction, "offset1") * scale, size))
    return ((_modifier(instruction, "offset"), size),)


def work_group_threads(module: Module, kernel: Kernel) -> tuple[int, bool] | None:
    """(most work-items a work-group has, whether they are one-dimensional: v0 alone is the thread id), from
    `--wg-size` or the metadata; None where nothing says (a kernel without metadata may be launched with one
    wave per work-group)."""
    metadata = kernel.metadata or {}
    one_dimensional = not kernel.descriptor.get("system_vgpr_workitem_id")
    options = module.options
    if options is not None and getattr(options, "wg_size", None):
        return options.wg_size[1], one_dimensional
    required = metadata.get(".reqd_workgroup_size")
    if isinstance(required, list) and len(required) == 3 and all(isinstance(v, int) and v > 0 for v in required):
        return required[0] * required[1] * required[2], one_dimensional and required[1] == required[2] == 1
    bound = metadata.get(".max_flat_workgroup_size")
    if isinstance(bound, int) and bound > 0:
        return bound, one_dimensional
    return None


class _Values:
    """Forward dataflow of abstract register values (Value or None: unknown) over the CFG."""

    def __init__(self, kernel: Kernel, module: Module, def_use: list[DefUse], cfg: ControlFlowGraph,
                 wave: int, threads: int, tid: bool):
        self.kernel, self.module, self.def_use, self.cfg = kernel, module, def_use, cfg
        self.wave, self.threads, self.tid = wave, threads, tid
        self.given_up = False

    @property
    def waves(self) -> int:
        """Waves in the largest work-group."""
        return -(-self.threads // self.wave)

    def span(self, value: Value) -> tuple[int, int]:
        """The least and most the lane and wave parts of a value add."""
        lane, wave = value.lane * (self.wave - 1), value.wave * (self.waves - 1)
        return min(0, lane) + min(0, wave), max(0, lane) + max(0, wave)

    # values of operands -------------------------------------------------------------------------------
    def get(self, env: dict, unit: Unit) -> Value | None:
        if unit in env:
            return env[unit]
        if unit[0] == "s":  # never written: what the hardware set up, the same in every wave of the work-group
            return _entry(unit[1])
        return None

    def operand(self, env: dict, node) -> Value | None:
        if isinstance(node, Num):
            if isinstance(node.value, float):  # as a 32-bit operand holds it
                return _const(int.from_bytes(struct.pack("<f", node.value), "little"))
            return _const(node.value)
        if isinstance(node, Reg):
            if node.count != 1 or node.half is not None or node.kind not in ("v", "s"):
                return None
            return self.get(env, (node.kind, node.index))
        if isinstance(node, SpecialReg):
            return env.get(("m0", 0)) if node.name == "m0" else None
        if isinstance(node, Sym):
            value = self.module.symbols.get(node.name)
            if isinstance(value, int):
                return _const(value)
            return Value(("symbol", node.name), None, ((None, 0),))
        if isinstance(node, BinOp) and node.op in ("+", "-"):
            left, right = self.operand(env, node.left), self.operand(env, node.right)
            if left is None or right is None:
                return None
            return _add(left, right) if node.op == "+" else _subtract(left, right)
        return None

    # the transfer of one instruction -----------------------------------------------------------------
    def step(self, env: dict, index: int) -> None:
        instruction, info = self.kernel.instructions[index], self.def_use[index]
        defs = info.defs
        if not defs:
            return
        unit_kind = info.klass.unit
        data_defs = _data_defs(defs)
        # everything read before anything is written
        result = self._result(env, instruction, info) if len(data_defs) == 1 else None
        exec_after = self._exec(env, instruction, defs)
        uniform_in = unit_kind in ("salu", "smem") and self._uniform_inputs(env, info)
        if ("scc", 0) in defs:  # whether the SCC a branch may test is the same in every wave, and its value
            env[_SCC] = _UNIFORM_FLAG if unit_kind == "salu" and uniform_in else None
            env[_SCC_VALUE] = self._comparison(env, instruction) if uniform_in else None
        if ("vcc", 0) in defs:  # likewise VCC (LLVM branches on `s_and_b64 vcc, exec, s[0:1]` too)
            env[_VCC] = _UNIFORM_FLAG if unit_kind == "salu" and uniform_in else None
        if result is not None:
            env[data_defs[0]] = result
        else:
            # a scalar result of values alike in every wave is alike too
            filler = SOME_UNIFORM if unit_kind == "salu" and uniform_in else None
            for unit in data_defs:
                env[unit] = filler
        if exec_after is not None:
            env.update(exec_after)
        if unit_kind == "smem":
            for unit, value in list(env.items()):  # an earlier iteration's load result is another value
                if value is not None and value.base is not None and value.base[0] == "load" and value.base[1] == index:
                    env[unit] = None
            if uniform_in:
                for unit in defs:  # a scalar load from a uniform address: the same data in every wave
                    if unit[0] == "s":
                        env[unit] = Value(("load", index, unit[1]), None, ((None, 0),))

    def _comparison(self, env: dict, instruction: Instruction) -> Value | None:
        """SCC after `s_cmp[k]_<op>_{u32,i32}` of known values without lane parts: 1 or 0 per phase."""
        match = _COMPARISON.match(instruction.mnemonic)
        if match is None or len(instruction.operands) != 2:
            return None
        first, second = (self.operand(env, node) for node in instruction.operands)
        if first is None or second is None or not (first.uniform and second.uniform) or first.base != second.base:
            return None
        test, signed = _TESTS[match.group(1)], match.group(2) == "i"

        def outcome(a: int, b: int) -> int:
            if not signed:
                a, b = a & 0xFFFFFFFF, b & 0xFFFFFFFF
            return int(test(a, b))

        offsets = _combine(first, second, outcome)
        return Value(None, first.phase or second.phase, offsets) if offsets is not None else None

    def _select(self, env: dict, values: list[Value]) -> Value | None:
        """`s_cselect_b32 d, a, b`: a where SCC is 1, b where it is 0, phase by phase."""
        condition = env.get(_SCC_VALUE)
        first, second = values
        if condition is None or first.base != second.base or (first.lane, first.wave) != (second.lane, second.wave):
            return None
        phases = {value.phase for value in (condition, first, second)} - {None}
        if len(phases) > 1:
            return None
        phase = phases.pop() if phases else None
        keys = next((tuple(key for key, _ in value.offsets) for value in (condition, first, second)
                     if value.phase is not None), (None,))

        def at(value: Value, key) -> int | None:
            return value.offsets[0][1] if value.phase is None else dict(value.offsets).get(key)

        offsets = []
        for key in keys:
            chosen = at(first, key) if at(condition, key) else at(second, key)
            if chosen is None:
                return None
            offsets.append((key, chosen))
        return Value(first.base, phase, tuple(offsets), first.lane, first.wave)

    def _uniform_inputs(self, env: dict, info: DefUse) -> bool:
        for unit in info.uses:
            kind = unit[0]
            if kind == "scc":
                if env.get(_SCC) is None:
                    return False
            elif kind == "exec":  # the whole wave's EXEC is alike in every wave
                if env.get(_EXEC) != _FULL_EXEC:
                    return False
            elif kind == "vcc":
                if env.get(_VCC) is None:
                    return False
            elif kind not in ("s", "m0"):
                return False
            else:
                value = self.get(env, unit)
                if value is None or not value.uniform:
                    return False
        return True

    def _exec(self, env: dict, instruction: Instruction, defs: frozenset) -> dict | None:
        """EXEC and the SGPRs holding a full copy of it after an instruction that writes EXEC or copies it."""
        mnemonic = instruction.mnemonic
        writes_exec = _EXEC in defs
        operands = instruction.operands
        if not writes_exec:
            if mnemonic.startswith("s_mov_b") and len(operands) == 2 and _is_exec(operands[1]) \
                    and env.get(_EXEC) == _FULL_EXEC:
                return {unit: _FULL_EXEC for unit in register_units(operands[0])}
            return None
        full = False
        saved: dict = {}
        if mnemonic.startswith("s_mov_b") and len(operands) == 2:
            source = operands[1]
            units = register_units(source)
            full = (isinstance(source, Num) and source.value == -1) or (
                bool(units) and all(env.get(unit) == _FULL_EXEC for unit in units))
        elif mnemonic.startswith("s_or_b") and len(operands) == 3:
            full = any(_is_exec(node) and env.get(_EXEC) == _FULL_EXEC or
                       (units := register_units(node)) and all(env.get(unit) == _FULL_EXEC for unit in units)
                       for node in operands[1:])
        if "saveexec" in mnemonic and env.get(_EXEC) == _FULL_EXEC and operands:
            saved = {unit: _FULL_EXEC for unit in register_units(operands[0])}
        return {_EXEC: _FULL_EXEC if full else None, **saved}

    def _result(self, env: dict, instruction: Instruction, info: DefUse) -> Value | None:
        klass = info.klass
        if klass.unit not in ("valu", "salu") or instruction.pair is not None:
            return None
        if instruction.mnemonic.startswith("v_readfirstlane") and len(instruction.operands) == 2:
            value = self.operand(env, instruction.operands[1])  # a wave id stays one
            return value if value is not None and not value.lane and not value.lanelo else None
        if any(name not in ("clamp",) for name, _ in instruction.modifiers):
            return None
        mnemonic = _plain(instruction.mnemonic)
        operands = instruction.operands
        sources = operands[1:]
        if len(sources) == 3 and mnemonic in _CARRIES:
            sources = sources[1:]
        if mnemonic.startswith("v_mbcnt"):
            return self._mbcnt(env, mnemonic, sources)
        values = [self.operand(env, node) for node in sources]
        if any(value is None for value in values) or not values:
            return None
        if mnemonic in _IGNORE_CARRY_IN:  # s_addc_u32 of a high half: not an LDS address, uniform or not
            return SOME_UNIFORM if all(value.uniform for value in values) else None  # type: ignore[union-attr]
        if mnemonic == "s_cselect_b32" and len(values) == 2:
            result = self._select(env, values)  # type: ignore[arg-type]
        else:
            result = self._apply(mnemonic, values)  # type: ignore[arg-type]
        if (result is None or result.base == SOME_UNIFORM.base) and all(value.uniform for value in values):  # type: ignore[union-attr]
            return SOME_UNIFORM
        return result

    def _mbcnt(self, env: dict, mnemonic: str, sources) -> Value | None:
        if len(sources) != 2 or not (isinstance(sources[0], Num) and _signed(int(sources[0].value)) == -1):
            return None
        added = self.operand(env, sources[1])
        if added is None:
            return None
        if mnemonic.startswith("v_mbcnt_lo"):
            if self.wave == 32 and added.uniform:
                return _add(added, Value(None, None, ((None, 0),), 1))
            return Value(added.base, added.phase, added.offsets, lanelo=True) if added.uniform else None
        if added.lanelo and not added.lane and not added.wave:  # mbcnt_hi(-1, mbcnt_lo(-1, x)): the lane id plus x
            return Value(added.base, added.phase, added.offsets, 1)
        return None

    def _apply(self, mnemonic: str, values: list[Value]) -> Value | None:
        if any(value.lanelo for value in values):
            return None
        name = mnemonic[2:]
        if mnemonic.startswith(("v_mov_b32", "s_mov_b32", "s_movk_i32")) and len(values) == 1:
            return values[0]
        if len(values) == 2:
            first, second = values
            if name in ("add_u32", "add_i32", "add_co_u32", "add_nc_u32", "addk_i32"):
                return _add(first, second)
            if name in ("sub_u32", "sub_i32", "sub_co_u32", "sub_nc_u32"):
                return _subtract(first, second)
            if name in ("subrev_u32", "subrev_co_u32", "subrev_nc_u32"):
                return _subtract(second, first)
            if name in ("lshlrev_b32",):
                return _shift(second, first)
            if name in ("lshl_b32",):
                return _shift(first, second)
            if name in ("mul_lo_u32", "mul_u32_u24", "mul_i32", "mul_i32_i24", "mul_lo_i32", "mulk_i32"):
                return _multiply(first, second)
            if name in ("xor_b32",):
                return self._bits(first, second, "xor")
            if name in ("or_b32",):
                return self._bits(first, second, "or")
            if name in ("and_b32",):
                return self._and(first, second)
            if name in ("lshrrev_b32",):
                return self._shift_right(second, first)
            if name in ("lshr_b32",):
                return self._shift_right(first, second)
        if len(values) == 3:
            first, second, third = values
            if name in ("add3_u32",):
                total = _add(first, second)
                return _add(total, third) if total is not None else None
            if name in ("lshl_add_u32",):
                shifted = _shift(first, second)
                return _add(shifted, third) if shifted is not None else None
            if name in ("add_lshl_u32",):
                total = _add(first, second)
                return _shift(total, third) if total is not None else None
            if name in ("mad_u32_u24", "mad_i32_i24", "mad_u32_u16"):
                product = _multiply(first, second)
                return _add(product, third) if product is not None else None
        return None

    def _range(self, value: Value, offset: int) -> tuple[int, int]:
        low, high = self.span(value)
        return offset + low, offset + high

    def _bits(self, value: Value, other: Value, op: str) -> Value | None:
        """x ^ c or x | c, exactly where every lane's x agrees on the bits from c's lowest one up (and, for an
        or, has c's bits clear): then it is x plus one constant per phase."""
        if not _is_constant(other):
            value, other = other, value
        if not _is_constant(other) or value.base is not None:
            return None
        constant = other.offsets[0][1] & 0xFFFFFFFF
        if constant == 0:
            return value
        low = (constant & -constant).bit_length() - 1
        offsets = []
        for phase, offset in value.offsets:
            lowest, highest = self._range(value, offset)
            if lowest < 0 or lowest >> low != highest >> low or (op == "or" and lowest & constant):
                return None
            moved = (lowest ^ constant) if op == "xor" else (lowest | constant)
            offsets.append((phase, offset + _signed(moved) - lowest))
        return Value(None, value.phase, tuple(offsets), value.lane, value.wave)

    def _and(self, value: Value, other: Value) -> Value | None:
        """x & (2^k - 1): the parts of x that are multiples of 2^k drop out (the wave part of a work-item id
        masked to its lane); what is left must stay within [0, 2^k) in every lane."""
        if not _is_constant(other):
            value, other = other, value
        if not _is_constant(other) or value.base is not None:
            return None
        mask = other.offsets[0][1] & 0xFFFFFFFF
        if mask & (mask + 1):
            return None
        size = mask + 1
        lane = value.lane if value.lane % size else 0
        wave = value.wave if value.wave % size else 0
        kept = Value(None, value.phase, tuple((phase, offset % size) for phase, offset in value.offsets), lane, wave)
        for _, offset in kept.offsets:
            lowest, highest = self._range(kept, offset)
            if lowest < 0 or highest > mask:
                return None
        return kept

    def _shift_right(self, value: Value, amount: Value) -> Value | None:
        """x >> k: exact where the parts of x that are not multiples of 2^k, with the constant's low bits, stay
        within [0, 2^k) in every lane (the work-item id >> 6 in wave64: the wave id)."""
        if not _is_constant(amount) or value.base is not None or value.lanelo:
            return None
        bits = amount.offsets[0][1] & 31
        size = 1 << bits
        lane, wave = value.lane, value.wave
        dropped = Value(None, None, ((None, 0),), lane if lane % size else 0, wave if wave % size else 0)
        low, high = self.span(dropped)
        offsets = []
        for phase, offset in value.offsets:
            if low + offset % size < 0 or high + offset % size >= size:
                return None
            offsets.append((phase, offset >> bits))
        return Value(None, value.phase, tuple(offsets), 0 if lane % size else lane >> bits,
                     0 if wave % size else wave >> bits)

    # joins -------------------------------------------------------------------------------------------
    def join(self, block: int, incoming: list[dict]) -> dict:
        """The values on entry to `block` from its predecessors'."""
        if len(incoming) == 1:
            return dict(incoming[0])
        keys = set().union(*incoming)
        joined: dict = {}
        varying = []
        get = self.get
        for unit in keys:
            values = [get(env, unit) if unit[0] == "s" else env.get(unit) for env in incoming]
            first = values[0]
            if all(value is first or value == first for value in values):
                joined[unit] = first
            elif unit[0] in ("v", "s", "m0"):
                varying.append((unit, values))
            else:
                joined[unit] = None
        if varying:
            joined.update(_phases(block, varying, len(incoming)))
        return joined

    def run(self) -> tuple[list[dict], list[dict]]:
        """Each block's entry values and its values on the edges out (after its branch)."""
        blocks, starts = self.cfg.blocks, self.cfg.starts
        entry: dict = {_EXEC: _FULL_EXEC, _UNIFORM: _UNIFORM_FLAG}
        if self.tid:
            entry[("v", 0)] = Value(None, None, ((None, 0),), 1, self.wave)
        ins: list[dict | None] = [None] * len(blocks)
        outs: list[dict | None] = [None] * len(blocks)
        if not blocks:
            return [], []
        ins[0] = entry
        work = _Worklist(len(blocks))
        while (number := work.pop()) is not None:
            env = dict(ins[number] or {})
            start = starts[number]
            for index in range(start, start + len(blocks[number].instructions)):
                self.step(env, index)
            outs[number] = self._edge_values(number, env)
            for successor in blocks[number].successors:
                incoming = [outs[p] for p in blocks[successor].predecessors if outs[p] is not None]
                if successor == 0:
                    incoming.append(entry)
                joined = self.join(successor, incoming)  # type: ignore[arg-type]
                if joined != ins[successor]:
                    ins[successor] = joined
                    work.push(successor)
        self.given_up |= work.exhausted
        return [e or {} for e in ins], [e or {} for e in outs]

    def _edge_values(self, number: int, env: dict) -> dict:
        """The values on a block's edges out: a conditional branch on a test the analysis cannot show the
        same in every wave makes the paths after it divergent between waves. A branch on EXEC being zero is
        not: the code it skips would have run with no lane on."""
        terminator = self.cfg.blocks[number].terminator
        if terminator is None or len(self.cfg.blocks[number].successors) < 2:
            return env
        mnemonic = terminator.mnemonic
        if mnemonic.startswith("s_cbranch_exec") or (mnemonic.startswith("s_cbranch_scc") and env.get(_SCC) is not None) \
                or (mnemonic.startswith("s_cbranch_vcc") and env.get(_VCC) is not None):
            return env
        divergent = dict(env)
        divergent[_UNIFORM] = None
        return divergent


def _data_defs(defs: frozenset) -> list[Unit]:
    return [unit for unit in defs if unit[0] in ("v", "s", "m0")]


def _is_exec(node) -> bool:
    return isinstance(node, SpecialReg) and node.name in ("exec", "exec_lo")


def _is_constant(value: Value) -> bool:
    return value.base is None and value.phase is None and value.uniform


_CARRIES = frozenset(("v_add_co_u32", "v_sub_co_u32", "v_subrev_co_u32", "v_add_u32", "v_sub_u32", "v_subrev_u32",
                      "v_add_i32", "v_sub_i32", "v_subrev_i32"))
_COMPARISON = re.compile(r"s_cmpk?_(eq|lg|lt|le|gt|ge)_([iu])32$")
_TESTS = {"eq": lambda a, b: a == b, "lg": lambda a, b: a != b, "lt": lambda a, b: a < b,
          "le": lambda a, b: a <= b, "gt": lambda a, b: a > b, "ge": lambda a, b: a >= b}
_IGNORE_CARRY_IN = frozenset(("s_addc_u32", "s_subb_u32", "v_addc_co_u32", "v_addc_u32", "v_subb_co_u32"))


def _combine(first: Value, second: Value, op) -> tuple | None:
    """The offsets of two values combined per phase (one phase at most)."""
    if first.phase is not None and second.phase is not None and first.phase != second.phase:
        return None
    if second.phase is None:
        (_, constant), = second.offsets
        return tuple((phase, op(offset, constant)) for phase, offset in first.offsets)
    if first.phase is None:
        (_, constant), = first.offsets
        return tuple((phase, op(constant, offset)) for phase, offset in second.offsets)
    theirs = dict(second.offsets)
    if set(theirs) != {phase for phase, _ in first.offsets}:
        return None
    return tuple((phase, op(offset, theirs[phase])) for phase, offset in first.offsets)


def _add(first: Value, second: Value) -> Value | None:
    if first.base is not None and second.base is not None:
        return None
    if first.lanelo or second.lanelo:
        return None
    offsets = _combine(first, second, lambda a, b: _signed(a + b))
    if offsets is None:
        return None
    return Value(first.base or second.base, first.phase or second.phase, offsets, first.lane + second.lane,
                 first.wave + second.wave)


def _subtract(first: Value, second: Value) -> Value | None:
    negated = _scale(second, -1)
    return _add(first, negated) if negated is not None else None


def _scale(value: Value, factor: int) -> Value | None:
    if value.base is not None:
        return None if factor != 1 else value
    if value.lanelo:
        return None
    return Value(None, value.phase, tuple((phase, _signed(offset * factor)) for phase, offset in value.offsets),
                 value.lane * factor, value.wave * factor)


def _multiply(first: Value, second: Value) -> Value | None:
    if _is_constant(second):
        return _scale(first, second.offsets[0][1])
    if _is_constant(first):
        return _scale(second, first.offsets[0][1])
    return None


def _shift(value: Value, amount: Value) -> Value | None:
    if not _is_constant(amount):
        return None
    return _scale(value, 1 << (amount.offsets[0][1] & 31))


def _phases(block: int, varying: list[tuple[Unit, list[Value | None]]], edges: int) -> dict:
    """Registers with different values on the edges into a block (a loop header, a join): one phase of the
    block, whose at most _MAX_PHASES possible values are the vectors of those registers' values (each
    incoming value a constant, or the same phase moved), so registers toggled together stay together.
    A register that cannot join the phase is unknown, or only uniform where every incoming value is."""
    phase = (block,)
    joined: dict = {}
    candidates: list[tuple[Unit, list[Value]]] = []
    for unit, incoming in sorted(varying):
        present = [value for value in incoming if value is not None]
        if len(present) < len(incoming):
            joined[unit] = None
            continue
        uniform = SOME_UNIFORM if all(value.uniform for value in present) else None
        shapes = {(value.lane, value.wave, value.lanelo, value.base) for value in present}
        if len(shapes) != 1 or SOME_UNIFORM.base in {shape[3] for shape in shapes} or any(
                value.phase not in (None, phase) for value in present):
            joined[unit] = uniform
            continue
        if len({offset for value in present for _, offset in value.offsets}) > _MAX_PHASES:
            joined[unit] = uniform  # a counter: too many values to follow
            continue
        candidates.append((unit, present))
    alternatives: set[tuple] = set()
    for edge in range(edges):
        keys = {tuple(key for key, _ in values[edge].offsets) for _, values in candidates
                if values[edge].phase == phase}
        if len(keys) > 1:
            alternatives = set(range(_MAX_PHASES + 1))  # type: ignore[arg-type]  # too many: give up below
            break
        for key in (keys.pop() if keys else (None,)):
            alternatives.add(tuple(dict(values[edge].offsets)[key] if values[edge].phase == phase
                                   else values[edge].offsets[0][1] for _, values in candidates))
    if len(alternatives) > _MAX_PHASES:
        for unit, known in candidates:
            joined[unit] = SOME_UNIFORM if all(value.uniform for value in known) else None
        return joined
    ordered = sorted(alternatives)
    for position, (unit, known) in enumerate(candidates):
        first = known[0]
        joined[unit] = Value(first.base, phase, tuple((vector, vector[position]) for vector in ordered),
                             first.lane, first.wave, first.lanelo)
    return joined


_BARRIER, _SIGNAL, _WAIT = "barrier", "signal", "wait"


def _barrier_kind(mnemonic: str) -> str | None:
    """How a barrier-class instruction orders LDS between waves: a whole barrier, the signal half or the wait
    half of gfx12's split one; None for the rest (state queries, leave, named-barrier set-up)."""
    if mnemonic == "s_barrier":
        return _BARRIER
    if mnemonic.startswith("s_barrier_signal"):
        return _SIGNAL
    if mnemonic == "s_barrier_wait":
        return _WAIT
    return None


@frozen_dataclass(frozen=True, slots=True, repr=False, init=False, eq=False)
class _Ordering:
    """What a pending write's wave has done towards ordering it: events on its counter since (in order with
    it), whether a wait retired it, whether a barrier signal followed it retired."""

    newer: int
    retired: bool
    signalled: bool

    def __init__(self, newer: int, retired: bool, signalled: bool) -> None:
        object.__setattr__(self, "newer", newer)
        object.__setattr__(self, "retired", retired)
        object.__setattr__(self, "signalled", signalled)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, _Ordering) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.newer, self.retired, self.signalled) == (other.newer, other.retired, other.signalled)

    def __hash__(self) -> int:
        return hash((self.newer, self.retired, self.signalled))

    def worst(self, other: _Ordering) -> _Ordering:
        return _Ordering(min(self.newer, other.newer), self.retired and other.retired,
                         self.signalled and other.signalled)


_READ = _Ordering(0, True, False)  # a read is ordered by the barrier itself


class _Pending:
    """Forward may-dataflow of the accesses not yet separated from the current point by a barrier, their
    addresses carried around loops (a phase renamed on the back edge)."""

    def __init__(self, kernel: Kernel, def_use: list[DefUse], cfg: ControlFlowGraph, target: Target,
                 accesses: dict[int, LdsAccess], outs: list[dict], ins: list[dict], waits: WaitReport | None,
                 values: _Values):
        self.kernel, self.def_use, self.cfg, self.target = kernel, def_use, cfg, target
        self.accesses, self.outs, self.ins, self.values = accesses, outs, ins, values
        self.reported_barriers = {index for index, needs in (waits.missing.items() if waits else ())
                                  if any(need.access == "barrier-lds" for need in needs)}
        self.maxima = target.wait_counter_max
        self.races: dict[tuple[int, int], Race] = {}
        self.given_up = False

    def run(self) -> dict[int, list[Race]]:
        blocks, starts = self.cfg.blocks, self.cfg.starts
        if not blocks:
            return {}
        ins: list[dict | None] = [None] * len(blocks)
        ins[0] = {}
        work = _Worklist(len(blocks))
        while (number := work.pop()) is not None:
            state = dict(ins[number] or {})
            start = starts[number]
            for index in range(start, start + len(blocks[number].instructions)):
                self._step(state, index)
            for successor in blocks[number].successors:
                moved = self._into(number, successor, state)
                current = ins[successor]
                joined = dict(current) if current is not None else {}
                for key, ordering in moved.items():
                    before = joined.get(key)
                    joined[key] = ordering if before is None else before.worst(ordering)
                if len(joined) > _MAX_PENDING:
                    self.given_up = True
                    return {}
                if joined != current:
                    ins[successor] = joined
                    work.push(successor)
        self.given_up |= work.exhausted
        found: dict[int, list[Race]] = {}
        for (_, second), race in sorted(self.races.items()):
            found.setdefault(second, []).append(race)
        return found

    def _into(self, source: int, successor: int, state: dict) -> dict:
        """The pending accesses on the edge into `successor`: an address in a phase of `successor` renamed
        to the phase the edge sets (dropped where the edge's value does not say which)."""
        moved: dict = {}
        out = self.outs[source]
        units: list[Unit] | None = None
        for key, ordering in state.items():
            writer, address = key
            phase = address.phase
            if phase is not None and phase[0] == successor:
                if units is None:
                    entry = self.ins[successor]
                    units = sorted(unit for unit, value in entry.items() if value is not None and value.phase == phase)
                renamed = _renamed(address, out, units, self.values)
                if renamed is None:
                    continue
                address = renamed
            moved[writer, address] = ordering
        return moved

    def _step(self, state: dict, index: int) -> None:
        info = self.def_use[index]
        klass = info.klass
        access = self.accesses.get(index)
        if access is not None and access.address is not None:
            self._compare(state, access)
            key = (index, access.address)
            ordering = _Ordering(0, False, False) if access.writes else _READ
            state[key] = ordering if key not in state else state[key].worst(ordering)
        if not state:
            return
        unit = klass.unit
        if unit == "call":
            state.clear()
            return
        if unit == "smem":  # a scalar load again: addresses built from its earlier result are other values
            for key in [key for key in state if key[1].base is not None and key[1].base[0] == "load"
                        and key[1].base[1] == index]:
                del state[key]
        if klass.counters:
            for key, ordering in list(state.items()):
                pending = self.accesses[key[0]]
                if pending.counter in klass.counters and not ordering.retired and self._in_order(pending, klass):
                    newer = ordering.newer + 1
                    retired = newer >= self.maxima.get(pending.counter, 64)
                    state[key] = _Ordering(newer, retired, ordering.signalled)
        if unit == "wait":
            instruction = self.kernel.instructions[index]
            counts = wait_counts(instruction.mnemonic, instruction.operands, self.target) or {}
            for key, ordering in list(state.items()):
                counter = self.accesses[key[0]].counter
                if not ordering.retired and counter in counts and counts[counter] <= ordering.newer:
                    state[key] = _Ordering(ordering.newer, True, ordering.signalled)
        elif unit == "barrier":
            kind = _barrier_kind(self.kernel.instructions[index].mnemonic)
            if kind is None:
                return
            reported = index in self.reported_barriers  # missing-wait names the wait this barrier lacks
            drained = {key for key, ordering in state.items() if ordering.retired or (
                reported and self.accesses[key[0]].counter in ("lgkmcnt", "dscnt"))}
            if kind == _BARRIER:
                for key in drained:
                    del state[key]
            elif kind == _SIGNAL:
                for key in drained:
                    ordering = state[key]
                    state[key] = _Ordering(ordering.newer, True, True)
            else:
                for key in [key for key, ordering in state.items() if ordering.signalled]:
                    del state[key]

    def _in_order(self, pending: LdsAccess, klass) -> bool:
        """Whether an event of `klass` retires in order with the pending write's (so waiting for it to be
        among the newest N retires the write)."""
        if pending.counter in ("lgkmcnt", "dscnt"):
            return klass.unit == "ds"
        if self.target.major < 10:
            return klass.unit == "vmem"
        return bool(klass.lds_dma)

    def _compare(self, state: dict, access: LdsAccess) -> None:
        for writer, address in state:
            first = self.accesses[writer]
            if not (first.writes or access.writes) or (writer, access.index) in self.races:
                continue
            self._judge(first, address, access)
        if access.writes and (access.index, access.index) not in self.races:
            self._judge(access, access.address, access)  # the same instruction in two waves

    def _judge(self, first: LdsAccess, address: Value | None, second: LdsAccess) -> None:
        if address is None or second.address is None or (first.atomic and second.atomic):
            return  # atomics of two waves are ordered by the LDS
        if first.same_bytes is not None and (not second.writes or (
                second.same_bytes == first.same_bytes and second.address == address)):
            return  # every wave wrote these bytes alike: a later read sees its own wave's, a like write changes nothing
        verdict = _overlap(address, first.pieces, second.address, second.pieces, self.values)
        if verdict is None or not verdict[0]:
            return
        _, every_phase = verdict
        reason = ""
        if not every_phase:
            reason = "the buffers overlap on some phases of the loop only"
        elif not (first.everywhere and second.everywhere):
            reason = "EXEC or a branch may keep some waves from running them"
        self.races[first.index, second.index] = Race(first.index, second.index, not reason, reason)


def _renamed(address: Value, out: dict, units: list[Unit], values: _Values) -> Value | None:
    """`address`, in a phase of the block an edge enters, in that block's phase after the edge: each of the
    old phase's values mapped to the vector of values the edge gives the phase's registers (the same phase
    moved, or constants); None where the edge does not say (the access is then no longer followed)."""
    renamed: dict = {}
    edge_values = [values.get(out, unit) for unit in units]
    for old, offset in address.offsets:
        vector = []
        for value in edge_values:
            if value is None or value.phase not in (None, address.phase):
                return None
            if value.phase is None:
                vector.append(value.offsets[0][1])
            else:
                moved = dict(value.offsets).get(old)
                if moved is None:
                    return None
                vector.append(moved)
        new = tuple(vector)
        if renamed.get(new, offset) != offset:
            return None
        renamed[new] = offset
    return Value(address.base, address.phase, tuple(sorted(renamed.items())), address.lane, address.wave)


def _overlap(first: Value, first_pieces, second: Value, second_pieces, values: _Values) -> tuple[bool, bool] | None:
    """(overlap on some phase, on every phase) of two accesses in different waves; None where the
    addresses cannot be compared."""
    if first.base != second.base:
        return None
    if first.phase is not None and second.phase is not None and first.phase != second.phase:
        return None
    if first.phase is not None and second.phase is not None:
        theirs = dict(second.offsets)
        pairs = [(offset, theirs[phase]) for phase, offset in first.offsets if phase in theirs]
    else:
        pairs = [(a, b) for _, a in first.offsets for _, b in second.offsets]
    if not pairs:
        return None
    if first.lanelo or second.lanelo:
        return None
    results = []
    for a, b in pairs:
        verdicts = [_cross_wave(a + pa, first, pn, b + pb, second, qn, values)
                    for pa, pn in first_pieces for pb, qn in second_pieces]
        if None in verdicts and True not in verdicts:
            return None  # too many cases to try
        results.append(True in verdicts)
    return any(results), all(results)


_MOST_TRIES = 4096  # (wave, wave, lane) cases one comparison may try before it gives up


def _cross_wave(x: int, first: Value, p: int, y: int, second: Value, q: int, values: _Values) -> bool | None:
    """Whether [x + first's lane and wave parts, +p) and [y + second's, +q) meet for a lane of one wave and a
    lane of another; None where that takes too many cases to try."""
    a1, b1, a2, b2 = first.lane, first.wave, second.lane, second.wave
    top_wave = values.waves - 1
    if b1 == b2:  # only the waves' difference counts: any nonzero one happens
        shifts: list[int] = [b1 * d for d in range(-top_wave, top_wave + 1) if d]
    elif (top_wave + 1) ** 2 * (1 if a1 == a2 or not (a1 and a2) else values.wave) > _MOST_TRIES:
        return None
    else:
        shifts = sorted({b1 * w1 - b2 * w2 for w1 in range(top_wave + 1) for w2 in range(top_wave + 1) if w1 != w2})
    return any(_lanes_meet(x - y + shift, a1, a2, p, q, values.wave - 1) for shift in shifts)


def _lanes_meet(c: int, a1: int, a2: int, p: int, q: int, top: int) -> bool:
    """Whether c + a1*i - a2*j lies in (-p, q) for some lanes i and j (each in [0, top])."""
    if a1 == a2:
        low, high = _solutions(c, a1, p, q)  # d = i - j
        return max(low, -top) <= min(high, top)
    if a1 == 0:
        return _ids_between(c, a2, p, q, 0, top)
    if a2 == 0:
        return _ids_between(c, -a1, p, q, 0, top)
    return any(_ids_between(c + a1 * i, a2, p, q, 0, top) for i in range(top + 1))


def _ids_between(c: int, s: int, p: int, q: int, low: int, high: int) -> bool:
    """Whether c - s*j lies in (-p, q) for some j in [low, high]."""
    first, last = _solutions(c, -s, p, q)
    return max(first, low) <= min(last, high)


def _solutions(c: int, s: int, p: int, q: int) -> tuple[int, int]:
    """The integers d (a range, empty when low > high) with c + s*d in (-p, q)."""
    if s == 0:
        return (-(1 << 40), 1 << 40) if -p < c < q else (1, 0)
    # -p - c < s*d < q - c
    lower, upper = -p - c, q - c
    if s < 0:
        lower, upper, s = -upper, -lower, -s
    return lower // s + 1, -((-upper) // s) - 1


def _lds_accesses(kernel: Kernel, def_use: list[DefUse], cfg: ControlFlowGraph, ins: list[dict],
                  values: _Values) -> dict[int, LdsAccess]:
    """Every LDS access with its abstract address, from each block's entry values."""
    accesses: dict[int, LdsAccess] = {}
    instructions = kernel.instructions
    for number, block in enumerate(cfg.blocks):
        start = cfg.starts[number]
        if not any(_touches_lds(def_use[index]) for index in range(start, start + len(block.instructions))):
            continue
        env = dict(ins[number])
        for index in range(start, start + len(block.instructions)):
            info = def_use[index]
            if _touches_lds(info):
                accesses[index] = _access(index, instructions[index], info, env, values)
            values.step(env, index)
    return accesses


def _touches_lds(info: DefUse) -> bool:
    return _class_touches_lds(info.klass)


def _class_touches_lds(klass: InstructionClass) -> bool:
    return (klass.unit == "ds" and klass.memory == "lds" and klass.kind not in ("other", "")) or klass.lds_dma


def _access(index: int, instruction: Instruction, info: DefUse, env: dict, values: _Values) -> LdsAccess:
    klass = info.klass
    everywhere = env.get(_EXEC) == _FULL_EXEC and env.get(_UNIFORM) is not None
    if klass.lds_dma:  # each lane writes its element at M0 + offset + lane * size
        m0 = env.get(("m0", 0))
        size = _dma_bytes(instruction.mnemonic)
        address = None
        if m0 is not None and not m0.lane and not m0.lanelo and m0.base != SOME_UNIFORM.base:
            address = _add(m0, Value(None, None, ((None, _modifier(instruction, "offset")),), size))
        counter: str | None = next((name for name in ("vmcnt", "loadcnt") if name in klass.counters), None)
        sources = _alike(env, values, [unit for unit in info.uses if unit[0] in ("v", "s")])  # where it loads from
        same: tuple | None = ("dma", instruction.mnemonic, sources) if sources is not None and address is not None else None
        return LdsAccess(index, True, address, ((0, size),), everywhere, counter, False, same)
    writes = klass.kind in ("write", "write2", "atomic")
    address_node = _address_operand(instruction, info)
    address = values.operand(env, address_node) if address_node is not None else None
    if address is not None and (address.lanelo or address.base == SOME_UNIFORM.base):
        address = None
    counter = next((name for name in ("lgkmcnt", "dscnt") if name in klass.counters), None) if writes else None
    same = None
    if writes and address is not None and address.alike and klass.kind != "atomic":
        data = _alike(env, values, [unit for unit in info.uses if unit[0] == "v"
                                    and unit not in register_units(address_node)])
        same = (instruction.mnemonic, data) if data is not None else None
    return LdsAccess(index, writes, address, _pieces(instruction, klass.kind), everywhere, counter,
                     klass.kind == "atomic", same)


def _alike(env: dict, values: _Values, units: list[Unit]) -> tuple | None:
    """The values of these registers where each is the same in every wave lane by lane (uniform, or a function
    of the lane id alone); None where one is not."""
    found = tuple(values.get(env, unit) for unit in sorted(units))
    if any(value is None or not value.alike for value in found):
        return None
    return found


def _dma_bytes(mnemonic: str) -> int:
    """Bytes an LDS DMA writes per lane: 4 for a dword or less, 4N for dwordxN, or its b32..b128."""
    match = _DWORDS.search(mnemonic)
    if match:
        return 4 * int(match.group(1) or 1)
    return max(element_bytes(mnemonic), 4)


_DWORDS = re.compile(r"dword(?:x(\d))?$")


def _address_operand(instruction: Instruction, info: DefUse):
    if info.variant is None:
        return None
    names = [spec.name for spec in info.variant.operands]
    for name in ("addr", "vaddr"):
        if name in names and names.index(name) < len(instruction.operands):
            return instruction.operands[names.index(name)]
    return None


class LdsRaceAnalysis(Analysis):
    """Cross-wave LDS races of a kernel; None without a target, for a function, or when it cannot finish."""

    name = "lds-race"

    @classmethod
    def run(cls, kernel: Kernel, manager: AnalysisManager) -> LdsRaceReport | None:
        module = manager.module
        target = module.target
        def_use = manager.get(DefUseAnalysis)
        if target is None or def_use is None or not kernel.is_kernel:
            return None
        per_instruction = def_use.per_instruction
        classes = {id(klass): klass for klass in map(_KLASS, per_instruction)}  # a few distinct ones
        if not any(map(_class_touches_lds, classes.values())):
            return None
        size = work_group_threads(module, kernel)
        if size is None:
            return None
        threads, one_dimensional = size
        wave = def_use.wave_size
        if threads <= wave:
            return LdsRaceReport({}, {}, threads, wave)  # one wave: nothing to race with
        cfg = manager.get(CFGAnalysis)
        values = _Values(kernel, module, per_instruction, cfg, wave, threads, one_dimensional)
        ins, outs = values.run()
        if values.given_up:
            return None
        accesses = _lds_accesses(kernel, per_instruction, cfg, ins, values)
        if not any(access.address is not None for access in accesses.values()):
            return LdsRaceReport({}, accesses, threads, wave)
        waits = manager.get(WaitcntAnalysis)
        pending = _Pending(kernel, per_instruction, cfg, target, accesses, outs, ins, waits, values)
        races = pending.run()
        if pending.given_up:
            return None
        return LdsRaceReport(races, accesses, threads, wave)


class LdsAddressAnalysis(Analysis):
    """Every LDS access of a kernel with its abstract address, for the performance model's bank model: the race
    analysis's where it ran, else the same value analysis over a work-group of the stated size (one wave where
    nothing states it: the lane part of an address does not depend on it). In a function (or code without a kernel
    descriptor) v0 is not the work-item id: only `v_mbcnt` gives the lane there."""

    name = "lds-addresses"

    @classmethod
    def run(cls, kernel: Kernel, manager: AnalysisManager) -> dict[int, LdsAccess]:
        report = manager.get(LdsRaceAnalysis)
        if report is not None and report.accesses:
            return report.accesses
        module = manager.module
        def_use = manager.get(DefUseAnalysis)
        if module.target is None or def_use is None:
            return {}
        per_instruction = def_use.per_instruction
        if not any(_touches_lds(info) for info in per_instruction):
            return {}
        wave = def_use.wave_size
        threads, one_dimensional = work_group_threads(module, kernel) or (
            wave, not kernel.descriptor.get("system_vgpr_workitem_id"))
        cfg = manager.get(CFGAnalysis)
        values = _Values(kernel, module, per_instruction, cfg, wave, max(threads, wave),
                         one_dimensional and kernel.is_kernel)
        ins, _ = values.run()
        return {} if values.given_up else _lds_accesses(kernel, per_instruction, cfg, ins, values)
