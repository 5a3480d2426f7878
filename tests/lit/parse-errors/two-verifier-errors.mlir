// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --emit=mlir %s 2>&1 | FileCheck --strict-whitespace %s
// RUN: not %mlir_opt %s 2>&1 | FileCheck --strict-whitespace %s
// Two independent verifier errors: mlir-opt reports both, so should we.
// CHECK: {{.*}}two-verifier-errors.mlir:12:3: error: type of return operand 0 ('i32') doesn't match function result type ('f32') in function @f
// CHECK-NEXT: {{^}}  return %a : i32
// CHECK-NEXT: {{^}}  ^
// CHECK: {{.*}}two-verifier-errors.mlir:15:3: error: type of return operand 0 ('i64') doesn't match function result type ('f64') in function @g
// CHECK-NEXT: {{^}}  return %a : i64
// CHECK-NEXT: {{^}}  ^

func.func @f(%a: i32) -> f32 {
  return %a : i32
}
func.func @g(%a: i64) -> f64 {
  return %a : i64
}
