"""The `amdgpu-lint` program (also `python -m amdgpu_lint`).

Two front doors share the driver and nothing else: `amdgpu-lint lsp` starts the language server,
every other command is the command line.
"""

from __future__ import annotations

import atexit
import gc
import os
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
    if arguments == ["--version"]:  # the whole answer (argparse's, word for word): no command line, no driver
        from . import __version__

        print(f"amdgpu-lint {__version__}")
        return 0
    _collect_rarely()
    from .cli import main as command_line

    gc.freeze()  # what the imports made: out of every collection, and not copied by forked --jobs workers
    return command_line(arguments)


def run() -> None:
    """The program: `main`, then leave without tearing the interpreter down. The teardown frees every
    object left one by one: 40M instructions of a 20k-line check's 1,736M, for nothing once the output is
    flushed and what was registered to run at exit has run (files are closed where they are written).
    Exit handlers run last-registered first, so the one registered here, before the command imports anything,
    runs after every other and ends the process there. The language server keeps the ordinary exit."""
    status: list[int] = []
    if sys.argv[1:2] != ["lsp"]:
        atexit.register(_leave, status)
    status.append(main())
    raise SystemExit(status[0])


def _leave(status: list[int]) -> None:
    """The last exit handler: flush the output and end the process with the command's status (an uncaught
    error, which has no status, keeps the ordinary exit)."""
    if not status:
        return
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(status[0])


def _collect_rarely() -> None:
    """A lint makes millions of short-lived objects and no reference cycles (tests/test_streaming.py; compiled,
    a few from closures and generators: 2,610 objects in a 100k-line check), so the cyclic collector finds next
    to nothing, while each collection walks every young object still alive. It runs once the tracked objects have
    grown by 500,000 (not every 700), from the imports on: that bounds what cycles could hold, and a check, whose
    objects are freed kernel by kernel, runs none. Compiled: 100k lines 11 ms of collections at 10,000 (19 of
    them), none now (-2% wall); 1M lines 175 ms (58), none now (peak 135 -> 136 MiB)."""
    gc.set_threshold(500_000, 10, 10)


if __name__ == "__main__":
    run()
