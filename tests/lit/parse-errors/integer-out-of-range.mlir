// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --emit=mlir %s 2>&1 | FileCheck --strict-whitespace %s
// RUN: not %mlir_opt %s 2>&1 | FileCheck --strict-whitespace %s
// An integer literal that does not fit its type.
// CHECK: {{.*}}integer-out-of-range.mlir:9:23: error: integer constant out of range for attribute
// CHECK-NEXT: {{^}}  %0 = arith.constant 256 : i8
// CHECK-NEXT: {{^}}                      ^

func.func @f() {
  %0 = arith.constant 256 : i8
  return
}
