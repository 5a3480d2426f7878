// cvt.sat.f32.f32, cvt.ftz.f32.f32 and cvt.ftz.sat.f32.f32 (Inputs/exec/cvt-sat.ptx; what
// mlir-opt's NVVM lowering emits for a clamp to [0, 1]) run on the kernel engine, as the PTX ISA
// defines them: per input -0.5, 0.25, 1.5, NaN, the subnormal 1e-40 and +inf, the bits of .sat,
// .ftz and .ftz.sat (.sat: -0.5 and NaN to +0, 1.5 and +inf to 1; .ftz: 1e-40 to +0, NaN to the canonical NaN).

// RUN: python3 %S/Inputs/exec/embed.py %S/Inputs/exec/cvt-sat.ptx %s > %t.mlir
// RUN: %gpuinterp %t.mlir | FileCheck %s

// CHECK: [0,  -1090519040,  0,  1048576000,  1048576000,  1048576000,  1065353216,  1069547520,  1065353216,  0,  2147483647,  0,  71362,  0,  0,  1065353216,  2139095040,  1065353216]

module attributes {gpu.container_module} {
  gpu.binary @cvt [#gpu.object<#nvvm.target<chip = "sm_70">, assembly = "@PTX@">]
  func.func private @printMemrefI32(memref<*xi32>)

  func.func @main() {
    %c1 = arith.constant 1 : index
    %out = gpu.alloc () : memref<18xi32>
    %i = memref.extract_aligned_pointer_as_index %out : memref<18xi32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    gpu.launch_func @cvt::@cvts blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%p : !llvm.ptr)
    %host = memref.alloc () : memref<18xi32>
    gpu.memcpy %host, %out : memref<18xi32>, memref<18xi32>
    %u = memref.cast %host : memref<18xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    gpu.dealloc %out : memref<18xi32>
    memref.dealloc %host : memref<18xi32>
    return
  }
}
