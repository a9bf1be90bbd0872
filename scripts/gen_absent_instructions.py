"""Generate lint/isa/tables/absent.json: the instructions of a neighbour's table a processor lacks, by asking llvm-mc.

gfx1250 and gfx1251 are read with gfx12's table (LLVM documents them through it). llvm-mc says which of its
mnemonics they lack: a mnemonic alone on a line gives "instruction not supported on this GPU" when the processor
has no form of it, and an operand error when it has one. The table lists the former per processor.

Usage: python scripts/gen_absent_instructions.py [--llvm-mc llvm-mc-22] [--check]
  --check compares a fresh probe with the committed table and exits 1 on a difference.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TABLES = ROOT / "lint" / "isa" / "tables"
OUT = TABLES / "absent.json"
#: processor -> the table page it is read with
PROBED = {"gfx1250": "gfx12", "gfx1251": "gfx12"}
_UNSUPPORTED = re.compile(r"^<stdin>:(\d+):\d+: error: instruction not supported on this GPU$", re.M)


def mnemonics(page: str) -> list[str]:
    lines = (TABLES / f"{page}.jsonl").read_text().splitlines()[1:]
    return [json.loads(line)[0] for line in lines]


def absent(llvm_mc: str, processor: str, names: list[str]) -> list[str]:
    run = subprocess.run([llvm_mc, "--triple=amdgcn-amd-amdhsa", f"--mcpu={processor}", "-o", "/dev/null"],
                         input="\n".join(names) + "\n", capture_output=True, text=True, check=False)
    return sorted(names[int(line) - 1] for line in _UNSUPPORTED.findall(run.stderr))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--llvm-mc", default="llvm-mc-22")
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    table = {processor: absent(args.llvm_mc, processor, mnemonics(page)) for processor, page in PROBED.items()}
    text = json.dumps(table, indent=0, sort_keys=True) + "\n"
    if args.check:
        same = OUT.is_file() and OUT.read_text() == text
        print("absent.json is up to date" if same else "absent.json differs from a fresh probe", file=sys.stderr)
        return 0 if same else 1
    OUT.write_text(text)
    print(f"wrote {OUT} ({', '.join(f'{p}: {len(n)}' for p, n in table.items())})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
