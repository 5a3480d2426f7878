// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --emit=mlir %s 2>&1 | FileCheck --strict-whitespace %s
// RUN: not %mlir_opt %s 2>&1 | FileCheck --strict-whitespace %s
// A custom op whose trailing type is missing.
// CHECK: {{.*}}missing-type.mlir:9:25: error: expected ':'
// CHECK-NEXT: {{^}}  %0 = arith.addi %a, %a
// CHECK-NEXT: {{^}}                        ^

func.func @f(%a: i32) {
  %0 = arith.addi %a, %a
  return
}
