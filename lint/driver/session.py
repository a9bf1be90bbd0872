"""What the front doors share: settings from configuration and flags, the files to lint, and linting them.

The command line and the language server both start here; neither knows the other.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from ..frontend.options import BuildOptions, is_other_input, is_source_input
from ..model.devices import DEVICES, Launch, find_device, parse_grid
from ..model.severity import Severity
from ..model.targets import UnknownTarget, parse_target_id
from .config import CONFIG_FILE, Config, find_config, named_config
from .discovery import DEFAULT_EXCLUDE, DIRECTORY_SUFFIXES, HipSuffixes, Pattern, expand, is_glob, literal_root
from .forks import CopyFailed, ForkedCopy, fork_copy
from .selection import RuleSelection, SelectionError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, TypeVar

    from ..frontend.assembler import Assembler, AssemblerRun
    from .cache import ResultCache
    from .linter import FileResult

    T = TypeVar("T")

#: wraps the stream of per-file results with a progress display: (results, how many) -> results
Progress = Callable[[Iterator[list["FileResult"]], int], Iterable[list["FileResult"]]]


class UsageError(Exception):
    """Bad command line or configuration: exit code 2."""


@dataclass(slots=True, repr=False, init=False, eq=False)
class Flags:
    """What the user said on the command line (or the editor, nothing); unset values come from the configuration."""

    mcpu: str | None = None
    include_dirs: list[str] = field(default_factory=list)
    defsyms: list[tuple[str, int]] = field(default_factory=list)
    use_config: bool = True
    config_file: str | None = None  # --config: this file governs every input
    wg_size: tuple[int, int] | None = None  # (smallest, largest)
    grid: str | None = None
    device: str | None = None
    cus: int | None = None
    min_waves: int | None = None
    latency_table: str | None = None
    select: list[str] = field(default_factory=list)  # comma-separated entries allowed
    extend_select: list[str] = field(default_factory=list)
    exclude: list[str] = field(default_factory=list)  # replaces the configured (or default) exclusions
    extend_exclude: list[str] = field(default_factory=list)
    ignore: list[str] = field(default_factory=list)
    fail_on: str | None = None
    baseline: str | None = None
    use_baseline: bool = True  # False (`baseline`, `report` without --baseline): no snapshot, not even the configured one
    includers: bool = False  # also lint the assembly files that include a named file (see with_includers)
    compiler: str | None = None  # --compiler: the HIP/OpenCL compiler
    trust_repository_compiler: bool = False  # --trust-repository-compiler: a repository's `compiler =` may run
    assembler: str | None = None  # --assembler: the assembler run alongside the lint ("none": none)
    locations: str = "source"  # findings on a -g listing: at its source lines, or on the "listing"

    def __init__(self, mcpu: str | None = None, include_dirs: list[str] | None = None,
                 defsyms: list[tuple[str, int]] | None = None, use_config: bool = True,
                 config_file: str | None = None, wg_size: tuple[int, int] | None = None, grid: str | None = None,
                 device: str | None = None, cus: int | None = None, min_waves: int | None = None,
                 latency_table: str | None = None, select: list[str] | None = None,
                 extend_select: list[str] | None = None, exclude: list[str] | None = None,
                 extend_exclude: list[str] | None = None, ignore: list[str] | None = None, fail_on: str | None = None,
                 baseline: str | None = None, use_baseline: bool = True, includers: bool = False,
                 compiler: str | None = None, trust_repository_compiler: bool = False, assembler: str | None = None,
                 locations: str = "source") -> None:
        self.mcpu = mcpu
        self.include_dirs = [] if include_dirs is None else include_dirs
        self.defsyms = [] if defsyms is None else defsyms
        self.use_config = use_config
        self.config_file = config_file
        self.wg_size = wg_size
        self.grid = grid
        self.device = device
        self.cus = cus
        self.min_waves = min_waves
        self.latency_table = latency_table
        self.select = [] if select is None else select
        self.extend_select = [] if extend_select is None else extend_select
        self.exclude = [] if exclude is None else exclude
        self.extend_exclude = [] if extend_exclude is None else extend_exclude
        self.ignore = [] if ignore is None else ignore
        self.fail_on = fail_on
        self.baseline = baseline
        self.use_baseline = use_baseline
        self.includers = includers
        self.compiler = compiler
        self.trust_repository_compiler = trust_repository_compiler
        self.assembler = assembler
        self.locations = locations

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Flags) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.mcpu, self.include_dirs, self.defsyms, self.use_config, self.config_file, self.wg_size, self.grid,
            self.device, self.cus, self.min_waves, self.latency_table, self.select, self.extend_select, self.exclude,
            self.extend_exclude, self.ignore, self.fail_on, self.baseline, self.use_baseline, self.includers,
            self.compiler, self.trust_repository_compiler, self.assembler, self.locations) == (
            other.mcpu, other.include_dirs, other.defsyms, other.use_config, other.config_file, other.wg_size,
            other.grid, other.device, other.cus, other.min_waves, other.latency_table, other.select,
            other.extend_select, other.exclude, other.extend_exclude, other.ignore, other.fail_on, other.baseline,
            other.use_baseline, other.includers, other.compiler, other.trust_repository_compiler, other.assembler,
            other.locations)

    def __repr__(self) -> str:
        return (f"{self.__class__.__qualname__}(mcpu={self.mcpu!r}, include_dirs={self.include_dirs!r}, "
                f"defsyms={self.defsyms!r}, use_config={self.use_config!r}, config_file={self.config_file!r}, "
                f"wg_size={self.wg_size!r}, grid={self.grid!r}, device={self.device!r}, cus={self.cus!r}, "
                f"min_waves={self.min_waves!r}, latency_table={self.latency_table!r}, select={self.select!r}, "
                f"extend_select={self.extend_select!r}, exclude={self.exclude!r}, "
                f"extend_exclude={self.extend_exclude!r}, ignore={self.ignore!r}, fail_on={self.fail_on!r}, "
                f"baseline={self.baseline!r}, use_baseline={self.use_baseline!r}, includers={self.includers!r}, "
                f"compiler={self.compiler!r}, trust_repository_compiler={self.trust_repository_compiler!r}, "
                f"assembler={self.assembler!r}, locations={self.locations!r})")


@dataclass(slots=True)
class Settings:
    """Everything needed to lint one file: how to build it, which rules, and what fails."""

    options: BuildOptions
    selection: RuleSelection
    fail_on: Severity


def _comma_list(values: list[str]) -> list[str]:
    return [part.strip() for value in values for part in value.split(",") if part.strip()]


def _launch(flags: Flags) -> Launch | None:
    if not flags.grid:
        if flags.device or flags.cus:
            raise UsageError("--device and --cus describe the device for --grid; give --grid too")
        return None
    try:
        grid = parse_grid(flags.grid)
    except ValueError as error:
        raise UsageError(str(error)) from None
    if flags.device:
        device = find_device(flags.device)
        if device is None:
            raise UsageError(f"unknown device '{flags.device}' (known: {', '.join(sorted(d.name for d in DEVICES.values()))})")
        return Launch(grid, flags.cus or device.compute_units, device.name)
    if not flags.cus:
        raise UsageError("--grid needs --device NAME or --cus N")
    return Launch(grid, flags.cus)


def _read_baseline(path: str | None, config: Config) -> dict | None:
    """The snapshot at `path` with in-memory keys, for a file governed by `config`."""
    if not path:
        return None
    from .baseline import key_root, with_absolute_keys

    try:
        document = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as error:
        raise UsageError(f"cannot read baseline {path}: {error.strerror}") from None
    except json.JSONDecodeError as invalid:  # a name of its own: mypyc types a name once per function
        raise UsageError(f"baseline {path} is not JSON: {invalid}") from None
    if not isinstance(document, dict) or not isinstance(document.get("kernels"), dict):
        raise UsageError(f"baseline {path} has no 'kernels' table; write it with 'amdgpu-lint baseline'")
    return with_absolute_keys(document, key_root(config, path))


def _latency_table(path: str | None) -> str | None:
    """Check a latency-table override once, up front (a usage error, not a finding per kernel)."""
    if path is None:
        return None
    from ..analyses.latency import LatencyTableError, read_override

    try:
        read_override(path)
    except LatencyTableError as error:
        raise UsageError(f"--latency-table: {error}") from None
    return path


def config_for(path: Path, flags: Flags) -> Config:
    """The configuration that governs `path`: the `--config` file, else found upward from its
    directory; none when switched off."""
    return _config_in(path.resolve().parent, flags)


def _config_in(directory: Path, flags: Flags) -> Config:
    if flags.config_file:
        return named_config(Path(flags.config_file).resolve())
    if not flags.use_config:
        return Config()
    return find_config(directory.resolve())


def _compiling(flags: Flags, config: Config) -> dict[str, Any]:
    """How HIP and OpenCL inputs are compiled, and which assembler checks assembly: the compiler the command line or
    the user's own configuration names (for the assembler also `$AMDGPU_LINT_ASSEMBLER`), a repository's only where the
    user trusts it (else a note says the compiler was not used; the default assembler runs instead); the user's own
    `compile-flags`, then the governing configuration's, a repository's kept to the allow-list unless the user trusts
    it (a note names what was left out)."""
    from .config import user_config, user_config_path

    own = user_config(user_config_path()) if flags.use_config else Config()
    users = config.path == user_config_path()
    trusted = users or own.trust_repository_compiler or flags.trust_repository_compiler
    trust = (f"allow it with trust-repository-compiler = true in {user_config_path()} or "
             "--trust-repository-compiler")
    compiler, notes = flags.compiler or own.compiler, []
    if config.compiler and compiler is None:
        if trusted:
            compiler = config.compiler
        else:
            notes.append(f"{config.path} names the compiler '{config.compiler}': not run (a linted repository does "
                         f"not choose the program that runs; {trust})")
    compile_flags = [] if users else list(own.compile_flags)
    if trusted or config.path is None:
        compile_flags += config.compile_flags
    else:
        from ..frontend.compile import allowed_flags

        kept = allowed_flags(config.compile_flags, config.path.parent)
        compile_flags += kept.flags
        if kept.dropped:
            notes.append(f"{config.path}: compile-flags {', '.join(kept.dropped)} left out (a linted repository does "
                         f"not choose what the compiler loads or runs; {trust})")
    assembler = flags.assembler or os.environ.get("AMDGPU_LINT_ASSEMBLER") or own.assembler
    if config.assembler and assembler is None and trusted:
        assembler = config.assembler
    found = None
    if assembler is None or assembler.strip().lower() != "none":  # nothing to import for none
        from ..frontend.assembler import find_assembler

        try:
            found = find_assembler(assembler)
        except LookupError as error:
            raise UsageError(f"{error} (named by --assembler, $AMDGPU_LINT_ASSEMBLER or assembler = in the "
                             "configuration; 'none' runs none)") from None
    return {"compiler": compiler, "compile_flags": tuple(compile_flags),
            "hip_suffixes": tuple(config.hip_suffixes), "input_notes": tuple(notes), "assembler": found}


def settings_for(path: Path, flags: Flags) -> Settings:
    """Flags over configuration over defaults, for the file at `path`."""
    config = config_for(path, flags)
    options = BuildOptions(
        mcpu=flags.mcpu or config.mcpu,
        include_dirs=list(flags.include_dirs) + config.include_dirs,
        defsyms={**config.defsyms, **dict(flags.defsyms)},
        wg_size=flags.wg_size,
        launch=_launch(flags),
        min_waves=flags.min_waves or config.min_waves,
        baseline=_read_baseline(flags.baseline or config.baseline, config) if flags.use_baseline else None,
        latency_table=_latency_table(flags.latency_table or config.latency_table),
        locations=flags.locations,
        assembler_compat=config.assembler_compat,
        **_compiling(flags, config),
    )
    if flags.select:
        select = _comma_list(flags.select + flags.extend_select)
    else:
        select = (config.select or ["ALL"]) + config.extend_select + _comma_list(flags.extend_select)
    ignore = _comma_list(flags.ignore) + config.ignore
    selection = RuleSelection(select, ignore, dict(config.severities), list(config.per_file_ignores))
    fail_on = Severity.parse(flags.fail_on) if flags.fail_on else (config.fail_on or Severity.WARNING)
    return Settings(options, selection, fail_on)


def exclusions(directory: Path, flags: Flags) -> list[Pattern]:
    """What walking `directory` leaves out: `--exclude` (else the configured `exclude`, else the
    defaults) plus every `extend-exclude`; configured globs are relative to their file's directory."""
    config = _config_in(directory, flags)
    base = config.path.parent if config.path else Path.cwd()
    if flags.exclude:
        chosen = [Pattern(glob, Path.cwd()) for glob in _comma_list(flags.exclude)]
    else:
        chosen = [Pattern(glob, base) for glob in (DEFAULT_EXCLUDE if config.exclude is None else config.exclude)]
    return (chosen + [Pattern(glob, base) for glob in config.extend_exclude]
            + [Pattern(glob, Path.cwd()) for glob in _comma_list(flags.extend_exclude)])


def _hip_suffixes(flags: Flags) -> HipSuffixes:
    """The `hip-suffixes` of the configuration that governs each directory a walk enters: where one of its files
    may be a configuration, that is read, else its parent's answer stands (a walk asks about parents first)."""
    known: dict[str, tuple[str, ...]] = {}  # by the directory's path as the walk names it

    def suffixes(directory: Path, names: Sequence[str]) -> tuple[str, ...]:
        here = str(directory)
        if here not in known:
            parent = os.path.dirname(here)
            inherited = known.get(parent) if parent != here else None
            if inherited is None or CONFIG_FILE in names or "pyproject.toml" in names or flags.config_file \
                    or not flags.use_config:
                inherited = tuple(_config_in(directory, flags).hip_suffixes)
            known[here] = inherited
        return known[here]

    return suffixes


def collect_files(paths: list[str], flags: Flags) -> list[tuple[Path, str | None, bool]]:
    """Files named, what globs match, and the assembly and HIP/OpenCL sources found below directories named, in
    order, each with what is wrong with it and whether it was found by walking a directory: a path that does not
    exist or is no regular file, or a glob that matches nothing, is kept with its problem (reported, while the
    rest is still linted). Finding no file at all is a usage error, so a run pointed at the wrong place fails."""
    files: list[tuple[Path, str | None, bool]] = []
    for text in paths:
        path = Path(text)
        if path.is_dir():
            files += [(found, None, walked) for found, walked in expand(text, exclusions(path, flags), _hip_suffixes(flags))]
        elif path.exists() and not path.is_file():  # a device or a pipe: /dev/zero would be read forever
            files.append((path, f"{text}: not a regular file", False))
        elif path.exists() or path.is_symlink():
            files.append((path, None, False))
        elif is_glob(text):
            matched = expand(text, exclusions(literal_root(text), flags), _hip_suffixes(flags))
            files += [(found, None, walked) for found, walked in matched] or [(path, f"{text}: no file matches", False)]
        else:
            files.append((path, f"{text}: no such file or directory", False))
    if not files:
        raise UsageError(f"no input files in {', '.join(paths)} (looked for {', '.join(DIRECTORY_SUFFIXES)}, "
                         ".hip and .cl)")
    return files


_INCLUDE = re.compile(r'^[ \t]*(?:\.include|#[ \t]*include)[ \t]+["<]?([^"<>\s]+)', re.MULTILINE)
NOT_INCLUDED = "a header no assembly file includes"
#: why a HIP or OpenCL source found in a directory is not linted without a target (a note, not an error)
NO_TARGET = ("HIP and OpenCL sources are compiled for a target: pass --mcpu gfx942 (or set mcpu in the "
             "configuration) to lint them")


def _assembly_files() -> list[Path]:
    """The assembly files of the repository around the working directory (git's tracked and
    not-ignored files below it), or every one below it when that is no git work tree."""
    import subprocess

    try:
        listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                                capture_output=True, check=True).stdout.decode(errors="replace").split("\0")
    except (OSError, subprocess.CalledProcessError):
        listed = [str(p) for p in Path(".").rglob("*")]
    return [Path(name) for name in listed if Path(name).suffix in DIRECTORY_SUFFIXES and Path(name).is_file()]


def _included_files(path: Path, include_dirs: list[Path]) -> set[Path]:
    """Every file `path` names in an `.include` or `#include`, directly or through the files it names,
    resolved as the preprocessor does (beside the including file, then the include directories). The
    text is scanned, not preprocessed: a conditional include counts, one built by a macro does not."""
    found: set[Path] = set()
    pending = [path]
    while pending:
        current = pending.pop()
        try:
            text = current.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        for name in _INCLUDE.findall(text):
            for candidate in [current.parent / name] + [directory / name for directory in include_dirs]:
                if candidate.is_file():
                    resolved = candidate.resolve()
                    if resolved not in found:
                        found.add(resolved)
                        pending.append(resolved)
                    break
    return found


def with_includers(files: list[Path], flags: Flags) -> tuple[list[Path], list[Path]]:
    """The named files, then the repository's assembly files that include one of them (directly or
    through other headers). Returns the files to lint and the headers (named files that are not
    assembly) no file includes; a header is linted only as part of the files that include it."""

    named = {path.resolve() for path in files}
    includers, reached = [], set()
    for candidate in _assembly_files():
        if candidate.resolve() in named:
            continue
        include_dirs = [Path(d) for d in flags.include_dirs + config_for(candidate, flags).include_dirs]
        hits = _included_files(candidate, include_dirs) & named
        if hits:
            includers.append(candidate)
            reached |= hits
    headers = [path for path in files if path.suffix not in DIRECTORY_SUFFIXES and not is_other_input(path)
               and not is_source_input(path, settings_for(path, flags).options)]
    return [path for path in files if path not in headers] + includers, [h for h in headers if h.resolve() not in reached]


@dataclass(slots=True)
class Job:
    """One input and how to lint it (or why it is skipped); picklable, for worker processes."""

    path: Path
    settings: Settings
    rule_codes: tuple[str, ...]
    problem: str | None = None  # the input is missing: reported instead of linted
    skipped: str | None = None  # why the input is not linted (a note, not an error)


def jobs_for(paths: list[str], flags: Flags) -> list[Job]:
    """A job per input file; bad selections and unknown processors are usage errors, up front."""
    from ..rules import RULES

    found = collect_files(paths, flags)
    orphans: list[Path] = []
    if flags.includers:
        files, orphans = with_includers([path for path, problem, _ in found if problem is None], flags)
        walked = {path for path, _, was_walked in found if was_walked}
        found = ([entry for entry in found if entry[1] is not None]
                 + [(path, None, path in walked) for path in files])
    jobs = [Job(path, settings_for(path, flags), (), skipped=NOT_INCLUDED) for path in orphans]
    for path, problem, was_walked in found:
        settings = checked_settings(path, flags)
        untargeted = was_walked and not settings.options.mcpu and is_source_input(path, settings.options)
        jobs.append(Job(path, settings, tuple(rule.code for rule in settings.selection.enabled(RULES)), problem,
                        skipped=NO_TARGET if untargeted else None))
    return jobs


def checked_settings(path: Path, flags: Flags) -> Settings:
    """settings_for, with bad selections and unknown processors raised as usage errors."""
    from ..rules import RULES

    settings = settings_for(path, flags)
    try:
        settings.selection.validate(RULES)
    except SelectionError as error:
        raise UsageError(str(error)) from None
    if settings.options.mcpu:
    
        # a HIP or OpenCL source may be compiled for several targets: gfx942,gfx90a
        targets = settings.options.mcpu.split(",") if is_source_input(path, settings.options) else [settings.options.mcpu]
        for target in targets:
            try:
                parse_target_id(target.strip())
            except UnknownTarget as unknown:  # a name of its own: mypyc types a name once per function
                raise UsageError(f"--mcpu: unknown processor {unknown}") from None
    return settings


def run_job(job: Job, cache_directory: Path | None = None, keep_module: bool = True,
            processes: int = 1, assembled: AssemblerRun | None = None) -> list[FileResult]:
    """Lint one input. With a cache directory, assembly files are looked up and stored. Results
    keep their module only when asked and uncached; else they carry the lines findings quote. A long
    assembly file may be shared by `processes`. `assembled`: the assembler already started on it
    (`assembler_started_early`)."""
    from ..rules import BY_CODE
    from .linter import FileResult, lint_input

    if job.problem:
        return [FileResult(str(job.path), None, [], job.problem)]
    if job.skipped:
        return [FileResult(str(job.path), None, [], skipped=job.skipped)]
    rules = [BY_CODE[code] for code in job.rule_codes]
    settings = job.settings
    if cache_directory is None or is_other_input(job.path) or is_source_input(job.path, settings.options):
        results = lint_input(job.path, settings.options, rules, settings.selection, keep_module, processes,
                             assembled=assembled)
        return results if keep_module and cache_directory is None else [result.without_module() for result in results]
    from .cache import ResultCache

    cache = ResultCache(cache_directory)
    try:
        data = job.path.read_bytes()
    except OSError as error:
        return [FileResult(str(job.path), None, [], f"{job.path}: cannot read: {error.strerror or error}")]
    key = _cache_key(cache, job.path, data, settings)
    cached = cache.load(key)
    if cached is not None:
        diagnostics, quoted = cached
        return [FileResult(str(job.path), None, diagnostics, None, quoted, assembler=_assembler_run(settings))]
    (result,) = lint_input(job.path, settings.options, rules, settings.selection, keep_module=False, processes=processes,
                           assembled=assembled)
    if result.module is not None and result.error is None:
        included = [p for p in result.module.sources if p != result.path]
        result = result.without_module()
        cache.store(key, included, result.diagnostics, result.quoted)
    return [result.without_module()]


def _cache_key(cache: ResultCache, path: Path, data: bytes, settings: Settings) -> str:
    """The file's key in the result cache: its content and settings (which rules run follows from the selection)."""
    return cache.key(path, data, f"{settings.options!r}{settings.selection!r}")


def _assembler_run(settings: Settings) -> Assembler | None:
    """The user's assembler when it runs on an assembly file with these settings (`assembler-error` is selected)."""
    if settings.options.assembler is None:
        return None
    from ..frontend.assembler import RULE_CODE, RULE_NAME

    return settings.options.assembler if settings.selection.selects(RULE_CODE, RULE_NAME) else None


def assembler_started_early(paths: list[str], flags: Flags, cache_directory: Path | None) -> AssemblerRun | None:
    """For one assembly file that is not in the cache: the user's assembler started on it now, before the rules and
    analyses are imported and the file is read, so that it runs while they are (it is the lint's only other work
    when the file is shared by two processes). The lint takes it if its own reading gives the same command line
    (`frontend.builder.start_assembler`); the caller stops it if the lint never gets to it."""

    path = Path(paths[0]) if len(paths) == 1 else None
    if path is None or not path.is_file() or is_other_input(path):
        return None
    settings = settings_for(path, flags)
    options, assembler = settings.options, _assembler_run(settings)
    if assembler is None or is_source_input(path, options):
        return None
    try:
        data = path.read_bytes()
    except OSError:
        return None
    if cache_directory is not None:
        from .cache import ResultCache

        cache = ResultCache(cache_directory)
        if cache.load(_cache_key(cache, path, data, settings)) is not None:
            return None
    from ..frontend.assembler import start_on_file

    return start_on_file(str(path), data, assembler, options.mcpu, options.include_dirs, options.defsyms)


def lint_paths(paths: list[str], flags: Flags) -> tuple[list[FileResult], list[Severity]]:
    """Every input, in order, with the fail level of its configuration (modules kept)."""
    results: list[FileResult] = []
    fail_levels: list[Severity] = []
    jobs = jobs_for(paths, flags)
    processes = processes_for(len(jobs), None)
    for job in jobs:
        for result in run_job(job, processes=processes):
            results.append(result)
            fail_levels.append(job.settings.fail_on)
    return results, fail_levels


def check_paths(paths: list[str], flags: Flags, *, workers: int | None, use_cache: bool,
                progress: Progress | None = None) -> tuple[list[FileResult], list[Severity]]:
    """Like lint_paths for `check`: cached and, for several files, in parallel worker processes. No module is
    kept: each file's memory is freed as soon as its findings are known, and workers send back only those.
    `progress` sees each file's results as they arrive."""
    directory = None
    if use_cache:
        from .cache import cache_dir

        directory = cache_dir()
    assembled = assembler_started_early(paths, flags, directory)
    try:
        jobs = jobs_for(paths, flags)
        if assembled is not None and [str(job.path) for job in jobs] != [assembled.path]:
            assembled.close()  # not the one file it was started for (`--includers` added others)
            assembled = None
        per_job = in_processes(partial(run_job, cache_directory=directory, keep_module=False,
                                       processes=processes_for(len(jobs), workers), assembled=assembled),
                               jobs, workers, progress)
    finally:
        if assembled is not None:
            assembled.close()
    results = [result for job_results in per_job for result in job_results]
    levels = [job.settings.fail_on for job, job_results in zip(jobs, per_job, strict=True) for _ in job_results]
    return results, levels


def processes_for(files: int, workers: int | None) -> int:
    """Two for a file linted alone with a core to spare, on Linux (where copies are forked): the linter shares
    it when it is long enough to gain (`linter.SPLIT_LINES`)."""
    return 2 if files == 1 and (workers or usable_cpus()) > 1 and sys.platform == "linux" else 1


def usable_cpus(quota_file: str = "/sys/fs/cgroup/cpu.max") -> int:
    """The CPUs this process may run on (its affinity), fewer when its cgroup's CPU quota allows fewer (a
    container started with --cpus): the default for --jobs, so that no worker waits for a CPU another holds."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    try:
        with open(quota_file, encoding="ascii") as quota:
            limit, period = quota.read().split()
        if limit != "max":
            cpus = min(cpus, max(1, int(limit) // int(period)))
    except (OSError, ValueError):
        pass
    return cpus


def in_processes(run: Callable[[Job], T], jobs: list[Job], workers: int | None,
                 progress: Callable[[Iterator[T], int], Iterable[T]] | None = None) -> list[T]:
    """`run` of every job, in job order, in up to `workers` processes (default: one a usable CPU). On Linux this
    process shares the jobs with forked copies of itself (no pool to import and start: ~17 ms before the
    first file; no process left idle); elsewhere a spawned pool runs them. `progress` sees each result as
    it arrives."""
    workers = min(workers or usable_cpus(), len(jobs))
    if workers <= 1:
        arriving: Iterator[T] = map(run, jobs)
        return list(progress(arriving, len(jobs)) if progress else arriving)
    if sys.platform != "linux":
        import multiprocessing

        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            arriving = pool.imap(run, jobs, chunksize=max(1, len(jobs) // (workers * 4)))
            return list(progress(arriving, len(jobs)) if progress else arriving)
    numbered = _shared_with_forks(run, jobs, workers)  # the copies are made now, before a progress display's thread
    by_number: dict[int, T] = {}

    def kept() -> Iterator[T]:
        for number, result in numbered:
            by_number[number] = result
            yield result

    for _ in progress(kept(), len(jobs)) if progress else kept():
        pass
    return [by_number[number] for number in range(len(jobs))]


def _shared_with_forks(run: Callable[[Job], T], jobs: list[Job], workers: int) -> Iterator[tuple[int, T]]:
    """(job number, result) of every job: this process and `workers` - 1 forked copies, each sending its results
    through a pipe, take the jobs one at a time, largest first, from a queue they share, so that whoever is free
    takes the next: neither a wrong guess from file sizes nor a core slowed by other work leaves one process
    finishing long after the others."""
    sizes = [_size_of(job.path) + 1 for job in jobs]
    queue = _job_queue(sorted(range(len(jobs)), key=sizes.__getitem__, reverse=True))
    copies = [fork_copy(partial(_run_taken, run, jobs, queue)) for _ in range(workers - 1)]
    return _results_of(run, jobs, queue, copies)


def _job_queue(numbers: list[int]) -> int:
    """A file of the job numbers, read from its start: forked copies share its read position (which Linux moves
    atomically), so each read takes a number no other process takes."""
    try:
        queue = os.memfd_create("amdgpu-lint-jobs", os.MFD_CLOEXEC)
    except (AttributeError, OSError):  # no memfd: an unnamed temporary file
        import tempfile

        with tempfile.TemporaryFile() as spare:
            queue = os.dup(spare.fileno())
    os.write(queue, b"".join(number.to_bytes(4, "little") for number in numbers))
    os.lseek(queue, 0, os.SEEK_SET)
    return queue


def _taken(queue: int) -> Iterator[int]:
    """The job numbers this process takes from the queue, one at a time."""
    while len(entry := os.read(queue, 4)) == 4:
        yield int.from_bytes(entry, "little")


def _run_taken(run: Callable[[Job], T], jobs: list[Job], queue: int) -> list[tuple[int, T]]:
    return [(number, run(jobs[number])) for number in _taken(queue)]


def _results_of(run: Callable[[Job], T], jobs: list[Job], queue: int,
                copies: list[ForkedCopy]) -> Iterator[tuple[int, T]]:
    """The jobs this process takes as it runs them, then each copy's. Copies not heard from when this stops
    early (an error, an interrupt) are ended: their results are not wanted."""
    unread = list(copies)
    try:
        for number in _taken(queue):
            yield number, run(jobs[number])
        for copy in copies:
            unread.remove(copy)
            try:
                sent = copy.result()
            except CopyFailed as failure:
                raise RuntimeError(f"a --jobs worker process failed: {failure}") from None
            yield from sent
    finally:
        os.close(queue)
        for copy in unread:
            copy.abandon()


def _size_of(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def check_text(path: str, text: str, flags: Flags) -> tuple[list[FileResult], list[Severity]]:
    """`check -`: assembly read from stdin, linted as if it were the file at `path` (configuration,
    target and includes from there; "-" is the working directory)."""
    from ..frontend.source import split_lines
    from ..rules import RULES
    from .linter import lint_source

    if is_other_input(Path(path)):
        raise UsageError(f"--stdin-filename {path}: stdin is read as assembly; name an assembly file (.s)")
    settings = checked_settings(Path(path), flags)
    result = lint_source(split_lines(path, text), settings.options, settings.selection.enabled(RULES), settings.selection)
    return [result], [settings.fail_on]


def lint_saved(path: str, flags: Flags | None = None, buffer: str | None = None) -> list[FileResult]:
    """Lint a file as saved, as `check` does (a HIP or OpenCL source: one result per target, compiled from its
    unsaved `buffer` text when given); results keep modules."""
    from ..rules import RULES
    from .linter import lint_input

    settings = settings_for(Path(path), flags or Flags())
    return lint_input(Path(path), settings.options, settings.selection.enabled(RULES), settings.selection,
                      buffer=buffer)


def lint_buffer(path: str, text: str, flags: Flags | None = None) -> FileResult:
    """Lint unsaved text as `check` lints the file at `path` (configuration and includes from there); the
    findings include those inside files it includes. The result keeps its module."""
    settings = settings_for(Path(path), flags or Flags())
    from ..frontend.source import split_lines
    from ..rules import RULES
    from .linter import lint_source, skipped_unless_amdgpu

    return skipped_unless_amdgpu(lint_source(split_lines(path, text), settings.options, settings.selection.enabled(RULES),
                                             settings.selection))
