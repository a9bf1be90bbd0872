"""Inputs beyond .s: LLVM IR compiled by llvmlite, code objects (ELF, offload bundles) and
Triton cache entries give the same resources and occupancy as the assembly LLVM emits."""

import json
import struct

import pytest
from amdgpu_lint.analyses.manager import AnalysisManager
from amdgpu_lint.analyses.resources import ResourceAnalysis
from amdgpu_lint.driver.linter import lint_input
from amdgpu_lint.frontend import inputs
from amdgpu_lint.frontend.options import BuildOptions
from amdgpu_lint.rules import RULES
from conftest import FIXTURES
from llvm_oracle import compile_ir, compile_object, fixture_supports

pytest.importorskip("elftools")
pytest.importorskip("msgpack")

TARGETS = ("gfx908", "gfx90a", "gfx942", "gfx1030", "gfx1100")
FIXTURE_NAMES = ("loop_saxpy.ll", "lds_reduce.ll", "many_args.ll", "mfma_gemm.ll")


@pytest.fixture
def no_objdump(monkeypatch):
    monkeypatch.setenv(inputs.OBJDUMP_VARIABLE, "none")


def summary(result):
    """Per kernel: what the resource analysis and occupancy say."""
    assert result.module is not None
    rows = {}
    for kernel in result.module.kernels:
        if not kernel.is_kernel:
            continue
        usage = AnalysisManager(result.module, kernel).get(ResourceAnalysis)
        rows[kernel.name] = (usage.vgprs, usage.agprs, usage.sgprs, usage.lds_bytes, usage.scratch_bytes,
                             usage.wave_size, usage.wg_size, usage.occupancy.waves_per_simd, tuple(usage.occupancy.limiters))
    return rows


def lint(path, **options):
    results = lint_input(path, BuildOptions(**options), list(RULES))
    return results


CASES = [(name, target) for name in FIXTURE_NAMES for target in TARGETS if fixture_supports(name, target)]


@pytest.mark.parametrize("name, target", CASES, ids=[f"{n.split('.')[0]}-{t}" for n, t in CASES])
def test_ll_s_and_o_agree(tmp_path, no_objdump, name, target):
    ir = (FIXTURES / "llvm" / name).read_text()
    (tmp_path / "k.ll").write_text(ir)
    (tmp_path / "k.s").write_text(compile_ir(ir, target))
    (tmp_path / "k.o").write_bytes(compile_object(ir, target))
    (from_ll,) = lint(tmp_path / "k.ll", mcpu=target)
    (from_s,) = lint(tmp_path / "k.s")
    (from_o,) = lint(tmp_path / "k.o")
    expected = summary(from_s)
    assert expected and summary(from_ll) == expected and summary(from_o) == expected
    # the same findings from the IR and the assembly (LLVM's loops load and wait in one iteration)
    assert [(d.line, d.code) for d in from_ll.diagnostics] == [(d.line, d.code) for d in from_s.diagnostics]
    assert {d.name for d in from_s.diagnostics} <= {"short-prefetch", "issue-oversubscription"}
    # without a disassembler the instruction rules were skipped, and the finding says so
    (skipped,) = from_o.diagnostics
    assert skipped.name == "input-conversion" and "skipped" in skipped.message


def test_listings_are_written_to_temp_not_next_to_input(tmp_path, no_objdump):
    ir = (FIXTURES / "llvm" / "loop_saxpy.ll").read_text()
    (tmp_path / "k.ll").write_text(ir)
    (result,) = lint(tmp_path / "k.ll", mcpu="gfx90a")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["k.ll"]
    assert result.path.endswith("k.gfx90a.s") and not result.path.startswith(str(tmp_path))
    assert "saxpy:" in open(result.path).read()


def test_ir_target_comes_from_target_cpu_attribute(tmp_path):
    ir = (FIXTURES / "llvm" / "loop_saxpy.ll").read_text().replace("i32 %n) {", "i32 %n) #99 {")
    ir += '\nattributes #99 = { "target-cpu"="gfx1100" }\n'
    (tmp_path / "k.ll").write_text(ir)
    (result,) = lint(tmp_path / "k.ll")
    assert result.module.target.name == "gfx1100"
    (tmp_path / "plain.ll").write_text((FIXTURES / "llvm" / "loop_saxpy.ll").read_text())
    (missing,) = lint(tmp_path / "plain.ll")
    (finding,) = missing.diagnostics
    assert finding.name == "input-conversion" and "--mcpu" in finding.message and finding.line == 1


def test_bad_ir_is_a_diagnostic_not_a_traceback(tmp_path):
    (tmp_path / "bad.ll").write_text("define void @f( {\n")
    (result,) = lint(tmp_path / "bad.ll", mcpu="gfx942")
    (finding,) = result.diagnostics
    assert finding.name == "input-conversion" and "LLVM cannot read the IR" in finding.message
    assert finding.path == str(tmp_path / "bad.ll")


def test_bitcode_input(tmp_path, no_objdump):
    llvm = pytest.importorskip("llvmlite.binding")
    ir = (FIXTURES / "llvm" / "lds_reduce.ll").read_text()
    (tmp_path / "k.bc").write_bytes(llvm.parse_assembly(ir).as_bitcode())
    (tmp_path / "k.s").write_text(compile_ir(ir, "gfx942"))
    (from_bc,) = lint(tmp_path / "k.bc", mcpu="gfx942")
    (from_s,) = lint(tmp_path / "k.s")
    assert summary(from_bc) == summary(from_s) != {}


DEBUG_IR = """
define amdgpu_kernel void @scale(ptr addrspace(1) %p) !dbg !5 {
  %v = load float, ptr addrspace(1) %p, align 4, !dbg !8
  %w = fmul float %v, 2.0, !dbg !9
  store float %w, ptr addrspace(1) %p, align 4, !dbg !10
  ret void, !dbg !10
}
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "hand", isOptimized: true, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "scale.hip", directory: "/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"Dwarf Version", i32 5}
!5 = distinct !DISubprogram(name: "scale", scope: !1, file: !1, line: 3, type: !6, scopeLine: 3, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!8 = !DILocation(line: 4, column: 13, scope: !5)
!9 = !DILocation(line: 5, column: 15, scope: !5)
!10 = !DILocation(line: 6, column: 8, scope: !5)
"""


def test_debug_locations_map_listing_lines_to_source(tmp_path):
    from amdgpu_lint.model.debuglines import debug_lines

    (tmp_path / "scale.ll").write_text(DEBUG_IR)
    (prepared,) = inputs.prepare(tmp_path / "scale.ll", BuildOptions(mcpu="gfx942"))
    lines = prepared.source.raw_lines
    found = debug_lines(prepared.source.text, prepared.source.path).locations
    by_mnemonic = {lines[n - 1].split()[0]: where for n, where in found.items()}
    assert by_mnemonic["s_load_dword"] == ("/src/scale.hip", 4, 13)
    assert by_mnemonic["v_add_f32_e64"] == ("/src/scale.hip", 5, 15)
    assert by_mnemonic["global_store_dword"] == ("/src/scale.hip", 6, 8)
    assert "scale:" not in [lines[n - 1] for n in found]


def test_findings_on_ir_move_to_the_source_line(tmp_path):
    """A finding on a listing made from IR is reported at the source line of the debug location in force at its
    line (the kernel's first instruction), with notes naming the listing line and how the listing was made;
    `--locations listing` keeps it on the listing, and a source not on this machine does too."""
    source = tmp_path / "scale.hip"
    source.write_text("#include <x>\n\n__global__ void scale(float *p) {\n    float v = p[threadIdx.x];\n"
                      "    v = v * 2.0f;\n    p[threadIdx.x] = v;\n}\n")
    (tmp_path / "scale.ll").write_text(DEBUG_IR.replace('directory: "/src"', f'directory: "{tmp_path}"'))
    results = lint_input(tmp_path / "scale.ll", BuildOptions(mcpu="gfx942", min_waves=9), list(RULES))
    (finding,) = [d for d in results[0].diagnostics if d.name == "occupancy-below-target"]
    assert (finding.path, finding.line, finding.column) == (str(source), 4, 13)
    assert any("compiled from" in note.message and "scale.ll" in note.message for note in finding.notes)
    (listed,) = [note for note in finding.notes if note.message.startswith("in the listing: s_load_dword")]
    assert listed.path == results[0].path and listed.line > 0
    results = lint_input(tmp_path / "scale.ll", BuildOptions(mcpu="gfx942", min_waves=9, locations="listing"),
                         list(RULES))
    (finding,) = [d for d in results[0].diagnostics if d.name == "occupancy-below-target"]
    assert finding.path == results[0].path
    (tmp_path / "scale.ll").write_text(DEBUG_IR)  # /src/scale.hip: not on this machine
    (gone,) = [d for d in lint_input(tmp_path / "scale.ll", BuildOptions(mcpu="gfx942", min_waves=9), list(RULES))[0]
               .diagnostics if d.name == "occupancy-below-target"]
    assert gone.path.endswith(".s")


def _bundle(entries: list[tuple[str, bytes]]) -> bytes:
    header = b"__CLANG_OFFLOAD_BUNDLE__" + struct.pack("<Q", len(entries))
    size = len(header) + sum(24 + len(name) for name, _ in entries)
    offset, table, blobs = size, b"", b""
    for name, blob in entries:
        table += struct.pack("<QQQ", offset, len(blob), len(name)) + name.encode()
        blobs += blob
        offset += len(blob)
    return header + table + blobs


def test_offload_bundle_gives_one_result_per_gpu_target(tmp_path, no_objdump):
    ir = (FIXTURES / "llvm" / "loop_saxpy.ll").read_text()
    bundle = _bundle([("host-x86_64-unknown-linux-gnu", b""),
                      ("hipv4-amdgcn-amd-amdhsa--gfx90a", compile_object(ir, "gfx90a")),
                      ("hipv4-amdgcn-amd-amdhsa--gfx1100", compile_object(ir, "gfx1100"))])
    (tmp_path / "app.co").write_bytes(bundle)
    results = lint(tmp_path / "app.co")
    assert [r.module.target.name for r in results] == ["gfx90a", "gfx1100"]
    (tmp_path / "k.s").write_text(compile_ir(ir, "gfx1100"))
    assert summary(results[1]) == summary(lint(tmp_path / "k.s")[0])


def test_not_a_code_object(tmp_path):
    (tmp_path / "junk.o").write_bytes(b"\x00\x01 not elf")
    (result,) = lint(tmp_path / "junk.o")
    (finding,) = result.diagnostics
    assert finding.name == "input-conversion" and "not an ELF" in finding.message


def test_triton_cache_entry_uses_its_json(tmp_path):
    ir = (FIXTURES / "llvm" / "lds_reduce.ll").read_text()
    (tmp_path / "kernel.amdgcn").write_text(compile_ir(ir, "gfx942"))
    (tmp_path / "kernel.json").write_text(json.dumps({"name": "reduce", "num_warps": 8, "shared": 0,
                                                     "target": {"backend": "hip", "arch": "gfx942", "warp_size": 64}}))
    (result,) = lint(tmp_path / "kernel.amdgcn")
    assert result.path == str(tmp_path / "kernel.amdgcn")
    wg_sizes = {row[6] for row in summary(result).values()}
    assert wg_sizes == {512}


def _object_and_listing(tmp_path, fixture: str):
    """fixtures/llvm/<fixture> for gfx942 linted twice: as a code object (through llvm-objdump) and as llc's listing."""
    objdump = inputs.find_objdump()
    if objdump is None:
        pytest.skip("no llvm-objdump with AMDGPU on PATH")
    ir = (FIXTURES / "llvm" / fixture).read_text()
    (tmp_path / "k.o").write_bytes(compile_object(ir, "gfx942"))
    (tmp_path / "k.s").write_text(compile_ir(ir, "gfx942"))
    try:
        (from_o,) = lint(tmp_path / "k.o")
    except inputs.InputError:
        pytest.skip(f"{objdump} cannot disassemble AMDGPU")
    if from_o.diagnostics and from_o.diagnostics[0].name == "input-conversion":
        pytest.skip(from_o.diagnostics[0].message)
    (from_s,) = lint(tmp_path / "k.s")
    return from_o, from_s


def test_objdump_disassembly_runs_every_rule(tmp_path, monkeypatch):
    from_o, from_s = _object_and_listing(tmp_path, "mfma_gemm.ll")
    assert sorted(d.code for d in from_o.diagnostics) == sorted(d.code for d in from_s.diagnostics)
    assert summary(from_o) == summary(from_s)
    kernel = next(k for k in from_o.module.kernels if k.is_kernel)
    assert any(i.mnemonic.startswith("v_mfma") for i in kernel.instructions)


def test_code_object_without_metadata_takes_its_target_from_the_elf_header(tmp_path, no_objdump):
    """A code object whose metadata note is gone (renamed here, so no reader takes it for AMDGPU's) names its
    processor and xnack/sramecc settings in e_flags."""
    ir = (FIXTURES / "llvm" / "loop_saxpy.ll").read_text()
    data = compile_object(ir, "gfx90a")
    assert data.count(b"AMDGPU\x00") >= 1
    (tmp_path / "k.o").write_bytes(data.replace(b"AMDGPU\x00", b"XMDGPU\x00"))
    (result,) = lint(tmp_path / "k.o")
    assert result.module.target.name == "gfx90a"
    assert not any("pass --mcpu" in d.message for d in result.diagnostics)
    from amdgpu_lint.model.targets import target_id_from_elf_flags

    assert target_id_from_elf_flags(0x03F | 0x800 | 0x300, 2) == "gfx90a:sramecc-:xnack+"
    assert target_id_from_elf_flags(0x04C | 0x100, 3) == "gfx942"  # xnack "any": no setting
    assert target_id_from_elf_flags(0x0FE, 2) is None


def test_disassembly_leaves_out_the_alignment_after_s_endpgm(tmp_path):
    """llvm-objdump shows the code section's alignment padding after the last s_endpgm as s_nop 0 lines; they are
    not the kernel's instructions."""
    from_o, from_s = _object_and_listing(tmp_path, "loop_saxpy.ll")
    kernel_o = next(k for k in from_o.module.kernels if k.is_kernel)
    kernel_s = next(k for k in from_s.module.kernels if k.is_kernel)
    assert kernel_o.instructions[-1].mnemonic == "s_endpgm"
    assert len(kernel_o.instructions) == len(kernel_s.instructions)


TRITON = FIXTURES / "triton"


def _triton_entry(tmp_path, shared: int | None, listing: str | None = None):
    """fixtures/triton's decode kernel as a cache entry, its .json asking for `shared` bytes of LDS."""
    (tmp_path / "_mla_decode_kernel.amdgcn").write_text(listing or (TRITON / "_mla_decode_kernel.amdgcn").read_text())
    entry = json.loads((TRITON / "_mla_decode_kernel.json").read_text())
    if shared is None:
        del entry["shared"]
    else:
        entry["shared"] = shared
    (tmp_path / "_mla_decode_kernel.json").write_text(json.dumps(entry))
    (result,) = lint(tmp_path / "_mla_decode_kernel.amdgcn")
    return result


def test_triton_launch_lds_counts_for_occupancy(tmp_path):
    # issue 30: 4 warps of 64 with 64 KiB of launch LDS: one work-group per CU, 1 wave/SIMD (not 4)
    result = _triton_entry(tmp_path, 65536)
    assert [d.name for d in result.diagnostics] == []
    ((vgprs, _, _, lds, _, wave, wg_size, waves, limiters),) = summary(result).values()
    assert (lds, wave, wg_size, waves, limiters) == (65536, 64, 256, 1, ("LDS",))
    # the listing alone declares no LDS: 8 waves/SIMD, which the launch never gets
    ((_, _, _, lds, _, _, _, waves, _),) = summary(_triton_entry(tmp_path, None)).values()
    assert (lds, waves) == (0, 8)


def test_triton_launch_lds_above_the_target_limit(tmp_path):
    (finding,) = _triton_entry(tmp_path, 98304).diagnostics
    assert finding.name == "lds-budget" and str(finding.severity) == "error"
    assert "98304 bytes of LDS per work-group (0 static + 98304 requested at launch); gfx942 allows 65536" in finding.message


def test_triton_ds_offsets_are_judged_against_the_launch_lds(tmp_path):
    # the kernel writes at byte 49152 of its launch LDS: inside 64 KiB, past 48 KiB
    assert _triton_entry(tmp_path, 65536).diagnostics == []
    (write, read) = _triton_entry(tmp_path, 49152).diagnostics
    assert (write.name, str(write.severity), read.name) == ("lds-budget", "warning", "lds-budget")
    assert "reaches byte 49155 through its offset alone" in write.message and "(0 static + 49152 requested at launch)" in write.message
