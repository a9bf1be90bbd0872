"""The package reads as the pipeline and its imports flow one way (docs/architecture.md).

Every import in lint/ and rules/ is read from the source (lazy ones inside functions too) and
checked against the layers: the model at the bottom; the front end and the analyses on it;
rules on the analyses; the driver on all of those; outputs beside the driver, reading results;
the front doors (cli, lsp) on top, sharing the driver and not each other.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "amdgpu_lint"
#: the shared model: lint/model/ and the ISA tables (lint/isa/), beneath every stage
MODEL_PACKAGES = ("amdgpu_lint.model", "amdgpu_lint.isa")
FRONT_DOORS = {"amdgpu_lint.cli", "amdgpu_lint.lsp"}
#: the rule contract is the one part of the driver that rules and outputs see
RULE_CONTRACT = "amdgpu_lint.driver.rule"


def _module_files() -> dict[str, Path]:
    files = {}
    for path in (ROOT / "lint").rglob("*.py"):
        parts = list(path.relative_to(ROOT / "lint").with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        files[".".join([PACKAGE, *parts])] = path
    for path in (ROOT / "rules").glob("*.py"):
        files[f"{PACKAGE}.rules" + ("" if path.stem == "__init__" else f".{path.stem}")] = path
    files[f"{PACKAGE}.grammars"] = ROOT / "grammars"
    return files


FILES = _module_files()


def _imports(module: str, path: Path) -> set[str]:
    """Every amdgpu_lint module that `module` imports, resolved to absolute names."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            found.add(source)
            found |= {f"{source}.{alias.name}" for alias in node.names if f"{source}.{alias.name}" in FILES}
    return {name for name in found if name == PACKAGE or name.startswith(PACKAGE + ".")}


def _layer(module: str) -> str:
    if module == PACKAGE or module.startswith(MODEL_PACKAGES):
        return "model"
    if module in FRONT_DOORS or module == "amdgpu_lint.__main__":
        return "front door"
    return module.split(".")[1]


ALLOWED = {
    "model": {"model"},
    "grammars": set(),
    "frontend": {"model", "frontend", "grammars"},
    "analyses": {"model", "analyses"},
    # unknown-directive reads the front end's directive tables
    "rules": {"model", "analyses", "rules", "frontend", "contract"},
    "driver": {"model", "frontend", "analyses", "rules", "driver", "contract", "grammars"},
    "outputs": {"model", "analyses", "outputs", "contract"},
    "front door": {"model", "frontend", "analyses", "rules", "driver", "contract", "outputs", "front door"},
}


def _target_layer(module: str) -> str:
    return "contract" if module == RULE_CONTRACT else _layer(module)


def test_lint_holds_only_stage_folders_and_front_doors():
    loose = {path.name for path in (ROOT / "lint").glob("*.py")}
    assert loose == {"__init__.py", "__main__.py", "cli.py", "lsp.py"}


def test_every_module_is_in_a_layer():
    assert {_layer(module) for module in FILES} == set(ALLOWED)


def test_imports_flow_one_way():
    wrong = []
    for module, path in FILES.items():
        if path.is_dir():
            continue
        layer = _layer(module)
        for imported in _imports(module, path):
            if _target_layer(imported) not in ALLOWED[layer]:
                wrong.append(f"{module} ({layer}) imports {imported} ({_target_layer(imported)})")
    assert wrong == []


def test_front_doors_share_the_driver_not_each_other():
    for door in FRONT_DOORS:
        others = FRONT_DOORS - {door}
        assert not _imports(door, FILES[door]) & others, door
    # the program only routes: `lsp` to the language server, everything else to the command line (`--version`
    # it answers itself, from the package)
    assert _imports("amdgpu_lint.__main__", FILES["amdgpu_lint.__main__"]) == FRONT_DOORS | {PACKAGE}


def test_nothing_below_the_front_doors_imports_an_output():
    for module, path in FILES.items():
        if path.is_dir() or _layer(module) in ("outputs", "front door"):
            continue
        assert not any(_layer(name) == "outputs" for name in _imports(module, path)), module


def test_the_checker_sees_imports():
    """The reader itself: lazy, relative and submodule imports are all found."""
    session = _imports("amdgpu_lint.driver.session", FILES["amdgpu_lint.driver.session"])
    assert {"amdgpu_lint.rules", "amdgpu_lint.driver.cache", "amdgpu_lint.driver.linter", "amdgpu_lint.model.targets"} <= session
    assert "amdgpu_lint.driver.session" in _imports("amdgpu_lint.lsp", FILES["amdgpu_lint.lsp"])
