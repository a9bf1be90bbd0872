"""Reading assembly files: decoding, line splitting and comment removal.

Comments never reach the grammar: `;` and `//` run to the end of the line, `/* */` may span
lines, and a line whose first non-blank character is `#` is a C-preprocessor line (in .S
files) or a line marker. Comment text is kept per line for inline suppressions.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_right
from pathlib import Path

from ..model.ir import CodeLines, ReadProblem, SourceFile

#: Files larger than this are not read (a generated kernel library file is far smaller).
MAX_FILE_BYTES = 256 * 1024 * 1024

_NEEDS_SCAN = re.compile(r'[;/"]')
#: A line of code with nothing to scan for (no comment, string or C-preprocessor mark): group 1 is its code.
_PLAIN_CODE = re.compile(r'[ \t]*([^\s;/"#](?:[^;/"]*[^\s;/"])?)\s*\Z')


def _decode(data: bytes, problems: list[ReadProblem]) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        problems.append(
            ReadProblem(
                "invalid-encoding",
                f"file is not valid UTF-8 (byte 0x{data[error.start]:02x}); read as Latin-1",
                line,
                column,
            )
        )
        return data.decode("latin-1")


def _split_code_and_comment(text: str, in_block: bool) -> tuple[str, str, bool]:
    """Return (code, comment, still_in_block_comment) for one physical line."""
    code: list[str] = []
    comment: list[str] = []
    i, n = 0, len(text)
    block_start = 0  # where the open block comment began on this line (kept as blanks: columns stay true)
    while i < n:
        if in_block:
            end = text.find("*/", i)
            if end < 0:
                comment.append(text[i:])
                return "".join(code), " ".join(comment), True
            comment.append(text[i:end])
            code.append(" " * (end + 2 - block_start))
            i = end + 2
            in_block = False
            continue
        match = _NEEDS_SCAN.search(text, i)
        if match is None:
            code.append(text[i:])
            break
        j = match.start()
        code.append(text[i:j])
        char = text[j]
        if char == ";":
            comment.append(text[j + 1 :])
            break
        if char == '"':
            k = j + 1
            while k < n and text[k] != '"':
                k += 2 if text[k] == "\\" else 1
            code.append(text[j : k + 1])
            i = k + 1
            continue
        nxt = text[j + 1 : j + 2]
        if nxt == "/":
            comment.append(text[j + 2 :])
            break
        if nxt == "*":
            in_block = True
            block_start = j
            i = j + 2
            continue
        code.append("/")
        i = j + 1
    return "".join(code), " ".join(comment), in_block


#: The text is split into lines this many characters at a time (a list of lines a piece, not a file).
_PIECE_CHARS = 1 << 18
#: Whitespace other than blanks and newlines: a piece with any (or with non-ASCII text) is read line by line.
_ODD_WHITESPACE = "\x0b\x0c\x1c\x1d\x1e\x1f"
#: What takes a line out of the common case: a comment, a string or a C-preprocessor mark.
_SCANNED = ';/"#'


class _Piece:
    """A piece's lines, each read as the common line (code with nothing to scan for, blanks and tabs around
    it): where each starts, which are blank, and the code lines they make, to copy out run by run."""

    __slots__ = ("blank", "columns", "ends", "here", "numbers", "starts")

    def __init__(self, here: array[int], blank: set[int], number: int, columns: array[int], starts: array[int],
                 ends: array[int]) -> None:
        self.here = here  # where each line starts, then where the next would
        self.blank = blank  # indices of the lines of blanks and tabs alone
        self.numbers = array("I", range(number + 1, number + 1 + len(columns)))
        self.columns = columns  # the indent, plus one
        self.starts = starts
        self.ends = ends

    def add_to(self, lines: CodeLines, begin: int, stop: int) -> None:
        """Append the lines `begin` to `stop` (indices into the piece) to `lines`."""
        lines.numbers.extend(self.numbers[begin:stop])
        lines.columns.extend(self.columns[begin:stop])
        lines.starts.extend(self.starts[begin:stop])
        lines.ends.extend(self.ends[begin:stop])


def _piece(begin: int, number: int, raws: list[str]) -> _Piece:
    """The lines `raws` (numbered from `number` + 1) of the text from `begin` on, read as the common line. (One
    loop: compiled, its steps are native; the C-level maps it replaced, one step over all the lines at a time,
    ran no faster interpreted and took twice its instructions compiled, each step a generic call.)"""
    here: list[int] = []
    blank: set[int] = set()
    columns: list[int] = []
    starts: list[int] = []
    ends: list[int] = []
    at = begin
    for index, raw in enumerate(raws):
        code = raw.lstrip(" \t")
        indent = len(raw) - len(code)
        if not code:
            blank.add(index)
        here.append(at)
        columns.append(indent + 1)
        starts.append(at + indent)
        ends.append(at + len(raw.rstrip(" \t")))
        at += len(raw) + 1
    here.append(at)
    return _Piece(array("I", here), blank, number, array("I", columns), array("I", starts), array("I", ends))


class _Splitter:
    """Fills a SourceFile's code lines and comments, a piece of text at a time. The common line (code with
    nothing to scan for) is read in bulk, every line of the piece as one (`_Piece`); the rest one at a time."""

    def __init__(self, source: SourceFile):
        self.source = source
        self.lines = source.lines
        self.in_block = False
        self.block_start = 0  # line where the open block comment began

    def piece(self, begin: int, number: int, raws: list[str], scan: bool) -> None:
        """The lines `raws` (numbered from `number` + 1) of the text from `begin` on; `scan`: look at
        every line on its own."""
        plain = _piece(begin, number, raws)
        here = plain.here
        self.source.line_starts.extend(here[:-1])
        one_by_one = range(len(raws)) if scan else sorted(self._scanned_lines(here) | plain.blank)
        index = 0
        for stop in [*one_by_one, len(raws)]:
            while index < stop and self.in_block:
                self.line(number + index + 1, here[index], raws[index])
                index += 1
            if index < stop:
                plain.add_to(self.lines, index, stop)
            if stop < len(raws):
                self.line(number + stop + 1, here[stop], raws[stop])
            index = stop + 1

    def _scanned_lines(self, here: array[int]) -> set[int]:
        """Indices of the lines holding a character that needs scanning for."""
        text, end = self.source.text, here[-1] - 1
        found: set[int] = set()
        for char in _SCANNED:
            at = text.find(char, here[0], end)
            while at >= 0:
                index = bisect_right(here, at) - 1
                found.add(index)
                at = text.find(char, here[index + 1], end)
        return found

    def line(self, number: int, start: int, raw: str) -> None:
        """One line, whatever it holds."""
        lines, source = self.lines, self.source
        if not self.in_block:
            comment_marks = ";" in raw or "/" in raw
            # (a line holding one, or `"`, never matches: substring searches spare the pattern's backtracking)
            match = None if comment_marks or '"' in raw else _PLAIN_CODE.match(raw)
            if match is not None:  # code and nothing to scan for
                code_start, code_end = match.span(1)
                lines.add(number, start + code_start, start + code_end, code_start + 1)
                return
            stripped = raw.lstrip()
            if not stripped:
                return
            indent = len(raw) - len(stripped)
            if stripped[0] == "#":
                lines.add(number, start + indent, start + indent + len(stripped.rstrip()), indent + 1, True)
                return
            if not comment_marks:  # strings and nothing else to scan for: all of it is code
                lines.add(number, start + indent, start + indent + len(stripped.rstrip()), indent + 1)
                return
        was_in_block = self.in_block
        code, comment, self.in_block = _split_code_and_comment(raw, self.in_block)
        if self.in_block and not was_in_block:
            self.block_start = number
        if comment.strip():
            source.comments[number] = comment.strip()
        stripped = code.lstrip()
        code_text = stripped.rstrip()
        if code_text:
            indent = len(code) - len(stripped)
            if raw.startswith(code_text, indent):
                lines.add(number, start + indent, start + indent + len(code_text), indent + 1)
            else:
                lines.add_replaced(number, code_text, indent + 1)


def split_lines(path: str, text: str) -> SourceFile:
    """Split decoded text into code lines (offsets into the text, kept once) and comments."""
    if "\r" in text:  # (a search costs a hundredth of the two replacements)
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    source = SourceFile(path, text, CodeLines(path, text))
    splitter = _Splitter(source)
    end_of_lines = len(text) - 1 if text.endswith("\n") else len(text)  # a last newline ends no further line
    begin, number = 0, 0
    while text:
        cut = text.find("\n", begin + _PIECE_CHARS, end_of_lines) if begin + _PIECE_CHARS < end_of_lines else -1
        piece = text[begin : end_of_lines if cut < 0 else cut]
        raws = piece.split("\n")
        splitter.piece(begin, number, raws, scan=not piece.isascii() or any(c in piece for c in _ODD_WHITESPACE))
        number += len(raws)
        if cut < 0:
            break
        begin = cut + 1
    if splitter.in_block:
        source.problems.append(ReadProblem("parse-error", "unterminated /* comment", splitter.block_start))
    return source


def read_source(path: str | Path, display_path: str | None = None) -> SourceFile:
    """Read and split a file. Raises OSError when it cannot be read at all."""
    path = Path(path)
    shown = display_path or str(path)
    if path.stat().st_size > MAX_FILE_BYTES:
        source = split_lines(shown, "")
        source.problems.append(
            ReadProblem("parse-error", f"file is larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB; skipped", 1)
        )
        return source
    data = path.read_bytes()
    problems: list[ReadProblem] = []
    nul = data.find(b"\0")
    if nul >= 0:
        source = split_lines(shown, "")
        line = data.count(b"\n", 0, nul) + 1
        source.problems.append(
            ReadProblem("parse-error", f"file looks binary (NUL byte at offset {nul}); not assembly, skipped", line)
        )
        return source
    source = split_lines(shown, _decode(data, problems))
    source.problems[:0] = problems
    return source
