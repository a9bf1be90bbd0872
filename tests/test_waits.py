"""missing-wait, redundant-wait and overstrict-wait on hand-written kernels (the issue's list),
wait decoding per generation, and the machine-applicable fix."""

import json

import pytest
from amdgpu_lint.cli import main
from amdgpu_lint.frontend.syntax import parse_statement
from amdgpu_lint.isa.waits import decode_raw, wait_counts, wait_text
from amdgpu_lint.model.targets import parse_target_id
from conftest import FIXTURES
from llvm_oracle import compile_ir


def kernel(target: str, body: str) -> str:
    return (f'.amdgcn_target "amdgcn-amd-amdhsa--{target}"\n.text\n.globl k\n.type k,@function\nk:\n{body}\n s_endpgm\n'
            ".rodata\n.amdhsa_kernel k\n .amdhsa_user_sgpr_kernarg_segment_ptr 1\n .amdhsa_next_free_vgpr 128\n"
            f" .amdhsa_next_free_sgpr 64\n{' .amdhsa_accum_offset 128' if target in ('gfx90a', 'gfx942', 'gfx950') else ''}\n"
            ".end_amdhsa_kernel\n")


def waits(snippet, target: str, body: str, rule: str = "missing-wait"):
    result = snippet.lint(kernel(target, body))
    return [d for d in result.diagnostics if d.name == rule]


def test_two_scalar_loads_need_lgkmcnt_0(snippet):
    body = " s_load_dword s4, s[0:1], 0x0\n s_load_dword s5, s[0:1], 0x4\n s_waitcnt lgkmcnt(1)\n s_add_u32 s6, s4, 1"
    (finding,) = waits(snippet, "gfx900", body)
    assert finding.line == 9 and "s4 is read here but may still be loading (s_load_dword at" in finding.message
    assert "insert `s_waitcnt lgkmcnt(0)`" in finding.message  # SMEM retires out of order
    assert waits(snippet, "gfx900", body.replace("lgkmcnt(1)", "lgkmcnt(0)")) == []


def test_lds_and_smem_pending_on_lgkmcnt_need_0(snippet):
    body = (" v_mov_b32 v1, 0\n ds_read_b32 v2, v1\n s_load_dword s4, s[0:1], 0x0\n"
            " s_waitcnt lgkmcnt(1)\n v_add_u32 v3, v2, v2")
    (finding,) = waits(snippet, "gfx90a", body)
    assert "v2 is read" in finding.message and "lgkmcnt(0)" in finding.message
    # with LDS alone on the counter, in-order retirement makes lgkmcnt(1) enough
    body = " v_mov_b32 v1, 0\n ds_read_b32 v2, v1\n ds_read_b32 v4, v1 offset:4\n s_waitcnt lgkmcnt(1)\n v_add_u32 v3, v2, v2"
    assert waits(snippet, "gfx90a", body) == []


def test_flat_load_that_can_reach_lds_needs_both_counters(snippet):
    # the kernel builds an LDS address from the shared aperture: its FLAT accesses may go to LDS
    body = (" v_mov_b32 v0, 0\n v_mov_b32 v1, src_shared_base\n flat_load_dword v2, v[0:1]\n"
            " v_add_u32 v3, v2, v2")
    (finding,) = waits(snippet, "gfx90a", body)
    assert "insert `s_waitcnt vmcnt(0) lgkmcnt(0)`" in finding.message
    assert waits(snippet, "gfx90a", body.replace(" v_add_u32", " s_waitcnt vmcnt(0)\n v_add_u32")) != []
    assert waits(snippet, "gfx90a", body.replace(" v_add_u32", " s_waitcnt vmcnt(0) lgkmcnt(0)\n v_add_u32")) == []
    (gfx12,) = waits(snippet, "gfx1201", body.replace("flat_load_dword", "flat_load_b32"))
    assert "`s_wait_dscnt 0x0` and `s_wait_loadcnt 0x0`" in gfx12.message


def test_flat_load_without_an_lds_address_is_a_global_access(snippet):
    # item 6: LLVM waits vmcnt only when a FLAT access cannot reach LDS (flat-for-global, tgsplit)
    body = " v_mov_b32 v0, 0\n v_mov_b32 v1, 0\n flat_load_dword v2, v[0:1]\n v_add_u32 v3, v2, v2"
    (finding,) = waits(snippet, "gfx803", body)
    assert "insert `s_waitcnt vmcnt(0)`" in finding.message
    assert waits(snippet, "gfx803", body.replace(" v_add_u32", " s_waitcnt vmcnt(0)\n v_add_u32")) == []
    aperture = body.replace(" v_add_u32", " s_getreg_b32 s8, hwreg(HW_REG_SH_MEM_BASES, 16, 16)\n"
                            " s_waitcnt vmcnt(0)\n v_add_u32")
    assert len(waits(snippet, "gfx900", aperture)) == 1  # the aperture read makes LDS possible again


def test_loop_carried_load(snippet):
    body = (" v_mov_b32 v1, 0\n v_mov_b32 v2, 0\n s_mov_b32 s4, 8\n.Lloop:\n v_add_f32 v3, v2, v3\n"
            " global_load_dword v2, v1, s[0:1]\n s_sub_u32 s4, s4, 1\n s_cmp_lg_u32 s4, 0\n s_cbranch_scc1 .Lloop")
    (finding,) = waits(snippet, "gfx942", body)
    assert finding.line == 10 and "v2 is read" in finding.message  # loaded in the previous iteration
    assert waits(snippet, "gfx942", body.replace(" s_cbranch_scc1", " s_waitcnt vmcnt(0)\n s_cbranch_scc1")) == []


def test_load_used_in_another_block_after_a_branch(snippet):
    body = (" v_mov_b32 v1, 0\n global_load_dword v2, v1, s[0:1]\n s_cmp_eq_u32 s2, 0\n s_cbranch_scc1 .Lskip\n"
            " s_waitcnt vmcnt(0)\n v_add_u32 v3, v2, v2\n.Lskip:\n v_add_u32 v4, v2, v1")
    (finding,) = waits(snippet, "gfx1030", body)
    assert finding.line == 13 and "v2 is read" in finding.message  # waited on one path only


def test_lds_dma_then_ds_read(snippet):
    body = (" v_mov_b32 v1, 0\n s_mov_b32 m0, 0\n buffer_load_dword v1, s[4:7], 0 offen lds\n"
            " ds_read_b32 v2, v1\n")
    (finding,) = waits(snippet, "gfx90a", body)
    assert "reads LDS that buffer_load_dword" in finding.message and "vmcnt(0)" in finding.message
    gfx1030 = waits(snippet, "gfx1030", body.replace("s[4:7], 0", "s[4:7], 0").replace("v1, s[4:7]", "v1, s[4:7]"))
    assert gfx1030 and "s_waitcnt vmcnt(0)" in gfx1030[0].message  # LDS DMA counts on vmcnt, not vscnt


def test_gfx12_kmcnt_1_after_two_scalar_loads(snippet):
    body = " s_load_b64 s[4:5], s[0:1], 0x0\n s_load_b64 s[6:7], s[0:1], 0x8\n s_wait_kmcnt 0x1\n s_add_u32 s8, s4, 1"
    (finding,) = waits(snippet, "gfx1201", body)
    assert "insert `s_wait_kmcnt 0x0`" in finding.message


def test_counter_saturation(snippet):
    loads = "".join(f" global_load_dword v{2 + i}, v1, s[0:1] offset:{4 * i}\n" for i in range(70))
    body = " v_mov_b32 v1, 0\n" + loads + " v_add_u32 v100, v2, v2\n v_add_u32 v101, v71, v71"
    (finding,) = waits(snippet, "gfx90a", body)
    # load #0 has 69 newer loads: past vmcnt's maximum of 63 the hardware has already retired it
    assert "v71 is read" in finding.message and "vmcnt(0)" in finding.message
    assert "v2 " not in finding.message
    assert waits(snippet, "gfx803", " v_mov_b32 v1, 0\n" + "".join(
        f" flat_load_dword v{2 + i}, v[0:1]\n" for i in range(20)) + " s_waitcnt vmcnt(0) lgkmcnt(0)\n v_add_u32 v50, v2, v2") == []


def test_waw_and_in_order_load_overwrite(snippet):
    body = " v_mov_b32 v1, 0\n global_load_dword v2, v1, s[0:1]\n v_mov_b32 v2, 0"
    (finding,) = waits(snippet, "gfx90a", body)
    assert "v2 is overwritten here" in finding.message
    in_order = " v_mov_b32 v1, 0\n global_load_dword v2, v1, s[0:1]\n global_load_dword v2, v1, s[0:1] offset:4"
    assert waits(snippet, "gfx90a", in_order) == []


def test_barrier_after_lds_write_and_non_back_off_barrier(snippet):
    body = " v_mov_b32 v1, 0\n ds_write_b32 v1, v1\n s_barrier\n ds_read_b32 v2, v1 offset:4"
    (finding,) = waits(snippet, "gfx942", body)
    assert finding.message.startswith("s_barrier while LDS written by ds_write_b32")
    assert waits(snippet, "gfx942", body.replace(" s_barrier", " s_waitcnt lgkmcnt(0)\n s_barrier")) == []
    store = " v_mov_b32 v1, 0\n global_store_dword v1, v1, s[0:1]\n s_barrier"
    (gfx908,) = waits(snippet, "gfx908", store)
    assert "no back-off barrier" in gfx908.message and "vmcnt(0)" in gfx908.message
    assert waits(snippet, "gfx90a", store) == []


def test_llvm_output_without_fences_races_at_the_barrier(snippet):
    assembly = compile_ir((FIXTURES / "races" / "lds_barrier_without_fence.ll").read_text(), "gfx942")
    findings = [d for d in snippet.lint(assembly).diagnostics if d.name == "missing-wait"]
    assert len(findings) == 2 and all("s_barrier while LDS written" in d.message for d in findings)
    fixed = compile_ir((FIXTURES / "llvm" / "lds_reduce.ll").read_text(), "gfx942")
    assert [d for d in snippet.lint(fixed).diagnostics if d.name == "missing-wait"] == []


def test_functions_start_with_unknown_loads_in_flight(snippet):
    function = ('.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"\n.text\n.type f,@function\nf:\n'
                " v_add_u32 v0, v0, v1\n s_setpc_b64 s[30:31]\n")
    (finding,) = [d for d in snippet.lint(function).diagnostics if d.name == "missing-wait"]
    assert "used before any wait in function 'f'" in finding.message
    waited = function.replace(" v_add_u32", " s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)\n v_add_u32")
    assert [d for d in snippet.lint(waited).diagnostics if d.name == "missing-wait"] == []
    returning = waited.replace(" s_setpc_b64", " global_load_dword v0, v2, s[0:1]\n s_setpc_b64")
    (late,) = [d for d in snippet.lint(returning).diagnostics if d.name == "missing-wait"]
    assert "returns while global_load_dword" in late.message


def test_cache_invalidate_waits_for_loads(snippet):
    body = " v_mov_b32 v1, 0\n global_load_dword v2, v1, s[0:1]\n buffer_wbinvl1_vol"
    (finding,) = waits(snippet, "gfx90a", body)
    assert "invalidates the cache" in finding.message


def test_redundant_wait(snippet):
    body = " v_mov_b32 v1, 0\n global_load_dword v2, v1, s[0:1]\n s_waitcnt vmcnt(0)\n v_add_u32 v3, v2, v2\n s_waitcnt vmcnt(0)"
    (finding,) = waits(snippet, "gfx90a", body, "redundant-wait")
    assert finding.line == 10
    assert waits(snippet, "gfx90a", body.rsplit("\n", 1)[0], "redundant-wait") == []


def test_overstrict_wait(snippet):
    body = (" v_mov_b32 v1, 0\n global_load_dword v2, v1, s[0:1]\n global_load_dword v3, v1, s[0:1] offset:4\n"
            " global_load_dword v4, v1, s[0:1] offset:8\n s_waitcnt vmcnt(0)\n v_add_u32 v5, v2, v2\n"
            " s_waitcnt vmcnt(0)\n v_add_u32 v5, v3, v4")
    (finding,) = waits(snippet, "gfx90a", body, "overstrict-wait")
    assert finding.line == 10 and "`s_waitcnt vmcnt(2)` is enough" in finding.message
    exact = body.replace("s_waitcnt vmcnt(0)\n v_add_u32 v5, v2", "s_waitcnt vmcnt(2)\n v_add_u32 v5, v2")
    assert waits(snippet, "gfx90a", exact, "overstrict-wait") == []
    atomic = body.replace(" v_add_u32 v5, v2, v2", " global_atomic_add v1, v1, s[0:1]\n v_add_u32 v5, v2, v2")
    assert waits(snippet, "gfx90a", atomic, "overstrict-wait") == []  # a release before the atomic


@pytest.mark.parametrize(
    "target, value, counts",
    [
        ("gfx803", 0x0F70, {"vmcnt": 0}), ("gfx900", 0x0F70, {"vmcnt": 0}), ("gfx900", 0xC07F, {"lgkmcnt": 0}),
        ("gfx900", 0x0735, {"vmcnt": 5, "expcnt": 3, "lgkmcnt": 7}), ("gfx1030", 0x3F70, {"vmcnt": 0}),
        ("gfx1100", 0x03F7, {"vmcnt": 0}), ("gfx1100", 0xFC07, {"lgkmcnt": 0}),
        ("gfx1100", 0x1473, {"vmcnt": 5, "expcnt": 3, "lgkmcnt": 7}),
    ],
)
def test_raw_waitcnt_encodings(target, value, counts):
    processor = parse_target_id(target)
    decoded = decode_raw(value, processor)
    maxima = processor.wait_counter_max
    assert {k: v for k, v in decoded.items() if v < maxima[k]} == counts


@pytest.mark.parametrize(
    "target, text, counts",
    [
        ("gfx900", "s_waitcnt vmcnt(0) & lgkmcnt(1)", {"vmcnt": 0, "lgkmcnt": 1}),
        ("gfx900", "s_waitcnt vmcnt(1), lgkmcnt(2)", {"vmcnt": 1, "lgkmcnt": 2}),
        ("gfx900", "s_waitcnt lgkmcnt(15)", {}),
        ("gfx1030", "s_waitcnt_vscnt null, 0x0", {"vscnt": 0}),
        ("gfx1201", "s_wait_loadcnt_dscnt 0x305", {"loadcnt": 3, "dscnt": 5}),
        ("gfx1201", "s_wait_kmcnt 0x1", {"kmcnt": 1}),
        ("gfx1201", "s_wait_alu 0xfffe", None),
    ],
)
def test_wait_syntax(target, text, counts):
    statement = parse_statement(text)
    assert wait_counts(statement.name, statement.operands, parse_target_id(target)) == counts


def test_wait_text_round_trips():
    for target, counts in (("gfx900", {"vmcnt": 2, "lgkmcnt": 0}), ("gfx1030", {"vscnt": 0}), ("gfx1201", {"loadcnt": 1, "kmcnt": 0})):
        processor = parse_target_id(target)
        found: dict = {}
        for line in wait_text(counts, processor):
            statement = parse_statement(line)
            found.update(wait_counts(statement.name, statement.operands, processor))
        assert found == counts


def test_missing_wait_fix_in_json(tmp_path, capsys):
    path = tmp_path / "k.s"
    path.write_text(kernel("gfx90a", " v_mov_b32 v1, 0\n global_load_dword v2, v1, s[0:1]\n    v_add_u32 v3, v2, v2"))
    assert main(["check", "--no-config", "--format", "json", "--select", "missing-wait", str(path)]) == 1
    (diagnostic,) = json.loads(capsys.readouterr().out)["diagnostics"]
    (edit,) = diagnostic["fix"]["edits"]
    assert (edit["line"], edit["column"], edit["end_line"], edit["end_column"]) == (8, 1, 8, 1)
    assert edit["text"] == "    s_waitcnt vmcnt(0)\n"
    lines = path.read_text().split("\n")
    lines.insert(edit["line"] - 1, edit["text"].rstrip("\n"))
    path.write_text("\n".join(lines))
    assert main(["check", "--no-config", "--select", "missing-wait", str(path)]) == 0


@pytest.mark.parametrize("form", ["s_cmp_{}_u32 s10, {}", "s_cmp_{}_i32 s10, {}", "s_cmp_{}_u32 {}, s10",
                                  "s_cmp_{}_i32 {}, s10", "s_cmpk_{}_u32 s10, {}", "s_cmpk_{}_i32 s10, {}"])
def test_sgpr_ranges_of_comparisons_match_what_the_hardware_computes(form):
    # the values the wait analysis keeps for `s10` on the SCC=1 edge, against SCC worked out directly
    from amdgpu_lint.analyses.waitcnt import _bound, _complement
    from amdgpu_lint.model.ir import Instruction, Provenance

    relations = {"eq": int.__eq__, "lg": int.__ne__, "lt": int.__lt__, "le": int.__le__, "gt": int.__gt__,
                 "ge": int.__ge__}
    sopk, signed, constant_first = "cmpk" in form, "_i32" in form, form.endswith("{}, s10")
    constants = (0, 1, 2, 0x7FFF, 0x8000, 0xFFFF) if sopk else (0, 1, 3, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, -1, -5)
    samples = (0, 1, 2, 3, 4, 0x7FFE, 0x7FFF, 0x8000, 0xFFFF, 0x10000, 0x7FFFFFFF, 0x80000000, 0xFFFF8000, 0xFFFFFFFE,
               0xFFFFFFFF)

    def as_read(value: int, bits: int) -> int:  # the operand as the comparison reads it
        value &= (1 << bits) - 1
        return value - (1 << bits) if signed and value >> (bits - 1) else value

    for relation, holds in relations.items():
        for constant in constants:
            statement = parse_statement(form.format(relation, constant))
            (unit, values) = _bound(Instruction(statement.name, statement.operands, statement.modifiers, Provenance("t.s", 1, 1)))
            assert unit == ("s", 10)
            immediate = as_read(constant, 16) if sopk else as_read(constant, 32)
            for sample in samples:
                register = as_read(sample, 32)
                scc = holds(immediate, register) if constant_first else holds(register, immediate)
                inside = any(low <= sample <= high for low, high in values)
                assert inside == scc, (form, relation, constant, hex(sample))
                assert any(low <= sample <= high for low, high in _complement(values)) != scc
