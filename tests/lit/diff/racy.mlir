// The reference must be race-free: a program whose own memsets race is reported as such, exit 1.
// RUN: %mlir_opt --gpu-to-llvm -mlir-print-debuginfo %s -o %t.ll.mlir
// RUN: not %gpuinterp --diff %s --against %t.ll.mlir 2> %t.err | count 0
// RUN: FileCheck %s < %t.err
// CHECK: racy.mlir:[[#@LINE+10]]:9: error: the program has a race of its own: data race (write-write){{.*}}(the reference must be race-free)
// CHECK: racy.mlir:[[#@LINE+8]]:9: note: the other party
// CHECK: note: witness: --sched=serial

func.func @main() {
  %f = arith.constant 2.0 : f32
  %g = arith.constant 3.0 : f32
  %a = gpu.wait async
  %d, %t1 = gpu.alloc async [%a] () : memref<4xf32>
  %m1 = gpu.memset async [%t1] %d, %f : memref<4xf32>, f32
  %m2 = gpu.memset async [%t1] %d, %g : memref<4xf32>, f32
  %x = gpu.dealloc async [%m1, %m2] %d : memref<4xf32>
  gpu.wait [%x]
  return
}
