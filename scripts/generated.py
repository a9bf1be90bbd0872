"""What the scripts that write a generated module share: write it, or with --check tell whether it is current."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path


def write_or_check(description: str, out: Path, generate: Callable[[], str], summary: Callable[[str], str]) -> int:
    """Write `generate()` to `out` and print `summary` of it; with --check, exit 1 when `out` differs from it."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--check", action="store_true", help="exit 1 when the file differs from a fresh generation")
    args = parser.parse_args()
    text = generate()
    if args.check:
        if not out.is_file() or out.read_text() != text:
            print(f"{out} differs from a fresh generation: run scripts/{Path(sys.argv[0]).name}", file=sys.stderr)
            return 1
        return 0
    out.write_text(text)
    print(f"{out.name}: {summary(text)}")
    return 0
