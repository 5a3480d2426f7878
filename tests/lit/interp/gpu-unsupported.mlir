// Launch forms the interpreter cannot run are reported before anything runs: clusters, and
// gpu.launch_func on an object other than an !llvm.ptr stream.
// RUN: not %gpuinterp %s 2>&1 | FileCheck %s
// CHECK: gpu-unsupported.mlir:[[@LINE+15]]:5: error: 'gpu.launch_func' op a launch with clusters is not supported by the interpreter yet
// CHECK: gpu-unsupported.mlir:[[@LINE+15]]:5: error: 'gpu.launch_func' op gpu.launch_func on an object that is not an !llvm.ptr stream is not supported by the interpreter yet
// CHECK: gpu-unsupported.mlir:[[@LINE+15]]:5: error: 'gpu.launch' op a launch with clusters is not supported by the interpreter yet
// CHECK-NOT: 12345
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f() kernel {
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %s = arith.constant 0 : i64
    %num = arith.constant 12345 : i64
    func.call @printI64(%num) : (i64) -> ()
    gpu.launch_func @k::@f clusters in (%c1, %c1, %c1) blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func <%s : i64> @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch clusters(%a, %b, %c) in (%d = %c1, %e = %c1, %f = %c1) blocks(%g, %h, %i) in (%j = %c1, %k = %c1, %l = %c1) threads(%m, %n, %o) in (%p = %c1, %q = %c1, %r = %c1) {
      gpu.terminator
    }
    return
  }
  func.func private @printI64(i64)
}
