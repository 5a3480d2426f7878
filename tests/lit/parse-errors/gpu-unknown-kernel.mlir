// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --emit=mlir %s 2>&1 | FileCheck --strict-whitespace %s
// RUN: not %mlir_opt %s 2>&1 | FileCheck --strict-whitespace %s
// gpu.launch_func of a kernel that its gpu.module does not have (verifier).
// CHECK: {{.*}}gpu-unknown-kernel.mlir:16:5: error: 'gpu.launch_func' op kernel function '@kernels::@nope' is undefined
// CHECK-NEXT: {{^}}    gpu.launch_func @kernels::@nope blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
// CHECK-NEXT: {{^}}    ^

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  func.func @f() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@nope blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}
