"""`check` caches results by content (plus included files, options and the tool) and lints
many files in parallel with --jobs; both give exactly the output of a plain run."""

import json

import pytest
from amdgpu_lint.cli import main
from amdgpu_lint.driver import linter, session

BAD = '.amdgcn_target "amdgcn-amd-amdhsa--gfx942"\nk:\n s_branch .Lmissing\n .include "inc.s"\n s_endpgm\n'
INCLUDED_GOOD = " s_nop 0\n"
INCLUDED_BAD = " s_brnch .Lelsewhere\n"


@pytest.fixture
def cache(tmp_path, monkeypatch):
    directory = tmp_path / "cache"
    monkeypatch.setenv("AMDGPU_LINT_CACHE_DIR", str(directory))
    return directory


def check_json(capsys, *argv):
    code = main(["check", "--no-config", "--format", "json", *argv])
    return code, json.loads(capsys.readouterr().out)


def test_second_run_is_served_from_the_cache(tmp_path, cache, capsys, monkeypatch):
    (tmp_path / "inc.s").write_text(INCLUDED_GOOD)
    (tmp_path / "k.s").write_text(BAD)
    first = check_json(capsys, "-j", "1", str(tmp_path / "k.s"))
    assert first[1]["diagnostics"] and any(cache.rglob("*"))

    def no_linting(*args, **kwargs):
        raise AssertionError("linted although cached")

    monkeypatch.setattr(linter, "lint_input", no_linting)
    assert check_json(capsys, "-j", "1", str(tmp_path / "k.s")) == first


def test_changed_include_or_options_miss_the_cache(tmp_path, cache, capsys):
    (tmp_path / "inc.s").write_text(INCLUDED_GOOD)
    (tmp_path / "k.s").write_text(BAD)
    _, before = check_json(capsys, "-j", "1", str(tmp_path / "k.s"))
    (tmp_path / "inc.s").write_text(INCLUDED_BAD)
    _, after = check_json(capsys, "-j", "1", str(tmp_path / "k.s"))
    assert len(after["diagnostics"]) == len(before["diagnostics"]) + 1
    _, selected = check_json(capsys, "-j", "1", "--select", "AGL003", str(tmp_path / "k.s"))
    assert {d["code"] for d in selected["diagnostics"]} == {"AGL003"}


def test_no_cache_writes_nothing(tmp_path, cache, capsys):
    (tmp_path / "inc.s").write_text(INCLUDED_GOOD)
    (tmp_path / "k.s").write_text(BAD)
    check_json(capsys, "--no-cache", str(tmp_path / "k.s"))
    assert not cache.exists()


def test_jobs_give_the_same_text_output(tmp_path, cache, capsys):
    (tmp_path / "inc.s").write_text(INCLUDED_BAD)
    for index in range(6):
        (tmp_path / f"k{index}.s").write_text(BAD.replace("k:", f"k{index}:"))
    outputs = []
    for jobs in ("1", "3"):
        code = main(["check", "--no-config", "--no-cache", "-j", jobs, str(tmp_path)])
        outputs.append((code, capsys.readouterr().out))
    assert outputs[0] == outputs[1] and outputs[0][0] == 1
    assert outputs[0][1].count("s_branch .Lmissing") == 6  # snippets re-read for results without a module


#: an assembler that refuses line 2 of whatever it reads (run as llvm-mc is: the text on stdin)
REFUSING_ASSEMBLER = """#!/bin/sh
if [ "$1" = "--version" ]; then echo "refusing assembler 1.0"; exit 0; fi
cat > /dev/null
echo "<stdin>:2:3: error: refused here" >&2
exit 1
"""


def test_worker_processes_send_back_results_that_name_the_assembler(tmp_path, capsys):
    """A --jobs worker's results are pickled back, the assembler they name with them (in either build)."""
    assembler = tmp_path / "refusing-mc"
    assembler.write_text(REFUSING_ASSEMBLER)
    assembler.chmod(0o755)
    for name in ("a", "b"):
        (tmp_path / f"{name}.s").write_text(f"{name}:\n s_nop 0\n s_endpgm\n")
    argv = ["check", "--no-config", "--no-cache", "--mcpu", "gfx90a", "--assembler", str(assembler), "--format", "json"]
    found = json.loads((main([*argv, "-j", "2", str(tmp_path / "a.s"), str(tmp_path / "b.s")]), capsys.readouterr().out)[1])
    refused = sorted((d["path"].rsplit("/", 1)[-1], d["line"]) for d in found["diagnostics"] if d["name"] == "assembler-error")
    assert refused == [("a.s", 2), ("b.s", 2)]
    assert [named["version"] for named in found["tool"]["assemblers"]] == ["refusing assembler 1.0"]


def test_jobs_pickle_for_a_spawned_pool(tmp_path):
    """Where workers are spawned (not Linux), each job is pickled to them, its settings and assembler with it."""
    import pickle

    assembler = tmp_path / "refusing-mc"
    assembler.write_text(REFUSING_ASSEMBLER)
    assembler.chmod(0o755)
    (tmp_path / "a.s").write_text("a:\n s_endpgm\n")
    (job,) = session.jobs_for([str(tmp_path / "a.s")], session.Flags(use_config=False, assembler=str(assembler)))
    again = pickle.loads(pickle.dumps(job))
    assert again.settings.options.assembler == job.settings.options.assembler is not None
    assert repr(again.settings) == repr(job.settings) and again.rule_codes == job.rule_codes


def test_tool_fingerprint_covers_every_stage_of_the_package():
    """An edit anywhere in the tool (front end, analyses, rules, grammar) invalidates cached results."""
    import os
    from pathlib import Path

    import amdgpu_lint
    from amdgpu_lint.driver.cache import tool_fingerprint

    package = Path(amdgpu_lint.__file__).parent
    for stage_file in (package / "frontend" / "syntax.py", package / "analyses" / "waitcnt.py", package / "isa" / "waits.py"):
        before = stage_file.stat()
        tool_fingerprint.cache_clear()
        original = tool_fingerprint()
        try:
            os.utime(stage_file, ns=(before.st_atime_ns, before.st_mtime_ns + 1_000_000_000))
            tool_fingerprint.cache_clear()
            assert tool_fingerprint() != original, stage_file
        finally:
            os.utime(stage_file, ns=(before.st_atime_ns, before.st_mtime_ns))
            tool_fingerprint.cache_clear()


def test_check_keeps_no_module_and_quotes_only_the_lines_findings_point_at(tmp_path, cache, capsys, monkeypatch):
    """Workers and the cache hand back findings and their lines, never a module; outputs never
    read the source again (warm cache: text snippets come from the cache; json reads nothing)."""
    from amdgpu_lint.frontend import source

    (tmp_path / "inc.s").write_text(INCLUDED_BAD)
    (tmp_path / "k.s").write_text(BAD)
    flags = session.Flags(use_config=False)
    for use_cache in (False, True):
        results, _ = session.check_paths([str(tmp_path / "k.s")], flags, workers=1, use_cache=use_cache)
        (result,) = results
        assert result.module is None
        quoted = {(path, number): text for path, lines in result.quoted.items() for number, text in lines.lines.items()}
        assert quoted == {(str(tmp_path / "k.s"), 3): " s_branch .Lmissing", (str(tmp_path / "inc.s"), 1): INCLUDED_BAD.rstrip("\n")}
    plain = main(["check", "--no-config", "--no-cache", str(tmp_path / "k.s")]), capsys.readouterr().out

    def no_reading(path):
        raise AssertionError(f"{path} read again for the output")

    monkeypatch.setattr(source, "read_source", no_reading)
    for argv in (["-j", "1"], ["-j", "2", str(tmp_path / "inc.s")]):
        assert main(["check", "--no-config", *argv, str(tmp_path / "k.s")])  # warm (and, for inc.s, cold) cache
        capsys.readouterr()
    assert (main(["check", "--no-config", str(tmp_path / "k.s")]), capsys.readouterr().out) == plain
    assert check_json(capsys, "--no-cache", str(tmp_path / "k.s"))[1]["diagnostics"]


def _lint_jobs(tmp_path, count: int) -> list[str]:
    (tmp_path / "inc.s").write_text(INCLUDED_BAD)
    paths = []
    for index in range(count):
        path = tmp_path / f"k{index}.s"
        path.write_text(BAD + " s_nop 0\n" * index)  # sizes differ: the largest is this process's first
        paths.append(str(path))
    return paths


def _no_child_left() -> bool:
    import os

    try:
        os.waitpid(-1, os.WNOHANG)
    except ChildProcessError:
        return True
    return False


def test_jobs_share_files_with_forked_copies_and_give_their_results_in_order(tmp_path):
    paths = _lint_jobs(tmp_path, 5)
    flags = session.Flags(use_config=False)
    alone, _ = session.check_paths(paths, flags, workers=1, use_cache=False)
    shared, _ = session.check_paths(paths, flags, workers=3, use_cache=False)
    assert [(r.path, r.diagnostics) for r in shared] == [(r.path, r.diagnostics) for r in alone]
    assert _no_child_left()


@pytest.mark.parametrize(("files", "workers", "platform", "processes"),
                         [(1, 2, "linux", 2), (1, 1, "linux", 1), (2, 2, "linux", 1), (3, 8, "linux", 1), (1, 2, "darwin", 1)])
def test_only_a_file_linted_alone_may_be_shared(monkeypatch, files, workers, platform, processes):
    """With a spare core, on Linux (where copies are forked); the linter then shares it if it is long enough."""
    monkeypatch.setattr(session.sys, "platform", platform)
    assert session.processes_for(files, workers) == processes


def test_check_asks_for_two_processes_for_a_lone_file(tmp_path, monkeypatch):
    asked = []
    run_job = session.run_job

    def noted(job, *args, **kwargs):
        asked.append(kwargs["processes"])
        return run_job(job, *args, **kwargs)

    monkeypatch.setattr(session, "run_job", noted)
    session.check_paths(_lint_jobs(tmp_path, 1), session.Flags(use_config=False), workers=2, use_cache=False)
    session.check_paths(_lint_jobs(tmp_path, 1), session.Flags(use_config=False), workers=1, use_cache=False)
    assert asked == [2, 1]


def test_without_memfd_the_job_queue_is_a_temporary_file(monkeypatch):
    import os

    def no_memfd(*args):
        raise OSError("memfd_create is not allowed here")

    for memfd in (no_memfd, os.memfd_create):
        monkeypatch.setattr(session.os, "memfd_create", memfd)
        queue = session._job_queue([3, 0, 70000, 1])
        assert list(session._taken(queue)) == [3, 0, 70000, 1] and list(session._taken(queue)) == []
        os.close(queue)


def _run_job_where(parent_does, copy_does):
    """session.run_job, after `parent_does(job)` in this process or `copy_does(job)` in a forked copy."""
    import os

    parent, run_job = os.getpid(), session.run_job

    def run(job, *args, **kwargs):
        (parent_does if os.getpid() == parent else copy_does)(job)
        return run_job(job, *args, **kwargs)

    return run


def _nothing(job):
    pass


def _read_exactly(end: int, count: int) -> bytes:
    """`count` bytes from a pipe, fewer only if every writer has closed it."""
    import os

    data = b""
    while len(data) < count and (chunk := os.read(end, count - len(data))):
        data += chunk
    return data


def test_whoever_is_free_takes_the_next_file(tmp_path, monkeypatch):
    """The files are a queue, taken largest first: while this process is held at its first file, the forked copy
    takes every other one (it tells which through a pipe), and the results come in the files' order. Events order
    the processes, not sleeps: this process goes on only once the copy has taken the rest."""
    import os

    paths = _lint_jobs(tmp_path, 6)
    flags = session.Flags(use_config=False)
    alone, _ = session.check_paths(paths, flags, workers=1, use_cache=False)
    here, taken_by_copy = [], []
    read_end, write_end = os.pipe()

    def held(job):
        here.append(job)
        if len(here) == 1:
            os.close(write_end)  # the copy holds the only write end: if it ends, the read below ends too
            taken_by_copy.extend(_read_exactly(read_end, len(paths) - 1))

    def tell(job):
        os.write(write_end, bytes([paths.index(str(job.path))]))

    monkeypatch.setattr(session, "run_job", _run_job_where(held, tell))
    try:
        shared, _ = session.check_paths(paths, flags, workers=2, use_cache=False)
    finally:
        os.close(read_end)
    assert [(r.path, r.diagnostics) for r in shared] == [(r.path, r.diagnostics) for r in alone]
    assert len(here) == 1 and len(taken_by_copy) == len(paths) - 1
    assert taken_by_copy == sorted(taken_by_copy, reverse=True)  # larger files first (k5.s is the largest)
    assert sorted(taken_by_copy + [paths.index(str(here[0].path))]) == list(range(len(paths)))
    assert _no_child_left()


def test_a_failing_copy_is_reported_and_a_failing_parent_leaves_no_copy_behind(tmp_path, monkeypatch):
    """Each process waits, through a pipe, until the other has taken a file, so that both take one whatever
    runs first: the copy's failure is reported, and this process's failure ends the copy."""
    import os

    paths = _lint_jobs(tmp_path, 4)
    flags = session.Flags(use_config=False)

    def fails(job):
        raise ValueError(f"cannot lint {job.path.name}")

    read_end, write_end = os.pipe()
    here = []

    def held(job):  # this process waits at its first file until the copy has taken one
        here.append(job)
        if len(here) == 1:
            os.close(write_end)
            _read_exactly(read_end, 1)

    def fails_after_telling(job):
        os.write(write_end, b".")
        fails(job)

    monkeypatch.setattr(session, "run_job", _run_job_where(held, fails_after_telling))
    try:
        with pytest.raises(RuntimeError, match="a --jobs worker process failed: ValueError: cannot lint k"):
            session.check_paths(paths, flags, workers=2, use_cache=False)
    finally:
        os.close(read_end)
    assert _no_child_left()
    read_end, write_end = os.pipe()

    def fails_after_telling_the_copy(job):
        os.write(write_end, b".")
        fails(job)

    def waits_for_this_process(job):  # the copy waits at its first file until this process has taken one
        _read_exactly(read_end, 1)

    monkeypatch.setattr(session, "run_job", _run_job_where(fails_after_telling_the_copy, waits_for_this_process))
    try:
        with pytest.raises(ValueError, match=r"cannot lint k\d\.s"):
            session.check_paths(paths, flags, workers=2, use_cache=False)
    finally:
        os.close(read_end)
        os.close(write_end)
    assert _no_child_left()


def test_fixes_are_worked_out_in_the_same_processes_with_the_same_result(tmp_path):
    from amdgpu_lint.driver.fixer import fix_paths

    (tmp_path / "inc.s").write_text(INCLUDED_BAD)
    paths = []
    for index in range(3):
        path = tmp_path / f"w{index}.s"
        path.write_text('.amdgcn_target "amdgcn-amd-amdhsa--gfx942"\nk:\n global_load_dword v1, v[2:3], off\n'
                        f' v_add_u32_e32 v4, v1, v1\n{" s_nop 0" * index}\n s_endpgm\n')
        paths.append(str(path))
    flags = session.Flags(use_config=False)
    alone, _ = fix_paths(paths, flags, workers=1, unsafe=False)
    shared, _ = fix_paths(paths, flags, workers=2, unsafe=False)
    assert [(f.result.path, f.fixed) for f in shared] == [(f.result.path, f.fixed) for f in alone]
    assert all("s_waitcnt" in f.fixed for f in alone)
    assert _no_child_left()


@pytest.mark.parametrize(("quota", "expected"), [("max 100000\n", None), ("100000 100000\n", 1), ("250000 100000\n", 2),
                                                 ("50000 100000\n", 1), ("garbled\n", None)])
def test_jobs_default_to_the_cpus_the_process_may_use(tmp_path, quota, expected):
    """A container with --cpus=1 sees every CPU of its host: forking a copy per CPU would only make them wait."""
    import os

    affinity = len(os.sched_getaffinity(0))
    (tmp_path / "cpu.max").write_text(quota)
    assert session.usable_cpus(str(tmp_path / "cpu.max")) == (affinity if expected is None else min(affinity, expected))
    assert session.usable_cpus(str(tmp_path / "absent")) == affinity
