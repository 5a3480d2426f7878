// REQUIRES: lowering
// gpu.memset async with one dependency: 32-bit elements go to mgpuMemset32(ptr, value, count,
// stream), 16-bit ones to mgpuMemset16; a float value is passed as its bits.

// RUN: %mlir_opt %s --gpu-to-llvm | FileCheck %s
// RUN: %gpuinterp --lower %s | FileCheck %s
// RUN: %gpuinterp --lower %s | %mlir_opt > /dev/null

module attributes {gpu.container_module} {
  // CHECK-LABEL: @fill
  func.func @fill(%wide: memref<9xf32, 1>, %narrow: memref<2x8xi16>, %f: f32, %h: i16) {
    // CHECK: %[[S:.*]] = llvm.call @mgpuStreamCreate()
    // CHECK: llvm.call @mgpuMemset32(%{{.*}}, %{{.*}}, %{{.*}}, %[[S]]) : (!llvm.ptr, i32, i64, !llvm.ptr) -> ()
    // CHECK: llvm.call @mgpuMemset16(%{{.*}}, %{{.*}}, %{{.*}}, %[[S]]) : (!llvm.ptr, i16, i64, !llvm.ptr) -> ()
    // CHECK: llvm.call @mgpuStreamSynchronize(%[[S]])
    // CHECK: llvm.call @mgpuStreamDestroy(%[[S]])
    %s = gpu.wait async
    %a = gpu.memset async [%s] %wide, %f : memref<9xf32, 1>, f32
    %b = gpu.memset async [%a] %narrow, %h : memref<2x8xi16>, i16
    gpu.wait [%b]
    return
  }
}
