"""Symbols counted into one register file and used to index another (`v[f_gpr]` with `f_gpr` from the SGPR block).

MIOpen-style allocator macros hand out register numbers from a counter: `.set name, .SGPR_NEXT_FREE` then
`.set .SGPR_NEXT_FREE, .SGPR_NEXT_FREE + count`. A symbol set from such a counter (directly, plus a constant,
or through another such symbol) is *counted into* the counter's register file. Which file that is comes
from the counter's name or the allocator macro's (`SGPR`, `VGPR`, `AGPR`), else from how the counter's
symbols index registers (`s[...]` against `v[...]`/`a[...]`) when that is one-sided. A use of such a symbol
as the index of a register of the other family (scalar against vector) is reported. Symbols set to plain
numbers, and counters whose file cannot be told, are never reported."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from ..model.ir import Finding, Provenance
from ..model.nodes import BinOp, Call, Node, Num, Sym, UnOp

#: Register files by family: a scalar register index is never a vector one.
_FAMILY = {"s": "s", "v": "v", "a": "v"}
_FILE_WORDS = (("sgpr", "s"), ("vgpr", "v"), ("agpr", "v"))
_FILE_NAMES = {"s": "SGPR", "v": "VGPR"}
#: Without a name to go by, a counter's family is the one its symbols index when at least this many
#: distinct symbols do so and at most one indexes the other family.
_USES_TO_DECIDE = 3
_MAX_CHAIN = 16
_RULE = "register-file-mixup"


def _mentions(node: Node, name: str) -> bool:
    if isinstance(node, Sym):
        return node.name == name
    if isinstance(node, BinOp):
        return _mentions(node.left, name) or _mentions(node.right, name)
    if isinstance(node, UnOp):
        return _mentions(node.operand, name)
    if isinstance(node, Call):
        return any(_mentions(arg, name) for arg in node.args)
    return False


def base_symbol(node: Node) -> str | None:
    """The symbol an index is counted from: `sym`, `sym + 2`, `sym - 1`, `2 + sym`; else None."""
    if isinstance(node, Sym):
        return node.name
    if isinstance(node, BinOp) and node.op in ("+", "-"):
        if isinstance(node.right, Num):
            return base_symbol(node.left)
        if node.op == "+" and isinstance(node.left, Num):
            return base_symbol(node.right)
    return None


def _text(node: Node) -> str:
    """An index as written, near enough: symbols, numbers and + -."""
    if isinstance(node, Sym):
        return node.name
    if isinstance(node, Num):
        return str(node.value)
    if isinstance(node, BinOp):
        return f"{_text(node.left)} {node.op} {_text(node.right)}"
    return "..."


def _family_of_name(name: str) -> str | None:
    lowered = name.lower()
    families = {family for word, family in _FILE_WORDS if word in lowered}
    return families.pop() if len(families) == 1 else None


@dataclass(slots=True, repr=False, eq=False, init=False)
class _Use:
    """One register index naming a counted symbol, in a file its counter may not hand out."""

    symbol: str
    kind: str
    text: str
    counter: str  # the counter the symbol was counted from
    counted: Provenance  # where
    where: Provenance | None = None

    def __init__(self, symbol: str, kind: str, text: str, counter: str, counted: Provenance,
                 where: Provenance | None = None) -> None:
        self.symbol = symbol
        self.kind = kind
        self.text = text
        self.counter = counter
        self.counted = counted
        self.where = where


@dataclass(slots=True, repr=False, eq=False, init=False)
class RegisterSymbols:
    """What the preprocessor sees of counters, the symbols set from them, and the registers they index."""

    counted_from: dict[str, tuple[str, Provenance]] = field(default_factory=dict)  # symbol -> (what it was set from, where)
    counters: dict[str, set[str]] = field(default_factory=dict)  # counter -> names of the macros that advance it
    uses: list[_Use] = field(default_factory=list)
    #: a counter's family by its name or its macros' (None: not told by them), worked out at its first use
    _named: dict[str, str | None] = field(default_factory=dict)
    #: for counters not told by name: the symbols of each family they index
    _symbols: dict[str, dict[str, set[str]]] = field(default_factory=dict)
    #: (symbol, register file) pairs judged fine since the last definition
    _quiet: set[tuple[str, str]] = field(default_factory=set)

    def __init__(self, counted_from: dict[str, tuple[str, Provenance]] | None = None,
                 counters: dict[str, set[str]] | None = None, uses: list[_Use] | None = None,
                 _named: dict[str, str | None] | None = None, _symbols: dict[str, dict[str, set[str]]] | None = None,
                 _quiet: set[tuple[str, str]] | None = None) -> None:
        self.counted_from = {} if counted_from is None else counted_from
        self.counters = {} if counters is None else counters
        self.uses = [] if uses is None else uses
        self._named = {} if _named is None else _named
        self._symbols = {} if _symbols is None else _symbols
        self._quiet = set() if _quiet is None else _quiet

    def defined(self, name: str, value: Node, where: Provenance) -> None:
        """A `.set`/`=` definition: a counter advancing, or a symbol set from another."""
        self._quiet.clear()
        if _mentions(value, name):
            self.counters.setdefault(name, set()).update(step.name for step in where.chain if step.kind == "macro")
            self._named.pop(name, None)
            return
        base = base_symbol(value)
        if base is None:
            self.counted_from.pop(name, None)
            return
        # through a counted symbol known now: it stays counted when that symbol is set to something else
        # (`.set new, old` then `.set old, 0x7fffffff`, as a register is handed on)
        self.counted_from[name] = self._counter_of(base) or (base, where)

    def indexed(self, first: Node, kind: str, index: int) -> _Use | None:
        """A register `kind[first...]` whose index is written with symbols: the use to keep (and give a place,
        `add`), if its counter may not hand out that file (judged by the definitions so far)."""
        base = first.name if type(first) is Sym else base_symbol(first)
        if base is None or (base, kind) in self._quiet:
            return None
        family = _FAMILY.get(kind)
        origin = self._counter_of(base) if family is not None else None
        if origin is None or family is None:
            self._quiet.add((base, kind))
            return None
        counter = origin[0]
        named = self._named.get(counter, "?")
        if named == "?":
            named = self._named[counter] = self._family_by_name(counter)[0]
        if named == family:
            self._quiet.add((base, kind))
            return None
        if named is None:
            self._symbols.setdefault(counter, {"s": set(), "v": set()})[family].add(base)
        return _Use(base, kind, f"{kind}[{_text(first)}] is {kind}{index}", *origin)

    def add(self, use: _Use, where: Provenance) -> None:
        """Keep `use`, made by `indexed`, at `where`."""
        use.where = where
        self.uses.append(use)

    def _counter_of(self, symbol: str) -> tuple[str, Provenance] | None:
        """The counter `symbol` was counted from and where it was, following symbols set from symbols."""
        where = None
        for _ in range(_MAX_CHAIN):
            origin = self.counted_from.get(symbol)
            if origin is None:
                return None
            symbol, defined = origin
            where = where or defined
            if symbol in self.counters:
                return symbol, where
        return None

    def findings(self) -> list[Finding]:
        """One finding per use of a counted symbol in the other family's register file."""
        found: list[Finding] = []
        seen: set[tuple[str, int, str]] = set()
        for use in self.uses:
            assert use.where is not None
            family, why = self._family(use.counter)
            if family is None or _FAMILY[use.kind] == family or (use.where.path, use.where.line, use.symbol) in seen:
                continue
            seen.add((use.where.path, use.where.line, use.symbol))
            at = use.counted.chain[-1] if use.counted.chain else use.counted  # the allocator call in its file
            place = f"line {at.line}" if at.path == use.where.path else f"{os.path.basename(at.path)}:{at.line}"
            used, counted = _FILE_NAMES[_FAMILY[use.kind]], _FILE_NAMES[family]
            register = use.text.rsplit(" ", 1)[-1]
            found.append(Finding(_RULE, (
                f"'{use.symbol}' indexes {used}s here ({use.text}), but it was counted into the {counted} block "
                f"(from {use.counter} at {place}, {why}): nothing allocated {register} for it; allocate it in "
                f"the {used} block, or index the {counted}s it was counted for"), use.where))
        return found

    def _family_by_name(self, counter: str) -> tuple[str | None, str]:
        for name in (counter, *sorted(self.counters.get(counter, ()))):
            family = _family_of_name(name)
            if family is not None:
                return family, f"an {_FILE_NAMES[family]} counter by the name '{name}'"
        return None, ""

    def _family(self, counter: str) -> tuple[str | None, str]:
        """The register family a counter hands out, and why that is known."""
        family, why = self._family_by_name(counter)
        if family is not None:
            return family, why
        symbols = self._symbols.get(counter, {"s": set(), "v": set()})
        for family, other in (("s", "v"), ("v", "s")):
            if len(symbols[family]) >= _USES_TO_DECIDE and len(symbols[other]) <= 1:
                return family, f"an {_FILE_NAMES[family]} counter: {len(symbols[family])} of its symbols index {_FILE_NAMES[family]}s"
        return None, ""
