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


@dataclass(slots=True, repr=False, init=False, eq=False)
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

    def __init__(self, mcpu: str | None = None, include_dirs: list[str] | None = None,
                 defsyms: dict[str, Value] | None = None, statement_budget: int = DEFAULT_STATEMENT_BUDGET,
                 expansion_budget: int = DEFAULT_EXPANSION_BUDGET, wg_size: tuple[int, int] | None = None,
                 launch: Launch | None = None, min_waves: int | None = None, baseline: dict[str, Any] | None = None,
                 latency_table: str | None = None, launch_lds: int | None = None, locations: str = "source",
                 compiler: str | None = None, compile_flags: tuple[str, ...] = (), hip_suffixes: tuple[str, ...] = (),
                 input_notes: tuple[str, ...] = (), assembler: Assembler | None = None,
                 assembler_compat: str | None = None) -> None:
        self.mcpu = mcpu
        self.include_dirs = [] if include_dirs is None else include_dirs
        self.defsyms = {} if defsyms is None else defsyms
        self.statement_budget = statement_budget
        self.expansion_budget = expansion_budget
        self.wg_size = wg_size
        self.launch = launch
        self.min_waves = min_waves
        self.baseline = baseline
        self.latency_table = latency_table
        self.launch_lds = launch_lds
        self.locations = locations
        self.compiler = compiler
        self.compile_flags = compile_flags
        self.hip_suffixes = hip_suffixes
        self.input_notes = input_notes
        self.assembler = assembler
        self.assembler_compat = assembler_compat

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BuildOptions) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.mcpu, self.include_dirs, self.defsyms, self.statement_budget, self.expansion_budget, self.wg_size,
            self.launch, self.min_waves, self.baseline, self.latency_table, self.launch_lds, self.locations,
            self.compiler, self.compile_flags, self.hip_suffixes, self.input_notes, self.assembler,
            self.assembler_compat) == (
            other.mcpu, other.include_dirs, other.defsyms, other.statement_budget, other.expansion_budget,
            other.wg_size, other.launch, other.min_waves, other.baseline, other.latency_table, other.launch_lds,
            other.locations, other.compiler, other.compile_flags, other.hip_suffixes, other.input_notes,
            other.assembler, other.assembler_compat)

    def __repr__(self) -> str:
        return (f"{self.__class__.__qualname__}(mcpu={self.mcpu!r}, include_dirs={self.include_dirs!r}, "
                f"defsyms={self.defsyms!r}, statement_budget={self.statement_budget!r}, "
                f"expansion_budget={self.expansion_budget!r}, wg_size={self.wg_size!r}, launch={self.launch!r}, "
                f"min_waves={self.min_waves!r}, baseline={self.baseline!r}, latency_table={self.latency_table!r}, "
                f"launch_lds={self.launch_lds!r}, locations={self.locations!r}, compiler={self.compiler!r}, "
                f"compile_flags={self.compile_flags!r}, hip_suffixes={self.hip_suffixes!r}, "
                f"input_notes={self.input_notes!r}, assembler={self.assembler!r}, "
                f"assembler_compat={self.assembler_compat!r})")


def is_other_input(path: Path) -> bool:
    """LLVM IR, a code object, a Triton entry or a HIP/OpenCL source: turned into assembly before it is linted."""
    return path.suffix in INPUT_SUFFIXES


def is_source_input(path: Path, options: BuildOptions) -> bool:
    """A HIP or OpenCL source (compiled before it is linted)."""
    return path.suffix in SOURCE_SUFFIXES or path.suffix in options.hip_suffixes
