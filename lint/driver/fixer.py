"""`check --fix` and `--diff`: apply the fixes findings carry to the file they were found in.

A pass lints the file's text, applies the applicable fixes that can be made together (bottom-up, so the
positions of the rest stay true; per kernel those up to the first isolated one, none overlapping), and
lints the result again, until no fix applies or MAX_PASSES have run. A fix applies when its rule is
selected, it is safe (or unsafe with `--unsafe-fixes`), and its edits are plain lines of this file:
never a macro body, an included file or a generated listing.
Line endings, a byte-order mark and every untouched byte stay as they were; a file is written only
for `--fix`, through a temporary file in its directory renamed over it, with its permissions.
"""

from __future__ import annotations

import codecs
import difflib
import os
import re
import stat
import tempfile
from collections import Counter
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path

from ..frontend.source import MAX_FILE_BYTES, split_lines
from ..model.diagnostics import DISPLAY_ONLY, UNSAFE, Diagnostic, Edit, Fix, Note, Severity
from .linter import FileResult, lint_source
from .session import Flags, Job, in_processes, jobs_for, run_job

#: Lint-and-apply passes per file before giving up (a pass per isolated fix in a kernel, as ruff's cap).
MAX_PASSES = 100

_LINE = re.compile(r"([^\r\n]*)(\r\n|\r|\n|\Z)")


@dataclass(slots=True)
class FixedFile:
    """One input after fixing: the findings that remain, the text before and after, the fixes applied per rule
    and how many findings there were before."""

    result: FileResult
    original: str = ""
    fixed: str = ""
    applied: Counter[str] = field(default_factory=Counter)
    found: int = 0
    converged: bool = True
    bom: bool = False
    stamp: tuple[int, int] | None = None  # size and mtime when read: a file changed since is not overwritten

    @property
    def changed(self) -> bool:
        return self.fixed != self.original

    @property
    def fixes(self) -> int:
        """Fixes applied (one fix may settle several findings: nops after an MFMA cover every read of it)."""
        return sum(self.applied.values())

    @property
    def problems_fixed(self) -> int:
        """Findings gone (ruff's "fixed" count: found = fixed + remaining)."""
        return max(0, self.found - len(self.result.diagnostics)) if self.changed else 0


def applicable(diagnostic: Diagnostic, path: str, unsafe: bool) -> bool:
    """Whether --fix applies the diagnostic's fix to the file at `path`."""
    fix = diagnostic.fix
    return fix is not None and fix.applies(unsafe) and bool(fix.edits) and all(e.path == path for e in fix.edits)


def _lines(text: str) -> list[tuple[str, str]]:
    """(text, line ending) per line; a file without a final newline ends in a line with no ending."""
    lines = [(m.group(1), m.group(2)) for m in _LINE.finditer(text)]
    if lines and lines[-1] == ("", ""):
        lines.pop()
    return lines


def _fix(diagnostic: Diagnostic) -> Fix:
    """The fix of a diagnostic `applicable` kept (it has one)."""
    fix = diagnostic.fix
    assert fix is not None
    return fix


def _start(diagnostic: Diagnostic) -> tuple[int, int]:
    return min((e.line, e.column) for e in _fix(diagnostic).edits)


def _batch(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """Per kernel, the fixes one pass may make together, in file order: those up to the first isolated
    one (the rule reported the findings after it as if it were not made), or that one alone when first."""
    by_kernel: dict[str | None, list[Diagnostic]] = {}
    for diagnostic in sorted(diagnostics, key=_start):
        by_kernel.setdefault(diagnostic.kernel, []).append(diagnostic)
    batch = []
    for fixes in by_kernel.values():
        isolated = next((n for n, d in enumerate(fixes) if _fix(d).isolated), len(fixes))
        batch += fixes[:isolated] if isolated else fixes[:1]
    return batch


def _choose(diagnostics: list[Diagnostic], line_count: int) -> list[Diagnostic]:
    """Fixes to apply in one pass: a batch per kernel, and of those, in file order, each whose edits are
    inside the file and after the end of the last one chosen (two insertions at one place wait for the
    next pass, which sees the first)."""
    chosen: list[Diagnostic] = []
    last_end = (0, 0)
    for diagnostic in sorted(_batch(diagnostics), key=_start):
        edits = sorted(_fix(diagnostic).edits, key=lambda e: (e.line, e.column))
        if not all(1 <= e.line <= e.end_line <= line_count for e in edits):
            continue
        spans = [((e.line, e.column), (e.end_line, e.end_column)) for e in edits]
        if spans[0][0] <= last_end or any(spans[n + 1][0] <= spans[n][1] for n in range(len(spans) - 1)):
            continue
        chosen.append(diagnostic)
        last_end = max(end for _, end in spans)
    return chosen


def apply_edits(text: str, edits: list[Edit]) -> str:
    """`text` with non-overlapping `edits` applied; inserted lines take the line ending of the line they
    are inserted into (the file's most common one at its end), so every other line keeps its own."""
    lines = _lines(text)
    endings = Counter(ending for _, ending in lines if ending)
    common = endings.most_common(1)[0][0] if endings else "\n"
    for edit in sorted(edits, key=lambda e: (e.line, e.column), reverse=True):
        first, first_ending = lines[edit.line - 1]
        last, last_ending = lines[edit.end_line - 1]
        pieces = (first[: edit.column - 1] + edit.text.replace("\r\n", "\n") + last[edit.end_column - 1 :]).split("\n")
        ending = first_ending or common
        lines[edit.line - 1 : edit.end_line] = [(piece, ending) for piece in pieces[:-1]] + [(pieces[-1], last_ending)]
    return "".join(body + ending for body, ending in lines)


def _not_fixed_note(diagnostic: Diagnostic, path: str, unsafe: bool, converged: bool,
                    unfixable_file: str | None = None) -> Diagnostic:
    """A remaining finding whose fix --fix did not apply says why."""
    fix = diagnostic.fix
    if fix is None:
        return diagnostic
    if unfixable_file:
        why = unfixable_file
    elif fix.applicability == DISPLAY_ONLY or any(e.path != path for e in fix.edits):
        why = "its line comes from a macro, .rept or .include expansion; edit the source by hand"
    elif fix.applicability == UNSAFE and not unsafe:
        why = f"the fix is unsafe: {fix.description}; --unsafe-fixes applies it"
    elif not converged:
        why = f"fixing did not settle within {MAX_PASSES} passes"
    else:
        return diagnostic
    return replace(diagnostic, notes=diagnostic.notes + (Note(f"not fixed: {why}"),))


def fix_job(job: Job, unsafe: bool) -> list[FixedFile]:
    """Lint one input and fix it in memory. Only assembly read as UTF-8 is fixed; other inputs (IR, code
    objects, Triton listings, unreadable or binary files) are linted as `check` would."""
    from ..frontend.options import is_other_input
    from ..rules import BY_CODE

    path = job.path
    try:
        status = path.stat()
        data = path.read_bytes() if not is_other_input(path) and status.st_size <= MAX_FILE_BYTES else b""
        text = data.decode("utf-8-sig") if data and b"\0" not in data else None
    except (OSError, UnicodeDecodeError):
        text = None
    if text is None:
        why = ("the findings are in a listing made from this input, not in a file to edit" if is_other_input(path)
               else "the file is not UTF-8 text")
        results = run_job(job, keep_module=False)
        for result in results:
            result.diagnostics = [_not_fixed_note(d, "", unsafe, True, why) for d in result.diagnostics]
        return [FixedFile(result) for result in results]
    shown = str(path)
    rules = [BY_CODE[code] for code in job.rule_codes]
    settings = job.settings
    fixed, applied, converged, found = text, Counter[str](), False, 0
    for passes in range(MAX_PASSES + 1):
        result = lint_source(split_lines(shown, fixed), settings.options, rules, settings.selection)
        if passes == 0:
            found = len(result.diagnostics)
        fixable = [d for d in result.diagnostics if applicable(d, shown, unsafe)]
        converged = not fixable
        if converged or passes == MAX_PASSES:
            break
        chosen = _choose(fixable, len(_lines(fixed)))
        if not chosen:
            break
        fixed = apply_edits(fixed, [edit for d in chosen for edit in _fix(d).edits])
        applied.update(d.name for d in chosen)
    result.diagnostics = [_not_fixed_note(d, shown, unsafe, converged) for d in result.diagnostics]
    return [FixedFile(result.without_module(), text, fixed, applied, found, converged, data.startswith(codecs.BOM_UTF8),
                      (status.st_size, status.st_mtime_ns))]


def fix_paths(paths: list[str], flags: Flags, *, workers: int | None,
              unsafe: bool) -> tuple[list[FixedFile], list[Severity]]:
    """Every input fixed in memory (in worker processes when there are several), with its fail level."""
    unique: dict[Path, Job] = {}
    for job in jobs_for(paths, flags):
        unique.setdefault(job.path.resolve(), job)  # a file named twice is fixed once
    jobs = list(unique.values())
    per_job = in_processes(partial(fix_job, unsafe=unsafe), jobs, workers)
    files = [fixed for job_files in per_job for fixed in job_files]
    levels = [job.settings.fail_on for job, job_files in zip(jobs, per_job, strict=True) for _ in job_files]
    return files, levels


def write_fixed(fixed: FixedFile) -> None:
    """Replace the file with its fixed text, atomically, keeping its permissions (through a symlink, the
    file it points at). Raises OSError, also when the file changed since it was read."""
    target = Path(os.path.realpath(fixed.result.path))
    status = target.stat()
    if (status.st_size, status.st_mtime_ns) != fixed.stamp:
        raise OSError(f"{fixed.result.path}: changed while it was being fixed; not written")
    data = (codecs.BOM_UTF8 if fixed.bom else b"") + fixed.fixed.encode("utf-8")
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, stat.S_IMODE(status.st_mode))
        os.replace(temporary, target)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def unified_diff(fixed: FixedFile) -> str:
    """The change as a unified diff (`patch -p0` applies it), marking a last line without a newline."""
    before = [body + ending for body, ending in _lines(fixed.original)]
    after = [body + ending for body, ending in _lines(fixed.fixed)]
    lines = difflib.unified_diff(before, after, fixed.result.path, fixed.result.path)
    return "".join(line if line.endswith(("\n", "\r")) else line + "\n\\ No newline at end of file\n" for line in lines)
