// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --emit=mlir %s 2>&1 | FileCheck --strict-whitespace %s
// RUN: not %mlir_opt %s 2>&1 | FileCheck --strict-whitespace %s
// A region that is never closed: the file ends inside it.
// CHECK: {{.*}}unbalanced-open-brace.mlir:11:4: error: expected operation name in quotes
// CHECK-NEXT: {{^}}  }
// CHECK-NEXT: {{^}}   ^

module {
  func.func @f() {
    return
  }
