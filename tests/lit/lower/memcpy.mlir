// REQUIRES: lowering
// gpu.memcpy async with one dependency: mgpuMemcpy(dst, src, bytes, stream) on the dependency's
// stream, whose token the copy's result stands for. The destination lives in memory space 1, so
// its aligned pointer is cast to the generic address space first.

// RUN: %mlir_opt %s --gpu-to-llvm | FileCheck %s
// RUN: %gpuinterp --lower %s | FileCheck %s
// RUN: %gpuinterp --lower %s | %mlir_opt > /dev/null

module attributes {gpu.container_module} {
  // CHECK-LABEL: @copy_in
  func.func @copy_in(%dev: memref<12xi32, 1>, %host: memref<12xi32>) {
    // CHECK: %[[S:.*]] = llvm.call @mgpuStreamCreate()
    // CHECK: llvm.addrspacecast
    // CHECK: llvm.call @mgpuMemcpy(%{{.*}}, %{{.*}}, %{{.*}}, %[[S]])
    // CHECK-NOT: llvm.call @mgpu
    // CHECK: llvm.call @mgpuStreamSynchronize(%[[S]])
    // CHECK: llvm.call @mgpuStreamDestroy(%[[S]])
    %s = gpu.wait async
    %c = gpu.memcpy async [%s] %dev, %host : memref<12xi32, 1>, memref<12xi32>
    gpu.wait [%c]
    return
  }

  // Two copies in a row stay on one stream: the second takes the first's token.
  // CHECK-LABEL: @round_trip
  func.func @round_trip(%dev: memref<3x4xf64>, %host: memref<3x4xf64>) {
    // CHECK: %[[S:.*]] = llvm.call @mgpuStreamCreate()
    // CHECK: llvm.call @mgpuMemcpy(%{{.*}}, %{{.*}}, %{{.*}}, %[[S]])
    // CHECK: llvm.call @mgpuMemcpy(%{{.*}}, %{{.*}}, %{{.*}}, %[[S]])
    // CHECK-NOT: llvm.call @mgpuStreamCreate
    // CHECK: llvm.call @mgpuStreamSynchronize(%[[S]])
    // CHECK: llvm.call @mgpuStreamDestroy(%[[S]])
    %s = gpu.wait async
    %up = gpu.memcpy async [%s] %dev, %host : memref<3x4xf64>, memref<3x4xf64>
    %down = gpu.memcpy async [%up] %host, %dev : memref<3x4xf64>, memref<3x4xf64>
    gpu.wait [%down]
    return
  }
}
