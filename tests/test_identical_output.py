"""Every finding, in every `check` format (text, json, sarif, github, gitlab), is byte-identical to the
golden digests in fixtures/golden/outputs.json, on the bundled inputs and the generated LLVM corpus.

A speed change must keep this test green without touching the golden file. When a change is MEANT to
change findings (a new rule, a fixed false positive, a reworded message), regenerate the digests with
`python scripts/golden_outputs.py --write` and commit them with the change; say in the commit which
findings changed and why. The normalisations (tool version, workspace URI, the rules' prose in SARIF)
are in scripts/golden_outputs.py.
"""

import sys

import pytest
from conftest import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
import golden_outputs as golden  # noqa: E402

pytest.importorskip("llvmlite.binding")

_LISTED = 30  # changed inputs listed on a mismatch
_HINTS = 5  # of which explained in detail


@pytest.fixture(scope="module")
def workspace():
    """The inputs in a scratch working directory, each linted once for all formats."""
    with golden.workspace() as inputs, golden.lint_once():
        yield inputs


def test_every_finding_in_every_format_is_unchanged(workspace):
    expected = golden.load_golden()
    current = {name: golden.record(name) for name in workspace}
    changed = golden.differences(expected, current)
    hints = [f"{name}: {golden.first_differing_finding(name, expected[name]['findings'])}"
             for name in sorted(expected.keys() & current.keys())
             if expected[name] != current[name]][:_HINTS]
    assert not changed, (
        "check's output changed (if meant, run `python scripts/golden_outputs.py --write`):\n"
        + "\n".join(changed[:_LISTED]) + (f"\n... and {len(changed) - _LISTED} more" if len(changed) > _LISTED else "")
        + "\nfirst differing finding:\n" + "\n".join(hints))


def test_worker_processes_and_the_result_cache_print_the_same(workspace, tmp_path, monkeypatch):
    """The examples directory with two workers, cold and warm cache: the output of one process, uncached."""
    monkeypatch.setenv("AMDGPU_LINT_CACHE_DIR", str(tmp_path / "cache"))
    name = golden.DIRECTORY_INPUT
    expected = golden.record(name)
    workers = {form: golden.run_check(["--no-cache", "--jobs", "2", "--format", form, name]) for form in golden.FORMATS}
    cold_then_warm = {form: golden.run_check(["--jobs", "2", "--format", form, name]) for form in golden.FORMATS}
    warm_text = golden.run_check(["--jobs", "2", "--format", "text", name])
    for label, outputs in (("--jobs 2 --no-cache", workers), ("--jobs 2, cold cache then warm", cold_then_warm),
                           ("--jobs 2, warm cache", {"text": warm_text})):
        digests = golden.format_digests(outputs)
        differing = [form for form, digest in digests.items() if digest != expected[form]]
        assert not differing, f"{name} with {label}: {', '.join(differing)} differ from the uncached single process"
