"""`check` lints each kernel as soon as it is complete and keeps little of it (issue 18: memory bounded by
the largest kernel), with the findings of a whole-module lint: on LLVM's output, and on hand-written files
where something later in the file changes what an early kernel was linted with (then it lints again)."""

import os
import sys
from dataclasses import dataclass

import pytest
from amdgpu_lint.driver import linter
from amdgpu_lint.frontend import builder
from amdgpu_lint.frontend.builder import build_module
from amdgpu_lint.frontend.options import BuildOptions
from amdgpu_lint.frontend.source import split_lines
from amdgpu_lint.rules import RULES
from conftest import ROOT, skip_if_compiled

sys.path.insert(0, str(ROOT / "bench"))


@dataclass
class BothWays:
    whole: list[tuple]  # sort keys of a whole-module lint's findings
    streamed: list[tuple]  # ... of check's kernel-by-kernel lint
    handed: int  # times the builder handed functions on before the end of the file
    fallbacks: int  # times the file was linted again at once
    module: object  # what the streamed lint kept


@pytest.fixture(params=[1, 2], ids=["one-process", "split"])
def both_ways(monkeypatch, request):
    """Lint a text whole and streamed (by one process, or split with a forked copy however short the text),
    counting early hand-overs and falls back to a whole lint."""
    skip_if_compiled(linter, builder)
    processes = request.param
    monkeypatch.setattr(linter, "SPLIT_LINES", 1)
    counts = {"handed": 0, "fallbacks": 0}
    hand_on, build = builder._Builder._hand_on, linter.build_module

    def counted_hand_on(self, early):
        counts["handed"] += 1
        return hand_on(self, early)

    def counted_build(*args, **kwargs):
        try:
            return build(*args, **kwargs)
        except builder.EarlyKernelsUnsafe:
            counts["fallbacks"] += 1
            raise

    monkeypatch.setattr(builder._Builder, "_hand_on", counted_hand_on)
    monkeypatch.setattr(linter, "build_module", counted_build)

    def lint(text: str, path: str = "k.s") -> BothWays:
        rules = list(RULES)
        counts.update(handed=0, fallbacks=0)
        module, streamed = linter.run_rules_streamed(split_lines(path, text), BuildOptions(), rules, processes)
        handed, fallbacks = counts["handed"], counts["fallbacks"]
        whole = linter.run_rules(build_module(split_lines(path, text), BuildOptions()), rules)
        keys = [sorted(d.sort_key for d in found) for found in (whole, streamed)]
        return BothWays(keys[0], keys[1], handed, fallbacks, module)

    return lint


def test_llvm_output_is_linted_kernel_by_kernel_with_the_same_findings(both_ways):
    pytest.importorskip("llvmlite.binding")
    import bench

    text = bench.build_file(3000)  # LLVM 22's gfx942 kernels, repeated with unique symbols
    linted = both_ways(text)
    assert linted.streamed == linted.whole and linted.whole and linted.fallbacks == 0
    assert linted.handed >= 20  # each function was linted when the next began, not at the end of the file
    kept = sum(len(kernel.instructions) for kernel in linted.module.kernels)
    built = sum(len(kernel.instructions) for kernel in build_module(split_lines("k.s", text), BuildOptions()).kernels)
    assert kept < built / 5  # the module keeps the branches module rules read, not the kernels


FIRST = """\
.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
.text
.globl first
.type first,@function
first:
    s_load_dwordx2 s[0:1], s[4:5], 0x0
    global_load_dword v1, v0, s[0:1]
    v_add_f32 v2, v1, v1
    s_endpgm
"""
HANDWRITTEN = FIRST + """\
.globl second
.type second,@function
second:
    s_endpgm
{late}
.rodata
.p2align 6
.amdhsa_kernel first
  .amdhsa_next_free_vgpr .set_later
  .amdhsa_next_free_sgpr 8
  .amdhsa_accum_offset 4
.end_amdhsa_kernel
"""


@pytest.mark.parametrize("late", [
    ".set .set_later, 3",  # the descriptor (after both functions) reads a symbol set in between
    ".set .set_later, 3\n.set .set_later, 200",  # ... redefined: the value at the end counts
])
def test_a_descriptor_after_the_code_is_still_read_as_the_whole_file_says(both_ways, late):
    """ROCR-style files put every descriptor at the end: `first` is complete when `second` begins, but its
    descriptor comes later, so it is linted again with the whole file; the findings are the same."""
    text = HANDWRITTEN.replace("{late}", late)
    linted = both_ways(text)
    assert linted.streamed == linted.whole and linted.handed >= 1 and linted.fallbacks == 1
    assert any(key[3] == "AGL201" for key in linted.whole)  # the missing wait is still caught


NEXT_FREE = FIRST + """\
.rodata
.amdhsa_kernel first
  .amdhsa_next_free_vgpr .amdgcn.next_free_vgpr
  .amdhsa_next_free_sgpr 8
  .amdhsa_accum_offset 4
.end_amdhsa_kernel
.text
.globl second
.type second,@function
second:
    v_mov_b32 v120, 0
    s_endpgm
"""


def test_a_symbol_read_early_and_changed_later_makes_the_file_lint_again(both_ways):
    """`first`'s descriptor reads `.amdgcn.next_free_vgpr`, which means its value at the end of the file:
    `second` raises it after `first` was linted, so the file is linted again, all at once."""
    linted = both_ways(NEXT_FREE)
    assert linted.streamed == linted.whole and linted.handed >= 1 and linted.fallbacks == 1
    assert next(k for k in linted.module.kernels if k.name == "first").descriptor == {}  # linted, then let go


def test_macros_and_conditions_are_linted_at_the_end(both_ways):
    text = HANDWRITTEN.replace("{late}", ".set .set_later, 3").replace(".text\n", ".macro NOTHING\n.endm\n.text\n", 1)
    linted = both_ways(text)
    assert linted.streamed == linted.whole and linted.handed == 0 and linted.fallbacks == 0


BRANCHES = """\
.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
.text
.globl first
.type first,@function
first:
    s_cbranch_scc1 .Lnowhere
    s_cbranch_scc0 .Lin_second
    s_branch .Lfirst_end
.Lfirst_end:
    s_endpgm
.globl second
.type second,@function
second:
.Lin_second:
    s_endpgm
.globl third
.type third,@function
third:
    s_endpgm
"""


def test_branch_targets_are_judged_with_every_label_of_the_file(both_ways):
    """A linted kernel keeps only its branches to labels not defined yet: one defined in a later function
    is no finding, one defined nowhere still is (with its suggestion)."""
    linted = both_ways(BRANCHES)
    assert linted.streamed == linted.whole and linted.handed >= 2 and linted.fallbacks == 0
    undefined = [key for key in linted.whole if key[3] == "AGL003"]
    assert len(undefined) == 1 and ".Lnowhere" in undefined[0][4]
    first = next(kernel for kernel in linted.module.kernels if kernel.name == "first")
    assert [instruction.mnemonic for instruction in first.instructions] == ["s_cbranch_scc1", "s_cbranch_scc0"]


def test_a_label_named_a_function_later_splits_the_code_as_the_whole_file_says(both_ways):
    """`inner:` reads as a label inside `first` until a later `.type inner,@function` makes it a function
    of its own (llvm-mc reads the file as a whole): the file is linted again, all at once."""
    text = BRANCHES.replace(".Lfirst_end:", "inner:").replace("s_branch .Lfirst_end", "s_branch inner")
    text += ".type inner,@function\n"
    linted = both_ways(text)
    assert linted.streamed == linted.whole and linted.handed >= 1 and linted.fallbacks == 1
    assert "inner" in {kernel.name for kernel in linted.module.kernels}


CALLER_FIRST = """\
.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
.text
.globl caller
.type caller,@function
caller:
    s_endpgm
.rodata
.amdhsa_kernel caller
  .amdhsa_next_free_vgpr caller.num_vgpr
  .amdhsa_next_free_sgpr 8
  .amdhsa_accum_offset 4
.end_amdhsa_kernel
.text
.set caller.num_vgpr, max(4, callee.num_vgpr)
.globl callee
.type callee,@function
callee:
    v_mov_b32 v40, 0
    s_setpc_b64 s[30:31]
.set callee.num_vgpr, 41
.globl third
.type third,@function
third:
    s_endpgm
"""


def test_a_caller_before_its_callee_waits_for_the_callee_and_is_still_linted_early(both_ways):
    """LLVM writes `.set caller.num_vgpr, max(4, callee.num_vgpr)`: before the callee's symbols are defined
    the caller's descriptor cannot be read, so the caller is held back until they are, not linted twice."""
    linted = both_ways(CALLER_FIRST)
    assert linted.streamed == linted.whole and linted.handed >= 2 and linted.fallbacks == 0
    assert [kernel.name for kernel in linted.module.kernels] == ["caller", "callee", "third"]


def test_linting_leaves_no_reference_cycles():
    """Memory is freed as soon as a kernel is linted, by reference counting alone: a cycle would wait for the
    garbage collector (and every collection walks all that is alive)."""
    import gc

    skip_if_compiled(linter, reason="mypyc's closures and generators hold their environment in a cycle")
    text = FIRST.replace("v_add_f32 v2, v1, v1", ".set lane, 1\n    v_add_f32 v[lane+1], v1, lane") + """\
.type second,@function
second:
    s_endpgm
"""
    gc.collect()
    gc.disable()
    try:
        findings = linter.run_rules_streamed(split_lines("k.s", text), BuildOptions(), list(RULES))[1]
        assert findings is not None
        assert gc.collect() == 0
    finally:
        gc.enable()


def test_distinct_statements_remembered_are_bounded():
    """A million-line file has ~160k distinct statement texts (kernel names, labels): memory does not grow with
    them, and a text in use stays remembered."""
    from amdgpu_lint.frontend import syntax

    common = syntax.parse_statement("s_waitcnt vmcnt(0)")
    kept = syntax._statements.kept
    for number in range(3 * kept):
        syntax.parse_statement(f".set kernel_{number}.num_vgpr, {number % 256}")
        if number % 1000 == 0:
            assert syntax.parse_statement("s_waitcnt vmcnt(0)") is common
    assert 0 < len(syntax._statements) <= 2 * kept


class _OwnKernels:
    """The kernels this process lints itself (a forked copy's are not seen here); `fail_in_copy` makes a copy's
    rules raise, `fail_here` this process's."""

    def __init__(self, monkeypatch):
        skip_if_compiled(linter)
        self.parent, self.kernels, self.fail_in_copy, self.fail_here = os.getpid(), [], False, False
        kernel_rules = linter._kernel_rules

        def counted(module, kernels, rules):
            if os.getpid() != self.parent:
                if self.fail_in_copy:
                    raise RuntimeError("a rule failed in the copy")
            elif self.fail_here:
                raise KeyboardInterrupt
            else:
                self.kernels.extend(kernels)
            return kernel_rules(module, kernels, rules)

        monkeypatch.setattr(linter, "_kernel_rules", counted)


def _lint_counting_own_kernels(monkeypatch, text: str, processes: int, fail_in_copy: bool = False) -> tuple[list, int]:
    """(the findings, how many kernels this process linted itself)."""
    own = _OwnKernels(monkeypatch)
    own.fail_in_copy = fail_in_copy
    _, found = linter.run_rules_streamed(split_lines("k.s", text), BuildOptions(), list(RULES), processes)
    return found, len(own.kernels)


def test_a_long_file_is_shared_with_a_forked_copy(monkeypatch):
    """The copy lints the kernels of the file's first part and builds no further; this process builds it all and
    lints the rest. The findings are one process's, in the same order."""
    pytest.importorskip("llvmlite.binding")
    import bench

    text = bench.build_file(3000)
    monkeypatch.setattr(linter, "SPLIT_LINES", 1000)
    alone, kernels = _lint_counting_own_kernels(monkeypatch, text, 1)
    shared, own = _lint_counting_own_kernels(monkeypatch, text, 2)
    assert shared == alone and alone
    assert 0.25 * kernels < own < 0.6 * kernels  # the copy linted the first ~60% of the file


def test_a_failing_copy_leaves_the_file_to_this_process(monkeypatch):
    """Whatever failed in the copy is done again here (and fails here if it must), as without a copy."""
    pytest.importorskip("llvmlite.binding")
    import bench

    text = bench.build_file(3000)
    monkeypatch.setattr(linter, "SPLIT_LINES", 1000)
    alone, kernels = _lint_counting_own_kernels(monkeypatch, text, 1)
    shared, own = _lint_counting_own_kernels(monkeypatch, text, 2, fail_in_copy=True)
    assert shared == alone and own > kernels  # the parent's share, then the whole file


def test_a_short_file_is_not_shared(monkeypatch):
    from amdgpu_lint.driver import forks

    def no_copy(work):
        raise AssertionError("a copy was made")

    monkeypatch.setattr(forks, "fork_copy", no_copy)
    source = split_lines("k.s", (ROOT / "fixtures" / "examples" / "compiler" / "loop_saxpy_gfx942.s").read_text())
    assert len(source.lines) < linter.SPLIT_LINES
    for keep_module in (True, False):
        assert linter.lint_source(source, BuildOptions(), list(RULES), keep_module=keep_module, processes=2).diagnostics


def test_a_kept_module_has_its_kernels_shared_with_a_forked_copy(monkeypatch):
    """`report` keeps the module: once it is built, a copy lints the first half of its kernels."""
    pytest.importorskip("llvmlite.binding")
    import bench

    module = build_module(split_lines("k.s", bench.build_file(3000)), BuildOptions())
    own = _OwnKernels(monkeypatch)
    alone = linter.run_rules(module, list(RULES))
    assert len(own.kernels) == len(module.kernels)
    own.kernels.clear()
    assert linter.run_rules(module, list(RULES), processes=2) == alone and alone
    assert 0.3 * len(module.kernels) < len(own.kernels) < 0.7 * len(module.kernels)
    own.kernels.clear()
    own.fail_in_copy = True  # then this process lints the copy's half too
    assert linter.run_rules(module, list(RULES), processes=2) == alone and len(own.kernels) == len(module.kernels)


def test_kernel_reports_are_shared_with_a_forked_copy(monkeypatch):
    pytest.importorskip("llvmlite.binding")
    from amdgpu_lint.driver import report

    import bench

    module = build_module(split_lines("k.s", bench.build_file(3000)), BuildOptions())
    kernels = [(module, kernel) for kernel in module.kernels]
    skip_if_compiled(report)
    parent, own = os.getpid(), []
    kernel_report = report.kernel_report

    def counted(module, kernel):
        if os.getpid() == parent:
            own.append(kernel)
        return kernel_report(module, kernel)

    monkeypatch.setattr(report, "kernel_report", counted)
    alone = report.kernel_reports(kernels, processes=2)  # one process: the file is shorter than SPLIT_LINES
    assert len(own) == len(kernels)
    own.clear()
    monkeypatch.setattr(linter, "SPLIT_LINES", 100)
    assert report.kernel_reports(kernels, processes=2) == alone and len(alone) == len(kernels)
    assert 0.3 * len(kernels) < len(own) < 0.7 * len(kernels)


def test_a_failure_here_ends_the_copy(monkeypatch):
    pytest.importorskip("llvmlite.binding")
    import bench

    text = bench.build_file(3000)
    monkeypatch.setattr(linter, "SPLIT_LINES", 1000)
    _OwnKernels(monkeypatch).fail_here = True
    with pytest.raises(KeyboardInterrupt):
        linter.run_rules_streamed(split_lines("k.s", text), BuildOptions(), list(RULES), 2)
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)  # no copy left running


def test_a_lint_of_many_kernels_runs_no_cyclic_collection():
    """Kernel by kernel, what a lint makes is freed by reference counting, so the tracked objects never grow by the
    collector's threshold (`__main__._collect_rarely`): no collection walks them (at 10,000, 20k lines took 5)."""
    import gc

    from amdgpu_lint.__main__ import _collect_rarely

    pytest.importorskip("llvmlite.binding")
    import bench

    source = split_lines("k.s", bench.build_file(20000))
    collections: list[int] = []

    def count(phase, info):
        if phase == "start":
            collections.append(info["generation"])

    threshold = gc.get_threshold()
    gc.collect()
    _collect_rarely()
    gc.callbacks.append(count)
    try:
        _, found = linter.run_rules_streamed(source, BuildOptions(), list(RULES), 1)
    finally:
        gc.callbacks.remove(count)
        gc.set_threshold(*threshold)
    assert found and collections == []
