"""HIP and OpenCL sources compiled to AMDGPU listings, for each target, cached.

The compiler is found in this order: the one the user named (`--compiler`, or `compiler =` in their own
configuration: see `driver/session.py` for when a repository's is trusted), `$HIPCC`, `hipcc`, ROCm's
`amdclang++` (`$ROCM_PATH/llvm/bin`, `/opt/rocm/llvm/bin`), then the newest versioned `clang++-NN` / `clang-NN`
on PATH. It runs device-only (`--cuda-device-only -S` for HIP, `--target=amdgcn-amd-amdhsa -S` for OpenCL) with
line tables (`-gline-tables-only`) and `-O3` unless the flags say otherwise. Flags come from the user's own
configuration, from the configuration that governs the source (`compile-flags`; a repository's kept to an
allow-list unless the user trusts it, as its compiler) and from the project's `compile_commands.json` (kept to
the allow-list): a linted repository never chooses the program that runs, nor a plugin it loads.

A listing is written under `$TMPDIR/amdgpu-lint/<hash>/` and reused while the source, the files it includes (as
the compiler reported them), the flags and the compiler's version are the same.

Where the compiler finds no ROCm device library or no HIP runtime (Debian's clang without ROCm), the compile runs
again with `-nogpulib` / `-nogpuinc` added (those it asked for and the flags lack), and a note says so and names the
device library calls left external. An editor's unsaved buffer is compiled from a copy in a temporary directory
(removed when the compile ends), read as the source by `#line`, the source's directory searched first for quoted
includes (`-iquote`), as it would be beside it: nothing is written among the user's files.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

HIP_SUFFIXES = (".hip",)
OPENCL_SUFFIXES = (".cl",)
#: compiler diagnostics: `file:line:col: error: message`
_COMPILER_ERROR = re.compile(r"^(?P<path>[^:\n]+):(?P<line>\d+):(?P<column>\d+): (?:fatal )?error: (?P<message>.*)$", re.MULTILINE)
COMPILE_SECONDS = 600


class CompileError(Exception):
    """The source did not compile: the compiler's first error, where it says it is."""

    def __init__(self, message: str, path: str | None = None, line: int = 1, column: int = 1):
        super().__init__(message)
        self.path, self.line, self.column = path, line, column


@dataclass(frozen=True, slots=True)
class Compiler:
    """A compiler to run, and how it was chosen."""

    path: str
    chosen: str  # e.g. "$HIPCC", "hipcc on PATH", "--compiler"

    @property
    def is_hipcc(self) -> bool:
        return Path(self.path).name.startswith("hipcc")


@dataclass(slots=True)
class CompileFlags:
    """The flags a compile uses, and what was left out and why (notes for the findings)."""

    flags: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)  # "-fplugin=./x.so (loads code)", ...


def find_compiler(named: str | None, opencl: bool) -> Compiler | None:
    """The first compiler of the documented order that is there (hipcc is not asked to compile OpenCL)."""
    if named:
        found = shutil.which(named) or (named if os.path.isfile(named) and os.access(named, os.X_OK) else None)
        return Compiler(found, "--compiler / compiler =") if found else None
    candidates: list[tuple[str | None, str]] = []
    if not opencl:
        candidates += [(os.environ.get("HIPCC"), "$HIPCC"), (shutil.which("hipcc"), "hipcc on PATH")]
    rocm = [os.path.join(root, "llvm", "bin", "amdclang++" if not opencl else "amdclang")
            for root in (os.environ.get("ROCM_PATH"), "/opt/rocm") if root]
    candidates += [(path if os.path.isfile(path) else None, "ROCm's LLVM") for path in rocm]
    candidates += [(path, "a versioned clang on PATH") for path in _versioned_clangs()]
    return next((Compiler(path, how) for path, how in candidates if path), None)


def _versioned_clangs() -> list[str]:
    """`clang++-NN`, then `clang-NN`, newest first, found on PATH."""
    return newest_on_path(r"clang(\+\+)?-(\d+)", lambda match: (int(match.group(2)), 1 if match.group(1) else 0))


def newest_on_path(pattern: str, key: Callable[[re.Match[str]], tuple[int, ...]]) -> list[str]:
    """The programs on PATH whose names match `pattern`, largest `key` (the newest) first; of one key, the first
    directory's."""
    found: dict[tuple[int, ...], str] = {}
    for directory in os.environ.get("PATH", "").split(os.pathsep):
        try:
            names = os.listdir(directory)
        except OSError:
            continue
        for name in names:
            match = re.fullmatch(pattern, name)
            if match:
                found.setdefault(key(match), os.path.join(directory, name))
    return [found[version] for version in sorted(found, reverse=True)]


# ---- flags from a project's compile_commands.json or a repository's configuration

#: options taken from a compile database or a repository's `compile-flags`: they choose headers, macros, language
#: and code generation, and load nothing. Exact spellings (each takes the next argument), then prefixes.
_KEPT_EXACT = frozenset(("-I", "-isystem", "-iquote", "-idirafter", "-D", "-U", "-x", "-include"))
_KEPT_PREFIXES = ("-I", "-isystem", "-iquote", "-idirafter", "-D", "-U", "-O", "-std=", "--offload-arch=", "-x",
                  "-f", "-m", "-W", "-nogpuinc", "-nogpulib", "--hip-version=", "-ffast-math", "-include")
#: options among those that load or run code, change which programs run (hipcc runs the clang under --rocm-path),
#: pass options on to a stage unread (`-Wp,-load,x.so` loads a plugin) or write where they say
_REFUSED_PREFIXES = ("-fplugin", "-fpass-plugin", "-fprofile-", "-fcrash-diagnostics-dir", "-fdebug-compilation-dir",
                     "-mllvm", "-fuse-ld", "-fmodule", "-fbuild-session", "-fembed-bitcode", "-foffload-lto",
                     "-B", "--gcc-toolchain", "-target-", "--rocm-path", "-Wp,", "-Wa,", "-Wl,",
                     "-foptimization-record-file", "-ftime-trace=", "-fproc-stat-report")
#: options that hand their next argument to a stage (cc1, LLVM, the linker): both are left out
_PASSING_ON = ("-Xclang", "-mllvm", "-Xlinker", "-Xassembler", "-Xpreprocessor", "-Xanalyzer", "-Xflang")
_PASSING_ON_PREFIXES = ("-Xarch_", "-Xcuda-", "-Xopenmp-target", "-Xoffload-linker")
_PATHS = ("-I", "-isystem", "-iquote", "-idirafter", "-include")


def from_compile_database(source: Path, database: Path | None) -> CompileFlags:
    """The allowed flags of `source`'s entry in `database` (its directory's `-I` made absolute); the compiler it
    names and everything else are dropped, each named in `dropped`."""
    kept = CompileFlags()
    if database is None or not database.is_file():
        return kept
    try:
        entries = json.loads(database.read_text())
    except (OSError, ValueError):
        kept.dropped.append(f"{database}: not readable JSON")
        return kept
    resolved = source.resolve()
    for entry in entries if isinstance(entries, list) else []:
        if not isinstance(entry, dict):
            continue
        directory = Path(str(entry.get("directory", database.parent)))
        if (directory / str(entry.get("file", ""))).resolve() != resolved:
            continue
        arguments = entry.get("arguments")
        if not isinstance(arguments, list):
            import shlex

            arguments = shlex.split(str(entry.get("command", "")))
        return allowed_flags(arguments[1:], directory, resolved)
    return kept


def allowed_flags(arguments: list[str], directory: Path, source: Path | None = None) -> CompileFlags:
    """The flags of `arguments` on the allow-list, relative include paths made absolute from `directory`; the
    source, outputs and compile-mode flags left out silently, everything else named in `dropped`."""
    kept = CompileFlags()
    index = 0
    while index < len(arguments):
        argument = str(arguments[index])
        index += 1
        if argument in ("-c", "-S", "-E") or (source is not None and Path(argument).resolve() == source):
            continue
        if argument in ("-o", "-MF", "-MT", "-MQ"):
            index += 1  # the output is ours to choose
            continue
        if argument.startswith("@"):
            kept.dropped.append(f"{argument} (a response file: its flags are not read)")
            continue
        passing_on = argument in _PASSING_ON or argument.startswith(_PASSING_ON_PREFIXES)
        if passing_on or argument.startswith(_REFUSED_PREFIXES):
            if passing_on and index < len(arguments):
                argument += f" {arguments[index]}"
                index += 1
            kept.dropped.append(f"{argument} (may load code or choose the programs that run)")
            continue
        if argument in _KEPT_EXACT:
            if index == len(arguments):
                kept.dropped.append(f"{argument} (no value)")
                continue
            value = str(arguments[index])
            index += 1
            if argument in _PATHS:
                value = str((directory / value).resolve())
            kept.flags += [argument, value]
            continue
        if argument.startswith(_KEPT_PREFIXES):
            if argument.startswith(_PATHS[:4]) and len(argument) > 2:
                prefix = next(p for p in ("-isystem", "-iquote", "-idirafter", "-I") if argument.startswith(p))
                argument = prefix + str((directory / argument[len(prefix):]).resolve())
            kept.flags.append(argument)
            continue
        kept.dropped.append(f"{argument} (not on the allow-list)")
    return kept


# ---- compiling

#: what clang says when it finds no ROCm beside it (its own messages name the flag that builds without)
_NO_DEVICE_LIBRARY = "cannot find ROCm device library"
_NO_HIP_RUNTIME = "cannot find HIP runtime"
#: a HIP runtime header the source includes, not found
_HIP_HEADER_MISSING = re.compile(r"^'hip/[^']+' file not found$")
#: a function a listing calls by address (`s_getpc_b64` + `sym@rel32@lo+4`, or through the GOT)
_CALLED = re.compile(r"([A-Za-z_.$][\w.$]*)@(?:gotpcrel32|rel32)@lo\b")
_LABEL = re.compile(r"^([A-Za-z_.$][\w.$]*):", re.MULTILINE)


@dataclass(frozen=True, slots=True)
class Listing:
    """A compiled listing, and what the compile had to add to the flags to succeed (notes for the findings)."""

    path: str
    text: str
    notes: tuple[str, ...] = ()


def compile_listing(source: Path, cpu: str, compiler: Compiler, flags: list[str], opencl: bool,
                    buffer: str | None = None) -> Listing:
    """`source` compiled for `cpu` (its unsaved `buffer` text instead, when given); a cached listing when nothing
    it was made from changed. Where the compiler finds no ROCm device library or HIP runtime (Debian's clang
    without ROCm), it compiles again with `-nogpulib` / `-nogpuinc` added, and the notes say so. Raises
    CompileError."""
    if buffer is not None and buffer == _read(source):
        buffer = None  # the buffer is the file as saved: compile the file (and share its cached listing)
    base = _command(compiler, cpu, flags, opencl)
    version = program_version(compiler.path)
    text = _read(source) if buffer is None else buffer
    import hashlib  # here: OpenSSL's start-up is not wanted by an assembler's version, which this module also gives

    key = hashlib.sha256("\0".join([str(source.resolve()), text, version, *base, "buffer" if buffer is not None else ""])
                         .encode()).hexdigest()[:24]
    directory = Path(tempfile.gettempdir()) / "amdgpu-lint" / key
    listing = directory / f"{source.stem}.{cpu.split(':')[0]}.s"
    record = directory / "compiled.json"
    known = _record(record)
    if listing.is_file() and known is not None and _unchanged(known["dependencies"]):
        shown = listing.read_text(errors="replace")
        return Listing(str(listing), shown, _notes(known["added"], compiler, shown))
    directory.mkdir(parents=True, exist_ok=True)
    with ExitStack() as stack:
        compiled, quote, ours = source, [], set()
        if buffer is not None:
            # the buffer beside no file of the user's: a copy in a directory of ours, named as the source with
            # `#line` (so findings, errors and __FILE__ name the source), its quoted includes searched in the
            # source's directory first (as named: a link's, not its target's), as they would be beside it
            compiled = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="amdgpu-lint-buffer-"))) / source.name
            compiled.write_text(f'#line 1 "{_c_string(str(source))}"\n{buffer}', encoding="utf-8")
            quote, ours = ["-iquote", os.path.dirname(os.path.abspath(source))], {str(compiled.resolve())}
        added: list[str] = []
        run = _compile(compiler, [*base[:1], *quote, *base[1:]], compiled, listing, directory)
        if run.returncode != 0:
            added = _fallbacks(run.stderr, flags)
            if added:
                run = _compile(compiler, [*base[:1], *quote, *base[1:], *added], compiled, listing, directory)
        if run.returncode != 0 or not listing.is_file():
            raise _first_error(run.stderr, compiler, [*flags, *added])
        made = directory / "deps.d"
        included = [path for path in _dependencies(made.read_text(errors="replace") if made.is_file() else "", source)
                    if path not in ours]
    record.write_text(json.dumps({"dependencies": {path: _digest(path) for path in included}, "added": added}))
    shown = listing.read_text(errors="replace")
    return Listing(str(listing), shown, _notes(added, compiler, shown))


def _read(source: Path) -> str:
    return source.read_text(errors="replace")


def _c_string(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _record(path: Path) -> dict | None:
    """What a cached compile recorded: the files it read (with their digests) and the flags it added."""
    try:
        known = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(known, dict) or not isinstance(known.get("dependencies"), dict) \
            or not isinstance(known.get("added"), list):
        return None
    return known


def _compile(compiler: Compiler, command: list[str], source: Path, listing: Path, directory: Path):
    """Run one compile of `source` to `listing`, its dependency file in `directory`."""
    made = directory / "deps.d"
    full = [*command, "-o", str(listing), "-Xclang", "-dependency-file", "-Xclang", str(made),
            "-Xclang", "-MT", "-Xclang", "listing", str(source)]
    try:
        return subprocess.run(full, capture_output=True, text=True, timeout=COMPILE_SECONDS, check=False,
                              stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise CompileError(f"{compiler.path} could not run: {error}") from None


def _fallbacks(stderr: str, flags: list[str]) -> list[str]:
    """The flags that build without what the compiler says it cannot find (none the user's flags already have)."""
    added = []
    if _NO_DEVICE_LIBRARY in stderr and "-nogpulib" not in flags:
        added.append("-nogpulib")
    if _NO_HIP_RUNTIME in stderr and "-nogpuinc" not in flags:
        added.append("-nogpuinc")
    return added


def _notes(added: list[str], compiler: Compiler, listing: str) -> tuple[str, ...]:
    """What the added flags mean for the listing, in one note: which library calls stayed external."""
    if not added:
        return ()
    missing = " and ".join(what for flag, what in (("-nogpulib", "no ROCm device library"),
                                                   ("-nogpuinc", "no HIP runtime headers")) if flag in added)
    note = f"compiled with {' '.join(added)} ({Path(compiler.path).name} found {missing})"
    if "-nogpulib" not in added:
        return (note,)
    defined = set(_LABEL.findall(listing))
    external = sorted({symbol for symbol in _CALLED.findall(listing) if symbol not in defined})
    if not external:
        return (f"{note}: no kernel calls a device library function",)
    return (f"{note}: the calls to {', '.join(external)} stay calls to external functions, so the register counts "
            + "of the kernels that make them are lower bounds",)


def _command(compiler: Compiler, cpu: str, flags: list[str], opencl: bool) -> list[str]:
    """The compile command, less its output options and the source: device-only, line tables and -O3 unless
    `flags` choose."""
    if opencl:
        base = [compiler.path, "-x", "cl", "-cl-std=CL2.0", "-Xclang", "-finclude-default-header",
                "--target=amdgcn-amd-amdhsa", f"-mcpu={cpu}", "-nogpulib", "-S"]
    else:
        base = [compiler.path, "-x", "hip", "--cuda-device-only", f"--offload-arch={cpu}", "-S"]
    if not any(flag.startswith("-g") for flag in flags):
        base.append("-gline-tables-only")
    if not any(flag.startswith("-O") for flag in flags):
        base.append("-O3")
    chosen = [flag for flag in flags if not flag.startswith("--offload-arch=")]  # the target is --mcpu's
    return [*base, *chosen]


def program_version(compiler: str) -> str:
    """A compiler's (or assembler's) `--version` line, asked once per build of the compiler (by path, size and time) and kept
    beside the listings: a process start saved on every lint."""
    try:
        status = os.stat(shutil.which(compiler) or compiler)
    except OSError:
        return "unknown"
    known = Path(tempfile.gettempdir()) / "amdgpu-lint" / "compilers.json"
    key = f"{compiler}:{status.st_size}:{status.st_mtime_ns}"
    try:
        versions = json.loads(known.read_text())
    except (OSError, ValueError):
        versions = {}
    if key not in versions:
        try:
            versions[key] = subprocess.run([compiler, "--version"], capture_output=True, text=True, timeout=60,
                                           check=False, stdin=subprocess.DEVNULL).stdout.split("\n")[0]
        except (OSError, subprocess.TimeoutExpired):
            return "unknown"
        known.parent.mkdir(parents=True, exist_ok=True)
        known.write_text(json.dumps(versions))
    return str(versions[key])


def _dependencies(text: str, source: Path) -> list[str]:
    """The files a make-style dependency file names (escaped spaces kept), the source left out."""
    body = text.replace("\\\n", " ").partition(":")[2]
    names = [name.replace("\\ ", " ") for name in re.findall(r"(?:\\ |[^\s])+", body)]
    return sorted({str(Path(name).resolve()) for name in names} - {str(source.resolve())})


def _digest(path: str) -> str:
    import hashlib

    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return ""


def _unchanged(recorded: dict[str, str]) -> bool:
    return all(_digest(path) == digest for path, digest in recorded.items())


def _first_error(stderr: str, compiler: Compiler, flags: list[str]) -> CompileError:
    match = _COMPILER_ERROR.search(stderr)
    if match is None:
        lines = [line for line in stderr.splitlines() if line.strip()]
        return CompileError(f"{Path(compiler.path).name} failed: {lines[0] if lines else 'no message'}")
    message = match.group("message")
    if _HIP_HEADER_MISSING.match(message) and "-nogpuinc" in flags:
        message += (f": {Path(compiler.path).name} has no HIP runtime headers without ROCm (install ROCm and set "
                    "$ROCM_PATH, pass --compiler hipcc, or give compile-flags = [\"--rocm-path=DIR\"]; a kernel "
                    "that includes no runtime header compiles, given #define __global__ __attribute__((global)))")
    return CompileError(message, match.group("path"), int(match.group("line")), int(match.group("column")))
