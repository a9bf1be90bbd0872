"""Generate lint/isa/tables/vop_forms.jsonl: what llvm-mc 22 takes in the DPP, DPP8 and SDWA forms of VALU
instructions, and in their lane-mask operands in each wave size.

llvm-mc's disassembler prints instances of every VOP1, VOP2, VOPC, VOP3 and VOP3P instruction it decodes from a
sweep of their opcode fields (plain, and with a DPP, DPP8 or SDWA source word) on one processor of each
instruction set, gfx10 and later in both wave sizes. Each instance is keyed by its form: the printed mnemonic
for a plain one; for a DPP, DPP8 or SDWA one, the mnemonic without an encoding suffix plus `_dpp`, `_dpp8` or
`_sdwa` (llvm-mc prints gfx8's VOPC SDWA forms without a suffix). Then, on every configuration of
tables/mnemonics.jsonl, the first instance of each key that the assembler takes back is probed:

- forms: each operand of a DPP, DPP8 or SDWA instance in turn replaced by a VGPR of its width, a 32- and a
  64-bit SGPR, `vcc_lo`, `vcc`, `exec_lo`, `exec`, and (in a 32-bit operand) `m0`, an inline constant, a literal
  and a VGPR under `sext`, `-` and `|x|`; with `clamp` and `mul:2` written before the controls and after them
  (`clamp_after`, `mul_after`); and with every operand after the first that takes a 32-bit SGPR alone given one of
  two SGPRs (the constant bus);
- DPP control values (`bound_ctrl:2`, `row_mask:16`, ...) on `v_mov_b32`;
- the constant bus (plain forms): two and three different SGPRs, a literal and one or two SGPRs, and two
  different literals, each in an operand that takes one alone; the combinations llvm-mc refuses are kept;
- lane masks (gfx10+): each operand printed one dword wide in wave32 and two in wave64 replaced by one of the
  other wave size (`vcc` and `s[10:11]` in wave32, `vcc_lo` and `s10` in wave64).

The table: a header line with `configurations` (those of mnemonics.jsonl), `messages`, `probes` (the form
probes' order) and `controls` (per DPP control `[[[[value, verdict], ...], [configuration, ...]], ...]`); then a
line per key, `["key", forms, lane masks, constant bus]`: forms `[[operand count, verdicts, [configuration, ...]], ...]` with a
character per probe ('.' accepted, ' ' not probed, else the message at that position of `codes`), lane masks
`[[operand count, [[slot, vcc verdict, sgpr verdict], ...], [configuration, ...]], ...]`, a verdict being 0
(accepted) or 1 + the index of the message, constant bus `[[operand count, [[scalar slots, literal slots,
verdict], ...], [configuration, ...]], ...]` (slots as a string of digits; the literal slots are among the
scalar ones).

Usage: python scripts/gen_vop_forms.py [--llvm-mc llvm-mc-22]   (after gen_mnemonic_verdicts.py)
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from collections import defaultdict
from itertools import combinations
from pathlib import Path

from gen_mnemonic_verdicts import TABLES, _major, disassemble, read_table
from gen_mnemonic_verdicts import verdicts as assemble
from gen_operand_verdicts import _INSTANCE, replacement, split_operands, width

OUT = TABLES / "vop_forms.jsonl"
#: one processor of each instruction set with VALU forms to tell apart
REPRESENTATIVES = ("gfx802", "gfx810", "gfx900", "gfx906", "gfx908", "gfx90a", "gfx942", "gfx950", "gfx1010", "gfx1011",
                   "gfx1013", "gfx1030", "gfx1100", "gfx1150", "gfx1200", "gfx1250", "gfx1251")
WAVE64 = "+wavefrontsize64"
#: the replacement of a lane mask by one of the other wave size: (vcc, sgpr) in wave32 and in wave64
WRONG = {32: ("vcc", "s[10:11]"), 64: ("vcc_lo", "s10")}
#: operand probes: kind -> text (`v` of the operand's width; the scalar ones as written, whatever its width; the
#: source modifiers on a VGPR)
KINDS = {"v": None, "s1": "s12", "s2": "s[12:13]", "iconst": "1", "literal": "0x1234", "vcc_lo": "vcc_lo", "vcc": "vcc",
         "exec_lo": "exec_lo", "exec": "exec", "m0": "m0", "sext": "sext(v10)", "neg": "-v10", "abs": "|v10|"}
MODIFIERS = {"clamp": "clamp", "mul": "mul:2"}
#: DPP control values probed (on `v_mov_b32 v0, v1 quad_perm:[0,1,2,3]`, or alone for a row or wave control)
CONTROL_VALUES = {"bound_ctrl": (-1, 0, 1, 2), "fi": (-1, 0, 1, 2), "row_mask": (-1, 0, 15, 16),
                  "bank_mask": (-1, 0, 15, 16), "row_shl": (0, 1, 15, 16), "row_shr": (0, 1, 15, 16),
                  "row_ror": (0, 1, 15, 16), "row_share": (-1, 0, 15, 16), "row_xmask": (-1, 0, 15, 16),
                  "row_bcast": (0, 1, 15, 31)}
_ALONE = frozenset(("row_shl", "row_shr", "row_ror", "row_share", "row_xmask", "row_bcast"))
MAX_OPERANDS = 6
_ALPHABET = "".join(chr(code) for code in range(33, 127) if chr(code) not in ".\"\\ ")
_SDWA = re.compile(r"\b(?:dst_sel|src0_sel|src1_sel|dst_unused):")
_DPP = re.compile(r"\b(?:quad_perm|row_\w+|wave_\w+|row_share|row_xmask):?")


def probes() -> list[str]:
    return [*MODIFIERS, "bus", *(f"{slot}:{kind}" for slot in range(MAX_OPERANDS) for kind in KINDS),
            *(f"{name}_after" for name in MODIFIERS)]


def kind_text(kind: str, count: int) -> str | None:
    if kind == "v":
        return replacement("v", count)
    return KINDS[kind] if kind in ("s1", "s2", "vcc", "exec") or count == 1 else None


def write_vop_sweep(directory: Path) -> Path:
    """Encodings of every VOP1/VOP2/VOPC opcode (plain, and with an SDWA, DPP or DPP8 source word) and of every
    VOP3/VOP3P one of each generation, each with three tails: zeros, a DPP/SDWA control word, VGPR sources; the
    VOP3 ones also as VOP3 DPP and DPP8."""
    words = [(op << 25) | 0x100 for op in range(64)]
    words += [(0x3E << 25) | (op << 17) | 0x100 for op in range(256)]
    words += [(0x3F << 25) | (op << 9) | 0x100 for op in range(256)]
    for src0 in (0xF9, 0xFA, 0xE9):
        words += [(0x3F << 25) | (op << 9) | src0 for op in range(256)]
        words += [(0x3E << 25) | (op << 17) | src0 for op in range(256)]
        words += [(op << 25) | src0 for op in range(64)]
    vop3 = [(top << 26) | (op << 16) | low for top in (0b110100, 0b110101, 0b110011) for op in range(1024)
            for low in (0x0101, 0x4000)]
    vgpr_sources = (0x102 | 0x104 << 9 | 0x108 << 18 | 3 << 27).to_bytes(4, "little")
    tails = (bytes(12), bytes([0x01, 0x01, 0x00, 0x00, 0xFA, 0x00, 0xFF, 0x00]) + bytes(4), vgpr_sources + bytes(8))
    # VOP3 DPP (gfx11+): src0 0xFA with a quad_perm control word, or 0xE9 with DPP8 lane selects; src1 a VGPR
    sources = 0x102 << 9
    dpp = ((0xFA | sources).to_bytes(4, "little") + (0xFF001B01).to_bytes(4, "little") + bytes(4),
           (0xE9 | sources).to_bytes(4, "little") + (0xFAC688 << 8 | 1).to_bytes(4, "little") + bytes(4))
    path = directory / "vop_sweep.txt"
    with path.open("w") as out:
        for word, word_tails in [*((word, tails) for word in words), *((word, tails + dpp) for word in vop3)]:
            for tail in word_tails:
                out.write(" ".join(f"0x{byte:02x}" for byte in word.to_bytes(4, "little") + tail) + "\n")
    return path


def form_key(mnemonic: str, rest: str) -> str:
    """The key of a printed instance: its mnemonic, or for a DPP, DPP8 or SDWA form the mnemonic without an
    encoding suffix plus `_dpp`, `_dpp8` or `_sdwa`."""
    base = mnemonic.removesuffix("_dpp").removesuffix("_sdwa")
    if "dpp8:" in rest:
        return base + "_dpp8"
    if _SDWA.search(rest):
        return base + "_sdwa"
    if _DPP.search(rest):
        return base + "_dpp"
    return mnemonic


def printed_instances(llvm_mc: str, processor: str, mattr: tuple[str, ...], sweep: Path) -> dict[str, tuple[str, str]]:
    """key -> (mnemonic, operands and modifiers) of the first valid instance printed for it."""
    found: dict[str, tuple[str, str]] = {}
    for mnemonic, rest in _INSTANCE.findall(disassemble(llvm_mc, processor, mattr, sweep)):
        if mnemonic.startswith("v_") and "/*" not in rest:
            found.setdefault(form_key(mnemonic, rest), (mnemonic, rest))
    return found


def lane_slots(narrow: str, wide: str) -> list[int]:
    """The operands printed a dword wide in wave32 and two in wave64."""
    operands32, _ = split_operands(narrow)
    operands64, _ = split_operands(wide)
    if len(operands32) != len(operands64):
        return []
    return [slot for slot, (one, two) in enumerate(zip(operands32, operands64, strict=True))
            if width(one) == 1 and width(two) == 2]


def code(answer: str, messages: list[str]) -> int:
    if answer and answer not in messages:
        messages.append(answer)
    return messages.index(answer) + 1 if answer else 0


def probe_forms(llvm_mc: str, processor: str, mattr: tuple[str, ...], chosen: dict[str, tuple[str, str]],
                directory: Path, messages: list[str]) -> dict[str, tuple[int, str]]:
    """key -> (operand count, verdicts) for the DPP, DPP8 and SDWA instances on one configuration."""
    order = probes()
    lines: list[str] = []
    owners: list[tuple[str, int]] = []
    plans: dict[str, tuple[int, list[str]]] = {}
    for key, (mnemonic, rest) in chosen.items():
        if not key.endswith(("_dpp", "_dpp8", "_sdwa")):
            continue
        operands, modifiers = split_operands(rest)
        if len(operands) > MAX_OPERANDS:
            continue
        plan = [" "] * len(order)
        plans[key] = (len(operands), plan)
        for position, text in enumerate(MODIFIERS.values()):  # before the controls, where llvm-mc prints them
            lines.append(f"{mnemonic} {', '.join(operands)} {text} {modifiers}".rstrip())
            owners.append((key, position))
            lines.append(f"{mnemonic} {', '.join(operands)} {modifiers} {text}")  # and after them
            owners.append((key, len(order) - len(MODIFIERS) + position))
        for slot, operand in enumerate(operands):
            count = width(operand)
            if count is None:
                continue
            for offset, kind in enumerate(KINDS):
                text = kind_text(kind, count)
                if text is None:
                    continue
                changed = [*operands[:slot], text, *operands[slot + 1:]]
                lines.append(f"{mnemonic} {', '.join(changed)} {modifiers}".rstrip())
                owners.append((key, len(MODIFIERS) + 1 + slot * len(KINDS) + offset))
    answers = assemble(llvm_mc, processor, mattr, lines, directory)
    for (key, position), answer in zip(owners, answers, strict=True):
        number = code(answer, messages)
        plans[key][1][position] = _ALPHABET[number - 1] if number else "."
    # the constant bus: every source after the first operand that takes a 32-bit SGPR alone, given a different one
    bus_lines, bus_owners = [], []
    for key, (count, plan) in plans.items():
        mnemonic, rest = chosen[key]
        operands, modifiers = split_operands(rest)
        slots = [slot for slot in range(1, count) if plan[len(MODIFIERS) + 1 + slot * len(KINDS) + 1] == "."]
        if len(slots) < 2:
            continue
        changed = [f"s{12 + min(slots.index(slot), 1)}" if slot in slots else operand  # two SGPRs: s12, s13, s13...
                   for slot, operand in enumerate(operands)]
        bus_lines.append(f"{mnemonic} {', '.join(changed)} {modifiers}".rstrip())
        bus_owners.append(key)
    for key, answer in zip(bus_owners, assemble(llvm_mc, processor, mattr, bus_lines, directory), strict=True):
        number = code(answer, messages)
        plans[key][1][len(MODIFIERS)] = _ALPHABET[number - 1] if number else "."
    return {key: (count, "".join(plan).rstrip()) for key, (count, plan) in plans.items()}


_SCALAR = re.compile(r"^(?:s\d+|s\[\d+:\d+\]|vcc(?:_lo|_hi)?|exec(?:_lo|_hi)?|m0|ttmp\d+|ttmp\[\d+:\d+\])$")


def sgpr(first: int, count: int) -> str:
    return f"s{first}" if count == 1 else f"s[{first}:{first + count - 1}]"


def probe_bus(llvm_mc: str, processor: str, mattr: tuple[str, ...], chosen: dict[str, tuple[str, str]],
              directory: Path, messages: list[str]) -> dict[str, tuple[int, tuple[tuple[str, str, int], ...]]]:
    """key -> (operand count, ((scalar slots, literal slots, verdict), ...)) for the plain VALU instances: the
    combinations of SGPRs and literals, each in an operand that takes one alone, that llvm-mc refuses for the
    constant bus or for a second literal. Operands the instance already gives a scalar register count as
    scalar slots of each combination."""
    plain = {key: (mnemonic, rest) for key, (mnemonic, rest) in chosen.items()
             if not key.endswith(("_dpp", "_dpp8", "_sdwa")) and len(split_operands(rest)[0]) <= MAX_OPERANDS}
    plain = neutral_instances(llvm_mc, processor, mattr, plain, directory)
    lines, owners = [], []
    for key, (mnemonic, rest) in plain.items():
        operands, modifiers = split_operands(rest)
        for slot, operand in enumerate(operands):
            count = width(operand.strip("-|"))
            if count is None or count > 2:
                continue
            for kind, text in (("s", sgpr(12, count)), ("l", "0x1234" if count == 1 else None)):
                if text is not None:
                    changed = [*operands[:slot], text, *operands[slot + 1:]]
                    lines.append(f"{mnemonic} {', '.join(changed)} {modifiers}".rstrip())
                    owners.append((key, slot, kind))
    alone: dict[str, dict[str, set[int]]] = defaultdict(lambda: {"s": set(), "l": set()})
    for (key, slot, kind), answer in zip(owners, assemble(llvm_mc, processor, mattr, lines, directory), strict=True):
        if not answer:
            alone[key][kind].add(slot)
    lines, combos = [], []
    for key, taken in alone.items():
        mnemonic, rest = plain[key]
        operands, modifiers = split_operands(rest)
        sgprs, literals = sorted(taken["s"]), sorted(taken["l"])
        plans = [(pair, ()) for pair in _subsets(sgprs, 2)] + [(triple, ()) for triple in _subsets(sgprs, 3)]
        plans += [((literal, other), (literal,)) for literal in literals for other in sgprs if other != literal]
        plans += [((literal, *pair), (literal,)) for literal in literals
                  for pair in _subsets([other for other in sgprs if other != literal], 2)]
        plans += [(pair, pair) for pair in _subsets(literals, 2)]
        for slots, literal_slots in plans:
            changed = list(operands)
            for order, slot in enumerate(slots):
                if slot in literal_slots:
                    changed[slot] = ("0x1234", "0x5678")[literal_slots.index(slot)]
                else:
                    changed[slot] = sgpr(12 + 2 * order, width(operands[slot].strip("-|")) or 1)
            scalars = sorted({*slots, *(slot for slot, operand in enumerate(operands) if _SCALAR.match(operand.strip("-|")))})
            lines.append(f"{mnemonic} {', '.join(changed)} {modifiers}".rstrip())
            combos.append((key, "".join(map(str, scalars)), "".join(map(str, literal_slots))))
    found: dict[str, list[tuple[str, str, int]]] = defaultdict(list)
    for (key, scalars, literal_slots), answer in zip(combos, assemble(llvm_mc, processor, mattr, lines, directory),
                                                     strict=True):
        if "constant bus" in answer or "unique literal" in answer:
            found[key].append((scalars, literal_slots, code(answer, messages)))
    return {key: (len(split_operands(plain[key][1])[0]), tuple(sorted(set(refused)))) for key, refused in found.items()}


def neutral_instances(llvm_mc: str, processor: str, mattr: tuple[str, ...], found: dict[str, tuple[str, str]],
                      directory: Path) -> dict[str, tuple[str, str]]:
    """The instances with each scalar register after the first operand that llvm-mc takes a VGPR for made one
    (each tried alone, then together), so that a probe's SGPRs are the only ones read."""
    trials: list[tuple[str, int]] = []
    lines: list[str] = []
    split = {key: split_operands(rest) for key, (_, rest) in found.items()}
    for key, (operands, modifiers) in split.items():
        for slot, operand in enumerate(operands):
            if slot and _SCALAR.match(operand.strip("-|")):
                changed = [*operands[:slot], _vgpr_for(operand), *operands[slot + 1:]]
                lines.append(f"{found[key][0]} {', '.join(changed)} {modifiers}".rstrip())
                trials.append((key, slot))
    taken: dict[str, list[int]] = defaultdict(list)
    for (key, slot), answer in zip(trials, assemble(llvm_mc, processor, mattr, lines, directory), strict=True):
        if not answer:
            taken[key].append(slot)
    combined = {}
    for key, slots in taken.items():
        operands, modifiers = split[key]
        changed = [_vgpr_for(operand) if slot in slots else operand for slot, operand in enumerate(operands)]
        combined[key] = (found[key][0], f"{', '.join(changed)} {modifiers}".rstrip())
    names = list(combined)
    answers = assemble(llvm_mc, processor, mattr, [" ".join(combined[key]) for key in names], directory)
    return {**found, **{key: combined[key] for key, answer in zip(names, answers, strict=True) if not answer}}


def _vgpr_for(operand: str) -> str:
    return replacement("v", width(operand.strip("-|")) or 1) or operand


def _subsets(slots: list[int], size: int) -> list[tuple[int, ...]]:
    return list(combinations(slots, size))


def probe_controls(llvm_mc: str, processor: str, mattr: tuple[str, ...], directory: Path,
                   messages: list[str]) -> dict[str, list[list[int]]]:
    """DPP control -> [[value, verdict], ...] on a configuration with DPP (where `v_mov_b32` takes quad_perm)."""
    lines = [f"v_mov_b32 v0, v1 {name}:{value}" if name in _ALONE else
             f"v_mov_b32 v0, v1 quad_perm:[0,1,2,3] {name}:{value}"
             for name, values in CONTROL_VALUES.items() for value in values]
    answers = iter(assemble(llvm_mc, processor, mattr, ["v_mov_b32 v0, v1 quad_perm:[0,1,2,3]", *lines], directory))
    if next(answers):
        return {}
    return {name: [[value, code(next(answers), messages)] for value in values]
            for name, values in CONTROL_VALUES.items()}


def probe_lane_masks(llvm_mc: str, processor: str, mattr: tuple[str, ...], chosen: dict[str, tuple[str, str]],
                     slots: dict[str, list[int]], wave: int, directory: Path,
                     messages: list[str]) -> dict[str, tuple[int, tuple[tuple[int, int, int], ...]]]:
    """key -> (operand count, ((slot, vcc verdict, sgpr verdict), ...)) on one gfx10+ configuration."""
    lines: list[str] = []
    owners: list[tuple[str, int]] = []
    for key, (mnemonic, rest) in chosen.items():
        operands, modifiers = split_operands(rest)
        for slot in slots.get(key, ()):
            for text in WRONG[wave]:
                changed = [*operands[:slot], text, *operands[slot + 1:]]
                lines.append(f"{mnemonic} {', '.join(changed)} {modifiers}".rstrip())
                owners.append((key, slot))
    answers = assemble(llvm_mc, processor, mattr, lines, directory)
    found: dict[str, list[tuple[int, int, int]]] = defaultdict(list)
    for index in range(0, len(owners), 2):
        key, slot = owners[index]
        found[key].append((slot, code(answers[index], messages), code(answers[index + 1], messages)))
    return {key: (len(split_operands(chosen[key][1])[0]), tuple(found_slots)) for key, found_slots in found.items()}


def write_table(header: dict, forms: dict[str, list], lanes: dict[str, list], buses: dict[str, list]) -> None:
    """The header line, then a line per key: `["key", form groups, lane-mask groups, constant-bus groups]`."""
    with OUT.open("w") as out:
        out.write(json.dumps(header, separators=(",", ":")) + "\n")
        for key in sorted(forms.keys() | lanes.keys() | buses.keys()):
            row = [key, forms.get(key, []), lanes.get(key, []), buses.get(key, [])]
            out.write(json.dumps(row, separators=(",", ":")) + "\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--llvm-mc", default="llvm-mc-22")
    args = parser.parse_args()
    configurations: list[str] = read_table()["configurations"]
    messages: list[str] = []
    forms: dict[str, dict[tuple[int, str], list[int]]] = defaultdict(lambda: defaultdict(list))
    lanes: dict[str, dict[tuple[int, tuple[tuple[int, int, int], ...]], list[int]]] = defaultdict(
        lambda: defaultdict(list))
    controls: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    buses: dict[str, dict[tuple[int, tuple[tuple[str, str, int], ...]], list[int]]] = defaultdict(
        lambda: defaultdict(list))
    with tempfile.TemporaryDirectory() as scratch:
        directory = Path(scratch)
        sweep = write_vop_sweep(directory)
        printed: dict[int, list[dict[str, tuple[str, str]]]] = {32: [], 64: []}
        slots: dict[str, list[int]] = {}
        for processor in REPRESENTATIVES:
            wide = printed_instances(args.llvm_mc, processor, (WAVE64,) if _major(processor) >= 10 else (), sweep)
            printed[64].append(wide)
            if _major(processor) >= 10:
                narrow = printed_instances(args.llvm_mc, processor, (), sweep)
                printed[32].append(narrow)
                for key in narrow.keys() & wide.keys():
                    slots.setdefault(key, lane_slots(narrow[key][1], wide[key][1]))
        for index, configuration in enumerate(configurations):
            processor, *features = configuration.split(":")
            mattr = tuple(f"{feature[-1]}{feature[:-1]}" for feature in features)
            gfx10 = processor[3:5] in ("10", "11", "12")
            wave = 64 if "wavefrontsize64+" in configuration or not gfx10 else 32
            candidates = list(dict.fromkeys((key, instance) for found in printed[wave] for key, instance in found.items()))
            answers = assemble(args.llvm_mc, processor, mattr, [f"{m} {rest}" for _, (m, rest) in candidates],
                               directory)
            chosen: dict[str, tuple[str, str]] = {}
            for (key, instance), answer in zip(candidates, answers, strict=True):
                if not answer:
                    chosen.setdefault(key, instance)
            for key, verdict in probe_forms(args.llvm_mc, processor, mattr, chosen, directory, messages).items():
                forms[key][verdict].append(index)
            for key, refused in probe_bus(args.llvm_mc, processor, mattr, chosen, directory, messages).items():
                buses[key][refused].append(index)
            for name, found in probe_controls(args.llvm_mc, processor, mattr, directory, messages).items():
                controls[name][json.dumps(found)].append(index)
            if gfx10:
                for key, lane in probe_lane_masks(args.llvm_mc, processor, mattr, chosen, slots, wave, directory,
                                                  messages).items():
                    lanes[key][lane].append(index)
    if len(messages) > len(_ALPHABET):
        raise SystemExit(f"{len(messages)} messages: more than the {len(_ALPHABET)} codes")
    header = {"source": f"{args.llvm_mc} (disassembled VALU instances, probed; scripts/gen_vop_forms.py)",
              "configurations": configurations, "messages": messages, "codes": _ALPHABET[: len(messages)],
              "probes": probes(),
              "controls": {name: [[json.loads(found), members] for found, members in groups.items()]
                           for name, groups in sorted(controls.items())}}
    write_table(header, {key: [[count, verdicts, members] for (count, verdicts), members in groups.items()]
                         for key, groups in forms.items()},
                {key: [[count, [list(slot) for slot in found], members] for (count, found), members in groups.items()]
                 for key, groups in lanes.items()},
                {key: [[count, [list(combination) for combination in refused], members]
                       for (count, refused), members in groups.items()] for key, groups in buses.items()})
    print(f"{len(forms)} DPP/DPP8/SDWA forms, {len(lanes)} forms with lane masks, {len(messages)} messages")
    return 0


if __name__ == "__main__":
    sys.exit(main())
