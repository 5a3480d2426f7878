// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --emit=mlir %s 2>&1 | FileCheck --strict-whitespace %s
// RUN: not %mlir_opt %s 2>&1 | FileCheck --strict-whitespace %s
// A branch to a block label that does not exist in the region.
// CHECK: {{.*}}undefined-successor.mlir:9:9: error: reference to an undefined block
// CHECK-NEXT: {{^}}  cf.br ^nowhere
// CHECK-NEXT: {{^}}        ^

func.func @f() {
  cf.br ^nowhere
}
