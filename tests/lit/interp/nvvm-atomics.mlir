// Atomics in both kernel forms: memref.atomic_rmw becomes llvm.atomicrmw (add, max, min, _or,
// fadd, fmaximum) once lowered; 4 blocks of 40 threads update the same elements and both forms
// end with the same values.
// RUN: %gpuinterp %s | FileCheck %s
// RUN: %mlir_opt %s --pass-pipeline='builtin.module(gpu.module(convert-gpu-to-nvvm))' -o %t.mlir
// RUN: FileCheck --check-prefix=LOWERED %s < %t.mlir
// RUN: %gpuinterp %t.mlir | FileCheck %s
// RUN: %gpuinterp --sched=random:3 %t.mlir | FileCheck %s
// LOWERED: llvm.atomicrmw add
// LOWERED: llvm.atomicrmw fmaximum
// CHECK: [160,  39,  0,  63]
// CHECK: [3120,  39]
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @a(%i: memref<4xi32>, %f: memref<2xf32>) kernel {
      %tx = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %t = arith.index_cast %tx : index to i32
      %tf = arith.sitofp %t : i32 to f32
      %one = arith.constant 1 : i32
      %a = memref.atomic_rmw addi %one, %i[%c0] : (i32, memref<4xi32>) -> i32
      %b = memref.atomic_rmw maxs %t, %i[%c1] : (i32, memref<4xi32>) -> i32
      %c = memref.atomic_rmw mins %t, %i[%c2] : (i32, memref<4xi32>) -> i32
      %d = memref.atomic_rmw ori %t, %i[%c3] : (i32, memref<4xi32>) -> i32
      %e = memref.atomic_rmw addf %tf, %f[%c0] : (f32, memref<2xf32>) -> f32
      %g = memref.atomic_rmw maximumf %tf, %f[%c1] : (f32, memref<2xf32>) -> f32
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c40 = arith.constant 40 : index
    %z = arith.constant 0 : i32
    %zf = arith.constant 0.0 : f32
    %i = gpu.alloc host_shared () : memref<4xi32>
    %f = gpu.alloc host_shared () : memref<2xf32>
    gpu.memset %i, %z : memref<4xi32>, i32
    gpu.memset %f, %zf : memref<2xf32>, f32
    gpu.launch_func @k::@a blocks in (%c4, %c1, %c1) threads in (%c40, %c1, %c1) args(%i : memref<4xi32>, %f : memref<2xf32>)
    %u = memref.cast %i : memref<4xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    %v = memref.cast %f : memref<2xf32> to memref<*xf32>
    call @printMemrefF32(%v) : (memref<*xf32>) -> ()
    gpu.dealloc %i : memref<4xi32>
    gpu.dealloc %f : memref<2xf32>
    return
  }
  func.func private @printMemrefI32(%ptr : memref<*xi32>)
  func.func private @printMemrefF32(%ptr : memref<*xf32>)
}
