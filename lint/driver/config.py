"""Configuration: `[tool.amdgpu-lint]` in pyproject.toml or a `.amdgpu-lint.toml`, found upward."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from ..model.severity import Severity

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

CONFIG_FILE = ".amdgpu-lint.toml"
KNOWN_KEYS = {"mcpu", "select", "ignore", "include-dirs", "defsym", "fail-on", "severity", "min-waves", "baseline",
              "per-file-ignores", "latency-table", "extend-select", "exclude", "extend-exclude", "compiler",
              "compile-flags", "hip-suffixes", "trust-repository-compiler", "assembler", "assembler-compat"}


#: Assemblers whose reading of the macro language a file may ask for (.altmacro's bare parameter names).
ASSEMBLER_COMPAT = ("llvm14", "llvm22")


class ConfigError(ValueError):
    """A configuration file that cannot be used (message names the file)."""


@dataclass(slots=True, init=False, repr=False, eq=False)
class Config:
    """Settings read from pyproject.toml or .amdgpu-lint.toml."""

    path: Path | None = None
    mcpu: str | None = None
    select: list[str] = field(default_factory=list)
    extend_select: list[str] = field(default_factory=list)
    exclude: list[str] | None = None  # globs relative to the file's directory; None: the defaults
    extend_exclude: list[str] = field(default_factory=list)
    ignore: list[str] = field(default_factory=list)
    include_dirs: list[str] = field(default_factory=list)
    defsyms: dict[str, int] = field(default_factory=dict)
    fail_on: Severity | None = None
    severities: dict[str, Severity] = field(default_factory=dict)
    min_waves: int | None = None
    baseline: str | None = None
    latency_table: str | None = None
    per_file_ignores: list[tuple[str, list[str]]] = field(default_factory=list)  # (absolute glob, rules)
    compiler: str | None = None  # for HIP and OpenCL inputs (a repository's is used only when trusted)
    compile_flags: list[str] = field(default_factory=list)
    hip_suffixes: list[str] = field(default_factory=list)  # more suffixes compiled as HIP (".cpp", ".cu")
    trust_repository_compiler: bool = False  # in the user's own configuration: a repository may name the compiler
    assembler: str | None = None  # run on assembly files ("none": not run); a repository's only when trusted
    assembler_compat: str | None = None  # "llvm14" or "llvm22": whose macro reading (None: by code object version)

    def __init__(self, path: Path | None = None, mcpu: str | None = None, select: list[str] | None = None,
                 extend_select: list[str] | None = None, exclude: list[str] | None = None,
                 extend_exclude: list[str] | None = None, ignore: list[str] | None = None,
                 include_dirs: list[str] | None = None, defsyms: dict[str, int] | None = None,
                 fail_on: Severity | None = None, severities: dict[str, Severity] | None = None,
                 min_waves: int | None = None, baseline: str | None = None, latency_table: str | None = None,
                 per_file_ignores: list[tuple[str, list[str]]] | None = None, compiler: str | None = None,
                 compile_flags: list[str] | None = None, hip_suffixes: list[str] | None = None,
                 trust_repository_compiler: bool = False, assembler: str | None = None,
                 assembler_compat: str | None = None) -> None:
        self.path = path
        self.mcpu = mcpu
        self.select = [] if select is None else select
        self.extend_select = [] if extend_select is None else extend_select
        self.exclude = exclude
        self.extend_exclude = [] if extend_exclude is None else extend_exclude
        self.ignore = [] if ignore is None else ignore
        self.include_dirs = [] if include_dirs is None else include_dirs
        self.defsyms = {} if defsyms is None else defsyms
        self.fail_on = fail_on
        self.severities = {} if severities is None else severities
        self.min_waves = min_waves
        self.baseline = baseline
        self.latency_table = latency_table
        self.per_file_ignores = [] if per_file_ignores is None else per_file_ignores
        self.compiler = compiler
        self.compile_flags = [] if compile_flags is None else compile_flags
        self.hip_suffixes = [] if hip_suffixes is None else hip_suffixes
        self.trust_repository_compiler = trust_repository_compiler
        self.assembler = assembler
        self.assembler_compat = assembler_compat

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Config) or other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.path, self.mcpu, self.select, self.extend_select, self.exclude, self.extend_exclude, self.ignore,
            self.include_dirs, self.defsyms, self.fail_on, self.severities, self.min_waves, self.baseline,
            self.latency_table, self.per_file_ignores, self.compiler, self.compile_flags, self.hip_suffixes,
            self.trust_repository_compiler, self.assembler, self.assembler_compat) == (
            other.path, other.mcpu, other.select, other.extend_select, other.exclude, other.extend_exclude,
            other.ignore, other.include_dirs, other.defsyms, other.fail_on, other.severities, other.min_waves,
            other.baseline, other.latency_table, other.per_file_ignores, other.compiler, other.compile_flags,
            other.hip_suffixes, other.trust_repository_compiler, other.assembler, other.assembler_compat)

    def __repr__(self) -> str:
        return (f"{self.__class__.__qualname__}(path={self.path!r}, mcpu={self.mcpu!r}, select={self.select!r}, "
                f"extend_select={self.extend_select!r}, exclude={self.exclude!r}, "
                f"extend_exclude={self.extend_exclude!r}, ignore={self.ignore!r}, include_dirs={self.include_dirs!r}, "
                f"defsyms={self.defsyms!r}, fail_on={self.fail_on!r}, severities={self.severities!r}, "
                f"min_waves={self.min_waves!r}, baseline={self.baseline!r}, latency_table={self.latency_table!r}, "
                f"per_file_ignores={self.per_file_ignores!r}, compiler={self.compiler!r}, "
                f"compile_flags={self.compile_flags!r}, hip_suffixes={self.hip_suffixes!r}, "
                f"trust_repository_compiler={self.trust_repository_compiler!r}, assembler={self.assembler!r}, "
                f"assembler_compat={self.assembler_compat!r})")


def _string_list(value: Any, key: str, path: Path) -> list[str]:
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return value
    raise ConfigError(f"{path}: '{key}' must be a string or a list of strings")


def _from_table(table: dict[str, Any], path: Path) -> Config:
    unknown = set(table) - KNOWN_KEYS
    if unknown:
        raise ConfigError(f"{path}: unknown key(s) {', '.join(sorted(unknown))} (known: {', '.join(sorted(KNOWN_KEYS))})")
    config = Config(path=path)
    if "mcpu" in table:
        if not isinstance(table["mcpu"], str):
            raise ConfigError(f"{path}: 'mcpu' must be a string like \"gfx942\"")
        config.mcpu = table["mcpu"]
    config.select = _string_list(table.get("select", []), "select", path)
    config.extend_select = _string_list(table.get("extend-select", []), "extend-select", path)
    config.ignore = _string_list(table.get("ignore", []), "ignore", path)
    if "exclude" in table:
        config.exclude = _string_list(table["exclude"], "exclude", path)
    config.extend_exclude = _string_list(table.get("extend-exclude", []), "extend-exclude", path)
    config.include_dirs = [str((path.parent / d).resolve()) for d in _string_list(table.get("include-dirs", []), "include-dirs", path)]
    defsym = table.get("defsym", {})
    if not isinstance(defsym, dict) or not all(isinstance(v, int) for v in defsym.values()):
        raise ConfigError(f"{path}: 'defsym' must be a table of integers")
    config.defsyms = dict(defsym)
    if "min-waves" in table:
        if not isinstance(table["min-waves"], int) or table["min-waves"] < 1:
            raise ConfigError(f"{path}: 'min-waves' must be a positive integer")
        config.min_waves = table["min-waves"]
    ignores = table.get("per-file-ignores", {})
    if not isinstance(ignores, dict):
        raise ConfigError(f"{path}: 'per-file-ignores' must be a table of glob = [rules]")
    for pattern, rules in ignores.items():
        config.per_file_ignores.append(((path.parent.resolve() / pattern).as_posix(),
                                        _string_list(rules, f"per-file-ignores.{pattern}", path)))
    if "baseline" in table:
        if not isinstance(table["baseline"], str):
            raise ConfigError(f"{path}: 'baseline' must be a path")
        config.baseline = str(path.parent / table["baseline"])
    if "latency-table" in table:
        if not isinstance(table["latency-table"], str):
            raise ConfigError(f"{path}: 'latency-table' must be a path")
        config.latency_table = str(path.parent / table["latency-table"])
    if "compiler" in table:
        if not isinstance(table["compiler"], str):
            raise ConfigError(f"{path}: 'compiler' must be a program name or path")
        config.compiler = table["compiler"]
    if "assembler" in table:
        if not isinstance(table["assembler"], str):
            raise ConfigError(f"{path}: 'assembler' must be a program name, a path or \"none\"")
        config.assembler = table["assembler"]
    flags = table.get("compile-flags", [])
    if isinstance(flags, str):
        import shlex

        flags = shlex.split(flags)
    if not (isinstance(flags, list) and all(isinstance(flag, str) for flag in flags)):
        raise ConfigError(f"{path}: 'compile-flags' must be a list of strings (or one string)")
    config.compile_flags = flags
    config.hip_suffixes = _string_list(table.get("hip-suffixes", []), "hip-suffixes", path)
    config.trust_repository_compiler = table.get("trust-repository-compiler") is True
    if "assembler-compat" in table:
        if table["assembler-compat"] not in ASSEMBLER_COMPAT:
            raise ConfigError(f"{path}: 'assembler-compat' must be one of {', '.join(map(repr, ASSEMBLER_COMPAT))}")
        config.assembler_compat = table["assembler-compat"]
    if "fail-on" in table:
        config.fail_on = _severity(table["fail-on"], "fail-on", path)
    severity = table.get("severity", {})
    if not isinstance(severity, dict):
        raise ConfigError(f"{path}: 'severity' must be a table of rule = level")
    config.severities = {rule: _severity(level, f"severity.{rule}", path) for rule, level in severity.items()}
    return config


def _severity(value: Any, key: str, path: Path) -> Severity:
    try:
        return Severity.parse(str(value))
    except ValueError as error:
        raise ConfigError(f"{path}: '{key}': {error}") from None


def load_config_file(path: Path) -> Config | None:
    """Read one file; None when a pyproject.toml has no [tool.amdgpu-lint] table."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on Python 3.10 only
        import tomli as tomllib
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"{path}: cannot read: {error}") from None
    except tomllib.TOMLDecodeError as invalid:  # a name of its own: mypyc types a name once per function
        raise ConfigError(f"{path}: invalid TOML: {invalid}") from None
    tool_table = data.get("tool", {}).get("amdgpu-lint") if isinstance(data.get("tool"), dict) else None
    if path.name == "pyproject.toml":
        return None if tool_table is None else _from_table(tool_table, path)
    if tool_table is not None and set(data) == {"tool"}:
        return _from_table(tool_table, path)  # pyproject.toml's form, copied into .amdgpu-lint.toml
    return _from_table(data, path)


def user_config_path() -> Path:
    """The user's own configuration: `$XDG_CONFIG_HOME/amdgpu-lint/config.toml` (~/.config without it)."""
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "amdgpu-lint" / "config.toml"


@lru_cache(maxsize=4)
def user_config(path: Path) -> Config:
    """The user's own configuration at `path` (`user_config_path()`; an empty one when there is none)."""
    return (load_config_file(path) or Config()) if path.is_file() else Config()


@lru_cache(maxsize=256)
def find_config(directory: Path) -> Config:
    """The nearest configuration at or above `directory` (an empty Config when there is none)."""
    for folder in (directory, *directory.parents):
        for name in (CONFIG_FILE, "pyproject.toml"):
            candidate = folder / name
            if candidate.is_file():
                config = load_config_file(candidate)
                if config is not None:
                    return config
    return Config()


@lru_cache(maxsize=8)
def named_config(path: Path) -> Config:
    """The file given with `--config`: it governs every input, wherever the input lives."""
    if not path.is_file():
        raise ConfigError(f"{path}: no such configuration file")
    config = load_config_file(path)
    if config is None:
        raise ConfigError(f"{path}: no [tool.amdgpu-lint] table")
    return config
