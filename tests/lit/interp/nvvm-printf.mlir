// gpu.printf in both kernel forms: lowered, it is a call to vprintf with a constant format string
// global and the values in an llvm.alloca'd struct (floats passed as f64). Both forms print the
// same lines (serial schedule: blocks in order).
// RUN: %gpuinterp --sched=serial %s | FileCheck %s
// RUN: %mlir_opt %s --pass-pipeline='builtin.module(gpu.module(convert-gpu-to-nvvm))' -o %t.mlir
// RUN: FileCheck --check-prefix=LOWERED %s < %t.mlir
// RUN: %gpuinterp --sched=serial %t.mlir | FileCheck %s
// LOWERED: llvm.call @vprintf
// CHECK: block 0 thread 0: 0.000000 4294967295 ffffffff 0.00e+00|
// CHECK-NEXT: block 0 thread 1: 1.000000 4294967294 fffffffe 1.00e+00|
// CHECK-NEXT: block 0 thread 2: 2.000000 4294967293 fffffffd 2.00e+00|
// CHECK-NEXT: hello from block 0
// CHECK-NEXT: block 1 thread 0: 0.000000 4294967295 ffffffff 0.00e+00|
// CHECK-NEXT: block 1 thread 1: 1.000000 4294967294 fffffffe 1.00e+00|
// CHECK-NEXT: block 1 thread 2: 2.000000 4294967293 fffffffd 2.00e+00|
// CHECK-NEXT: hello from block 1
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @p() kernel {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %t = arith.index_cast %tx : index to i32
      %b = arith.index_cast %bx : index to i64
      %f = arith.sitofp %t : i32 to f32
      %m = arith.constant -1 : i32
      %n = arith.subi %m, %t : i32
      gpu.printf "block %lld thread %d: %f %u %x %5.2e|\n", %b, %t, %f, %n, %n, %f : i64, i32, f32, i32, i32, f32
      %c0 = arith.constant 0 : index
      %is0 = arith.cmpi eq, %tx, %c0 : index
      scf.if %is0 {
        gpu.printf "hello from block %d\n", %b : i64
      }
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    gpu.launch_func @k::@p blocks in (%c2, %c1, %c1) threads in (%c3, %c1, %c1)
    return
  }
}
