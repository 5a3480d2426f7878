// REQUIRES: lowering
// gpu.set_default_device: one mgpuSetDefaultDevice(i32) call, no stream.

// RUN: %mlir_opt %s --gpu-to-llvm | FileCheck %s
// RUN: %gpuinterp --lower %s | FileCheck %s
// RUN: %gpuinterp --lower %s | %mlir_opt > /dev/null

module attributes {gpu.container_module} {
  // CHECK-LABEL: @pick
  // CHECK-SAME: (%[[DEV:[^:]*]]: i32
  // CHECK-NOT: llvm.call @mgpuStreamCreate
  // CHECK: llvm.call @mgpuSetDefaultDevice(%[[DEV]]) : (i32) -> ()
  // CHECK-NOT: llvm.call @mgpu
  // CHECK: return
  func.func @pick(%ordinal: i32) {
    gpu.set_default_device %ordinal
    return
  }
}
