"""Generate lint/patterns_precompiled.py: the engine code of the package's regular expressions, compiled ahead.

`patterns.compiled` hands a pattern's code to the regular-expression engine instead of compiling it (~150 µs
each). The code is this Python's engine's (`_sre.MAGIC`), for every pattern the package compiles when its
modules are imported and when it lints the bundled compiler listings. A pattern not in the file compiles as
usual until this runs again (the suite runs this with --check), as does every pattern on another engine.

Usage: python scripts/gen_pattern_code.py [--check]
"""

from __future__ import annotations

import _sre
import importlib
import pkgutil
from pathlib import Path

from generated import write_or_check

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "lint" / "patterns_precompiled.py"
LISTINGS = ROOT / "fixtures" / "examples" / "compiler"
_HEADER = '''"""Engine code of the package's regular expressions: written by scripts/gen_pattern_code.py (do not edit).

`CODE` files what `re.compile` hands the engine after the pattern (flags, code, groups, group index, index
group) under (pattern, flags); `ENGINE` is the engine version (`_sre.MAGIC`) the code is for."""
'''


def pattern_sources() -> list[tuple[str, int]]:
    """(pattern, flags) of every pattern `compiled` is asked for: every module imported, the listings linted."""
    import amdgpu_lint
    from amdgpu_lint.driver.linter import lint_file
    from amdgpu_lint.frontend.builder import BuildOptions
    from amdgpu_lint.patterns import PATTERN_SOURCES
    from amdgpu_lint.rules import RULES

    for package in (amdgpu_lint, importlib.import_module("amdgpu_lint.rules")):
        for module in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            importlib.import_module(module.name)
    for listing in sorted(LISTINGS.glob("*.s")):
        lint_file(listing, BuildOptions(), list(RULES), keep_module=False)  # as `check` lints
    return sorted(PATTERN_SOURCES)


def generate() -> str:
    from amdgpu_lint.patterns import engine_code

    entries = "".join(f"    {key!r}: {engine_code(*key)!r},\n" for key in pattern_sources())
    return f"{_HEADER}\nENGINE = {_sre.MAGIC}\n\nCODE = {{\n{entries}}}\n"


def main() -> int:
    return write_or_check(__doc__.splitlines()[0], OUT, generate, lambda text: f"{text.count(chr(10) + '    (')} patterns")


if __name__ == "__main__":
    raise SystemExit(main())
