"""Per-instruction def/use for a kernel, on its target and wave size."""

from __future__ import annotations

from dataclasses import dataclass

from ..isa import banks
from ..isa.defuse import DefUse, def_use
from ..model.ir import Instruction, Kernel, Module
from ..model.memo import Remembered
from ..model.nodes import Reg, SpecialReg, Sym
from ..model.targets import Target
from .cfg import is_branch
from .manager import Analysis, AnalysisManager

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .cfg import ControlFlowGraph
    from .hazards import Facts
    from .initialized import ByteWidths, FlowBits
    from .latency import LatencyTable
    from .rdna_hazards import RdnaFacts
    from .waitcnt import WaitFacts


def through_private_segment(instruction: Instruction) -> bool:
    """A scratch access (a spill, a reload, a stack object): `scratch_*`, or a buffer access through s[0:3],
    where LLVM keeps the private segment buffer on targets without flat scratch."""
    if instruction.mnemonic.startswith("scratch_"):
        return True
    if not instruction.mnemonic.startswith("buffer_") or len(instruction.operands) < 3:
        return False
    resource = instruction.operands[2]
    return isinstance(resource, Reg) and resource.kind == "s" and resource.index == 0 and resource.count == 4


def kernel_wave_size(module: Module, kernel: Kernel) -> tuple[int, bool]:
    """(wave size, whether it is known): as declared, else from the code; else the target's default, a guess
    where the target has both."""
    declared = declared_wave_size(module, kernel)
    if declared is not None:
        return declared, True
    assert module.target is not None
    shown = _wave_size_of_code(kernel)
    return (shown, True) if shown else (module.target.default_wave_size, False)


def declared_wave_size(module: Module, kernel: Kernel) -> int | None:
    """The wave size the metadata, else the descriptor, else the target declares; None where only the code
    may suggest one."""
    if kernel.metadata and kernel.metadata.get(".wavefront_size") in (32, 64):
        return kernel.metadata[".wavefront_size"]
    if kernel.descriptor.get("wavefront_size32") in (0, 1):
        return 32 if kernel.descriptor["wavefront_size32"] else 64
    if module.target is None:
        return 64
    if len(module.target.wave_sizes) == 1 or "wavefrontsize64" in module.target.features:
        return module.target.default_wave_size  # one wave size, or the processor's features name it
    return None


def _wave_size_of_code(kernel: Kernel) -> int | None:
    """Where both wave sizes exist and nothing declares one (PAL and Mesa listings, -mattr=+wavefrontsize64):
    wave64 code names the whole `vcc`/`exec`, wave32 code their low halves (as LLVM prints them)."""
    names = {operand.name for instruction in kernel.instructions for operand in instruction.operands
             if isinstance(operand, SpecialReg)}
    whole, halves = bool(names & {"vcc", "exec"}), bool(names & {"vcc_lo", "exec_lo"})
    if whole != halves:
        return 64 if whole else 32
    return None


@dataclass(slots=True, eq=False, repr=False, init=False)
class InstructionFacts:
    """One distinct instruction (mnemonic, operands, modifiers, VOPD half) on one target and wave size:
    its def/use and what the analyses derive from it, computed once and shared by every occurrence."""

    info: DefUse
    hazard: Facts | None = None  # the hazard rows' view (hazards.py)
    rdna: RdnaFacts | None = None  # the RDNA hazard rows' view (rdna_hazards.py)
    waits: WaitFacts | None = None  # the wait walk's view (waitcnt.py)
    #: (numbering, uses, defs, how it moves written values, the bytes it writes or reads where it names them) in
    #: the register bits of initialized.py
    registers: tuple[int, int, int, FlowBits | None, ByteWidths | None] | None = None
    extent: RegisterExtent | None = None  # see register_extent
    cycles: tuple[LatencyTable, int] | None = None  # issue cycles, with the latency table they are from (prefetch.py)
    #: ((llvm-mc configurations, those lane masks are judged on), its message or None) for the mnemonic, special
    #: registers, modifiers and operand kinds (rules/unknown_instruction.py)
    assembler_verdict: tuple[tuple[tuple[int, ...], tuple[int, ...]], str | None] | None = None

    def __init__(self, info: DefUse, hazard: Facts | None = None, rdna: RdnaFacts | None = None,
                 waits: WaitFacts | None = None,
                 registers: tuple[int, int, int, FlowBits | None, ByteWidths | None] | None = None,
                 extent: RegisterExtent | None = None, cycles: tuple[LatencyTable, int] | None = None,
                 assembler_verdict: tuple[tuple[tuple[int, ...], tuple[int, ...]], str | None] | None = None) -> None:
        self.info = info
        self.hazard = hazard
        self.rdna = rdna
        self.waits = waits
        self.registers = registers
        self.extent = extent
        self.cycles = cycles
        self.assembler_verdict = assembler_verdict


#: One past the highest VGPR, AGPR and SGPR an instruction names (0: none), and whether it names
#: VCC or FLAT_SCRATCH.
RegisterExtent = tuple[int, int, int, bool, bool]
NO_REGISTERS: RegisterExtent = (0, 0, 0, False, False)


def register_extent(shared: InstructionFacts) -> RegisterExtent:
    """The registers the instruction reads or writes, summed up once per shared facts."""
    if shared.extent is None:
        highest = {"v": 0, "a": 0, "s": 0}
        vcc = flat_scratch = False
        for kind, index in shared.info.defs | shared.info.uses:
            if kind in highest:
                highest[kind] = max(highest[kind], index + 1)
            elif kind == "vcc":
                vcc = True
            elif kind == "flat_scratch":
                flat_scratch = True
        shared.extent = (highest["v"], highest["a"], highest["s"], vcc, flat_scratch)
    return shared.extent


class _Interned:
    """Facts by instruction content for one target, wave size and either-wave flag (at most 2 * LIMIT of
    them, `Remembered`). Kernels keep the facts they hold.

    `parsed` finds them first by the identity of the operand and modifier tuples (the parser shares them
    between identical statement texts), which needs no hash of the operand nodes; it keeps those tuples,
    so that their ids stay theirs, and at most LIMIT entries."""

    LIMIT = 2048

    def __init__(self) -> None:
        self.by_content: Remembered[tuple, InstructionFacts] = Remembered(self.LIMIT)
        self.parsed: dict[tuple[str, int, int], tuple[tuple, tuple, InstructionFacts]] = {}


_interned: dict[tuple[Target, int, bool], _Interned] = {}
#: A branch's label in facts keys: where a branch goes changes none of its facts, and compiler output has a
#: distinct branch text for every label (a fifth of a listing's distinct instructions)
_ANY_LABEL = object()


def _facts_of(instruction: Instruction, target: Target, wave: int, either: bool, table: _Interned) -> InstructionFacts:
    operands, modifiers, pair = instruction.operands, instruction.modifiers, instruction.pair
    if pair is None:
        seen = table.parsed.get((instruction.mnemonic, id(operands), id(modifiers)))
        if seen is not None and seen[0] is operands and seen[1] is modifiers:
            return seen[2]
    key: tuple
    if pair is None and len(operands) == 1 and type(operands[0]) is Sym and not modifiers and is_branch(instruction.mnemonic):
        key = (instruction.mnemonic, _ANY_LABEL)
    else:
        key = (instruction.mnemonic, operands, modifiers,
               (pair.mnemonic, pair.operands, pair.modifiers) if pair is not None else None)
    facts = table.by_content.get(key)
    if facts is None:
        info = def_use(instruction.mnemonic, operands, modifiers, target, wave, either)
        if pair is not None:
            second = def_use(pair.mnemonic, pair.operands, pair.modifiers, target, wave, either)
            info = DefUse(info.defs | second.defs, info.uses | second.uses, info.klass, info.variant,
                          info.problem or second.problem, info.preserved | second.preserved,
                          info.missing + second.missing)
        facts = table.by_content.add(key, InstructionFacts(info))
    if pair is None:
        if len(table.parsed) >= table.LIMIT:
            table.parsed.clear()
        table.parsed[instruction.mnemonic, id(operands), id(modifiers)] = (operands, modifiers, facts)
    return facts


@dataclass(slots=True, repr=False, eq=False, init=False)
class KernelDefUse:
    """Def/use sets and shared facts of every instruction of a kernel."""

    wave_size: int
    per_instruction: list[DefUse]  # aligned with kernel.instructions (VOPD halves merged)
    facts: list[InstructionFacts]  # aligned likewise; content-equal instructions share one
    #: the instructions as the hardware reads them: gfx1250's VGPRs renamed by the `s_set_vgpr_msb` mode
    #: (isa/banks.py); kernel.instructions where nothing is renamed
    instructions: list[Instruction]
    #: where paths with different `s_set_vgpr_msb` modes meet, or a mode is not a number: the VGPRs of
    #: the instructions there are not known (they keep the numbers they are written with)
    banks_unknown: bool = False

    def __init__(self, wave_size: int, per_instruction: list[DefUse], facts: list[InstructionFacts],
                 instructions: list[Instruction], banks_unknown: bool = False) -> None:
        self.wave_size = wave_size
        self.per_instruction = per_instruction
        self.facts = facts
        self.instructions = instructions
        self.banks_unknown = banks_unknown


class EncodedDefUseAnalysis(Analysis):
    """Def/use of the instructions as written (gfx1250's VGPR banks not applied); None without a target.
    The CFG's sizes come from it; everything else asks DefUseAnalysis."""

    name = "def-use-encoded"

    @classmethod
    def run(cls, kernel: Kernel, manager: AnalysisManager) -> KernelDefUse | None:
        module = manager.module
        target = module.target
        if target is None:
            return None
        wave, known = kernel_wave_size(module, kernel)
        either = not known  # operand widths of either wave size are fine
        table = _table(target, wave, either)
        facts = [_facts_of(instruction, target, wave, either, table) for instruction in kernel.instructions]
        return KernelDefUse(wave, [entry.info for entry in facts], facts, kernel.instructions)


def _table(target: Target, wave: int, either: bool) -> _Interned:
    table = _interned.get((target, wave, either))
    if table is None:
        table = _interned[target, wave, either] = _Interned()
    return table


class DefUseAnalysis(Analysis):
    """What every instruction of the kernel reads and writes, in the registers it really names (gfx1250:
    through `s_set_vgpr_msb`); None when the target is unknown."""

    name = "def-use"

    @classmethod
    def run(cls, kernel: Kernel, manager: AnalysisManager) -> KernelDefUse | None:
        target = manager.module.target
        if target is None or not target.is_gfx1250 or not any(
                instruction.mnemonic == banks.MNEMONIC for instruction in kernel.instructions):
            return manager.get(EncodedDefUseAnalysis)
        from .cfg import CFGAnalysis

        modes = _bank_modes(kernel, manager.get(CFGAnalysis))
        wave, known = kernel_wave_size(manager.module, kernel)
        table = _table(target, wave, not known)
        instructions = [banks.in_bank(instruction, mode, target) if mode else instruction
                        for instruction, mode in zip(kernel.instructions, modes, strict=True)]
        facts = [_facts_of(instruction, target, wave, not known, table) for instruction in instructions]
        return KernelDefUse(wave, [entry.info for entry in facts], facts, instructions, None in modes)


def _bank_modes(kernel: Kernel, cfg: ControlFlowGraph) -> list[int | None]:
    """The `s_set_vgpr_msb` mode each instruction runs under: 0 at the start (as a wave starts, and as LLVM
    leaves it at every branch; blocks nothing reaches as well), then the last one set on every path; None where
    paths bring different modes."""
    instructions = kernel.instructions
    modes: list[int | None] = [0] * len(instructions)
    unreached = -1
    entry: list[int | None] = [0 if not block.predecessors else unreached for block in cfg.blocks]
    if entry:
        entry[0] = 0
    pending = [number for number, mode in enumerate(entry) if mode != unreached]
    while pending:
        number = pending.pop()
        mode = entry[number]
        start = cfg.starts[number]
        for index in range(start, start + len(cfg.blocks[number].instructions)):
            modes[index] = mode
            if instructions[index].mnemonic == banks.MNEMONIC:
                mode = banks.set_mode(instructions[index])
        for successor in cfg.blocks[number].successors:
            old = entry[successor]
            new = mode if old in (unreached, mode) else None
            if new != old:
                entry[successor] = new
                pending.append(successor)
    return modes
