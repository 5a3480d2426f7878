// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --emit=mlir %s 2>&1 | FileCheck --strict-whitespace %s
// RUN: not %mlir_opt %s 2>&1 | FileCheck --strict-whitespace %s
// One closing brace too many.
// CHECK: {{.*}}unbalanced-close-brace.mlir:10:2: error: expected operation name in quotes
// CHECK-NEXT: {{^}}}
// CHECK-NEXT: {{^}} ^

func.func @f() {
  return
}
}
