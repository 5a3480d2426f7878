// RUN: %gpuinterp --emit=mlir %s | FileCheck %s
// RUN: %mlir_opt %s | FileCheck %s
// A memref's integer memory space prints without its type when that is i64, as mlir-opt prints
// it; other types, and other attributes, print whole. Both tools print the same text.

// CHECK: %arg0: memref<2x3xf32, 3>, %arg1: memref<*xf32, 3>, %arg2: memref<2xf32, 5 : i32>, %arg3: memref<2xf32, #gpu.address_space<workgroup>>, %arg4: tensor<2xf32, 3 : i64>
func.func @f(%a: memref<2x3xf32, 3 : i64>, %b: memref<*xf32, 3>, %c: memref<2xf32, 5 : i32>,
             %d: memref<2xf32, #gpu.address_space<workgroup>>, %e: tensor<2xf32, 3>) {
  return
}
