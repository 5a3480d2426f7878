// Host loops that never end (scf.while, and a cf loop) stop at the step or time limit with the
// op the host was about to run and a note naming the host; exit 1 (not a timeout's 124) under
// every scheduler. A finite run is counted op by op: @finite takes exactly 3 steps.
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp -e spin_while --max-steps=1000 %s 2>&1 | FileCheck %s --check-prefix=WHILE
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp -e spin_while --sched=serial --max-steps=1000 %s 2>&1 | FileCheck %s --check-prefix=WHILE
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp -e spin_while --sched=random:7 --max-steps=1000 %s 2>&1 | FileCheck %s --check-prefix=WHILE
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp -e spin_while --timeout=0.2 %s 2>&1 | FileCheck %s --check-prefix=WTIME
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp -e spin_cf --max-steps=5000 %s 2>&1 | FileCheck %s --check-prefix=CF
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp -e spin_cf --sched=random:1 --timeout=0.25 %s 2>&1 | FileCheck %s --check-prefix=CFTIME
// RUN: %root/tests/corpus-tools/exit-code.sh 0 %gpuinterp -e finite --max-steps=3 %s | FileCheck %s --check-prefix=OK
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp -e finite --max-steps=2 %s 2>&1 | FileCheck %s --check-prefix=SHORT
// RUN: %root/tests/corpus-tools/exit-code.sh 0 %gpuinterp -e finite --timeout=30 %s | FileCheck %s --check-prefix=OK

// 1000 steps: the entry's 2 constants, then 2 per iteration in `before` and 2 in `after`: the
// 1001st op is the scf.condition of the 250th iteration.
// WHILE: host-loop.mlir:[[@LINE+13]]:5: error: step limit of 1000 reached
// WHILE-NEXT: {{^}}    scf.condition(%t) %i : i64
// WHILE: host-loop.mlir:[[@LINE+6]]:1: note: on the host, running 'scf.condition' in '@spin_while'
// WHILE-NOT: error:
// WHILE-NOT: note:
// WTIME: host-loop.mlir:{{(2[6-9]|3[0-4])}}:{{[0-9]+}}: error: time limit of 0.2 s reached
// WTIME: note: on the host, running '{{.*}}' in '@spin_while'
// WTIME-NOT: error:
func.func @spin_while() {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %r = scf.while (%i = %c0) : (i64) -> i64 {
    %t = arith.constant true
    scf.condition(%t) %i : i64
  } do {
  ^bb0(%j: i64):
    %n = arith.addi %j, %c1 : i64
    scf.yield %n : i64
  }
  return
}

// CF: host-loop.mlir:{{(4[4-9]|5[0-2])}}:{{[0-9]+}}: error: step limit of 5000 reached
// CF: note: on the host, running '{{arith.addi|cf.br|arith.cmpi|cf.cond_br}}' in '@spin_cf'
// CF-NOT: error:
// CFTIME: error: time limit of 0.25 s reached
// CFTIME-NOT: error:
func.func @spin_cf() {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %never = arith.constant -1 : i64
  cf.br ^loop(%c0 : i64)
^loop(%i: i64):
  %n = arith.addi %i, %c1 : i64
  %done = arith.cmpi eq, %n, %never : i64
  cf.cond_br %done, ^exit, ^loop(%n : i64)
^exit:
  return
}

// OK: 7
// SHORT: host-loop.mlir:[[@LINE+5]]:3: error: step limit of 2 reached
// SHORT-NEXT: {{^}}  return
func.func @finite() {
  %c = arith.constant 7 : i64
  call @printI64(%c) : (i64) -> ()
  return
}
func.func private @printI64(i64)
