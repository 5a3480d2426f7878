// REQUIRES: lowering
// gpu.wait async makes a stream that waits for an event recorded on each dependency's stream;
// gpu.wait (no async) synchronizes the host with every dependency and destroys its stream.

// RUN: %mlir_opt %s --gpu-to-llvm | FileCheck %s --check-prefixes=CHECK,MLIR22
// RUN: %gpuinterp --lower %s | FileCheck %s --check-prefixes=CHECK,OURS
// RUN: %gpuinterp --lower %s | %mlir_opt > /dev/null

module attributes {gpu.container_module} {
  // CHECK-LABEL: @chain
  func.func @chain() {
    // CHECK: %[[A:.*]] = llvm.call @mgpuStreamCreate()
    // CHECK: %[[E:.*]] = llvm.call @mgpuEventCreate()
    // CHECK: llvm.call @mgpuEventRecord(%[[E]], %[[A]])
    // CHECK: %[[B:.*]] = llvm.call @mgpuStreamCreate()
    // CHECK: llvm.call @mgpuStreamWaitEvent(%[[B]], %[[E]])
    // CHECK: llvm.call @mgpuEventDestroy(%[[E]])
    // CHECK: llvm.call @mgpuStreamSynchronize(%[[A]])
    // CHECK: llvm.call @mgpuStreamDestroy(%[[A]])
    // CHECK: llvm.call @mgpuStreamSynchronize(%[[B]])
    // CHECK: llvm.call @mgpuStreamDestroy(%[[B]])
    // CHECK-NOT: llvm.call @mgpu
    // CHECK: return
    %first = gpu.wait async
    %second = gpu.wait async [%first]
    gpu.wait [%first, %second]
    return
  }

  // A join of two independent streams: one event per dependency, both waited by the new stream.
  // CHECK-LABEL: @join
  func.func @join() {
    // MLIR 22 records each event right after its stream is made; ours where the join is lowered.
    // MLIR22: %[[P:.*]] = llvm.call @mgpuStreamCreate()
    // MLIR22: %[[EP:.*]] = llvm.call @mgpuEventCreate()
    // MLIR22: llvm.call @mgpuEventRecord(%[[EP]], %[[P]])
    // MLIR22: %[[Q:.*]] = llvm.call @mgpuStreamCreate()
    // MLIR22: %[[EQ:.*]] = llvm.call @mgpuEventCreate()
    // MLIR22: llvm.call @mgpuEventRecord(%[[EQ]], %[[Q]])
    // OURS: %[[P:.*]] = llvm.call @mgpuStreamCreate()
    // OURS: %[[Q:.*]] = llvm.call @mgpuStreamCreate()
    // OURS: %[[EP:.*]] = llvm.call @mgpuEventCreate()
    // OURS: llvm.call @mgpuEventRecord(%[[EP]], %[[P]])
    // OURS: %[[EQ:.*]] = llvm.call @mgpuEventCreate()
    // OURS: llvm.call @mgpuEventRecord(%[[EQ]], %[[Q]])
    // CHECK: %[[R:.*]] = llvm.call @mgpuStreamCreate()
    // CHECK: llvm.call @mgpuStreamWaitEvent(%[[R]], %[[EP]])
    // CHECK: llvm.call @mgpuStreamWaitEvent(%[[R]], %[[EQ]])
    // CHECK: llvm.call @mgpuEventDestroy(%[[EP]])
    // CHECK: llvm.call @mgpuEventDestroy(%[[EQ]])
    // CHECK: llvm.call @mgpuStreamSynchronize(%[[R]])
    // CHECK: llvm.call @mgpuStreamDestroy(%[[R]])
    %p = gpu.wait async
    %q = gpu.wait async
    %r = gpu.wait async [%p, %q]
    gpu.wait [%r]
    return
  }
}
