"""Generate lint/isa/tables/operand_shapes.jsonl: the register widths and files llvm-mc 22 takes in each operand
of each instruction, on the processors read with a neighbour's instruction-syntax table (gfx6, gfx1250, gfx1251).

For each configuration of those processors in tables/mnemonics.jsonl (one representative per set whose mnemonic
verdicts are identical), llvm-mc's disassembler prints instances of every instruction it decodes from a sweep of
opcode fields (`ds_load_b32 v0, v0`). Each distinct shape of an instance (its operand count, each register
operand's file and width in dwords, the modifiers that may change what the operands must be: `offen`, `tfe`,
`op_sel`, DPP controls, ...) is written again under every mnemonic the configuration accepts that names the same
instruction (an unsuffixed `v_add_f32`, gfx12's `ds_read_b32` for `ds_load_b32`; where no printed name is one of
its spellings, under those of its first two words, `flat_atomic_*` for `flat_atomic_fmax`); each mnemonic is also
written from the rows of the instruction-syntax table the linter reads the processor with (forms the sweep does
not print), and a VOPC instance without its `vcc` destination. The shapes llvm-mc takes back are probed: each
register operand in turn replaced by a VGPR, SGPR and AGPR of widths 1, 2, 3, 4, 8, 16 and one dword either side
of the printed width, and by an inline constant and a literal. llvm-mc 22 has no disassembler for gfx6 (nor
gfx7): gfx8's instances are written there (every verdict still comes from assembling them for gfx6).

The table has a header line, then a line per mnemonic as written, `["mnemonic", [[slots, forms, [column, ...]],
...]]`: per shape, one string per operand (`o` for a non-register operand, `h` for a true16 half, else
`v1|s1v2il|l|v2`: the printed register, the probes llvm-mc took, those it refused with another message than
"invalid operand for instruction" and "too few operands for instruction", and those it refused with the
latter (it refused the other probes, of `widths` in the header, with the former; `i`/`l` are an inline constant
and a literal; empty fields at the end are left out), the shaping modifiers, and the configurations (columns of
tables/mnemonics.jsonl) where llvm-mc takes it. Images are left out: their widths follow dmask, d16 and tfe.

Usage: nice python scripts/gen_operand_shapes.py [--llvm-mc llvm-mc-22] [--processor gfx600 ...]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from gen_mnemonic_verdicts import TABLES, disassemble, read_table, write_sweep
from gen_mnemonic_verdicts import verdicts as assemble
from gen_operand_verdicts import _INSTANCE, split_operands

OUT = TABLES / "operand_shapes.jsonl"
PROCESSORS = ("gfx600", "gfx601", "gfx602", "gfx1250", "gfx1251")
#: llvm-mc 22 has no disassembler for gfx6-7: the instances written there are those printed for gfx8 (the probes
#: are made on gfx6, and keep only what it takes)
PRINTED_AS = {"gfx600": "gfx802", "gfx601": "gfx802", "gfx602": "gfx802"}
REFUSED = "invalid operand for instruction"
#: llvm-mc's other answer refusing an operand no form of the instruction takes there
FEW = "too few operands for instruction"
WIDTHS = (1, 2, 3, 4, 8, 16)
MAX_SHAPES = 8
_REGISTER = re.compile(r"^([vsa])(?:(\d+)|\[(\d+):(\d+)\])$")
_SUFFIX = re.compile(r"(_e32|_e64|_e64_dpp|_dpp|_sdwa)$")


def slot_class(operand: str) -> str:
    """`v1`, `s2`, `a4` for a register operand (file and dwords), `h` for a true16 half, else `o`."""
    match = _REGISTER.match(operand)
    if match is None:
        return "h" if re.fullmatch(r"v\d+\.[lh]", operand) else "o"
    count = 1 if match.group(2) is not None else int(match.group(4)) - int(match.group(3)) + 1
    return f"{match.group(1)}{count}"


def forms_of(modifiers: str) -> str:
    from amdgpu_lint.isa.operand_shapes import shaping_modifiers

    return shaping_modifiers(word.split(":")[0] for word in modifiers.split())


def register(token: str) -> str:
    """The probe text of `v2`, `s1`, `i`, `l`."""
    if token == "i":
        return "1"
    if token == "l":
        return "0x1234"
    kind, count = token[0], int(token[1:])
    return f"{kind}40" if count == 1 else f"{kind}[40:{39 + count}]"


def key(name: str) -> str:
    """A key equal for the spellings of one instruction (suffixes and LLVM's renames folded)."""
    from amdgpu_lint.isa.renames import printed_name

    return printed_name(_SUFFIX.sub("", name).replace("_fake16", "").replace("_t16", ""))


def family(name: str) -> str:
    """The first two words of a mnemonic (`flat_atomic`, `v_cvt`): the instances tried for a spelling no printed
    name folds to (gfx12's `flat_atomic_fmax` for `flat_atomic_max_num_f32`)."""
    return "_".join(name.split("_")[:2])


def printed_shapes(llvm_mc: str, processor: str, mattr: tuple[str, ...],
                   sweep: Path) -> dict[str, list[tuple[str, str]]]:
    """mnemonic -> (operands, modifiers) of up to MAX_SHAPES instances of distinct shape the disassembler prints."""
    found: dict[str, dict[tuple, tuple[str, str]]] = defaultdict(dict)
    text = disassemble(llvm_mc, PRINTED_AS.get(processor, processor), mattr, sweep)
    for mnemonic, rest in _INSTANCE.findall(text):
        if "/*" in rest or mnemonic.startswith("image_"):
            continue
        operands, modifiers = split_operands(rest)
        shape = (tuple(slot_class(operand) for operand in operands), forms_of(modifiers))
        if shape not in found[mnemonic] and len(found[mnemonic]) < MAX_SHAPES:
            found[mnemonic][shape] = (", ".join(operands), modifiers)
    return {name: list(shapes.values()) for name, shapes in found.items()}


def probe_configuration(llvm_mc: str, processor: str, mattr: tuple[str, ...], accepted: list[str], directory: Path,
                        sweep: Path) -> dict[str, list[tuple[list[str], str]]]:
    """mnemonic -> [(slot strings, forms)] on one configuration."""
    printed = printed_shapes(llvm_mc, processor, mattr, sweep)
    by_key: dict[str, list[str]] = defaultdict(list)
    by_family: dict[str, list[str]] = defaultdict(list)
    for name in printed:
        by_key[key(name)].append(name)
        by_family[family(name)].append(name)
    candidates: list[tuple[str, list[str], str]] = []
    for mnemonic in accepted:
        if mnemonic.startswith("image_"):
            continue
        for name in by_key.get(key(mnemonic)) or by_family.get(family(mnemonic), ()):
            for operands, modifiers in printed[name]:
                parts = split_operands(operands)[0] if operands else []
                candidates.append((mnemonic, parts, modifiers))
                if parts and parts[0] in ("vcc", "vcc_lo"):
                    candidates.append((mnemonic, parts[1:], modifiers))
    candidates += table_candidates(processor, mattr, accepted)
    answers = assemble(llvm_mc, processor, mattr, [_line(*candidate) for candidate in candidates], directory)
    shapes: dict[str, dict[tuple, list[str]]] = defaultdict(dict)
    for (mnemonic, parts, modifiers), answer in zip(candidates, answers, strict=True):
        shape = (tuple(slot_class(part) for part in parts), forms_of(modifiers))
        if not answer and shape not in shapes[mnemonic]:
            shapes[mnemonic][shape] = [*parts, modifiers]
    lines, owners = [], []
    for mnemonic, found in shapes.items():
        for shape, (*parts, modifiers) in found.items():
            for slot, printed_class in enumerate(shape[0]):
                if printed_class in "oh":
                    continue
                for token in _probes(printed_class):
                    changed = [*parts[:slot], register(token), *parts[slot + 1:]]
                    lines.append(_line(mnemonic, changed, modifiers))
                    owners.append((mnemonic, shape, slot, token))
    answers = assemble(llvm_mc, processor, mattr, lines, directory)
    verdicts: dict[tuple, tuple[list[str], list[str], list[str]]] = defaultdict(lambda: ([], [], []))
    for (mnemonic, shape, slot, token), answer in zip(owners, answers, strict=True):
        if answer != REFUSED:
            verdicts[mnemonic, shape, slot][0 if not answer else 2 if answer == FEW else 1].append(token)
    result: dict[str, list[tuple[list[str], str]]] = {}
    for mnemonic, found in shapes.items():
        result[mnemonic] = []
        for shape in found:
            slots = []
            for slot, printed_class in enumerate(shape[0]):
                answered = verdicts[mnemonic, shape, slot] if printed_class not in "oh" else ([], [], [])
                slots.append(printed_class if printed_class in "oh"
                             else "|".join((printed_class, *("".join(tokens) for tokens in answered))).rstrip("|"))
            result[mnemonic].append((slots, shape[1]))
    return result


def table_candidates(processor: str, mattr: tuple[str, ...], accepted: list[str]) -> list[tuple[str, list[str], str]]:
    """More instances to try: each accepted mnemonic written from the rows of the instruction-syntax table the
    linter reads the processor with (the forms a sweep may not print, such as gfx1250's flat atomics without
    `saddr`), as scripts/probe_set.py writes them; only those llvm-mc takes are probed."""
    from amdgpu_lint.isa import instruction_set
    from amdgpu_lint.model.targets import parse_target_id
    from probe_set import instances

    target = parse_target_id(processor)  # the syntax table is the processor's (the linter knows no gfx1250 wave64)
    wave_size = 64 if "+wavefrontsize64" in mattr else target.default_wave_size
    table = instruction_set(target)
    found = []
    for mnemonic in accepted:
        if mnemonic.startswith("image_"):
            continue
        for variant in table.variants(mnemonic):
            for line in instances(mnemonic, variant, wave_size):
                operands, modifiers = split_operands(line.partition(" ")[2])
                found.append((mnemonic, operands, modifiers))
    return found


def _line(mnemonic: str, parts: list[str], modifiers: str) -> str:
    return f"{mnemonic} {', '.join(parts)} {modifiers}".rstrip()


def _probes(printed_class: str) -> list[str]:
    width = int(printed_class[1:])
    widths = sorted({*WIDTHS, width - 1, width + 1} - {0})
    return [f"{kind}{count}" for kind in "vsa" for count in widths if f"{kind}{count}" != printed_class] + ["i", "l"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--llvm-mc", default="llvm-mc-22")
    parser.add_argument("--processor", action="append", help="processors to probe (default: gfx6, gfx1250, gfx1251)")
    args = parser.parse_args()
    chosen = tuple(args.processor or PROCESSORS)
    table = read_table()
    configurations: list[str] = table["configurations"]
    groups: dict[tuple[object, ...], list[int]] = defaultdict(list)
    for index, name in enumerate(configurations):
        if name.split(":")[0] in chosen:
            wave64 = "wavefrontsize64+" in name.split(":")  # lane masks are as wide as the wave
            groups[(wave64, *(pattern[index] for pattern in table["patterns"]))].append(index)
    rows: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as scratch:
        sweep = write_sweep(Path(scratch))
        for members in groups.values():
            processor, *features = configurations[members[0]].split(":")
            mattr = tuple(f"{feature[-1]}{feature[:-1]}" for feature in features)
            accepted = sorted(name for name, pattern in table["mnemonics"].items()
                              if table["patterns"][pattern][members[0]] == 0)
            found = probe_configuration(args.llvm_mc, processor, mattr, accepted, Path(scratch), sweep)
            for mnemonic, shapes in found.items():
                for slots, forms in shapes:
                    rows[mnemonic][json.dumps([slots, forms], separators=(",", ":"))].extend(members)
            print(f"{configurations[members[0]]}: {len(found)} mnemonics ({time.monotonic() - started:.0f} s)",
                  file=sys.stderr)
    header = {"source": f"{args.llvm_mc} (disassembled instances, probed; scripts/gen_operand_shapes.py)",
              "configurations": [configurations[index] for members in groups.values() for index in members],
              "columns": [index for members in groups.values() for index in members],
              "messages": [REFUSED, FEW], "widths": list(WIDTHS)}
    with OUT.open("w") as out:
        out.write(json.dumps(header, separators=(",", ":")) + "\n")
        for name in sorted(rows):
            shapes = [[*json.loads(shape), sorted(members)] for shape, members in rows[name].items()]
            out.write(json.dumps([name, shapes], separators=(",", ":")) + "\n")
    print(f"{len(rows)} mnemonics, {len(groups)} configurations probed, {OUT.stat().st_size} bytes, "
          f"{time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
