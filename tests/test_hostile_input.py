"""No input takes the machine: a register outside the target's file is one register-budget error and is read
by nothing else; literals, bad ranges and expansions that would size something without a bound are parse
errors; and mutants of the fixtures lint without a traceback under a memory limit (tests/fuzzing.py)."""

import subprocess
import sys
import textwrap

import pytest
from amdgpu_lint.analyses.manager import AnalysisManager
from amdgpu_lint.analyses.resources import ResourceAnalysis
from conftest import names

#: The file that grew `check` until MemoryError (18 GB in a forked worker).
HUGE_RANGE = """\t.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
mfma_gemm:
v_add_f32 v[0:999999], v1, v2
\t.amdhsa_kernel mfma_gemm
"""


def _target(name: str) -> str:
    return f'.amdgcn_target "amdgcn-amd-amdhsa--{name}"\n'


def test_a_register_range_past_the_file_is_one_error_and_read_by_nothing_else(snippet):
    result = snippet.lint(HUGE_RANGE)
    on_line = [(d.name, str(d.severity), d.message) for d in result.diagnostics if d.line == 3]
    assert on_line == [("uninitialized-register", "warning", ("v[1:2] are read by v_add_f32 but never written on any "
                                                              "path from the kernel entry")),
                       ("register-budget", "error", "v[0:999999] is outside gfx90a's registers (v0-v255)")]
    (kernel,) = result.module.kernels
    assert AnalysisManager(result.module, kernel).get(ResourceAnalysis).referenced_vgprs == 3  # v1 and v2


def test_the_file_lints_in_a_small_address_space_and_little_memory(tmp_path):
    """In a child limited to 1 GiB of address space (it grew past 18 GB): no MemoryError, and its peak
    resident memory stays under 100 MB. The peak is the child's own high-water mark (VmHWM): getrusage's
    ru_maxrss keeps the forking parent's resident size, and pytest's is larger than that by then."""
    path = tmp_path / "huge.s"
    path.write_text(HUGE_RANGE)
    child = textwrap.dedent(f"""
        import re, resource, sys
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
        from amdgpu_lint.cli import main
        code = main(["check", "--no-cache", "--no-config", "-j", "1", {str(path)!r}])
        with open("/proc/self/status") as status:
            print("peak", re.search(r"VmHWM:\\s*(\\d+) kB", status.read()).group(1), file=sys.stderr)
        sys.exit(code)
    """)
    run = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, check=False)
    assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr
    assert "v[0:999999] is outside gfx90a's registers (v0-v255) [AGL101 register-budget]" in run.stdout
    peak_kib = int(run.stderr.split("peak")[-1])
    assert peak_kib < 100 * 1024


@pytest.mark.parametrize(("target", "last", "past"), [
    ("gfx600", "s103", "s104"), ("gfx802", "s101", "s102"), ("gfx90a", "s101", "s102"), ("gfx1030", "s105", "s106"),
    ("gfx803", "ttmp11", "ttmp12"), ("gfx900", "ttmp15", "ttmp16"), ("gfx942", "v255", "v256"),
    ("gfx1250", "v1023", "v1024"), ("gfx908", "a255", "a256"),
])
def test_register_files_end_where_llvm_mc_22_stops_accepting(snippet, target, last, past):
    def errors(register: str) -> list[str]:
        move = f"v_accvgpr_read_b32 v0, {register}" if register[0] == "a" else \
            f"v_mov_b32 v0, {register}" if register[0] == "v" else f"s_mov_b32 s0, {register}"
        result = snippet.lint(_target(target) + f"k:\n {move}\n s_endpgm\n")
        return [d.message for d in result.diagnostics if d.name == "register-budget"]

    # in the file, though maybe not the wave's (gfx802 allocates 96 SGPRs; gfx1250's v256 on need s_set_vgpr_msb)
    assert not any("outside" in message for message in errors(last))
    (message,) = errors(past)
    assert message.startswith(f"{past} is outside {target}'s registers")


def test_agprs_on_a_target_without_them(snippet):
    result = snippet.lint(_target("gfx1030") + "k:\n v_accvgpr_read_b32 v0, a0\n s_endpgm\n")
    assert [d.message for d in result.diagnostics if d.name == "register-budget"] == \
        ["a0 is outside gfx1030's registers (no AGPRs)"]


def test_registers_past_the_file_from_symbols_macros_and_dual_issue(snippet):
    text = _target("gfx1100") + textwrap.dedent("""\
        .set N, 999999999
        .macro clear r
          v_mov_b32 \\r, 0
        .endm
        k:
          v_mov_b32 v[N], 0
          clear v[0:N]
          s_mov_b64 s[N:N+1], 0
          v_dual_mov_b32 v300, v1 :: v_dual_mov_b32 v2, s200
          s_endpgm
        """)
    result = snippet.lint(text)
    budget = [(d.line, d.message) for d in result.diagnostics if d.name == "register-budget"]
    assert budget == [(4, "v[0:999999999] is outside gfx1100's registers (v0-v255)"),
                      (7, "v999999999 is outside gfx1100's registers (v0-v255)"),
                      (9, "s[999999999:1000000000] is outside gfx1100's registers (s0-s105)"),
                      (10, "v300 and s200 are outside gfx1100's registers (v0-v255, s0-s105)")]
    assert "unknown-instruction" not in names(result)  # no width is checked against a register that is not there


def test_ranges_that_are_no_ranges_are_parse_errors(snippet):
    result = snippet.lint(_target("gfx90a") + "k:\n v_mov_b32 v[5:3], 0\n v_mov_b32 v[-1], 0\n s_endpgm\n")
    assert [(d.name, d.message) for d in result.diagnostics] == [("parse-error", "bad register range v[5:3]"),
                                                                 ("parse-error", "bad register range v[-1]")]


def test_literals_wider_than_64_bits_are_parse_errors(snippet):
    digits = "1" + "0" * 5000  # past Python's limit for converting a decimal string
    text = _target("gfx90a") + textwrap.dedent(f"""\
        .set wide, {digits}
        k:
          s_mov_b32 s0, 18446744073709551615
          s_mov_b32 s0, 18446744073709551616
          s_mov_b32 s0, {digits}
          s_mov_b32 s0, 0x10000000000000000
          s_endpgm
        .amdhsa_kernel k
          .amdhsa_next_free_vgpr {digits}
        .end_amdhsa_kernel
        """)
    result = snippet.lint(text)
    out_of_range = [d.line for d in result.diagnostics if "literal value out of range" in d.message]
    assert out_of_range == [2, 5, 6, 7, 10]


def test_expansions_stop_before_they_grow_without_bound(snippet):
    """A macro passing on its argument written four times grows it 4x a level (4^20 characters at the nesting
    limit); an `.irp` pass is bounded likewise. The rest of the file is still linted."""
    item = "x" * (1 << 20)
    text = _target("gfx90a") + textwrap.dedent(f"""\
        .macro grow a
          grow \\a\\a\\a\\a
        .endm
        k:
          grow x
        .irp y, 1, {item}
          s_nop \\y\\y\\y\\y\\y
        .endr
          s_branch .Lmissing
          s_endpgm
        """)
    result = snippet.lint(text)
    found = [(d.name, d.line, d.message) for d in result.diagnostics]
    assert found == [("parse-error", 3, "expanding macro 'grow' would make more than 4,194,304 characters; not expanded"),
                     ("parse-error", 7, "a '.irp' pass would make more than 4,194,304 characters; the rest skipped"),
                     ("undefined-symbol", 10, "s_branch target '.Lmissing' is not defined")]


def test_expansions_of_a_file_stop_at_its_text_budget(snippet):
    """Each distinct statement an expansion makes costs a parse: past 16 MiB of expanded text in one file (here a
    60 KB line in 400 passes), one error, and no further expansion; plain lines are still linted."""
    data = ",".join(["0"] * 30000)
    text = _target("gfx90a") + textwrap.dedent(f"""\
        .macro jump
          s_branch .Lfrom_the_macro
        .endm
        k:
        .irp x, {",".join(map(str, range(400)))}
          .byte \\x, {data}
        .endr
          jump
          s_branch .Lmissing
          s_endpgm
        """)
    found = [(d.name, d.line, d.message) for d in snippet.lint(text).diagnostics]
    assert found == [("parse-error", 6, ("expansions would make more than 16,777,216 characters in all (a '.irp' pass); "
                                         "remaining expansions skipped")),
                     ("undefined-symbol", 10, "s_branch target '.Lmissing' is not defined")]


def test_descriptor_values_wider_than_their_field_are_parse_errors_and_size_nothing(snippet):
    """`.amdhsa_user_sgpr_count 0xffffffff` made the uninitialized-register analysis build a set of 4 billion
    SGPRs; each value past what llvm-mc 22 takes (the width of its field) is one error and left unknown."""
    text = _target("gfx90a") + textwrap.dedent("""\
        k:
          v_mov_b32 v0, v9
          s_endpgm
        .amdhsa_kernel k
          .amdhsa_user_sgpr_count 0xffffffff
          .amdhsa_system_vgpr_workitem_id 99999
          .amdhsa_next_free_vgpr 1025
          .amdhsa_next_free_sgpr -3
          .amdhsa_accum_offset 8
          .amdhsa_group_segment_fixed_size 4294967296
        .end_amdhsa_kernel
        """)
    result = snippet.lint(text)
    assert [(d.line, d.message) for d in result.diagnostics if d.name == "parse-error"] == [
        (6, "'.amdhsa_user_sgpr_count' is 4294967295, out of range (0 to 32)"),
        (7, "'.amdhsa_system_vgpr_workitem_id' is 99999, out of range (0 to 3)"),
        (8, "'.amdhsa_next_free_vgpr' is 1025, out of range (0 to 1024)"),
        (9, "'.amdhsa_next_free_sgpr' is -3, out of range (0 to 4294967295)"),
        (11, "'.amdhsa_group_segment_fixed_size' is 4294967296, out of range (0 to 4294967295)")]
    (kernel,) = result.module.kernels
    assert kernel.descriptor["user_sgpr_count"] is None and kernel.descriptor["accum_offset"] == 8
    assert "uninitialized-register" not in names(result)  # the kernel's setup is unknown: v9 may be an input


def test_metadata_values_pyyaml_cannot_convert_are_parse_errors(snippet):
    def errors(value: str) -> list[tuple[int, str]]:
        text = _target("gfx90a") + f"k:\n s_endpgm\n.amdgpu_metadata\n---\nx: {value}\n...\n.end_amdgpu_metadata\n"
        return [(d.line, d.message) for d in snippet.lint(text).diagnostics if d.name == "parse-error"]

    assert errors("1" + "0" * 5000) == [(5, ("invalid YAML in .amdgpu_metadata: a value cannot be read (Exceeds "
                                              "the limit (4300 digits) for integer string conversion: value has 5001 "
                                              "digits)"))]
    assert errors("2001-13-45") == [(5, "invalid YAML in .amdgpu_metadata: a value cannot be read (month must be in 1..12)")]
    assert errors("18446744073709551616") == []  # wider than LLVM writes, but a number


def test_metadata_counts_that_are_no_counts_are_parse_errors_and_read_by_nothing(snippet):
    """`.agpr_count: 1e308` (a string to YAML) reached the occupancy arithmetic: TypeError."""
    text = _target("gfx90a") + textwrap.dedent("""\
        k:
          s_endpgm
        .amdgpu_metadata
        ---
        amdhsa.kernels:
          - .name: k
            .agpr_count: 1e308
            .group_segment_fixed_size: [1]
            .sgpr_count: -4
            .vgpr_count: 12
        ...
        .end_amdgpu_metadata
        """)
    result = snippet.lint(text)
    assert [(d.line, d.message) for d in result.diagnostics if d.name == "parse-error"] == [
        (4, f"in .amdgpu_metadata: kernel 'k': '{key}' is {value}, not a count (0 to 4294967295)")
        for key, value in ((".agpr_count", "'1e308'"), (".group_segment_fixed_size", "[1]"), (".sgpr_count", "-4"))]
    (kernel,) = result.module.kernels
    assert kernel.metadata == {".name": "k", ".vgpr_count": 12}
    assert AnalysisManager(result.module, kernel).get(ResourceAnalysis).vgprs == 12


def test_a_device_named_on_the_command_line_is_not_read(capsys):
    """`check /dev/zero` read until MemoryError (its size is 0 to stat)."""
    from amdgpu_lint.cli import main

    assert main(["check", "--no-config", "--no-cache", "/dev/zero"]) == 2
    assert "/dev/zero: not a regular file" in capsys.readouterr().err


def test_fuzzed_fixtures_lint_without_a_traceback():
    """300 mutants of the fixtures (seeded): `check` and `report` on each, under 1 GiB of address space and 30 s
    of CPU time each, raise nothing."""
    from fuzzing import fuzz

    found = fuzz(seed=2026, count=300)
    assert found.linted == 300 and found.problems == {}
