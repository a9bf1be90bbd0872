"""The language server in a real editor (a measurement, not a test): headless Neovim, configured as
the README says, opens a generated gfx942 file of 2k and 20k lines; prints the time from starting
Neovim to the first diagnostics, the hover latency when idle, and the hover latencies while the
server re-lints after an edit (hovers sent every 20 ms until the new diagnostics arrive).

Usage: python bench/lsp_timings.py [--lines 2000,20000]   (needs nvim on PATH)
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))


def main() -> None:
    from test_lsp_neovim import run_neovim

    from bench import build_file

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", default="2000,20000")
    args = parser.parse_args()
    for lines in (int(n) for n in args.lines.split(",")):
        with tempfile.TemporaryDirectory() as directory:
            path = Path(directory) / f"lsp-{lines}.s"
            text = build_file(lines)
            path.write_text(text)
            label = next(n for n, line in enumerate(text.splitlines()) if line.endswith(":") and not line.startswith("."))
            result = run_neovim(path, hover_line=label, action_line=-1, home=Path(directory) / "nvim")
            during = result["hover_latencies_ms"]
            print(f"{text.count(chr(10))} lines: first diagnostics {result['first_diagnostics_ms']:.0f} ms after starting "
                  f"Neovim ({len(result['diagnostics'])} findings); hover {result['hover_ms']:.1f} ms idle; "
                  f"re-lint after an edit {result['relint_ms']:.0f} ms, {len(during)} hovers meanwhile: median "
                  f"{statistics.median(during):.1f} ms, max {max(during):.1f} ms; server exit {result['exit']}")


if __name__ == "__main__":
    main()
