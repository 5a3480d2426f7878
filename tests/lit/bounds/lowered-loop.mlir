// The lowered form: a host loop that never ends after device work, once lowered by upstream
// all the way to the llvm dialect (llvm.br loops, llvm.call @mgpu*) and once by --lower. Both
// stop at the bound with the host's note; the device work before the loop is done (no pending op).
// RUN: %mlir_opt %s --convert-scf-to-cf --gpu-to-llvm --finalize-memref-to-llvm --convert-arith-to-llvm --convert-index-to-llvm --convert-cf-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts -o %t.llvm.mlir
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp --max-steps=5000 %t.llvm.mlir 2>&1 | FileCheck %s --check-prefix=LLVM
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp --sched=serial --timeout=0.2 %t.llvm.mlir 2>&1 | FileCheck %s --check-prefix=LLVM
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp --sched=random:4 --max-steps=5000 %t.llvm.mlir 2>&1 | FileCheck %s --check-prefix=LLVM
// RUN: %gpuinterp --lower %s -o %t.ours.mlir
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp --max-steps=5000 %t.ours.mlir 2>&1 | FileCheck %s --check-prefix=OURS
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp --sched=random:4 --timeout=0.2 %t.ours.mlir 2>&1 | FileCheck %s --check-prefix=OURS
// RUN: FileCheck %s --check-prefix=LLVM-IR < %t.llvm.mlir
// LLVM-IR: llvm.call @mgpuMemcpy
// LLVM-IR: llvm.br
// LLVM: error: {{step|time}} limit of {{5000|0.2 s}} reached
// LLVM: note: on the host, running 'llvm.{{[a-z_]+}}' in '@main'
// LLVM-NOT: spin-waiting
// LLVM-NOT: error:
// OURS: lowered-loop.mlir:{{3[3-9]}}:{{[0-9]+}}: error: {{step|time}} limit of {{5000|0.2 s}} reached
// OURS: note: on the host, running '{{.*}}' in '@main'
// OURS-NOT: spin-waiting
// OURS-NOT: error:
func.func @main() {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %h = memref.alloc() : memref<4xf32>
  %c0f = arith.constant 0.0 : f32
  %t0 = gpu.wait async
  %d, %t1 = gpu.alloc async [%t0] () : memref<4xf32>
  %t2 = gpu.memset async [%t1] %d, %c0f : memref<4xf32>, f32
  %t3 = gpu.memcpy async [%t2] %h, %d : memref<4xf32>, memref<4xf32>
  gpu.wait [%t3]
  %c1 = arith.constant 1 : index
  %r = scf.while (%i = %c0) : (index) -> index {
    %t = arith.constant true
    scf.condition(%t) %i : index
  } do {
  ^bb0(%j: index):
    %n = arith.addi %j, %c1 : index
    scf.yield %n : index
  }
  %t4 = gpu.wait async
  %t5 = gpu.dealloc async [%t4] %d : memref<4xf32>
  gpu.wait [%t5]
  memref.dealloc %h : memref<4xf32>
  return
}
