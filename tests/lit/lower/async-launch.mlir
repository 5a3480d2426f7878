// REQUIRES: lowering
// As async.mlir, but the token yielded from async.execute comes from a gpu.launch_func. MLIR 22
// then yields the stream itself, records no event and destroys nothing, and the host's gpu.wait
// on the awaited value becomes mgpuEventSynchronize/mgpuEventDestroy of that stream (upstream
// issue 170833, fixed after 22). Ours must agree on both sides of the region, as in async.mlir.

// RUN: %mlir_opt %s --pass-pipeline='builtin.module(gpu.module(convert-gpu-to-nvvm),gpu-to-llvm)' | FileCheck --check-prefix=MLIR22 %s
// RUN: %gpuinterp --lower %s | FileCheck --check-prefix=OURS %s
// RUN: %gpuinterp --lower %s | %mlir_opt > /dev/null
// RUN: %gpuinterp --lower %s -o %t.mlir
// RUN: %gpuinterp %t.mlir | FileCheck --check-prefix=OUT %s

// RUN: %mlir_opt %s --pass-pipeline='builtin.module(gpu.module(convert-gpu-to-nvvm),gpu-to-llvm)' | not %gpuinterp - 2>&1 | FileCheck --check-prefix=OUT22 %s

// OUT: [3,  4,  5,  6]
// OUT22: error: 'llvm.call' @mgpuEventSynchronize: expects an event, got a stream
// OUT22: error: 'llvm.call' @mgpuEventDestroy: expects an event, got a stream
// OUT22: warning: 'llvm.call' @mgpuStreamCreate: stream created here was never destroyed [leak]

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @iota(%m: memref<4xi32>, %base: i32) kernel {
      %i = gpu.thread_id x
      %ii = arith.index_cast %i : index to i32
      %v = arith.addi %ii, %base : i32
      memref.store %v, %m[%i] : memref<4xi32>
      gpu.return
    }
  }

  // MLIR22-LABEL: @main
  // MLIR22: async.execute
  // MLIR22: %[[S:.*]] = llvm.call @mgpuStreamCreate()
  // MLIR22: gpu.launch_func <%[[S]] : !llvm.ptr> @kernels::@iota
  // MLIR22-NOT: llvm.call @mgpuEventRecord
  // MLIR22: async.yield %[[S]] : !llvm.ptr
  // MLIR22: %[[W:.*]] = async.await
  // MLIR22: llvm.call @mgpuEventSynchronize(%[[W]])
  // MLIR22: llvm.call @mgpuEventDestroy(%[[W]])
  // OURS-LABEL: @main
  // OURS: async.execute
  // OURS: %[[S:.*]] = llvm.call @mgpuStreamCreate()
  // OURS: gpu.launch_func <%[[S]] : !llvm.ptr> @kernels::@iota
  // OURS: async.yield
  // OURS: async.await
  // OURS: llvm.call @mgpu{{Event|Stream}}Synchronize
  func.func @main() {
    %one = arith.constant 1 : index
    %four = arith.constant 4 : index
    %three = arith.constant 3 : i32
    %host = memref.alloc() : memref<4xi32>
    %done, %val = async.execute -> !async.value<!gpu.async.token> {
      %s = gpu.wait async
      %dev, %a = gpu.alloc async [%s] () : memref<4xi32>
      %b = gpu.launch_func async [%a] @kernels::@iota
          blocks in (%one, %one, %one) threads in (%four, %one, %one)
          args(%dev : memref<4xi32>, %three : i32)
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
