// A vector add as a gpu.func kernel and as upstream's convert-gpu-to-nvvm lowers it (an llvm.func
// kernel whose memref arguments are expanded into descriptor words, nvvm special registers,
// getelementptr, llvm.load and llvm.store): both forms print the same sums.
// RUN: %gpuinterp %s | FileCheck %s
// RUN: %mlir_opt %s --pass-pipeline='builtin.module(gpu.module(convert-gpu-to-nvvm))' -o %t.mlir
// RUN: FileCheck --check-prefix=LOWERED %s < %t.mlir
// RUN: %gpuinterp %t.mlir | FileCheck %s
// RUN: %gpuinterp --sched=serial %t.mlir | FileCheck %s
// LOWERED: llvm.func @vadd({{.*}}) attributes {gpu.kernel, nvvm.kernel}
// LOWERED: nvvm.read.ptx.sreg.tid.x
// CHECK: [0,  2,  6,  12,  20,  30,  42,  56,  72,  90,  110,  132,  156,  182,  210,  240,  272,  306,  342,  380,  420,  462,  506,  552,  600,  650,  702,  756,  812,  870,  930,  992]
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @vadd(%a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>) kernel {
      %bx = gpu.block_id x
      %bd = gpu.block_dim x
      %tx = gpu.thread_id x
      %i0 = arith.muli %bx, %bd : index
      %i = arith.addi %i0, %tx : index
      %x = memref.load %a[%i] : memref<?xf32>
      %y = memref.load %b[%i] : memref<?xf32>
      %z = arith.addf %x, %y : f32
      memref.store %z, %c[%i] : memref<?xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %a = gpu.alloc host_shared (%c32) : memref<?xf32>
    %b = gpu.alloc host_shared (%c32) : memref<?xf32>
    %c = gpu.alloc host_shared (%c32) : memref<?xf32>
    scf.for %i = %c0 to %c32 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      %g = arith.mulf %f, %f : f32
      memref.store %f, %a[%i] : memref<?xf32>
      memref.store %g, %b[%i] : memref<?xf32>
    }
    %t = gpu.wait async
    %k = gpu.launch_func async [%t] @k::@vadd blocks in (%c4, %c1, %c1) threads in (%c8, %c1, %c1) args(%a : memref<?xf32>, %b : memref<?xf32>, %c : memref<?xf32>)
    gpu.wait [%k]
    %u = memref.cast %c : memref<?xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    gpu.dealloc %a : memref<?xf32>
    gpu.dealloc %b : memref<?xf32>
    gpu.dealloc %c : memref<?xf32>
    return
  }
  func.func private @printMemrefF32(%ptr : memref<*xf32>)
}
