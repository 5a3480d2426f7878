// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --emit=mlir %s 2>&1 | FileCheck --strict-whitespace %s
// RUN: not %mlir_opt %s 2>&1 | FileCheck --strict-whitespace %s
// Two functions with the same symbol name in one module (verifier).
// CHECK: {{.*}}symbol-redefinition.mlir:11:1: error: redefinition of symbol named 'f'
// CHECK-NEXT: {{^}}func.func @f() {
// CHECK-NEXT: {{^}}^

func.func @f() {
  return
}
func.func @f() {
  return
}
