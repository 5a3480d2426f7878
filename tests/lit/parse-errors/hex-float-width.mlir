// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --emit=mlir %s 2>&1 | FileCheck --strict-whitespace %s
// RUN: not %mlir_opt %s 2>&1 | FileCheck --strict-whitespace %s
// A hex float literal with more bits than its type.
// CHECK: {{.*}}hex-float-width.mlir:9:23: error: hexadecimal float constant out of range for type
// CHECK-NEXT: {{^}}  %0 = arith.constant 0x7FF0000000000000 : f32
// CHECK-NEXT: {{^}}                      ^

func.func @f() {
  %0 = arith.constant 0x7FF0000000000000 : f32
  return
}
