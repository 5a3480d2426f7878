// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --emit=mlir %s 2>&1 | FileCheck --strict-whitespace %s
// RUN: not %mlir_opt %s 2>&1 | FileCheck --strict-whitespace %s
// The same key twice in one attribute dictionary.
// CHECK: {{.*}}duplicate-attribute.mlir:8:37: error: duplicate key 'x.a' in dictionary attribute
// CHECK-NEXT: {{^}}func.func @f() attributes {x.a = 1, x.a = 2} {
// CHECK-NEXT: {{^}}                                    ^

func.func @f() attributes {x.a = 1, x.a = 2} {
  return
}
