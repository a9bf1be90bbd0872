"""Generate lint/records_precompiled.py: the methods `record` makes (each record's `__init__`, and the
comparison and hash of the records that ask for compiled ones), compiled ahead.

`record` makes each method from a source text on first use; compiling one costs ~100 µs, ~10 ms of a
small file's run. Filed under its source text in a module, a method loads with the module's bytecode
instead. A record whose fields change has a new text, not in the file until this runs again: it compiles
its own meanwhile (the suite runs this with --check).

Usage: python scripts/gen_record_methods.py [--check]
"""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

from generated import write_or_check

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "lint" / "records_precompiled.py"
_HEADER = '''"""The methods `record` makes, compiled ahead: written by scripts/gen_record_methods.py (do not edit).

`MAKERS` files each `__make__` under the source text `records.maker` would compile it from."""
'''


def record_sources() -> list[str]:
    """The method sources of every record in the package (every module imported: the optional dependencies
    the test extra installs too), sorted."""
    import amdgpu_lint
    from amdgpu_lint.records import METHOD_SOURCES

    for package in (amdgpu_lint, importlib.import_module("amdgpu_lint.rules")):
        for module in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            importlib.import_module(module.name)
    return sorted(METHOD_SOURCES)


def generate() -> str:
    parts, entries = [_HEADER], []
    for number, source in enumerate(record_sources()):
        parts.append("\n" + source.replace("def __make__(", f"def _make_{number}(", 1))
        entries.append(f"    {source!r}: _make_{number},\n")
    return "".join(parts) + "\n\nMAKERS = {\n" + "".join(entries) + "}\n"


def main() -> int:
    return write_or_check(__doc__.splitlines()[0], OUT, generate, lambda text: f"{text.count('def _make_')} methods")


if __name__ == "__main__":
    raise SystemExit(main())
