"""What users of ruff and shellcheck expect of `check` (issue 19, items 2-6): output and exit options,
colour, configuration and file discovery, stdin, missing inputs, rule-name suggestions, the progress
bar and the summary line. Everything runs through the real command line."""

import fcntl
import json
import os
import pty
import re
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest
from amdgpu_lint.cli import main
from amdgpu_lint.driver.config import find_config, named_config
from test_cold_start import loaded_by

ROOT = Path(__file__).resolve().parent.parent
GOOD = '.amdgcn_target "amdgcn-amd-amdhsa--gfx942"\nk:\n s_endpgm\n'
# one error (undefined-symbol) and one warning (unknown-directive)
BAD = '.amdgcn_target "amdgcn-amd-amdhsa--gfx942"\nk:\n s_branch .Lmissing\n .p2aling 8\n s_endpgm\n'
# one error and two warnings
WORSE = '.amdgcn_target "amdgcn-amd-amdhsa--gfx942"\nk:\n s_branch .Lmissing\n .p2aling 8\n .balgin 4\n s_endpgm\n'
ANSI = "\033["


def run(capsys, *argv):
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture(autouse=True)
def fresh_configuration(monkeypatch):
    """Configurations are memoised per directory; tests write new ones. Colour follows only the flags given."""
    find_config.cache_clear()
    named_config.cache_clear()
    for variable in ("NO_COLOR", "FORCE_COLOR"):
        monkeypatch.delenv(variable, raising=False)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


# ---------------------------------------------------------------- item 2: options


def test_exit_zero_passes_findings_but_not_errors(capsys, tmp_path):
    bad = write(tmp_path / "bad.s", BAD)
    assert run(capsys, "check", "--no-config", str(bad))[0] == 1
    code, out, _ = run(capsys, "check", "--no-config", "--exit-zero", str(bad))
    assert code == 0 and "AGL003" in out
    assert run(capsys, "check", "--no-config", "--exit-zero", str(bad), str(tmp_path / "gone.s"))[0] == 2


def test_quiet_prints_findings_without_the_summary(capsys, tmp_path):
    bad = write(tmp_path / "bad.s", BAD)
    code, out, err = run(capsys, "check", "--no-config", "-q", str(bad))
    assert code == 1 and err == ""
    assert "AGL003" in out and "AGL002" in out and "Found" not in out
    _, out, _ = run(capsys, "check", "--no-config", "--quiet", str(write(tmp_path / "good.s", GOOD)))
    assert out == ""


def test_statistics_count_findings_per_rule(capsys, tmp_path):
    write(tmp_path / "a.s", WORSE)
    write(tmp_path / "b.s", BAD)
    code, out, _ = run(capsys, "check", "--no-config", "--statistics", str(tmp_path))
    assert code == 1
    assert out.splitlines() == ["3  AGL002  unknown-directive  warning", "2  AGL003  undefined-symbol   error"]
    _, out, _ = run(capsys, "check", "--no-config", "--statistics", "--output-format", "json", str(tmp_path))
    assert json.loads(out) == [{"code": "AGL002", "name": "unknown-directive", "severity": "warning", "count": 3},
                               {"code": "AGL003", "name": "undefined-symbol", "severity": "error", "count": 2}]


def test_concise_is_one_line_per_finding_and_format_is_an_alias(capsys, tmp_path):
    bad = write(tmp_path / "bad.s", BAD)
    code, out, _ = run(capsys, "check", "--no-config", "--output-format", "concise", str(bad))
    assert code == 1
    assert out.splitlines() == [
        f"{bad}:3:2: error: s_branch target '.Lmissing' is not defined [AGL003 undefined-symbol]",
        f"{bad}:4:2: warning: unknown directive '.p2aling'; did you mean '.p2align'? [AGL002 unknown-directive]",
        "Found 2 problems (1 error, 1 warning) in 1 file.",
    ]
    assert run(capsys, "check", "--no-config", "--format", "concise", str(bad))[1] == out
    full = run(capsys, "check", "--no-config", "--output-format", "full", str(bad))[1]
    assert full == run(capsys, "check", "--no-config", "--format", "text", str(bad))[1] and "    3 |" in full
    assert run(capsys, "check", "--no-config", "--output-format", "json", str(bad))[1] == \
        run(capsys, "check", "--no-config", "--format", "json", str(bad))[1]


def test_colour_follows_the_flag_then_no_color_then_force_color(capsys, tmp_path, monkeypatch):
    """capsys's stdout is not a terminal: auto means no colour unless FORCE_COLOR asks for it."""
    bad = str(write(tmp_path / "bad.s", BAD))
    assert ANSI not in run(capsys, "check", "--no-config", bad)[1]
    assert ANSI in run(capsys, "check", "--no-config", "--color", "always", bad)[1]
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert ANSI in run(capsys, "check", "--no-config", bad)[1]
    assert ANSI not in run(capsys, "check", "--no-config", "--color", "never", bad)[1]
    monkeypatch.setenv("NO_COLOR", "1")
    assert ANSI not in run(capsys, "check", "--no-config", bad)[1]
    assert ANSI in run(capsys, "check", "--no-config", "--color", "always", bad)[1]
    monkeypatch.setenv("NO_COLOR", "")  # empty means unset (no-color.org)
    assert ANSI in run(capsys, "check", "--no-config", bad)[1]


def test_config_file_governs_inputs_anywhere(capsys, tmp_path):
    settings = write(tmp_path / "ci" / "lint.toml", 'mcpu = "gfx90a"\nignore = ["unknown-directive"]\ninclude-dirs = ["../inc"]\n')
    write(tmp_path / "inc" / "regs.inc", ".set vgprA, 3\n")
    kernel = write(tmp_path / "src" / "k.s", '.include "regs.inc"\nk:\n v_mov_b32 v[vgprA], 0\n .p2aling 8\n s_endpgm\n')
    code, out, _ = run(capsys, "check", "--no-cache", str(kernel))
    assert code == 1 and "unknown-target" in out
    code, out, err = run(capsys, "check", "--no-cache", "--config", str(settings), str(kernel))
    assert code == 0, out + err
    code, _, err = run(capsys, "check", "--config", str(tmp_path / "missing.toml"), str(kernel))
    assert code == 2 and "no such configuration file" in err
    code, _, err = run(capsys, "check", "--config", str(settings), "--no-config", str(kernel))
    assert code == 2 and "contradict" in err


def test_extend_select_adds_to_the_configured_selection(capsys, tmp_path):
    write(tmp_path / ".amdgpu-lint.toml", 'select = ["unknown-directive"]\n')
    bad = str(write(tmp_path / "bad.s", BAD))
    codes = lambda *flags: [d["code"] for d in json.loads(run(capsys, "check", "--no-cache", "--format", "json", *flags, bad)[1])["diagnostics"]]  # noqa: E731
    assert codes() == ["AGL002"]
    assert codes("--extend-select", "undefined-symbol") == ["AGL003", "AGL002"]
    assert codes("--select", "AGL003") == ["AGL003"]
    write(tmp_path / ".amdgpu-lint.toml", 'select = ["unknown-directive"]\nextend-select = ["AGL003"]\n')
    find_config.cache_clear()
    assert codes() == ["AGL003", "AGL002"]


def _linted(capsys, *argv) -> list[str]:
    _, out, err = run(capsys, "check", "--no-cache", "--format", "json", *argv)
    assert err == "", err
    return sorted({Path(d["path"]).as_posix() for d in json.loads(out)["diagnostics"]})


def test_walking_leaves_out_gitignored_and_excluded_files(capsys, tmp_path, monkeypatch):
    """In a git work tree, what .gitignore ignores is not walked; `exclude` replaces the defaults
    (.venv, .git, ...), `extend-exclude` adds to them; a file named explicitly is always linted."""
    monkeypatch.chdir(tmp_path)
    subprocess.run(["git", "init", "-q", "."], check=True)
    write(tmp_path / ".gitignore", "build/\n*.gen.s\n")
    for name in ("src/k.s", "src/k.gen.s", "build/k.s", "generated/k.s", ".venv/lib/k.s", "vendor/k.s"):
        write(tmp_path / name, BAD)
    assert _linted(capsys, ".") == ["generated/k.s", "src/k.s", "vendor/k.s"]
    write(tmp_path / "pyproject.toml", '[tool.amdgpu-lint]\nextend-exclude = ["generated", "vendor/*.s"]\n')
    find_config.cache_clear()
    assert _linted(capsys, ".") == ["src/k.s"]
    code, _, err = run(capsys, "check", "--extend-exclude", "src", ".")
    assert code == 2 and "no input files" in err
    # --exclude replaces the defaults and the configured `exclude`; `extend-exclude` still applies
    assert _linted(capsys, "--exclude", "generated", ".") == [".venv/lib/k.s", "src/k.s"]
    assert _linted(capsys, "build/k.s", "src") == ["build/k.s", "src/k.s"]
    assert _linted(capsys, "**/*.s") == ["src/k.s"]


def test_stdin_is_linted_under_the_stdin_filename(tmp_path):
    """Configuration, target and includes are looked up from the name given, and findings carry it."""
    write(tmp_path / "pyproject.toml", '[tool.amdgpu-lint]\nmcpu = "gfx90a"\n')
    write(tmp_path / "sub" / "regs.inc", ".set vgprA, 3\n")
    text = '.include "regs.inc"\nk:\n v_mov_b32 v[vgprA], 0\n .p2aling 8\n s_endpgm\n'
    command = [sys.executable, "-m", "amdgpu_lint", "check", "--output-format", "concise"]
    process = subprocess.run([*command, "--stdin-filename", "sub/k.s", "-"], input=text, capture_output=True,
                             text=True, cwd=tmp_path)
    assert process.returncode == 1, process.stderr
    assert process.stdout.splitlines() == [
        "sub/k.s:4:2: warning: unknown directive '.p2aling'; did you mean '.p2align'? [AGL002 unknown-directive]",
        "Found 1 problem (1 warning) in 1 file.",
    ]
    process = subprocess.run([*command, "-"], input=GOOD, capture_output=True, text=True, cwd=tmp_path)
    assert (process.returncode, process.stdout) == (0, "No problems found in 1 file.\n")
    process = subprocess.run([*command, "-", "sub"], input=GOOD, capture_output=True, text=True, cwd=tmp_path)
    assert process.returncode == 2 and "cannot be combined" in process.stderr


# ---------------------------------------------------------------- item 3: inputs


def test_no_input_files_is_an_error(capsys, tmp_path):
    write(tmp_path / "docs" / "notes.txt", "not assembly")
    code, out, err = run(capsys, "check", "--no-config", str(tmp_path / "docs"))
    assert (code, out) == (2, "") and "no input files" in err
    code, out, err = run(capsys, "check", "--no-config", str(tmp_path / "docs" / "*.s"))
    assert (code, out) == (2, "") and "no file matches" in err
    code, _, err = run(capsys, "report", "--no-config", str(tmp_path / "docs"))
    assert code == 2 and "no input files" in err


def test_a_missing_input_is_reported_and_the_others_still_linted(capsys, tmp_path):
    bad, good = write(tmp_path / "bad.s", BAD), write(tmp_path / "good.s", GOOD)
    missing = tmp_path / "missing.s"
    code, out, err = run(capsys, "check", "--no-config", str(bad), str(missing), str(good))
    assert code == 2
    assert err == f"amdgpu-lint: {missing}: no such file or directory\n"
    assert "AGL003" in out and out.endswith("Found 2 problems (1 error, 1 warning) in 2 files.\n")
    code, out, err = run(capsys, "check", "--no-config", str(good), str(tmp_path / "*.S"))
    assert code == 2 and "*.S: no file matches" in err and "No problems found in 1 file." in out


# ---------------------------------------------------------------- item 4: names


def test_explain_suggests_the_rule_meant(capsys):
    code, out, err = run(capsys, "explain", "missing-wiat")
    assert code == 2 and out == ""
    assert "no rule named 'missing-wiat'; did you mean missing-wait?" in err
    assert "did you mean" not in run(capsys, "explain", "zzzz")[2]


def test_select_and_ignore_suggest_the_rule_meant(capsys, tmp_path):
    kernel = tmp_path / "k.s"
    kernel.write_text(".amdgcn_target \"amdgcn-amd-amdhsa--gfx90a\"\n.text\nk:\n    s_endpgm\n")
    code, _, err = run(capsys, "check", "--no-config", "--select", "missing-wiat", str(kernel))
    assert code == 2 and "no rule matches 'missing-wiat'; did you mean missing-wait?" in err
    code, _, err = run(capsys, "check", "--no-config", "--ignore", "AGL2O1", str(kernel))
    assert code == 2 and "did you mean AGL201?" in err


SEED_NUMBER = re.compile(r"\bseed[\s_-]*0*\d", re.IGNORECASE)


def test_user_facing_text_names_sources_not_seed_numbers(capsys):
    """Rule docs, data tables, the package's text, README, docs/rules.md and every command's help."""
    texts = {str(path): path.read_text() for folder in ("lint", "rules") for path in (ROOT / folder).rglob("*")
             if path.suffix in (".py", ".json", ".lark") and path.is_file()}
    texts |= {name: (ROOT / name).read_text() for name in ("README.md", "docs/rules.md")}
    from amdgpu_lint.cli import build_parser

    parser = build_parser()
    texts["help"] = parser.format_help()
    for command in ("check", "report", "baseline", "occupancy", "rules", "explain"):
        with pytest.raises(SystemExit):
            parser.parse_args([command, "--help"])
        texts[f"{command} --help"] = capsys.readouterr().out
    assert {name: SEED_NUMBER.findall(text) for name, text in texts.items() if SEED_NUMBER.search(text)} == {}
    assert "MI308X" in texts[str(ROOT / "lint" / "data" / "latency.json")]


# ---------------------------------------------------------------- item 5: progress


def _stderr_on_a_terminal(argv: list[str], cwd: Path) -> tuple[int, str]:
    """Run amdgpu-lint with stderr on a pseudo-terminal of 100 columns; its exit code and what the terminal got."""
    controller, terminal = pty.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    process = subprocess.Popen([sys.executable, "-m", "amdgpu_lint", *argv], cwd=cwd, stdout=subprocess.DEVNULL,
                               stderr=terminal)
    os.close(terminal)
    shown = b""
    while True:
        try:
            chunk = os.read(controller, 65536)
        except OSError:  # the terminal closed with the process
            break
        if not chunk:
            break
        shown += chunk
    os.close(controller)
    return process.wait(), shown.decode(errors="replace")


def test_progress_bar_on_a_terminal_only(tmp_path):
    for number in range(12):
        write(tmp_path / "kernels" / f"k{number}.s", GOOD)
    code, shown = _stderr_on_a_terminal(["check", "--no-config", "--no-cache", "-j", "1", "kernels"], tmp_path)
    assert code == 0 and re.search(r"linting: +\d+%\|.*\| \d+/12 ", shown), shown
    code, shown = _stderr_on_a_terminal(["check", "--no-config", "--no-cache", "-q", "kernels"], tmp_path)
    assert (code, shown) == (0, "")
    process = subprocess.run([sys.executable, "-m", "amdgpu_lint", "check", "--no-config", "--no-cache", "kernels"],
                             cwd=tmp_path, capture_output=True, text=True)
    assert (process.returncode, process.stderr) == (0, "")
    assert "tqdm" not in loaded_by("check", "--no-cache", "--no-config", str(tmp_path / "kernels"))


# ---------------------------------------------------------------- item 6: summary


@pytest.mark.parametrize(("files", "severity", "summary"), [
    ((BAD,), None, "Found 2 problems (1 error, 1 warning) in 1 file."),
    ((WORSE,), None, "Found 3 problems (1 error, 2 warnings) in 1 file."),
    ((BAD, BAD, GOOD), None, "Found 4 problems (2 errors, 2 warnings) in 3 files."),
    ((BAD,), "info", "Found 2 problems (1 error, 1 info) in 1 file."),
    ((WORSE,), "info", "Found 3 problems (1 error, 2 info) in 1 file."),
    ((GOOD, GOOD), None, "No problems found in 2 files."),
])
def test_summary_line_counts_each_severity(capsys, tmp_path, files, severity, summary):
    if severity:
        write(tmp_path / ".amdgpu-lint.toml", f'severity = {{ unknown-directive = "{severity}" }}\n')
    paths = [str(write(tmp_path / f"k{number}.s", text)) for number, text in enumerate(files)]
    _, out, _ = run(capsys, "check", "--no-cache", *paths)
    assert out.splitlines()[-1] == summary


_PROGRAM = """
import atexit, os, sys

leave = os._exit
os._exit = lambda status: (os.write(2, b"left at once\\n"), leave(status))
sys.argv = ["amdgpu-lint", *sys.argv[1:]]
import amdgpu_lint.__main__ as program

command = program.main
def main():  # a handler registered while the command runs (as the standard library's are)
    atexit.register(lambda: print("at exit", file=sys.stderr))
    return command()
program.main = main
program.run()
"""


def test_the_program_leaves_without_tearing_down_after_its_output_and_exit_functions(capsys, tmp_path):
    """Freeing every object at exit is 2% of a 20k-line check; `run` skips it, after flushing the output (more
    than a pipe holds here) and running what the command registered at exit; the exit status is main's."""
    listing = tmp_path / "k.s"
    listing.write_text("".join(f"k{i}:\n v_mov_b32 v0, 0\n .p2aling 8\n s_endpgm\n" for i in range(400)))
    argv = ["check", "--no-cache", "--no-config", str(listing)]
    process = subprocess.run([sys.executable, "-c", _PROGRAM, *argv], capture_output=True, text=True)
    assert main(argv) == process.returncode == 1
    assert process.stdout == capsys.readouterr().out and len(process.stdout) > 65536
    assert process.stderr.splitlines() == ["at exit", "left at once"]


@pytest.mark.parametrize("columns", ["50", "132"])
def test_help_is_laid_out_as_argparse_lays_it_out(monkeypatch, columns):
    """The help formatter reads the width itself (argparse's would import shutil for it): same text."""
    import argparse

    from amdgpu_lint import cli

    monkeypatch.setenv("COLUMNS", columns)
    cli._help_width.cache_clear()
    ours, theirs = cli.build_parser(), cli.build_parser()
    subparsers = [action for action in theirs._actions if isinstance(action, argparse._SubParsersAction)]
    for parser in [theirs, *subparsers[0].choices.values()]:
        parser.formatter_class = argparse.HelpFormatter
    ours_check, theirs_check = (next(a for a in p._actions if isinstance(a, argparse._SubParsersAction)).choices["check"]
                                for p in (ours, theirs))
    assert ours.format_help() == theirs.format_help()
    assert ours_check.format_help() == theirs_check.format_help()
    assert max(map(len, theirs.format_help().splitlines())) <= int(columns)
    cli._help_width.cache_clear()
