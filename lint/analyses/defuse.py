"""Per-instruction def/use for a kernel, on its target and wave size."""

from __future__ import annotations

from dataclasses import dataclass

from ..ir import Kernel, Module
from ..isa.defuse import DefUse, def_use
from .manager import Analysis, AnalysisManager


def kernel_wave_size(module: Module, kernel: Kernel) -> int:
    """Wave size from the metadata, else the descriptor, else the target's default."""
    if kernel.metadata and kernel.metadata.get(".wavefront_size") in (32, 64):
        return kernel.metadata[".wavefront_size"]
    if kernel.descriptor.get("wavefront_size32") in (0, 1):
        return 32 if kernel.descriptor["wavefront_size32"] else 64
    return module.target.default_wave_size if module.target else 64


@dataclass
class KernelDefUse:
    wave_size: int
    per_instruction: list[DefUse]  # aligned with kernel.instructions (VOPD halves merged)


class DefUseAnalysis(Analysis):
    """What every instruction of the kernel reads and writes; None when the target is unknown."""

    name = "def-use"

    @classmethod
    def run(cls, kernel: Kernel, manager: AnalysisManager) -> KernelDefUse | None:
        module = manager.module
        target = module.target
        if target is None:
            return None
        wave = kernel_wave_size(module, kernel)
        results = []
        for instruction in kernel.instructions:
            info = def_use(instruction.mnemonic, instruction.operands, instruction.modifiers, target, wave)
            if instruction.pair is not None:
                pair = instruction.pair
                second = def_use(pair.mnemonic, pair.operands, pair.modifiers, target, wave)
                info = DefUse(info.defs | second.defs, info.uses | second.uses, info.klass, info.variant,
                              info.problem or second.problem, info.preserved | second.preserved)
            results.append(info)
        return KernelDefUse(wave, results)
