// vector.gather and vector.scatter take each index as an offset in elements of flat memory from
// the element the base indices name, as upstream's lowering (llvm.intr.masked.gather/scatter over
// getelementptr) runs them: offsets cross rows of a 2-D memref, may be negative, and the base
// indices need not lie inside their dimensions. The program follows upstream's
// Integration/Dialect/Vector/CPU/gather.mlir (a 2-D base, one index vector, four masks) and adds
// scatter, expandload, a 2-D index vector and a rank-0 base. mlir-opt and mlir-runner print the
// same.
// RUN: %gpuinterp %s > %t.ours
// RUN: %mlir_opt %s -test-lower-to-llvm | %mlir_runner -e main -entry-point-result=void --shared-libs=%mlir_lib_dir/libmlir_runner_utils.so.22.1,%mlir_lib_dir/libmlir_c_runner_utils.so.22.1 > %t.upstream
// RUN: cmp %t.upstream %t.ours
// RUN: FileCheck %s < %t.ours

func.func @gather8(%m: memref<?x?xf32>, %i: index, %j: index, %idx: vector<8xi32>,
                   %mask: vector<8xi1>, %pass: vector<8xf32>) -> vector<8xf32> {
  %g = vector.gather %m[%i, %j][%idx], %mask, %pass
    : memref<?x?xf32>, vector<8xi32>, vector<8xi1>, vector<8xf32> into vector<8xf32>
  return %g : vector<8xf32>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c10 = arith.constant 10 : index
  // A 6x4 matrix holding 10 * row + column.
  %a = memref.alloc(%c6, %c4) : memref<?x?xf32>
  scf.for %r = %c0 to %c6 step %c1 {
    scf.for %k = %c0 to %c4 step %c1 {
      %t = arith.muli %r, %c10 : index
      %v = arith.addi %t, %k : index
      %vi = arith.index_cast %v : index to i32
      %vf = arith.sitofp %vi : i32 to f32
      memref.store %vf, %a[%r, %k] : memref<?x?xf32>
    }
  }
  %idx = arith.constant dense<[0, 5, 9, 23, 14, 2, 19, 7]> : vector<8xi32>
  %pass = arith.constant dense<-1.5> : vector<8xf32>
  %all = vector.constant_mask [8] : vector<8xi1>
  %none = vector.constant_mask [0] : vector<8xi1>
  %half = vector.constant_mask [4] : vector<8xi1>
  %odd = arith.constant dense<[false, true, false, true, false, true, false, true]> : vector<8xi1>

  // CHECK: ( 0, 11, 21, 53, 32, 2, 43, 13 )
  %g1 = call @gather8(%a, %c0, %c0, %idx, %all, %pass) : (memref<?x?xf32>, index, index, vector<8xi32>, vector<8xi1>, vector<8xf32>) -> vector<8xf32>
  vector.print %g1 : vector<8xf32>
  // CHECK-NEXT: ( -1.5, -1.5, -1.5, -1.5, -1.5, -1.5, -1.5, -1.5 )
  %g2 = call @gather8(%a, %c0, %c0, %idx, %none, %pass) : (memref<?x?xf32>, index, index, vector<8xi32>, vector<8xi1>, vector<8xf32>) -> vector<8xf32>
  vector.print %g2 : vector<8xf32>
  // CHECK-NEXT: ( 0, 11, 21, 53, -1.5, -1.5, -1.5, -1.5 )
  %g3 = call @gather8(%a, %c0, %c0, %idx, %half, %pass) : (memref<?x?xf32>, index, index, vector<8xi32>, vector<8xi1>, vector<8xf32>) -> vector<8xf32>
  vector.print %g3 : vector<8xf32>
  // CHECK-NEXT: ( -1.5, 11, -1.5, 53, -1.5, 2, -1.5, 13 )
  %g4 = call @gather8(%a, %c0, %c0, %idx, %odd, %pass) : (memref<?x?xf32>, index, index, vector<8xi32>, vector<8xi1>, vector<8xf32>) -> vector<8xf32>
  vector.print %g4 : vector<8xf32>
  // Base [1, 2] is element 6: offsets -6 .. 17 reach the whole matrix. Base [0, 7] names the
  // same element although 7 is past the end of its dimension.
  %back = arith.constant dense<[-6, -1, 0, 1, 2, 9, 13, 17]> : vector<8xi32>
  // CHECK-NEXT: ( 0, 11, 12, 13, 20, 33, 43, 53 )
  %g5 = call @gather8(%a, %c1, %c2, %back, %all, %pass) : (memref<?x?xf32>, index, index, vector<8xi32>, vector<8xi1>, vector<8xf32>) -> vector<8xf32>
  vector.print %g5 : vector<8xf32>
  // CHECK-NEXT: ( 0, 11, 12, 13, 20, 33, 43, 53 )
  %g6 = call @gather8(%a, %c0, %c6, %back, %all, %pass) : (memref<?x?xf32>, index, index, vector<8xi32>, vector<8xi1>, vector<8xf32>) -> vector<8xf32>
  vector.print %g6 : vector<8xf32>

  // A 2-D index vector: every lane is an offset from the same base element.
  %idx2 = arith.constant dense<[[0, 4, 8], [1, 5, 22]]> : vector<2x3xindex>
  %m2 = arith.constant dense<[[true, true, false], [true, true, true]]> : vector<2x3xi1>
  %p2 = arith.constant dense<7.0> : vector<2x3xf32>
  // CHECK-NEXT: ( ( 1, 11, 7 ), ( 2, 12, 53 ) )
  %g7 = vector.gather %a[%c0, %c1][%idx2], %m2, %p2 : memref<?x?xf32>, vector<2x3xindex>, vector<2x3xi1>, vector<2x3xf32> into vector<2x3xf32>
  vector.print %g7 : vector<2x3xf32>

  // Scatter across rows of a 3x4 matrix of zeros; two set lanes store to element 5, the later
  // one last.
  %b = memref.alloc() : memref<3x4xf32>
  %z = arith.constant dense<0.0> : vector<4xf32>
  scf.for %r = %c0 to %c3 step %c1 {
    vector.store %z, %b[%r, %c0] : memref<3x4xf32>, vector<4xf32>
  }
  %sv = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : vector<8xf32>
  %si = arith.constant dense<[-1, 0, 3, 4, 8, 3, 6, 9]> : vector<8xi32>
  %sm = arith.constant dense<[true, true, true, false, true, true, true, true]> : vector<8xi1>
  vector.scatter %b[%c0, %c2][%si], %sm, %sv : memref<3x4xf32>, vector<8xi32>, vector<8xi1>, vector<8xf32>
  // CHECK-NEXT: ( 0, 1, 2, 0 )
  // CHECK-NEXT: ( 0, 6, 0, 0 )
  // CHECK-NEXT: ( 7, 0, 5, 8 )
  scf.for %r = %c0 to %c3 step %c1 {
    %row = vector.load %b[%r, %c0] : memref<3x4xf32>, vector<4xf32>
    vector.print %row : vector<4xf32>
  }

  // expandload reads consecutive memory too, on into the next row.
  %em = arith.constant dense<[true, false, true, true]> : vector<4xi1>
  %ep = arith.constant dense<-1.0> : vector<4xf32>
  // CHECK-NEXT: ( 12, -1, 13, 20 )
  %e = vector.expandload %a[%c1, %c2], %em, %ep : memref<?x?xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  vector.print %e : vector<4xf32>

  // A rank-0 base holds one element: offset 0 is the only one inside it.
  %s0 = memref.alloc() : memref<f32>
  %f9 = arith.constant 9.0 : f32
  memref.store %f9, %s0[] : memref<f32>
  %i0 = arith.constant dense<[0, 0, 3]> : vector<3xi32>
  %m0 = arith.constant dense<[true, true, false]> : vector<3xi1>
  %p0 = arith.constant dense<-2.0> : vector<3xf32>
  // CHECK-NEXT: ( 9, 9, -2 )
  %g8 = vector.gather %s0[][%i0], %m0, %p0 : memref<f32>, vector<3xi32>, vector<3xi1>, vector<3xf32> into vector<3xf32>
  vector.print %g8 : vector<3xf32>

  memref.dealloc %a : memref<?x?xf32>
  memref.dealloc %b : memref<3x4xf32>
  memref.dealloc %s0 : memref<f32>
  return
}
