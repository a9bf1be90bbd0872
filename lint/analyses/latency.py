"""Latency and issue-cost tables (lint/data/latency.json), chosen per target family and
optionally overridden by a user file (`--latency-table`, config `latency-table`)."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

from ..isa.classes import InstructionClass
from ..model.frozen import frozen_dataclass
from ..model.ir import Instruction
from ..model.targets import Target
from .perfmodel.machine import machine_for


class LatencyTableError(ValueError):
    """A user latency table that cannot be read or has a bad entry."""


@frozen_dataclass(frozen=True, slots=True, repr=False, init=False, eq=False)
class Entry:
    """One latency-table row: cycles and where the figure comes from."""

    low: int  # cycles (latency range or a single issue cost)
    high: int
    source: str

    def __init__(self, low: int, high: int, source: str) -> None:
        object.__setattr__(self, "low", low)
        object.__setattr__(self, "high", high)
        object.__setattr__(self, "source", source)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Entry) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.low, self.high, self.source) == (other.low, other.high, other.source)

    def __hash__(self) -> int:
        return hash((self.low, self.high, self.source))


@lru_cache(maxsize=1)
def _builtin() -> dict:
    return json.loads((Path(__file__).parent.parent / "data" / "latency.json").read_text())


def family_of(target: Target) -> str:
    if target.major >= 10:
        return "rdna"
    return "cdna3" if target.is_gfx94_plus else "gcn"


def _entry(name: str, raw: object, where: str) -> Entry:
    if not isinstance(raw, dict):
        raise LatencyTableError(f"{where}: entry '{name}' must be a table with 'latency' or 'cycles'")
    value = raw.get("latency", raw.get("cycles"))
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        low = high = value
    elif (isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) and v > 0 for v in value)
          and value[0] <= value[1]):
        low, high = value
    else:
        raise LatencyTableError(f"{where}: entry '{name}' needs a positive 'latency'/'cycles' (N or [low, high])")
    return Entry(low, high, str(raw.get("source", where)))


@frozen_dataclass(frozen=True, slots=True, repr=False, init=False, eq=False)
class LatencyTable:
    """The latency entries of one processor family."""

    family: str
    entries: dict[str, Entry]

    def __init__(self, family: str, entries: dict[str, Entry]) -> None:
        object.__setattr__(self, "family", family)
        object.__setattr__(self, "entries", entries)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LatencyTable) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.family, self.entries) == (other.family, other.entries)

    def __hash__(self) -> int:
        return hash((self.family, self.entries))

    def __getitem__(self, name: str) -> Entry:
        return self.entries[name]


def read_override(path: str) -> dict[str, Entry]:
    """Entries of a user table: a JSON object mapping entry names to {"latency": N or [low, high]
    (or "cycles"), "source": ...}."""
    try:
        document = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise LatencyTableError(f"{path}: cannot read latency table: {error}") from None
    if not isinstance(document, dict):
        raise LatencyTableError(f"{path}: a latency table is a JSON object of entries")
    known = set().union(*(family["entries"] for family in _builtin()["families"].values()))
    for name in document:
        if name not in known:
            raise LatencyTableError(f"{path}: unknown entry '{name}' (known: {', '.join(sorted(known))})")
    return {name: _entry(name, raw, path) for name, raw in document.items()}


@lru_cache(maxsize=32)
def load_table(target: Target, override: str | None = None) -> LatencyTable:
    """The built-in table for the target's family, with the entries of `override` replacing ours."""
    family = family_of(target)
    entries = {name: _entry(name, raw, "built-in") for name, raw in _builtin()["families"][family]["entries"].items()}
    if override:
        entries.update(read_override(override))
    return LatencyTable(family, entries)


_RATE = {"full": 1, "half": 2, "quarter": 4, "trans": 4}
_WIDTH = re.compile(r"dwordx(\d)|b(\d+)\b|_(u|s)?(byte|short)|dword")
REFERENCE_BYTES = 16 * 64  # the table's request rates are for a 16-byte-per-lane wave64 access (dwordx4, b128)


def lane_bytes(mnemonic: str) -> int:
    """Bytes per lane an access moves: dwordx4 16, b128 16, dword 4, short 2, byte 1."""
    match = _WIDTH.search(mnemonic)
    if match is None:
        return 4
    if match.group(1):
        return 4 * int(match.group(1))
    if match.group(2):
        return max(1, int(match.group(2)) // 8)
    if match.group(4):
        return 1 if match.group(4) == "byte" else 2
    return 4


def request_cycles(rate: Entry, mnemonic: str, wave_size: int) -> float:
    """Cycles of the CU's shared VMEM or LDS pipe one wave's access takes (rate scaled by size)."""
    return rate.low * lane_bytes(mnemonic) * wave_size / REFERENCE_BYTES


def issue_cycles(klass: InstructionClass, instruction: Instruction, table: LatencyTable, target: Target,
                 wave_size: int) -> int:
    """Cycles one wave occupies its SIMD issuing this instruction (MFMA: the matrix pipe)."""
    mnemonic = instruction.mnemonic
    machine = machine_for(target)
    passes = machine.wave64_passes if wave_size == 64 else 1
    valu = table["valu_issue"].low * passes
    scalar = table["salu_issue"].low
    if klass.matrix in ("mfma", "smfmac"):
        return max(klass.passes * 4, valu)
    if klass.matrix in ("wmma", "swmmac") and (wmma := machine.wmma_issue_cycles(target, mnemonic)) is not None:
        return wmma * passes
    if klass.unit == "valu":
        if klass.rate == "f64":
            return valu * (1 if target.has_gfx90a_insts else 4)
        return valu * _RATE.get(klass.rate, 1)
    if mnemonic == "s_nop":
        return max(scalar, instruction.wait_states)
    if klass.unit == "export":
        return table["export"].low
    if klass.unit == "branch":
        return table["branch"].low
    return scalar
