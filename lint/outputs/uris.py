"""File locations as the CI formats want them: relative to a root, forward slashes."""

from __future__ import annotations

from pathlib import Path


def relative_uri(path: str, root: Path) -> str:
    """A repository-relative, forward-slash URI (GitHub resolves these against the checkout)."""
    absolute = Path(path).resolve()
    try:
        return absolute.relative_to(root.resolve()).as_posix()
    except ValueError:
        return absolute.as_uri()
