"""Generate lint/isa/tables/operands.jsonl: which operand kinds and modifiers llvm-mc 22 takes per instruction.

For every processor and wave size of tables/mnemonics.jsonl (one representative per set of configurations
whose mnemonic verdicts are identical), llvm-mc's disassembler prints a valid instance of each instruction
it decodes from a sweep of opcode fields (`v_max_f32_e64 v0, v1, v2`). Each instance the assembler takes
back is probed:

- with each modifier of MODIFIERS appended (`v_max_f32_e64 v0, v1, v2 clamp`) where the instance has none, and
- with each operand in turn replaced by a VGPR, SGPR or AGPR of the same width, an inline constant, a
  literal, `vcc`/`vcc_lo`, `m0`, `exec`/`exec_lo` or `null`,

and the verdict is recorded: accepted, or llvm-mc's message. The table has a line per mnemonic (as llvm-mc
prints it), `["mnemonic", [[verdicts, operand count, [configuration, ...]], ...]]`, where verdicts has one
character per probe of the header's `probes` ('.': accepted, ' ': not probed, else the message at that
position of `codes` in the header's `messages`). The header's `unknown_modifiers` names, per configuration,
the DPP and SDWA controls it has no syntax for (gfx6-7 have neither, gfx11 and later no SDWA).

Usage: python scripts/gen_operand_verdicts.py [--llvm-mc llvm-mc-22]   (after gen_mnemonic_verdicts.py)
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

from gen_mnemonic_verdicts import TABLES, disassemble, read_table, write_sweep
from gen_mnemonic_verdicts import verdicts as assemble

OUT = TABLES / "operands.jsonl"
MAX_OPERANDS = 6
#: modifier probes: name -> the text appended
MODIFIERS = {
    "clamp": "clamp", "op_sel": "op_sel:[1,0,0]", "op_sel_hi": "op_sel_hi:[0,0,0]", "neg_lo": "neg_lo:[1,0,0]",
    "neg_hi": "neg_hi:[1,0,0]", "mul": "mul:2", "div": "div:2", "glc": "glc", "slc": "slc", "dlc": "dlc",
    "scc": "scc", "nt": "nt", "sc0": "sc0", "sc1": "sc1", "tfe": "tfe", "lwe": "lwe", "d16": "d16", "a16": "a16",
    "r128": "r128", "unorm": "unorm", "da": "da", "gds": "gds", "lds": "lds", "idxen": "idxen", "offen": "offen",
    "addr64": "addr64", "offset": "offset:4", "byte_sel": "byte_sel:1", "index_key": "index_key:1",
    "matrix_a_fmt": "matrix_a_fmt:MATRIX_FMT_BF8", "cbsz": "cbsz:1", "abid": "abid:1", "blgp": "blgp:1",
    "quad_perm": "quad_perm:[0,1,2,3]", "row_shl": "row_shl:1", "row_share": "row_share:1", "row_xmask": "row_xmask:1",
    "wave_shl": "wave_shl:1", "row_bcast": "row_bcast:15", "dpp8": "dpp8:[0,1,2,3,4,5,6,7]", "fi": "fi:1",
    "bound_ctrl": "bound_ctrl:1", "dst_sel": "dst_sel:BYTE_0", "src0_sel": "src0_sel:BYTE_0",
    "th": "th:TH_LOAD_NT", "scope": "scope:SCOPE_SE", "nv": "nv", "offset0": "offset0:1", "offset1": "offset1:1",
}
#: operand probes: kind -> text for an operand `count` dwords wide
KINDS = ("v", "s", "a", "iconst", "literal", "vcc", "m0", "exec", "null")
_ALPHABET = "".join(chr(code) for code in range(33, 127) if chr(code) not in ".\"\\ ")
#: one printed instruction a line: `[ \t]`, not `\s`, so that one printed without operands (`v_illegal`) does not take
#: the next line as its operands
_INSTANCE = re.compile(r"^[ \t]+([a-z_][a-z0-9_.]*)(?:[ \t]+(.*?))?[ \t]*(?:;.*)?$", re.MULTILINE)
_REGISTER = re.compile(r"^([vsa])(?:(\d+)|\[(\d+):(\d+)\])$")


def probes() -> list[str]:
    return [*MODIFIERS, *(f"{slot}:{kind}" for slot in range(MAX_OPERANDS) for kind in KINDS)]


def split_operands(text: str) -> tuple[list[str], str]:
    """An instance's comma-separated operands and the modifiers after the last one."""
    parts, depth, current = [], 0, ""
    for char in text:
        depth += (char in "[(") - (char in "])")
        if char == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += char
    parts.append(current.strip())
    last, depth = parts[-1], 0
    for index, char in enumerate(last):
        depth += (char in "[(") - (char in "])")
        if char == " " and depth == 0:
            return [*parts[:-1], last[:index]], last[index + 1:].strip()
    return ([] if parts == [""] else parts), ""


def width(operand: str) -> int | None:
    """Dwords of a register operand (None for anything else)."""
    match = _REGISTER.match(operand)
    if match is None:
        return {"vcc": 2, "exec": 2, "vcc_lo": 1, "exec_lo": 1, "m0": 1, "null": 1}.get(operand)
    return 1 if match.group(2) is not None else int(match.group(4)) - int(match.group(3)) + 1


def replacement(kind: str, count: int) -> str | None:
    if kind in "vsa":
        first = 12 if kind == "s" else 10
        return f"{kind}{first}" if count == 1 else f"{kind}[{first}:{first + count - 1}]"
    if kind == "iconst":
        return "1"
    if kind == "literal":
        return "0x1234"  # a literal in every operand type, 16-bit ones included
    if kind in ("vcc", "exec"):
        return {1: f"{kind}_lo", 2: kind}.get(count)
    return kind if count == 1 else None


def instances(llvm_mc: str, processor: str, mattr: tuple[str, ...], sweep: Path) -> dict[str, str]:
    """mnemonic -> the first instance the disassembler prints of it on the configuration."""
    found: dict[str, str] = {}
    for mnemonic, rest in _INSTANCE.findall(disassemble(llvm_mc, processor, mattr, sweep)):
        if "/*" not in rest and mnemonic not in found:
            found[mnemonic] = rest
    return found


def probe_configuration(llvm_mc: str, processor: str, mattr: tuple[str, ...], directory: Path, sweep: Path,
                        messages: list[str]) -> dict[str, tuple[int, str]]:
    """mnemonic -> (operand count, verdicts) on one configuration."""
    printed = instances(llvm_mc, processor, mattr, sweep)
    names = sorted(printed)
    base = assemble(llvm_mc, processor, mattr, [f"{name} {printed[name]}" for name in names], directory)
    lines: list[str] = []
    owners: list[tuple[str, int]] = []
    order = probes()
    plans: dict[str, tuple[int, list[str]]] = {}
    for name, error in zip(names, base, strict=True):
        operands, modifiers = split_operands(printed[name])
        if error or len(operands) > MAX_OPERANDS:
            continue
        plan = [" "] * len(order)
        plans[name] = (len(operands), plan)
        for position, text in enumerate(MODIFIERS.values() if not modifiers else ()):
            # only on an instance without modifiers: one appended to DPP controls or `offen` may clash with them
            lines.append(f"{name} {printed[name]} {text}".rstrip())
            owners.append((name, position))
        for slot, operand in enumerate(operands):
            count = width(operand)
            if count is None:
                continue
            for offset, kind in enumerate(KINDS):
                text = replacement(kind, count)
                if text is None:
                    continue
                changed = [*operands[:slot], text, *operands[slot + 1:]]
                lines.append(f"{name} {', '.join(changed)} {modifiers}".rstrip())
                owners.append((name, len(MODIFIERS) + slot * len(KINDS) + offset))
    answers = assemble(llvm_mc, processor, mattr, lines, directory)
    for (name, position), answer in zip(owners, answers, strict=True):
        plan = plans[name][1]
        if not answer:
            plan[position] = "."
            continue
        if answer not in messages:
            messages.append(answer)
        plan[position] = _ALPHABET[messages.index(answer)]
    return {name: (count, "".join(plan).rstrip()) for name, (count, plan) in plans.items()}


#: DPP and SDWA controls that stand alone (the others only qualify one of these)
CONTROLS = ("quad_perm", "row_shl", "row_share", "row_xmask", "wave_shl", "row_bcast", "dpp8", "dst_sel", "src0_sel")


def refused_controls(llvm_mc: str, processor: str, mattr: tuple[str, ...], directory: Path) -> list[str]:
    """The DPP and SDWA controls a configuration has no syntax for: refused on a VOP1 and a VOP2 instruction
    written without an encoding suffix (which llvm-mc otherwise encodes as DPP or SDWA)."""
    lines = [line for name in CONTROLS for line in (f"v_mov_b32 v0, v1 {MODIFIERS[name]}",
                                                    f"v_add_f32 v0, v1, v2 {MODIFIERS[name]}")]
    answers = assemble(llvm_mc, processor, mattr, lines, directory)
    return [name for name, vop1, vop2 in zip(CONTROLS, answers[::2], answers[1::2], strict=True)
            if vop1 and vop2]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--llvm-mc", default="llvm-mc-22")
    args = parser.parse_args()
    table = read_table()
    configurations: list[str] = table["configurations"]
    # configurations of one wave size whose mnemonic verdicts are identical are probed once
    columns: dict[tuple[object, ...], list[int]] = defaultdict(list)
    for index, name in enumerate(configurations):
        columns[(name.endswith("wavefrontsize64+"), *(pattern[index] for pattern in table["patterns"]))].append(index)
    messages: list[str] = []
    rows: dict[str, dict[tuple[int, str], list[int]]] = defaultdict(lambda: defaultdict(list))
    unknown_modifiers: dict[int, list[str]] = {}
    with tempfile.TemporaryDirectory() as scratch:
        sweep = write_sweep(Path(scratch))
        for members in columns.values():
            processor, *features = configurations[members[0]].split(":")
            mattr = tuple(f"{feature[-1]}{feature[:-1]}" for feature in features)
            found = probe_configuration(args.llvm_mc, processor, mattr, Path(scratch), sweep, messages)
            for name, verdict in found.items():
                rows[name][verdict].extend(members)
            unknown = refused_controls(args.llvm_mc, processor, mattr, Path(scratch))
            unknown_modifiers.update((member, unknown) for member in members if unknown)
    if len(messages) > len(_ALPHABET):
        raise SystemExit(f"{len(messages)} messages: more than the {len(_ALPHABET)} codes")
    header = {"source": f"{args.llvm_mc} (disassembled instances, probed; scripts/gen_operand_verdicts.py)",
              "configurations": configurations, "messages": messages, "codes": _ALPHABET[: len(messages)],
              "probes": probes(), "unknown_modifiers": unknown_modifiers}
    with OUT.open("w") as out:
        out.write(json.dumps(header, separators=(",", ":")) + "\n")
        for name in sorted(rows):
            groups = [[verdicts, count, sorted(members)] for (count, verdicts), members in rows[name].items()]
            out.write(json.dumps([name, groups], separators=(",", ":")) + "\n")
    print(f"{len(rows)} mnemonics, {len(messages)} messages, {len(columns)} configurations probed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
