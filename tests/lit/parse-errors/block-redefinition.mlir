// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --emit=mlir %s 2>&1 | FileCheck --strict-whitespace %s
// RUN: not %mlir_opt %s 2>&1 | FileCheck --strict-whitespace %s
// The same block label defined twice.
// CHECK: {{.*}}block-redefinition.mlir:12:1: error: redefinition of block '^bb1'
// CHECK-NEXT: {{^}}^bb1:
// CHECK-NEXT: {{^}}^

func.func @f() {
  cf.br ^bb1
^bb1:
  cf.br ^bb1
^bb1:
  return
}
