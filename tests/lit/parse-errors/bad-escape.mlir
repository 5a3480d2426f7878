// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --emit=mlir %s 2>&1 | FileCheck --strict-whitespace %s
// RUN: not %mlir_opt %s 2>&1 | FileCheck --strict-whitespace %s
// An escape sequence that MLIR strings do not have.
// CHECK: {{.*}}bad-escape.mlir:8:39: error: unknown escape in string literal
// CHECK-NEXT: {{^}}func.func @f() attributes {x.s = "bad \q escape"} {
// CHECK-NEXT: {{^}}                                      ^

func.func @f() attributes {x.s = "bad \q escape"} {
  return
}
