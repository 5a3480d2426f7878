// REQUIRES: lowering
// gpu.host_register / gpu.host_unregister of an unranked memref: the (rank, descriptor pointer)
// pair goes to mgpuMemHostRegisterMemRef / mgpuMemHostUnregisterMemRef with the element size in
// bytes. MLIR 22 accepts only unranked memrefs here. With use-bare-pointers-for-host=1, 22 builds
// the call with the unranked descriptor as one struct operand and fails to verify ("incorrect
// number of operands (2) for callee (expecting: 3)"); ours has no bare-pointer mode.

// RUN: %mlir_opt %s --gpu-to-llvm | FileCheck %s
// RUN: not %mlir_opt %s --gpu-to-llvm=use-bare-pointers-for-host=1 2>&1 | FileCheck --check-prefix=MLIR22-BARE %s
// RUN: %gpuinterp --lower %s | FileCheck %s
// RUN: %gpuinterp --lower %s | %mlir_opt > /dev/null

// MLIR22-BARE: error: 'llvm.call' op incorrect number of operands (2) for callee (expecting: 3)

module attributes {gpu.container_module} {
  // CHECK-LABEL: @pin
  func.func @pin(%tile: memref<3x5xf16>, %any: memref<*xi32>) {
    %u = memref.cast %tile : memref<3x5xf16> to memref<*xf16>
    // CHECK: llvm.call @mgpuMemHostRegisterMemRef(%{{.*}}, %{{.*}}, %{{.*}}) : (i64, !llvm.ptr, i64) -> ()
    gpu.host_register %u : memref<*xf16>
    // CHECK: llvm.call @mgpuMemHostRegisterMemRef(%{{.*}}, %{{.*}}, %{{.*}}) : (i64, !llvm.ptr, i64) -> ()
    gpu.host_register %any : memref<*xi32>
    // CHECK: llvm.call @mgpuMemHostUnregisterMemRef(%{{.*}}, %{{.*}}, %{{.*}}) : (i64, !llvm.ptr, i64) -> ()
    gpu.host_unregister %any : memref<*xi32>
    // CHECK: llvm.call @mgpuMemHostUnregisterMemRef(%{{.*}}, %{{.*}}, %{{.*}}) : (i64, !llvm.ptr, i64) -> ()
    // CHECK-NOT: llvm.call @mgpu
    // CHECK: return
    gpu.host_unregister %u : memref<*xf16>
    return
  }
}
