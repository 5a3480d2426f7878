// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --emit=mlir %s 2>&1 | FileCheck --strict-whitespace %s
// RUN: not %mlir_opt %s 2>&1 | FileCheck --strict-whitespace %s
// func.call disagrees with the callee's signature (a verifier error).
// CHECK: {{.*}}call-type-mismatch.mlir:10:3: error: 'func.call' op operand type mismatch: expected operand type 'f32', but provided 'i32' for operand number 0
// CHECK-NEXT: {{^}}  func.call @g(%a) : (i32) -> ()
// CHECK-NEXT: {{^}}  ^

func.func private @g(f32) -> ()
func.func @f(%a: i32) {
  func.call @g(%a) : (i32) -> ()
  return
}
