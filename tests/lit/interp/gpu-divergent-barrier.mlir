// A gpu.barrier that only some threads of a block reach (under a divergent scf.if) is an error
// naming the threads that reached it and those that did not; the run stops at the synchronous
// launch and exits 1. A barrier that every thread reaches, even inside a loop whose trip count
// is the same for all, is fine.
// RUN: not %gpuinterp %s 2>&1 | FileCheck %s
// CHECK: gpu-divergent-barrier.mlir:[[@LINE+18]]:7: error: 'gpu.barrier' op divergent barrier: 2 of 4 threads reached it: (0, 0, 0), (1, 0, 0); 2 did not: (2, 0, 0), (3, 0, 0) (block (0, 0, 0))
// CHECK-NEXT: {{^}}      gpu.barrier
// CHECK-NOT: Unranked Memref
func.func @main() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    scf.for %i = %c1 to %c4 step %c1 {
      gpu.barrier
    }
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %lt = arith.cmpi ult, %tx, %c2 : index
    scf.if %lt {
      gpu.barrier
    }
    gpu.terminator
  }
  %never = memref.alloc() : memref<1xi32>
  %u = memref.cast %never : memref<1xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}
func.func private @printMemrefI32(memref<*xi32>)
