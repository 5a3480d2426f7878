// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --emit=mlir %s 2>&1 | FileCheck --strict-whitespace %s
// RUN: not %mlir_opt %s 2>&1 | FileCheck --strict-whitespace %s
// An op name that its (known) dialect does not define.
// CHECK: {{.*}}unknown-op-in-dialect.mlir:9:8: error: custom op 'arith.frobnicate' is unknown
// CHECK-NEXT: {{^}}  %0 = arith.frobnicate : i32
// CHECK-NEXT: {{^}}       ^

func.func @f() {
  %0 = arith.frobnicate : i32
  return
}
