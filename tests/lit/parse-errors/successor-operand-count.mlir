// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --emit=mlir %s 2>&1 | FileCheck --strict-whitespace %s
// RUN: not %mlir_opt %s 2>&1 | FileCheck --strict-whitespace %s
// A branch passes fewer operands than its target block has arguments (verifier).
// CHECK: {{.*}}successor-operand-count.mlir:9:3: error: branch has 0 operands for successor #0, but target block has 1
// CHECK-NEXT: {{^}}  cf.br ^bb1
// CHECK-NEXT: {{^}}  ^

func.func @f(%a: i32) -> i32 {
  cf.br ^bb1
^bb1(%x: i32):
  return %x : i32
}
