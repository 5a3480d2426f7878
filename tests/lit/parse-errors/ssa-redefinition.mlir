// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --emit=mlir %s 2>&1 | FileCheck --strict-whitespace %s
// RUN: not %mlir_opt %s 2>&1 | FileCheck --strict-whitespace %s
// The same SSA name defined twice in one region.
// CHECK: {{.*}}ssa-redefinition.mlir:10:3: error: redefinition of SSA value '%0'
// CHECK-NEXT: {{^}}  %0 = arith.muli %a, %a : i32
// CHECK-NEXT: {{^}}  ^

func.func @f(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  %0 = arith.muli %a, %a : i32
  return %0 : i32
}
