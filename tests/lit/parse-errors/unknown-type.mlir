// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --emit=mlir %s 2>&1 | FileCheck --strict-whitespace %s
// RUN: not %mlir_opt %s 2>&1 | FileCheck --strict-whitespace %s
// A builtin-looking type keyword that does not exist.
// CHECK: {{.*}}unknown-type.mlir:8:22: error: expected non-function type
// CHECK-NEXT: {{^}}func.func private @f(f31)
// CHECK-NEXT: {{^}}                     ^

func.func private @f(f31)
