"""A small `check` loads only what it uses: the chosen output format, no grammar tables for
compiler-shaped statements, no YAML library for LLVM's metadata, no configuration reader with
--no-config, no cache with --no-cache."""

import os
import subprocess
import sys
from pathlib import Path

LISTING = Path(__file__).resolve().parent.parent / "fixtures" / "examples" / "compiler" / "loop_saxpy_gfx942.s"
RDNA_LISTING = LISTING.with_name("lds_reduce_gfx1100.s")
_LOADED = """
import contextlib, io, sys
from amdgpu_lint.__main__ import main
with contextlib.redirect_stdout(io.StringIO()):
    main(sys.argv[1:])
print(" ".join(sorted(sys.modules)))
"""


def loaded_by(*arguments: str, env: dict[str, str] | None = None) -> set[str]:
    run = subprocess.run([sys.executable, "-c", _LOADED, *arguments], capture_output=True, text=True, check=True,
                         env=None if env is None else {**os.environ, **env})
    return set(run.stdout.split())


def test_a_small_check_loads_only_its_output_format():
    loaded = loaded_by("check", "--no-cache", "--no-config", "--format", "json", str(LISTING))
    outputs = {name for name in loaded if name.startswith("amdgpu_lint.outputs.")}
    assert outputs == {"amdgpu_lint.outputs.json_format"}
    unneeded = {"lark", "yaml", "tomllib", "amdgpu_lint.frontend.grammar", "amdgpu_lint.driver.cache", "amdgpu_lint.driver.baseline",
                "amdgpu_lint.driver.report", "amdgpu_lint.analyses.calculator"}
    assert loaded & unneeded == set()


_RELOADED = """
import contextlib, io, sys
unloaded = sys.argv[1].split(",")
for name in unloaded:
    sys.modules.pop(name, None)
from amdgpu_lint.__main__ import main
with contextlib.redirect_stdout(io.StringIO()):
    main(sys.argv[2:])
print(" ".join(sorted(name for name in unloaded if name in sys.modules)))
"""


def test_a_check_imports_neither_typing_nor_shutil():
    """typing is ~12M instructions to import, a twentieth of a small check; type hints need it only for type
    checkers. shutil was argparse's way to the terminal width. The site packages of some environments import
    both at start-up, so the test takes them out of sys.modules first."""
    run = subprocess.run([sys.executable, "-c", _RELOADED, "typing,shutil", "check", "--no-cache", "--no-config",
                          str(LISTING)], capture_output=True, text=True, check=True)
    assert run.stdout.split() == []


def test_configuration_and_cache_are_loaded_when_used(tmp_path):
    (tmp_path / ".amdgpu-lint.toml").write_text('mcpu = "gfx90a"\n')
    listing = tmp_path / "k.s"
    listing.write_text(LISTING.read_text())
    loaded = loaded_by("check", str(listing), env={"AMDGPU_LINT_CACHE_DIR": str(tmp_path / "cache")})
    assert {"amdgpu_lint.driver.cache", "amdgpu_lint.outputs.text"} <= loaded
    assert {"tomllib", "tomli"} & loaded


_ROWS_BUILT = """
import contextlib, io, sys
from amdgpu_lint.cli import main
from amdgpu_lint.isa import _load_page
with contextlib.redirect_stdout(io.StringIO()):
    main(["check", "--no-cache", "--no-config", sys.argv[1]])
page = _load_page("gfx940")
print(len(page._rows), len(page.names()))
"""


def test_a_small_check_builds_only_the_instruction_rows_it_looks_up():
    run = subprocess.run([sys.executable, "-c", _ROWS_BUILT, str(LISTING)], capture_output=True, text=True, check=True)
    built, listed = map(int, run.stdout.split())
    assert 0 < built < 100 < listed  # a saxpy loop looks up a few dozen mnemonics of the page's ~1,900


def test_every_dataclass_has_a_docstring():
    """dataclasses computes an `inspect.signature` for the docstring of a class without one: ~0.5 ms a class
    at import, for ~80 classes on the check path."""
    import ast

    root = Path(__file__).resolve().parent.parent
    missing = []
    for path in [*(root / "lint").rglob("*.py"), *(root / "rules").rglob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef) and ast.get_docstring(node) is None and any(
                    ast.unparse(decorator).startswith("dataclass") for decorator in node.decorator_list):
                missing.append(f"{path.relative_to(root)}:{node.lineno} {node.name}")
    assert missing == []


def test_the_command_line_makes_only_the_named_command():
    """~60 options and seven parsers cost ~7 ms to make; a `check` makes check's, and reads its arguments as the
    whole parser does."""
    from amdgpu_lint.cli import build_parser, command_named

    arguments = [["check", "--no-cache", "--format", "json", "-j", "2", "a.s", "b.s"], ["report", "--simulate", "k.s"],
                 ["occupancy", "--vgprs", "128", "--mcpu", "gfx942"], ["explain", "missing-wait"], ["rules"]]
    for argv in arguments:
        assert vars(build_parser(command_named(argv)).parse_args(argv)) == vars(build_parser().parse_args(argv))
    def commands(parser):
        return set(next(action for action in parser._actions if action.dest == "command").choices)

    assert commands(build_parser("check")) == {"check"}
    everything = {"check", "report", "baseline", "occupancy", "rules", "explain"}
    assert commands(build_parser(None)) == commands(build_parser("chek")) == everything  # help, a misspelt command
    assert command_named(["--version"]) is None and command_named(["-h", "report"]) == "report"


def test_version_loads_no_command_line_and_says_what_the_parser_would():
    """`--version` is answered before the command line and the driver are imported (~70 ms of a run that
    prints one line), with the text argparse's version action gives."""
    import argparse

    from amdgpu_lint.cli import build_parser

    loaded = loaded_by("--version")
    assert {name for name in loaded if name.startswith("amdgpu_lint")} == {"amdgpu_lint", "amdgpu_lint.__main__"}
    printed = subprocess.run([sys.executable, "-m", "amdgpu_lint", "--version"], capture_output=True, text=True,
                             check=True).stdout
    version = next(action for action in build_parser(None)._actions if isinstance(action, argparse._VersionAction))
    assert printed == f"{version.version}\n"


def test_a_check_loads_the_rdna_hazard_rows_only_for_rdna_and_the_simulator_only_to_simulate():
    perf = "amdgpu_lint.analyses.perfmodel.simulator"
    cdna = loaded_by("check", "--no-cache", "--no-config", str(LISTING))
    assert not {"amdgpu_lint.analyses.rdna_hazards", perf, "amdgpu_lint.lsp"} & cdna
    rdna = loaded_by("check", "--no-cache", "--no-config", str(RDNA_LISTING))
    assert "amdgpu_lint.analyses.rdna_hazards" in rdna and perf not in rdna
    assert perf in loaded_by("report", "--no-config", "--simulate", str(LISTING))
