// Checks the compiler's output and runs nothing: run-upstream.sh skips it.
// RUN: mlir-opt %s -gpu-lower-to-nvvm-pipeline="cubin-format=isa" | FileCheck %s
// CHECK: gpu.binary
gpu.module @m {
  llvm.func @k() attributes {gpu.kernel} {
    llvm.return
  }
}
