// Needs tensor cores: run-upstream.sh skips it.
// RUN: mlir-opt %s -gpu-lower-to-nvvm-pipeline | mlir-runner --entry-point-result=void | FileCheck %s
// CHECK: never checked
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %m = memref.alloc() : memref<16x16xf16>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %a = gpu.subgroup_mma_load_matrix %m[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
    gpu.terminator
  }
  return
}
