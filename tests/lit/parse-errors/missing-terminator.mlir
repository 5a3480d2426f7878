// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --emit=mlir %s 2>&1 | FileCheck --strict-whitespace %s
// RUN: not %mlir_opt %s 2>&1 | FileCheck --strict-whitespace %s
// A function body whose block does not end in a terminator.
// CHECK: {{.*}}missing-terminator.mlir:9:8: error: block with no terminator
// CHECK-NEXT: {{^}}  %0 = arith.addi %a, %a : i32
// CHECK-NEXT: {{^}}       ^

func.func @f(%a: i32) {
  %0 = arith.addi %a, %a : i32
}
