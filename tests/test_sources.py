"""HIP and OpenCL sources linted through the listing a real compiler makes (Debian's clang-22, without ROCm headers),
and findings on any -g listing reported at the source line: inline asm named, every format pointing at the
source, a repository never choosing the program that runs, and the compile cache. Without ROCm, the flags clang asks
for are added (and said); directory walks find sources; the language server compiles the unsaved buffer."""

import json
import os
import shutil
import stat
import sys
from pathlib import Path

import pytest
from amdgpu_lint.cli import main
from llvm_oracle import compile_ir

CLANG = next((shutil.which(name) for name in ("clang++-22", "clang-22") if shutil.which(name)), None)
needs_clang = pytest.mark.skipif(CLANG is None, reason="no clang-22 on PATH (Debian's clang-22 package)")

#: HIP without ROCm's headers: the attribute hip_runtime.h spells __global__
INLINE_ASM_LOAD = """#define __global__ __attribute__((global))

__global__ void scale(float *p, float s) {
    unsigned i = __builtin_amdgcn_workitem_id_x();
    float v;
    asm volatile("global_load_dword %0, %1, off" : "=v"(v) : "v"(p + i));
    p[i] = v * s;
}
"""
NO_ROCM = 'compile-flags = ["-nogpuinc", "-nogpulib"]\n'


def run(capsys, *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main([*argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A HIP kernel with a load issued from inline asm and used on the next line, a configuration for a machine
    without ROCm, a user configuration of its own (none) and a private compile cache."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "user-config"))
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)
    (tmp_path / "k.hip").write_text(INLINE_ASM_LOAD)
    (tmp_path / ".amdgpu-lint.toml").write_text(NO_ROCM)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@needs_clang
def test_a_missing_wait_after_inline_asm_is_reported_at_the_hip_line_in_every_format(project, capsys):
    code, out, _ = run(capsys, "check", "--no-cache", "--mcpu", "gfx942", "k.hip")
    assert code == 1
    first = out.splitlines()[0]
    assert first.startswith(f"{project / 'k.hip'}:7:14: error: v1 is read here but may still be loading "
                            f"(global_load_dword at {project / 'k.hip'}:6)")
    assert "(the instruction it depends on was issued from inline asm) [AGL201 missing-wait]" in first
    assert f"{project / 'k.hip'}:6:5: note: global_load_dword comes from this inline asm statement" in out
    assert "note: in the listing: v_mul_f32_e32" in out and "(fix there: insert `s_waitcnt vmcnt(0)`)" in out
    (finding,) = json.loads(run(capsys, "check", "--no-cache", "--mcpu", "gfx942", "--format", "json", "k.hip")[1])[
        "diagnostics"]
    assert (finding["path"], finding["line"], finding["code"]) == (str(project / "k.hip"), 7, "AGL201")
    assert finding["fix"]["applicability"] == "display-only"
    sarif = json.loads(run(capsys, "check", "--no-cache", "--mcpu", "gfx942", "--format", "sarif", "k.hip")[1])
    (result,) = sarif["runs"][0]["results"]
    assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "k.hip"
    related = [r["physicalLocation"]["artifactLocation"]["uri"] for r in result["relatedLocations"]]
    assert "k.hip" in related and any(uri.endswith("k.gfx942.s") for uri in related)
    github = run(capsys, "check", "--no-cache", "--mcpu", "gfx942", "--format", "github", "k.hip")[1]
    assert "::error file=k.hip,line=7," in github
    before = (project / "k.hip").read_text()
    code, out, _ = run(capsys, "check", "--no-cache", "--mcpu", "gfx942", "--fix", "k.hip")
    assert code == 1 and (project / "k.hip").read_text() == before  # a compiled listing is never edited
    code, out, _ = run(capsys, "check", "--no-cache", "--mcpu", "gfx942", "--locations", "listing", "k.hip")
    assert out.splitlines()[0].startswith(str(Path(os.environ["TMPDIR"]) / "amdgpu-lint"))


@needs_clang
def test_report_of_a_hip_source_is_the_report_of_its_listing_and_targets_are_results(project, capsys):
    code, out, _ = run(capsys, "report", "--mcpu", "gfx942,gfx90a", "--format", "json", "k.hip")
    kernels = json.loads(out)["kernels"]
    assert code == 0 and [kernel["target"] for kernel in kernels] == ["gfx942", "gfx90a"]
    listing = Path(kernels[0]["path"])
    (project / "direct.s").write_text(listing.read_text())
    (direct,) = json.loads(run(capsys, "report", "--format", "json", "direct.s")[1])["kernels"]
    keys = ("vgpr", "agpr", "sgpr", "lds_bytes", "scratch_bytes", "waves_per_simd", "limiter")
    assert {key: kernels[0][key] for key in keys} == {key: direct[key] for key in keys}
    code, out, _ = run(capsys, "check", "--no-cache", "--mcpu", "gfx942,gfx90a", "--output-format", "concise", "k.hip")
    assert [line.split("[")[-2].strip(" ]") for line in out.splitlines() if "missing-wait" in line] == ["gfx942", "gfx90a"]


@needs_clang
def test_an_opencl_source_with_line_tables(project, capsys):
    (project / "k.cl").write_text("__kernel void twice(__global float *p) {\n    size_t i = get_global_id(0);\n"
                                  "    float v;\n    __asm__ volatile(\"global_load_dword %0, %1, off\" : \"=v\"(v) "
                                  ": \"v\"(p + i));\n    p[i] = v + v;\n}\n")
    code, out, _ = run(capsys, "check", "--no-cache", "--mcpu", "gfx90a", "--output-format", "concise", "k.cl")
    assert code == 1 and out.startswith(f"{project / 'k.cl'}:5:") and "missing-wait" in out


@needs_clang
def test_a_compile_error_is_one_finding_at_the_compilers_line(project, capsys):
    (project / "bad.hip").write_text("#define __global__ __attribute__((global))\n\n__global__ void f(int *p) {\n"
                                     "    p[0] = undeclared;\n}\n")
    code, out, err = run(capsys, "check", "--no-cache", "--mcpu", "gfx942", "--output-format", "concise", "bad.hip")
    (line,) = [line for line in out.splitlines() if "input-conversion" in line]
    assert line.startswith("bad.hip:4:12: error: does not compile: use of undeclared identifier 'undeclared'")
    assert "Traceback" not in err


def test_no_compiler_is_one_clear_message(project, capsys, monkeypatch):
    monkeypatch.setenv("PATH", str(project / "empty"))
    monkeypatch.delenv("HIPCC", raising=False)
    monkeypatch.setenv("ROCM_PATH", str(project / "no-rocm"))
    code, out, err = run(capsys, "check", "--no-cache", "--mcpu", "gfx942", "--output-format", "concise", "k.hip")
    assert "no compiler for k.hip: install ROCm" in out and "clang-22" in out and "Traceback" not in err


def _recording_compiler(directory: Path, log: Path) -> Path:
    """A compiler that notes each compile (not `--version`) in `log`, then runs clang-22."""
    script = directory / "recording-clang"
    script.write_text(f'#!/bin/sh\ncase "$*" in *" -S "*) echo compiled >> "{log}";; esac\nexec "{CLANG}" "$@"\n')
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return script


@needs_clang
def test_a_repository_never_chooses_the_compiler_nor_loads_a_plugin(project, capsys):
    """compile_commands.json names ./evil-cc and passes -fplugin=./x.so, the repository's configuration names
    ./evil-cc: the trusted compiler runs, without the plugin (which does not exist: loading it would fail the
    compile), and evil-cc never runs (it would leave a file behind); notes say what was left out."""
    evil = project / "evil-cc"
    evil.write_text(f'#!/bin/sh\ntouch "{project / "evil-ran"}"\nexit 1\n')
    evil.chmod(0o755)
    (project / "compile_commands.json").write_text(json.dumps([{
        "directory": str(project), "file": "k.hip",
        "arguments": ["./evil-cc", "-x", "hip", "-Iinclude", "-DSCALE=2", "-fplugin=./x.so", "-Xclang", "-load",
                      "-Xclang", "./x.so", "-B./bin", "@flags.rsp", "-c", "k.hip", "-o", "k.o"]}]))
    (project / ".amdgpu-lint.toml").write_text(NO_ROCM + 'compiler = "./evil-cc"\n')
    code, out, _ = run(capsys, "check", "--no-cache", "--mcpu", "gfx942", "k.hip")
    assert code == 1 and "missing-wait" in out and not (project / "evil-ran").exists()
    assert "names the compiler './evil-cc': not run" in out
    for refused in ("-fplugin=./x.so", "-Xclang -load", "-B./bin", "@flags.rsp"):
        assert f"{refused} left out" in out or f"{refused} (" in out, refused
    # the user's own configuration may trust a repository's compiler: then it runs (and fails here, as it should)
    user = project / "user-config" / "amdgpu-lint"
    user.mkdir(parents=True)
    (user / "config.toml").write_text("trust-repository-compiler = true\n")
    from amdgpu_lint.driver.config import user_config

    user_config.cache_clear()
    run(capsys, "check", "--no-cache", "--mcpu", "gfx942", "k.hip")
    assert (project / "evil-ran").exists()
    user_config.cache_clear()


#: flags that load code, choose the programs that run or hand options on unread, then three that only read
LOADING = ["-fplugin=./evil.so", "-fpass-plugin=./evil.so", "-Xclang", "-load", "-Xclang", "./evil.so", "-mllvm",
           "-load=./evil.so", "-Wp,-load,./evil.so", "-B./bin", "--gcc-toolchain=./gcc", "@evil.rsp",
           "--rocm-path=./rocm", "-fuse-ld=./evil-ld", "--ld-path=./evil-ld", "-Wl,-plugin=./evil.so"]
READING = ["-DFOO=1", "-O2", "-I", "include"]
#: what the recording compiler writes as its listing: a kernel with findings (which carry the notes)
RECORDED_LISTING = '.amdgcn_target "amdgcn-amd-amdhsa--gfx942"\nk:\n s_branch .Lmissing\n s_endpgm\n'


def _argument_recorder(directory: Path, log: Path) -> Path:
    """A compiler (no clang needed) that appends each compile's arguments to `log` and writes a fixed listing."""
    script = directory / "recording-cc"
    script.write_text(f"#!{sys.executable}\nimport json, sys\nargs = sys.argv[1:]\n"
                      "if args == ['--version']:\n    print('recording compiler 1')\n    sys.exit(0)\n"
                      f"with open({str(log)!r}, 'a') as log:\n    log.write(json.dumps(args) + '\\n')\n"
                      f"open(args[args.index('-o') + 1], 'w').write({RECORDED_LISTING!r})\n")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return script


def _compiled_with(capsys, project: Path, *argv: str) -> tuple[list[str], str]:
    """The arguments the compiler ran with for k.hip (the user's --compiler), and the findings' text."""
    log = project / "arguments.log"
    log.unlink(missing_ok=True)
    compiler = _argument_recorder(project, log)
    code, out, err = run(capsys, "check", "--no-cache", "--mcpu", "gfx942", "--compiler", str(compiler), *argv, "k.hip")
    assert code == 1 and "Traceback" not in err, err
    (arguments,) = [json.loads(line) for line in log.read_text().splitlines()]
    return arguments, out


def test_a_repositorys_compile_flags_that_load_code_never_reach_the_compiler(project, capsys):
    """compile-flags in the repository's configuration: what loads code or chooses programs is left out, each
    named in a note; macros, optimization and include directories (from the configuration's directory) are kept."""
    (project / ".amdgpu-lint.toml").write_text(f"compile-flags = {json.dumps(LOADING + READING)}\n")
    (project / "compile_commands.json").write_text(json.dumps([{
        "directory": str(project), "file": "k.hip",
        "arguments": ["clang++", "-Wp,-load,./db.so", "-mllvm", "-load=./db.so", "-DBAR=2", "-c", "k.hip"]}]))
    arguments, out = _compiled_with(capsys, project)
    assert not [argument for argument in arguments if "evil" in argument or "db.so" in argument or "./" in argument]
    assert not [argument for argument in arguments if argument.startswith(("-B", "--gcc", "--rocm", "-W", "-mllvm"))]
    assert arguments.count("-Xclang") == 4 and "-load" not in arguments  # only our own dependency-file options
    assert ["-DFOO=1", "-O2", "-I", str(project / "include"), "-DBAR=2"] == \
        [argument for argument in arguments if argument in ("-DFOO=1", "-O2", "-I", str(project / "include"),
                                                            "-DBAR=2", "-O3")]
    for refused in ("-fplugin=./evil.so", "-fpass-plugin=./evil.so", "-Xclang -load", "-Xclang ./evil.so",
                    "-mllvm -load=./evil.so", "-Wp,-load,./evil.so", "-B./bin", "--gcc-toolchain=./gcc", "@evil.rsp",
                    "--rocm-path=./rocm", "-fuse-ld=./evil-ld", "--ld-path=./evil-ld", "-Wl,-plugin=./evil.so"):
        assert f"{refused} (" in out, refused
    assert f"{project / '.amdgpu-lint.toml'}: compile-flags -fplugin=./evil.so (" in out
    assert "--trust-repository-compiler" in out
    assert f"{project / 'compile_commands.json'}: -Wp,-load,./db.so (" in out and "-mllvm -load=./db.so (" in out


def test_the_users_own_compile_flags_and_a_trusted_repositorys_reach_the_compiler_as_written(project, capsys):
    """The same flags in the user's own configuration (and a repository's, where the user trusts it) are the
    user's choice: passed as written, the user's first."""
    user = project / "user-config" / "amdgpu-lint"
    user.mkdir(parents=True)
    (user / "config.toml").write_text(f"compile-flags = {json.dumps(['-DOWN=1', *LOADING])}\n")
    (project / ".amdgpu-lint.toml").write_text(f"compile-flags = {json.dumps(['-fplugin=./repo.so', *READING])}\n")
    arguments, out = _compiled_with(capsys, project)
    chosen = arguments[arguments.index("-DOWN=1"):arguments.index("-o")]
    assert chosen == ["-DOWN=1", *LOADING, "-DFOO=1", "-O2", "-I", str(project / "include")]
    assert "-fplugin=./repo.so (" in out
    arguments, out = _compiled_with(capsys, project, "--trust-repository-compiler")
    assert arguments[arguments.index("-DOWN=1"):arguments.index("-o")] == ["-DOWN=1", *LOADING, "-fplugin=./repo.so",
                                                                           *READING]
    assert "left out" not in out
    arguments, out = _compiled_with(capsys, project, "--config", str(user / "config.toml"))  # the user's file, once
    assert arguments[arguments.index("-DOWN=1"):arguments.index("-o")] == ["-DOWN=1", *LOADING]


def test_the_allow_list_drops_a_passed_on_option_with_its_value_and_a_last_option_without_one(tmp_path):
    """What follows -Xarch_device or -Xoffload-linker goes with it; a last -I would take our own -o."""
    from amdgpu_lint.frontend.compile import allowed_flags

    kept = allowed_flags(["-Xarch_device", "-fplugin=./x.so", "-Xoffload-linker-amdgcn", "-plugin=./x.so",
                          "-isystemsys", "-include", "pre.h", "-I"], tmp_path)
    assert kept.flags == [f"-isystem{tmp_path / 'sys'}", "-include", str(tmp_path / "pre.h")]
    assert [flag.split(" (")[0] for flag in kept.dropped] == ["-Xarch_device -fplugin=./x.so",
                                                              "-Xoffload-linker-amdgcn -plugin=./x.so", "-I"]


@needs_clang
def test_an_unchanged_source_is_a_cache_hit_and_a_changed_header_is_not(project, capsys):
    log = project / "compiles.log"
    compiler = _recording_compiler(project, log)
    (project / "scale.h").write_text("#define SCALE 2.0f\n")
    (project / "k.hip").write_text('#include "scale.h"\n' + INLINE_ASM_LOAD.replace("v * s", "v * s * SCALE"))
    for _ in range(2):
        run(capsys, "check", "--no-cache", "--mcpu", "gfx942", "--compiler", str(compiler), "k.hip")
    assert log.read_text().count("compiled") == 1
    (project / "scale.h").write_text("#define SCALE 3.0f\n")
    run(capsys, "check", "--no-cache", "--mcpu", "gfx942", "--compiler", str(compiler), "k.hip")
    assert log.read_text().count("compiled") == 2


DEBUG_PY_IR = """
target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @add_kernel(ptr addrspace(1) %p) !dbg !5 {
  %id = call i32 @llvm.amdgcn.workitem.id.x(), !dbg !8
  %q = getelementptr float, ptr addrspace(1) %p, i32 %id, !dbg !8
  %v = load float, ptr addrspace(1) %q, align 4, !dbg !8
  %w = fadd float %v, %v, !dbg !9
  store float %w, ptr addrspace(1) %q, align 4, !dbg !9
  ret void, !dbg !9
}
declare i32 @llvm.amdgcn.workitem.id.x()
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_Python, file: !1, producer: "triton", isOptimized: true, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "add.py", directory: "DIRECTORY")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "add_kernel", scope: !1, file: !1, line: 4, type: !6, scopeLine: 4, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!8 = !DILocation(line: 6, column: 9, scope: !5)
!9 = !DILocation(line: 7, column: 5, scope: !5)
"""


def test_a_triton_listing_reports_at_the_kernels_python_lines(project, capsys):
    """Triton's .amdgcn carries .file/.loc into the kernel's .py; the load's wait taken out, the use is reported
    at the Python line that reads the value."""
    (project / "add.py").write_text("import triton\n\n@triton.jit\ndef add_kernel(p):\n    pid = 0\n"
                                    "    v = tl.load(p)\n    tl.store(p, v + v)\n")
    listing = compile_ir(DEBUG_PY_IR.replace("DIRECTORY", str(project)), "gfx942")
    assert ".loc" in listing and "s_waitcnt vmcnt(0)" in listing
    (project / "add_kernel.amdgcn").write_text(listing.replace("s_waitcnt vmcnt(0)", "", 1))
    code, out, _ = run(capsys, "check", "--no-cache", "--output-format", "concise", "add_kernel.amdgcn")
    (line,) = [line for line in out.splitlines() if "missing-wait" in line]
    assert line.startswith(f"{project / 'add.py'}:7:")


@needs_clang
def test_the_language_server_lints_a_hip_file_and_answers_hover_on_its_kernel(project):
    """Driven in a test: the diagnostic on the .hip line, the hover on the kernel's declaration line, and a compile
    error as one diagnostic at the compiler's line."""
    pytest.importorskip("pygls")
    import asyncio

    from test_lsp import Session

    (project / ".amdgpu-lint.toml").write_text(NO_ROCM + 'mcpu = "gfx942"\n')

    async def session():
        async with Session(project) as lsp:
            uri = lsp.open(project / "k.hip", INLINE_ASM_LOAD)
            published = await lsp.next_published()
            hover = await lsp.hover(uri, 2)  # __global__ void scale(...)
            (project / "bad.hip").write_text("#define __global__ __attribute__((global))\n__global__ void f(int *p) {\n"
                                             "    p[0] = nope;\n}\n")
            lsp.open(project / "bad.hip", (project / "bad.hip").read_text())
            failed = await lsp.next_published()
        return published, hover, failed

    published, hover, failed = asyncio.run(session())
    (diagnostic,) = published.diagnostics
    assert (diagnostic.code, diagnostic.range.start.line) == ("AGL201", 6)
    assert "inline asm" in diagnostic.message
    assert "on gfx942" in hover.contents.value and "waves per SIMD" in hover.contents.value
    (error,) = failed.diagnostics
    assert error.range.start.line == 2 and "does not compile: use of undeclared identifier 'nope'" in error.message


@needs_clang
def test_the_html_report_shows_the_source_beside_the_listing(project, capsys):
    code, _, _ = run(capsys, "report", "--mcpu", "gfx942", "--simulate", "--format", "html", "-o", "r.html", "k.hip")
    page = (project / "r.html").read_text()
    assert code == 0 and f"<h3>Source: {project / 'k.hip'}</h3>" in page
    import re
    import xml.etree.ElementTree as ElementTree

    root = ElementTree.fromstring(page)
    (row,) = [tr for tr in root.iter("tr") if tr.get("id") == "f1s0-L7"]  # p[i] = v * s;
    cells = ["".join(td.itertext()) for td in row.iter("td")]
    assert re.match(r"\d+ instr\.: \d+", cells[1]) and cells[2].startswith("v ")
    target = row.find("td[2]/a").get("href")[1:]  # its first listing line links back to it
    (listed,) = [tr for tr in root.iter("tr") if tr.get("id") == target]
    assert [a.get("href") for a in listed.iter("a") if a.get("class") == "origin"] == ["#f1s0-L7"]


def test_copies_of_one_finding_from_one_source_line_are_one_finding_with_their_count(tmp_path):
    """An unrolled loop: the same rule on three listing lines compiled from one source line is one finding there."""
    from amdgpu_lint.driver.locations import at_source_lines
    from amdgpu_lint.model.debuglines import debug_lines
    from amdgpu_lint.model.diagnostics import Diagnostic, Severity

    (tmp_path / "k.cl").write_text("kernel void k(global float *p) {\n  for (int i = 0; i < 3; i++) p[i] += 1;\n}\n")
    listing = str(tmp_path / "k.s")
    text = (f'\t.file\t0 "{tmp_path}" "k.cl"\nk:\n\t.loc\t0 2 31\n\tv_add_f32 v1, v1, 1.0\n\tv_add_f32 v2, v2, 1.0\n'
            "\tv_add_f32 v3, v3, 1.0\n\ts_endpgm\n")
    findings = [Diagnostic("AGL201", "missing-wait", Severity.ERROR, f"v{n} is read here", listing, 3 + n, 2, 3 + n, 10)
                for n in (1, 2, 3)]
    texts = dict(enumerate(text.split("\n"), 1))
    moved, quoted = at_source_lines(findings, listing, debug_lines(text, listing), texts)
    (finding,) = moved
    assert (finding.path, finding.line, finding.column) == (str(tmp_path / "k.cl"), 2, 31)
    assert finding.message == "v1 is read here (3 instructions of this line)"
    assert [note.line for note in finding.notes if note.path == listing] == [4, 5, 6]
    assert quoted[str(tmp_path / "k.cl")].lines == {2: "  for (int i = 0; i < 3; i++) p[i] += 1;"}


TRITON_ADD = Path(__file__).resolve().parent.parent / "fixtures" / "triton" / "add"


@pytest.mark.parametrize("arch", ["gfx942", "gfx1100"])
def test_real_triton_output_reports_at_the_kernels_python_lines(tmp_path, capsys, arch):
    """PyPI Triton 3.9's listing of fixtures/triton/add/add.py (scripts/triton_fixtures.py): clean as Triton made
    it, launched as its .json says; a wait taken out, the use is reported at add.py's line."""
    shutil.copy(TRITON_ADD / "add.py", tmp_path / "add.py")
    listing = (TRITON_ADD / f"add_kernel.{arch}.amdgcn").read_text().replace("TRITON_SOURCE_DIR", str(tmp_path))
    (tmp_path / "add_kernel.amdgcn").write_text(listing)
    shutil.copy(TRITON_ADD / f"add_kernel.{arch}.json", tmp_path / "add_kernel.json")
    code, out, _ = run(capsys, "check", "--no-cache", "--no-config", str(tmp_path / "add_kernel.amdgcn"))
    assert code == 0, out
    (kernel,) = json.loads(run(capsys, "report", "--no-config", "--format", "json", str(tmp_path / "add_kernel.amdgcn"))[1])[
        "kernels"]
    entry = json.loads((TRITON_ADD / f"add_kernel.{arch}.json").read_text())
    assert kernel["wg_size"] == entry["num_warps"] * entry["target"]["warp_size"] and kernel["target"] == arch
    lines = listing.split("\n")
    first = next(n for n, line in enumerate(lines) if line.strip().startswith("s_waitcnt vmcnt(0"))
    assert lines[first - 1].strip().startswith(".loc\t1 0 ")  # LLVM merged the add's location: line 0, none
    without_wait = lines[:first] + lines[first + 1:]
    (tmp_path / "add_kernel.amdgcn").write_text("\n".join(without_wait))
    code, out, _ = run(capsys, "check", "--no-cache", "--no-config", "--output-format", "concise",
                       str(tmp_path / "add_kernel.amdgcn"))
    (finding,) = [line for line in out.splitlines() if "missing-wait" in line]
    assert finding.startswith(f"{tmp_path / 'add_kernel.amdgcn'}:")  # `.loc 1 0`: no source line, so the listing's
    (tmp_path / "add_kernel.amdgcn").write_text("\n".join(without_wait[:first - 1] + without_wait[first:]))
    code, out, _ = run(capsys, "check", "--no-cache", "--no-config", "--output-format", "concise",
                       str(tmp_path / "add_kernel.amdgcn"))
    (finding,) = [line for line in out.splitlines() if "missing-wait" in line]
    assert finding.startswith(f"{tmp_path / 'add.py'}:")  # then the location before it is in force


# ---- issue 40: HIP without ROCm, sources in directory walks, unsaved buffers

#: a kernel that calls a device library function: with -nogpulib the call stays a call to an external function
LIBRARY_CALL = """#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
extern "C" __device__ float __ocml_sin_f32(float);

__global__ void wave(float *p) {
    unsigned i = __builtin_amdgcn_workitem_id_x();
    p[i] = __ocml_sin_f32(p[i]);
}
"""


def _logging_compiler(directory: Path, log: Path) -> Path:
    """A compiler that writes each compile's arguments (not `--version`'s) as a line of `log`, then runs clang-22."""
    script = directory / "logging-clang"
    script.write_text(f'#!/bin/sh\ncase "$*" in *" -S "*) echo "$*" >> "{log}";; esac\nexec "{CLANG}" "$@"\n')
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return script


@needs_clang
def test_without_rocm_a_header_free_kernel_compiles_with_the_flags_clang_asks_for_and_a_note_says_so(project, capsys):
    """No configuration: Debian's clang-22 finds no device library and no HIP runtime; the compile is run again with
    -nogpulib -nogpuinc, the finding is the kernel's, and a note (on stderr, and on each finding) says what was
    added. A cached listing says it too."""
    log = project / "compiles.log"
    compiler = _logging_compiler(project, log)
    code, out, err = run(capsys, "check", "--no-config", "--no-cache", "--mcpu", "gfx942", "--compiler", str(compiler),
                         "k.hip")
    assert code == 1 and "k.hip:7:14: error: v1 is read here but may still be loading" in out
    first, again = log.read_text().splitlines()
    assert "-nogpulib" not in first.split() and "-nogpuinc" not in first.split()
    assert " -O3 -nogpulib -nogpuinc -o " in again  # added after the flags
    note = ("compiled with -nogpulib -nogpuinc (logging-clang found no ROCm device library and no HIP runtime headers): "
            "no kernel calls a device library function")
    assert err.count(f"amdgpu-lint: note: k.hip: {note}") == 1
    assert note in out  # on the finding, with how the listing was made
    code, _, err = run(capsys, "check", "--no-config", "--no-cache", "--mcpu", "gfx942", "--compiler", str(compiler),
                       "k.hip")
    assert len(log.read_text().splitlines()) == 2 and note in err  # cached: not compiled again, still said


@needs_clang
def test_a_device_library_call_left_external_is_named_and_register_counts_called_lower_bounds(project, capsys):
    (project / "wave.hip").write_text(LIBRARY_CALL)
    code, out, err = run(capsys, "report", "--no-config", "--mcpu", "gfx942", "--format", "json", "wave.hip")
    (kernel,) = json.loads(out)["kernels"]
    assert code == 0 and kernel["name"] == "_Z4wavePf" and kernel["vgpr"] > 0
    assert ("note: wave.hip: compiled with -nogpulib -nogpuinc (clang" in err
            and "the calls to __ocml_sin_f32 stay calls to external functions, so the register counts of the kernels "
                "that make them are lower bounds" in err)


@needs_clang
def test_flags_a_user_configured_are_kept_and_only_what_is_missing_is_added(project, capsys):
    log = project / "compiles.log"
    compiler = _logging_compiler(project, log)
    (project / ".amdgpu-lint.toml").write_text(NO_ROCM)  # both flags configured: nothing to add, no note
    code, out, err = run(capsys, "check", "--no-cache", "--mcpu", "gfx942", "--compiler", str(compiler), "k.hip")
    (only,) = log.read_text().splitlines()
    assert code == 1 and "-nogpuinc -nogpulib" in only and "compiled with" not in err + out
    log.unlink()
    (project / ".amdgpu-lint.toml").write_text('compile-flags = ["-nogpuinc", "-DUNUSED=1"]\n')
    from amdgpu_lint.driver.config import find_config

    find_config.cache_clear()  # the configuration changed within this process
    code, out, err = run(capsys, "check", "--no-cache", "--mcpu", "gfx942", "--compiler", str(compiler), "k.hip")
    first, again = log.read_text().splitlines()
    assert code == 1 and "-nogpuinc -DUNUSED=1" in first and "-nogpuinc -DUNUSED=1 -nogpulib" in again
    assert "note: k.hip: compiled with -nogpulib (logging-clang found no ROCm device library)" in err


@needs_clang
def test_the_hip_runtime_header_without_rocm_is_one_finding_that_says_what_to_do(project, capsys):
    (project / "k.hip").write_text("#include <hip/hip_runtime.h>\n\n__global__ void f(float *p) { p[threadIdx.x] = 0; }\n")
    code, out, err = run(capsys, "check", "--no-config", "--no-cache", "--mcpu", "gfx942", "--output-format", "concise",
                         "k.hip")
    (line,) = [line for line in out.splitlines() if "input-conversion" in line]
    assert code == 1 and line.startswith("k.hip:1:10: error: does not compile: 'hip/hip_runtime.h' file not found: ")
    assert "has no HIP runtime headers without ROCm" in line and "--rocm-path=DIR" in line and "--compiler hipcc" in line
    assert "#define __global__ __attribute__((global))" in line and "Traceback" not in err


def _tree(project: Path) -> None:
    """A directory with assembly, HIP and OpenCL sources, and a subdirectory whose configuration compiles .cu as
    HIP (a .cu above it is no source; a .cpp nowhere is)."""
    (project / "kernels" / "cuda").mkdir(parents=True)
    (project / "kernels" / "clean.s").write_text('.amdgcn_target "amdgcn-amd-amdhsa--gfx942"\n.text\nk:\n  s_endpgm\n')
    (project / "kernels" / "k.hip").write_text(INLINE_ASM_LOAD)
    (project / "kernels" / "twice.cl").write_text("__kernel void twice(__global float *p) {\n"
                                                  "    size_t i = get_global_id(0);\n    p[i] = p[i] + p[i];\n}\n")
    (project / "kernels" / "cuda" / "k.cu").write_text(INLINE_ASM_LOAD)
    (project / "kernels" / "cuda" / ".amdgpu-lint.toml").write_text(NO_ROCM + 'hip-suffixes = [".cu"]\n')
    (project / "kernels" / "above.cu").write_text("not a kernel\n")
    (project / "kernels" / "host.cpp").write_text("int main() { return 0; }\n")


@needs_clang
def test_a_directory_walk_lints_the_sources_it_finds_for_the_target(project, capsys):
    _tree(project)
    code, out, err = run(capsys, "check", "--no-cache", "--mcpu", "gfx942", "--output-format", "concise", "kernels")
    findings = sorted(line.split(":")[0] for line in out.splitlines() if "missing-wait" in line)
    assert code == 1 and findings == [str(project / "kernels" / "cuda" / "k.cu"), str(project / "kernels" / "k.hip")]
    assert "in 4 files" in out  # clean.s, k.hip, twice.cl and cuda/k.cu; not above.cu nor host.cpp
    assert "skipped" not in err


@needs_clang
def test_a_source_of_a_configured_hip_suffix_is_compiled_for_each_target_with_the_result_cache_on(project, capsys,
                                                                                                monkeypatch):
    """A `.cu` compiled as HIP for two targets, the result cache on (it used to expect one result per file)."""
    _tree(project)
    monkeypatch.setenv("AMDGPU_LINT_CACHE_DIR", str(project / "cache"))
    code, out, err = run(capsys, "check", "--mcpu", "gfx942,gfx90a", "--output-format", "concise", "kernels/cuda/k.cu")
    assert code == 1 and [line.split("[")[-2].strip(" ]") for line in out.splitlines() if "missing-wait" in line] == \
        ["gfx942", "gfx90a"] and "Traceback" not in err


def test_a_directory_walk_without_a_target_names_the_sources_it_skips_in_one_note(project, capsys):
    _tree(project)
    code, out, err = run(capsys, "check", "--no-cache", "--output-format", "concise", "kernels")
    assert code == 0 and out.startswith("No problems found")  # clean.s names its target
    sources = ", ".join(str(Path("kernels") / name) for name in ("cuda/k.cu", "k.hip", "twice.cl"))
    assert err == ("amdgpu-lint: note: skipped 3 files: HIP and OpenCL sources are compiled for a target: pass --mcpu "
                   f"gfx942 (or set mcpu in the configuration) to lint them: {sources}\n")
    code, out, _ = run(capsys, "check", "--no-cache", "--output-format", "concise", "kernels/k.hip")
    assert code == 1 and "needs its targets: pass --mcpu gfx942" in out  # named on the command line: an error


@needs_clang
def test_the_language_server_compiles_the_unsaved_buffer_where_its_includes_resolve(project, monkeypatch):
    """The file on disk is clean; the buffer (not saved) includes headers by quoted paths relative to the file and
    drops the wait: the finding is at the buffer's line. A compile error in the buffer is at its line too. Nothing is
    left in the project or the temporary directory but the listings."""
    pytest.importorskip("pygls")
    import asyncio

    from test_lsp import Session

    (project / ".amdgpu-lint.toml").write_text('mcpu = "gfx942"\n')  # no flags: -nogpulib -nogpuinc are added
    (project / "include").mkdir()
    (project / "include" / "scale.h").write_text('#include "../common.h"\n#define SCALE (2.0f * COMMON)\n')
    (project / "common.h").write_text("#define COMMON 1.0f\n")
    saved = INLINE_ASM_LOAD.replace('    p[i] = v * s;', '    asm volatile("s_waitcnt vmcnt(0)");\n    p[i] = v * s;')
    (project / "k.hip").write_text(saved)
    unsaved = '#include "include/scale.h"\n' + INLINE_ASM_LOAD.replace("v * s", "v * s * SCALE")
    broken = unsaved.replace("v * s * SCALE", "v * s * SCALE * missing")
    before = sorted(path.name for path in project.iterdir())

    async def session():
        async with Session(project) as lsp:
            uri = lsp.open(project / "k.hip", saved)
            clean = await lsp.next_published()
            lsp.change(uri, 2, unsaved)
            changed = await lsp.next_published()
            hover = await lsp.hover(uri, 3)  # __global__ void scale(...), one line lower than on disk
            lsp.change(uri, 3, broken)
            failed = await lsp.next_published()
        return clean, changed, hover, failed

    clean, changed, hover, failed = asyncio.run(session())
    assert len(clean.diagnostics) == 0
    (diagnostic,) = changed.diagnostics
    assert (diagnostic.code, diagnostic.range.start.line, changed.version) == ("AGL201", 7, 2)
    assert "on gfx942" in hover.contents.value
    (error,) = failed.diagnostics
    assert error.range.start.line == 7 and "use of undeclared identifier 'missing'" in error.message
    assert (project / "k.hip").read_text() == saved
    assert sorted(path.name for path in project.iterdir()) == before
    assert not list((project / "tmp").glob("amdgpu-lint-buffer-*"))
