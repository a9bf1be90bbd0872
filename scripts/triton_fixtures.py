"""Write fixtures/triton/add/: what PyPI's Triton makes of add.py for AMD targets, without a GPU.

Needs the optional extra (`pip install -e '.[triton]'`). For each target: the `.amdgcn` listing (with its
`.file`/`.loc` lines into add.py, the directory written as `TRITON_SOURCE_DIR` so that a test can point it at a
copy) and the cache entry's `.json` fields the linter reads (target, num_warps, shared, name).

Usage: python scripts/triton_fixtures.py
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent / "fixtures" / "triton" / "add"
TARGETS = (("gfx942", 64), ("gfx1100", 32))
PLACEHOLDER = "TRITON_SOURCE_DIR"


def main() -> int:
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource

    sys.path.insert(0, str(HERE))
    from add import add_kernel

    signature = {"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"}
    for arch, warp_size in TARGETS:
        compiled = triton.compile(ASTSource(fn=add_kernel, signature=signature, constexprs={"BLOCK": 1024}),
                                  target=GPUTarget("hip", arch, warp_size))
        # the directory of add.py as Triton saw it (its cache may hold another checkout's): a placeholder
        listing = re.sub(r'(\.file\s+\d+\s+)"[^"]*"(\s+"add\.py")', rf'\1"{PLACEHOLDER}"\2', compiled.asm["amdgcn"])
        (HERE / f"add_kernel.{arch}.amdgcn").write_text(listing)
        entry = {"name": compiled.metadata.name, "target": {"backend": "hip", "arch": arch, "warp_size": warp_size},
                 "num_warps": compiled.metadata.num_warps, "shared": compiled.metadata.shared,
                 "triton_version": triton.__version__}
        (HERE / f"add_kernel.{arch}.json").write_text(json.dumps(entry, indent=1) + "\n")
        print(f"wrote add_kernel.{arch}.amdgcn and .json")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
