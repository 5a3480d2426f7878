// gpu.printf formats like CUDA's printf: each thread prints its line, integers by their width,
// floats as double (upstream's Integration/GPU/CUDA/printf.mlir, plus more conversions).
// RUN: %gpuinterp %s | FileCheck %s
// CHECK: Hello from 0, 2, 3.000000
// CHECK-NEXT: Hello from 1, 2, 3.000000
// Blocks may run in any order; a block's threads print in order.
// CHECK-DAG: block 0 thread 0: 0x10 -1 4294967295 2.50e+00 [   7] 100%
// CHECK-DAG: block 0 thread 1: 0x10 -1 4294967295 2.50e+00 [   7] 100%
// CHECK-DAG: block 1 thread 0: 0x10 -1 4294967295 2.50e+00 [   7] 100%
// CHECK-DAG: block 1 thread 1: 0x10 -1 4294967295 2.50e+00 [   7] 100%
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @hello() kernel {
      %0 = gpu.thread_id x
      %csti8 = arith.constant 2 : i8
      %cstf32 = arith.constant 3.0 : f32
      gpu.printf "Hello from %lld, %d, %f\n", %0, %csti8, %cstf32 : index, i8, f32
      gpu.return
    }
    gpu.func @more() kernel {
      %b = gpu.block_id x
      %t = gpu.thread_id x
      %x = arith.constant 16 : i32
      %m = arith.constant -1 : i32
      %f = arith.constant 2.5 : f64
      %seven = arith.constant 7 : i64
      gpu.printf "block %lld thread %lld: %#x %d %u %.2e [%4ld] 100%%\n", %b, %t, %x, %m, %m, %f, %seven : index, index, i32, i32, i32, f64, i64
      gpu.return
    }
  }

  func.func @main() {
    %c2 = arith.constant 2 : index
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@hello blocks in (%c1, %c1, %c1) threads in (%c2, %c1, %c1)
    %t = gpu.wait async
    %g = gpu.launch_func async [%t] @kernels::@more blocks in (%c2, %c1, %c1) threads in (%c2, %c1, %c1)
    gpu.wait [%g]
    return
  }
}
