// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --split-input-file --emit=mlir %s 2>&1 | FileCheck %s
// RUN: not %mlir_opt --split-input-file %s 2>&1 | FileCheck %s
// operandSegmentSizes in a generic op's <{properties}> has one entry per operand segment of the
// op (memref.subview 4, gpu.launch_func 13, ...), as MLIR reads properties into the op; one of
// the wrong length in the attribute dictionary is dropped, as MLIR drops it.

// CHECK: segment-sizes-properties.mlir:[[# @LINE + 2]]:3: error: invalid properties {operandSegmentSizes = array<i32: 1, 0, 0>, static_offsets = array<i64: 0>, static_sizes = array<i64: 2>, static_strides = array<i64: 1>} for op memref.subview: size mismatch in attribute conversion: 3 vs 4
func.func @short(%a: memref<4xf32>) {
  "memref.subview"(%a) <{operandSegmentSizes = array<i32: 1, 0, 0>, static_offsets = array<i64: 0>, static_sizes = array<i64: 2>, static_strides = array<i64: 1>}> : (memref<4xf32>) -> memref<2xf32, strided<[1]>>
  return
}

// -----

// CHECK: segment-sizes-properties.mlir:[[# @LINE + 2]]:8: error: invalid properties {operandSegmentSizes = array<i32: 1, 0, 0, 0, 0>} for op memref.alloc: size mismatch in attribute conversion: 5 vs 2
func.func @long(%n: index) {
  %0 = "memref.alloc"(%n) <{operandSegmentSizes = array<i32: 1, 0, 0, 0, 0>}> : (index) -> memref<?xf32>
  return
}

// -----

// CHECK: segment-sizes-properties.mlir:[[# @LINE + 1]]:1: error: invalid properties {operandSegmentSizes = array<i32: 0, 0>} for op gpu.launch_func: size mismatch in attribute conversion: 2 vs 13
"gpu.launch_func"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> ()

// -----

// In the attribute dictionary instead, a wrong length is dropped: the segments are empty, and the
// verifier compares that with the operands.
// CHECK: segment-sizes-properties.mlir:[[# @LINE + 2]]:3: error: 'memref.subview' op operand count (1) does not match with the total size (0) specified in attribute 'operandSegmentSizes'
func.func @in_dictionary(%a: memref<4xf32>) {
  "memref.subview"(%a) {operandSegmentSizes = array<i32: 1, 0, 0, 0, 0>, static_offsets = array<i64: 0>, static_sizes = array<i64: 2>, static_strides = array<i64: 1>} : (memref<4xf32>) -> memref<2xf32, strided<[1]>>
  return
}

// -----

// CHECK-NOT: error:
func.func @ok(%a: memref<4xf32>, %n: index) {
  %0 = "memref.subview"(%a) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>, static_offsets = array<i64: 0>, static_sizes = array<i64: 2>, static_strides = array<i64: 1>}> : (memref<4xf32>) -> memref<2xf32, strided<[1]>>
  %1 = "memref.alloc"(%n) <{operandSegmentSizes = array<i32: 1, 0>}> : (index) -> memref<?xf32>
  %2 = "memref.alloc"() {operandSegmentSizes = array<i32: 0, 0, 0>} : () -> memref<4xf32>
  return
}
