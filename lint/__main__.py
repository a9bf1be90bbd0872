"""The `amdgpu-lint` program (also `python -m amdgpu_lint`).

Two front doors share the driver and nothing else: `amdgpu-lint lsp` starts the language server,
every other command is the command line.
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    arguments = sys.argv[1:] if argv is None else list(argv)
    if arguments[:1] == ["lsp"]:
        try:
            from .lsp import main as serve
        except ImportError:
            print("amdgpu-lint: error: the language server needs pygls: pip install 'amdgpu-lint[lsp]'", file=sys.stderr)
            return 2
        return serve(arguments[1:])
    from .cli import main as command_line

    return command_line(arguments)


if __name__ == "__main__":
    raise SystemExit(main())
