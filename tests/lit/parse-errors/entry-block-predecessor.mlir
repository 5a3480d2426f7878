// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --emit=mlir %s 2>&1 | FileCheck --strict-whitespace %s
// RUN: not %mlir_opt %s 2>&1 | FileCheck --strict-whitespace %s
// A branch back to the entry block, which has a label here (verifier).
// CHECK: {{.*}}entry-block-predecessor.mlir:8:1: error: entry block of region may not have predecessors
// CHECK-NEXT: {{^}}func.func @f() {
// CHECK-NEXT: {{^}}^

func.func @f() {
^entry:
  cf.br ^entry
}
