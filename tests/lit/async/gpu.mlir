// gpu ops inside async.execute: a fork and a join of device copies and a launch, in the form
// of MLIR's CUDA integration test async.mlir. Run as it is; lowered by gpuinterp --lower (gpu
// tokens between bodies agree on what they are), then by the async passes into coroutines; and
// lowered as that test's RUN line does, where MLIR 22's gpu-to-llvm yields each body's stream
// itself out of async.execute in place of an event recorded on it (tests/lit/lower/async-launch.mlir),
// so the next body waits on a stream, which the device reports, and the ordering is lost.
// RUN: %gpuinterp %s | FileCheck %s
// RUN: %gpuinterp --lower %s -o %t.ours.mlir
// RUN: %mlir_opt %t.ours.mlir -async-to-async-runtime -async-runtime-ref-counting -convert-async-to-llvm -convert-scf-to-cf -finalize-memref-to-llvm -convert-func-to-llvm -convert-arith-to-llvm -convert-cf-to-llvm -reconcile-unrealized-casts -o %t.ll.mlir
// RUN: %gpuinterp %t.ll.mlir 2>&1 | FileCheck --check-prefixes=CHECK,CLEAN %s
// RUN: %mlir_opt %s -gpu-kernel-outlining | %mlir_opt -pass-pipeline='builtin.module(gpu.module(convert-gpu-to-nvvm))' | %mlir_opt -gpu-async-region -gpu-to-llvm -async-to-async-runtime -async-runtime-ref-counting -convert-async-to-llvm -convert-func-to-llvm -reconcile-unrealized-casts -o %t.mlir22.mlir
// RUN: not %gpuinterp %t.mlir22.mlir 2>&1 | FileCheck --check-prefix=MLIR22 %s

// CHECK: [8,  12,  16]
// CLEAN-NOT: error

// MLIR22: error: 'llvm.call' @mgpuStreamWaitEvent: expects an event, got a stream (created by 'llvm.call' @mgpuStreamCreate
// MLIR22: [misuse]

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 3 : index
  %h = memref.alloc(%n) : memref<?xi32>
  %hu = memref.cast %h : memref<?xi32> to memref<*xi32>
  gpu.host_register %hu : memref<*xi32>
  scf.for %i = %c0 to %n step %c1 {
    %ii = arith.index_cast %i : index to i32
    %two = arith.constant 2 : i32
    %v = arith.addi %ii, %two : i32
    memref.store %v, %h[%i] : memref<?xi32>
  }

  %t0, %f0 = async.execute () -> !async.value<memref<?xi32>> {
    %b0 = gpu.alloc(%n) : memref<?xi32>
    gpu.memcpy %b0, %h : memref<?xi32>, memref<?xi32>
    async.yield %b0 : memref<?xi32>
  }
  %t1, %f1 = async.execute [%t0] (%f0 as %b0 : !async.value<memref<?xi32>>) -> !async.value<memref<?xi32>> {
    %b1 = gpu.alloc(%n) : memref<?xi32>
    gpu.memcpy %b1, %b0 : memref<?xi32>, memref<?xi32>
    async.yield %b1 : memref<?xi32>
  }
  %t2, %f2 = async.execute [%t0] (%f0 as %b0 : !async.value<memref<?xi32>>) -> !async.value<memref<?xi32>> {
    %b2 = gpu.alloc(%n) : memref<?xi32>
    gpu.memcpy %b2, %b0 : memref<?xi32>, memref<?xi32>
    async.yield %b2 : memref<?xi32>
  }
  // h = 2 * (b1 + b2)
  %t3 = async.execute [%t1, %t2] (%f1 as %b1 : !async.value<memref<?xi32>>,
                                  %f2 as %b2 : !async.value<memref<?xi32>>) {
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %n, %sy = %c1, %sz = %c1) {
      %v1 = memref.load %b1[%tx] : memref<?xi32>
      %v2 = memref.load %b2[%tx] : memref<?xi32>
      %s = arith.addi %v1, %v2 : i32
      %d = arith.addi %s, %s : i32
      memref.store %d, %h[%tx] : memref<?xi32>
      gpu.terminator
    }
    async.yield
  }
  async.await %t3 : !async.token
  call @printMemrefI32(%hu) : (memref<*xi32>) -> ()
  return
}

func.func private @printMemrefI32(memref<*xi32>)
