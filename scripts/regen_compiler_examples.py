"""Regenerate fixtures/examples/compiler/*.s from IR in fixtures/ with llvmlite's LLVM.

Usage: python scripts/regen_compiler_examples.py
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = {"llvm/loop_saxpy.ll": "gfx942", "llvm/lds_reduce.ll": "gfx1100", "llvm/mfma_gemm.ll": "gfx90a",
            "races/lds_barrier_without_fence.ll": "gfx1100"}


def main() -> int:
    sys.path.insert(0, str(ROOT / "tests"))
    from llvm_oracle import compile_ir

    for name, cpu in EXAMPLES.items():
        source = ROOT / "fixtures" / name
        output = ROOT / "fixtures" / "examples" / "compiler" / f"{source.stem}_{cpu}.s"
        output.write_text(compile_ir(source.read_text(), cpu))
        print(f"wrote {output.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
