"""Generated LLVM IR kernels that stress one occupancy resource each."""

from __future__ import annotations


def pressure_kernel(name: str, live: int = 8, scalars: int = 2, lds_bytes: int = 0, wg: int | None = None,
                    waves_per_eu: str | None = None, mfma: str | None = None, wmma: bool = False,
                    clobber: str | None = None) -> str:
    """A kernel that keeps `live` loaded floats alive at once, reads `scalars` i32 arguments,
    touches `lds_bytes` of LDS, optionally runs an MFMA or WMMA accumulation, and optionally
    clobbers a register (`s95`, `v200`, `a31`) in inline asm so LLVM counts it as used."""
    args = ["ptr addrspace(1) %p"] + [f"i32 %s{i}" for i in range(scalars)]
    body = ["  %tid = call i32 @llvm.amdgcn.workitem.id.x()"]
    if clobber:
        body.append(f'  call void asm sideeffect "; clobber {clobber}", "~{{{clobber}}}"()')
    for i in range(live):
        body.append(f"  %a{i} = getelementptr float, ptr addrspace(1) %p, i32 {i * 1024}")
        body.append(f"  %pa{i} = getelementptr float, ptr addrspace(1) %a{i}, i32 %tid")
        body.append(f"  %v{i} = load volatile float, ptr addrspace(1) %pa{i}")
    body.append("  %sf = sitofp i32 %s0 to float" if scalars else "  %sf = fadd float 0.0, 0.0")
    for i in range(live):
        body.append(f"  %r{i} = fmul float %v{i}, %v{live - 1 - i}")
        body.append(f"  %q{i} = fadd float %r{i}, %sf")
        body.append(f"  store volatile float %q{i}, ptr addrspace(1) %pa{i}")
    for i in range(scalars):  # every scalar argument is still needed here: all stay live in SGPRs
        body.append(f"  %ps{i} = getelementptr i32, ptr addrspace(1) %p, i32 {i}")
        body.append(f"  store volatile i32 %s{i}, ptr addrspace(1) %ps{i}")
    globals_ = []
    if lds_bytes:
        count = lds_bytes // 4
        globals_.append(f"@lds = internal addrspace(3) global [{count} x float] poison, align 16")
        body.append(f"  %slot = getelementptr [{count} x float], ptr addrspace(3) @lds, i32 0, i32 %tid")
        body.append("  store float %q0, ptr addrspace(3) %slot")
        body.append('  fence syncscope("workgroup") release')  # __syncthreads(): fence, barrier, fence
        body.append("  call void @llvm.amdgcn.s.barrier()")
        body.append('  fence syncscope("workgroup") acquire')
        body.append(f"  %other = getelementptr [{count} x float], ptr addrspace(3) @lds, i32 0, i32 {count - 1}")
        body.append("  %lv = load float, ptr addrspace(3) %other")
        body.append("  store volatile float %lv, ptr addrspace(1) %p")
    declarations = ["declare i32 @llvm.amdgcn.workitem.id.x()", "declare void @llvm.amdgcn.s.barrier()"]
    if mfma:
        width = {"32x32x8f16": 16, "16x16x16f16": 4}[mfma]
        body.append("  %ha = insertelement <4 x half> poison, half 1.0, i32 0")
        body.append(f"  %acc = call <{width} x float> @llvm.amdgcn.mfma.f32.{mfma}(<4 x half> %ha, <4 x half> %ha, "
                    f"<{width} x float> zeroinitializer, i32 0, i32 0, i32 0)")
        body.append(f"  store volatile <{width} x float> %acc, ptr addrspace(1) %p")
        declarations.append(f"declare <{width} x float> @llvm.amdgcn.mfma.f32.{mfma}(<4 x half>, <4 x half>, <{width} x float>, i32, i32, i32)")
    if wmma:
        body.append("  %wa = insertelement <16 x half> poison, half 1.0, i32 0")
        body.append("  %wr = call <8 x float> @llvm.amdgcn.wmma.f32.16x16x16.f16.v8f32.v16f16(<16 x half> %wa, <16 x half> %wa, <8 x float> zeroinitializer)")
        body.append("  store volatile <8 x float> %wr, ptr addrspace(1) %p")
        declarations.append("declare <8 x float> @llvm.amdgcn.wmma.f32.16x16x16.f16.v8f32.v16f16(<16 x half>, <16 x half>, <8 x float>)")
    attributes = []
    if wg:
        attributes.append(f'"amdgpu-flat-work-group-size"="{wg},{wg}"')
    if waves_per_eu:
        attributes.append(f'"amdgpu-waves-per-eu"="{waves_per_eu}"')
    attribute_ref = " #0" if attributes else ""
    lines = ['target triple = "amdgcn-amd-amdhsa"', *globals_,
             f"define amdgpu_kernel void @{name}({', '.join(args)}){attribute_ref} {{", *body, "  ret void", "}",
             *declarations]
    if attributes:
        lines.append(f"attributes #0 = {{ {' '.join(attributes)} }}")
    return "\n".join(lines) + "\n"
