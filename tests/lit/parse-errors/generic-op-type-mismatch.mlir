// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --emit=mlir %s 2>&1 | FileCheck --strict-whitespace %s
// RUN: not %mlir_opt %s 2>&1 | FileCheck --strict-whitespace %s
// A generic op whose functional type does not match its operand count.
// CHECK: {{.*}}generic-op-type-mismatch.mlir:9:31: error: expected 2 operand types but had 1
// CHECK-NEXT: {{^}}  %0 = "arith.addi"(%a, %a) : (i32) -> i32
// CHECK-NEXT: {{^}}                              ^

func.func @f(%a: i32) {
  %0 = "arith.addi"(%a, %a) : (i32) -> i32
  return
}
