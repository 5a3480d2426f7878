// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --emit=mlir %s 2>&1 | FileCheck --strict-whitespace %s
// RUN: not %mlir_opt %s 2>&1 | FileCheck --strict-whitespace %s
// A string literal that runs to the end of its line.
// CHECK: {{.*}}unterminated-string.mlir:8:50: error: expected '"' in string literal
// CHECK-NEXT: {{^}}func.func @f() attributes {x.s = "never closed} {
// CHECK-NEXT: {{^}}                                                 ^

func.func @f() attributes {x.s = "never closed} {
  return
}
