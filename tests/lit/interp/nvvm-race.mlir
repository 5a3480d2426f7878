// The accesses of a kernel lowered to llvm + nvvm feed race detection like a gpu.func kernel's:
// two launches on one buffer that only share an ancestor race, in both forms; the lowered form's
// locations are those of the file mlir-opt printed.
// RUN: not %gpuinterp %s 2>&1 | FileCheck %s
// RUN: %mlir_opt %s --pass-pipeline='builtin.module(gpu.module(convert-gpu-to-nvvm))' -o %t.mlir
// RUN: not %gpuinterp %t.mlir 2>&1 | FileCheck %s
// RUN: not %gpuinterp --sched=serial %t.mlir 2>&1 | FileCheck %s
// CHECK: error: data race (write-write): '{{[^']*}}'{{[^(]*}} ({{[0-9]+:[0-9]+}}) writes and '{{[^']*}}'{{[^(]*}} ({{[0-9]+:[0-9]+}}) writes bytes [0, 128) of the device memory allocated by '{{[^']*}}'{{[^(]*}} ({{[0-9]+:[0-9]+}}); nothing orders the two [race]
// CHECK-NOT: error:
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @fill(%m: memref<32xi32>, %v: i32) kernel {
      %tx = gpu.thread_id x
      memref.store %v, %m[%tx] : memref<32xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %one = arith.constant 1 : i32
    %two = arith.constant 2 : i32
    %m = gpu.alloc () : memref<32xi32>
    %t0 = gpu.wait async
    %a = gpu.launch_func async [%t0] @k::@fill blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%m : memref<32xi32>, %one : i32)
    %b = gpu.launch_func async [%t0] @k::@fill blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%m : memref<32xi32>, %two : i32)
    gpu.wait [%a, %b]
    gpu.dealloc %m : memref<32xi32>
    return
  }
}
