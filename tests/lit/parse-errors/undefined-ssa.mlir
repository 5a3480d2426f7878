// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --emit=mlir %s 2>&1 | FileCheck --strict-whitespace %s
// RUN: not %mlir_opt %s 2>&1 | FileCheck --strict-whitespace %s
// A use of a value that is never defined.
// CHECK: {{.*}}undefined-ssa.mlir:9:23: error: use of undeclared SSA value name
// CHECK-NEXT: {{^}}  %0 = arith.addi %a, %missing : i32
// CHECK-NEXT: {{^}}                      ^

func.func @f(%a: i32) -> i32 {
  %0 = arith.addi %a, %missing : i32
  return %0 : i32
}
