// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --emit=mlir %s 2>&1 | FileCheck --strict-whitespace %s
// RUN: not %mlir_opt %s 2>&1 | FileCheck --strict-whitespace %s
// A value defined inside an scf.if region used after the op: region scope.
// CHECK: {{.*}}region-scope-escape.mlir:12:10: error: use of undeclared SSA value name
// CHECK-NEXT: {{^}}  return %inner : i32
// CHECK-NEXT: {{^}}         ^

func.func @f(%c: i1) -> i32 {
  scf.if %c {
    %inner = arith.constant 1 : i32
  }
  return %inner : i32
}
