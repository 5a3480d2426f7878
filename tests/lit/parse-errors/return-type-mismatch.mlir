// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --emit=mlir %s 2>&1 | FileCheck --strict-whitespace %s
// RUN: not %mlir_opt %s 2>&1 | FileCheck --strict-whitespace %s
// func.return disagrees with the function's signature (a verifier error).
// CHECK: {{.*}}return-type-mismatch.mlir:9:3: error: type of return operand 0 ('i32') doesn't match function result type ('f32') in function @f
// CHECK-NEXT: {{^}}  return %a : i32
// CHECK-NEXT: {{^}}  ^

func.func @f(%a: i32) -> f32 {
  return %a : i32
}
