// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --emit=mlir %s 2>&1 | FileCheck --strict-whitespace %s
// RUN: not %mlir_opt %s 2>&1 | FileCheck --strict-whitespace %s
// A value defined in one branch and used after the join (verifier).
// CHECK: {{.*}}not-dominated-cfg.mlir:14:3: error: operand #0 does not dominate this use
// CHECK-NEXT: {{^}}  return %x : i32
// CHECK-NEXT: {{^}}  ^

func.func @f(%c: i1, %a: i32) -> i32 {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %x = arith.addi %a, %a : i32
  cf.br ^bb2
^bb2:
  return %x : i32
}
