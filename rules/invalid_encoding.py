"""## What it finds
Files that are not valid UTF-8 (often a Latin-1 author name or a copied symbol in a comment).

## Why it matters
Tools disagree about how to read such bytes; editors and CI annotations may show garbage, and
a stray byte in an instruction line makes the assembler fail. amdgpu-lint reads the file as
Latin-1 and carries on.

## Example
A comment containing byte 0xE9 (`é` in Latin-1).

## How to fix
Re-save the file as UTF-8 (`iconv -f latin1 -t utf-8`).
"""

from collections.abc import Iterator

from amdgpu_lint.driver.rule import ModuleContext
from amdgpu_lint.model.diagnostics import Diagnostic, Severity

CODE = "AGL005"
NAME = "invalid-encoding"
SEVERITY = Severity.WARNING
SUMMARY = "file is not valid UTF-8"


def check(context: ModuleContext) -> Iterator[Diagnostic]:
    yield from context.report_findings()
