// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --emit=mlir %s 2>&1 | FileCheck --strict-whitespace %s
// RUN: not %mlir_opt %s 2>&1 | FileCheck --strict-whitespace %s
// An unknown character where a token is expected.
// CHECK: {{.*}}unknown-token.mlir:9:31: error: unexpected character
// CHECK-NEXT: {{^}}  %0 = arith.constant 1 : i32 $
// CHECK-NEXT: {{^}}                              ^

func.func @f() {
  %0 = arith.constant 1 : i32 $
  return
}
