"""Regular expressions, compiled ahead.

Compiling a regular expression runs Python's `re` parser and compiler: ~150 µs each, ~10 ms for the
package's ~60 on every start, an eighth of a small file's run. `compiled` takes the engine code that
compilation would produce from `patterns_precompiled.py` (written by scripts/gen_pattern_code.py) and
hands it to the engine directly. The table holds the code of one engine version (`_sre.MAGIC`): on any
other, and for a pattern the table lacks, `compiled` is `re.compile`.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

try:
    import _sre
except ImportError:  # not CPython: no engine to hand code to
    _sre = None

#: Every (pattern, flags) `compiled` was asked for (what the generator writes code for).
PATTERN_SOURCES: set[tuple[str, int]] = set()

_TABLE: dict[tuple[str, int], tuple[Any, ...]] | None = None


def compiled(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """`re.compile(pattern, flags)`, from the precompiled table when it holds the pattern for this engine."""
    key = (pattern, int(flags))
    PATTERN_SOURCES.add(key)
    code = _table().get(key)
    if code is None:
        return re.compile(pattern, flags)
    return _sre.compile(pattern, *code)


def _table() -> dict[tuple[str, int], tuple[Any, ...]]:
    global _TABLE
    if _TABLE is None:
        try:
            from .patterns_precompiled import CODE, ENGINE
        except ImportError:  # absent: scripts/gen_pattern_code.py writes it
            CODE, ENGINE = {}, None
        _TABLE = CODE if _sre is not None and ENGINE == _sre.MAGIC else {}
    return _TABLE


def engine_code(pattern: str, flags: int = 0) -> tuple[Any, ...]:
    """The arguments after the pattern with which `re.compile` hands `pattern` to this engine: its flags, code,
    group count, group index and index group (as CPython 3.11 to 3.13 compile it)."""
    from re import _compiler, _parser  # noqa: PLC2701 - what re.compile runs, step by step

    parsed = _parser.parse(pattern, flags)
    code = _compiler._code(parsed, flags)
    index_group = [None] * parsed.state.groups
    for name, index in parsed.state.groupdict.items():
        index_group[index] = name
    return (int(flags | parsed.state.flags), list(map(int, code)), parsed.state.groups - 1, dict(parsed.state.groupdict),
            tuple(index_group))
