// REQUIRES: lowering
// gpu.alloc, gpu.memset, gpu.memcpy and gpu.dealloc with two async dependencies. MLIR 22 leaves
// them unconverted (it lowers these ops only with exactly one dependency), and the gpu.wait on an
// unconverted token becomes mgpuEventSynchronize/mgpuEventDestroy of it; streams a and b are
// never synchronized nor destroyed. Ours lowers them all: the op runs on its first dependency's
// stream once that stream waits for an event recorded on each other dependency's stream.
// gpu.launch_func with two: launch-func-multiple-deps.mlir.

// RUN: %mlir_opt %s --gpu-to-llvm | FileCheck --check-prefix=MLIR22 %s
// RUN: %gpuinterp --lower %s | FileCheck --check-prefix=OURS %s
// RUN: %gpuinterp --lower %s | %mlir_opt > /dev/null

module attributes {gpu.container_module} {
  // MLIR22-LABEL: @copies_after_two
  // MLIR22: %[[A:.*]] = llvm.call @mgpuStreamCreate()
  // MLIR22: %[[B:.*]] = llvm.call @mgpuStreamCreate()
  // MLIR22-NOT: llvm.call @mgpuMem
  // MLIR22: gpu.alloc async [%{{.*}}, %{{.*}}] () : memref<16xf32>
  // MLIR22: gpu.memset async [%{{.*}}, %{{.*}}]
  // MLIR22: gpu.memcpy async [%{{.*}}, %{{.*}}]
  // MLIR22: gpu.dealloc async [%{{.*}}, %{{.*}}]
  // MLIR22: llvm.call @mgpuEventSynchronize
  // MLIR22: llvm.call @mgpuEventDestroy
  // MLIR22: llvm.call @mgpuEventSynchronize
  // MLIR22: llvm.call @mgpuEventDestroy
  // MLIR22-NOT: llvm.call @mgpuStream
  // MLIR22: return
  // OURS-LABEL: @copies_after_two
  // OURS: %[[A:.*]] = llvm.call @mgpuStreamCreate()
  // OURS: %[[B:.*]] = llvm.call @mgpuStreamCreate()
  // OURS: %[[E1:.*]] = llvm.call @mgpuEventCreate()
  // OURS: llvm.call @mgpuEventRecord(%[[E1]], %[[B]])
  // OURS: llvm.call @mgpuStreamWaitEvent(%[[A]], %[[E1]])
  // OURS: llvm.call @mgpuMemAlloc(%{{.*}}, %[[A]], %{{.*}})
  // OURS: %[[E2:.*]] = llvm.call @mgpuEventCreate()
  // OURS: llvm.call @mgpuEventRecord(%[[E2]], %[[B]])
  // OURS: llvm.call @mgpuStreamWaitEvent(%[[A]], %[[E2]])
  // OURS: llvm.call @mgpuMemset32(%{{.*}}, %{{.*}}, %{{.*}}, %[[A]])
  // OURS: %[[E3:.*]] = llvm.call @mgpuEventCreate()
  // OURS: llvm.call @mgpuEventRecord(%[[E3]], %[[A]])
  // OURS: llvm.call @mgpuStreamWaitEvent(%[[B]], %[[E3]])
  // OURS: llvm.call @mgpuMemcpy(%{{.*}}, %{{.*}}, %{{.*}}, %[[B]])
  // OURS: %[[E4:.*]] = llvm.call @mgpuEventCreate()
  // OURS: llvm.call @mgpuEventRecord(%[[E4]], %[[A]])
  // OURS: llvm.call @mgpuStreamWaitEvent(%[[B]], %[[E4]])
  // OURS: llvm.call @mgpuMemFree(%{{.*}}, %[[B]])
  // OURS-NOT: gpu.{{(alloc|memset|memcpy|dealloc)}}
  // OURS-NOT: llvm.call @mgpuEventSynchronize
  // OURS: return
  func.func @copies_after_two(%host: memref<16xf32>, %v: f32) {
    %a = gpu.wait async
    %b = gpu.wait async
    %dev, %t1 = gpu.alloc async [%a, %b] () : memref<16xf32>
    %t2 = gpu.memset async [%t1, %b] %dev, %v : memref<16xf32>, f32
    %t3 = gpu.memcpy async [%b, %t2] %host, %dev : memref<16xf32>, memref<16xf32>
    %t4 = gpu.dealloc async [%t3, %t2] %dev : memref<16xf32>
    gpu.wait [%t4, %t2]
    return
  }
}
