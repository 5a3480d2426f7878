// A lowered file that drops the mgpuStreamWaitEvent ordering a copy after a memset on another
// stream: the ordering is lost, and the value that shows it comes with its schedule.
// RUN: %mlir_opt --gpu-to-llvm -mlir-print-debuginfo %s -o %t.ll.mlir
// RUN: %gpuinterp --diff %s --against %t.ll.mlir --leak-check=off 2>&1 | count 0
// RUN: %gpuinterp --diff %s --against %t.ll.mlir 2>&1 | FileCheck --check-prefix=LEAK %s
// RUN: not %gpuinterp --diff %s --against %t.ll.mlir --leak-check=error 2>&1 | FileCheck --check-prefix=LEAK-ERR %s
// LEAK: lost-wait-event.mlir:[[#@LINE+17]]:8: warning: the lowered program leaks where the program does not: stream created here was never destroyed at mgpuStreamCreate
// LEAK-ERR: error: the lowered program leaks where the program does not
// RUN: sed '/llvm.call @mgpuStreamWaitEvent/d' %t.ll.mlir > %t.bad.mlir
// RUN: not %gpuinterp --diff %s --against %t.bad.mlir 2> %t.err | count 0
// RUN: FileCheck %s < %t.err

// CHECK: lost-wait-event.mlir:[[#@LINE+15]]:8: error: the lowering lost the ordering of 'gpu.memset' at {{.*}}lost-wait-event.mlir:[[#@LINE+13]]:9 and 'gpu.memcpy' here: the program orders them (both touch bytes [0, 16) of one buffer), the lowered program does not
// CHECK-NEXT: %c = gpu.memcpy
// CHECK-NEXT: ^
// CHECK-NEXT: lost-wait-event.mlir:[[#@LINE+10]]:9: note: 'gpu.memset' is here
// CHECK: note: in the lowered program mgpuMemset32 runs on stream {{[0-9]+}} and mgpuMemcpy on stream {{[0-9]+}}, with no mgpuStreamWaitEvent between them
// CHECK-NEXT: note: witness: --sched=serial
// CHECK: note: witness: --sched=random:

func.func @main() {
  %f = arith.constant 2.0 : f32
  %h = memref.alloc() : memref<4xf32>
  %a = gpu.wait async
  %d, %t1 = gpu.alloc async [%a] () : memref<4xf32>
  %m1 = gpu.memset async [%t1] %d, %f : memref<4xf32>, f32
  %b = gpu.wait async [%m1]
  %c = gpu.memcpy async [%b] %h, %d : memref<4xf32>, memref<4xf32>
  gpu.wait [%c]
  memref.dealloc %h : memref<4xf32>
  return
}
