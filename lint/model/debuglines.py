"""What a compiler listing's `.file`/`.loc` lines say: the source line each instruction came from, and which
instructions inline asm issued (`;;#ASMSTART` ... `;;#ASMEND`); whether a file is LLVM's listing at all."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from .ir import Provenance, SourceFile

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

_LOC = re.compile(r"^\s*\.loc\s+(\d+)\s+(\d+)(?:\s+(\d+))?")
_FILE = re.compile(r'^\s*\.file\s+(\d+)\s+"([^"]*)"(?:\s+"([^"]*)")?')

SourceLine = tuple[str, int, int | None]  # (path, line, column or None)


@dataclass(slots=True, repr=False, eq=False, init=False)
class DebugLines:
    """What a listing's `.file`/`.loc` lines say: listing line -> source location, and the inline-asm lines."""

    locations: dict[int, SourceLine] = field(default_factory=dict)
    inline_asm: set[int] = field(default_factory=set)  # listing lines between ;;#ASMSTART and ;;#ASMEND

    def __init__(self, locations: dict[int, SourceLine] | None = None, inline_asm: set[int] | None = None) -> None:
        self.locations = {} if locations is None else locations
        self.inline_asm = set() if inline_asm is None else inline_asm

    def __bool__(self) -> bool:
        return bool(self.locations)


def debug_lines(text: str, listing: str) -> DebugLines:
    """Read the `.file`/`.loc` lines of a listing at `listing` (relative source names and directories resolve
    against the file 0 directory the compiler names, else the listing's)."""
    found = DebugLines()
    if ".loc" not in text:
        return found
    files: dict[str, str] = {}
    base = str(Path(listing).parent)
    current: SourceLine | None = None
    in_asm = False
    for number, line in enumerate(text.split("\n"), 1):
        stripped = line.lstrip()
        if stripped.startswith(".file"):
            match = _FILE.match(line)
            if match:
                directory, name = (match.group(2), match.group(3)) if match.group(3) is not None else ("", match.group(2))
                if match.group(1) == "0" and directory:
                    base = directory
                folder = os.path.join(base, directory)  # a relative directory is the compilation directory's
                files[match.group(1)] = name if os.path.isabs(name) else os.path.join(folder, name)
            continue
        if stripped.startswith(".loc"):
            match = _LOC.match(line)
            if match:
                source_line = int(match.group(2))
                column = int(match.group(3)) if match.group(3) and match.group(3) != "0" else None
                current = None if source_line == 0 else (files.get(match.group(1), "?"), source_line, column)
            continue
        if ";;#ASMSTART" in stripped:
            in_asm = True
            continue
        if ";;#ASMEND" in stripped:
            in_asm = False
            continue
        if not stripped or stripped.startswith((";", "//", ".cfi", ".p2align")):
            continue
        if line.endswith(":") and not line.startswith(("\t", " ")):
            if not line.startswith(".L"):
                current = None  # a new function starts without a location yet
            continue
        if current is not None:
            found.locations[number] = current
        if in_asm:
            found.inline_asm.add(number)
    return found


def llvm_inline_asm(source: SourceFile) -> frozenset[int] | None:
    """The lines of an LLVM listing that lie between `;;#ASMSTART` and `;;#ASMEND`, where inline asm the compiler
    did not analyse issued its instructions; None for a file that is not LLVM's listing (hand-written, or a code
    object's disassembly). LLVM marks each function's end with a `.Lfunc_end<N>` label, and with verbose output
    (llc, clang -S, hipcc --save-temps) its start with `; -- Begin function`."""
    comments = source.comments
    if "\n.Lfunc_end" not in source.text and not any(text.startswith("-- Begin function") for text in comments.values()):
        return None
    lines: set[int] = set()
    start = None
    for number, text in sorted(comments.items()):
        if "#ASMSTART" in text:
            start = number
        elif "#ASMEND" in text and start is not None:
            lines.update(range(start + 1, number))
            start = None
    if start is not None:  # an unterminated region runs to the end
        lines.update(range(start + 1, source.line_count + 1))
    return frozenset(lines)


def llvm_generated(sources: Mapping[str, SourceFile], places: Iterable[Provenance]) -> bool:
    """Whether every place is a line of an LLVM listing outside its inline asm: code LLVM generated itself."""
    for place in places:
        source = sources.get(place.path)
        inline_asm = llvm_inline_asm(source) if source is not None else None
        if inline_asm is None or place.line in inline_asm:
            return False
    return True
