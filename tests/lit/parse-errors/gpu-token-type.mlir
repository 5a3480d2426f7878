// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --emit=mlir %s 2>&1 | FileCheck --strict-whitespace %s
// RUN: not %mlir_opt %s 2>&1 | FileCheck --strict-whitespace %s
// A gpu.wait dependency that is not a !gpu.async.token.
// CHECK: {{.*}}gpu-token-type.mlir:9:24: error: use of value '%x' expects different type than prior uses: '!gpu.async.token' vs 'i32'
// CHECK-NEXT: {{^}}  %t = gpu.wait async [%x]
// CHECK-NEXT: {{^}}                       ^

func.func @f(%x: i32) {
  %t = gpu.wait async [%x]
  return
}
