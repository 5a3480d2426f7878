// A host load outside its memref is a located error, and the run exits 1.
// RUN: not %gpuinterp %s 2>&1 | FileCheck %s
// CHECK: out-of-bounds.mlir:[[@LINE+6]]:8: error: 'memref.load' op out-of-bounds access: index 4 is not in [0, 4) in dimension 0
// CHECK-NEXT: {{^}}  %x = memref.load %b[%c4] : memref<4xi32>
// CHECK-NEXT: {{^}}       ^
func.func @main() {
  %c4 = arith.constant 4 : index
  %b = memref.alloc() : memref<4xi32>
  %x = memref.load %b[%c4] : memref<4xi32>
  return
}
