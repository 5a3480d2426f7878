// RUN: %root/tests/corpus-tools/roundtrip.sh %gpuinterp %mlir_opt %s %t
// In the style of mlir/test/Integration/GPU/CUDA/printf.mlir: a gpu.module
// with a kernel that prints its thread id with gpu.printf (integer, float
// and the format string's escapes), launched by gpu.launch_func; plus a
// printf in a gpu.launch region before outlining.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @hello() kernel {
      %tid = gpu.thread_id x
      %i = arith.index_cast %tid : index to i32
      %f = arith.sitofp %i : i32 to f32
      gpu.printf "Hello from %lld, %d, %f\n", %tid, %i, %f : index, i32, f32
      gpu.printf "100%% \"quoted\"\n"
      gpu.return
    }
  }

  func.func @main() {
    %c2 = arith.constant 2 : index
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@hello
        blocks in (%c1, %c1, %c1)
        threads in (%c2, %c1, %c1)
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c1, %sz = %c1) {
      gpu.printf "block %lld thread %lld\n", %bx, %tx : index, index
      gpu.terminator
    }
    return
  }
}
