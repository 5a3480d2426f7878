// What the interpreter cannot run in a kernel lowered to llvm + nvvm is reported before anything
// runs, at the op: a call of an external function other than vprintf and libdevice math, the
// address of a device global (not a constant string, not shared memory), an llvm.alloca of a
// count that is not a constant, an nvvm op it does not know.
// RUN: not %gpuinterp %s 2>&1 | FileCheck %s
// CHECK: nvvm-unsupported.mlir:[[@LINE+10]]:7: error: 'llvm.call' op a call of a function without a body (other than vprintf and libdevice math) is not supported in kernels yet
// CHECK: nvvm-unsupported.mlir:[[@LINE+10]]:12: error: 'llvm.mlir.addressof' op the address of a global that is not a constant string or in shared memory is not supported in kernels yet
// CHECK: nvvm-unsupported.mlir:[[@LINE+10]]:12: error: 'llvm.alloca' op an llvm.alloca whose count is not a constant is not supported in kernels yet
// CHECK: nvvm-unsupported.mlir:[[@LINE+11]]:7: error: 'nvvm.bar.warp.sync' op 'nvvm.bar.warp.sync' is not supported in kernels yet
// CHECK-NOT: 12345
module attributes {gpu.container_module} {
  gpu.module @k {
    llvm.func @helper()
    llvm.mlir.global internal @counter(0 : i32) {addr_space = 1 : i32} : i32
    llvm.func @f(%n: i64) attributes {gpu.kernel, nvvm.kernel} {
      llvm.call @helper() : () -> ()
      %p = llvm.mlir.addressof @counter : !llvm.ptr<1>
      %a = llvm.alloca %n x i32 : (i64) -> !llvm.ptr
      %m = llvm.mlir.constant(-1 : i32) : i32
      nvvm.bar.warp.sync %m : i32
      llvm.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %n = arith.constant 4 : i64
    %num = arith.constant 12345 : i64
    func.call @printI64(%num) : (i64) -> ()
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%n : i64)
    return
  }
  func.func private @printI64(i64)
}
