// What vector.gather and vector.scatter report as out of bounds: a set lane whose address holds
// no element of the memref (past its end, before its start, or in the gap between the rows of a
// subview), which upstream's lowering leaves undefined. A masked-off lane may point anywhere.
// RUN: split-file --leading-lines %s %t
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp %t/past-end.mlir 2>&1 | FileCheck %s --check-prefix=END
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp %t/before.mlir 2>&1 | FileCheck %s --check-prefix=BEFORE
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp %t/gap.mlir 2>&1 | FileCheck %s --check-prefix=GAP
// RUN: %gpuinterp %t/masked.mlir | FileCheck %s --check-prefix=MASKED
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp %t/stride.mlir 2>&1 | FileCheck %s --check-prefix=STRIDE

//--- past-end.mlir
// Element 12 of a 3x4 memref is one past its last.
func.func @main() {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %m = memref.alloc() : memref<3x4xf32>
  %idx = arith.constant dense<[0, 3, 4]> : vector<3xi32>
  %mask = arith.constant dense<true> : vector<3xi1>
  %pass = arith.constant dense<0.0> : vector<3xf32>
  // END: past-end.mlir:[[@LINE+1]]:8: error: 'vector.gather' op out-of-bounds access: lane 2, 4 elements from the base indices, addresses no element of the memref
  %g = vector.gather %m[%c2, %c0][%idx], %mask, %pass : memref<3x4xf32>, vector<3xi32>, vector<3xi1>, vector<3xf32> into vector<3xf32>
  vector.print %g : vector<3xf32>
  return
}

//--- before.mlir
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.alloc() : memref<8xi32>
  %idx = arith.constant dense<[0, -1, -2]> : vector<3xindex>
  %mask = arith.constant dense<true> : vector<3xi1>
  %v = arith.constant dense<5> : vector<3xi32>
  // BEFORE: before.mlir:[[@LINE+1]]:3: error: 'vector.scatter' op out-of-bounds access: lane 2, -2 elements from the base indices, addresses no element of the memref
  vector.scatter %m[%c1][%idx], %mask, %v : memref<8xi32>, vector<3xindex>, vector<3xi1>, vector<3xi32>
  return
}

//--- gap.mlir
// A 2x3 window of an 4x8 buffer: elements 3 to 7 after its first one lie between its rows.
func.func @main() {
  %c0 = arith.constant 0 : index
  %m = memref.alloc() : memref<4x8xf32>
  %w = memref.subview %m[1, 2] [2, 3] [1, 1] : memref<4x8xf32> to memref<2x3xf32, strided<[8, 1], offset: 10>>
  %idx = arith.constant dense<[8, 10, 2, 3]> : vector<4xi32>
  %mask = arith.constant dense<true> : vector<4xi1>
  %pass = arith.constant dense<0.0> : vector<4xf32>
  // GAP: gap.mlir:[[@LINE+1]]:8: error: 'vector.gather' op out-of-bounds access: lane 3, 3 elements from the base indices, addresses no element of the memref
  %g = vector.gather %w[%c0, %c0][%idx], %mask, %pass : memref<2x3xf32, strided<[8, 1], offset: 10>>, vector<4xi32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  vector.print %g : vector<4xf32>
  return
}

//--- masked.mlir
// MASKED: ( 0, -3, 0, -3 )
func.func @main() {
  %c0 = arith.constant 0 : index
  %m = memref.alloc() : memref<4xf32>
  %idx = arith.constant dense<[0, 1000000, 3, -7]> : vector<4xi32>
  %mask = arith.constant dense<[true, false, true, false]> : vector<4xi1>
  %pass = arith.constant dense<-3.0> : vector<4xf32>
  %g = vector.gather %m[%c0][%idx], %mask, %pass : memref<4xf32>, vector<4xi32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  vector.print %g : vector<4xf32>
  %v = arith.constant dense<1.0> : vector<4xf32>
  %none = arith.constant dense<false> : vector<4xi1>
  vector.scatter %m[%c0][%idx], %none, %v : memref<4xf32>, vector<4xi32>, vector<4xi1>, vector<4xf32>
  memref.dealloc %m : memref<4xf32>
  return
}

//--- stride.mlir
// Every other element: upstream does not lower a gather whose innermost stride is not 1.
func.func @main() {
  %c0 = arith.constant 0 : index
  %m = memref.alloc() : memref<8xf32>
  %w = memref.subview %m[0] [4] [2] : memref<8xf32> to memref<4xf32, strided<[2]>>
  %idx = arith.constant dense<[0, 1]> : vector<2xi32>
  %mask = arith.constant dense<true> : vector<2xi1>
  %pass = arith.constant dense<0.0> : vector<2xf32>
  // STRIDE: stride.mlir:[[@LINE+1]]:8: error: 'vector.gather' op a gather or scatter over a memref whose innermost stride is not 1 is not supported by the interpreter yet
  %g = vector.gather %w[%c0][%idx], %mask, %pass : memref<4xf32, strided<[2]>>, vector<2xi32>, vector<2xi1>, vector<2xf32> into vector<2xf32>
  vector.print %g : vector<2xf32>
  return
}
