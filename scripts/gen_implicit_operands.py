"""Generate lint/isa/tables/implicit_operands.jsonl: where llvm-mc 22 wants an implicit operand written.

Some instruction-syntax rows name a register the instruction reads or writes whatever is written (`vcc`, the carry
of gfx8's `v_add_u32`, the mask of `v_cndmask_b32`, the result of a VOPC compare). llvm-mc lets some be left out
(`v_cmp_eq_u32 v1, v2`, `v_cndmask_b32 v0, v1, v2`) and not others (`v_add_u32 v0, v1, v2` on gfx8: "operands are
not valid for this GPU or mode"; `v_addc_u32 v0, v1, v2`: "invalid operand for instruction"). For every
configuration of tables/mnemonics.jsonl and every mnemonic it has whose syntax row has such registers (and no
optional operand besides), the script writes an instance with them (from the row, as scripts/probe_set.py writes
its instances) and, where llvm-mc takes it, the same instance without them, and records llvm-mc's message for the
second. Each line is `["mnemonic", [[message index, [configuration index, ...]], ...]]` for the configurations that
refuse it; the header lists the configurations (those of tables/mnemonics.jsonl, in its order) and the messages.

Usage: python scripts/gen_implicit_operands.py [--llvm-mc llvm-mc-22]   (after gen_mnemonic_verdicts.py)
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

from gen_mnemonic_verdicts import TABLES, read_table
from gen_mnemonic_verdicts import verdicts as assemble
from probe_set import instances

OUT = TABLES / "implicit_operands.jsonl"


def probe_configuration(llvm_mc: str, configuration: str, directory: Path) -> dict[str, str]:
    """Per mnemonic with implicit registers: llvm-mc's message for its instance without them ('' where taken)."""
    from amdgpu_lint.isa import instruction_set, page_mnemonics
    from amdgpu_lint.isa.implicit_operands import implicit_variant
    from amdgpu_lint.isa.mnemonics import mnemonic_verdicts
    from amdgpu_lint.model.targets import UnknownTarget, parse_target_id

    processor, *features = configuration.split(":")
    mattr = tuple(f"{feature[-1]}{feature[:-1]}" for feature in features)
    target = parse_target_id(processor)
    try:
        named = parse_target_id(configuration)
    except UnknownTarget:
        return {}  # a mode the linter cannot be given (gfx1250 in wave64)
    wave_size = 64 if "+wavefrontsize64" in mattr or target.major < 10 else 32
    verdicts = mnemonic_verdicts()
    column = verdicts.columns(named, wave_size)
    table = instruction_set(target)
    pairs: dict[str, tuple[str, str]] = {}
    for mnemonic in dict.fromkeys(name for page in target.isa_pages for name in page_mnemonics(page)):
        variant = implicit_variant(table.variants(mnemonic))
        if variant is None or verdicts.rejection(mnemonic, column) is not None:
            continue
        written = instances(mnemonic, variant, wave_size)
        if len(written) >= 2:
            pairs[mnemonic] = (written[1], written[0])  # with the implicit registers, without
    names = list(pairs)
    whole = assemble(llvm_mc, processor, mattr, [pairs[name][0] for name in names], directory)
    taken = [name for name, answer in zip(names, whole, strict=True) if not answer]
    bare = assemble(llvm_mc, processor, mattr, [pairs[name][1] for name in taken], directory)
    return dict(zip(taken, bare, strict=True))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--llvm-mc", default="llvm-mc-22")
    args = parser.parse_args()
    configurations: list[str] = read_table()["configurations"]
    messages: list[str] = []
    rows: dict[str, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    with tempfile.TemporaryDirectory() as scratch:
        for index, configuration in enumerate(configurations):
            for mnemonic, answer in probe_configuration(args.llvm_mc, configuration, Path(scratch)).items():
                if answer:
                    if answer not in messages:
                        messages.append(answer)
                    rows[mnemonic][messages.index(answer)].append(index)
    header = {"source": f"{args.llvm_mc} (implicit registers left out; scripts/gen_implicit_operands.py)",
              "configurations": configurations, "messages": messages}
    with OUT.open("w") as out:
        out.write(json.dumps(header, separators=(",", ":")) + "\n")
        for name in sorted(rows):
            out.write(json.dumps([name, sorted(rows[name].items())], separators=(",", ":")) + "\n")
    print(f"{OUT}: {len(rows)} mnemonics, {len(messages)} messages", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
