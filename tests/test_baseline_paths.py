"""Baseline snapshots name files relative to the configuration's directory (else the snapshot's own), so
one written at the repository root matches checks run from anywhere (issue 17 item 3)."""

import json
import shutil

from amdgpu_lint.cli import main
from amdgpu_lint.model.diagnostics import fingerprints
from amdgpu_lint.driver.linter import lint_file
from amdgpu_lint.frontend.options import BuildOptions
from amdgpu_lint.rules import RULES


def kernel(vgprs: int, body: str = "") -> str:
    """A gfx90a kernel using `vgprs` VGPRs: 64 give 8 waves/SIMD, 65 give 7."""
    return ('.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"\n'
            f"k:\n v_mov_b32 v{vgprs - 1}, 0\n{body} s_endpgm\n"
            f".amdhsa_kernel k\n  .amdhsa_user_sgpr_kernarg_segment_ptr 1\n  .amdhsa_next_free_vgpr {vgprs}\n"
            f"  .amdhsa_next_free_sgpr 8\n  .amdhsa_accum_offset {-(-vgprs // 4) * 4}\n.end_amdhsa_kernel\n")


def check(capsys, *argv: str) -> tuple[int, list[str]]:
    capsys.readouterr()
    code = main(["check", "--format", "json", *argv])
    return code, [d["name"] for d in json.loads(capsys.readouterr().out)["diagnostics"]]


def snapshot_from_stdout(capsys, target, *argv: str) -> dict:
    capsys.readouterr()
    assert main(["baseline", *argv]) == 0
    target.write_text(capsys.readouterr().out)
    return json.loads(target.read_text())


def repository(root, config: str = "[tool.amdgpu-lint]\n"):
    """root/pyproject.toml and root/kernels/a.s (64 VGPRs)."""
    (root / "kernels").mkdir(parents=True)
    (root / "pyproject.toml").write_text(config)
    (root / "kernels" / "a.s").write_text(kernel(64))
    return root / "kernels" / "a.s"


def test_snapshot_from_the_root_matches_checks_from_a_subdirectory(tmp_path, monkeypatch, capsys):
    source = repository(tmp_path)
    monkeypatch.chdir(tmp_path)
    snapshot = snapshot_from_stdout(capsys, tmp_path / "base.json", "kernels/a.s")
    assert list(snapshot["kernels"]) == ["kernels/a.s::k"]
    monkeypatch.chdir(tmp_path / "kernels")  # written from elsewhere: the same keys (the configuration's directory)
    assert snapshot_from_stdout(capsys, tmp_path / "again.json", "a.s")["kernels"] == snapshot["kernels"]
    places = [(tmp_path, "base.json", "kernels/a.s"), (tmp_path / "kernels", "../base.json", "a.s"),
              (tmp_path.parent, str(tmp_path / "base.json"), str(source))]
    for directory, baseline, path in places:
        monkeypatch.chdir(directory)
        assert check(capsys, "--baseline", baseline, path) == (0, []), directory
    source.write_text(kernel(65))
    for directory, baseline, path in places:
        monkeypatch.chdir(directory)
        assert check(capsys, "--baseline", baseline, path) == (1, ["occupancy-regression"]), directory


def test_known_findings_stay_quiet_from_a_subdirectory(tmp_path, monkeypatch, capsys):
    source = repository(tmp_path)
    source.write_text(kernel(64, " s_branch .Lnope\n"))
    monkeypatch.chdir(tmp_path)
    assert main(["baseline", "-o", "base.json", "kernels/a.s"]) == 0
    assert [key.split("::")[:2] for key in json.loads((tmp_path / "base.json").read_text())["findings"]] == [
        ["kernels/a.s", "AGL003"]]
    monkeypatch.chdir(tmp_path / "kernels")
    assert check(capsys, "--baseline", "../base.json", "a.s") == (0, [])
    source.write_text(kernel(64, " s_nop 0\n s_branch .Lnope\n s_branch .Lnew\n"))  # the known one moved, one added
    for directory, baseline, path in ((tmp_path / "kernels", "../base.json", "a.s"), (tmp_path, "base.json", "kernels/a.s")):
        monkeypatch.chdir(directory)
        capsys.readouterr()
        assert main(["check", "--format", "json", "--baseline", baseline, path]) == 1
        (new,) = json.loads(capsys.readouterr().out)["diagnostics"]
        assert "'.Lnew'" in new["message"]


def test_a_moved_checkout_keeps_matching(tmp_path, monkeypatch, capsys):
    repository(tmp_path / "one")
    monkeypatch.chdir(tmp_path / "one")
    assert main(["baseline", "-o", "base.json", "kernels"]) == 0
    shutil.move(tmp_path / "one", tmp_path / "two")
    source = tmp_path / "two" / "kernels" / "a.s"
    source.write_text(kernel(65))
    monkeypatch.chdir(tmp_path / "two" / "kernels")
    assert check(capsys, "--baseline", "../base.json", "a.s") == (1, ["occupancy-regression"])


def test_without_configuration_paths_are_relative_to_the_snapshot(tmp_path, monkeypatch, capsys):
    (tmp_path / "kernels").mkdir()
    (tmp_path / "snapshots").mkdir()
    source = tmp_path / "kernels" / "a.s"
    source.write_text(kernel(64))
    monkeypatch.chdir(tmp_path)
    assert main(["baseline", "-o", "snapshots/base.json", "kernels/a.s"]) == 0
    assert list(json.loads((tmp_path / "snapshots" / "base.json").read_text())["kernels"]) == ["../kernels/a.s::k"]
    monkeypatch.chdir(tmp_path / "kernels")  # to stdout: relative to the current directory
    assert list(snapshot_from_stdout(capsys, tmp_path / "kernels" / "here.json", "a.s")["kernels"]) == ["a.s::k"]
    source.write_text(kernel(65))
    for directory, baseline, path in ((tmp_path, "snapshots/base.json", "kernels/a.s"),
                                      (tmp_path / "kernels", "../snapshots/base.json", "a.s"),
                                      (tmp_path, "kernels/here.json", "kernels/a.s")):
        monkeypatch.chdir(directory)
        assert check(capsys, "--baseline", baseline, path) == (1, ["occupancy-regression"]), (directory, baseline)


def test_snapshots_from_before_relative_keys_still_work_where_they_were_written(tmp_path, monkeypatch, capsys):
    source = repository(tmp_path)
    source.write_text(kernel(64, " s_branch .Lnope\n"))
    monkeypatch.chdir(tmp_path)
    old = lint_file("kernels/a.s", BuildOptions(), list(RULES))  # keys as the old `baseline` wrote them
    (print_,) = fingerprints(old.diagnostics, old.module.sources)
    (tmp_path / "old.json").write_text(json.dumps({
        "version": "0.1.0", "kernels": {"kernels/a.s::k": {"vgpr": 64, "waves_per_simd": 8}},
        "findings": [f"kernels/a.s::AGL003::{print_}"]}))
    assert check(capsys, "--baseline", "old.json", "kernels/a.s") == (0, [])
    source.write_text(kernel(65, " s_branch .Lnope\n"))
    assert check(capsys, "--baseline", "old.json", "kernels/a.s") == (1, ["occupancy-regression"])


def test_configured_baseline_is_written_and_refreshed_without_reading_it(tmp_path, monkeypatch, capsys):
    source = repository(tmp_path, '[tool.amdgpu-lint]\nbaseline = "base.json"\n')
    source.write_text(kernel(64, " s_branch .Lnope\n"))
    monkeypatch.chdir(tmp_path)
    assert main(["baseline", "-o", "base.json", "kernels"]) == 0  # the configured file does not exist yet
    first = json.loads((tmp_path / "base.json").read_text())
    assert main(["baseline", "-o", "base.json", "kernels"]) == 0  # refreshing keeps the known finding
    assert json.loads((tmp_path / "base.json").read_text()) == first and len(first["findings"]) == 1
    source.write_text(kernel(65, " s_branch .Lnope\n"))
    monkeypatch.chdir(tmp_path / "kernels")
    assert check(capsys, "a.s") == (1, ["occupancy-regression"])
