"""Per-target instruction tables, generated from LLVM's instruction-syntax pages.

`scripts/gen_isa_tables.py` writes tables/<page>.jsonl (a line per mnemonic); a processor's
instruction set is the union of its pages (`Target.isa_pages`). Each mnemonic has one or more encoding variants, each
an ordered list of operands (destination or source, size in dwords, accepted kinds, tags such as
`opt` for an optional operand or `dst` for an input that returns data) plus modifier names.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from functools import cache, lru_cache
from pathlib import Path

from ..model.frozen import frozen_dataclass
from ..model.targets import Target

_ENCODING_SUFFIX = re.compile(r"_(e32|e64|dpp|sdwa)$")
_ALL_SUFFIXES = re.compile(r"(_e32|_e64|_dpp|_sdwa)+$")
PAGES = ("gfx7", "gfx8", "gfx9", "gfx900", "gfx904", "gfx906", "gfx908", "gfx90a", "gfx940", "gfx950",
         "gfx10", "gfx1011", "gfx1013", "gfx1030", "gfx11", "gfx12")


@frozen_dataclass(frozen=True, slots=True, init=False, eq=False, repr=False)
class OperandSpec:
    """One operand of an encoding variant."""

    name: str
    is_def: bool
    size: int | tuple[int, int] | None  # dwords; (wave32, wave64) when it depends on the wave size
    kinds: tuple[str, ...]  # register files and constant kinds the operand accepts
    tags: tuple[str, ...] = ()

    def __init__(self, name: str, is_def: bool, size: int | tuple[int, int] | None, kinds: tuple[str, ...],
                 tags: tuple[str, ...] = ()) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "is_def", is_def)
        object.__setattr__(self, "size", size)
        object.__setattr__(self, "kinds", kinds)
        object.__setattr__(self, "tags", tags)

    def __repr__(self) -> str:
        return (f"{self.__class__.__qualname__}(name={self.name!r}, is_def={self.is_def!r}, size={self.size!r}, "
                f"kinds={self.kinds!r}, tags={self.tags!r})")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, OperandSpec) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.name, self.is_def, self.size, self.kinds, self.tags) == (
            other.name, other.is_def, other.size, other.kinds, other.tags)

    def __hash__(self) -> int:
        return hash((self.name, self.is_def, self.size, self.kinds, self.tags))

    @property
    def optional(self) -> bool:
        return "opt" in self.tags

    @property
    def returns_data(self) -> bool:
        """An input that also receives data when the instruction returns (atomics' vdata:dst)."""
        return "dst" in self.tags

    @property
    def implicit_register(self) -> str | None:
        """The special register of an operand the syntax may leave out (gfx12 v_cmpx writes exec,
        VOPD v_dual_cndmask_b32 reads vcc), or None."""
        if len(self.kinds) == 1 and self.kinds[0] in ("exec", "vcc", "m0", "scc"):
            return self.kinds[0]
        return self.name if self.name in ("vcc", "exec") and not self.kinds else None

    def dwords(self, wave_size: int) -> int | None:
        if isinstance(self.size, tuple):
            return self.size[0] if wave_size == 32 else self.size[1]
        return self.size


@frozen_dataclass(frozen=True, slots=True, init=False, eq=False, repr=False)
class Variant:
    """One encoding of a mnemonic: its operands and modifier names."""

    encoding: str
    operands: tuple[OperandSpec, ...]
    modifiers: tuple[str, ...]

    def __init__(self, encoding: str, operands: tuple[OperandSpec, ...], modifiers: tuple[str, ...]) -> None:
        object.__setattr__(self, "encoding", encoding)
        object.__setattr__(self, "operands", operands)
        object.__setattr__(self, "modifiers", modifiers)

    def __repr__(self) -> str:
        return (f"{self.__class__.__qualname__}(encoding={self.encoding!r}, operands={self.operands!r}, "
                f"modifiers={self.modifiers!r})")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Variant) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.encoding, self.operands, self.modifiers) == (other.encoding, other.operands, other.modifiers)

    def __hash__(self) -> int:
        return hash((self.encoding, self.operands, self.modifiers))

    @property
    def required_count(self) -> int:
        return sum(1 for op in self.operands if not op.optional and op.implicit_register is None)


class InstructionSet:
    """The instructions of one processor: mnemonic -> encoding variants.

    `spellings` are the other mnemonics llvm-mc 22 accepts on the processor (tables/spellings.json,
    from scripts/gen_accepted_spellings.py): mnemonic -> (page, row), the row it reads as on its own
    pages (page "") or on another page.
    """

    def __init__(self, pages: tuple[str, ...], spellings: tuple[tuple[str, str, str], ...] = ()):
        self.pages = pages
        self._tables = tuple(_load_page(page) for page in pages)
        self._variants: dict[str, tuple[Variant, ...]] = {}  # built on first lookup
        self._all_names: dict[str, None] | None = None
        self._spellings = {name: (page, row) for name, page, row in spellings}
        self._printed: dict[str, str] | None = None

    def __contains__(self, mnemonic: str) -> bool:
        return bool(self.variants(mnemonic)) or self._spelling(mnemonic) is not None

    def _spelling(self, mnemonic: str) -> tuple[str, str] | None:
        """(page, row) an accepted other spelling reads as, written with or without an encoding suffix."""
        return self._spellings.get(mnemonic) or self._spellings.get(_ALL_SUFFIXES.sub("", mnemonic))

    def _row(self, mnemonic: str) -> tuple[Variant, ...]:
        """The variants every page of the processor gives `mnemonic` (empty when none does)."""
        found = self._variants.get(mnemonic)
        if found is None:
            found = tuple(variant for table in self._tables for variant in table.get(mnemonic))
            self._variants[mnemonic] = found
        return found

    def _names(self) -> dict[str, None]:
        """The mnemonics of the processor's pages, in page order (built on first use)."""
        if self._all_names is None:
            self._all_names = dict.fromkeys(name for table in self._tables for name in table.names())
        return self._all_names

    def __len__(self) -> int:
        return len(self._names())

    def __iter__(self):
        """The mnemonics of the tables (not the other accepted spellings)."""
        return iter(self._names())

    def variants(self, mnemonic: str) -> tuple[Variant, ...]:
        """Encoding variants for a mnemonic as written; an encoding suffix (`_e32`, `_e64`,
        `_dpp`, `_e64_dpp`) the tables do not list separately names the base row."""
        found = self._row(mnemonic) or self._row(_ALL_SUFFIXES.sub("", mnemonic))
        if not found and (spelling := self._spelling(mnemonic)) is not None:
            page, row = spelling
            found = _load_page(page).get(row) if page else self._row(row)
        return found

    def printed_names(self) -> dict[str, str]:
        """Accepted spelling -> the row name it reads as on this processor's own pages (worked out once)."""
        if self._printed is None:
            self._printed = {name: row for name, (page, row) in self._spellings.items() if not page and row != name}
        return self._printed

    def suggestions(self, mnemonic: str, count: int = 3) -> list[str]:
        import difflib

        base = _ENCODING_SUFFIX.sub("", mnemonic)
        names = {_ENCODING_SUFFIX.sub("", name) for name in self._names()} - {base}
        return difflib.get_close_matches(base, sorted(names), n=count, cutoff=0.75)


def _spec(raw: list, kinds: list[list[str]]) -> OperandSpec:
    size = raw[2]
    return OperandSpec(
        raw[0],
        raw[1] == "d",
        tuple(size) if isinstance(size, list) else size,
        tuple(kinds[raw[3]]),
        tuple(raw[4]) if len(raw) > 4 else (),
    )


def _sizes(wave32: int, wave64: int) -> int | tuple[int, int]:
    """An operand size as the tables write it: one number where both wave sizes agree."""
    return wave32 if wave32 == wave64 else (wave32, wave64)


@lru_cache(maxsize=1)
def _wave_widths() -> dict[str, dict[str, dict]]:
    """tables/wave_widths.json (scripts/gen_matrix_operands.py): per page and mnemonic, the VGPR operands whose
    width llvm-mc 22 takes by the wave size (WMMA/SWMMAC, `global_load_tr_b64`/`_b128`: a wave64 lane holds half
    of what a wave32 one does), each [wave32, wave64] dwords by operand position, with the probed operand count.
    The pages give wave32's sizes only (and those of gfx12's 16-bit WMMA wrong)."""
    return json.loads((_TABLES / "wave_widths.json").read_text())


def _wave_sized(row: tuple[Variant, ...], widths: dict) -> tuple[Variant, ...]:
    """The row with the probed widths of each VGPR operand, in variants with the probed operand count."""
    slots = widths["slots"]
    return tuple(Variant(v.encoding, tuple(replace(op, size=_sizes(*slots[str(index)]))
                                           if str(index) in slots and "v" in op.kinds else op
                                           for index, op in enumerate(v.operands)), v.modifiers)
                 if len(v.operands) == widths["count"] else v for v in row)


_SOURCE = ("v", "s", "constant", "literal")
#: Rows a page lacks, each checked with llvm-mc 22 (`-show-encoding`): gfx950's scale-load
#: instruction reads two 32-bit sources and writes no register.
_MISSING_ROWS = {
    ("gfx950", "v_mfma_ld_scale_b32"): (Variant("VOP3P", (OperandSpec("src0", False, 1, _SOURCE), OperandSpec("src1", False, 1, _SOURCE)),
                                                ("op_sel", "op_sel_hi")),),
}


_SCALAR_FILES = frozenset(("s", "ttmp", "null", "vcc", "vcc_lo", "vcc_hi", "exec", "exec_lo", "exec_hi"))


def _lane_mask(mnemonic: str, operand: OperandSpec) -> OperandSpec:
    """A VALU operand that only takes scalar registers, 2 dwords wide, is a lane mask: 1 dword in wave32."""
    if mnemonic.startswith("v_") and operand.size == 2 and operand.kinds and set(operand.kinds) <= _SCALAR_FILES:
        return replace(operand, size=(1, 2))
    return operand


#: the generated tables, read from the package directory (importlib.resources would cost a zipfile import)
_TABLES = Path(__file__).parent / "tables"


class _Page:
    """One table page: its lines indexed by mnemonic when loaded, a row decoded into `Variant`s on first lookup
    (a small file looks up a few dozen of a page's ~2,000 rows)."""

    def __init__(self, page: str):
        self.page = page
        header, *lines = (_TABLES / f"{page}.jsonl").read_text().splitlines()
        self._kinds: list[list[str]] = json.loads(header)["kinds"]
        self._lines = {line[2 : line.index('"', 2)]: line for line in lines}  # a line is ["mnemonic",[...]]
        self._added = {mnemonic: row for (missing_page, mnemonic), row in _MISSING_ROWS.items() if missing_page == page}
        self._rows: dict[str, tuple[Variant, ...]] = dict(self._added)

    def names(self) -> list[str]:
        return [*self._lines, *(name for name in self._added if name not in self._lines)]

    def __contains__(self, mnemonic: str) -> bool:
        return mnemonic in self._lines or mnemonic in self._added

    def __iter__(self):
        return iter(self.names())

    def get(self, mnemonic: str) -> tuple[Variant, ...]:
        """The row's variants, with the page's known corrections (empty when the page lacks it)."""
        row = self._rows.get(mnemonic)
        if row is None:
            line = self._lines.get(mnemonic)
            raw = json.loads(line)[1] if line is not None else ()
            row = tuple(Variant(v["enc"], tuple(_spec(op, self._kinds) for op in v["ops"]), tuple(v.get("mods", ())))
                        for v in raw)
            if self.page == "gfx12":  # its pages give lane masks (v_cndmask_b16's src2, ...) wave64's 2 dwords only
                row = tuple(Variant(v.encoding, tuple(_lane_mask(mnemonic, op) for op in v.operands), v.modifiers)
                            for v in row)
            widths = _wave_widths().get(self.page, {}).get(mnemonic)
            if widths:
                row = _wave_sized(row, widths)
            self._rows[mnemonic] = row
        return row


@cache
def _load_page(page: str) -> _Page:
    return _Page(page)


@lru_cache(maxsize=1)
def _spellings() -> dict:
    return json.loads((_TABLES / "spellings.json").read_text())


@lru_cache(maxsize=64)
def _instruction_set(pages: tuple[str, ...], group: int | None) -> InstructionSet:
    spellings = _spellings()["groups"][group] if group is not None else {}
    return InstructionSet(pages, tuple((name, page, row) for name, (page, row) in spellings.items()))


@lru_cache(maxsize=64)
def absent_mnemonics(target: Target) -> frozenset[str]:
    """The mnemonics of the tables a processor is read with (a neighbour's) that llvm-mc 22 says it lacks in either
    wave size (tables/mnemonics.jsonl); none for a processor read with its own tables."""
    if target.isa_exact:
        return frozenset()
    from .mnemonics import NOT_AN_INSTRUCTION, mnemonic_verdicts

    verdicts = mnemonic_verdicts()
    columns = verdicts.columns(target, None)
    return frozenset(name for page in target.isa_pages for name in page_mnemonics(page)
                     if verdicts.rejection(name, columns) not in (None, NOT_AN_INSTRUCTION))


@lru_cache(maxsize=64)
def instruction_set(target: Target) -> InstructionSet:
    return _instruction_set(target.isa_pages, _spellings()["processors"].get(target.name))


def page_mnemonics(page: str) -> list[str]:
    """Every mnemonic one table page defines."""
    return _load_page(page).names()


def pages_with(mnemonic: str) -> list[str]:
    """Table pages (roughly: processor families) that define `mnemonic`."""
    base = _ENCODING_SUFFIX.sub("", mnemonic)
    return [page for page in PAGES if mnemonic in _load_page(page) or base in _load_page(page)]
