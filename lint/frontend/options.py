"""How to read and lint one file (`BuildOptions`): the settings the driver makes and the front end and analyses read,
in a module of their own, which the driver imports before it needs the front end."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..model.devices import Launch

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from ..model.expr import Value
    from .assembler import Assembler

#: What other inputs than assembly are, by suffix (`frontend/inputs.py` turns them into assembly).
IR_SUFFIXES = (".ll", ".bc")
CODE_OBJECT_SUFFIXES = (".o", ".hsaco", ".co")
TRITON_SUFFIX = ".amdgcn"
SOURCE_SUFFIXES = (".hip", ".cl")  # compiled first (frontend/compile.py); more by `hip-suffixes`
INPUT_SUFFIXES = IR_SUFFIXES + CODE_OBJECT_SUFFIXES + (TRITON_SUFFIX,) + SOURCE_SUFFIXES
#: Upper bound on the statements of one input file, its own lines and what expansion makes.
DEFAULT_STATEMENT_BUDGET = 4_000_000
#: Upper bound on the statements `.rept`, `.irp` and macro expansions make in one input file: seven lines of
#: nested `.rept` make millions, and a statement costs about 200 bytes once built (1M: ~200 MB).
DEFAULT_EXPANSION_BUDGET = 1_000_000


@dataclass(slots=True)
class BuildOptions:
    """How to read a file, and the launch facts the analyses need when the kernel does not say."""

    mcpu: str | None = None
    include_dirs: list[str] = field(default_factory=list)
    defsyms: dict[str, Value] = field(default_factory=dict)
    statement_budget: int = DEFAULT_STATEMENT_BUDGET  # statements per file, its own and what expansion makes
    expansion_budget: int = DEFAULT_EXPANSION_BUDGET  # statements `.rept`, `.irp` and macros may make per file
    wg_size: tuple[int, int] | None = None  # launch work-group sizes (smallest, largest), overriding the kernel's
    launch: Launch | None = None  # grid and device, for the launch-fill analysis
    min_waves: int | None = None  # occupancy every kernel should reach
    baseline: dict[str, Any] | None = None  # `amdgpu-lint baseline` snapshot, keyed "path::kernel"
    latency_table: str | None = None  # JSON file overriding latency-table entries
    launch_lds: int | None = None  # dynamic LDS bytes requested at launch (a Triton entry's "shared"), beyond the static
    locations: str = "source"  # "source": findings on a -g listing go to the source lines; "listing": they stay
    compiler: str | None = None  # for HIP/OpenCL inputs: the compiler the user chose (None: found in the usual order)
    compile_flags: tuple[str, ...] = ()  # the configuration's flags for HIP/OpenCL inputs
    hip_suffixes: tuple[str, ...] = ()  # suffixes compiled as HIP besides .hip
    input_notes: tuple[str, ...] = ()  # what choosing them left out (a repository's compiler, refused flags)
    assembler: Assembler | None = None  # the user's assembler, run on assembly files alongside the lint
    #: whose reading of the macro language: "llvm22", "llvm14", or None (LLVM 14's once a code object v2
    #: directive is assembled)
    assembler_compat: str | None = None


def is_other_input(path: Path) -> bool:
    """LLVM IR, a code object, a Triton entry or a HIP/OpenCL source: turned into assembly before it is linted."""
    return path.suffix in INPUT_SUFFIXES


def is_source_input(path: Path, options: BuildOptions) -> bool:
    """A HIP or OpenCL source (compiled before it is linted)."""
    return path.suffix in SOURCE_SUFFIXES or path.suffix in options.hip_suffixes
