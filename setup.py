"""The build: pure Python by default; with AMDGPU_LINT_COMPILE=1 the hot modules are compiled with mypyc.

Everything else (the package layout, data files, entry points) is in pyproject.toml. The compiled build type-checks
the whole package with mypy (the settings in pyproject.toml) and compiles the modules named by COMPILED, less
PURE, into C extensions installed beside the .py files (which an import then skips). MYPYC_OPT_LEVEL (0-3, default
3) trades the C compiler's time against the code's speed.
"""

import os
import shutil
import sys
from pathlib import Path

from setuptools import setup

ROOT = Path(__file__).resolve().parent
# Globs under the package (lint/, with rules/ as rules/): the front end, the model and tables, the analyses, the driver
# with the rule runner, and the rules, which run on every kernel (a compiled module keeps no docstring: a rule's
# `explain` text is read from its source, installed beside it). The front doors (cli, lsp) and the output formats
# stay Python: they run once a command.
COMPILED = ("model/*.py", "isa/*.py", "frontend/*.py", "analyses/**/*.py", "driver/*.py", "rules/*.py")
PURE = (
    "driver/forks.py",  # an exception class deriving from RuntimeError, which mypyc cannot compile; runs once a file
    # Pickled by the result cache and by a forked copy: mypyc's frozen dataclasses cannot be unpickled (its
    # __setstate__ assigns each field). Findings are few; nothing per line is made here.
    "model/diagnostics.py",
    "model/severity.py",  # pickled with them
    # The shared __setattr__/__delattr__ of frozen value classes: a compiled function set on a class does not bind
    # to the instance as a method.
    "model/frozen.py",
    # Converting an input (LLVM IR, a code object, a source): once a file, and through untyped libraries (pyelftools,
    # msgpack, llvmlite), whose values a compiled module would check against mypy's guesses.
    "frontend/inputs.py",
    "frontend/compile.py",
    # The assembler a result names (FileResult.assembler) is pickled back from --jobs workers; its run is once a file.
    "frontend/assembler.py",
)


def _package_tree(base: Path) -> Path:
    """A copy of the package laid out as installed, under `base`: mypyc names a module by its path."""
    package = base / "amdgpu_lint"
    shutil.rmtree(base, ignore_errors=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.so", "*.pyd")
    shutil.copytree(ROOT / "lint", package, ignore=ignore)
    shutil.copytree(ROOT / "rules", package / "rules", ignore=ignore)
    shutil.copytree(ROOT / "grammars", package / "grammars", ignore=ignore)
    return package


def _building() -> bool:
    """Whether this run builds the package (pip also runs setup.py for its requirements and its metadata)."""
    return not {"egg_info", "dist_info"} & set(sys.argv)


def _forget_earlier_builds() -> None:
    """setuptools builds into build/lib* and packs all it finds there: an extension left by an earlier compiled build
    (another module list, or a pure build after a compiled one) would be installed beside the new code."""
    for built in Path(ROOT, "build").glob("lib*"):
        shutil.rmtree(built, ignore_errors=True)


def _compiled_extensions() -> list:
    try:
        from mypyc.build import mypycify
    except ImportError:
        raise SystemExit(f"AMDGPU_LINT_COMPILE=1 needs mypy (mypyc) where the package is built: pip install {' '.join(map(repr, BUILD_REQUIRES))}")
    os.chdir(ROOT)  # mypy reads its settings from pyproject.toml here
    package = _package_tree(Path("build", "mypyc-src"))
    chosen = {path for pattern in COMPILED for path in package.glob(pattern)}
    chosen -= {package / path for path in PURE}
    return mypycify([str(path) for path in sorted(chosen)], opt_level=os.environ.get("MYPYC_OPT_LEVEL", "3"),
                    target_dir=str(Path("build", "mypyc")))


COMPILE = os.environ.get("AMDGPU_LINT_COMPILE") == "1"
# What the compiled build installs into pip's isolated build environment: mypyc, and what mypy reads of the libraries
# the compiled modules import (lark ships its own types; PyYAML's are a stub package).
BUILD_REQUIRES = ["mypy>=2.4,<2.5", "lark>=1.1.9", "types-PyYAML"]
if _building():
    _forget_earlier_builds()
setup(
    ext_modules=_compiled_extensions() if COMPILE and _building() else [],
    setup_requires=BUILD_REQUIRES if COMPILE else [],
)
