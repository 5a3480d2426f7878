// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --emit=mlir %s 2>&1 | FileCheck --strict-whitespace %s
// RUN: not %mlir_opt %s 2>&1 | FileCheck --strict-whitespace %s
// A dense literal with more elements than its type has.
// CHECK: {{.*}}dense-shape-mismatch.mlir:9:23: error: inferred shape of elements literal ([3]) does not match type ([2])
// CHECK-NEXT: {{^}}  %0 = arith.constant dense<[1, 2, 3]> : vector<2xi32>
// CHECK-NEXT: {{^}}                      ^

func.func @f() {
  %0 = arith.constant dense<[1, 2, 3]> : vector<2xi32>
  return
}
