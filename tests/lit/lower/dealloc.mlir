// REQUIRES: lowering
// gpu.dealloc async with one dependency: mgpuMemFree(allocated pointer, stream) on the
// dependency's stream, for a buffer that comes in as an argument, after work on the same stream.

// RUN: %mlir_opt %s --gpu-to-llvm | FileCheck %s
// RUN: %gpuinterp --lower %s | FileCheck %s
// RUN: %gpuinterp --lower %s | %mlir_opt > /dev/null

module attributes {gpu.container_module} {
  // CHECK-LABEL: @release
  func.func @release(%dev: memref<5x?xf32>, %v: f32) {
    // CHECK: %[[S:.*]] = llvm.call @mgpuStreamCreate()
    // CHECK: llvm.call @mgpuMemset32(%{{.*}}, %{{.*}}, %{{.*}}, %[[S]])
    // CHECK: llvm.call @mgpuMemFree(%{{.*}}, %[[S]]) : (!llvm.ptr, !llvm.ptr) -> ()
    // CHECK: llvm.call @mgpuStreamSynchronize(%[[S]])
    // CHECK: llvm.call @mgpuStreamDestroy(%[[S]])
    %s = gpu.wait async
    %a = gpu.memset async [%s] %dev, %v : memref<5x?xf32>, f32
    %b = gpu.dealloc async [%a] %dev : memref<5x?xf32>
    gpu.wait [%b]
    return
  }
}
