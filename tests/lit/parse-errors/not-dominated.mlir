// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --emit=mlir %s 2>&1 | FileCheck --strict-whitespace %s
// RUN: not %mlir_opt %s 2>&1 | FileCheck --strict-whitespace %s
// A use before its definition in the same block (parses; fails to verify).
// CHECK: {{.*}}not-dominated.mlir:9:8: error: operand #0 does not dominate this use
// CHECK-NEXT: {{^}}  %0 = arith.addi %1, %a : i32
// CHECK-NEXT: {{^}}       ^

func.func @f(%a: i32) -> i32 {
  %0 = arith.addi %1, %a : i32
  %1 = arith.muli %a, %a : i32
  return %0 : i32
}
