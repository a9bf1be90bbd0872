"""The pass manager: analyses are computed once per kernel and cached; rules declare needs."""

from __future__ import annotations

from ..model.ir import Kernel, Module

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar

    from .protocol import Result_co, Runs


class Analysis:
    """Base class of kernel analyses. `run` computes the result; the manager caches it."""

    name: ClassVar[str] = ""

    @classmethod
    def run(cls, kernel: Kernel, manager: AnalysisManager) -> Any:
        raise NotImplementedError


class AnalysisManager:
    """Per-kernel cache of analysis results (LLVM's AnalysisManager in miniature)."""

    def __init__(self, module: Module, kernel: Kernel):
        self.module = module
        self.kernel = kernel
        self._results: dict[Runs[object], Any] = {}
        self._running: set[Runs[object]] = set()

    def get(self, analysis: Runs[Result_co]) -> Result_co:
        if analysis in self._results:
            return self._results[analysis]
        if analysis in self._running:
            raise RuntimeError(f"analysis '{analysis.name}' depends on itself")
        self._running.add(analysis)
        try:
            result = analysis.run(self.kernel, self)
        finally:
            self._running.discard(analysis)
        self._results[analysis] = result
        return result

    def computed(self) -> list[str]:
        return [analysis.name for analysis in self._results]
