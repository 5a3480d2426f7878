// mlir-opt 22 checks a gpu.launch_func's operands against its kernel only when the launch is
// directly in a function of the module; gpuinterp checks every launch, here one in a loop, since
// running it would hand the kernel a buffer of another type.
// RUN: %mlir_opt %s -o /dev/null
// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp %s 2>&1 | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @kern {
    gpu.func @fn(%buf : memref<4xf32>) kernel {
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %buf = memref.alloc() : memref<8xf32>
    scf.for %i = %c0 to %c1 step %c1 {
      // CHECK: gpu-launch-args-nested.mlir:[[# @LINE + 1]]:7: error: 'gpu.launch_func' op type of function argument 0 does not match
      gpu.launch_func @kern::@fn blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%buf : memref<8xf32>)
    }
    memref.dealloc %buf : memref<8xf32>
    return
  }
}
