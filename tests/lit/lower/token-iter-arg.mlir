// REQUIRES: lowering
// A token carried through scf.for as an iter_arg: inside the loop it is a block argument. MLIR 22
// leaves the scf.for with its !gpu.async.token types, enqueues the body's work directly on the
// iter_arg (it is the stream), but lowers the final gpu.wait on the chain as an event wait:
// mgpuEventSynchronize/mgpuEventDestroy of the stream, which is never destroyed. Ours passes the
// same kind of handle around the loop as it yields, and synchronizes and destroys the stream.

// RUN: %mlir_opt %s --gpu-to-llvm | FileCheck --check-prefix=MLIR22 %s
// RUN: %gpuinterp --lower %s | FileCheck --check-prefix=OURS %s
// RUN: %gpuinterp --lower %s | %mlir_opt > /dev/null
// RUN: %gpuinterp --lower %s -o %t.mlir
// RUN: %gpuinterp %t.mlir 2>&1 | FileCheck --check-prefix=OUT %s
// RUN: %mlir_opt %s --gpu-to-llvm | not %gpuinterp - 2>&1 | FileCheck --check-prefix=OUT22 %s

// OUT: [4,  5,  6,  7]
// OUT-NOT: error
// OUT-NOT: warning
// OUT22: error: 'llvm.call' @mgpuEventSynchronize: expects an event, got a stream
// OUT22: error: 'llvm.call' @mgpuEventDestroy: expects an event, got a stream
// OUT22: warning: 'llvm.call' @mgpuStreamCreate: stream created here was never destroyed [leak]

module attributes {gpu.container_module} {
  // MLIR22-LABEL: llvm.func @main(
  // MLIR22: %[[S:.*]] = llvm.call @mgpuStreamCreate()
  // MLIR22: %[[T:.*]] = builtin.unrealized_conversion_cast %[[S]] : !llvm.ptr to !gpu.async.token
  // MLIR22: %[[R:.*]] = scf.for {{.*}} iter_args(%[[ARG:.*]] = %[[T]]) -> (!gpu.async.token)
  // MLIR22: %[[ARGP:.*]] = builtin.unrealized_conversion_cast %[[ARG]] : !gpu.async.token to !llvm.ptr
  // MLIR22: llvm.call @mgpuMemcpy(%{{.*}}, %{{.*}}, %{{.*}}, %[[ARGP]])
  // MLIR22: scf.yield %[[ARG]] : !gpu.async.token
  // MLIR22: %[[RP:.*]] = builtin.unrealized_conversion_cast %[[R]] : !gpu.async.token to !llvm.ptr
  // MLIR22: llvm.call @mgpuMemcpy(%{{.*}}, %{{.*}}, %{{.*}}, %[[RP]])
  // MLIR22: llvm.call @mgpuMemFree(%{{.*}}, %[[RP]])
  // MLIR22: llvm.call @mgpuEventSynchronize(%[[RP]])
  // MLIR22: llvm.call @mgpuEventDestroy(%[[RP]])
  // MLIR22-NOT: llvm.call @mgpuStreamDestroy
  // MLIR22: llvm.return
  // OURS-LABEL: @main(
  // OURS: %[[S:.*]] = llvm.call @mgpuStreamCreate()
  // The loop carries the stream itself: each trip's copy goes on it, the loop's result is it.
  // OURS: %[[R:[0-9]+]] = scf.for {{.*}} iter_args(%[[T:[0-9a-z_]+]] = %[[S]]) -> (!llvm.ptr)
  // OURS: llvm.call @mgpuMemcpy(%{{.*}}, %{{.*}}, %{{.*}}, %[[T]])
  // OURS: scf.yield %[[T]]
  // OURS: llvm.call @mgpuMemFree({{.*}}, %[[R]])
  // OURS-NOT: llvm.call @mgpuEvent{{Synchronize|Destroy}}(%[[R]])
  // OURS: llvm.call @mgpuStreamSynchronize(%[[R]])
  // OURS: llvm.call @mgpuStreamDestroy(%[[R]])
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %host = memref.alloc() : memref<4xi32>
    scf.for %i = %c0 to %c4 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %four = arith.constant 4 : i32
      %v = arith.addi %ii, %four : i32
      memref.store %v, %host[%i] : memref<4xi32>
    }
    %s0 = gpu.wait async
    %dev, %s = gpu.alloc async [%s0] () : memref<4xi32>
    // Four copies, one per trip, each after the previous one on the same chain.
    %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%t = %s) -> (!gpu.async.token) {
      %u = gpu.memcpy async [%t] %dev, %host : memref<4xi32>, memref<4xi32>
      scf.yield %u : !gpu.async.token
    }
    %back = memref.alloc() : memref<4xi32>
    %b = gpu.memcpy async [%r] %back, %dev : memref<4xi32>, memref<4xi32>
    %d = gpu.dealloc async [%b] %dev : memref<4xi32>
    gpu.wait [%d]
    %p = memref.cast %back : memref<4xi32> to memref<*xi32>
    call @printMemrefI32(%p) : (memref<*xi32>) -> ()
    return
  }
  func.func private @printMemrefI32(memref<*xi32>)
}
