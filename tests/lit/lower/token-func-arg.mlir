// REQUIRES: lowering
// A token passed to a function: a block argument with no defining op. MLIR 22 lowers the callee
// as if its argument were an event (gpu.wait [%t] becomes mgpuEventSynchronize/mgpuEventDestroy
// of it, gpu.wait async [%t] becomes mgpuStreamWaitEvent(new stream, %t)) while enqueuing work on
// it directly as a stream, and the caller passes the stream it created. Ours keeps caller and
// callee consistent; the OURS lines hold for either convention (pass the stream, or record an
// event and pass that): work in the callee runs on a stream, which the callee synchronizes and
// destroys, and the lowered program runs clean on the simulator.

// RUN: %mlir_opt %s --gpu-to-llvm | FileCheck --check-prefix=MLIR22 %s
// RUN: %gpuinterp --lower %s | FileCheck --check-prefix=OURS %s
// RUN: %gpuinterp --lower %s | %mlir_opt > /dev/null
// RUN: %gpuinterp --lower %s -o %t.mlir
// RUN: %gpuinterp %t.mlir 2>&1 | FileCheck --check-prefix=OUT %s
// RUN: %mlir_opt %s --gpu-to-llvm | not %gpuinterp - 2>&1 | FileCheck --check-prefix=OUT22 %s

// OUT: [2.5,  2.5,  2.5]
// OUT-NEXT: Unranked
// OUT-NEXT: [2.5,  2.5,  2.5]
// OUT-NOT: error
// OUT-NOT: warning
// OUT22-DAG: error: 'llvm.call' @mgpuEventSynchronize: expects an event, got a stream
// OUT22-DAG: error: 'llvm.call' @mgpuStreamWaitEvent: expects an event, got a stream

module attributes {gpu.container_module} {
  // The callee copies on the token it is given, then waits for the copy.
  // MLIR22-LABEL: llvm.func @copy_on(
  // MLIR22-SAME: %[[T:[^:]*]]: !llvm.ptr
  // MLIR22: llvm.call @mgpuMemcpy(%{{.*}}, %{{.*}}, %{{.*}}, %[[T]])
  // MLIR22: llvm.call @mgpuEventSynchronize(%[[T]])
  // MLIR22: llvm.call @mgpuEventDestroy(%[[T]])
  // OURS-LABEL: @copy_on(
  // OURS: llvm.call @mgpuMemcpy(%{{.*}}, %{{.*}}, %{{.*}}, %[[S:[^)]*]])
  // OURS-NOT: llvm.call @mgpuEvent{{Synchronize|Destroy}}(%[[S]])
  // OURS: llvm.call @mgpuStreamSynchronize(%[[S]])
  // OURS: llvm.call @mgpuStreamDestroy(%[[S]])
  func.func @copy_on(%t: !gpu.async.token, %host: memref<3xf32>, %dev: memref<3xf32>) {
    %c = gpu.memcpy async [%t] %host, %dev : memref<3xf32>, memref<3xf32>
    gpu.wait [%c]
    return
  }

  // The callee starts a stream of its own after the token.
  // MLIR22-LABEL: llvm.func @copy_after(
  // MLIR22-SAME: %[[T:[^:]*]]: !llvm.ptr
  // MLIR22: %[[S:.*]] = llvm.call @mgpuStreamCreate()
  // MLIR22: llvm.call @mgpuStreamWaitEvent(%[[S]], %[[T]])
  // MLIR22: llvm.call @mgpuEventDestroy(%[[T]])
  // MLIR22: llvm.call @mgpuMemcpy(%{{.*}}, %{{.*}}, %{{.*}}, %[[S]])
  // MLIR22: llvm.call @mgpuStreamSynchronize(%[[S]])
  // MLIR22: llvm.call @mgpuStreamDestroy(%[[S]])
  // OURS-LABEL: @copy_after(
  // OURS: %[[S:.*]] = llvm.call @mgpuStreamCreate()
  // OURS: llvm.call @mgpuStreamWaitEvent(%[[S]], %{{.*}})
  // OURS: llvm.call @mgpuMemcpy(%{{.*}}, %{{.*}}, %{{.*}}, %[[S]])
  // OURS: llvm.call @mgpuStreamSynchronize(%[[S]])
  // OURS: llvm.call @mgpuStreamDestroy(%[[S]])
  func.func @copy_after(%t: !gpu.async.token, %host: memref<3xf32>, %dev: memref<3xf32>) {
    %s = gpu.wait async [%t]
    %c = gpu.memcpy async [%s] %host, %dev : memref<3xf32>, memref<3xf32>
    gpu.wait [%c]
    return
  }

  // MLIR22-LABEL: llvm.func @main(
  // MLIR22: %[[A:.*]] = llvm.call @mgpuStreamCreate()
  // MLIR22: llvm.call @mgpuMemset32(%{{.*}}, %{{.*}}, %{{.*}}, %[[A]])
  // MLIR22: llvm.call @copy_on(%[[A]],
  // MLIR22: %[[B:.*]] = llvm.call @mgpuStreamCreate()
  // MLIR22: llvm.call @copy_after(%[[B]],
  func.func @main() {
    %v = arith.constant 2.5 : f32
    %h1 = memref.alloc() : memref<3xf32>
    %h2 = memref.alloc() : memref<3xf32>
    %s = gpu.wait async
    %dev, %a = gpu.alloc async [%s] () : memref<3xf32>
    %b = gpu.memset async [%a] %dev, %v : memref<3xf32>, f32
    call @copy_on(%b, %h1, %dev) : (!gpu.async.token, memref<3xf32>, memref<3xf32>) -> ()
    %r = gpu.wait async
    call @copy_after(%r, %h2, %dev) : (!gpu.async.token, memref<3xf32>, memref<3xf32>) -> ()
    gpu.dealloc %dev : memref<3xf32>
    %u1 = memref.cast %h1 : memref<3xf32> to memref<*xf32>
    call @printMemrefF32(%u1) : (memref<*xf32>) -> ()
    %u2 = memref.cast %h2 : memref<3xf32> to memref<*xf32>
    call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}
