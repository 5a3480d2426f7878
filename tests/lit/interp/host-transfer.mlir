// vector.transfer_read/write on the host: padding past the end, in-bounds dimensions, transposing
// and broadcasting permutation maps, masks. Upstream's lowering and mlir-runner print the same.
// RUN: %gpuinterp %s > %t.ours
// RUN: %mlir_opt %s --convert-vector-to-scf --lower-vector-mask --lower-affine --convert-scf-to-cf --convert-vector-to-llvm --expand-strided-metadata --finalize-memref-to-llvm --convert-func-to-llvm --convert-arith-to-llvm --convert-cf-to-llvm --convert-ub-to-llvm --reconcile-unrealized-casts | %mlir_runner -e main -entry-point-result=void --shared-libs=%mlir_lib_dir/libmlir_runner_utils.so.22.1,%mlir_lib_dir/libmlir_c_runner_utils.so.22.1 > %t.upstream
// RUN: sed -e 's/base@ = 0x[0-9a-f]*/base@ = ADDR/' %t.ours > %t.ours.norm
// RUN: sed -e 's/base@ = 0x[0-9a-f]*/base@ = ADDR/' %t.upstream > %t.upstream.norm
// RUN: cmp %t.upstream.norm %t.ours.norm
// RUN: FileCheck %s < %t.ours

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %pad = arith.constant -1.0 : f32
  %m = memref.alloc() : memref<3x4xf32>
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      %c10 = arith.constant 10 : index
      %a = arith.muli %i, %c10 : index
      %b = arith.addi %a, %j : index
      %x = arith.index_cast %b : index to i32
      %f = arith.sitofp %x : i32 to f32
      memref.store %f, %m[%i, %j] : memref<3x4xf32>
    }
  }
  // CHECK: ( 12, 13, -1, -1, -1 )
  %r1 = vector.transfer_read %m[%c1, %c2], %pad : memref<3x4xf32>, vector<5xf32>
  vector.print %r1 : vector<5xf32>
  // CHECK-NEXT: ( ( 21, 22, 23 ), ( -1, -1, -1 ) )
  %r2 = vector.transfer_read %m[%c2, %c1], %pad {in_bounds = [false, true]} : memref<3x4xf32>, vector<2x3xf32>
  vector.print %r2 : vector<2x3xf32>
  // a transposed read: vector dimension 0 walks memref dimension 1
  // CHECK-NEXT: ( ( 0, 10, 20 ), ( 1, 11, 21 ), ( 2, 12, 22 ), ( 3, 13, 23 ) )
  %r3 = vector.transfer_read %m[%c0, %c0], %pad {permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<3x4xf32>, vector<4x3xf32>
  vector.print %r3 : vector<4x3xf32>
  // a broadcast of row 1 over two rows
  // CHECK-NEXT: ( ( 10, 11, 12, 13 ), ( 10, 11, 12, 13 ) )
  %r4 = vector.transfer_read %m[%c1, %c0], %pad {permutation_map = affine_map<(d0, d1) -> (0, d1)>, in_bounds = [true, false]} : memref<3x4xf32>, vector<2x4xf32>
  vector.print %r4 : vector<2x4xf32>
  // masked read
  // CHECK-NEXT: ( 0, -1, 2, -1 )
  %mask = arith.constant dense<[true, false, true, false]> : vector<4xi1>
  %r5 = vector.transfer_read %m[%c0, %c0], %pad, %mask : memref<3x4xf32>, vector<4xf32>
  vector.print %r5 : vector<4xf32>
  // writes: past the end (dropped), masked
  // CHECK-NEXT: rank = 2 offset = 0 sizes = [3, 4] strides = [4, 1] data =
  // CHECK-NEXT: {{\[\[}}0,   100,   2,   100],
  // CHECK-NEXT:  [10,   11,   12,   13],
  // CHECK-NEXT:  [20,   21,   7,   7]]
  %sevens = arith.constant dense<7.0> : vector<6xf32>
  vector.transfer_write %sevens, %m[%c2, %c2] : vector<6xf32>, memref<3x4xf32>
  %hundreds = arith.constant dense<100.0> : vector<4xf32>
  %mask2 = arith.constant dense<[false, true, false, true]> : vector<4xi1>
  vector.transfer_write %hundreds, %m[%c0, %c0], %mask2 : vector<4xf32>, memref<3x4xf32>
  %u = memref.cast %m : memref<3x4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %m : memref<3x4xf32>
  return
}
