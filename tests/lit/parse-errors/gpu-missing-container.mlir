// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --emit=mlir %s 2>&1 | FileCheck --strict-whitespace %s
// RUN: not %mlir_opt %s 2>&1 | FileCheck --strict-whitespace %s
// gpu.launch_func in a module without gpu.container_module (verifier).
// CHECK: {{.*}}gpu-missing-container.mlir:15:3: error: 'gpu.launch_func' op expected the closest surrounding module to have the 'gpu.container_module' attribute
// CHECK-NEXT: {{^}}  gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
// CHECK-NEXT: {{^}}  ^

gpu.module @kernels {
  gpu.func @k() kernel {
    gpu.return
  }
}
func.func @f() {
  %c1 = arith.constant 1 : index
  gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
  return
}
