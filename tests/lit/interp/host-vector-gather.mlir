// vector.gather/scatter (indexed lanes) and expandload/compressstore (consecutive memory for the
// set lanes). Upstream's lowering and mlir-runner print the same.
// RUN: %gpuinterp %s > %t.ours
// RUN: %mlir_opt %s --convert-vector-to-scf --convert-scf-to-cf --convert-vector-to-llvm --expand-strided-metadata --finalize-memref-to-llvm --convert-func-to-llvm --convert-arith-to-llvm --convert-cf-to-llvm --convert-ub-to-llvm --reconcile-unrealized-casts | %mlir_runner -e main -entry-point-result=void --shared-libs=%mlir_lib_dir/libmlir_runner_utils.so.22.1,%mlir_lib_dir/libmlir_c_runner_utils.so.22.1 > %t.upstream
// RUN: cmp %t.upstream %t.ours
// RUN: FileCheck %s < %t.ours

func.func @main() {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %m = memref.alloc() : memref<8xf32>
  %init = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : vector<8xf32>
  vector.store %init, %m[%c0] : memref<8xf32>, vector<8xf32>
  %idx = arith.constant dense<[5, 0, 3, 100]> : vector<4xi32>
  %mask = arith.constant dense<[true, true, true, false]> : vector<4xi1>
  %pass = arith.constant dense<-1.0> : vector<4xf32>
  // CHECK: ( 7, 2, 5, -1 )
  %g = vector.gather %m[%c2][%idx], %mask, %pass : memref<8xf32>, vector<4xi32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  vector.print %g : vector<4xf32>
  // CHECK-NEXT: ( 2, -1, 3, 4 )
  %m2 = arith.constant dense<[true, false, true, true]> : vector<4xi1>
  %e = vector.expandload %m[%c2], %m2, %pass : memref<8xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  vector.print %e : vector<4xf32>
  // CHECK-NEXT: ( 10, 11, 10, 11, 4, 13, 6, 7 )
  %vals = arith.constant dense<[10.0, 11.0, 12.0, 13.0]> : vector<4xf32>
  %sidx = arith.constant dense<[0, 1, 6, 3]> : vector<4xi32>
  %sm = arith.constant dense<[true, true, false, true]> : vector<4xi1>
  vector.scatter %m[%c2][%sidx], %sm, %vals : memref<8xf32>, vector<4xi32>, vector<4xi1>, vector<4xf32>
  %cm = arith.constant dense<[true, true, false, false]> : vector<4xi1>
  vector.compressstore %m[%c0], %cm, %vals : memref<8xf32>, vector<4xi1>, vector<4xf32>
  %all = vector.load %m[%c0] : memref<8xf32>, vector<8xf32>
  vector.print %all : vector<8xf32>
  memref.dealloc %m : memref<8xf32>
  return
}
