"""The user's assembler run on the file being linted, alongside the lint: every error it gives, before the build.

The assembler is found in this order: the one the user named (`--assembler`, `$AMDGPU_LINT_ASSEMBLER`, or
`assembler =` in their own configuration: a linted repository never chooses the program that runs, see
`driver/session.py`), ROCm's `llvm-mc` (`$ROCM_PATH/llvm/bin`, `/opt/rocm/llvm/bin`), then the newest `llvm-mc-NN` on
PATH; `none` turns it off. It reads the text as the linter reads it (from stdin, in the file's directory, with the
include directories and `--defsym`s), for the target of `.amdgcn_target` or `--mcpu`, and writes an object to
/dev/null. It is started before the lint and read after it, so it costs little more than the lint alone.

Its messages name lines inside a macro's expansion (`<instantiation>:2:3`) or an included file, with the
instantiation sites and the include stack; each is moved to the outermost line of the linted file, the steps kept
as notes (innermost first).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from ..model.targets import NON_HSA_MARKS, known_target, with_mcpu_features

TYPE_CHECKING = False
if TYPE_CHECKING:
    import subprocess
    from typing import BinaryIO

NONE = "none"
#: the rule that reports the assembler's messages (rules/assembler_error.py): named here, so that the driver knows
#: whether it is selected before it imports the rules
RULE_CODE, RULE_NAME = "AGL009", "assembler-error"
#: `path:line:column: kind: message`; the path may be `<stdin>` or `<instantiation>`
_LOCATED = re.compile(r"^(?P<path>.+?):(?P<line>\d+):(?P<column>\d+): (?P<kind>error|warning|note): (?P<message>.*)$")
_INCLUDED = re.compile(r"^Included from (?P<path>.+?):(?P<line>\d+):$")
_STDIN, _EXPANSION = "<stdin>", "<instantiation>"
#: target-ID features passed to the assembler as `-mattr` (`xnack+` -> `+xnack`)
_FEATURES = ("xnack", "sramecc", "cumode", "tgsplit", "wavefrontsize64", "real-true16")
ASSEMBLE_SECONDS = 600


@dataclass(frozen=True, slots=True, repr=False, init=False, eq=False)
class Assembler:
    """An assembler to run: its path, its `--version` line (part of the result cache's key), how it was chosen."""

    path: str
    version: str
    chosen: str

    def __init__(self, path: str, version: str, chosen: str) -> None:
        object.__setattr__(self, "path", path)
        object.__setattr__(self, "version", version)
        object.__setattr__(self, "chosen", chosen)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Assembler) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.path, self.version, self.chosen) == (other.path, other.version, other.chosen)

    def __hash__(self) -> int:
        return hash((self.path, self.version, self.chosen))

    def __repr__(self) -> str:
        return f"{self.__class__.__qualname__}(path={self.path!r}, version={self.version!r}, chosen={self.chosen!r})"

    @property
    def name(self) -> str:
        return os.path.basename(self.path)


@dataclass(frozen=True, slots=True, repr=False, init=False, eq=False)
class AssemblerStep:
    """One step between where the assembler reports a message and the linted file's line: a line of a macro's
    expansion, a macro call or `.rept`, an included file's line. No path: inside an expansion."""

    message: str
    path: str | None
    line: int | None
    column: int | None

    def __init__(self, message: str, path: str | None, line: int | None, column: int | None) -> None:
        object.__setattr__(self, "message", message)
        object.__setattr__(self, "path", path)
        object.__setattr__(self, "line", line)
        object.__setattr__(self, "column", column)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, AssemblerStep) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.message, self.path, self.line, self.column) == (
            other.message, other.path, other.line, other.column)

    def __hash__(self) -> int:
        return hash((self.message, self.path, self.line, self.column))

    def __repr__(self) -> str:
        return (f"{self.__class__.__qualname__}(message={self.message!r}, path={self.path!r}, line={self.line!r}, "
                f"column={self.column!r})")


@dataclass(frozen=True, slots=True, repr=False, init=False, eq=False)
class AssemblerMessage:
    """An error or warning of the assembler at a line of the linted file, with the steps that led there."""

    error: bool
    message: str
    line: int
    column: int
    steps: tuple[AssemblerStep, ...] = ()

    def __init__(self, error: bool, message: str, line: int, column: int,
                 steps: tuple[AssemblerStep, ...] = ()) -> None:
        object.__setattr__(self, "error", error)
        object.__setattr__(self, "message", message)
        object.__setattr__(self, "line", line)
        object.__setattr__(self, "column", column)
        object.__setattr__(self, "steps", steps)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, AssemblerMessage) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.error, self.message, self.line, self.column, self.steps) == (
            other.error, other.message, other.line, other.column, other.steps)

    def __hash__(self) -> int:
        return hash((self.error, self.message, self.line, self.column, self.steps))

    def __repr__(self) -> str:
        return (f"{self.__class__.__qualname__}(error={self.error!r}, message={self.message!r}, line={self.line!r}, "
                f"column={self.column!r}, steps={self.steps!r})")


def find_assembler(named: str | None) -> Assembler | None:
    """The assembler `named` (a program on PATH or a path; `none`: no assembler), else the first of the
    documented order that is there. Raises LookupError for a named one that is not there."""
    if named is not None and named.strip().lower() == NONE:
        return None
    return _found(named.strip() if named else None)


@lru_cache(maxsize=8)
def _found(named: str | None) -> Assembler | None:
    import shutil

    from .compile import program_version

    if named:
        found = shutil.which(named) or (named if os.path.isfile(named) and os.access(named, os.X_OK) else None)
        if found is None:
            raise LookupError(f"assembler '{named}' not found")
        return Assembler(found, program_version(found), "named")
    rocm = [os.path.join(root, "llvm", "bin", "llvm-mc") for root in (os.environ.get("ROCM_PATH"), "/opt/rocm") if root]
    for path in rocm:
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return Assembler(path, program_version(path), "ROCm's LLVM")
    versioned = _versioned_llvm_mcs()
    return Assembler(versioned[0], program_version(versioned[0]), "the newest llvm-mc-NN on PATH") if versioned else None


def _versioned_llvm_mcs() -> list[str]:
    """`llvm-mc-NN` found on PATH, newest first."""
    from .compile import newest_on_path

    return newest_on_path(r"llvm-mc-(\d+)", lambda match: (int(match.group(1)),))


def assembler_arguments(assembler: Assembler, declared: str | None, hsa: bool, mcpu: str | None, include_dirs: list[str],
                        defsyms: Mapping[str, object]) -> list[str] | None:
    """The assembler's command line for a file whose `.amdgcn_target` is `declared` (else for `mcpu`; `hsa`: a file
    for the amdhsa OS): it reads stdin and writes its object nowhere. None without a known target."""
    target = known_target(declared)
    target = with_mcpu_features(target, mcpu) if target is not None else known_target(mcpu)
    if target is None:
        return None
    if declared and "--" in declared:
        triple = declared.rsplit("--", 1)[0]
    else:
        triple = "amdgcn-amd-amdhsa" if hsa else "amdgcn-amd-amdpal"
    features = [f"{'+' if target.features[name] else '-'}{name}" for name in _FEATURES if name in target.features]
    arguments = [assembler.path, f"--triple={triple}", f"--mcpu={target.generic or target.name}", "--filetype=obj",
                 "-o", os.devnull]
    if features:
        arguments.append(f"--mattr={','.join(features)}")
    for directory in include_dirs:
        arguments += ["-I", os.path.abspath(directory)]
    for name, value in defsyms.items():
        if isinstance(value, int):
            arguments += ["--defsym", f"{name}={value}"]
    return arguments


#: what the build reads of a file before it is split into lines (`start_on_file`): its `.amdgcn_target`, and the PAL
#: metadata only a file for another OS than amdhsa has (`frontend.builder` reads both from the code lines)
_DECLARED_TARGET = re.compile(rb'^[ \t]*\.amdgcn_target[ \t]+"([^"]*)"', re.MULTILINE)
_PAL_METADATA = re.compile(rb"^[ \t]*(?:" + b"|".join(re.escape(mark.encode()) for mark in NON_HSA_MARKS) + rb")",
                           re.MULTILINE)


def start_on_file(path: str, data: bytes, assembler: Assembler, mcpu: str | None, include_dirs: list[str],
                  defsyms: Mapping[str, object]) -> AssemblerRun | None:
    """The assembler started on the file at `path` (its bytes: `data`) before the linter reads it, so that it runs
    while the linter starts up; the lint takes it if its own reading of the file gives the same command line
    (`frontend.builder.start_assembler`). None without a known target."""
    declared = _DECLARED_TARGET.search(data)
    target = declared.group(1).decode(errors="replace") if declared else None
    hsa = "amdhsa" in target if target else _PAL_METADATA.search(data) is None
    arguments = assembler_arguments(assembler, target, hsa, mcpu, include_dirs, defsyms)
    return None if arguments is None else AssemblerRun(arguments, path)


class AssemblerRun:
    """The assembler running on one text (None: the file at `path` as it is on disk): started at once, its messages
    read (waiting for it) when asked."""

    def __init__(self, arguments: list[str], path: str, text: str | None = None):
        self.arguments = arguments
        self.path = path
        self._messages: list[AssemblerMessage] | None = None
        self._process: subprocess.Popen | None = None
        self._errors = None
        directory = os.path.dirname(os.path.abspath(path))
        import subprocess  # here, as tempfile: the rule that reads the messages imports this module on every check
        import tempfile

        try:  # stdin and stderr are files: neither side waits for the other while the lint runs
            self._errors = tempfile.TemporaryFile()  # noqa: SIM115 - read and closed once the assembler is done
            with _input(path, text) as given:
                self._process = subprocess.Popen(arguments, stdin=given, stdout=subprocess.DEVNULL, stderr=self._errors,
                                                 cwd=directory if os.path.isdir(directory) else None)
        except OSError:  # no temporary file, no file, or the program cannot start: nothing to report
            self._process = None

    def messages(self) -> list[AssemblerMessage]:
        """What the assembler said (nothing when it could not run); waits for it to finish."""
        if self._messages is None:
            self._messages = []
            if self._process is not None:
                import subprocess

                try:
                    self._process.wait(timeout=ASSEMBLE_SECONDS)
                except subprocess.TimeoutExpired:
                    self._process.kill()
                    self._process.wait()
                else:
                    if self._errors is not None:
                        self._errors.seek(0)
                        self._messages = parse_messages(self._errors.read().decode(errors="replace"), self.path)
            self.close()
        return self._messages

    def close(self) -> None:
        """Stop the assembler if it is still running (its messages were not wanted) and free its output."""
        if self._process is not None and self._process.poll() is None:
            self._process.kill()
            self._process.wait()
        self._process = None
        if self._errors is not None:
            self._errors.close()
            self._errors = None


def _input(path: str, text: str | None) -> BinaryIO:
    """What the assembler reads: `text` in a temporary file, or the file at `path`."""
    import tempfile

    if text is None:
        return open(path, "rb")
    given = tempfile.TemporaryFile()  # noqa: SIM115 - as above
    given.write(text.encode("utf-8", errors="replace"))
    given.seek(0)
    return given


@dataclass(slots=True, repr=False, init=False, eq=False)
class _Place:
    """One location of the assembler's output: its path (`<stdin>`: the linted file), line, column and the include
    stack printed before it (outermost first)."""

    path: str
    line: int
    column: int
    quoted: str = ""
    included_from: tuple[tuple[str, int], ...] = ()

    def __init__(self, path: str, line: int, column: int, quoted: str = "",
                 included_from: tuple[tuple[str, int], ...] = ()) -> None:
        self.path = path
        self.line = line
        self.column = column
        self.quoted = quoted
        self.included_from = included_from

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, _Place) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.path, self.line, self.column, self.quoted, self.included_from) == (
            other.path, other.line, other.column, other.quoted, other.included_from)

    def __repr__(self) -> str:
        return (f"{self.__class__.__qualname__}(path={self.path!r}, line={self.line!r}, column={self.column!r}, "
                f"quoted={self.quoted!r}, included_from={self.included_from!r})")


def parse_messages(stderr: str, path: str) -> list[AssemblerMessage]:
    """The errors and warnings in the assembler's output, each at the outermost line of the file at `path`
    (messages that name no line of it, such as an unknown processor, are left out); one per line and message."""
    if "is not a recognized processor" in stderr:
        return []  # it assembled for another processor: its messages say nothing of this one
    groups: list[tuple[str, str, list[_Place]]] = []  # (kind, message, places innermost first)
    included: list[tuple[str, int]] = []
    last: _Place | None = None
    for text in stderr.splitlines():
        include = _INCLUDED.match(text)
        if include:
            included.append((include.group("path"), int(include.group("line"))))
            continue
        located = _LOCATED.match(text)
        if located is None:
            if last is not None and not last.quoted and text.strip() and text.strip() != "^":
                last.quoted = text.strip()
            continue
        last = _Place(located.group("path"), int(located.group("line")), int(located.group("column")),
                      included_from=tuple(included))
        included = []
        kind = located.group("kind")
        if kind == "note" and groups:
            groups[-1][2].append(last)
        elif kind != "note":
            groups.append((kind, located.group("message"), [last]))
    found: dict[tuple[int, str], AssemblerMessage] = {}
    # the first line whose include the assembler did not find (the linter also looks beside the including file,
    # and reports an include it cannot find itself)
    unread: int | None = None
    for kind, message, places in groups:
        converted = _at_outermost(kind == "error", message, places, path)
        if converted is None:
            continue
        if message.startswith("Could not find include file"):
            unread = converted.line if unread is None else min(unread, converted.line)
        else:
            found.setdefault((converted.line, converted.message), converted)
    # past an include it did not read, the assembler may miss macros and symbols the file has: it says nothing there
    return [message for message in found.values() if unread is None or message.line < unread]


def _at_outermost(error: bool, message: str, places: list[_Place], path: str) -> AssemblerMessage | None:
    """The message at the last step in the linted file; the steps before it as notes."""
    directory = os.path.dirname(path)
    chain: list[AssemblerStep] = []
    for number, place in enumerate(places):
        if place.path == _EXPANSION:
            what = (f"line {place.line} of the expansion: '{place.quoted}'" if number == 0
                    else f"in {_expanded(place.quoted)}, line {place.line} of the enclosing expansion")
            chain.append(AssemblerStep(what, None, None, None))
        else:
            shown = path if place.path == _STDIN else os.path.normpath(os.path.join(directory, place.path))
            what = "the assembler's line" if number == 0 else f"in {_expanded(place.quoted)}"
            chain.append(AssemblerStep(what, shown, place.line, place.column))
        for included, line in reversed(place.included_from):
            shown = path if included == _STDIN else os.path.normpath(os.path.join(directory, included))
            chain.append(AssemblerStep("in file included from here", shown, line, 1))
    outermost = max((n for n, step in enumerate(chain) if step.path == path), default=None)
    if outermost is None:
        return None
    where = chain[outermost]
    if outermost:  # say what the line expands
        message += " (in an included file)" if where.message.endswith("included from here") else f" ({where.message})"
    return AssemblerMessage(error, message, where.line or 1, where.column or 1, tuple(chain[:outermost]))


def _expanded(call: str) -> str:
    """What a macro-instantiation note's quoted line expands: `.rept 2` -> ".rept expansion"."""
    word = call.split()[0] if call.split() else ""
    if word.lower() in (".rept", ".irp", ".irpc"):
        return f"{word.lower()} expansion"
    return f"expansion of macro '{word}'" if word else "a macro expansion"
