// REQUIRES: lowering
// A stream whose token is consumed only by gpu.wait async: MLIR 22 records the event and makes
// the new stream wait, but destroys only the streams a blocking gpu.wait names, so the first
// stream leaks. Ours destroys a stream once its token is dead (after the last call that uses it).

// RUN: %mlir_opt %s --gpu-to-llvm | FileCheck --check-prefixes=CHECK,MLIR22 %s
// RUN: %gpuinterp --lower %s | FileCheck --check-prefixes=CHECK,OURS %s
// RUN: %gpuinterp --lower %s | %mlir_opt > /dev/null
// RUN: %mlir_opt %s --gpu-to-llvm | %gpuinterp - 2>&1 | FileCheck --check-prefix=OUT22 %s

// OUT22: warning: 'llvm.call' @mgpuStreamCreate: stream created here was never destroyed [leak]

module attributes {gpu.container_module} {
  // CHECK-LABEL: @main
  // CHECK: %[[A:.*]] = llvm.call @mgpuStreamCreate()
  // CHECK: %[[E:.*]] = llvm.call @mgpuEventCreate()
  // CHECK: llvm.call @mgpuEventRecord(%[[E]], %[[A]])
  // OURS: llvm.call @mgpuStreamDestroy(%[[A]])
  // MLIR22-NOT: llvm.call @mgpuStreamDestroy(%[[A]])
  // MLIR22: llvm.return
  func.func @main() {
    %a = gpu.wait async
    %b = gpu.wait async [%a]
    gpu.wait [%b]
    return
  }

  // The join in wait.mlir: both joined streams leak in 22.
  // CHECK-LABEL: @join
  // CHECK: %[[P:.*]] = llvm.call @mgpuStreamCreate()
  // CHECK: %[[Q:.*]] = llvm.call @mgpuStreamCreate()
  // OURS-DAG: llvm.call @mgpuStreamDestroy(%[[P]])
  // OURS-DAG: llvm.call @mgpuStreamDestroy(%[[Q]])
  // MLIR22-NOT: llvm.call @mgpuStreamDestroy(%[[P]])
  // MLIR22-NOT: llvm.call @mgpuStreamDestroy(%[[Q]])
  // MLIR22: llvm.return
  func.func @join() {
    %p = gpu.wait async
    %q = gpu.wait async
    %r = gpu.wait async [%p, %q]
    gpu.wait [%r]
    return
  }
}
