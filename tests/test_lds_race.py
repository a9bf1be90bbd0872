"""lds-race (AGL204): cross-wave LDS races on minimal hand-written kernels, each beside its fixed version."""

import pytest


def kernel(body: str, target: str = "gfx942", threads: int | None = 256, extra: str = "") -> str:
    """A kernel with `body`, its descriptor and (unless `threads` is None) metadata bounding its work-group."""
    accum = " .amdhsa_accum_offset 64\n" if target in ("gfx90a", "gfx942", "gfx950") else ""
    wave32 = target.startswith("gfx1")
    metadata = "" if threads is None else (
        ".amdgpu_metadata\n---\namdhsa.version: [ 1, 2 ]\namdhsa.kernels:\n  - .name: k\n    .symbol: k.kd\n"
        f"    .wavefront_size: {32 if wave32 else 64}\n    .max_flat_workgroup_size: {threads}\n"
        "    .group_segment_fixed_size: 65536\n    .kernarg_segment_size: 8\n...\n.end_amdgpu_metadata\n")
    return (f'.amdgcn_target "amdgcn-amd-amdhsa--{target}"\n.text\n.globl k\n.type k,@function\nk:\n{body}\n s_endpgm\n'
            ".rodata\n.amdhsa_kernel k\n .amdhsa_user_sgpr_kernarg_segment_ptr 1\n .amdhsa_next_free_vgpr 64\n"
            f" .amdhsa_next_free_sgpr 64\n{' .amdhsa_wavefront_size32 1' + chr(10) if wave32 else ''}"
            f"{accum}{extra}.end_amdhsa_kernel\n{metadata}")


def races(snippet, text: str):
    return [d for d in snippet.lint(text).diagnostics if d.name == "lds-race"]


def line_of(text: str, needle: str) -> int:
    return next(number for number, line in enumerate(text.split("\n"), 1) if needle in line)


# each thread writes its element, then reads its neighbour's: thread 63's neighbour is in the next wave
NEIGHBOUR = """ v_lshlrev_b32 v1, 2, v0
 v_mov_b32 v2, 1.0
 ds_write_b32 v1, v2
 s_waitcnt lgkmcnt(0)
 ds_read_b32 v3, v1 offset:4
 s_waitcnt lgkmcnt(0)
 v_add_f32 v4, v3, v3"""


def test_neighbour_read_without_barrier_is_a_race_at_the_read(snippet):
    text = kernel(NEIGHBOUR)
    (found,) = races(snippet, text)
    assert str(found.severity) == "error" and found.line == line_of(text, "ds_read_b32")
    assert "ds_read_b32 reads LDS that another wave's ds_write_b32 at line" in found.message
    assert "256 work-items, wave64" in found.message
    assert [note.line for note in found.notes] == [line_of(text, "ds_write_b32")]


def test_neighbour_read_after_a_drained_barrier_is_quiet(snippet):
    assert races(snippet, kernel(NEIGHBOUR.replace(" ds_read_b32", " s_barrier\n ds_read_b32"))) == []


def test_own_element_read_back_is_quiet(snippet):
    """A thread reading what it wrote itself races with no other wave."""
    assert races(snippet, kernel(NEIGHBOUR.replace(" offset:4", ""))) == []


def test_one_wave_work_group_and_unknown_size_are_quiet(snippet):
    assert races(snippet, kernel(NEIGHBOUR, threads=64)) == []  # one wave: nothing to race with
    assert races(snippet, kernel(NEIGHBOUR, threads=None)) == []  # no metadata: may be one wave per work-group
    assert len(races(snippet, kernel(NEIGHBOUR, threads=128))) == 1


def test_barrier_without_drain_is_reported_once_by_missing_wait(snippet):
    text = kernel(NEIGHBOUR.replace(" s_waitcnt lgkmcnt(0)\n ds_read_b32", " s_barrier\n ds_read_b32"))
    diagnostics = snippet.lint(text).diagnostics
    assert [d.name for d in diagnostics if d.severity.name == "ERROR"] == ["missing-wait"]


# a double-buffered loop: read the current buffer, fill the other one, swap (s_xor on the SGPR base)
SCALAR_TOGGLE = """ v_lshlrev_b32 v1, 4, v0
 s_mov_b32 s6, 0
 s_mov_b32 s7, 0
 ds_write_b128 v1, v[8:11]
 s_waitcnt lgkmcnt(0)
 s_barrier
.Lloop:
 v_add_u32 v2, s6, v1
 ds_read_b128 v[12:15], v2 offset:1024
 s_xor_b32 s6, s6, 0x8000
 v_add_u32 v3, s6, v1
 ds_write_b128 v3, v[8:11]
 s_waitcnt lgkmcnt(0)
 s_barrier
 s_add_u32 s7, s7, 1
 s_cmp_lt_u32 s7, 16
 s_cbranch_scc1 .Lloop"""

# the same with the offsets of both buffers toggled in VGPRs (v_xor_b32)
VECTOR_TOGGLE = """ v_lshlrev_b32 v1, 4, v0
 v_xor_b32 v3, 0x8000, v1
 s_mov_b32 s7, 0
 ds_write_b128 v1, v[8:11]
 s_waitcnt lgkmcnt(0)
 s_barrier
.Lloop:
 ds_read_b128 v[12:15], v1 offset:1024
 ds_write_b128 v3, v[8:11]
 v_xor_b32 v1, 0x8000, v1
 v_xor_b32 v3, 0x8000, v3
 s_waitcnt lgkmcnt(0)
 s_barrier
 s_add_u32 s7, s7, 1
 s_cmp_lt_u32 s7, 16
 s_cbranch_scc1 .Lloop"""


# three buffers in turn: the next one is the current one plus 0x2000, wrapped at 0x6000 (s_add, s_cselect)
ROTATING = """ v_lshlrev_b32 v1, 4, v0
 s_mov_b32 s6, 0
 s_mov_b32 s7, 0
 ds_write_b128 v1, v[8:11]
 s_waitcnt lgkmcnt(0)
 s_barrier
.Lloop:
 v_add_u32 v2, s6, v1
 ds_read_b128 v[12:15], v2 offset:1024
 s_add_u32 s8, s6, 0x2000
 s_cmp_eq_u32 s8, 0x6000
 s_cselect_b32 s6, 0, s8
 v_add_u32 v3, s6, v1
 ds_write_b128 v3, v[8:11]
 s_waitcnt lgkmcnt(0)
 s_barrier
 s_add_u32 s7, s7, 1
 s_cmp_lt_u32 s7, 16
 s_cbranch_scc1 .Lloop"""

LOOPS = [SCALAR_TOGGLE, VECTOR_TOGGLE, ROTATING]


@pytest.mark.parametrize("loop", LOOPS, ids=["s_xor", "v_xor", "three"])
def test_double_buffer_loop_with_its_barrier_is_quiet(snippet, loop):
    assert races(snippet, kernel(loop)) == []


@pytest.mark.parametrize("loop", LOOPS, ids=["s_xor", "v_xor", "three"])
def test_double_buffer_loop_missing_its_barrier_races_across_iterations(snippet, loop):
    text = kernel(loop.replace(" s_waitcnt lgkmcnt(0)\n s_barrier\n s_add_u32", " s_add_u32"))
    found = races(snippet, text)
    assert [(d.line, str(d.severity)) for d in found] == [
        (line_of(text, "ds_read_b128"), "error"),  # the next iteration reads what this one wrote
        (line_of(text, "ds_write_b128 v3"), "error"),  # and the one after overwrites what it reads
    ]
    assert "another wave's ds_write_b128" in found[0].message


def test_a_buffer_shared_on_one_phase_only_is_a_warning(snippet):
    """The write toggles between two buffers, the read always reads the first: a race every other trip."""
    loop = SCALAR_TOGGLE.replace(" v_add_u32 v2, s6, v1\n", " v_mov_b32 v2, v1\n").replace(
        " s_waitcnt lgkmcnt(0)\n s_barrier\n s_add_u32", " s_add_u32")
    found = races(snippet, kernel(loop))
    assert found and all(str(d.severity) == "warning" for d in found)
    assert "on some phases of the loop only" in found[0].message


def test_exec_masked_accesses_are_a_warning(snippet):
    """Under an EXEC mask some waves may run neither access (thread 0 only): an overlap cannot be shown."""
    body = NEIGHBOUR.replace(" ds_write_b32", " v_cmp_gt_u32 vcc, 64, v0\n s_and_saveexec_b64 s[2:3], vcc\n"
                             " ds_write_b32").replace(" v_add_f32", " s_or_b64 exec, exec, s[2:3]\n v_add_f32")
    (found,) = races(snippet, kernel(body))
    assert str(found.severity) == "warning" and "EXEC or a branch" in found.message
    restored = NEIGHBOUR.replace(" ds_write_b32", " v_cmp_gt_u32 vcc, 64, v0\n s_and_saveexec_b64 s[2:3], vcc\n"
                                 " s_or_b64 exec, exec, s[2:3]\n ds_write_b32")
    (found,) = races(snippet, kernel(restored))  # EXEC restored from its saved copy: every wave again
    assert str(found.severity) == "error"


def test_lds_dma_needs_vmcnt_before_the_barrier(snippet):
    """Each wave's DMA fills the same 256 bytes at M0; another wave reads them after a barrier its DMA
    may not have reached: vmcnt(0) must come before the barrier, not after."""
    body = (" s_mov_b32 m0, 0\n buffer_load_dword v1, s[8:11], 0 offen lds\n s_barrier\n s_waitcnt vmcnt(0)\n"
            " v_lshlrev_b32 v2, 2, v0\n ds_read_b32 v3, v2\n s_waitcnt lgkmcnt(0)\n v_add_f32 v4, v3, v3")
    text = kernel(body)
    found = races(snippet, text)
    assert [(d.line, str(d.severity)) for d in found] == [
        (line_of(text, "buffer_load_dword"), "error"),  # every wave writes the same bytes
        (line_of(text, "ds_read_b32"), "error")]
    fixed = body.replace(" s_barrier\n s_waitcnt vmcnt(0)\n", " s_waitcnt vmcnt(0)\n s_barrier\n")
    assert [d.line for d in races(snippet, kernel(fixed))] == [line_of(text, "buffer_load_dword")]


PER_WAVE = """ v_mbcnt_lo_u32_b32 v1, -1, 0
 v_mbcnt_hi_u32_b32 v1, -1, v1
 v_lshlrev_b32 v1, 2, v1
 v_lshrrev_b32 v5, 6, v0
 v_readfirstlane_b32 s4, v5
 s_lshl_b32 s4, s4, 9
 v_add_u32 v2, s4, v1
 ds_write_b32 v2, v3
 s_waitcnt lgkmcnt(0)
 ds_read_b32 v4, v2 offset:4
 v_and_b32 v6, 63, v0
 v_lshlrev_b32 v6, 2, v6
 ds_write_b32 v6, v3 offset:32768
 s_waitcnt lgkmcnt(0)
 ds_read_b32 v7, v6 offset:32772"""


def test_per_wave_buffers_are_apart(snippet):
    """Each wave writes and reads its own 512 bytes (the wave id from the work-item id, made scalar with
    v_readfirstlane): reading the lane above reaches no other wave's buffer."""
    assert races(snippet, kernel(PER_WAVE.split(" v_and_b32")[0])) == []


def test_per_wave_buffers_too_small_and_lane_masked_ids_race(snippet):
    """256-byte buffers: lane 63's neighbour is the next wave's lane 0. And the work-item id masked to its lane
    (v_and_b32 63) addresses the same bytes in every wave."""
    text = kernel(PER_WAVE.replace("s_lshl_b32 s4, s4, 9", "s_lshl_b32 s4, s4, 8"))
    found = races(snippet, text)
    assert [(d.line, str(d.severity)) for d in found] == [
        (line_of(text, "ds_read_b32 v4"), "error"),
        (line_of(text, "ds_write_b32 v6"), "error"),  # every wave writes it
        (line_of(text, "ds_read_b32 v7"), "error")]


def test_lane_addressed_buffer_is_shared_by_every_wave(snippet):
    """An address from the lane id alone is the same in every wave: two waves write the same bytes."""
    body = " v_mbcnt_lo_u32_b32 v1, -1, 0\n v_mbcnt_hi_u32_b32 v1, -1, v1\n v_lshlrev_b32 v1, 2, v1\n ds_write_b32 v1, v3"
    text = kernel(body)
    (found,) = races(snippet, text)
    assert "ds_write_b32 in two waves of a work-group writes overlapping LDS" in found.message
    assert str(found.severity) == "error"


def test_gfx12_split_barrier(snippet):
    body = NEIGHBOUR.replace("s_waitcnt lgkmcnt(0)", "s_wait_dscnt 0").replace("v_add_f32", "v_add_f32_e32")
    text = kernel(body, target="gfx1200")
    assert len(races(snippet, text)) == 1
    assert "wave32" in races(snippet, text)[0].message
    fixed = body.replace(" ds_read_b32", " s_barrier_signal -1\n s_barrier_wait -1\n ds_read_b32")
    assert races(snippet, kernel(fixed, target="gfx1200")) == []
    undrained = fixed.replace(" s_wait_dscnt 0\n s_barrier_signal", " s_barrier_signal")
    assert [d.name for d in snippet.lint(kernel(undrained, target="gfx1200")).diagnostics
            if d.severity.name == "ERROR"] == ["missing-wait"]


# aiter-style: each wave's LDS DMA fills its 256 bytes of one buffer (M0 = phase + wave id * 256) while the
# work-group reads the other buffer, the lane above (another wave's data for lane 63); one barrier a trip
DMA_DOUBLE_BUFFER = """ s_mov_b32 s6, 0
 s_mov_b32 s7, 0
 v_lshrrev_b32 v5, 6, v0
 v_readfirstlane_b32 s4, v5
 s_lshl_b32 s4, s4, 8
 v_lshlrev_b32 v2, 2, v0
 s_add_u32 m0, s4, s6
 buffer_load_dword v1, s[8:11], 0 offen lds
 s_waitcnt vmcnt(0)
 s_barrier
.Lloop:
 s_xor_b32 s6, s6, 0x4000
 s_add_u32 m0, s4, s6
 buffer_load_dword v1, s[8:11], 0 offen lds
 s_xor_b32 s5, s6, 0x4000
 v_add_u32 v3, s5, v2
 ds_read_b32 v4, v3 offset:4
 s_waitcnt vmcnt(0) lgkmcnt(0)
 s_barrier
 s_add_u32 s7, s7, 1
 s_cmp_lt_u32 s7, 16
 s_cbranch_scc1 .Lloop"""


def test_lds_dma_double_buffer_with_vmcnt_before_its_barrier_is_quiet(snippet):
    assert races(snippet, kernel(DMA_DOUBLE_BUFFER)) == []


def test_lds_dma_double_buffer_waiting_after_its_barrier_races(snippet):
    """vmcnt(0) after the barrier: the next trip reads what another wave's DMA may still be writing."""
    text = kernel(DMA_DOUBLE_BUFFER.replace(" s_waitcnt vmcnt(0) lgkmcnt(0)\n s_barrier\n",
                                            " s_waitcnt lgkmcnt(0)\n s_barrier\n s_waitcnt vmcnt(0)\n"))
    found = races(snippet, text)
    assert [(d.line, str(d.severity)) for d in found] == [(line_of(text, "ds_read_b32"), "error")]
    assert "another wave's buffer_load_dword" in found[0].message


def test_branch_on_a_uniform_vcc_keeps_every_wave_together(snippet):
    """LLVM branches on uniform conditions through VCC (`s_and_b64 vcc, exec, s[0:1]`): every wave takes the same
    way, so the race stays shown; a branch on a lane compare (v_cmp) may split the waves: a warning."""
    uniform = (" s_cmp_eq_u32 s2, 0\n s_cselect_b64 s[0:1], -1, 0\n s_and_b64 vcc, exec, s[0:1]\n"
               " s_cbranch_vccnz .Lskip\n v_mov_b32 v9, 0\n.Lskip:\n")
    (found,) = races(snippet, kernel(uniform + NEIGHBOUR))
    assert str(found.severity) == "error"
    lanes = " v_cmp_gt_u32 vcc, 64, v0\n s_cbranch_vccnz .Lskip\n v_mov_b32 v9, 0\n.Lskip:\n"
    (found,) = races(snippet, kernel(lanes + NEIGHBOUR))
    assert str(found.severity) == "warning" and "EXEC or a branch" in found.message
