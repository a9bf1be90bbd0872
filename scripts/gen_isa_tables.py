"""Generate lint/isa/tables/*.jsonl from LLVM's generated instruction-syntax pages.

Reads ../shared/isa/llvm-syntax/AMDGPUAsm<PAGE>.rst (one page per target or target addition)
and operands/*.rst (each operand's size and accepted kinds), and writes one compact JSON-lines
table per page: a first line with the page's source and operand kinds, then a line per mnemonic,
`["mnemonic", variants]`, its encoding variants with ordered operands (role, size, kinds, tags)
and modifier names. (A line per mnemonic lets the linter decode only the rows a file uses.)

Usage: python scripts/gen_isa_tables.py [--syntax DIR] [--out DIR] [--check]
  --check compares a fresh generation with the committed tables and exits 1 on a difference.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SYNTAX = ROOT.parent / "shared" / "isa" / "llvm-syntax"
DEFAULT_OUT = ROOT / "lint" / "isa" / "tables"

#: page name (from AMDGPUAsm<NAME>.rst) -> table file stem
PAGES = {
    "GFX7": "gfx7", "GFX8": "gfx8", "GFX9": "gfx9", "GFX900": "gfx900", "GFX904": "gfx904",
    "GFX906": "gfx906", "GFX908": "gfx908", "GFX90a": "gfx90a", "GFX940": "gfx940", "GFX950": "gfx950",
    "GFX10": "gfx10", "GFX1011": "gfx1011", "GFX1013": "gfx1013", "GFX1030": "gfx1030",
    "GFX11": "gfx11", "GFX12": "gfx12",
}

_REF = re.compile(r":ref:`([^<`]*)<([^>`]*)>`")
_SECTION = re.compile(r"^([A-Z][A-Z0-9_ ]*)\n-+\n\n\.\. parsed-literal::\n\n(.*?)(?=\n\n[^ ]|\Z)", re.M | re.S)
_SIZE = re.compile(r"\*Size:\*\s*(\d+) dwords?(?: if wavefront size is 64, otherwise (\d+) dwords?)?")
_SIZE_W32_FIRST = re.compile(r"\*Size:\*\s*(\d+) dwords? if wavefront size is 32, otherwise (\d+) dwords?")


def _render(raw: str) -> tuple[str, list[tuple[int, str, str, bool]]]:
    """Render a literal row as displayed; return the text and (column, name, target, is_tag) per ref."""
    pieces: list[str] = []
    refs: list[tuple[int, str, str, bool]] = []
    position = 0
    length = 0
    for match in _REF.finditer(raw):
        before = raw[position : match.start()]
        pieces.append(before)
        length += len(before)
        is_tag = before.endswith(":")
        refs.append((length, match.group(1), match.group(2), is_tag))
        pieces.append(match.group(1))
        length += len(match.group(1))
        position = match.end()
    pieces.append(raw[position:])
    return "".join(pieces), refs


def _operand_pages(directory: Path) -> dict[str, tuple[object, list[str]]]:
    """Operand reference target -> (size in dwords, [w32, w64] sizes, or None; accepted kinds)."""
    pages: dict[str, tuple[object, list[str]]] = {}
    for path in sorted((directory / "operands").glob("*.rst")):
        text = path.read_text()
        anchor = re.search(r"^\.\. _(amdgpu_synid_[\w]+):", text, re.M)
        if anchor is None:
            continue
        size: object = None
        fixed = _SIZE_W32_FIRST.search(text)
        if fixed:
            size = [int(fixed.group(1)), int(fixed.group(2))]
        else:
            match = _SIZE.search(text)
            if match:
                size = int(match.group(1)) if match.group(2) is None else [int(match.group(2)), int(match.group(1))]
        operands_line = re.search(r"^\*Operands:\*(.*)$", text, re.M)
        kinds = [name for name, _ in _REF.findall(operands_line.group(1))] if operands_line else []
        pages[anchor.group(1)] = (size, kinds)
    return pages


def parse_page(text: str, operand_pages: dict[str, tuple[object, list[str]]], kinds_index: dict[str, int]) -> dict:
    instructions: dict[str, list] = {}
    for section in _SECTION.finditer(text):
        encoding = section.group(1).replace(" ", "_")
        lines = section.group(2).split("\n")
        header = re.sub(r"\*\*(\w+)\*\*", r"\1", lines[0])
        columns = [(m.start(), m.group(0)) for m in re.finditer(r"[A-Z][A-Z0-9]*", header)]
        for raw in lines[2:]:
            if not raw.strip():
                continue
            rendered, refs = _render(raw)
            mnemonic = rendered.split()[0]
            operands: list[list] = []
            modifiers: list[str] = []
            for column, name, target, is_tag in refs:
                heading = [title for start, title in columns if start <= column][-1]
                if is_tag:
                    if operands and heading != "MODIFIERS":
                        operands[-1][4].append(name)
                    continue
                if heading == "MODIFIERS":
                    modifiers.append(name)
                    continue
                size, kinds = operand_pages.get(target, (None, []))
                key = ",".join(kinds)
                index = kinds_index.setdefault(key, len(kinds_index))
                role = "d" if heading.startswith("DST") else "s"
                operands.append([name, role, size, index, []])
            variant = {"enc": encoding, "ops": [op if op[4] else op[:4] for op in operands]}
            if modifiers:
                variant["mods"] = modifiers
            instructions.setdefault(mnemonic, [])
            if variant not in instructions[mnemonic]:
                instructions[mnemonic].append(variant)
    return instructions


#: page -> (lending page, mnemonics): instructions LLVM 22 emits and assembles for the page's
#: targets that its syntax page omits (gfx11 true16 half-register moves: `v_mov_b16_e32 v2.l, v3.h`).
BORROWED = {"GFX11": ("GFX12", ("v_mov_b16",))}

_ENCODING_SUFFIX = re.compile(r"_(e32|e64|dpp|sdwa)$")


def _additions(instructions: dict[str, list], base: dict[str, list]) -> dict[str, list]:
    """Mnemonics of `instructions` whose base name (without encoding suffix) `base` lacks."""
    known = {_ENCODING_SUFFIX.sub("", name) for name in base}
    return {name: variants for name, variants in instructions.items() if _ENCODING_SUFFIX.sub("", name) not in known}


def _rows_for(text: str, mnemonics: tuple[str, ...]) -> str:
    """The page `text` cut down to the rows (under their section headers) of `mnemonics`."""
    kept: list[str] = []
    for section in _SECTION.finditer(text):
        lines = section.group(2).split("\n")
        rows = [raw for raw in lines[2:] if raw.strip() and _render(raw)[0].split()[0] in mnemonics]
        if rows:
            body = "\n".join(lines[:2] + rows)
            kept.append(f"{section.group(1)}\n{'-' * len(section.group(1))}\n\n.. parsed-literal::\n\n{body}\n")
    return "\n".join(kept)


def generate(syntax: Path) -> dict[str, str]:
    """Table file name -> JSON text."""
    operand_pages = _operand_pages(syntax)
    outputs: dict[str, str] = {}
    parsed: dict[str, dict[str, list]] = {}
    for page, stem in PAGES.items():
        source = syntax / f"AMDGPUAsm{page}.rst"
        kinds_index: dict[str, int] = {}
        instructions = parse_page(source.read_text(), operand_pages, kinds_index)
        parsed[page] = instructions
        if page in BORROWED:
            lender, mnemonics = BORROWED[page]
            lent = _rows_for((syntax / f"AMDGPUAsm{lender}.rst").read_text(), mnemonics)
            instructions.update(parse_page(lent, operand_pages, kinds_index))
        if page == "GFX950":
            # trunk's gfx950 page has no operand pages here: gfx950 = the GFX940 table plus what it adds
            instructions = _additions(instructions, parsed["GFX940"])
        header = {"source": source.name, "kinds": [key.split(",") if key else [] for key in kinds_index]}
        rows = [json.dumps(header, separators=(",", ":"))]
        rows += [json.dumps([mnemonic, variants], separators=(",", ":")) for mnemonic, variants in sorted(instructions.items())]
        outputs[f"{stem}.jsonl"] = "\n".join(rows) + "\n"
    return outputs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--syntax", type=Path, default=DEFAULT_SYNTAX)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    outputs = generate(args.syntax)
    if args.check:
        stale = [name for name, text in outputs.items() if not (args.out / name).is_file() or (args.out / name).read_text() != text]
        for name in stale:
            print(f"{args.out / name} differs from a fresh generation", file=sys.stderr)
        return 1 if stale else 0
    args.out.mkdir(parents=True, exist_ok=True)
    for name, text in outputs.items():
        (args.out / name).write_text(text)
        count = text.count("\n") - 1
        print(f"{name}: {count} mnemonics")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
