"""The build: `pip install .` is pure Python; `AMDGPU_LINT_COMPILE=1 pip install .` compiles the modules setup.py
names (COMPILED less PURE) with mypyc, and an import then loads the compiled ones.

Which build the suite runs on is the one installed: `.ci/run` runs these tests on both and sets
AMDGPU_LINT_EXPECT_COMPILED=1 for the compiled one, so a build that silently fell back to Python fails here.
"""

import ast
import importlib
import importlib.machinery
import os
import sys
from pathlib import Path
from types import ModuleType

from conftest import ROOT

EXTENSION = tuple(importlib.machinery.EXTENSION_SUFFIXES)


def _setup_constant(name: str) -> tuple[str, ...]:
    """A tuple of strings assigned at the top of setup.py (read, not run: running it builds the package)."""
    for node in ast.parse((ROOT / "setup.py").read_text()).body:
        if isinstance(node, ast.Assign) and [target.id for target in node.targets if isinstance(target, ast.Name)] == [name]:
            return tuple(ast.literal_eval(node.value))
    raise AssertionError(f"setup.py assigns no {name}")


def _module_name(path: Path) -> str:
    """The installed name of a file of lint/ or rules/ (rules/ is `amdgpu_lint.rules`)."""
    relative = path.relative_to(ROOT / "lint") if path.is_relative_to(ROOT / "lint") else Path("rules") / path.relative_to(ROOT / "rules")
    parts = relative.with_suffix("").parts
    return ".".join(("amdgpu_lint", *parts[:-1])) if parts[-1] == "__init__" else ".".join(("amdgpu_lint", *parts))


def compiled_modules() -> list[str]:
    """The modules setup.py compiles, by its globs, from the source tree."""
    def files(pattern: str) -> set[Path]:
        if pattern.startswith("rules/"):
            return set((ROOT / "rules").glob(pattern.removeprefix("rules/")))
        return set((ROOT / "lint").glob(pattern))
    chosen = {path for pattern in _setup_constant("COMPILED") for path in files(pattern)}
    chosen -= {path for pattern in _setup_constant("PURE") for path in files(pattern)}
    return sorted(_module_name(path) for path in chosen)


def _is_compiled(name: str) -> bool:
    return str(importlib.import_module(name).__file__).endswith(EXTENSION)


def test_setup_names_the_hot_path():
    """The globs reach the front end, the model, def/use, the analyses and the rule runner, and what stays Python
    is there for a reason given in setup.py."""
    names = compiled_modules()
    for hot in ("amdgpu_lint.frontend.preprocessor", "amdgpu_lint.frontend.syntax", "amdgpu_lint.frontend.builder",
                "amdgpu_lint.model.ir", "amdgpu_lint.model.nodes", "amdgpu_lint.analyses.defuse",
                "amdgpu_lint.analyses.waitcnt", "amdgpu_lint.driver.linter", "amdgpu_lint.driver.rule",
                "amdgpu_lint.rules.missing_wait"):
        assert hot in names
    assert not {"amdgpu_lint.cli", "amdgpu_lint.driver.forks", "amdgpu_lint.outputs.sarif"} & set(names)


def test_the_installed_build_is_all_of_one_kind():
    """Every module setup.py compiles is compiled, or none is (a half-compiled install is a broken build)."""
    compiled = {name: _is_compiled(name) for name in compiled_modules()}
    expected = os.environ.get("AMDGPU_LINT_EXPECT_COMPILED")
    if expected is not None:
        assert set(compiled.values()) == {expected == "1"}, compiled
    else:
        assert len(set(compiled.values())) == 1, compiled
    assert not _is_compiled("amdgpu_lint.cli") and not _is_compiled("amdgpu_lint.driver.forks")



def test_a_rule_explains_itself_with_its_docstring_as_written_on_either_build():
    """`explain` is the rule module's docstring; a compiled module has none, so it comes from the source beside it."""
    from amdgpu_lint.rules import RULES

    for rule in RULES:
        source = Path(str(importlib.import_module(rule.module).__file__)).with_name(rule.module.rpartition(".")[2] + ".py")
        written = ast.get_docstring(ast.parse(source.read_text(encoding="utf-8")), clean=False)
        assert written and rule.explain == written.strip(), rule.name


def test_a_module_without_a_docstring_is_documented_by_its_source(tmp_path, monkeypatch):

    from amdgpu_lint.driver.rule import module_docstring

    (tmp_path / "made_up_rule.py").write_text('"""\n## What it finds\n\nAll of it.\n"""\n\nCODE = "AGL999"\n')
    compiled = ModuleType("made_up_rule")  # what a compiled module looks like: no docstring, a binary file
    compiled.__doc__, compiled.__file__ = None, str(tmp_path / f"made_up_rule{EXTENSION[0]}")
    monkeypatch.setitem(sys.modules, "made_up_rule", compiled)
    module_docstring.cache_clear()
    assert module_docstring("made_up_rule") == "## What it finds\n\nAll of it."
    (tmp_path / "made_up_rule.py").unlink()
    assert module_docstring("made_up_rule") == "## What it finds\n\nAll of it."  # read once, then remembered
    module_docstring.cache_clear()
    assert module_docstring("made_up_rule") == ""
