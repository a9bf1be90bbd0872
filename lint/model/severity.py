"""How serious a finding is: error, warning or info (a module of its own, which configuration reads without the
rest of the model)."""

from __future__ import annotations

from enum import IntEnum


class Severity(IntEnum):
    INFO = 0
    WARNING = 1
    ERROR = 2

    def __str__(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Severity:
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise ValueError(f"unknown severity '{text}' (use error, warning or info)") from None
