// A program the verifier rejects does not run: gpuinterp exits 2 with nothing on stdout, though
// main prints before its launch. Here a memref<8xf32> goes to a kernel parameter of type
// memref<4xf32>, which mlir-opt 22 rejects too.
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %mlir_opt %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp %s 2>%t.err | count 0
// RUN: FileCheck %s < %t.err
// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --sched=serial %s 2>&1 | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @fill(%buf : memref<4xf32>) kernel {
      %i = gpu.thread_id x
      %one = arith.constant 1.0 : f32
      memref.store %one, %buf[%i] : memref<4xf32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %v = arith.constant 42 : i32
    vector.print %v : i32
    %buf = gpu.alloc () : memref<8xf32>
    // CHECK: gpu-invalid-run.mlir:[[# @LINE + 1]]:5: error: 'gpu.launch_func' op type of function argument 0 does not match
    gpu.launch_func @kernels::@fill blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%buf : memref<8xf32>)
    gpu.dealloc %buf : memref<8xf32>
    return
  }
}
