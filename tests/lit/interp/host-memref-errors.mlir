// Misuse of host memory is a located error and the run exits 1.
// RUN: split-file --leading-lines %s %t
// RUN: not %gpuinterp %t/double-free.mlir 2>&1 | FileCheck %s --check-prefix=FREE
// RUN: not %gpuinterp %t/alloca-free.mlir 2>&1 | FileCheck %s --check-prefix=ALLOCA
// RUN: not %gpuinterp %t/atomic-oob.mlir 2>&1 | FileCheck %s --check-prefix=ATOMIC
// RUN: not %gpuinterp %t/view.mlir 2>&1 | FileCheck %s --check-prefix=VIEW
// RUN: not %gpuinterp %t/expand.mlir 2>&1 | FileCheck %s --check-prefix=EXPAND

//--- double-free.mlir
// FREE: double-free.mlir:[[@LINE+4]]:3: error: 'memref.dealloc' op frees memory that is not a live allocation (double free?)
func.func @main() {
  %a = memref.alloc() : memref<4xf32>
  memref.dealloc %a : memref<4xf32>
  memref.dealloc %a : memref<4xf32>
  return
}

//--- alloca-free.mlir
// ALLOCA: alloca-free.mlir:[[@LINE+3]]:3: error: 'memref.dealloc' op frees memory that is not a live allocation
func.func @main() {
  %a = memref.alloca() : memref<4xf32>
  memref.dealloc %a : memref<4xf32>
  return
}

//--- atomic-oob.mlir
// ATOMIC: atomic-oob.mlir:[[@LINE+5]]:8: error: 'memref.atomic_rmw' op out-of-bounds access: index 4 is not in [0, 4) in dimension 0
func.func @main() {
  %c4 = arith.constant 4 : index
  %one = arith.constant 1 : i32
  %a = memref.alloc() : memref<4xi32>
  %o = memref.atomic_rmw addi %one, %a[%c4] : (i32, memref<4xi32>) -> i32
  return
}

//--- view.mlir
// VIEW: view.mlir:[[@LINE+5]]:8: error: 'memref.view' op a view of 64 bytes at byte 8 does not fit in the 64-byte buffer
func.func @main() {
  %c8 = arith.constant 8 : index
  %c4 = arith.constant 4 : index
  %b = memref.alloc() : memref<64xi8>
  %v = memref.view %b[%c8][%c4] : memref<64xi8> to memref<?x4xf32>
  return
}

//--- expand.mlir
// EXPAND: expand.mlir:[[@LINE+5]]:8: error: 'memref.expand_shape' op the output shape does not cover dimension 0 of the source (15 elements vs 12)
func.func @main() {
  %c5 = arith.constant 5 : index
  %a = memref.alloc() : memref<12xf32>
  %d = memref.cast %a : memref<12xf32> to memref<?xf32>
  %e = memref.expand_shape %d [[0, 1]] output_shape [3, %c5] : memref<?xf32> into memref<3x?xf32>
  return
}
