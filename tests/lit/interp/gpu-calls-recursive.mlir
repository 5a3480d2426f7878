// A recursive call in a kernel is reported before anything runs (kernels run their callees in
// place).
// RUN: not %gpuinterp %s 2>&1 | FileCheck %s
// CHECK: gpu-calls-recursive.mlir:[[@LINE+5]]:12: error: 'func.call' op a recursive call is not supported in kernels yet
// CHECK-NOT: 12345
module attributes {gpu.container_module} {
  gpu.module @k {
    func.func @down(%x: i32) -> i32 {
      %r = func.call @down(%x) : (i32) -> i32
      return %r : i32
    }
    gpu.func @rec() kernel {
      %z = arith.constant 0 : i32
      %r = func.call @down(%z) : (i32) -> i32
      gpu.return
    }
  }
  func.func private @printI64(i64)
  func.func @main() {
    %n = arith.constant 12345 : i64
    func.call @printI64(%n) : (i64) -> ()
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@rec blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}
