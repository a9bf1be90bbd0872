"""The README's first command: the bundled examples lint and print real findings."""

import json

from amdgpu_lint.cli import main
from conftest import FIXTURES


def test_examples_report_the_planted_mistakes(capsys):
    code = main(["check", "--no-config", "--format", "json", str(FIXTURES / "examples")])
    document = json.loads(capsys.readouterr().out)
    found = sorted((d["path"].rsplit("/", 1)[-1], d["line"], d["name"]) for d in document["diagnostics"])
    assert found == [
        ("copy_loop_gfx90a.s", 23, "undefined-symbol"),
        ("copy_loop_gfx90a.s", 35, "unknown-directive"),
        ("lds_barrier_without_fence_gfx1100.s", 17, "missing-wait"),  # compiler output of racy IR
        ("lds_barrier_without_fence_gfx1100.s", 21, "issue-oversubscription"),  # info: 64 waves share the LDS
        ("lds_barrier_without_fence_gfx1100.s", 23, "missing-wait"),
        ("lds_reduce_gfx1100.s", 23, "issue-oversubscription"),
        ("lds_reduce_gfx1100.s", 23, "issue-oversubscription"),
        ("loop_saxpy_gfx942.s", 18, "issue-oversubscription"),  # a streaming loop is memory-bound
        ("loop_saxpy_gfx942.s", 24, "short-prefetch"),  # LLVM waits for both loads in the same iteration: one wait
        ("mfma_gemm_gfx90a.s", 53, "issue-oversubscription"),
        ("prefetch_gfx942.s", 16, "missing-wait"),
        ("prefetch_gfx942.s", 19, "issue-oversubscription"),
        ("prefetch_gfx942.s", 19, "short-prefetch"),  # the over-strict wait below defeats the prefetch
        ("prefetch_gfx942.s", 20, "overstrict-wait"),
        ("scale_gfx1100.s", 7, "undefined-symbol"),
    ]
    assert code == 1 and document["summary"]["files"] == 8
