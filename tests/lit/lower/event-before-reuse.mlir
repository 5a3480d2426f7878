// REQUIRES: lowering
// The event for a dependency must be recorded on the dependency's stream before any later work
// enqueued on that stream: a gpu.wait async [%t] orders only after what %t stands for. In
// @reuse_after, the dependent op comes after a later memset that also depends on %t1. MLIR 22
// puts that memset on %t1's stream and so must record the event right after %t1's defining op.
// Ours records where the dependent op is lowered, which is right because a stream is only taken
// over by the *last* use of its token: the later memset gets a stream of its own, and %t1's
// stream still holds only %t1's work when %w records on it. Either way %w does not wait for the
// second memset. In @reuse_before both placements give one order.

// RUN: %mlir_opt %s --gpu-to-llvm | FileCheck %s --check-prefixes=CHECK,MLIR22
// RUN: %gpuinterp --lower %s | FileCheck %s --check-prefixes=CHECK,OURS
// RUN: %gpuinterp --lower %s | %mlir_opt > /dev/null

module attributes {gpu.container_module} {
  // CHECK-LABEL: @reuse_before
  // CHECK: %[[A:.*]] = llvm.call @mgpuStreamCreate()
  // CHECK: llvm.call @mgpuMemset32(%{{.*}}, %{{.*}}, %{{.*}}, %[[A]])
  // CHECK: %[[E:.*]] = llvm.call @mgpuEventCreate()
  // CHECK: llvm.call @mgpuEventRecord(%[[E]], %[[A]])
  // CHECK: %[[B:.*]] = llvm.call @mgpuStreamCreate()
  // CHECK: llvm.call @mgpuStreamWaitEvent(%[[B]], %[[E]])
  // CHECK: llvm.call @mgpuMemset32(%{{.*}}, %{{.*}}, %{{.*}}, %[[A]])
  // CHECK: llvm.call @mgpuMemset32(%{{.*}}, %{{.*}}, %{{.*}}, %[[B]])
  func.func @reuse_before(%x: memref<8xi32>, %y: memref<8xi32>, %z: memref<8xi32>, %v: i32) {
    %s = gpu.wait async
    %t1 = gpu.memset async [%s] %x, %v : memref<8xi32>, i32
    %w = gpu.wait async [%t1]
    %t2 = gpu.memset async [%t1] %y, %v : memref<8xi32>, i32
    %t3 = gpu.memset async [%w] %z, %v : memref<8xi32>, i32
    gpu.wait [%t2, %t3]
    return
  }

  // CHECK-LABEL: @reuse_after
  // CHECK: %[[A:.*]] = llvm.call @mgpuStreamCreate()
  // CHECK: llvm.call @mgpuMemset32(%{{.*}}, %{{.*}}, %{{.*}}, %[[A]])
  // MLIR22: %[[E:.*]] = llvm.call @mgpuEventCreate()
  // MLIR22: llvm.call @mgpuEventRecord(%[[E]], %[[A]])
  // MLIR22: llvm.call @mgpuMemset32(%{{.*}}, %{{.*}}, %{{.*}}, %[[A]])
  // MLIR22: %[[B:.*]] = llvm.call @mgpuStreamCreate()
  // MLIR22: llvm.call @mgpuStreamWaitEvent(%[[B]], %[[E]])
  // MLIR22: llvm.call @mgpuMemset32(%{{.*}}, %{{.*}}, %{{.*}}, %[[B]])
  // OURS: %[[E1:.*]] = llvm.call @mgpuEventCreate()
  // OURS-NEXT: llvm.call @mgpuEventRecord(%[[E1]], %[[A]])
  // OURS-NEXT: %[[Y:.*]] = llvm.call @mgpuStreamCreate()
  // OURS: llvm.call @mgpuMemset32(%{{.*}}, %{{.*}}, %{{.*}}, %[[Y]])
  // OURS-NEXT: %[[E2:.*]] = llvm.call @mgpuEventCreate()
  // OURS-NEXT: llvm.call @mgpuEventRecord(%[[E2]], %[[A]])
  // OURS-NEXT: %[[W:.*]] = llvm.call @mgpuStreamCreate()
  // OURS-NEXT: llvm.call @mgpuStreamWaitEvent(%[[W]], %[[E2]])
  // OURS: llvm.call @mgpuStreamDestroy(%[[A]])
  // OURS: llvm.call @mgpuMemset32(%{{.*}}, %{{.*}}, %{{.*}}, %[[W]])
  func.func @reuse_after(%x: memref<8xi32>, %y: memref<8xi32>, %z: memref<8xi32>, %v: i32) {
    %s = gpu.wait async
    %t1 = gpu.memset async [%s] %x, %v : memref<8xi32>, i32
    %t2 = gpu.memset async [%t1] %y, %v : memref<8xi32>, i32
    %w = gpu.wait async [%t1]
    %t3 = gpu.memset async [%w] %z, %v : memref<8xi32>, i32
    gpu.wait [%t2, %t3]
    return
  }
}
