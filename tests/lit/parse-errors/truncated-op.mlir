// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --emit=mlir %s 2>&1 | FileCheck --strict-whitespace %s
// RUN: not %mlir_opt %s 2>&1 | FileCheck --strict-whitespace %s
// The file ends in the middle of an op.
// CHECK: {{.*}}truncated-op.mlir:9:22: error: expected SSA operand
// CHECK-NEXT: {{^}}  %0 = arith.addi %a,
// CHECK-NEXT: {{^}}                     ^

func.func @f(%a: i32) -> i32 {
  %0 = arith.addi %a,
