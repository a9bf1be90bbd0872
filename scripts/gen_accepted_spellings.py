"""Generate lint/isa/tables/spellings.json: mnemonics llvm-mc 22 accepts on a processor beyond its
instruction-syntax page, and the row each one reads as.

LLVM keeps older spellings assembling after a rename (gfx12 `ds_read_b32` for `ds_load_b32`,
`s_load_dword` for `s_load_b32`, `exp` for `export`), spells some instructions two ways (gfx950
`v_mfma_i32_16x16x64i8` and `..._i8`), and some processors add instructions their page does not
list (gfx1150's SALU float instructions, which the GFX12 page describes). For each table processor
this script asks llvm-mc which mnemonics of every other page it accepts (a mnemonic alone is
"invalid instruction" when unknown and "too few operands" when known), then finds the row it
reads as: the same name on the processor's own page under LLVM's renames, else the same name on
another page (borrowed).

Needs llvm-mc-22 (Debian's llvm-22); the suite only reads the generated table.
Usage: python scripts/gen_accepted_spellings.py [--llvm-mc llvm-mc-22] [--check]
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "lint" / "isa" / "tables" / "spellings.json"

_REJECTED = ("invalid instruction", "not supported", "instruction requires")


def _operand_text(spec, base: dict[str, int], wave_size: int) -> str:
    count = spec.dwords(wave_size) or 1
    kinds = spec.kinds
    for file in ("v", "s", "a"):
        if file in kinds:
            start = base[file]
            base[file] += max(4, count)
            return f"{file}{start}" if count == 1 else f"{file}[{start}:{start + count - 1}]"
    if "off" in kinds:
        return "off"
    if "hwreg" in kinds:
        return "hwreg(HW_REG_MODE)"
    if "sendmsg" in kinds or "sendmsg_rtn" in kinds:
        return "sendmsg(MSG_INTERRUPT)"
    for special in ("vcc", "exec", "m0", "scc"):
        if special in kinds:
            return special if count == 2 or special in ("m0", "scc") or wave_size == 64 else f"{special}_lo"
    return "0"


def _instances(name: str, variants, wave_size: int) -> list[str]:
    lines = []
    for variant in variants:
        base = {"v": 0, "s": 0, "a": 0}
        operands = [_operand_text(spec, base, wave_size) for spec in variant.operands if not spec.optional]
        lines.append(f"{name} {', '.join(operands)}".strip())
    return lines or [name]


def _errors(llvm_mc: str, processor: str, lines: list[str]) -> dict[int, str]:
    """Line number -> llvm-mc's first error on it."""
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "probe.s"
        path.write_text("".join(f"{line}\n" for line in lines))
        run = subprocess.run([llvm_mc, "-triple=amdgcn-amd-amdhsa", f"-mcpu={processor}", "-filetype=null", str(path)],
                             capture_output=True, text=True, check=False)
    errors: dict[int, str] = {}
    if "not a recognized processor" in run.stderr:
        errors[0] = f"llvm-mc does not know {processor}"
    for match in re.finditer(r"probe\.s:(\d+):\d+: error: (.*)", run.stderr):
        errors.setdefault(int(match.group(1)), match.group(2))
    return errors


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--llvm-mc", default="llvm-mc-22")
    parser.add_argument("--check", action="store_true", help="compare with the committed table; exit 1 if it differs")
    args = parser.parse_args()
    from amdgpu_lint.isa import _ALL_SUFFIXES, PAGES, InstructionSet, _load_page
    from amdgpu_lint.isa.renames import renamed
    from amdgpu_lint.model.targets import _PROCESSORS, parse_target_id

    loaded = {page: _load_page(page) for page in PAGES}
    everything = sorted(set().union(*(set(rows) for rows in loaded.values())))
    groups: list[dict[str, list[str]]] = []
    processors: dict[str, int] = {}
    for processor in _PROCESSORS:
        target = parse_target_id(processor)
        own = InstructionSet(target.isa_pages)  # the pages alone, not the spellings being generated
        wave_size = 32 if target.major >= 10 else 64
        # each other mnemonic, written with operands from its own row (as this processor's page renames it,
        # else as another page lists it); suffixed forms of known rows are read through their base already
        probes: list[tuple[str, str, str, str]] = []  # (name, page, row mnemonic, line)
        # LLVM spells some matrix instructions both ways (`..._16x16x64i8` and `..._16x16x64_i8`)
        fused = {re.sub(r"(x\d+)_(bf16|f16|i8|xf32|bf8|fp8)", r"\1\2", row) for page in target.isa_pages for row in loaded[page]}
        fused = {re.sub(r"(bf8|fp8)_(bf8|fp8)$", r"\1\2", name) for name in fused}
        # gfx11.5 spells gfx12's SALU `s_min_num_f32` as `s_min_f32`
        unnumbered = {row.replace("_num_", "_"): (page, row) for page, rows in loaded.items() for row in rows if "_num_" in row}
        for name in sorted(set(everything) | fused | set(unnumbered)):
            if name in own or _ALL_SUFFIXES.sub("", name) in own:
                continue
            new_name = renamed(name)
            if new_name in own:
                probes += [(name, "", new_name, line) for line in _instances(name, own.variants(new_name), wave_size)]
            else:
                sources = [(page, name) for page, rows in loaded.items() if name in rows] or [unnumbered.get(name, ("", ""))]
                for page, row in sources:
                    if page:
                        probes += [(name, page, row, line)
                                   for line in _instances(name, loaded[page].get(row), wave_size)]
        errors = _errors(args.llvm_mc, processor, [line for *_, line in probes])
        if errors.get(0):
            print(f"{processor}: {errors[0]}; skipped", file=sys.stderr)
            continue
        readings: dict[str, list[str]] = {}
        for number, (name, page, row, _) in enumerate(probes, 1):
            error = errors.get(number)
            # it assembles as that row reads it; or it is a renamed spelling of this processor's own row
            # that llvm-mc knows (only our made-up operands are wrong: never "invalid instruction")
            if error is None or (not page and not any(word in error for word in _REJECTED)):
                readings.setdefault(name, [page, row])
        if readings not in groups:
            groups.append(readings)
        processors[processor] = groups.index(readings)
        print(f"{processor}: {len(readings)} other spellings accepted ({len(probes)} probes)", file=sys.stderr)
    text = json.dumps({"processors": processors, "groups": groups}, separators=(",", ":"), sort_keys=True) + "\n"
    if args.check:
        same = OUT.read_text() == text
        print("spellings.json is current" if same else "spellings.json differs from a fresh probe", file=sys.stderr)
        return 0 if same else 1
    OUT.write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
