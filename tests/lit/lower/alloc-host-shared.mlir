// REQUIRES: lowering
// gpu.alloc host_shared: mgpuMemAlloc with isHostShared = 1. MLIR 22 lowers only the synchronous
// form, and passes a null stream; it refuses the async form ("Host Shared allocation cannot be
// done async") and leaves it, and the gpu.wait on its token becomes mgpuEventSynchronize and
// mgpuEventDestroy of an unconverted token. Ours lowers both: the synchronous one on a stream of
// its own (create, alloc, synchronize, destroy), the async one on its dependency's stream.

// RUN: %mlir_opt %s --gpu-to-llvm | FileCheck --check-prefix=MLIR22 %s
// RUN: %gpuinterp --lower %s | FileCheck --check-prefix=OURS %s
// RUN: %gpuinterp --lower %s | %mlir_opt > /dev/null

module attributes {gpu.container_module} {
  // MLIR22-LABEL: @sync_shared
  // MLIR22: llvm.ptrtoint
  // MLIR22: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
  // MLIR22: %[[ONE:.*]] = llvm.mlir.constant(1 : i8) : i8
  // MLIR22: llvm.call @mgpuMemAlloc(%{{.*}}, %[[NULL]], %[[ONE]])
  // MLIR22-NOT: llvm.call @mgpu
  // MLIR22: return
  // OURS-LABEL: @sync_shared
  // OURS: %[[S:.*]] = llvm.call @mgpuStreamCreate()
  // OURS: %[[ONE:.*]] = {{(arith|llvm.mlir).constant.*}}1 : i8
  // OURS: llvm.call @mgpuMemAlloc(%{{.*}}, %[[S]], %[[ONE]])
  // OURS: llvm.call @mgpuStreamSynchronize(%[[S]])
  // OURS: llvm.call @mgpuStreamDestroy(%[[S]])
  func.func @sync_shared() -> memref<64xf32> {
    %m = gpu.alloc host_shared () : memref<64xf32>
    return %m : memref<64xf32>
  }

  // MLIR22-LABEL: @async_shared
  // MLIR22: %[[S:.*]] = llvm.call @mgpuStreamCreate()
  // MLIR22: gpu.alloc async [%{{.*}}] host_shared () : memref<8xi32>
  // MLIR22: llvm.call @mgpuEventSynchronize
  // MLIR22: llvm.call @mgpuEventDestroy
  // MLIR22-NOT: llvm.call @mgpuStreamDestroy(%[[S]])
  // OURS-LABEL: @async_shared
  // OURS: %[[S:.*]] = llvm.call @mgpuStreamCreate()
  // OURS: %[[ONE:.*]] = {{(arith|llvm.mlir).constant.*}}1 : i8
  // OURS: llvm.call @mgpuMemAlloc(%{{.*}}, %[[S]], %[[ONE]])
  // OURS-NOT: gpu.alloc
  // OURS: llvm.call @mgpuStreamSynchronize(%[[S]])
  // OURS: llvm.call @mgpuStreamDestroy(%[[S]])
  func.func @async_shared() -> memref<8xi32> {
    %s = gpu.wait async
    %m, %a = gpu.alloc async [%s] host_shared () : memref<8xi32>
    gpu.wait [%a]
    return %m : memref<8xi32>
  }
}
