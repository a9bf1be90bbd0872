"""## What it finds
An inline suppression (`; amdgpu-lint: disable=...`, `disable-next-line=`, `disable-file=`) that
silences nothing, including one that names a rule that does not exist.

## Why it matters
Stale suppressions hide the next real finding on that line, and a misspelt rule name means the
finding you meant to silence is still reported somewhere.

## Example
```
s_waitcnt vmcnt(0)   ; amdgpu-lint: disable=missing-wiat
```

## How to fix
Remove the comment, or correct the rule name (`amdgpu-lint rules` lists them).
"""

from collections.abc import Iterator

from amdgpu_lint.driver.rule import ModuleContext
from amdgpu_lint.model.diagnostics import Diagnostic, Severity
from amdgpu_lint.model.ir import Provenance

CODE = "AGL901"
NAME = "unused-suppression"
SEVERITY = Severity.WARNING
SUMMARY = "inline suppression that silences nothing"
SCOPE = "suppressions"


def check(context: ModuleContext, unused=(), known=frozenset()) -> Iterator[Diagnostic]:
    for directive in unused:
        unknown = [rule for rule in directive.rules if rule.lower() not in known and rule.upper() not in known and rule != "all"]
        detail = f"no rule is named {', '.join(repr(r) for r in unknown)}" if unknown else "nothing here is reported by it"
        yield context.diagnostic(
            Provenance(directive.path, directive.line, directive.column),
            f"suppression '{directive.kind}={','.join(directive.rules)}' silences nothing: {detail}",
        )
