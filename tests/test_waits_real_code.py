"""Wait-counter rules on code from the outside (issue 16, items 1-12; issue 30): each false finding
that LLVM's output or hand-written MIOpen/ROCr/Tensile/hipBLASLt kernels drew is gone, and the real
race next to it is still caught."""

from llvm_oracle import compile_ir


def kernel(target: str, body: str, extra: str = "") -> str:
    accum = " .amdhsa_accum_offset 64\n" if target in ("gfx90a", "gfx942", "gfx950") else ""
    return (f'.amdgcn_target "amdgcn-amd-amdhsa--{target}"\n.text\n.globl k\n.type k,@function\nk:\n{body}\n s_endpgm\n'
            ".rodata\n.amdhsa_kernel k\n .amdhsa_user_sgpr_kernarg_segment_ptr 1\n .amdhsa_next_free_vgpr 64\n"
            f" .amdhsa_next_free_sgpr 64\n{accum}{extra}.end_amdhsa_kernel\n")


def function(target: str, body: str) -> str:
    return f'.amdgcn_target "amdgcn-amd-amdhsa--{target}"\n.text\n.globl f\n.type f,@function\nf:\n{body}\n'


def findings(snippet, text: str, rule: str = "missing-wait"):
    return [d for d in snippet.lint(text).diagnostics if d.name == rule]


# 1. tail calls
def test_tail_call_is_not_a_return(snippet):
    body = (" s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)\n global_load_dword v3, v[0:1], off\n"
            " s_getpc_b64 s[4:5]\n s_add_u32 s4, s4, callee@rel32@lo+4\n s_addc_u32 s5, s5, callee@rel32@hi+12\n"
            " s_setpc_b64 s[4:5]")
    assert findings(snippet, function("gfx942", body)) == []
    (real,) = findings(snippet, function("gfx942", body.replace("s_setpc_b64 s[4:5]", "s_setpc_b64 s[30:31]")))
    assert "'f' returns while global_load_dword" in real.message


def test_tail_call_through_the_got_is_not_a_return(snippet):
    body = (" s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)\n global_load_dword v3, v[0:1], off\n"
            " s_getpc_b64 s[4:5]\n s_add_u32 s4, s4, callee@gotpcrel32@lo+4\n s_addc_u32 s5, s5, callee@gotpcrel32@hi+12\n"
            " s_load_dwordx2 s[4:5], s[4:5], 0x0\n s_waitcnt lgkmcnt(0)\n s_setpc_b64 s[4:5]")
    assert findings(snippet, function("gfx90a", body)) == []


# 2. atomics without return
def test_atomic_without_return_writes_no_register(snippet):
    body = (" v_mov_b32 v0, 0\n v_mov_b32 v1, 1\n global_atomic_add v0, v1, s[0:1]\n v_add_u32 v2, v1, v1\n"
            " v_mov_b32 v1, 0")
    assert findings(snippet, kernel("gfx942", body)) == []
    returning = body.replace("s[0:1]\n", "s[0:1] sc0\n").replace("global_atomic_add v0", "global_atomic_add v1, v0")
    (real,) = findings(snippet, kernel("gfx942", returning))
    assert "v1 is read here but may still be loading (global_atomic_add" in real.message
    gfx12 = (" v_mov_b32 v0, 0\n v_mov_b32 v1, 1\n global_atomic_add_u32 v0, v1, s[0:1]\n v_add_nc_u32 v2, v1, v1")
    assert findings(snippet, kernel("gfx1200", gfx12)) == []
    gfx12_return = gfx12.replace("global_atomic_add_u32 v0, v1, s[0:1]",
                                 "global_atomic_add_u32 v1, v0, v1, s[0:1] th:TH_ATOMIC_RETURN")
    assert len(findings(snippet, kernel("gfx1200", gfx12_return))) == 1


# 3. symbolic counts in the `&` form (MIOpen's s_wait macro)
def test_symbolic_count_in_ampersand_form_is_folded(snippet):
    body = ("mbufs_cnt = 2\n global_load_dword v2, v[0:1], off\n global_load_dword v3, v[0:1], off offset:4\n"
            " global_load_dword v4, v[0:1], off offset:8\n"
            " s_waitcnt vmcnt(1*mbufs_cnt-1) & lgkmcnt(0)\n v_add_u32 v5, v2, v2")
    assert findings(snippet, kernel("gfx906", body)) == []
    (real,) = findings(snippet, kernel("gfx906", body.replace("v_add_u32 v5, v2, v2", "v_add_u32 v5, v4, v4")))
    assert "v4 is read" in real.message and "vmcnt(0)" in real.message


# 4. gfx12 legacy s_waitcnt
def test_gfx12_legacy_waitcnt_waits_for_every_counter(snippet):
    body = (" global_load_b32 v2, v[0:1], off\n global_store_b32 v[0:1], v3, off\n s_waitcnt vmcnt(0)\n"
            " v_add_nc_u32 v4, v2, v2")
    text = kernel("gfx1201", body)
    assert findings(snippet, text) == []
    (said,) = findings(snippet, text, "overstrict-wait")
    assert "legacy s_waitcnt waits for every counter" in said.message
    assert len(findings(snippet, kernel("gfx1201", body.replace(" s_waitcnt vmcnt(0)\n", "")))) == 1


# 5. no back-off barrier
def test_vmcnt_before_barrier_is_a_policy_warning_and_never_assumed(snippet):
    body = (" global_load_dword v2, v[0:1], off\n global_load_dword v3, v[0:1], off offset:4\n s_barrier\n"
            " s_waitcnt vmcnt(1)\n global_store_dword v[0:1], v2, off")
    diagnostics = findings(snippet, kernel("gfx908", body))
    (policy,) = diagnostics
    assert str(policy.severity) == "warning" and "no data race is implied" in policy.message
    # the vmcnt(1) protects v2: it is not redundant, whatever the barrier did
    assert findings(snippet, kernel("gfx908", body), "redundant-wait") == []
    racy = body.replace(" s_waitcnt vmcnt(1)\n", "")
    errors = [d for d in findings(snippet, kernel("gfx908", racy)) if str(d.severity) == "error"]
    assert len(errors) == 1 and "v2 is read" in errors[0].message


# 6. FLAT accesses (LLVM's own output: flat-for-global on gfx8)
def test_llvm_flat_for_global_output_is_clean(snippet):
    ir = ("declare i32 @llvm.amdgcn.workitem.id.x()\n"
          "define amdgpu_kernel void @k(ptr addrspace(1) %p, ptr addrspace(1) %q) {\n"
          "  %i = call i32 @llvm.amdgcn.workitem.id.x()\n  %a.p = getelementptr i32, ptr addrspace(1) %p, i32 %i\n"
          "  %a = load i32, ptr addrspace(1) %a.p\n  %b = getelementptr i32, ptr addrspace(1) %a.p, i64 64\n"
          "  %c = load i32, ptr addrspace(1) %b\n  %s = add i32 %a, %c\n"
          "  %q.p = getelementptr i32, ptr addrspace(1) %q, i32 %i\n  store i32 %s, ptr addrspace(1) %q.p\n"
          "  ret void\n}\n")
    assembly = compile_ir(ir, "gfx803")
    assert "flat_load_dword" in assembly and "lgkmcnt(0)" not in assembly.split("flat_load_dword", 1)[1]
    assert findings(snippet, assembly) == []


# 7. gfx6 expcnt protects store data, not the result of a returning atomic
def test_gfx6_returning_atomic_result_needs_no_expcnt(snippet):
    body = (" v_mov_b32 v1, 1\n buffer_atomic_add v1, off, s[0:3], 0 glc\n s_waitcnt vmcnt(0)\n"
            " v_add_i32 v2, vcc, v1, v1")
    assert findings(snippet, kernel("gfx600", body)) == []
    store = " v_mov_b32 v1, 1\n buffer_store_dword v1, off, s[0:3], 0\n v_mov_b32 v1, 2"
    (real,) = findings(snippet, kernel("gfx600", store))
    assert "v1 is overwritten" in real.message and "expcnt(0)" in real.message
    # the address of a store is not locked, only its data
    address = " v_mov_b32 v1, 1\n v_mov_b32 v2, 0\n buffer_store_dword v1, v2, s[0:3], 0 offen\n v_mov_b32 v2, 2"
    assert findings(snippet, kernel("gfx600", address)) == []


# 8. counters of gfx12 cache write-back, gfx11 LDS parameter loads, gfx12 MSAA loads
def test_gfx12_global_wb_counts_on_storecnt(snippet):
    body = " global_wb scope:SCOPE_SYS\n s_wait_storecnt 0x0"
    assert findings(snippet, kernel("gfx1200", body), "redundant-wait") == []
    assert len(findings(snippet, kernel("gfx1200", " s_wait_storecnt 0x0"), "redundant-wait")) == 1


def test_gfx11_lds_param_load_counts_on_expcnt(snippet):
    body = " s_mov_b32 m0, 0\n lds_param_load v1, attr0.x wait_vdst:0\n v_add_f32 v2, v1, v1"
    (real,) = findings(snippet, kernel("gfx1100", body))
    assert "v1 is read" in real.message and "expcnt(0)" in real.message
    assert findings(snippet, kernel("gfx1100", body.replace(" v_add_f32", " s_waitcnt expcnt(0)\n v_add_f32"))) == []


def test_gfx12_msaa_load_counts_on_samplecnt(snippet):
    body = (" image_msaa_load v[0:3], [v4, v5, v6], s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_2D_MSAA\n"
            " s_wait_samplecnt 0x0\n v_add_f32 v7, v0, v0")
    assert findings(snippet, kernel("gfx1200", body)) == []
    (real,) = findings(snippet, kernel("gfx1200", body.replace("s_wait_samplecnt", "s_wait_loadcnt")))
    assert "s_wait_samplecnt" in real.message


# 10. LDS written before a barrier: only a read that can follow it races
def test_lds_write_synchronised_twice_is_quiet(snippet):
    # MIOpen igemm_wrw: barrier, wait for the writes, barrier again, then read
    body = (" v_mov_b32 v1, 0\n ds_write_b32 v1, v1\n s_barrier\n s_waitcnt lgkmcnt(0)\n s_barrier\n"
            " ds_read_b32 v2, v1 offset:256")
    assert findings(snippet, kernel("gfx942", body)) == []
    early = body.replace(" s_barrier\n s_waitcnt lgkmcnt(0)\n s_barrier\n", " s_barrier\n")
    (real,) = findings(snippet, kernel("gfx942", early))
    assert real.message.startswith("s_barrier while LDS written by ds_write_b32")


def test_reading_back_its_own_lds_write_after_a_barrier_is_quiet(snippet):
    # LLVM's gfx12 output: each lane reads the address it wrote itself
    body = (" v_lshlrev_b32 v1, 2, v0\n ds_store_b32 v1, v0\n s_barrier_signal -1\n s_barrier_wait -1\n"
            " ds_load_b32 v2, v1\n s_wait_dscnt 0x0")
    assert findings(snippet, kernel("gfx1200", body)) == []
    neighbour = body.replace(" ds_load_b32 v2, v1\n", " ds_load_b32 v2, v1 offset:4\n")
    assert len(findings(snippet, kernel("gfx1200", neighbour))) == 1


# 12. a callable function's entry wait
def test_function_entry_wait_is_not_redundant(snippet):
    ir = "define void @f(ptr addrspace(1) %p) {\n  store i32 1, ptr addrspace(1) %p\n  ret void\n}\n"
    for target in ("gfx1100", "gfx1200", "gfx942"):
        assembly = compile_ir(ir, target)
        assert findings(snippet, assembly, "redundant-wait") == []
    body = " s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)\n s_waitcnt_vscnt null, 0x0\n s_waitcnt vmcnt(0)\n s_setpc_b64 s[30:31]"
    (second,) = findings(snippet, function("gfx1100", body), "redundant-wait")
    assert second.line == 8


# gfx1250 address translation (xcnt)
def test_gfx1250_address_register_overwritten_before_translation(snippet):
    body = (" v_mov_b32 v0, 0\n global_load_b32 v2, v0, s[0:1]\n v_mov_b32 v0, 4")
    (real,) = findings(snippet, kernel("gfx1250", body))
    assert "v0 is overwritten" in real.message and "s_wait_xcnt" in real.message
    assert findings(snippet, kernel("gfx1250", body.replace(" v_mov_b32 v0, 4", " s_wait_xcnt 0x0\n v_mov_b32 v0, 4"))) == []
    # a later VMEM access is translated after it: no wait
    later_load = body.replace(" v_mov_b32 v0, 4", " v_mov_b32 v3, 0\n global_load_b32 v0, v3, s[0:1]")
    assert findings(snippet, kernel("gfx1250", later_load)) == []
    # LLVM's extra `s_wait_xcnt 0x0` after a completed store: translation is inferred, never called useless
    stored = " v_mov_b32 v0, 0\n global_store_b32 v0, v1, s[0:1]\n s_wait_storecnt 0x0\n s_wait_xcnt 0x0"
    assert findings(snippet, kernel("gfx1250", stored), "redundant-wait") == []
    assert len(findings(snippet, kernel("gfx1250", stored + "\n s_wait_storecnt 0x0"), "redundant-wait")) == 1


# hand-written subroutines and trap handlers (MIOpen Winograd, ROCr trap handler)
def test_wait_after_a_hand_written_subroutine_call_is_not_redundant(snippet):
    # the subroutine may return with its LDS reads in flight; the caller waits for them
    body = (" s_call_b64 s[38:39], sub\n s_waitcnt lgkmcnt(0)\n v_add_f32 v3, v2, v2\n s_endpgm\n"
            "sub:\n v_mov_b32 v1, 0\n ds_read_b32 v2, v1\n s_setpc_b64 s[38:39]")
    assert findings(snippet, kernel("gfx906", body), "redundant-wait") == []
    twice = body.replace(" s_waitcnt lgkmcnt(0)\n", " s_waitcnt lgkmcnt(0)\n s_waitcnt lgkmcnt(0)\n")
    (second,) = findings(snippet, kernel("gfx906", twice), "redundant-wait")
    assert second.line == 8


def test_trap_handler_is_not_a_callable_function(snippet):
    body = (" s_getreg_b32 ttmp2, hwreg(HW_REG_STATUS)\n v_mov_b32 v0, ttmp2\n s_and_b32 ttmp1, ttmp1, 0xffff\n"
            " s_rfe_b64 [ttmp0, ttmp1]")
    text = function("gfx906", body).replace("f:", "trap_entry:").replace(" f\n", " trap_entry\n")
    assert findings(snippet, text) == []
    assert len(findings(snippet, function("gfx906", body.replace("s_rfe_b64 [ttmp0, ttmp1]", "s_setpc_b64 s[30:31]")))) == 1


# 11. correlated branches (Tensile DGEMM)
def test_retested_condition_makes_the_contradicting_path_infeasible(snippet):
    body = (" s_cmp_eq_u32 s5, 0\n s_cbranch_scc1 .Lskip_load\n global_load_dwordx2 v[10:11], v[0:1], off\n"
            ".Lskip_load:\n v_mov_b32 v2, 1\n s_cmp_eq_u32 s5, 0\n s_cbranch_scc1 .Lskip_wait\n s_waitcnt vmcnt(0)\n"
            ".Lskip_wait:\n v_mov_b32 v10, 0")
    assert findings(snippet, kernel("gfx90a", body)) == []
    # a different condition, or an operand changed in between: the path is feasible, the race real
    assert len(findings(snippet, kernel("gfx90a", body.replace("s_cmp_eq_u32 s5, 0\n s_cbranch_scc1 .Lskip_wait",
                                                               "s_cmp_eq_u32 s6, 0\n s_cbranch_scc1 .Lskip_wait")))) == 1
    changed = body.replace(" v_mov_b32 v2, 1\n", " s_add_u32 s5, s5, 1\n")
    assert len(findings(snippet, kernel("gfx90a", changed))) == 1
    # the wait under the second test protects the load: not redundant
    assert findings(snippet, kernel("gfx90a", body), "redundant-wait") == []


# 9. LDS DMA retires in order with the loads before gfx10
def test_partial_vmcnt_retires_an_older_lds_dma_on_gfx9(snippet):
    body = (" v_mov_b32 v1, 0\n s_mov_b32 m0, 0\n buffer_load_dword v1, s[4:7], 0 offen lds\n"
            " global_load_dword v5, v[2:3], off\n s_waitcnt vmcnt(1)\n ds_read_b32 v6, v1")
    assert findings(snippet, kernel("gfx90a", body)) == []
    swapped = body.replace(" buffer_load_dword v1, s[4:7], 0 offen lds\n global_load_dword v5, v[2:3], off\n",
                           " global_load_dword v5, v[2:3], off\n buffer_load_dword v1, s[4:7], 0 offen lds\n")
    assert len(findings(snippet, kernel("gfx90a", swapped))) == 1
    # gfx10+: an LDS DMA is another event type than a load, only vmcnt(0) proves it done
    (gfx10,) = findings(snippet, kernel("gfx1030", body))
    assert "s_waitcnt vmcnt(0)" in gfx10.message


def test_wait_in_a_rept_body_is_redundant_only_if_every_expansion_is(snippet):
    # MIOpen conv3x3wrw's pipeline epilogue: `s_wait` in a .rept, needed by all but the last expansion
    body = (" global_load_dword v2, v[0:1], off\n global_load_dword v3, v[0:1], off offset:4\n"
            " i = 0\n .rept 3\n  s_waitcnt vmcnt(2 - i)\n  i = i + 1\n .endr\n v_add_u32 v4, v2, v3")
    assert findings(snippet, kernel("gfx906", body), "redundant-wait") == []
    (once,) = findings(snippet, kernel("gfx906", body.replace(" .rept 3\n", " s_waitcnt vmcnt(0)\n .rept 3\n")),
                       "redundant-wait")
    assert once.line == 11


def test_overstrict_wait_in_a_macro_body_advises_only_what_every_expansion_allows(snippet):
    macro = (".macro step first, second, use\n global_load_dword v\\first, v[0:1], off\n"
             " global_load_dword v\\second, v[0:1], off offset:4\n s_waitcnt vmcnt(0)\n v_add_u32 v10, v\\use, v\\use\n.endm\n")
    mixed = findings(snippet, macro + kernel("gfx90a", " step 2, 3, 2\n step 4, 5, 5"), "overstrict-wait")
    assert mixed == []  # vmcnt(1) would break the second expansion
    (both,) = findings(snippet, macro + kernel("gfx90a", " step 2, 3, 2\n step 4, 5, 4"), "overstrict-wait")
    assert "`s_waitcnt vmcnt(1)` is enough" in both.message


def test_lds_dma_regions_from_m0(snippet):
    # aiter flatmm: M0 set per DMA, ds_reads of the other buffer interleaved with the DMAs, no wait
    body = (" s_add_u32 m0, s8, 0\n buffer_load_dword v2, s[16:19], 0 offen lds\n s_add_u32 m0, s14, m0\n"
            " buffer_load_dword v3, s[16:19], 0 offen lds\n ds_read_b128 v[20:23], v8 offset:0x46f0")
    (unproven,) = findings(snippet, kernel("gfx942", body))
    assert str(unproven.severity) == "warning" and "which the listing cannot show" in unproven.message
    # M0 and the address copied from one value: the regions can be compared
    same = (" s_mov_b32 m0, s2\n v_mov_b32 v1, s2\n buffer_load_dword v2, s[16:19], 0 offen lds\n"
            " ds_read_b32 v4, v1")
    (error,) = findings(snippet, kernel("gfx942", same))
    assert str(error.severity) == "error" and "reads LDS that buffer_load_dword" in error.message
    assert findings(snippet, kernel("gfx942", same.replace("ds_read_b32 v4, v1", "ds_read_b32 v4, v1 offset:4096"))) == []
    # M0 not set where the DMA is (issue 30): no overlap shown either, a warning that says why
    unknown_m0 = (" s_mov_b32 m0, s8\n.Lnext:\n buffer_load_dword v2, s[16:19], 0 offen lds\n"
                  " ds_read_b128 v[20:23], v8 offset:0x46f0")
    (elsewhere,) = findings(snippet, kernel("gfx942", unknown_m0))
    assert str(elsewhere.severity) == "warning" and "M0 for the LDS DMA is set in another block" in elsewhere.message


def test_lds_dma_and_lane_permutes(snippet):
    # issue 30: ds_bpermute/ds_permute/ds_swizzle move data between lanes and read no LDS memory
    dma = " s_mov_b32 m0, 0\n v_mov_b32 v1, 0\n buffer_load_dword v2, s[16:19], 0 offen lds\n"
    for permute in ("ds_bpermute_b32 v4, v1, v5", "ds_permute_b32 v4, v1, v5", "ds_swizzle_b32 v4, v5 offset:0x401f"):
        assert findings(snippet, kernel("gfx90a", dma + " " + permute)) == [], permute
    (shown,) = findings(snippet, kernel("gfx90a", dma + " ds_read_b32 v4, v1"))  # M0 and v1 both 0: an overlap
    assert str(shown.severity) == "error" and "reads LDS that buffer_load_dword" in shown.message


def test_lds_dma_behind_a_partial_wait_of_a_double_buffered_prefetch(snippet):
    # the compiler keeps the newest DMA in flight with vmcnt(1) and reads the other buffer (alias scopes)
    body = (" s_mov_b32 m0, s8\n buffer_load_dword v2, s[16:19], 0 offen lds\n"
            " s_cbranch_scc1 .Lnext\n.Lnext:\n"
            " s_add_u32 m0, s8, 0x1000\n buffer_load_dword v3, s[16:19], 0 offen lds\n"
            " s_waitcnt vmcnt(1)\n ds_read_b32 v4, v8")
    (partial,) = findings(snippet, kernel("gfx90a", body))
    assert str(partial.severity) == "warning" and "M0 is set for every LDS DMA in flight" in partial.message
    assert "`s_waitcnt` at line 12 leaves 1 on vmcnt in flight on purpose" in partial.message


def test_vinterp_waits_for_expcnt_itself(snippet):
    # LLVM's gfx11 interpolation: lds_param_load, then v_interp_* with wait_exp:N
    body = (" s_mov_b32 m0, s2\n lds_param_load v0, attr0.y wait_vdst:15\n lds_param_load v1, attr1.x wait_vdst:15\n"
            " v_mov_b32 v2, s0\n v_interp_p10_f32 v3, v0, v2, v0 wait_exp:1\n v_interp_p10_f32 v2, v1, v2, v1 wait_exp:0")
    assert findings(snippet, kernel("gfx1100", body)) == []
    (real,) = findings(snippet, kernel("gfx1100", body.replace("v0 wait_exp:1", "v0 wait_exp:7")))
    assert "v0 is read" in real.message and "expcnt" in real.message


def test_gfx12_global_inv_with_loads_in_flight(snippet):
    # LLVM 22 issues global_inv (acquire) with loads still in flight; buffer_gl0_inv does need the wait
    body = " global_load_b32 v2, v[0:1], off\n global_inv scope:SCOPE_SE\n s_wait_loadcnt 0x0\n v_add_nc_u32 v3, v2, v2"
    assert findings(snippet, kernel("gfx1200", body)) == []
    gfx11 = " global_load_b32 v2, v[0:1], off\n buffer_gl0_inv\n s_waitcnt vmcnt(0)\n v_add_nc_u32 v3, v2, v2"
    (real,) = findings(snippet, kernel("gfx1100", gfx11))
    assert "invalidates the cache while loads" in real.message


def test_code_that_only_chains_on_is_not_a_callable_function(snippet):
    # amdgpu_cs_chain: a PAL shader that jumps to the next one and never returns
    body = (" s_getpc_b64 s[100:101]\n s_mov_b32 s100, s0\n s_add_u32 s100, s100, chain@rel32@lo+4\n"
            " s_addc_u32 s101, s101, chain@rel32@hi+12\n s_setpc_b64 s[100:101]")
    assert findings(snippet, function("gfx1030", body)) == []
    returning = body.replace(" s_setpc_b64 s[100:101]", " s_setpc_b64 s[30:31]")
    assert "used before any wait in function 'f'" in findings(snippet, function("gfx1030", returning))[0].message


def test_entry_wait_of_a_function_that_only_tail_calls_is_not_redundant(snippet):
    body = (" s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)\n s_getpc_b64 s[16:17]\n s_add_u32 s16, s16, g@rel32@lo+4\n"
            " s_addc_u32 s17, s17, g@rel32@hi+12\n s_setpc_b64 s[16:17]")
    assert findings(snippet, function("gfx900", body), "redundant-wait") == []


def test_flat_lds_half_is_counted_in_order_on_gfx10(snippet):
    # LLVM's memcpy from LDS to a flat pointer: lgkmcnt(2) after a flat store retires the second ds_read
    body = (" ds_read_b64 v[7:8], v2 offset:23\n ds_read_b128 v[3:6], v2\n ds_read_b64 v[9:10], v2 offset:16\n"
            " s_waitcnt lgkmcnt(2)\n flat_store_dwordx2 v[0:1], v[7:8] offset:23\n s_waitcnt lgkmcnt(2)\n"
            " flat_store_dwordx4 v[0:1], v[3:6]")
    assert findings(snippet, kernel("gfx1030", body)) == []
    (real,) = findings(snippet, kernel("gfx1030", body.replace(" s_waitcnt lgkmcnt(2)\n flat_store_dwordx4",
                                                               " flat_store_dwordx4")))
    assert "v[3:6] are read" in real.message


def test_function_that_can_end_the_program_still_waits_at_entry(snippet):
    # LLVM: a callable function calling llvm.amdgcn.s.endpgm keeps its calling-convention entry wait
    body = (" s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)\n s_cmp_eq_u32 s4, 0\n s_cbranch_scc1 .Lend\n"
            " s_setpc_b64 s[30:31]\n.Lend:\n s_endpgm")
    assert findings(snippet, function("gfx803", body), "redundant-wait") == []


def test_code_starting_with_a_loop_that_waits_is_not_a_callable_function(snippet):
    # LLVM's gfx6 shader: the loop header at the entry waits for the previous iteration's s_load
    body = (".Lloop:\n s_waitcnt lgkmcnt(0)\n s_load_dword s3, s[0:1], 0x64\n s_add_i32 s2, s2, -1\n"
            " s_cmp_lg_u32 s2, 0\n s_cbranch_scc1 .Lloop\n s_endpgm")
    assert findings(snippet, function("gfx600", body)) == []


def test_gfx1250_banked_vgprs_are_the_registers_the_mode_selects(snippet):
    # issue 40, 1: LLVM's gfx1250 output past v255: s_set_vgpr_msb selects the bank, `v5` then names v261
    body = (" s_set_vgpr_msb 0x41\n scratch_load_b32 v5, off, s32\n s_set_vgpr_msb 0\n s_wait_loadcnt 0x0\n"
            " s_set_vgpr_msb 0x41\n v_mov_b32 v6, v5")
    assert findings(snippet, kernel("gfx1250", body)) == []
    (missing,) = findings(snippet, kernel("gfx1250", body.replace(" s_wait_loadcnt 0x0\n", "")))
    assert missing.message.startswith("v261 is read here")  # the loaded v261, read as src0 under src0's bank 1
    # the load wrote v261; `v5` read in bank 0 is another register: nothing to wait for
    other_bank = body.replace(" s_wait_loadcnt 0x0\n", "").replace("s_set_vgpr_msb 0x41\n v_mov", "s_set_vgpr_msb 0x40\n v_mov")
    assert findings(snippet, kernel("gfx1250", other_bank)) == []
    plain = " scratch_load_b32 v5, off, s32\n v_mov_b32 v6, v5"
    assert len(findings(snippet, kernel("gfx1250", plain))) == 1


def test_gfx1250_banks_unknown_where_paths_meet_with_different_modes(snippet):
    # one path sets dst's bank 1, the other not: the load wrote v5 or v261, so the VGPR is not tracked
    body = (" s_cbranch_scc0 .L1\n s_set_vgpr_msb 0x40\n.L1:\n scratch_load_b32 v5, off, s32\n"
            " s_set_vgpr_msb 0\n v_mov_b32 v6, v5")
    assert findings(snippet, kernel("gfx1250", body)) == []
    assert len(findings(snippet, kernel("gfx1250", body.replace(" s_set_vgpr_msb 0x40\n", "")))) == 1


# issue 30, 1: clang's OpenCL kernel bodies (`__clang_ocl_kern_imp_*`) end in a tail call
def test_tail_call_behind_a_line_table_label_is_not_a_return(snippet):
    # `.Ltmp7` (from -g) starts a block nothing branches to: the s_getpc_b64 before it still counts
    body = (" s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)\n s_getpc_b64 s[0:1]\n s_add_u32 s0, s0, g@rel32@lo+4\n"
            " s_addc_u32 s1, s1, g@rel32@hi+12\n scratch_load_dword v40, off, s33 offset:64\n.Ltmp7:\n"
            " s_setpc_b64 s[0:1]")
    assert findings(snippet, function("gfx942", body)) == []
    (real,) = findings(snippet, function("gfx942", body.replace("s_setpc_b64 s[0:1]", "s_setpc_b64 s[30:31]")))
    assert "'f' returns while scratch_load_dword" in real.message
    # gfx1250 spells it s_get_pc_i64 / s_add_nc_u64 ...@rel64 / s_set_pc_i64
    gfx1250 = (" s_wait_loadcnt_dscnt 0x0\n s_wait_kmcnt 0x0\n s_get_pc_i64 s[0:1]\n"
               " s_add_nc_u64 s[0:1], s[0:1], g@rel64+4\n scratch_load_b32 v40, off, s33 offset:64\n.Ltmp7:\n"
               " s_set_pc_i64 s[0:1]")
    assert findings(snippet, function("gfx1250", gfx1250)) == []
    (real,) = findings(snippet, function("gfx1250", gfx1250.replace("s_set_pc_i64 s[0:1]", "s_set_pc_i64 s[30:31]")))
    assert "'f' returns while scratch_load_b32" in real.message


def test_tail_call_to_an_address_read_back_from_a_spill_is_not_a_return(snippet):
    # the callee's address and the return address both spilled to lanes of v43 around a call
    body = (" s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)\n s_getpc_b64 s[4:5]\n s_add_u32 s4, s4, g@rel32@lo+4\n"
            " s_addc_u32 s5, s5, g@rel32@hi+12\n v_writelane_b32 v43, s30, 0\n v_writelane_b32 v43, s31, 1\n"
            " v_writelane_b32 v43, s4, 2\n v_writelane_b32 v43, s5, 3\n s_getpc_b64 s[16:17]\n"
            " s_add_u32 s16, s16, h@rel32@lo+4\n s_addc_u32 s17, s17, h@rel32@hi+12\n s_swappc_b64 s[30:31], s[16:17]\n"
            " v_readlane_b32 s0, v43, 2\n v_readlane_b32 s1, v43, 3\n v_readlane_b32 s30, v43, 0\n"
            " v_readlane_b32 s31, v43, 1\n scratch_load_dword v40, off, s33 offset:64\n s_setpc_b64 s[0:1]")
    assert findings(snippet, function("gfx942", body)) == []
    # the incoming return address, read back from its lanes: a return with a load in flight
    (real,) = findings(snippet, function("gfx942", body.replace("s_setpc_b64 s[0:1]", "s_setpc_b64 s[30:31]")))
    assert "'f' returns while scratch_load_dword" in real.message
    # a lane the callee's address went to, then overwritten with the return address: a return too
    overwritten = body.replace(" v_readlane_b32 s0, v43, 2\n", " v_writelane_b32 v43, s30, 2\n v_readlane_b32 s0, v43, 2\n")
    assert len(findings(snippet, function("gfx942", overwritten))) == 1


def test_jump_whose_target_is_built_on_one_path_only_is_a_return(snippet):
    body = (" s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)\n s_mov_b64 s[0:1], s[30:31]\n s_cmp_eq_u32 s2, 0\n"
            " s_cbranch_scc1 .Ljoin\n s_getpc_b64 s[0:1]\n s_add_u32 s0, s0, g@rel32@lo+4\n"
            " s_addc_u32 s1, s1, g@rel32@hi+12\n.Ljoin:\n scratch_load_dword v40, off, s33\n s_setpc_b64 s[0:1]")
    (real,) = findings(snippet, function("gfx942", body))
    assert "'f' returns while scratch_load_dword" in real.message
    always = body.replace(" s_mov_b64 s[0:1], s[30:31]\n", " s_getpc_b64 s[0:1]\n")
    assert findings(snippet, function("gfx942", always)) == []


# issue 30, 5: gfx1250 address translation (xcnt)
def test_gfx1250_load_wait_retires_older_translations_in_order(snippet):
    # LLVM's gfx1250 function: the first load is done, so its address was translated (xcnt in order)
    body = (" s_wait_loadcnt_dscnt 0x0\n s_wait_kmcnt 0x0\n global_load_u8 v6, v[2:3], off\n"
            " global_load_u8 v7, v[4:5], off\n s_wait_loadcnt 0x1\n s_wait_xcnt 0x1\n v_mov_b32 v0, v6\n"
            " v_mov_b32 v2, 0\n s_wait_loadcnt 0x0\n s_set_pc_i64 s[30:31]")
    assert findings(snippet, function("gfx1250", body)) == []
    assert findings(snippet, function("gfx1250", body.replace(" s_wait_xcnt 0x1\n", ""))) == []  # loadcnt covers it
    # the second load's address may still be in translation
    (real,) = findings(snippet, function("gfx1250", body.replace("v_mov_b32 v2, 0", "v_mov_b32 v4, 0")))
    assert "v4 is overwritten here but global_load_u8 at" in real.message and "may still be reading it" in real.message
    assert "`s_wait_xcnt 0x0`" in real.message


def test_gfx1250_smem_translations_retire_out_of_order_unless_interleaved(snippet):
    # two scalar loads: their translations retire in any order, only xcnt 0 frees the first one's address
    body = (" s_wait_loadcnt_dscnt 0x0\n s_wait_kmcnt 0x0\n s_load_b32 s8, s[0:1], 0x0\n s_load_b32 s9, s[2:3], 0x0\n"
            " s_wait_xcnt 0x1\n s_mov_b32 s0, 0\n s_wait_kmcnt 0x0\n s_set_pc_i64 s[30:31]")
    (out_of_order,) = findings(snippet, function("gfx1250", body))
    assert "s0 is overwritten here but s_load_b32 at" in out_of_order.message
    assert "`s_wait_xcnt 0x0`" in out_of_order.message
    # LLVM's output after a call: scalar loads, then stores; the hardware waits for the scalar
    # translations where the stores start, so the stores' own retire in order
    llvm = (" s_wait_loadcnt_dscnt 0x0\n s_wait_kmcnt 0x0\n s_load_b64 s[0:1], s[4:5], 0x0\n"
            " s_load_b64 s[2:3], s[6:7], 0x0\n scratch_store_b64 off, v[0:1], s33 offset:120\n"
            " scratch_store_b128 off, v[56:59], s33 offset:128\n s_wait_xcnt 0x1\n v_mov_b32 v0, 0\n"
            " s_wait_kmcnt 0x0\n s_set_pc_i64 s[30:31]")
    assert findings(snippet, function("gfx1250", llvm)) == []
    (newest,) = findings(snippet, function("gfx1250", llvm.replace("v_mov_b32 v0, 0", "v_mov_b32 v56, 0")))
    assert "v56 is overwritten here but scratch_store_b128 at" in newest.message


def test_gfx1250_load_into_a_locked_address_register_releases_it(snippet):
    # the second load writes v[0:1], the first one's address, after its own translation and so after
    # the first one's: a later write of v0 needs no xcnt wait (stores older than both still in flight)
    body = (" s_wait_loadcnt_dscnt 0x0\n s_wait_kmcnt 0x0\n global_store_b32 v[42:43], v3, off\n"
            " global_store_b32 v[42:43], v4, off offset:4\n global_load_b32 v56, v[0:1], off\n"
            " global_load_b96 v[0:2], v[42:43], off offset:-8\n s_wait_loadcnt 0x0\n v_mov_b32 v0, 0")
    assert findings(snippet, function("gfx1250", body)) == []
    elsewhere = body.replace("global_load_b96 v[0:2]", "global_load_b96 v[4:6]").replace(" s_wait_loadcnt 0x0\n", "")
    (real,) = findings(snippet, function("gfx1250", elsewhere))
    assert "v0 is overwritten here but global_load_b32 at" in real.message


def test_gfx1250_async_barrier_arrive_writes_no_register(snippet):
    body = (" s_wait_loadcnt_dscnt 0x0\n s_wait_kmcnt 0x0\n s_wait_alu depctr_vm_vsrc(0)\n"
            " ds_atomic_async_barrier_arrive_b64 v0\n s_wait_alu depctr_vm_vsrc(0)\n s_set_pc_i64 s[30:31]")
    assert findings(snippet, function("gfx1250", body)) == []
    loading = body.replace("ds_atomic_async_barrier_arrive_b64 v0", "ds_load_b32 v1, v0")
    (real,) = findings(snippet, function("gfx1250", loading))
    assert "'f' returns while ds_load_b32" in real.message


# issue 30, 7: which counter an instruction counts on
def test_gfx12_image_get_lod_counts_on_samplecnt(snippet):
    # LLVM: image_get_lod, image_gather4 and image_msaa_load on samplecnt; image_load and get_resinfo on loadcnt
    body = (" image_get_lod v[3:6], [v0, v1], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D\n"
            " image_load v[7:10], [v2, v2], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D\n"
            " image_get_resinfo v[11:14], v2, s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D\n"
            " s_wait_loadcnt 0x1\n s_wait_samplecnt 0x0\n v_add_f32 v0, v3, v7")
    text = kernel("gfx1201", body)
    assert findings(snippet, text) == [] and findings(snippet, text, "redundant-wait") == []
    (real,) = findings(snippet, kernel("gfx1201", body.replace(" s_wait_samplecnt 0x0\n", "")))
    assert "v3 is read" in real.message and "`s_wait_samplecnt 0x0`" in real.message


def test_scalar_cache_maintenance_counts_on_lgkmcnt(snippet):
    # LLVM waits lgkmcnt(0) after s_dcache_inv before a return: that wait is not redundant
    body = " s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)\n s_dcache_inv\n s_waitcnt lgkmcnt(0)\n s_setpc_b64 s[30:31]"
    assert findings(snippet, function("gfx900", body), "redundant-wait") == []
    wb = kernel("gfx900", " s_dcache_wb\n s_waitcnt lgkmcnt(0)\n s_waitcnt lgkmcnt(0)")
    (second,) = findings(snippet, wb, "redundant-wait")
    assert second.line == 8  # the line after the first wait


# issue 30, 9: hipBLASLt guards its prefetch stages with the loop counter and tests it again before the loop
_PREFETCH_GUARDS = (" v_mov_b32 v0, 0\n v_mov_b32 v3, 0\n buffer_load_dword v1, v0, s[4:7], 0 offen\n"
                    " s_cmp_le_u32 s10, 2\n s_cbranch_scc1 .Lskip\n buffer_load_dword v2, v0, s[4:7], 0 offen\n"
                    ".Lskip:\n s_cmp_eq_u32 s10, 1\n s_cbranch_scc1 .Lshort\n s_cmp_eq_u32 s10, 2\n"
                    " s_cbranch_scc1 .Lshort\n s_cmp_le_u32 s10, 3\n s_cbranch_scc1 .Lshort\n"
                    ".Lloop:\n s_waitcnt vmcnt(1)\n v_add_f32 v3, v3, v1\n buffer_load_dword v1, v0, s[4:7], 0 offen\n"
                    " s_waitcnt vmcnt(1)\n v_add_f32 v3, v3, v2\n buffer_load_dword v2, v0, s[4:7], 0 offen\n"
                    " s_sub_u32 s10, s10, 2\n s_cmp_gt_u32 s10, 3\n s_cbranch_scc1 .Lloop\n"
                    ".Lshort:\n s_waitcnt vmcnt(0)\n v_add_f32 v4, v1, v3")


def test_loop_counter_ranges_drop_paths_that_cannot_happen(snippet):
    # the loop runs only when s10 >= 4, and then stage 2 was issued: vmcnt(1) retires stage 1
    text = kernel("gfx90a", _PREFETCH_GUARDS)
    assert findings(snippet, text) == [] and findings(snippet, text, "redundant-wait") == []
    # stage 2 skipped up to s10 <= 4: with s10 == 4 the loop runs on one load, vmcnt(1) waits for nothing
    (real,) = findings(snippet, kernel("gfx90a", _PREFETCH_GUARDS.replace("s_cmp_le_u32 s10, 2", "s_cmp_le_u32 s10, 4")))
    assert real.line == 21 and "v1 is read here but may still be loading" in real.message
    # the counter written between the guard and the tests: nothing is known of it
    rewritten = _PREFETCH_GUARDS.replace(".Lskip:\n", ".Lskip:\n s_lshr_b32 s10, s10, 1\n")
    assert len(findings(snippet, kernel("gfx90a", rewritten))) == 1


def test_a_call_forgets_what_branches_said_of_sgprs(snippet):
    # the callee may write s10: after the call the re-test can go either way, and v1 may be in flight
    body = (" v_mov_b32 v0, 0\n s_cmp_le_u32 s10, 2\n s_cbranch_scc1 .Lnoload\n s_swappc_b64 s[30:31], s[16:17]\n"
            " buffer_load_dword v1, v0, s[4:7], 0 offen\n s_cmp_le_u32 s10, 2\n s_cbranch_scc1 .Lnoload\n"
            " s_waitcnt vmcnt(0)\n.Lnoload:\n v_add_f32 v4, v1, v1")
    (real,) = findings(snippet, kernel("gfx90a", body))
    assert "v1 is read" in real.message
    assert findings(snippet, kernel("gfx90a", body.replace("s_swappc_b64 s[30:31], s[16:17]", "s_nop 0"))) == []


def test_signed_and_sopk_comparisons_bound_the_counter_too(snippet):
    # the same guards written as signed SOPK compares and with the constant first
    guards = _PREFETCH_GUARDS.replace("s_cmp_le_u32 s10, 2", "s_cmpk_lt_i32 s10, 3").replace(
        "s_cmp_eq_u32 s10, 1", "s_cmpk_eq_u32 s10, 0x1").replace("s_cmp_le_u32 s10, 3", "s_cmp_ge_i32 3, s10")
    assert findings(snippet, kernel("gfx90a", guards)) == []
    # signed: a negative counter skips stage 2 (-1 < 3) and is not <= 3 unsigned, so it reaches the loop
    unsigned_exit = guards.replace("s_cmp_ge_i32 3, s10", "s_cmp_ge_u32 3, s10")
    assert len(findings(snippet, kernel("gfx90a", unsigned_exit))) == 1


# issue 40, 4: LLVM counts each LDS DMA and keeps the one into the other buffer in flight (its lds-dma-waits test)
_TWO_LDS_BUFFERS = """
@front = internal addrspace(3) global [32 x i32] poison, align 16
@back = internal addrspace(3) global [32 x i32] poison, align 16
declare void @llvm.amdgcn.raw.buffer.load.lds(<4 x i32>, ptr addrspace(3) nocapture, i32, i32, i32, i32, i32)
declare void @llvm.amdgcn.wave.barrier()
define amdgpu_kernel void @two_buffers(<4 x i32> %rsrc, i32 %i, i32 %j, ptr addrspace(1) %out) {
  call void @llvm.amdgcn.raw.buffer.load.lds(<4 x i32> %rsrc, ptr addrspace(3) @front, i32 4, i32 0, i32 0, i32 0, i32 0)
  call void @llvm.amdgcn.raw.buffer.load.lds(<4 x i32> %rsrc, ptr addrspace(3) @back, i32 4, i32 4, i32 0, i32 0, i32 0)
  %in.front = getelementptr i32, ptr addrspace(3) @front, i32 %i
  %in.back = getelementptr i32, ptr addrspace(3) @back, i32 %j
  ASM
  %x = load i32, ptr addrspace(3) %in.front
  call void @llvm.amdgcn.wave.barrier()
  %y = load i32, ptr addrspace(3) %in.back
  %sum = add i32 %x, %y
  store i32 %sum, ptr addrspace(1) %out
  ret void
}
"""


def _dma_findings(snippet, text: str, **options):
    return [d for d in snippet.lint(text, **options).diagnostics if d.name in ("missing-wait", "overstrict-wait")]


def test_llvm_partial_wait_after_lds_dma_draws_nothing(snippet):
    for cpu in ("gfx900", "gfx1030"):
        listing = compile_ir(_TWO_LDS_BUFFERS.replace("ASM", ""), cpu)
        assert "s_waitcnt vmcnt(1)\n\tds_read_b32" in listing  # the DMA into @back stays in flight
        # before: a missing-wait warning on the read, and overstrict-wait advising to remove the vmcnt(1)
        assert _dma_findings(snippet, listing) == [], cpu
        # the same code as a hand-written kernel: the listing alone cannot show the buffers apart
        (hand,) = _dma_findings(snippet, listing.replace(".Lfunc_end0", ".Lend"))
        assert str(hand.severity) == "warning" and "leaves 1 on vmcnt in flight on purpose" in hand.message
        # M0 and the read's address both 0 with the partial wait gone: an overlap the listing shows, an error
        overlapping = listing.replace("\ts_waitcnt vmcnt(1)\n", "").replace(
            "v_mov_b32_e32 v0, s0\n", "v_mov_b32_e32 v0, 0\n")
        assert [str(d.severity) for d in _dma_findings(snippet, overlapping) if d.name == "missing-wait"] == ["error"]


def test_inline_asm_between_lds_dma_and_read_keeps_the_warning(snippet):
    listing = compile_ir(_TWO_LDS_BUFFERS.replace("ASM", 'call void asm sideeffect "s_nop 1", ""()'), "gfx900")
    assert ";;#ASMSTART" in listing
    (warning,) = _dma_findings(snippet, listing)
    assert str(warning.severity) == "warning" and "M0 is set for every LDS DMA in flight" in warning.message


def test_llc_listing_for_a_bare_amdgcn_triple_draws_nothing(snippet):
    # as LLVM's lds-dma-waits test compiles it: `-mtriple=amdgcn`, no code object metadata
    from conftest import llc_listing

    for cpu in ("gfx900", "gfx1030"):
        listing = llc_listing(_TWO_LDS_BUFFERS.replace("ASM", ""), "amdgcn", cpu)
        assert _dma_findings(snippet, listing, mcpu=cpu) == [], cpu


def test_llvm_lds_dma_waits_test_draws_nothing(snippet):
    """LLVM's own lds-dma-waits.ll, where the conformance corpus has it, through llc-22 for its RUN lines."""
    import llvm_conformance
    import pytest
    from conftest import llc_listing

    source = llvm_conformance.CORPUS / "CodeGen" / "lds-dma-waits.ll"
    if not source.is_file():
        pytest.skip(f"{source} is not in the conformance corpus")
    for cpu in ("gfx900", "gfx1030"):
        assert _dma_findings(snippet, llc_listing(source.read_text(), "amdgcn", cpu), mcpu=cpu) == [], cpu


# issue 40, 9: gfx1250's asynchronous LDS copies count on ASYNCcnt (AMDGPUUsage: s_wait_asynccnt)
_ASYNC_COPY = """
@tile = internal addrspace(3) global [256 x i32] poison, align 16
declare void @llvm.amdgcn.global.load.async.to.lds.b32(ptr addrspace(1), ptr addrspace(3), i32, i32)
declare void @llvm.amdgcn.s.wait.asynccnt(i16)
declare void @llvm.amdgcn.s.barrier()
declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @async_copy(ptr addrspace(1) %in, ptr addrspace(1) %out) {
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %from = getelementptr i32, ptr addrspace(1) %in, i32 %t
  %to = getelementptr [256 x i32], ptr addrspace(3) @tile, i32 0, i32 %t
  call void @llvm.amdgcn.global.load.async.to.lds.b32(ptr addrspace(1) %from, ptr addrspace(3) %to, i32 0, i32 0)
  %x = load i32, ptr addrspace(1) %from
  %next = getelementptr i32, ptr addrspace(3) %to, i32 64
  call void @llvm.amdgcn.global.load.async.to.lds.b32(ptr addrspace(1) %from, ptr addrspace(3) %next, i32 16, i32 0)
  call void @llvm.amdgcn.s.wait.asynccnt(i16 0)
  call void @llvm.amdgcn.s.barrier()
  %v = load i32, ptr addrspace(3) %to
  %sum = add i32 %v, %x
  %at = getelementptr i32, ptr addrspace(1) %out, i32 %t
  store i32 %sum, ptr addrspace(1) %at
  ret void
}
"""


def test_gfx1250_async_lds_copies_count_on_asynccnt(snippet):
    listing = compile_ir(_ASYNC_COPY, "gfx1250")
    assert "global_load_async_to_lds_b32" in listing and "s_wait_asynccnt 0x0" in listing
    assert "s_wait_loadcnt_dscnt 0x0" in listing  # one load on loadcnt: LLVM waits for it with a count of 0
    # before: the copies counted on loadcnt, and `s_wait_loadcnt 0x1` was advised (leaving global_load_b32 in flight)
    assert _dma_findings(snippet, listing) == []
    # the load's wait gone: the read of its register is still a race
    (race,) = _dma_findings(snippet, listing.replace("\ts_wait_loadcnt_dscnt 0x0\n", "\ts_wait_dscnt 0x0\n"))
    assert "v2 is read here but may still be loading (global_load_b32" in race.message
    assert "`s_wait_loadcnt 0x0`" in race.message


def test_gfx1250_async_lds_copy_reads_its_lds_address(snippet):
    body = (" global_load_async_to_lds_b32 v1, v2, s[0:1]\n global_store_async_from_lds_b32 v2, v3, s[0:1]\n"
            " s_wait_asynccnt 0x0\n v_mov_b32 v1, 0")
    assert findings(snippet, kernel("gfx1250", body)) == []
    assert findings(snippet, kernel("gfx1250", body), "redundant-wait") == []  # the wait retires the copies
    # LLVM's s.wait.gfx1250 test: a lone s_wait_asynccnt (the async barrier arrive also counts on it, unmodelled)
    assert findings(snippet, kernel("gfx1250", " s_wait_asynccnt 0x0"), "redundant-wait") == []
    # the LDS address is read, not written: still loading into it is a race (it was taken for the copy's result)
    (race,) = findings(snippet, kernel("gfx1250", " global_load_b32 v1, v4, s[0:1]\n" + body))
    assert "v1 is read here but may still be loading (global_load_b32" in race.message


def test_gfx1250_xcnt_wait_before_an_exec_write_is_not_overstrict(snippet):
    # LLVM: a store in a divergent region, then `s_wait_xcnt 0x0` before EXEC is restored
    body = (" s_mov_b32 s3, exec_lo\n v_cmpx_gt_u32_e64 s2, v0\n s_cbranch_execz .Ldone\n"
            " global_store_b32 v0, v0, s[0:1]\n.Ldone:\n s_wait_xcnt 0x0\n s_or_b32 exec_lo, exec_lo, s3")
    assert findings(snippet, kernel("gfx1250", body), "overstrict-wait") == []
    # before a write to another SGPR nothing needs it
    (loose,) = findings(snippet, kernel("gfx1250", body.replace("s_or_b32 exec_lo, exec_lo, s3", "s_or_b32 s4, s4, s3")),
                        "overstrict-wait")
    assert "remove it" in loose.message


def test_gfx1250_cluster_load_counts_on_loadcnt(snippet):
    # the tables (the GFX12 page) do not list gfx1250's cluster loads: the `cluster_` prefix makes them global loads
    ir = """
declare i32 @llvm.amdgcn.cluster.load.b32(ptr addrspace(1), i32, i32)
define amdgpu_kernel void @multicast(ptr addrspace(1) %in, ptr addrspace(1) %out, i32 %mask) {
  %v = call i32 @llvm.amdgcn.cluster.load.b32(ptr addrspace(1) %in, i32 0, i32 %mask)
  %w = add i32 %v, 1
  store i32 %w, ptr addrspace(1) %out
  ret void
}
"""
    listing = compile_ir(ir, "gfx1250")
    assert "cluster_load_b32 v1" in listing and "\ts_wait_loadcnt 0x0\n" in listing
    assert findings(snippet, listing) == [] and findings(snippet, listing, "redundant-wait") == []  # before: redundant
    # without the load, nothing is left for the wait
    (redundant,) = findings(snippet, listing.replace("\tcluster_load_b32 v1, v0, s[0:1]\n", ""), "redundant-wait")
    assert "s_wait_loadcnt waits for nothing" in redundant.message
