// --diff with bounds: every run it makes (the program and its lowering, under serial, threads
// and each seed) gets a budget of its own. @main takes about 3,000 steps a run, so 20,000 is
// plenty for one run though far less than the 20 runs together; @forever never ends, and the
// reference's own failure is reported with the bound's error. Exit 1, not a hang.
// RUN: %gpuinterp --diff --max-steps=20000 %s 2>&1 | count 0
// RUN: %gpuinterp --diff --timeout=30 %s 2>&1 | count 0
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp --diff --max-steps=2000 %s 2>&1 | FileCheck %s --check-prefix=SHORT
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp --diff -e forever --seeds 2 --max-steps=20000 %s 2>&1 | FileCheck %s --check-prefix=FOREVER
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp --diff -e forever --seeds 1 --timeout=0.2 %s 2>&1 | FileCheck %s --check-prefix=FOREVER
// SHORT: diff.mlir:{{[0-9]+}}:{{[0-9]+}}: error: step limit of 2000 reached
// SHORT: error: the program itself fails under --sched=serial; the reference must run cleanly
// FOREVER: diff.mlir:{{[0-9]+}}:{{[0-9]+}}: error: {{step|time}} limit of {{20000|0.2 s}} reached
// FOREVER: note: on the host, running '{{.*}}' in '@forever'
// FOREVER: error: the program itself fails under --sched=serial; the reference must run cleanly
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c500 = arith.constant 500 : index
  %h = memref.alloc() : memref<4xf32>
  %t0 = gpu.wait async
  %d, %t1 = gpu.alloc async [%t0] () : memref<4xf32>
  %s = scf.for %i = %c0 to %c500 step %c1 iter_args(%acc = %c0) -> (index) {
    %n = arith.addi %acc, %i : index
    %m = arith.muli %n, %c1 : index
    %k = arith.subi %m, %c0 : index
    %l = arith.addi %k, %c0 : index
    scf.yield %l : index
  }
  %x = arith.index_cast %s : index to i32
  %f = arith.sitofp %x : i32 to f32
  %t2 = gpu.memset async [%t1] %d, %f : memref<4xf32>, f32
  %t3 = gpu.memcpy async [%t2] %h, %d : memref<4xf32>, memref<4xf32>
  %t4 = gpu.dealloc async [%t3] %d : memref<4xf32>
  gpu.wait [%t4]
  memref.dealloc %h : memref<4xf32>
  return
}
func.func @forever() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.while (%i = %c0) : (index) -> index {
    %t = arith.constant true
    scf.condition(%t) %i : index
  } do {
  ^bb0(%j: index):
    %n = arith.addi %j, %c1 : index
    scf.yield %n : index
  }
  return
}
