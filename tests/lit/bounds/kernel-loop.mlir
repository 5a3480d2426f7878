// A kernel whose threads never leave their loop: every worker stops once the run's steps (or its
// time) are spent, the error names the op each thread was at and the note the first thread and
// the launch. No output after the launch, exit 1, under every scheduler.
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp --max-steps=200000 %s 2>&1 | FileCheck %s --check-prefixes=CHECK,STEPS
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp --sched=serial --max-steps=200000 %s 2>&1 | FileCheck %s --check-prefixes=CHECK,STEPS,LAZY
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp --sched=random:3 --max-steps=200000 %s 2>&1 | FileCheck %s --check-prefixes=CHECK,STEPS,LAZY
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp --timeout=0.3 %s 2>&1 | FileCheck %s --check-prefixes=CHECK,TIME
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp --sched=serial --timeout=0.3 %s 2>&1 | FileCheck %s --check-prefixes=CHECK,TIME
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp --sched=random:5 --timeout=0.3 %s 2>&1 | FileCheck %s --check-prefixes=CHECK,TIME
// The same kernel lowered to llvm + nvvm (an llvm.func with cf-style llvm.br loops):
// RUN: %mlir_opt %s --pass-pipeline="builtin.module(gpu.module(convert-scf-to-cf,convert-gpu-to-nvvm))" -o %t.nvvm.mlir
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp --max-steps=200000 %t.nvvm.mlir 2>&1 | FileCheck %s --check-prefix=NVVM
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp --sched=serial --timeout=0.3 %t.nvvm.mlir 2>&1 | FileCheck %s --check-prefix=NVVM
// NVVM: error: {{step|time}} limit of {{200000|0.3 s}} reached
// NVVM: note: in thread ({{[0-9]+}}, 0, 0) and 63 other threads of block ({{[0-9]+}}, 0, 0), running '{{llvm\.[a-z_]+|nvvm\..*}}' in the kernel launched here
// NVVM-NOT: error:
// STEPS: kernel-loop.mlir:{{(3[1-9]|40)}}:{{[0-9]+}}: error: step limit of 200000 reached
// TIME: kernel-loop.mlir:{{(3[1-9]|40)}}:{{[0-9]+}}: error: time limit of 0.3 s reached
// CHECK: kernel-loop.mlir:[[@LINE+33]]:10: note: in thread ({{[0-9]+}}, 0, 0) and {{[0-9]+}} other threads of block ({{[0-9]+}}, 0, 0), running '{{.*}}' in the kernel launched here
// LAZY-NOT: note: if the kernel waits
// CHECK-NOT: error:
// CHECK-NOT: after
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @spin(%m: memref<?xi64>) kernel {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %bd = gpu.block_dim x
      %i0 = arith.muli %bx, %bd : index
      %i = arith.addi %i0, %tx : index
      %c0 = arith.constant 0 : i64
      %c1 = arith.constant 1 : i64
      %r = scf.while (%x = %c0) : (i64) -> i64 {
        %t = arith.constant true
        scf.condition(%t) %x : i64
      } do {
      ^bb0(%y: i64):
        %z = arith.addi %y, %c1 : i64
        scf.yield %z : i64
      }
      memref.store %r, %m[%i] : memref<?xi64>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %c512 = arith.constant 512 : index
    %m = gpu.alloc (%c512) : memref<?xi64>
    %t = gpu.wait async
    %k = gpu.launch_func async [%t] @k::@spin blocks in (%c8, %c1, %c1) threads in (%c64, %c1, %c1) args(%m : memref<?xi64>)
    gpu.wait [%k]
    %after = arith.constant 12345 : i64
    func.call @printI64(%after) : (i64) -> ()
    gpu.dealloc %m : memref<?xi64>
    return
  }
  func.func private @printI64(i64)
}
