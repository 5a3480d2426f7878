// REQUIRES: lowering
// The forms without async. MLIR 22 lowers none of gpu.memcpy, gpu.memset and gpu.dealloc, nor a
// gpu.alloc that is not host_shared, and leaves them in the output. Ours gives each a stream of its
// own: mgpuStreamCreate, the call on that stream, mgpuStreamSynchronize, mgpuStreamDestroy.

// RUN: %mlir_opt %s --gpu-to-llvm | FileCheck --check-prefix=MLIR22 %s
// RUN: %gpuinterp --lower %s | FileCheck --check-prefix=OURS %s
// RUN: %gpuinterp --lower %s | %mlir_opt > /dev/null

module attributes {gpu.container_module} {
  // MLIR22-LABEL: @blocking
  // MLIR22-NOT: llvm.call @mgpu
  // MLIR22: gpu.alloc () : memref<6xi32>
  // MLIR22: gpu.memset %{{.*}}, %{{.*}} : memref<6xi32>, i32
  // MLIR22: gpu.memcpy %{{.*}}, %{{.*}} : memref<6xi32>, memref<6xi32>
  // MLIR22: gpu.dealloc %{{.*}} : memref<6xi32>
  // MLIR22-NOT: llvm.call @mgpu
  // MLIR22: return
  // OURS-LABEL: @blocking
  // OURS: %[[S1:.*]] = llvm.call @mgpuStreamCreate()
  // OURS: llvm.call @mgpuMemAlloc(%{{.*}}, %[[S1]], %{{.*}})
  // OURS: llvm.call @mgpuStreamSynchronize(%[[S1]])
  // OURS: llvm.call @mgpuStreamDestroy(%[[S1]])
  // OURS: %[[S2:.*]] = llvm.call @mgpuStreamCreate()
  // OURS: llvm.call @mgpuMemset32(%{{.*}}, %{{.*}}, %{{.*}}, %[[S2]])
  // OURS: llvm.call @mgpuStreamSynchronize(%[[S2]])
  // OURS: llvm.call @mgpuStreamDestroy(%[[S2]])
  // OURS: %[[S3:.*]] = llvm.call @mgpuStreamCreate()
  // OURS: llvm.call @mgpuMemcpy(%{{.*}}, %{{.*}}, %{{.*}}, %[[S3]])
  // OURS: llvm.call @mgpuStreamSynchronize(%[[S3]])
  // OURS: llvm.call @mgpuStreamDestroy(%[[S3]])
  // OURS: %[[S4:.*]] = llvm.call @mgpuStreamCreate()
  // OURS: llvm.call @mgpuMemFree(%{{.*}}, %[[S4]])
  // OURS: llvm.call @mgpuStreamSynchronize(%[[S4]])
  // OURS: llvm.call @mgpuStreamDestroy(%[[S4]])
  // OURS-NOT: gpu.{{(alloc|memset|memcpy|dealloc)}}
  // OURS: return
  func.func @blocking(%host: memref<6xi32>, %v: i32) {
    %dev = gpu.alloc () : memref<6xi32>
    gpu.memset %dev, %v : memref<6xi32>, i32
    gpu.memcpy %host, %dev : memref<6xi32>, memref<6xi32>
    gpu.dealloc %dev : memref<6xi32>
    return
  }
}
