// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --emit=mlir %s 2>&1 | FileCheck --strict-whitespace %s
// RUN: not %mlir_opt %s 2>&1 | FileCheck --strict-whitespace %s
// memref.expand_shape of a static source into a dynamic group (a verifier error).
// CHECK: {{.*}}expand-shape-dynamic-group.mlir:9:8: error: 'memref.expand_shape' op collapsed dim (0) must be dynamic if and only if reassociation group is dynamic
// CHECK-NEXT: {{^}}  %0 = memref.expand_shape %m {{\[\[}}0, 1]] output_shape [%n, 4] : memref<8xf32> into memref<?x4xf32>
// CHECK-NEXT: {{^}}       ^

func.func @f(%m: memref<8xf32>, %n: index) {
  %0 = memref.expand_shape %m [[0, 1]] output_shape [%n, 4] : memref<8xf32> into memref<?x4xf32>
  return
}
