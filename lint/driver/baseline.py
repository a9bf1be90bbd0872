"""Snapshots from `amdgpu-lint baseline` (read by `check --baseline`): their keys and the paths in them.

Kernels are keyed "path::kernel", findings "path::code::digest:n" (a digest of the line's stripped text,
and the n-th such finding in the file: keys survive lines moving). In the file, path is POSIX and relative
to the key root, so one snapshot matches wherever the linter runs from: the directory of the configuration
that governs the linted file, else the snapshot's own directory (the current directory when it is written
to stdout). In memory (rules, the linter) every path is absolute and resolved. Snapshots without the
`paths_relative_to` entry are older: paths relative to the current directory, fingerprints hashing them.
"""

from __future__ import annotations

import hashlib
import os
from collections import Counter
from collections.abc import Callable, Mapping
from pathlib import Path

from ..model.diagnostics import Diagnostic, LineSource, fingerprints, stripped_line
from .config import Config

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

ROOT_ENTRY = "paths_relative_to"
ROOT_DESCRIPTION = "the directory of the configuration governing each file, else this file's directory"


def absolute_path(path: str) -> str:
    """The in-memory form of a key's path."""
    return Path(path).resolve().as_posix()


def finding_keys(diagnostics: list[Diagnostic], sources: Mapping[str, LineSource], *, legacy: bool = False) -> list[str]:
    """In-memory keys of findings; `legacy`: as older snapshots fingerprint them (the typed path hashed in)."""
    if legacy:
        return [f"{absolute_path(d.path)}::{d.code}::{print_}"
                for d, print_ in zip(diagnostics, fingerprints(diagnostics, sources), strict=True)]
    seen: Counter[str] = Counter()
    keys = []
    for diagnostic in diagnostics:
        digest = hashlib.sha256(stripped_line(diagnostic, sources).encode()).hexdigest()[:16]
        key = f"{absolute_path(diagnostic.path)}::{diagnostic.code}::{digest}"
        seen[key] += 1
        keys.append(f"{key}:{seen[key]}")
    return keys


def key_root(config: Config, snapshot: str | None) -> Path:
    """What the paths of a file's keys are relative to; `snapshot` is the baseline file (None: stdout)."""
    if config.path is not None:
        return config.path.parent.resolve()
    return Path(snapshot).resolve().parent if snapshot else Path.cwd().resolve()


def _with_path(key: str, separators: int, convert: Callable[[str], str]) -> str:
    """`key` with its path (what precedes its last `separators` "::") converted."""
    parts = key.rsplit("::", separators)
    if len(parts) <= separators:
        return key
    return "::".join((convert(parts[0]), *parts[1:]))


def _relative(path: str, root: Path) -> str:
    try:
        return Path(os.path.relpath(path, root)).as_posix()
    except ValueError:  # another drive (Windows): no relative path exists
        return path


def relative_kernel_key(key: str, root: Path) -> str:
    return _with_path(key, 1, lambda path: _relative(path, root))


def relative_finding_key(key: str, root: Path) -> str:
    return _with_path(key, 2, lambda path: _relative(path, root))


def with_absolute_keys(document: dict[str, Any], root: Path) -> dict[str, Any]:
    """A read snapshot with in-memory (absolute) keys; `root` is the key root of the file being linted."""
    def from_root(path: str) -> str:
        return Path(os.path.normpath(root / path)).as_posix()

    convert = from_root if ROOT_ENTRY in document else absolute_path
    kernels = {_with_path(key, 1, convert): value for key, value in document["kernels"].items()}
    findings = [_with_path(key, 2, convert) for key in document.get("findings") or () if isinstance(key, str)]
    return {**document, "kernels": kernels, "findings": findings}
