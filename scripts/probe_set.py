"""Issue 36's probe set: on every processor of LLVM 22 in its modes, how many of the lines llvm-mc 22 rejects the
linter's own checks (no assembler) flag on that line, and how many lines it accepts they flag all the same.

Per configuration (each processor `llc-22 -march=amdgcn -mcpu=help` lists under its own name; wave32 and wave64 on
gfx10 and later, each named to both tools: `-mattr=+wavefrontsize32`, target id `:wavefrontsize64-`; real-true16 on
and off on gfx11 and later, named the same way) the probe file is built from the linter's own tables: a sample of
the mnemonics tables/mnemonics.jsonl says the configuration has, each written as an instance of its instruction-syntax
row (lint/isa) that llvm-mc accepts, and each of those mutated

- `width`: a register operand one dword wider or narrower,
- `file`: a register operand from another register file (VGPR and SGPR swapped, an AGPR as an SGPR),
- `offset`: an offset past every generation's range on a memory instruction,
- `modifier`: a modifier of another generation (`glc` on gfx12, `th:` before it, `dlc` on gfx9, `sc0` on gfx10, ...),
- `generation`: the mnemonic replaced by one the configuration rejects (another generation's),
- `made-up`: the mnemonic replaced by one no configuration has,

and once with a modifier its syntax row lists (`own-modifier`: `clamp`, `offset:16`, `glc`, `mul:2`, ...), which
llvm-mc mostly accepts: lines that test the linter's false errors.

llvm-mc judges every line, and the linter lints the same file the way scripts/assembler_agreement.py does. The
sample is seeded (the same seed gives the same files), configurations run two at a time.

    python scripts/probe_set.py                       # every configuration, 400 mnemonics each
    python scripts/probe_set.py --mcpu gfx600 --mcpu gfx1250 --mnemonics 100 --show 20
"""

from __future__ import annotations

import argparse
import random
import re
import subprocess
import sys
import tempfile
import zlib
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from assembler_agreement import linter_errors, llvm_mc_errors, target_id

TRIPLE = "amdgcn-amd-amdhsa"
MUTATIONS = ("width", "file", "offset", "modifier", "generation", "made-up", "own-modifier")
#: how a modifier of a syntax row is written (those that change what the operands must be are left out)
_OWN_MODIFIERS = {
    "clamp": "clamp", "glc": "glc", "slc": "slc", "dlc": "dlc", "nt": "nt", "sc0": "sc0", "sc1": "sc1", "gds": "gds",
    "unorm": "unorm", "nv": "nv", "omod": "mul:2", "offset": "offset:16", "offset12": "offset:16",
    "offset13s": "offset:-16", "offset21s": "offset:16", "offset20u": "offset:16", "offset12s": "offset:16",
    "offset11": "offset:16", "offset24s": "offset:16", "offset0": "offset0:1", "offset1": "offset1:1",
    "scope": "scope:SCOPE_SE", "dmask": "dmask:0x1", "abid": "abid:1", "high": "high",
}
_REGISTER = re.compile(r"^([vsa])(?:(\d+)|\[(\d+):(\d+)\])$")
_MEMORY = ("ds_", "buffer_", "tbuffer_", "global_", "flat_", "scratch_", "s_load", "s_buffer_load", "s_store",
           "s_buffer_store", "s_scratch_")
#: cache and scope modifiers, each with the generations that have them (a major version, or 94 for gfx940-950)
_CACHE_MODIFIERS = {"glc": (6, 7, 8, 9, 10, 11), "slc": (6, 7, 8, 9, 10, 11), "dlc": (10, 11), "sc0": (94,),
                    "sc1": (94,), "nt": (94,), "th:TH_LOAD_NT": (12,), "scope:SCOPE_SE": (12,)}
#: VALU modifiers, each with the generations that have them
_VALU_MODIFIERS = {"dpp8:[0,1,2,3,4,5,6,7]": (10, 11, 12), "op_sel:[1,0,0]": (9, 94, 10, 11, 12),
                   "byte_sel:1": (94, 12), "sdwa_sel:1": (), "row_share:1": (10, 11, 12), "clamp": (6, 7, 8, 9, 10, 11, 12, 94)}


@dataclass
class Result:
    """One configuration's counts: lines llvm-mc rejects, those the linter flags, and its false errors."""

    configuration: str
    lines: int = 0
    counts: Counter[str] = field(default_factory=Counter)
    missed: Counter[str] = field(default_factory=Counter)
    shown: list[str] = field(default_factory=list)
    crash: str = ""


def processors(llc: str = "llc-22") -> list[str]:
    """LLVM's processors under their own names (gfxNNN and the generic targets; not the marketing aliases)."""
    listing = subprocess.run([llc, "-march=amdgcn", "-mcpu=help"], capture_output=True, text=True, check=False)
    names = re.findall(r"^\s+(gfx[0-9a-z-]+)\s+- Select", listing.stdout + listing.stderr, re.MULTILINE)
    return sorted(dict.fromkeys(names), key=_order)


def _order(name: str) -> tuple[int, int, str]:
    digits = name[3:].split("-")[0]
    major = int(digits) if "-" in name[3:] else int(digits[:-2])
    return (major, "-" in name, name)


def configurations(names: list[str]) -> list[tuple[str, tuple[str, ...]]]:
    """(processor, -mattr) for each processor in each of its modes: wave32 and wave64 on gfx10+, real-true16 on
    and off on gfx11+ (a wave size the processor lacks, such as gfx1250's wave64, is left out)."""
    from amdgpu_lint.model.targets import parse_target_id

    found = []
    for name in names:
        major = _order(name)[0]
        waves: list[tuple[str, ...]] = [()]
        if major >= 10 and 64 in parse_target_id(name).wave_sizes:
            waves = [("+wavefrontsize32",), ("+wavefrontsize64",)]  # both named, to llvm-mc and to the linter
        for wave in waves:
            if major >= 11:  # both true16 modes, each named (llvm-mc's default differs by generation)
                found += [(name, (*wave, "+real-true16")), (name, (*wave, "-real-true16"))]
            else:
                found.append((name, wave))
    return found


def _generation(target) -> int:
    return 94 if target.is_gfx94_plus and target.major == 9 else target.major


def _register(kind: str, first: int, count: int) -> str:
    return f"{kind}{first}" if count == 1 else f"{kind}[{first}:{first + count - 1}]"


def instances(mnemonic: str, variant, wave_size: int) -> list[str]:
    """Ways to write `mnemonic` from its syntax row: without its optional operands, with them, and (DPP) with a
    control; the first one llvm-mc accepts is the probe's instance."""
    written: list[str] = []
    next_register = {"v": 0, "s": 0, "a": 0}
    wide_address = mnemonic.startswith(("global_", "flat_"))
    for spec in variant.operands:
        count = spec.dwords(wave_size)
        kinds = spec.kinds
        kind = next((k for k in ("v", "s", "a") if k in kinds), None)
        optional = spec.optional or spec.implicit_register is not None
        if kind is not None:
            if count is None:
                count = 2 if wide_address and kind == "v" else 1
            first = next_register[kind]
            next_register[kind] = first + (count + 3) // 4 * 4
            text = _register(kind, first, count)
        elif "vcc" in kinds:
            text = "vcc" if count == 2 else "vcc_lo"
        elif "exec" in kinds:
            text = "exec" if count == 2 else "exec_lo"
        elif "m0" in kinds:
            text = "m0"
        elif "off" in kinds:
            text = "off"
        else:
            text = "0"
        written.append(("?" if optional else "") + text)
    required = ", ".join(text for text in written if not text.startswith("?"))
    every = ", ".join(text.lstrip("?") for text in written)
    found = [f"{mnemonic} {required}".rstrip()]
    if every != required:
        found.append(f"{mnemonic} {every}".rstrip())
    if any(name.startswith("dpp") for name in variant.modifiers):
        found += [f"{line} quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf" for line in list(found)]
    return found


def _operands(line: str) -> tuple[str, list[str], str]:
    """A probe line's mnemonic, operands and modifiers (the instances write the operands comma-separated)."""
    mnemonic, _, rest = line.partition(" ")
    parts = rest.split(", ") if rest else []
    modifiers = ""
    if parts and " " in parts[-1]:
        parts[-1], modifiers = parts[-1].split(" ", 1)
    return mnemonic, parts, modifiers


def _join(mnemonic: str, operands: list[str], modifiers: str) -> str:
    return " ".join(part for part in (mnemonic, ", ".join(operands), modifiers) if part)


def mutations(line: str, own: tuple[str, ...], rng: random.Random, target, foreign: list[str],
              known) -> dict[str, str]:
    """The mutants of an accepted instance, by kind (a kind that does not apply to the instance is left out);
    `own`: the modifiers of the instance's syntax row."""
    mnemonic, operands, modifiers = _operands(line)
    found: dict[str, str] = {}
    registers = [(slot, match) for slot, operand in enumerate(operands) if (match := _REGISTER.match(operand)) is not None]
    if registers:
        slot, match = rng.choice(registers)
        kind, first = match.group(1), int(match.group(2) or match.group(3))
        count = 1 if match.group(2) else int(match.group(4)) - first + 1
        changed = list(operands)
        changed[slot] = _register(kind, first, count + 1 if count == 1 or rng.random() < 0.5 else count - 1)
        found["width"] = _join(mnemonic, changed, modifiers)
        slot, match = rng.choice(registers)
        kind = match.group(1)
        other = {"v": "s", "s": "v", "a": "s"}[kind]
        changed = list(operands)
        changed[slot] = operands[slot].replace(kind, other, 1)
        found["file"] = _join(mnemonic, changed, modifiers)
    if mnemonic.startswith(_MEMORY):
        value = rng.choice((1 << 24, -(1 << 24) - 1, 1 << 21 if mnemonic.startswith("s_") else 1 << 16))
        found["offset"] = f"{line} offset:{value}"
    table = _CACHE_MODIFIERS if mnemonic.startswith(_MEMORY) else _VALU_MODIFIERS if mnemonic.startswith("v_") else {}
    generation = _generation(target)
    others = [name for name, generations in table.items() if generation not in generations]
    if others:
        found["modifier"] = f"{line} {rng.choice(others)}"
    prefix = mnemonic.split("_")[0] + "_"
    relatives = [name for name in foreign if name.startswith(prefix)] or foreign
    if relatives:
        found["generation"] = _join(rng.choice(relatives), operands, modifiers)
    parts = mnemonic.split("_")
    for _ in range(5):
        index = rng.randrange(len(parts))
        made_up = "_".join([*parts[:index], parts[index] + rng.choice(("x", "zz", "q2")), *parts[index + 1:]])
        if not known(made_up):
            found["made-up"] = _join(made_up, operands, modifiers)
            break
    written = [_OWN_MODIFIERS[name] for name in own if name in _OWN_MODIFIERS]
    if written:
        found["own-modifier"] = f"{line} {rng.choice(written)}"
    return found


def probe(configuration: tuple[str, tuple[str, ...]], mnemonics: int, seed: int, show: int) -> Result:
    """Build one configuration's probe file, have llvm-mc and the linter judge it, count."""
    processor, mattr = configuration
    name = target_id(processor, [*mattr])
    result = Result(name)
    try:
        return _probe(result, processor, mattr, mnemonics, seed, show)
    except Exception as error:  # noqa: BLE001 - a crash is a result here
        result.crash = repr(error)
        return result


def _probe(result: Result, processor: str, mattr: tuple[str, ...], mnemonics: int, seed: int, show: int) -> Result:
    from amdgpu_lint.isa import instruction_set, pages_with
    from amdgpu_lint.isa.mnemonics import mnemonic_verdicts
    from amdgpu_lint.model.targets import parse_target_id

    name = result.configuration
    target = parse_target_id(name)
    wave_size = 64 if "+wavefrontsize64" in mattr else target.default_wave_size
    verdicts = mnemonic_verdicts()
    columns = verdicts.columns(target, wave_size)
    table = instruction_set(target)
    rng = random.Random(zlib.crc32(f"{seed}:{name}".encode()))
    accepted: list[str] = []
    foreign: list[str] = []
    for mnemonic in verdicts.mnemonics():
        (foreign if verdicts.rejection(mnemonic, columns) is not None else accepted).append(mnemonic)
    usable = [mnemonic for mnemonic in accepted if table.variants(mnemonic)]
    chosen = sorted(rng.sample(usable, min(mnemonics, len(usable))))

    def known(mnemonic: str) -> bool:
        return verdicts.knows(mnemonic) or bool(pages_with(mnemonic)) or mnemonic in table

    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / f"{name.replace(':', '_')}.s"
        candidates = [(mnemonic, line) for mnemonic in chosen
                      for line in instances(mnemonic, table.variants(mnemonic)[0], wave_size)]
        path.write_text("".join(line + "\n" for _, line in candidates))
        refused = llvm_mc_errors(path, TRIPLE, processor, [*mattr])
        bases: dict[str, str] = {}
        for number, (mnemonic, line) in enumerate(candidates, 1):
            if number not in refused:
                bases.setdefault(mnemonic, line)
        lines: list[tuple[str, str]] = []
        for mnemonic, base in bases.items():
            lines.append(("instance", base))
            own = table.variants(mnemonic)[0].modifiers
            lines += [(kind, text) for kind, text in mutations(base, own, rng, target, foreign, known).items()]
        path.write_text("".join(text + "\n" for _, text in lines))
        result.lines = len(lines)
        theirs = llvm_mc_errors(path, TRIPLE, processor, [*mattr])
        ours = linter_errors(path, name)
    for number, (kind, text) in enumerate(lines, 1):
        result.counts[f"lines:{kind}"] += 1
        if number in theirs:
            result.counts["rejected"] += 1
            result.counts[f"rejected:{kind}"] += 1
            if number in ours:
                result.counts["hit"] += 1
                result.counts[f"hit:{kind}"] += 1
            else:
                result.missed[re.sub(r"'[^']*'|\d+", "_", theirs[number])] += 1
                if len(result.shown) < show:
                    result.shown.append(f"  missed [{kind}] {text}  -- {theirs[number]}")
        elif number in ours:
            result.counts["false"] += 1
            result.counts[f"false:{kind}"] += 1
            if len(result.shown) < 2 * show:
                result.shown.append(f"  FALSE  [{kind}] {text}  -- {ours[number]}")
    return result


def _share(hit: int, rejected: int) -> str:
    return f"{100 * hit / rejected:5.1f}%" if rejected else "   -  "


def run(configs: list[tuple[str, tuple[str, ...]]], mnemonics: int, seed: int, show: int, jobs: int) -> Iterator[Result]:
    """Each configuration's result, in the order of `configs`."""
    if jobs <= 1:
        yield from (probe(config, mnemonics, seed, show) for config in configs)
        return
    with ProcessPoolExecutor(jobs) as pool:
        yield from pool.map(probe, configs, [mnemonics] * len(configs), [seed] * len(configs), [show] * len(configs))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mcpu", action="append", default=[], help="only this processor (repeatable)")
    parser.add_argument("--mnemonics", type=int, default=400, help="mnemonics sampled per configuration")
    parser.add_argument("--seed", type=int, default=36)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--show", type=int, default=0, help="print this many missed and false lines per configuration")
    args = parser.parse_args()
    configs = configurations(args.mcpu or processors())
    results = run(configs, args.mnemonics, args.seed, args.show, args.jobs)
    totals: Counter[str] = Counter()
    missed: Counter[str] = Counter()
    for result in results:
        counts = result.counts
        if result.crash:
            print(f"CRASH {result.configuration}: {result.crash}")
            totals["crashes"] += 1
            continue
        print(f"{result.configuration:>36}: {result.lines:5} lines  {counts['hit']:5}/{counts['rejected']:<5} "
              f"{_share(counts['hit'], counts['rejected'])}  false {counts['false']}")
        for line in result.shown:
            print(line)
        sys.stdout.flush()
        totals.update(counts)
        missed.update(result.missed)
    print(f"{'all':>36}: {totals['hit']:5}/{totals['rejected']:<5} {_share(totals['hit'], totals['rejected'])}"
          f"  false {totals['false']}  crashes {totals['crashes']}")
    for kind in ("instance", *MUTATIONS):
        print(f"{kind:>27} {totals['lines:' + kind]:5} lines: {totals['hit:' + kind]:5}/{totals['rejected:' + kind]:<5} "
              f"{_share(totals['hit:' + kind], totals['rejected:' + kind])}  false {totals['false:' + kind]}")
    print("most missed llvm-mc messages:")
    for message, count in missed.most_common(20):
        print(f"  {count:6}  {message}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
