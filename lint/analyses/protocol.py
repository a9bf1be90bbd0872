"""What the type checker knows of an analysis class: `AnalysisManager.get` returns what the class's `run` returns, so
compiled code reads a result's fields directly rather than by name. Imported under `TYPE_CHECKING` only (mypyc
compiles no class inside an `if`, and the run-time `typing.Protocol` is an import a check does not need)."""

from __future__ import annotations

from typing import Protocol, TypeVar

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..model.ir import Kernel
    from .manager import AnalysisManager

Result_co = TypeVar("Result_co", covariant=True)


class Runs(Protocol[Result_co]):
    """An analysis class, as `AnalysisManager.get` takes it."""

    name: str

    def run(self, kernel: Kernel, manager: AnalysisManager) -> Result_co: ...
