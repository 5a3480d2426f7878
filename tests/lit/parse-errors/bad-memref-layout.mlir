// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --emit=mlir %s 2>&1 | FileCheck --strict-whitespace %s
// RUN: not %mlir_opt %s 2>&1 | FileCheck --strict-whitespace %s
// A strided layout whose rank differs from the memref's.
// CHECK: {{.*}}bad-memref-layout.mlir:8:22: error: expected the number of strides to match the rank
// CHECK-NEXT: {{^}}func.func private @f(memref<4xf32, strided<[1, 2]>>)
// CHECK-NEXT: {{^}}                     ^

func.func private @f(memref<4xf32, strided<[1, 2]>>)
