"""Drains LLVM inserts and hand-written code forgets (issue 37 item 2): every counter before `s_barrier`
on targets without a back-off barrier, and a trap handler's messages and results before `s_rfe` and
`s_endpgm`. Each bug is found at the line a fix changes; the fixed kernel is quiet; LLVM's output is clean."""

import pytest
from llvm_oracle import compile_ir

#: LLVM 22 (llc -mcpu=X, a load, an LDS read and a store before a barrier): the targets it drains every
#: counter on before s_barrier, and those with the back-off barrier it drains nothing on
NO_BACK_OFF = ("gfx600", "gfx700", "gfx803", "gfx900", "gfx906", "gfx908")
BACK_OFF = ("gfx90a", "gfx942", "gfx950", "gfx1010", "gfx1030", "gfx1100", "gfx1200")

BARRIER_IR = """
declare void @llvm.amdgcn.s.barrier()
declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @k(ptr addrspace(1) %p, ptr addrspace(1) %q, ptr addrspace(3) %l) {
  %i = call i32 @llvm.amdgcn.workitem.id.x()
  %a.p = getelementptr i32, ptr addrspace(1) %p, i32 %i
  %a = load i32, ptr addrspace(1) %a.p
  %l.p = getelementptr i32, ptr addrspace(3) %l, i32 %i
  %b = load i32, ptr addrspace(3) %l.p
  store i32 %i, ptr addrspace(1) %q
  call void @llvm.amdgcn.s.barrier()
  %s = add i32 %a, %b
  %q.p = getelementptr i32, ptr addrspace(1) %q, i32 %i
  store i32 %s, ptr addrspace(1) %q.p
  ret void
}
"""


def kernel(target: str, body: str, name: str = "k") -> str:
    accum = " .amdhsa_accum_offset 64\n" if target in ("gfx90a", "gfx942", "gfx950") else ""
    return (f'.amdgcn_target "amdgcn-amd-amdhsa--{target}"\n.text\n.globl {name}\n.type {name},@function\n{name}:\n'
            f"{body}\n s_endpgm\n.rodata\n.amdhsa_kernel {name}\n .amdhsa_user_sgpr_kernarg_segment_ptr 1\n"
            f" .amdhsa_next_free_vgpr 64\n .amdhsa_next_free_sgpr 64\n{accum}.end_amdhsa_kernel\n")


def trap_handler(target: str, body: str) -> str:
    return f'.amdgcn_target "amdgcn-amd-amdhsa--{target}"\n.text\n.globl trap_entry\ntrap_entry:\n{body}\n'


def waits(snippet, text: str):
    return [d for d in snippet.lint(text).diagnostics if d.name == "missing-wait"]


@pytest.mark.parametrize("target", NO_BACK_OFF + BACK_OFF)
def test_llvm_drains_every_counter_before_s_barrier_only_without_back_off(snippet, target):
    assembly = compile_ir(BARRIER_IR, target)
    before = assembly.split("s_barrier", 1)[0].rstrip().splitlines()[-1]
    if target in NO_BACK_OFF:
        assert "vmcnt(0)" in before and "lgkmcnt(0)" in before
    else:
        assert "lgkmcnt" not in before
    assert waits(snippet, assembly) == []


def test_lds_and_scalar_loads_in_flight_at_a_gfx908_barrier(snippet):
    # an LDS read and a scalar load issued before the barrier and waited for after it (no other wave reads
    # what this wave writes): not a race, but a fault while the wave sits in s_barrier hangs the workgroup
    body = (" s_load_dwordx2 s[2:3], s[0:1], 0x0\n v_mov_b32 v1, 0\n ds_read_b32 v2, v1\n"
            " global_load_dword v3, v1, s[0:1]\n s_waitcnt vmcnt(0)\n s_barrier\n s_waitcnt lgkmcnt(0)\n"
            " v_add_u32 v2, v2, v3\n global_store_dword v1, v2, s[2:3]")
    (found,) = waits(snippet, kernel("gfx908", body))
    assert str(found.severity) == "warning" and found.line == 11  # s_barrier: the wait goes just before it
    assert "no back-off barrier" in found.message and "on lgkmcnt" in found.message
    assert "insert `s_waitcnt lgkmcnt(0)`" in found.message
    fixed = body.replace(" s_waitcnt vmcnt(0)\n", " s_waitcnt vmcnt(0) lgkmcnt(0)\n")
    assert waits(snippet, kernel("gfx908", fixed)) == []
    assert waits(snippet, kernel("gfx90a", body)) == []  # the back-off barrier takes the trap


def test_every_counter_named_where_several_are_in_flight(snippet):
    body = (" v_mov_b32 v1, 0\n buffer_store_dword v1, v1, s[0:3], 0 offen\n ds_read_b32 v2, v1\n s_barrier\n"
            " s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)")
    (found,) = waits(snippet, kernel("gfx600", body))
    assert "on expcnt and lgkmcnt and vmcnt" in found.message
    assert "`s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)`" in found.message


def test_lds_written_before_the_barrier_is_said_once_as_the_race(snippet):
    body = " v_mov_b32 v1, 0\n ds_write_b32 v1, v1\n s_barrier\n ds_read_b32 v2, v1 offset:4\n s_waitcnt lgkmcnt(0)"
    (race,) = waits(snippet, kernel("gfx908", body))
    assert str(race.severity) == "error" and race.message.startswith("s_barrier while LDS written by ds_write_b32")


def test_message_answer_read_before_it_arrives(snippet):
    body = (" s_sendmsg_rtn_b32 ttmp3, sendmsg(MSG_RTN_GET_DOORBELL)\n s_and_b32 ttmp3, ttmp3, 0x3ff\n"
            " s_rfe_b64 [ttmp0, ttmp1]")
    (found,) = waits(snippet, trap_handler("gfx1100", body))
    assert found.line == 6 and str(found.severity) == "error"
    assert "ttmp3 is read here but may still be loading (s_sendmsg_rtn_b32" in found.message
    fixed = body.replace(" s_and_b32", " s_waitcnt lgkmcnt(0)\n s_and_b32")
    assert waits(snippet, trap_handler("gfx1100", fixed)) == []
    gfx12 = body.replace(" s_and_b32", " s_wait_kmcnt 0x0\n s_and_b32")
    assert waits(snippet, trap_handler("gfx1200", gfx12)) == []
    (unwaited,) = waits(snippet, trap_handler("gfx1200", body))
    assert "s_wait_kmcnt 0x0" in unwaited.message


def test_message_answer_into_exec_lo(snippet):
    # gfx11: the doorbell asked into EXEC (as gfx9's handlers polled EXEC after s_sendmsg): EXEC is
    # not the answer until the message returns, and every vector instruction reads it
    body = (" s_mov_b32 ttmp2, exec_lo\n s_sendmsg_rtn_b32 exec_lo, sendmsg(MSG_RTN_GET_DOORBELL)\n"
            " s_and_b32 ttmp3, exec_lo, 0x3ff\n s_mov_b32 exec_lo, ttmp2\n s_rfe_b64 [ttmp0, ttmp1]")
    (found,) = waits(snippet, trap_handler("gfx1100", body))
    assert found.line == 7 and "exec_lo is read here" in found.message
    fixed = body.replace(" s_and_b32", " s_waitcnt lgkmcnt(0)\n s_and_b32")
    assert waits(snippet, trap_handler("gfx1100", fixed)) == []


def test_trap_handler_message_in_flight_at_s_rfe_and_s_endpgm(snippet):
    body = (" s_mov_b32 ttmp2, m0\n s_mov_b32 m0, ttmp3\n s_sendmsg sendmsg(MSG_INTERRUPT)\n"
            " s_mov_b32 m0, ttmp2\n s_rfe_b64 [ttmp0, ttmp1]")
    (found,) = waits(snippet, trap_handler("gfx90a", body))
    assert found.line == 9 and str(found.severity) == "warning"
    assert "s_rfe_b64 in trap handler 'trap_entry' while s_sendmsg at" in found.message
    fixed = body.replace(" s_mov_b32 m0, ttmp2", " s_waitcnt lgkmcnt(0)\n s_mov_b32 m0, ttmp2")
    assert waits(snippet, trap_handler("gfx90a", fixed)) == []
    # a handler that ends the wave after reporting: the message must leave first there too
    ends = body.replace(" s_rfe_b64 [ttmp0, ttmp1]", " s_cbranch_scc0 .Lresume\n s_endpgm\n.Lresume:\n"
                        " s_waitcnt lgkmcnt(0)\n s_rfe_b64 [ttmp0, ttmp1]")
    (at_end,) = waits(snippet, trap_handler("gfx90a", ends))
    assert at_end.line == 10 and at_end.message.startswith("s_endpgm in trap handler")
    # a kernel ends with its messages in flight as LLVM leaves them (MSG_DEALLOC_VGPRS before s_endpgm)
    assert waits(snippet, kernel("gfx1100", " s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)")) == []


def test_trap_handler_returns_with_a_load_in_flight(snippet):
    body = " s_load_dwordx2 [ttmp2, ttmp3], [ttmp14, ttmp15], 0x0 glc\n s_rfe_b64 [ttmp0, ttmp1]"
    (found,) = waits(snippet, trap_handler("gfx906", body))
    assert found.line == 6 and str(found.severity) == "error"
    assert "s_rfe returns from trap handler 'trap_entry' while s_load_dwordx2" in found.message
    fixed = body.replace(" s_rfe_b64", " s_waitcnt lgkmcnt(0)\n s_rfe_b64")
    assert waits(snippet, trap_handler("gfx906", fixed)) == []
