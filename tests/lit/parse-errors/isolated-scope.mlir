// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --emit=mlir %s 2>&1 | FileCheck --strict-whitespace %s
// RUN: not %mlir_opt %s 2>&1 | FileCheck --strict-whitespace %s
// An isolated-from-above op (func.func) cannot see the enclosing function's values.
// CHECK: {{.*}}isolated-scope.mlir:11:7: error: 'func.return' op using value defined outside the region
// CHECK-NEXT: {{^}}      return %a : i32
// CHECK-NEXT: {{^}}      ^

func.func @outer(%a: i32) {
  builtin.module {
    func.func @inner() -> i32 {
      return %a : i32
    }
  }
  return
}
