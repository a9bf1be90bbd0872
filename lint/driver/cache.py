"""Result cache for `check`: a file's findings, keyed by its content, the files it includes,
the options and rule selection, and the tool itself (like ruff's cache).

Entries live in `$AMDGPU_LINT_CACHE_DIR`, else `$XDG_CACHE_HOME/amdgpu-lint`, else
`~/.cache/amdgpu-lint`; never in the user's tree.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from functools import lru_cache
from pathlib import Path

from ..model.diagnostics import Diagnostic, QuotedLines

FORMAT = 2  # entries: (includes, diagnostics, quoted lines)
_PACKAGE = Path(__file__).resolve().parent.parent  # the amdgpu_lint package, every stage


def cache_dir() -> Path:
    chosen = os.environ.get("AMDGPU_LINT_CACHE_DIR")
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "amdgpu-lint"


@lru_cache(maxsize=1)
def tool_fingerprint() -> str:
    """The version plus the size and mtime of every file of the installed package (rules,
    grammar, ISA tables), so an edited or upgraded tool never reads stale results."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        digest = hashlib.sha256(version("amdgpu-lint").encode())
    except PackageNotFoundError:
        digest = hashlib.sha256(b"unknown")
    from importlib.util import find_spec

    roots = {_PACKAGE}  # and the rules and grammar, wherever they are (an editable install maps them), not imported
    for name in ("amdgpu_lint.rules", "amdgpu_lint.grammars"):
        spec = find_spec(name)
        roots |= {Path(location) for location in (spec.submodule_search_locations or [])} if spec else set()
    for root in sorted(roots):
        for path in sorted(root.rglob("*")):
            if path.suffix in (".py", ".lark", ".json"):
                stat = path.stat()
                digest.update(f"{path}:{stat.st_size}:{stat.st_mtime_ns}".encode())
    return digest.hexdigest()


def _file_digest(path: str) -> str | None:
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return None


class ResultCache:
    """Look up and store the diagnostics of one assembly file."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def key(self, path: Path, data: bytes, settings: str) -> str:
        digest = hashlib.sha256(f"{FORMAT}\0{tool_fingerprint()}\0{path}\0{settings}\0".encode())
        digest.update(data)
        return digest.hexdigest()

    def load(self, key: str) -> tuple[list[Diagnostic], dict[str, QuotedLines]] | None:
        """The findings and the lines they quote, unless an included file changed."""
        try:
            with open(self.directory / key[:2] / key, "rb") as handle:
                includes, diagnostics, quoted = pickle.load(handle)
        except (OSError, pickle.UnpicklingError, EOFError, ValueError, TypeError, AttributeError):
            return None
        if any(_file_digest(included) != digest for included, digest in includes.items()):
            return None
        return diagnostics, quoted

    def store(self, key: str, included: list[str], diagnostics: list[Diagnostic], quoted: dict[str, QuotedLines]) -> None:
        includes = {path: _file_digest(path) for path in included}
        target = self.directory / key[:2] / key
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            temporary = target.with_suffix(f".{os.getpid()}.tmp")
            with open(temporary, "wb") as handle:
                pickle.dump((includes, diagnostics, quoted), handle, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(temporary, target)
        except OSError:
            pass  # a read-only or full cache directory only costs speed
