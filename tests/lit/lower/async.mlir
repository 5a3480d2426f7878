// REQUIRES: lowering
// A gpu token yielded from async.execute and awaited on the host. MLIR 22 turns the yielded token
// into an event recorded on the region's stream (then destroys that stream), and the host's
// gpu.wait on the awaited value into mgpuEventSynchronize/mgpuEventDestroy of it. Ours may pass
// the stream or an event across the region, as long as both sides agree: the lowered program
// runs clean on the simulator.

// RUN: %mlir_opt %s --gpu-to-llvm | FileCheck --check-prefix=MLIR22 %s
// RUN: %gpuinterp --lower %s | FileCheck --check-prefix=OURS %s
// RUN: %gpuinterp --lower %s | %mlir_opt > /dev/null
// RUN: %gpuinterp --lower %s -o %t.mlir
// RUN: %gpuinterp %t.mlir | FileCheck --check-prefix=OUT %s
// RUN: %mlir_opt %s --gpu-to-llvm | %gpuinterp - | FileCheck --check-prefix=OUT %s

// OUT: [7,  7,  7,  7]

module attributes {gpu.container_module} {
  // MLIR22-LABEL: @main
  // MLIR22: async.execute
  // MLIR22: %[[S:.*]] = llvm.call @mgpuStreamCreate()
  // MLIR22: llvm.call @mgpuMemset32(%{{.*}}, %{{.*}}, %{{.*}}, %[[S]])
  // MLIR22: llvm.call @mgpuMemFree(%{{.*}}, %[[S]])
  // MLIR22: %[[E:.*]] = llvm.call @mgpuEventCreate()
  // MLIR22: llvm.call @mgpuEventRecord(%[[E]], %[[S]])
  // MLIR22: llvm.call @mgpuStreamDestroy(%[[S]])
  // MLIR22: async.yield %[[E]] : !llvm.ptr
  // MLIR22: %[[W:.*]] = async.await
  // MLIR22: llvm.call @mgpuEventSynchronize(%[[W]])
  // MLIR22: llvm.call @mgpuEventDestroy(%[[W]])
  // OURS-LABEL: @main
  // OURS: async.execute
  // OURS: %[[S:.*]] = llvm.call @mgpuStreamCreate()
  // OURS: llvm.call @mgpuMemset32(%{{.*}}, %{{.*}}, %{{.*}}, %[[S]])
  // OURS: llvm.call @mgpuMemFree(%{{.*}}, %[[S]])
  // OURS: async.yield
  // OURS: async.await
  // OURS: llvm.call @mgpu{{Event|Stream}}Synchronize
  // OURS-NOT: gpu.{{(wait|alloc|memset|memcpy|dealloc)}}
  // OURS: return
  func.func @main() {
    %seven = arith.constant 7 : i32
    %host = memref.alloc() : memref<4xi32>
    %done, %val = async.execute -> !async.value<!gpu.async.token> {
      %s = gpu.wait async
      %dev, %a = gpu.alloc async [%s] () : memref<4xi32>
      %b = gpu.memset async [%a] %dev, %seven : memref<4xi32>, i32
      %c = gpu.memcpy async [%b] %host, %dev : memref<4xi32>, memref<4xi32>
      %d = gpu.dealloc async [%c] %dev : memref<4xi32>
      async.yield %d : !gpu.async.token
    }
    %t = async.await %val : !async.value<!gpu.async.token>
    gpu.wait [%t]
    %u = memref.cast %host : memref<4xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    memref.dealloc %host : memref<4xi32>
    return
  }
  func.func private @printMemrefI32(memref<*xi32>)
}
