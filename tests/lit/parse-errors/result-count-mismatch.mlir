// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --emit=mlir %s 2>&1 | FileCheck --strict-whitespace %s
// RUN: not %mlir_opt %s 2>&1 | FileCheck --strict-whitespace %s
// Binding two results to an op that has one.
// CHECK: {{.*}}result-count-mismatch.mlir:9:3: error: operation defines 1 results but was provided 2 to bind
// CHECK-NEXT: {{^}}  %0:2 = arith.constant 1 : i32
// CHECK-NEXT: {{^}}  ^

func.func @f() {
  %0:2 = arith.constant 1 : i32
  return
}
