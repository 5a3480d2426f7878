// REQUIRES: lowering
// Host code in modules nested in the file's one: each module gets the declarations of the
// runtime functions its own code calls (a call's symbol is looked up in its nearest module), as
// mlir-opt's gpu-to-llvm places them.

// RUN: %mlir_opt %s --gpu-to-llvm | FileCheck %s
// RUN: %gpuinterp --lower %s | FileCheck %s
// RUN: %gpuinterp --lower %s | %mlir_opt > /dev/null
// RUN: %gpuinterp --lower %s | %gpuinterp --emit=mlir - > /dev/null

// CHECK: module @first
// CHECK: llvm.call @mgpuStreamCreate
// CHECK: llvm.call @mgpuMemAlloc
// CHECK: llvm.func @mgpuStreamCreate
// CHECK: llvm.func @mgpuMemAlloc
// CHECK: module @second
// CHECK-NOT: llvm.func @mgpuMemAlloc
// CHECK: llvm.call @mgpuMemFree
// CHECK: llvm.func @mgpuStreamCreate
// CHECK: llvm.func @mgpuMemFree

module @first attributes {gpu.container_module} {
  func.func @a() {
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<4xi32>
    gpu.wait [%t1]
    return
  }
}
module @second attributes {gpu.container_module} {
  func.func @b(%d: memref<4xi32>) {
    %t0 = gpu.wait async
    %t1 = gpu.dealloc async [%t0] %d : memref<4xi32>
    gpu.wait [%t1]
    return
  }
}
