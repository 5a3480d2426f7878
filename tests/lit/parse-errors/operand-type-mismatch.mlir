// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --emit=mlir %s 2>&1 | FileCheck --strict-whitespace %s
// RUN: not %mlir_opt %s 2>&1 | FileCheck --strict-whitespace %s
// An operand used with a type other than the one its definition gives it.
// CHECK: {{.*}}operand-type-mismatch.mlir:9:19: error: use of value '%a' expects different type than prior uses: 'i32' vs 'f32'
// CHECK-NEXT: {{^}}  %0 = arith.addi %a, %a : i32
// CHECK-NEXT: {{^}}                  ^

func.func @f(%a: f32) -> i32 {
  %0 = arith.addi %a, %a : i32
  return %0 : i32
}
