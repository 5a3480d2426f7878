// Vector accesses outside their memref or vector are located errors, and the run exits 1.
// RUN: split-file --leading-lines %s %t
// RUN: not %gpuinterp %t/load.mlir 2>&1 | FileCheck %s --check-prefix=LOAD
// RUN: not %gpuinterp %t/in-bounds.mlir 2>&1 | FileCheck %s --check-prefix=INBOUNDS
// RUN: not %gpuinterp %t/extract.mlir 2>&1 | FileCheck %s --check-prefix=EXTRACT

//--- load.mlir
// LOAD: load.mlir:[[@LINE+4]]:8: error: 'vector.load' op out-of-bounds access: indices [6, 9] are not in [0, 8) in dimension 0
func.func @main() {
  %c6 = arith.constant 6 : index
  %m = memref.alloc() : memref<8xf32>
  %v = vector.load %m[%c6] : memref<8xf32>, vector<4xf32>
  memref.dealloc %m : memref<8xf32>
  return
}

//--- in-bounds.mlir
// INBOUNDS: in-bounds.mlir:[[@LINE+5]]:8: error: 'vector.transfer_read' op index 8 is out of bounds [0, 8) in dimension 0, which in_bounds says it is not
func.func @main() {
  %c6 = arith.constant 6 : index
  %p = arith.constant 0.0 : f32
  %m = memref.alloc() : memref<8xf32>
  %v = vector.transfer_read %m[%c6], %p {in_bounds = [true]} : memref<8xf32>, vector<4xf32>
  memref.dealloc %m : memref<8xf32>
  return
}

//--- extract.mlir
// EXTRACT: extract.mlir:[[@LINE+4]]:8: error: 'vector.extract' op position 4 is out of range in dimension 0
func.func @main() {
  %c4 = arith.constant 4 : index
  %v = arith.constant dense<1.0> : vector<4xf32>
  %x = vector.extract %v[%c4] : f32 from vector<4xf32>
  return
}
