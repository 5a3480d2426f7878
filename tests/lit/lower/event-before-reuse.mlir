// REQUIRES: lowering
// The event for a dependency must be recorded on the dependency's stream before any later work
// enqueued on that stream: a gpu.wait async [%t] orders only after what %t stands for. In
// @reuse_after, the dependent op comes after the later memset on the same stream. MLIR 22 records
// the event right after %t's defining op, and ours must too: an event recorded where the dependent
// op is lowered would sit after the second memset and order %w after it as well (an ordering the
// program does not have: concurrency lost). In @reuse_before both placements give one order.

// RUN: %mlir_opt %s --gpu-to-llvm | FileCheck %s
// RUN: %gpuinterp --lower %s | FileCheck %s
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
  // CHECK: %[[E:.*]] = llvm.call @mgpuEventCreate()
  // CHECK: llvm.call @mgpuEventRecord(%[[E]], %[[A]])
  // CHECK: llvm.call @mgpuMemset32(%{{.*}}, %{{.*}}, %{{.*}}, %[[A]])
  // CHECK: %[[B:.*]] = llvm.call @mgpuStreamCreate()
  // CHECK: llvm.call @mgpuStreamWaitEvent(%[[B]], %[[E]])
  // CHECK: llvm.call @mgpuMemset32(%{{.*}}, %{{.*}}, %{{.*}}, %[[B]])
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
