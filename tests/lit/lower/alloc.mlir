// REQUIRES: lowering
// gpu.alloc async with one dependency: mgpuMemAlloc(bytes, stream, isHostShared = 0) on the
// dependency's stream; gpu.dealloc async: mgpuMemFree(allocated pointer, stream).

// RUN: %mlir_opt %s --gpu-to-llvm | FileCheck %s
// RUN: %gpuinterp --lower %s | FileCheck %s
// RUN: %gpuinterp --lower %s | %mlir_opt > /dev/null

module attributes {gpu.container_module} {
  // CHECK-LABEL: @scratch
  func.func @scratch(%n: index) {
    // CHECK: %[[S:.*]] = llvm.call @mgpuStreamCreate()
    // CHECK: %[[SHARED:.*]] = {{(arith|llvm.mlir).constant.*}}0 : i8
    // CHECK: %[[P:.*]] = llvm.call @mgpuMemAlloc(%{{.*}}, %[[S]], %[[SHARED]]) : (i64, !llvm.ptr, i8) -> !llvm.ptr
    // CHECK: llvm.call @mgpuMemFree(%{{.*}}, %[[S]]) : (!llvm.ptr, !llvm.ptr) -> ()
    // CHECK: llvm.call @mgpuStreamSynchronize(%[[S]])
    // CHECK: llvm.call @mgpuStreamDestroy(%[[S]])
    %s = gpu.wait async
    %buf, %a = gpu.alloc async [%s] (%n) : memref<?xf32>
    %f = gpu.dealloc async [%a] %buf : memref<?xf32>
    gpu.wait [%f]
    return
  }

  // Two allocations on one stream, freed in the other order.
  // CHECK-LABEL: @pair
  func.func @pair() {
    // CHECK: %[[S:.*]] = llvm.call @mgpuStreamCreate()
    // CHECK: llvm.call @mgpuMemAlloc(%{{.*}}, %[[S]], %{{.*}})
    // CHECK: llvm.call @mgpuMemAlloc(%{{.*}}, %[[S]], %{{.*}})
    // CHECK: llvm.call @mgpuMemFree(%{{.*}}, %[[S]])
    // CHECK: llvm.call @mgpuMemFree(%{{.*}}, %[[S]])
    // CHECK: llvm.call @mgpuStreamSynchronize(%[[S]])
    // CHECK: llvm.call @mgpuStreamDestroy(%[[S]])
    %s = gpu.wait async
    %x, %a = gpu.alloc async [%s] () : memref<4x4xi8>
    %y, %b = gpu.alloc async [%a] () : memref<16xf64>
    %c = gpu.dealloc async [%b] %y : memref<16xf64>
    %d = gpu.dealloc async [%c] %x : memref<4x4xi8>
    gpu.wait [%d]
    return
  }
}
