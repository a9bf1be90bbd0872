"""Reading assembly files: decoding, line splitting and comment removal.

Comments never reach the grammar: `;` and `//` run to the end of the line, `/* */` may span
lines, and a line whose first non-blank character is `#` is a C-preprocessor line (in .S
files) or a line marker. Comment text is kept per line for inline suppressions.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..ir import CodeLines, ReadProblem, SourceFile

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


def split_lines(path: str, text: str) -> SourceFile:
    """Split decoded text into code lines (offsets into the text, kept once) and comments."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = CodeLines(path, text)
    source = SourceFile(path, text, lines)
    line_start = source.line_starts.append
    numbers, starts, ends, columns = lines.numbers.append, lines.starts.append, lines.ends.append, lines.columns.append
    plain = _PLAIN_CODE.match
    find = text.find
    in_block = False
    block_start = 0
    start, size, number = 0, len(text), 0
    while start < size:
        end = find("\n", start)
        if end < 0:
            end = size
        number += 1
        line_start(start)
        if not in_block:
            match = plain(text, start, end)
            if match is not None:  # code and nothing to scan for: the common line
                code_start, code_end = match.span(1)
                numbers(number)
                starts(code_start)
                ends(code_end)
                columns(code_start - start + 1)
                start = end + 1
                continue
        raw = text[start:end]
        if not in_block:
            stripped = raw.lstrip()
            if not stripped:
                start = end + 1
                continue
            if stripped[0] == "#":
                indent = len(raw) - len(stripped)
                lines.add(number, start + indent, start + indent + len(stripped.rstrip()), indent + 1, True)
                start = end + 1
                continue
        was_in_block = in_block
        code, comment, in_block = _split_code_and_comment(raw, in_block)
        if in_block and not was_in_block:
            block_start = number
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
        start = end + 1
    if in_block:
        source.problems.append(ReadProblem("parse-error", "unterminated /* comment", block_start))
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
