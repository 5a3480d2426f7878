// One thread of a block loops forever while the others have gone on to a barrier: in lock step
// the looping thread runs alone, under a mask of one, and the note names it: thread 5 of the one
// block of the grid. Its steps count one per op, so the bound takes a while longer than for a
// whole block, and the barrier is never reached (no divergent-barrier error).
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp --max-steps=100000 %s 2>&1 | FileCheck %s --check-prefixes=CHECK,STEPS
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp --sched=serial --max-steps=100000 %s 2>&1 | FileCheck %s --check-prefixes=CHECK,STEPS
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp --sched=random:2 --timeout=0.2 %s 2>&1 | FileCheck %s --check-prefixes=CHECK,TIME
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp --timeout=0.2 %s 2>&1 | FileCheck %s --check-prefixes=CHECK,TIME
// STEPS: kernel-one-thread.mlir:{{(2[4-9]|3[0-4])}}:{{[0-9]+}}: error: step limit of 100000 reached
// TIME: kernel-one-thread.mlir:{{(2[4-9]|3[0-4])}}:{{[0-9]+}}: error: time limit of 0.2 s reached
// CHECK: kernel-one-thread.mlir:[[@LINE+33]]:5: note: in thread (5, 0, 0) of block (0, 0, 0), running '{{.*}}' in the kernel launched here
// CHECK-NOT: error:
// CHECK-NOT: 12345
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @one(%m: memref<32xi64>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %tx = gpu.thread_id x
      %c5 = arith.constant 5 : index
      %c0 = arith.constant 0 : i64
      %c1 = arith.constant 1 : i64
      %me = arith.cmpi eq, %tx, %c5 : index
      %v = scf.if %me -> (i64) {
        %r = scf.while (%x = %c0) : (i64) -> i64 {
          %t = arith.constant true
          scf.condition(%t) %x : i64
        } do {
        ^bb0(%y: i64):
          %z = arith.addi %y, %c1 : i64
          scf.yield %z : i64
        }
        scf.yield %r : i64
      } else {
        scf.yield %c0 : i64
      }
      gpu.barrier
      memref.store %v, %m[%tx] : memref<32xi64>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %m = gpu.alloc () : memref<32xi64>
    gpu.launch_func @k::@one blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%m : memref<32xi64>)
    %after = arith.constant 12345 : i64
    func.call @printI64(%after) : (i64) -> ()
    gpu.dealloc %m : memref<32xi64>
    return
  }
  func.func private @printI64(i64)
}
