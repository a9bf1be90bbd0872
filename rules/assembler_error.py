"""## What it finds
Every error (and, as warnings, every warning) the user's assembler gives on the file: llvm-mc run on the
text as amdgpu-lint reads it (target and features from `.amdgcn_target` or `--mcpu`, the include
directories, `--defsym`), alongside the lint. A message inside a macro, `.rept` or `.include` is at the
outermost line of the file (the macro call, the `.rept`, the `.include`), its steps as notes.

The assembler is the one named with `--assembler PATH`, `$AMDGPU_LINT_ASSEMBLER` or `assembler =` in
your own configuration (`~/.config/amdgpu-lint/config.toml`; a repository's configuration never
chooses the program that runs), else ROCm's `llvm-mc` (`$ROCM_PATH/llvm/bin`, `/opt/rocm/llvm/bin`), else
the newest `llvm-mc-NN` on PATH; `--assembler none` turns it off. Without one, only amdgpu-lint's own
checks run: parse-error, unknown-directive, undefined-symbol, unknown-target, invalid-encoding and
unknown-instruction find what they know of (syntax, instruction names and operand forms per target,
symbols, directives); operand ranges, modifiers per encoding and what only the object writer checks
are left to the build. Assembly made from another input (LLVM IR, code objects, HIP) is not assembled
again. llvm-mc looks for an `.include` in its working directory (the file's) and the include
directories, not beside an included file: past an include it did not find, its messages are left
out (they may only say that a macro from it is missing).

## Why it matters
The build stops at the first of these; amdgpu-lint reports them all at once, in the editor too
(the language server assembles the unsaved buffer). Where amdgpu-lint reports the same line
itself (with its fix), the assembler's message is left out: one finding per line.

## Example
```
s_load_dwordx2 s[0:1], s[4:5], 0x100000   ; llvm-mc-22: expected a 21-bit signed offset
```

## How to fix
Correct the line as the assembler says. If the assembler is not the one the build uses, name
the right one with `--assembler` or `assembler =` in your own configuration.
"""

from collections.abc import Iterator

from amdgpu_lint.driver.rule import ModuleContext
from amdgpu_lint.frontend.assembler import RULE_CODE, RULE_NAME
from amdgpu_lint.model.diagnostics import Diagnostic, Note, Severity
from amdgpu_lint.model.ir import Provenance

CODE = RULE_CODE
NAME = RULE_NAME
SEVERITY = Severity.ERROR
SUMMARY = "the user's assembler rejects the line"
#: our findings that say the same as an assembler error on their line (the assembler's is then left out)
SAME_PROBLEM = frozenset(("parse-error", "unknown-directive", "undefined-symbol", "unknown-target", "invalid-encoding",
                          "unknown-instruction"))
#: ... and those whose errors do (a register the target does not have: register-budget's `ttmp12` on gfx8)
SAME_PROBLEM_AS_ERRORS = frozenset(("register-budget",))


def check(context: ModuleContext) -> Iterator[Diagnostic]:
    run = context.module.assembled
    if run is None:
        return
    assembler = context.module.options.assembler
    for message in run.messages():
        notes = tuple(Note(step.message, step.path, step.line, step.column, expansion=True) for step in message.steps)
        yield context.diagnostic(Provenance(context.module.path, message.line, message.column),
                                 f"{assembler.name}: {message.message}", notes=notes,
                                 severity=None if message.error else Severity.WARNING)


def outermost_line(diagnostic: Diagnostic, path: str) -> int | None:
    """The line of the file at `path` a finding is on: its own, or that of its outermost expansion step there."""
    line = diagnostic.line if diagnostic.path == path else None
    for note in diagnostic.notes:
        if note.expansion and note.path == path and note.line is not None:
            line = note.line
    return line


def deduplicated(diagnostics: list[Diagnostic], path: str) -> list[Diagnostic]:
    """`diagnostics` less the assembler's on a line of the file at `path` where one of ours says the same."""
    ours = {outermost_line(d, path) for d in diagnostics
            if d.name in SAME_PROBLEM or (d.name in SAME_PROBLEM_AS_ERRORS and d.severity == Severity.ERROR)}
    return [d for d in diagnostics if d.name != NAME or d.line not in ours]
