// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --emit=mlir %s 2>&1 | FileCheck --strict-whitespace %s
// RUN: not %mlir_opt %s 2>&1 | FileCheck --strict-whitespace %s
// A location that is never closed.
// CHECK: {{.*}}unterminated-loc.mlir:9:26: error: expected ')' in location
// CHECK-NEXT: {{^}}  return loc("file.c":1:2
// CHECK-NEXT: {{^}}                         ^

func.func @f() {
  return loc("file.c":1:2
}
