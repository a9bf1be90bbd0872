"""Where findings are, as the CI formats name them: relative to the repository root, forward slashes.

GitHub (SARIF, annotations) and GitLab resolve paths against the checkout, so a path is the same
whichever directory `check` runs from. A file outside the root keeps its absolute path (SARIF: a
`file://` URI, the only place one appears)."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote


def repository_root(start: Path | None = None) -> Path:
    """The git top level at or above `start` (default: the working directory), found as git does by
    the nearest `.git` (a directory, or a file in worktrees and submodules); else `start` itself."""
    start = (start or Path.cwd()).resolve()
    for directory in (start, *start.parents):
        if (directory / ".git").exists():
            return directory
    return start


class RepositoryPaths:
    """Paths relative to `root`, each file's worked out once (a run may name one file 25,000 times)."""

    def __init__(self, root: Path):
        self.root = root.resolve()
        self._relative: dict[str, str | None] = {}

    def relative(self, path: str) -> str | None:
        """`path` relative to the root (resolved, POSIX), or None when it is outside."""
        if path not in self._relative:
            try:
                self._relative[path] = Path(path).resolve().relative_to(self.root).as_posix()
            except ValueError:
                self._relative[path] = None
        return self._relative[path]

    def in_text(self, text: str) -> str:
        """`text` (a message) with the paths under the root made relative to it, as the annotations name files."""
        if self.root.parent == self.root:  # the file system's root: no shorter name
            return text
        return text.replace(f"{self.root.as_posix()}/", "")

    def display(self, path: str) -> str:
        """What GitHub annotations and GitLab reports show: relative to the root, else absolute (never a URI)."""
        relative = self.relative(path)
        return relative if relative is not None else Path(path).resolve().as_posix()

    def sarif_location(self, path: str) -> dict[str, str]:
        """A SARIF artifactLocation: a percent-encoded URI relative to `%SRCROOT%` (the root), else an
        absolute `file://` URI with no base."""
        relative = self.relative(path)
        if relative is None:
            return {"uri": Path(path).resolve().as_uri()}
        return {"uri": quote(relative, safe="/"), "uriBaseId": "%SRCROOT%"}
