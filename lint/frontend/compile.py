"""HIP and OpenCL sources compiled to AMDGPU listings, for each target, cached.

The compiler is found in this order: the one the user named (`--compiler`, or `compiler =` in their own
configuration: see `driver/config.py` for when a repository's is trusted), `$HIPCC`, `hipcc`, ROCm's
`amdclang++` (`$ROCM_PATH/llvm/bin`, `/opt/rocm/llvm/bin`), then the newest versioned `clang++-NN` / `clang-NN`
on PATH. It runs device-only (`--cuda-device-only -S` for HIP, `--target=amdgcn-amd-amdhsa -S` for OpenCL) with
line tables (`-gline-tables-only`) and `-O3` unless the flags say otherwise. Flags come from the configuration
(`compile-flags`) and from the project's `compile_commands.json`, kept to an allow-list: a linted repository
never chooses the program that runs, nor a plugin it loads.

A listing is written under `$TMPDIR/amdgpu-lint/<hash>/` and reused while the source, the files it includes (as
the compiler reported them), the flags and the compiler's version are the same.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
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
    found: dict[tuple[int, int], str] = {}
    for directory in os.environ.get("PATH", "").split(os.pathsep):
        try:
            names = os.listdir(directory)
        except OSError:
            continue
        for name in names:
            match = re.fullmatch(r"clang(\+\+)?-(\d+)", name)
            if match:
                key = (int(match.group(2)), 1 if match.group(1) else 0)
                found.setdefault(key, os.path.join(directory, name))
    return [found[key] for key in sorted(found, reverse=True)]


# ---- flags from a project's compile_commands.json

#: options taken from a compile database: they choose headers, macros, language and code generation, and
#: load nothing. Exact spellings, then prefixes.
_KEPT_EXACT = frozenset(("-I", "-isystem", "-iquote", "-idirafter", "-D", "-U", "-x", "-include"))
_KEPT_PREFIXES = ("-I", "-isystem", "-iquote", "-idirafter", "-D", "-U", "-O", "-std=", "--offload-arch=", "-x",
                  "-f", "-m", "-W", "-nogpuinc", "-nogpulib", "--hip-version=", "-ffast-math", "-include")
#: -f/-m options that load or run code, or change which programs run
_REFUSED_PREFIXES = ("-fplugin", "-fpass-plugin", "-fprofile-", "-fcrash-diagnostics-dir", "-fdebug-compilation-dir",
                     "-mllvm", "-fuse-ld", "-fmodule", "-fbuild-session", "-fembed-bitcode", "-foffload-lto")


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
        return _allowed(arguments[1:], directory, resolved)
    return kept


def _allowed(arguments: list[str], directory: Path, source: Path) -> CompileFlags:
    kept = CompileFlags()
    index = 0
    while index < len(arguments):
        argument = str(arguments[index])
        index += 1
        if argument in ("-c", "-S", "-E") or Path(argument).resolve() == source:
            continue
        if argument in ("-o", "-MF", "-MT", "-MQ"):
            index += 1  # the output is ours to choose
            continue
        if argument.startswith("@"):
            kept.dropped.append(f"{argument} (a response file: its flags are not read)")
            continue
        if argument == "-Xclang" or argument.startswith(("-B", "--gcc-toolchain", "-target-", "--rocm-path")) or \
                argument.startswith(_REFUSED_PREFIXES):
            if argument == "-Xclang" and index < len(arguments):
                argument += f" {arguments[index]}"
                index += 1
            kept.dropped.append(f"{argument} (may load code or choose the programs that run)")
            continue
        if argument in _KEPT_EXACT and index < len(arguments):
            value = str(arguments[index])
            index += 1
            if argument in ("-I", "-isystem", "-iquote", "-idirafter", "-include"):
                value = str((directory / value).resolve())
            kept.flags += [argument, value]
            continue
        if argument.startswith(_KEPT_PREFIXES):
            if argument.startswith(("-I", "-isystem", "-iquote", "-idirafter")) and len(argument) > 2:
                prefix = next(p for p in ("-isystem", "-iquote", "-idirafter", "-I") if argument.startswith(p))
                argument = prefix + str((directory / argument[len(prefix):]).resolve())
            kept.flags.append(argument)
            continue
        kept.dropped.append(f"{argument} (not on the allow-list)")
    return kept


# ---- compiling


def compile_listing(source: Path, cpu: str, compiler: Compiler, flags: list[str], opencl: bool) -> tuple[str, str]:
    """(listing path, listing text) of `source` compiled for `cpu`; a cached listing when nothing it was made from
    changed. Raises CompileError."""
    base = _command(compiler, source, cpu, flags, opencl)
    version = program_version(compiler.path)
    key = hashlib.sha256("\0".join([str(source.resolve()), source.read_text(errors="replace"), version, *base])
                         .encode()).hexdigest()[:24]
    directory = Path(tempfile.gettempdir()) / "amdgpu-lint" / key
    listing = directory / f"{source.stem}.{cpu.split(':')[0]}.s"
    dependencies = directory / "dependencies.json"
    if listing.is_file() and dependencies.is_file() and _unchanged(json.loads(dependencies.read_text())):
        return str(listing), listing.read_text(errors="replace")
    directory.mkdir(parents=True, exist_ok=True)
    made = directory / "deps.d"
    command = [*base, "-o", str(listing), "-Xclang", "-dependency-file", "-Xclang", str(made),
               "-Xclang", "-MT", "-Xclang", "listing"]
    try:
        run = subprocess.run(command, capture_output=True, text=True, timeout=COMPILE_SECONDS, check=False,
                             stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise CompileError(f"{compiler.path} could not run: {error}") from None
    if run.returncode != 0 or not listing.is_file():
        raise _first_error(run.stderr, compiler)
    included = _dependencies(made.read_text(errors="replace") if made.is_file() else "", source)
    dependencies.write_text(json.dumps({path: _digest(path) for path in included}))
    return str(listing), listing.read_text(errors="replace")


def _command(compiler: Compiler, source: Path, cpu: str, flags: list[str], opencl: bool) -> list[str]:
    """The compile command, less its output options: device-only, line tables and -O3 unless `flags` choose."""
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
    return [*base, *chosen, str(source)]


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
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return ""


def _unchanged(recorded: dict[str, str]) -> bool:
    return all(_digest(path) == digest for path, digest in recorded.items())


def _first_error(stderr: str, compiler: Compiler) -> CompileError:
    match = _COMPILER_ERROR.search(stderr)
    if match is None:
        lines = [line for line in stderr.splitlines() if line.strip()]
        return CompileError(f"{Path(compiler.path).name} failed: {lines[0] if lines else 'no message'}")
    return CompileError(match.group("message"), match.group("path"), int(match.group("line")), int(match.group("column")))
