// fp8 conversions of hand-written PTX (Inputs/exec/fp8.ptx) on the kernel engine: f32 pairs and
// f16x2 to .e4m3x2 and .e5m2x2 (.rn.satfinite, with and without .relu) and both back to f16x2,
// on random values of every binade the formats reach, ties, NaNs, infinities, zeros and values
// past the largest, and every fp8 byte. Every word is compared, bit for bit, with what the CPU
// reference Inputs/exec/fp8-ref.c computes (each rounding found by a search of every fp8 value),
// built and run by the test. Thread t makes fa (f32: a random significand, exponents 2^-16 ..
// 2^15, a random sign; threads 0..7 NaN, infinities, zeros, the largest values and past them),
// fb = (t - 128) / 8 (ties of both formats), h (two random halves: NaNs, infinities, subnormals)
// and b (two bytes, the low one t: every fp8 value), and stores eight words:
//   [0] cvt.rn.satfinite.e4m3x2.f32 (fa, fb)     [1] cvt.rn.satfinite.e5m2x2.f32 (fa, fb)
//   [2] cvt.rn.satfinite.relu.e4m3x2.f32 (fa, fb) [3] cvt.rn.satfinite.e4m3x2.f16x2 h
//   [4] cvt.rn.satfinite.relu.e5m2x2.f16x2 h      [5] cvt.rn.f16x2.e4m3x2 b
//   [6] cvt.rn.f16x2.e5m2x2 b                     [7] cvt.rn.relu.f16x2.e4m3x2 b

// RUN: python3 %S/Inputs/exec/embed.py %S/Inputs/exec/fp8.ptx %s > %t.mlir
// RUN: cc -std=gnu11 -O1 -o %t.ref %S/Inputs/exec/fp8-ref.c -lm
// RUN: %t.ref > %t.want
// RUN: %gpuinterp %t.mlir > %t.out
// RUN: grep '^\[' %t.out | diff %t.want -
// RUN: %mlir_opt --gpu-to-llvm --reconcile-unrealized-casts %t.mlir | %gpuinterp - | grep '^\[' | diff %t.want -

module attributes {gpu.container_module} {
  gpu.binary @fp8 [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "@PTX@">]
  func.func private @printMemrefI32(memref<*xi32>)

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %out = gpu.alloc () : memref<2048xi32>
    %i = memref.extract_aligned_pointer_as_index %out : memref<2048xi32> -> index
    %w = arith.index_cast %i : index to i64
    %p = llvm.inttoptr %w : i64 to !llvm.ptr
    gpu.launch_func @fp8::@fp8 blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%p : !llvm.ptr)
    %host = memref.alloc () : memref<2048xi32>
    gpu.memcpy %host, %out : memref<2048xi32>, memref<2048xi32>
    %u = memref.cast %host : memref<2048xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    gpu.dealloc %out : memref<2048xi32>
    memref.dealloc %host : memref<2048xi32>
    return
  }
}
