"""Generate lint/isa/tables/matrix_operands.jsonl: what llvm-mc 22 refuses of matrix and register-tuple operands.

From an instance of each instruction llvm-mc's disassembler prints on a configuration (the sweep of
gen_mnemonic_verdicts.py; global and scratch forms made from the flat ones), llvm-mc itself is asked:

- matrix instructions (MFMA, SMFMAC, WMMA, SWMMAC, v_accvgpr_*): which register files each register operand may
  be in, as every combination of VGPRs and AGPRs over the operands (`files`); then, on the first accepted
  combination, each value of `cbsz`, `abid`, `blgp` and `index_key`, each single bit of `neg_lo`, `neg_hi` and
  `op_sel`, `clamp`, and each source replaced by an inline constant, a literal, an SGPR or a special register
  (`probes`);
- every instruction on gfx908 and later CDNA and on gfx1250: each VGPR or AGPR tuple of 64 bits or more moved to an
  odd first register, and each single VGPR or AGPR of a memory instruction (`alignment`: `slots`, `singles`); each
  VGPR of a memory instruction, and each pair of them, written as AGPRs (`agprs`); and an MFMA's accumulator moved
  partly over its result (`overlap`, with the matrix `probes`);
- every `_e32` and `_dpp` instruction on gfx11 and gfx12, in both true16 modes, and gfx1250 (fake16): each
  32-bit-or-less VGPR operand moved to v130, written whole and, where the instance writes a true16 half, as one
  (`low_vgprs`: the operands that reach only v0-v127);
- every processor: which first registers of an SGPR or trap-temporary tuple of each width llvm-mc refuses as
  misaligned (`tuple_alignments`, in the header);
- every instruction of gfx11 and gfx12: the width of each VGPR operand in wave32 and in wave64
  (tables/wave_widths.json, where they differ); instructions the sweep does not print are written from the
  instruction-syntax tables, and so are the matrix instructions it prints by another name (`aliases`, in the
  header: gfx942 prints `v_mfma_f32_32x32x1f32` as `v_mfma_f32_32x32x1_2b_f32`).

Only refusals are kept (llvm-mc's message, an index into `messages`), with the operand count of the probed instance
where the facts are per operand position; answers that depend on the instance's other operands (`DEPENDENT`) are
dropped. A configuration is `processor[:feature...]` as in tables/mnemonics.jsonl; configurations with the same
facts for a mnemonic share one entry.

Usage: python scripts/gen_matrix_operands.py [--llvm-mc llvm-mc-22] [--cache DIR]
(about 15 minutes for the 11 disassemblies, 30 seconds with them kept in --cache)
"""

from __future__ import annotations

import argparse
import itertools
import json
import re
import sys
import tempfile
from pathlib import Path

from gen_mnemonic_verdicts import TABLES, write_sweep
from gen_mnemonic_verdicts import verdicts as assemble
from gen_operand_verdicts import _INSTANCE, instances, split_operands

OUT = TABLES / "matrix_operands.jsonl"
#: the wave-size-dependent widths, read with the instruction-syntax tables
WIDTHS = TABLES / "wave_widths.json"
CONFIGURATIONS = ("gfx908", "gfx90a", "gfx942", "gfx950", "gfx1100", "gfx1100:wavefrontsize64+", "gfx1100:real-true16-",
                  "gfx1200", "gfx1200:wavefrontsize64+", "gfx1200:real-true16+", "gfx1250")
#: configurations whose tuples are probed for alignment, and those whose 16-bit forms are probed for v128+
ALIGNED = ("gfx908", "gfx90a", "gfx942", "gfx950", "gfx1250")
LOW_VGPRS = ("gfx1100", "gfx1100:real-true16-", "gfx1200", "gfx1200:real-true16+", "gfx1250")
#: (wave32, wave64) configuration pairs whose VGPR widths are compared, per instruction-syntax page
WAVES = {"gfx11": ("gfx1100", "gfx1100:wavefrontsize64+"), "gfx12": ("gfx1200", "gfx1200:wavefrontsize64+")}
MATRIX = re.compile(r"^v_(mfma|smfmac|wmma|swmmac|accvgpr)")
#: value probes appended to a matrix instance: name -> the texts, in order
VALUES = {
    "cbsz": [f"cbsz:{value}" for value in range(9)],
    "abid": [f"abid:{value}" for value in range(17)],
    "blgp": [f"blgp:{value}" for value in range(9)],
    "index_key": [f"index_key:{value}" for value in range(5)],
    **{name: [f"{name}:[{','.join('1' if bit == position else '0' for bit in range(3))}]" for position in range(3)]
       for name in ("neg_lo", "neg_hi", "op_sel")},
    "clamp": ["clamp"],
}
#: source probes: kind -> its text for a source of any width
CONSTANTS = {"int": "1", "neg": "-1", "float": "1.0", "literal": "0x1234"}
#: special registers a 1- or 2-dword source is probed with
SPECIALS = {1: ("m0", "vcc_lo", "exec_lo", "null", "execz", "vccz", "scc", "shared_base", "pops_exiting_wave_id"),
            2: ("vcc", "exec", "shared_base")}
#: first register of each operand position in a matrix instance (wide enough apart for 32-dword tuples)
BASES = (0, 64, 96, 128, 192, 224)
#: refusals that depend on the instance's other operands, not on the probed one alone
DEPENDENT = ("wrong register tuple size", "constant bus", "unique literal")
_REGISTER = re.compile(r"\b([vas])(?:(\d+)|\[(\d+):(\d+)\])(\.[lh])?")


def mattr(configuration: str) -> tuple[str, ...]:
    return tuple({"wavefrontsize64+": "+wavefrontsize64"}.get(part, ("+" if part.endswith("+") else "-") + part[:-1])
                 for part in configuration.split(":")[1:])


def register(operand: str) -> tuple[str, int, int, str] | None:
    """(file, first, count, half) of the one register an operand names, or None."""
    found = _REGISTER.findall(operand)
    if len(found) != 1:
        return None
    kind, single, first, last, half = found[0]
    return (kind, int(single), 1, half) if single else (kind, int(first), int(last) - int(first) + 1, half)


def renamed(operand: str, kind: str, first: int, count: int, half: str = "") -> str:
    text = f"{kind}{first}" if count == 1 else f"{kind}[{first}:{first + count - 1}]"
    return _REGISTER.sub(lambda _: text + half, operand, count=1)


class Prober:
    """Batches of lines for one configuration, each line's verdict answered in one llvm-mc run."""

    def __init__(self, llvm_mc: str, configuration: str, directory: Path, messages: list[str]):
        self.llvm_mc, self.configuration, self.directory, self.messages = llvm_mc, configuration, directory, messages

    def run(self, lines: list[str]) -> list[int]:
        """-1 where llvm-mc takes the line, else the index of its message."""
        processor = self.configuration.split(":")[0]
        found = []
        for answer in assemble(self.llvm_mc, processor, mattr(self.configuration), lines, self.directory):
            if not answer:
                found.append(-1)
                continue
            if answer not in self.messages:
                self.messages.append(answer)
            found.append(self.messages.index(answer))
        return found


def with_global_forms(printed: dict[str, str], prober: Prober) -> dict[str, str]:
    """The instances, with global_* and scratch_* ones written from the flat_* ones the sweep printed."""
    made = {}
    for name, text in printed.items():
        if not name.startswith("flat_"):
            continue
        operands, modifiers = split_operands(text)
        made["global_" + name[5:]] = f"{', '.join(operands)}, off {modifiers}".strip()
        address = next((slot for slot, operand in enumerate(operands) if (found := register(operand)) and found[2] == 2
                        and found[0] == "v"), None)
        if address is not None:
            changed = [*operands[:address], "v1", *operands[address + 1:]]
            made["scratch_" + name[5:]] = f"{', '.join(changed)}, off {modifiers}".strip()
    names = [name for name in made if name not in printed]
    answers = prober.run([f"{name} {made[name]}" for name in names])
    return {**printed, **{name: made[name] for name, answer in zip(names, answers, strict=True) if answer < 0}}


def matrix_facts(printed: dict[str, str], prober: Prober) -> dict[str, dict]:
    """mnemonic -> {count, files: {pattern: message}, probes: {probe: message}} for the matrix instructions."""
    plans: dict[str, tuple[list[str], list[int], list[str]]] = {}
    lines: list[str] = []
    for name, text in printed.items():
        if not MATRIX.match(name):
            continue
        operands, _ = split_operands(text)
        slots = [slot for slot, operand in enumerate(operands) if (found := register(operand)) and found[0] in "vas"]
        patterns = []
        for files in itertools.product("va", repeat=len(slots)):
            changed = list(operands)
            for slot, kind in zip(slots, files, strict=True):
                _, _, count, _ = register(operands[slot]) or ("", 0, 1, "")
                changed[slot] = renamed(operands[slot], kind, BASES[slot], count)
            patterns.append("".join(files))
            lines.append(f"{name} {', '.join(changed)}")
        plans[name] = (operands, slots, patterns)
    answers = iter(prober.run(lines))
    facts: dict[str, dict] = {}
    bases: dict[str, list[str]] = {}
    unnamed = prober.run(["v_mov_b32 v0, v1 made_up:[0,0,0]"])[0]  # llvm-mc's words for a modifier it does not know
    for name, (operands, slots, patterns) in plans.items():
        verdicts = {pattern: next(answers) for pattern in patterns}
        accepted = [pattern for pattern, answer in verdicts.items() if answer < 0]
        if not accepted:
            continue
        printed_files = "".join((register(operands[slot]) or "v")[0] for slot in slots)
        chosen = printed_files if printed_files in accepted else accepted[0]
        base = list(operands)
        for slot, kind in zip(slots, chosen, strict=True):
            base[slot] = renamed(operands[slot], kind, BASES[slot], (register(operands[slot]) or ("", 0, 1))[2])
        bases[name] = base
        widths = [(register(operand) or ("", 0, 0))[2] for operand in base]
        facts[name] = {"count": len(operands), "slots": slots, "widths": widths, "unnamed": unnamed, "files": {pattern: answer for pattern, answer in verdicts.items()
                                                         if answer >= 0}, "probes": {}}
    lines, owners = [], []
    for name, base in bases.items():
        for texts in VALUES.values():
            for text in texts:
                lines.append(f"{name} {', '.join(base)} {text}")
                owners.append((name, text))
        for slot in range(1, len(base)):
            found = register(base[slot])
            if found is None:
                continue
            kinds = {**CONSTANTS, **{name: name for name in SPECIALS.get(found[2], ())}}
            if found[2] <= 16:
                kinds["s"] = renamed("s0", "s", 16, found[2])
            for kind, text in kinds.items():
                lines.append(f"{name} {', '.join([*base[:slot], text, *base[slot + 1:]])}")
                owners.append((name, f"{slot}:{kind}"))
        result, accumulator = (register(base[0]), register(base[3])) if len(base) > 3 else (None, None)
        if result and accumulator and result[0] == accumulator[0] and result[2] == accumulator[2] >= 4:
            shifted = renamed(base[3], result[0], result[1] + 2, result[2])  # the accumulator partly over the result
            lines.append(f"{name} {', '.join([*base[:3], shifted, *base[4:]])}")
            owners.append((name, "overlap"))
    for (name, probe), answer in zip(owners, prober.run(lines), strict=True):
        if answer >= 0 and any(words in prober.messages[answer] for words in DEPENDENT):
            continue  # refused for the probed instance's other operands (`cbsz` choosing a source's width)
        if answer >= 0:
            facts[name]["probes"][probe] = answer
        elif probe.split(":")[0] in VALUES:
            facts[name]["probes"][probe] = -1  # an accepted value: what a range's end is told from
    return facts


def table_instances(printed: dict[str, str], prober: Prober) -> tuple[dict[str, str], dict[str, str]]:
    """The matrix instructions of the instruction-syntax tables the sweep did not print by their name, written from
    the tables: (name -> the name llvm-mc prints it by, where that is another the sweep printed (gfx942 prints
    `v_mfma_f32_32x32x1f32` as `v_mfma_f32_32x32x1_2b_f32`); name -> an instance, for the others llvm-mc takes)."""
    import subprocess

    from amdgpu_lint.isa import instruction_set
    from amdgpu_lint.model.targets import parse_target_id

    processor = prober.configuration.split(":")[0]
    table = instruction_set(parse_target_id(processor))
    wave = 64 if "wavefrontsize64+" in prober.configuration or processor.startswith("gfx9") else 32
    lines, names = [], []
    for name in [*table, *table.printed_names()]:
        variants = table.variants(name)
        if not MATRIX.match(name) or name in printed or not variants:
            continue
        operands = variants[0].operands
        for outer in ("v", "a"):
            parts = []
            for slot, spec in enumerate(operands):
                kind = outer if outer in spec.kinds and slot in (0, len(operands) - 1) else "v"
                count = spec.dwords(wave)
                if kind not in spec.kinds or not count:
                    break
                parts.append(renamed("v0", kind, BASES[slot], count))
            else:
                lines.append(f"{name} {', '.join(parts)}")
                names.append(name)
    taken = [(name, text) for name, text, answer in zip(names, lines, prober.run(lines), strict=True) if answer < 0]
    path = prober.directory / "aliases.s"
    path.write_text("".join(f"{text}\n" for _, text in taken))
    command = [prober.llvm_mc, "-triple=amdgcn-amd-amdhsa", f"-mcpu={processor}", str(path)]
    command += [f"-mattr={','.join(mattr(prober.configuration))}"] if mattr(prober.configuration) else []
    shown = _INSTANCE.findall(subprocess.run(command, capture_output=True, text=True, check=False).stdout)
    found: dict[str, str] = {}
    made: dict[str, str] = {}
    if len(shown) == len(taken):
        for (name, _), (other, text) in zip(taken, shown, strict=True):
            if other != name and other in printed:
                found.setdefault(name, other)
            elif other == name and name not in made:
                made[name] = text.split(";")[0].strip()
    return found, made


def alignment_facts(printed: dict[str, str], prober: Prober) -> dict[str, dict]:
    """mnemonic -> {count, slots: {slot: message}}: the VGPR/AGPR tuples llvm-mc refuses on an odd register."""
    candidates: dict[str, list[list[str]]] = {}
    for name, text in printed.items():
        operands, modifiers = split_operands(text)
        base = list(operands)
        for slot, operand in enumerate(operands):
            found = register(operand)
            if found and found[0] in "va" and found[2] >= 2:
                base[slot] = renamed(operand, found[0], BASES[slot] if MATRIX.match(name) else found[1] & ~1, found[2])
        candidates[name] = [[*base, modifiers]]
        data = register(base[0]) if base else None
        if name.startswith("image_") and data and data[2] == 1 and "dmask" not in modifiers:
            # four channels of data first: the one channel the sweep prints is no tuple
            candidates[name].insert(0, [renamed(base[0], data[0], 0, 4), *base[1:], f"dmask:0xf {modifiers}".strip()])
        if name.startswith("v_"):  # its SGPRs as VGPRs, where two SGPRs break the constant bus limit
            vector = [renamed(operand, "v", 100 + 8 * slot, found[2]) if (found := register(operand)) and found[0] == "s"
                      else operand for slot, operand in enumerate(base)]
            if vector != base:
                candidates[name].append([*vector, modifiers])
    bases: dict[str, list[str]] = {}
    for tried in range(3):
        names = sorted(name for name, found in candidates.items() if len(found) > tried and name not in bases)
        for name, answer in zip(names, prober.run([line(name, candidates[name][tried]) for name in names]),
                                strict=True):
            if answer < 0:
                bases[name] = candidates[name][tried]
    accepted = sorted(bases)
    lines, owners = [], []
    for name in accepted:
        base = bases[name]
        for slot, operand in enumerate(base[:-1]):
            found = register(operand)
            if found is None or found[0] not in ("va" if not name.startswith("v_") else "vas") or found[3] or (
                    found[2] < 2 and (found[0] == "s" or name.startswith("v_"))):
                continue
            kind = "v" if found[0] == "s" else found[0]
            even = found[1] & ~1 if kind == found[0] else 100  # a VALU's SGPR tuple: is a VGPR one there aligned?
            first = even + 1 if even + found[2] < 256 else even - 1
            for start in (even, first):
                lines.append(line(name, [*base[:slot], renamed(operand, kind, start, found[2]), *base[slot + 1:]]))
                owners.append((name, slot, "slots" if found[2] >= 2 else "singles"))
    facts: dict[str, dict] = {}
    answers = prober.run(lines)
    for index in range(0, len(owners), 2):
        (name, slot, key), aligned, odd = owners[index], answers[index], answers[index + 1]
        if aligned < 0 <= odd:
            facts.setdefault(name, {"count": len(bases[name]) - 1, "slots": {}, "singles": {}})[key][str(slot)] = odd
    return facts


def agpr_facts(printed: dict[str, str], prober: Prober) -> dict[str, dict]:
    """mnemonic -> {count, refused: {slots: message}}: for the memory instructions, each VGPR operand, and each pair
    of them, written as AGPRs (the same registers), where llvm-mc refuses it."""
    bases = {}
    for name, text in printed.items():
        operands, modifiers = split_operands(text)
        if name.startswith(("v_", "s_")) or not any((found := register(operand)) and found[0] == "v"
                                                    for operand in operands):
            continue
        base = [renamed(operand, found[0], found[1] & ~1, found[2]) if (found := register(operand)) and found[2] >= 2
                and found[0] in "va" else operand for operand in operands]
        bases[name] = [*base, modifiers]
    names = sorted(bases)
    accepted = [name for name, answer in zip(names, prober.run([line(name, bases[name]) for name in names]),
                                             strict=True) if answer < 0]
    lines, owners = [], []
    for name in accepted:
        base = bases[name]
        slots = [slot for slot, operand in enumerate(base[:-1]) if (found := register(operand)) and found[0] == "v"
                 and not found[3]]
        for size in (1, 2):
            for chosen in itertools.combinations(slots, size):
                changed = [renamed(operand, "a", *(register(operand) or ("", 0, 1))[1:3]) if slot in chosen
                           else operand for slot, operand in enumerate(base)]
                lines.append(line(name, changed))
                owners.append((name, ",".join(map(str, chosen))))
    facts: dict[str, dict] = {}
    for (name, slots), answer in zip(owners, prober.run(lines), strict=True):
        if answer >= 0:
            facts.setdefault(name, {"count": len(bases[name]) - 1, "refused": {}})["refused"][slots] = answer
    return facts


def line(name: str, parts: list[str]) -> str:
    """An instruction from its operands and, last, its modifiers."""
    return f"{name} {', '.join(parts[:-1])} {parts[-1]}".rstrip()


def low_vgpr_facts(printed: dict[str, str], prober: Prober) -> dict[str, dict]:
    """mnemonic -> {count, whole: {slot: message}, halves: {slot: message}}: the VGPR operands of `_e32`/`_dpp`
    forms llvm-mc refuses as v130 in the instance written with whole VGPRs (`whole`) and, where the instance writes
    true16 halves, as v130.l in it (`halves`)."""
    bases: dict[str, tuple[list[str], str]] = {}
    for name, text in printed.items():
        if name.startswith("v_") and (name.endswith("_e32") or "_dpp" in name):
            operands, modifiers = split_operands(text)
            whole = [renamed(operand, "v", found[1], 1) if (found := register(operand)) and found[0] == "v"
                     and found[3] else operand for operand in operands]
            bases[f"{name} halves"] = ([*operands, modifiers], name)
            bases[f"{name} whole"] = ([*whole, modifiers], name)
    keys = sorted(bases)
    accepted = [key for key, answer in zip(keys, prober.run([line(bases[key][1], bases[key][0]) for key in keys]),
                                           strict=True) if answer < 0]
    lines, owners = [], []
    for key in accepted:
        base, name = bases[key]
        kind = key.split()[1]
        for slot, operand in enumerate(base[:-1]):
            found = register(operand)
            if found and found[0] == "v" and found[2] == 1 and (kind == "whole" or found[3]):
                lines.append(line(name, [*base[:slot], renamed(operand, "v", 130, 1, found[3]), *base[slot + 1:]]))
                owners.append((name, slot, kind))
    facts: dict[str, dict] = {}
    for (name, slot, kind), answer in zip(owners, prober.run(lines), strict=True):
        if answer >= 0:
            found = facts.setdefault(name, {"count": len(bases[f"{name} whole"][0]) - 1, "whole": {}, "halves": {}})
            found[kind][str(slot)] = answer
    return facts


def tuple_alignments(llvm_mc: str, directory: Path, messages: list[str]) -> list[list]:
    """[[{file: {width: the multiple its first register must be}}, [processor, ...]], ...]: the SGPR and trap
    temporary tuples llvm-mc refuses with "invalid register alignment" at the register itself, whatever the
    instruction, per processor of LLVM 22."""
    from gen_mnemonic_verdicts import PROCESSORS

    groups: list[list] = []
    for processor in PROCESSORS:
        prober = Prober(llvm_mc, processor, directory, messages)
        cases = [(kind, width, start) for kind, limit in (("s", 100), ("ttmp", 16)) for width in (2, 3, 4, 8, 16)
                 for start in range(8) if start + width <= limit]
        answers = prober.run([f"s_mov_b32 s0, {kind}[{start}:{start + width - 1}]" for kind, width, start in cases])
        if any(answer >= 0 and "not a recognized processor" in messages[answer] for answer in answers):
            continue
        refused = {(kind, width, start) for (kind, width, start), answer in zip(cases, answers, strict=True)
                   if answer >= 0 and messages[answer] == "invalid register alignment"}
        found: dict[str, dict[str, int]] = {}
        for kind, width in {(kind, width) for kind, width, _ in cases}:
            starts = [start for case_kind, case_width, start in cases if (case_kind, case_width) == (kind, width)]
            multiple = next((multiple for multiple in (1, 2, 4, 8) if all(
                ((kind, width, start) in refused) == (start % multiple != 0) for start in starts)), None)
            if multiple is not None and multiple > 1 and len(starts) > multiple:
                found.setdefault(kind, {})[str(width)] = multiple
        same = next((group for group in groups if group[0] == found), None)
        if same is None:
            groups.append([found, [processor]])
        else:
            same[1].append(processor)
    return groups


def from_tables(page: str, prober: Prober, known: set[str]) -> dict[str, str]:
    """Instances written from an instruction-syntax page for the instructions the sweep did not print (VGPR and
    SGPR operands only; `off` for a memory instruction's saddr), as far as llvm-mc takes them."""
    from amdgpu_lint.isa import _load_page

    table = _load_page(page)
    made = {}
    for name in table.names():
        if name in known:
            continue
        for variant in table.get(name)[:1]:
            parts = []
            for spec in variant.operands:
                count = spec.dwords(32)
                if spec.name == "saddr":
                    parts.append("off")
                elif "v" in spec.kinds and count:
                    parts.append(renamed("v0", "v", 10 * (len(parts) + 1), count))
                elif "s" in spec.kinds and count:
                    parts.append(renamed("s0", "s", 20 * (len(parts) + 1), count))
                else:
                    break
            else:
                made[name] = ", ".join(parts)
    names = sorted(made)
    return {name: made[name] for name, answer in zip(names, prober.run([f"{n} {made[n]}" for n in names]), strict=True)
            if answer < 0}


def wave_widths(wave32: dict[str, str], wave64: dict[str, str], prober64: Prober) -> dict[str, dict]:
    """mnemonic -> {count, slots: {slot: [wave32 dwords, wave64 dwords]}} where a VGPR operand's width depends on the
    wave size: from the two disassemblies, or, for an instance only wave32's has, the narrower width wave64 takes."""
    found: dict[str, dict] = {}
    halved: list[tuple[str, int, int, str]] = []
    for name, text in wave32.items():
        operands = split_operands(text)[0]
        other = split_operands(wave64[name])[0] if name in wave64 else None
        for slot, operand in enumerate(operands):
            narrow = register(operand)
            if narrow is None or narrow[0] != "v":
                continue
            if other is not None and len(other) == len(operands):
                wide = register(other[slot])
                if wide is not None and wide[2] != narrow[2]:
                    found.setdefault(name, {"count": len(operands), "slots": {}})["slots"][str(slot)] = [narrow[2],
                                                                                                        wide[2]]
            elif other is None and narrow[2] >= 2:
                halved.append((name, slot, narrow[2], renamed(operand, "v", narrow[1], narrow[2] // 2)))
    lines = []
    for name, slot, _, text in halved:
        operands, modifiers = split_operands(wave32[name])
        lines += [f"{name} {wave32[name]}", line(name, [*operands[:slot], text, *operands[slot + 1:], modifiers])]
    answers = prober64.run(lines)
    for index, (name, slot, count, _) in enumerate(halved):
        if answers[2 * index] >= 0 and answers[2 * index + 1] < 0:
            found.setdefault(name, {"count": len(split_operands(wave32[name])[0]), "slots": {}})["slots"][str(slot)] = [
                count, count // 2]
    return found


SECTIONS = ("matrix", "alignment", "agprs", "low_vgprs")


def write(result: dict, widths: dict) -> None:
    """matrix_operands.jsonl: a header (source, messages, configurations, aliases), then a line per mnemonic,
    `["mnemonic", {section: [[facts, [configuration index, ...]], ...]}]`, configurations with the same facts
    sharing them; wave_widths.json: a line per page."""
    configurations = list(CONFIGURATIONS)
    rows: dict[str, dict[str, list]] = {}
    for section in SECTIONS:
        for configuration, facts_of in result[section].items():
            for name, facts in facts_of.items():
                groups = rows.setdefault(name, {}).setdefault(section, [])
                same = next((group for group in groups if group[0] == facts), None)
                if same is None:
                    groups.append([facts, [configurations.index(configuration)]])
                else:
                    same[1].append(configurations.index(configuration))
    header = {"source": result["source"], "messages": result["messages"], "configurations": configurations,
              "aliases": result["aliases"], "tuple_alignments": result["tuple_alignments"]}
    lines = [json.dumps(header, separators=(",", ":"), sort_keys=True)]
    lines += [json.dumps([name, rows[name]], separators=(",", ":"), sort_keys=True) for name in sorted(rows)]
    OUT.write_text("\n".join(lines) + "\n")
    pages = [f"{json.dumps(key)}:{json.dumps(value, separators=(',', ':'), sort_keys=True)}"
             for key, value in widths.items()]
    WIDTHS.write_text("{\n" + ",\n".join(pages) + "\n}\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--llvm-mc", default="llvm-mc-22")
    parser.add_argument("--cache", type=Path, help="keep the disassembled instances here between runs")
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    messages: list[str] = []
    result: dict = {"source": f"{args.llvm_mc} (disassembled instances, probed; scripts/gen_matrix_operands.py)",
                    "messages": messages, "matrix": {}, "aliases": {}, "alignment": {}, "agprs": {}, "low_vgprs": {}}
    widths: dict = {"source": result["source"]}
    with tempfile.TemporaryDirectory() as scratch:
        directory = Path(scratch)
        sweep = write_sweep(directory)
        printed: dict[str, dict[str, str]] = {}
        for configuration in CONFIGURATIONS:
            cached = args.cache / f"inst-{configuration}.json" if args.cache else None
            if cached is not None and cached.exists():
                found = json.loads(cached.read_text())
            else:
                found = instances(args.llvm_mc, configuration.split(":")[0], mattr(configuration), sweep)
                if cached is not None:
                    cached.write_text(json.dumps(found))
            prober = Prober(args.llvm_mc, configuration, directory, messages)
            printed[configuration] = found = with_global_forms(found, prober)
            result["aliases"][configuration], made = table_instances(found, prober)
            found.update(made)
            result["matrix"][configuration] = matrix_facts(found, prober)
            if configuration in ALIGNED:
                result["alignment"][configuration] = alignment_facts(found, prober)
                result["agprs"][configuration] = agpr_facts(found, prober)
            if configuration in LOW_VGPRS:
                result["low_vgprs"][configuration] = low_vgpr_facts(found, prober)
            print(configuration, file=sys.stderr)
        result["tuple_alignments"] = tuple_alignments(args.llvm_mc, directory, messages)
        for page, (narrow, wide) in WAVES.items():
            prober32 = Prober(args.llvm_mc, narrow, directory, messages)
            wave32 = {**from_tables(page, prober32, set(printed[narrow])), **printed[narrow]}
            widths[page] = wave_widths(wave32, printed[wide], Prober(args.llvm_mc, wide, directory,
                                                                                    messages))
    write(result, widths)
    return 0


if __name__ == "__main__":
    sys.exit(main())
