// The rearranging vector ops (shuffle, transpose, strided slices, to_elements, bitcast), masks
// (constant_mask, create_mask, step) and masked loads and stores. Upstream's lowering and
// mlir-runner print the same.
// RUN: %gpuinterp %s > %t.ours
// RUN: %mlir_opt %s --convert-vector-to-scf --lower-vector-mask --lower-affine --convert-scf-to-cf --convert-vector-to-llvm --expand-strided-metadata --finalize-memref-to-llvm --convert-func-to-llvm --convert-arith-to-llvm --convert-index-to-llvm --convert-cf-to-llvm --convert-ub-to-llvm --reconcile-unrealized-casts | %mlir_runner -e main -entry-point-result=void --shared-libs=%mlir_lib_dir/libmlir_runner_utils.so.22.1,%mlir_lib_dir/libmlir_c_runner_utils.so.22.1 > %t.upstream
// RUN: cmp %t.upstream %t.ours
// RUN: FileCheck %s < %t.ours

func.func @main() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %a = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : vector<4xf32>
  %b = arith.constant dense<[10.0, 20.0]> : vector<2xf32>
  %w = arith.constant dense<[[1, 2, 3], [4, 5, 6]]> : vector<2x3xi32>
  // CHECK: ( 1, 10, 20, 2 )
  %s = vector.shuffle %a, %b [0, 4, 5, 1] : vector<4xf32>, vector<2xf32>
  vector.print %s : vector<4xf32>
  // CHECK-NEXT: ( ( 4, 5, 6 ), ( 1, 2, 3 ), ( 4, 5, 6 ) )
  %s2 = vector.shuffle %w, %w [1, 0, 3] : vector<2x3xi32>, vector<2x3xi32>
  vector.print %s2 : vector<3x3xi32>
  // CHECK-NEXT: ( ( 1, 4 ), ( 2, 5 ), ( 3, 6 ) )
  %t = vector.transpose %w, [1, 0] : vector<2x3xi32> to vector<3x2xi32>
  vector.print %t : vector<3x2xi32>
  // CHECK-NEXT: ( ( 2, 3 ), ( 5, 6 ) )
  %x = vector.extract_strided_slice %w {offsets = [0, 1], sizes = [2, 2], strides = [1, 1]} : vector<2x3xi32> to vector<2x2xi32>
  vector.print %x : vector<2x2xi32>
  // CHECK-NEXT: ( ( 1, 2, 3 ), ( 4, 7, 8 ) )
  %ins = arith.constant dense<[7, 8]> : vector<2xi32>
  %y = vector.insert_strided_slice %ins, %w {offsets = [1, 1], strides = [1]} : vector<2xi32> into vector<2x3xi32>
  vector.print %y : vector<2x3xi32>
  // CHECK-NEXT: 3
  %e:4 = vector.to_elements %a : vector<4xf32>
  vector.print %e#2 : f32
  // CHECK-NEXT: ( 1065353216, 1073741824, 1077936128, 1082130432 )
  %bc = vector.bitcast %a : vector<4xf32> to vector<4xi32>
  vector.print %bc : vector<4xi32>
  // CHECK-NEXT: ( 0, 16256, 0, 16384, 0, 16448, 0, 16512 )
  %bh = vector.bitcast %a : vector<4xf32> to vector<8xi16>
  vector.print %bh : vector<8xi16>
  // CHECK-NEXT: ( ( 1, 0, 0 ), ( 1, 0, 0 ), ( 0, 0, 0 ) )
  %cm = vector.constant_mask [2, 1] : vector<3x3xi1>
  vector.print %cm : vector<3x3xi1>
  // CHECK-NEXT: ( ( 1, 1, 1 ), ( 0, 0, 0 ) )
  %dm = vector.create_mask %c1, %c3 : vector<2x3xi1>
  vector.print %dm : vector<2x3xi1>
  // CHECK-NEXT: ( 0, 1, 2, 3, 4 )
  %st = vector.step : vector<5xindex>
  vector.print %st : vector<5xindex>

  // masked load and store: only the first two lanes touch memory, the last ones may be outside
  // CHECK-NEXT: ( 0, 0, 3, 4 )
  // CHECK-NEXT: ( 0, 0, 0, 0, 0, 0, 1, 2 )
  %m = memref.alloc() : memref<8xf32>
  %zero = arith.constant dense<0.0> : vector<8xf32>
  %c0 = arith.constant 0 : index
  vector.store %zero, %m[%c0] : memref<8xf32>, vector<8xf32>
  %c6 = arith.constant 6 : index
  %mk = vector.create_mask %c2 : vector<4xi1>
  %ld = vector.maskedload %m[%c6], %mk, %a : memref<8xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  vector.print %ld : vector<4xf32>
  vector.maskedstore %m[%c6], %mk, %a : memref<8xf32>, vector<4xi1>, vector<4xf32>
  %all = vector.load %m[%c0] : memref<8xf32>, vector<8xf32>
  vector.print %all : vector<8xf32>
  memref.dealloc %m : memref<8xf32>
  return
}
