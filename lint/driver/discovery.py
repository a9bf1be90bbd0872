"""Which files a `check`, `report` or `baseline` run lints: paths named, globs, and the assembly and HIP/OpenCL
sources (`.hip`, `.cl` and the configured `hip-suffixes`) found below directories, less what
`exclude`/`extend-exclude` and git's ignore rules leave out.

Like ruff: a file named on the command line is always linted; exclusion and `.gitignore` apply
only to what is found by walking a directory.
"""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from ..model.frozen import frozen_dataclass

#: what a directory argument is searched for: assembly and Triton cache listings (IR and code
#: objects are linted when named explicitly), and HIP and OpenCL sources (frontend/options.py's SOURCE_SUFFIXES)
DIRECTORY_SUFFIXES = (".s", ".S", ".asm", ".amdgcn")
#: the configured `hip-suffixes` that apply in a directory, given the names of the files in it
HipSuffixes = Callable[[Path, Sequence[str]], Sequence[str]]
#: directories never walked unless `exclude` says otherwise (version control, environments)
DEFAULT_EXCLUDE = (".git", ".hg", ".svn", ".venv", "venv", ".tox", ".nox", "node_modules", "__pypackages__", "__pycache__")
_GLOB_CHARACTERS = frozenset("*?[")


@frozen_dataclass(frozen=True, slots=True, repr=False, init=False, eq=False)
class Pattern:
    """An exclusion glob: one without '/' matches any file or directory name, one with '/' the path
    relative to `base` (the configuration's directory, or the working directory for flags)."""

    glob: str
    base: Path

    def __init__(self, glob: str, base: Path) -> None:
        object.__setattr__(self, "glob", glob)
        object.__setattr__(self, "base", base)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Pattern) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.glob, self.base) == (other.glob, other.base)

    def __hash__(self) -> int:
        return hash((self.glob, self.base))

    def matches(self, path: Path) -> bool:
        if "/" not in self.glob.rstrip("/"):
            return fnmatch.fnmatch(path.name, self.glob.rstrip("/"))
        try:
            relative = path.resolve().relative_to(self.base.resolve()).as_posix()
        except ValueError:
            return False
        return fnmatch.fnmatch(relative, self.glob.strip("/")) or fnmatch.fnmatch(relative, self.glob.strip("/") + "/*")


def is_glob(text: str) -> bool:
    return not _GLOB_CHARACTERS.isdisjoint(text)


def _git_ignored(root: Path) -> set[Path] | None:
    """Untracked files and directories under `root` that git ignores (.gitignore, .git/info/exclude,
    the global excludes file); None outside a work tree or without git."""
    import subprocess

    try:
        listing = subprocess.run(
            ["git", "ls-files", "--others", "--ignored", "--exclude-standard", "--directory", "-z", "--", "."],
            cwd=root, capture_output=True, timeout=60, check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if listing.returncode != 0:
        return None
    entries = (entry.decode(errors="surrogateescape").rstrip("/") for entry in listing.stdout.split(b"\0") if entry)
    return {(root / entry).resolve() for entry in entries if entry not in ("", ".")}


class _Filter:
    """Exclusion patterns and git's ignored paths, for what is found below `root`."""

    def __init__(self, root: Path, exclude: Iterable[Pattern]) -> None:
        self.root = root
        self.patterns = tuple(exclude)
        self.ignored = _git_ignored(root) or set()

    def keeps(self, path: Path) -> bool:
        return not any(p.matches(path) for p in self.patterns) and (not self.ignored or path.resolve() not in self.ignored)

    def keeps_with_parents(self, path: Path) -> bool:
        """`path` and every directory between it and the root are kept."""
        below = path.relative_to(self.root).parts if path.is_relative_to(self.root) else (path.name,)
        return all(self.keeps(self.root.joinpath(*below[: depth + 1])) for depth in range(len(below)))


def walk(root: Path, exclude: Iterable[Pattern], hip_suffixes: HipSuffixes | None = None) -> list[Path]:
    """Lintable files below `root`, sorted, without excluded or git-ignored files and directories. `hip_suffixes`
    says which more suffixes are HIP sources in a directory (it is asked about each directory before those below)."""
    from ..frontend.options import SOURCE_SUFFIXES

    kept = _Filter(root, exclude).keeps
    found = []
    for directory, subdirectories, names in os.walk(root):
        here = Path(directory)
        subdirectories[:] = [name for name in subdirectories if kept(here / name)]
        wanted = (*DIRECTORY_SUFFIXES, *SOURCE_SUFFIXES, *(hip_suffixes(here, names) if hip_suffixes else ()))
        found += [here / name for name in names
                  if Path(name).suffix in wanted and (here / name).is_file() and kept(here / name)]
    return sorted(found)


def literal_root(pattern: str) -> Path:
    """The directory a glob starts from: the part before the first component with a wildcard."""
    parts = Path(pattern).parts
    literal = next(i for i, part in enumerate(parts) if is_glob(part))
    return Path(*parts[:literal]) if literal else Path(".")


def expand(text: str, exclude: Iterable[Pattern], hip_suffixes: HipSuffixes | None = None) -> list[tuple[Path, bool]]:
    """The files below a directory, or those a glob matches (assembly and the other inputs;
    directories among the matches walked), each with whether it was found by walking a directory (not
    named by the glob); what is excluded or git-ignored below either is left out."""
    if Path(text).is_dir():
        return [(path, True) for path in walk(Path(text), exclude, hip_suffixes)]
    import glob

    from ..frontend.options import INPUT_SUFFIXES

    patterns = tuple(exclude)
    keeps = _Filter(literal_root(text), patterns).keeps_with_parents
    files: list[tuple[Path, bool]] = []
    for match in sorted(glob.glob(text, recursive=True)):
        matched = Path(match)
        if not keeps(matched):
            continue
        if matched.is_dir():
            files += [(path, True) for path in walk(matched, patterns, hip_suffixes)]
        elif matched.suffix in DIRECTORY_SUFFIXES + INPUT_SUFFIXES:
            files.append((matched, False))
    return files
