// vector.reduction (ordered from the accumulator), multi_reduction, outerproduct (plain, with an
// accumulator, AXPY form) and interleave/deinterleave. Upstream's lowering and mlir-runner print
// the same.
// RUN: %gpuinterp %s > %t.ours
// RUN: %mlir_opt %s --lower-vector-multi-reduction --convert-vector-to-scf --convert-scf-to-cf --convert-vector-to-llvm --convert-func-to-llvm --convert-arith-to-llvm --convert-cf-to-llvm --convert-ub-to-llvm --reconcile-unrealized-casts | %mlir_runner -e main -entry-point-result=void --shared-libs=%mlir_lib_dir/libmlir_runner_utils.so.22.1,%mlir_lib_dir/libmlir_c_runner_utils.so.22.1 > %t.upstream
// RUN: cmp %t.upstream %t.ours
// RUN: FileCheck %s < %t.ours

func.func @main() {
  %a = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : vector<2x3xf32>
  %acc = arith.constant dense<[100.0, 200.0]> : vector<2xf32>
  %acc3 = arith.constant dense<[0.5, 0.25, 0.125]> : vector<3xf32>
  %s = arith.constant -1.0 : f32
  // CHECK: ( 106, 215 )
  %r1 = vector.multi_reduction <add>, %a, %acc [1] : vector<2x3xf32> to vector<2xf32>
  vector.print %r1 : vector<2xf32>
  // CHECK-NEXT: ( 4, 5, 6 )
  %r2 = vector.multi_reduction <maximumf>, %a, %acc3 [0] : vector<2x3xf32> to vector<3xf32>
  vector.print %r2 : vector<3xf32>
  // CHECK-NEXT: 6
  %r3 = vector.multi_reduction <maxnumf>, %a, %s [0, 1] : vector<2x3xf32> to f32
  vector.print %r3 : f32
  // a sum that depends on its order: 1e8 + 1 + 1 ... stays 1e8 in f32 when added from the accumulator
  // CHECK-NEXT: 1e+08
  %big = arith.constant 1.0e8 : f32
  %ones = arith.constant dense<1.0> : vector<8xf32>
  %r4 = vector.reduction <add>, %ones, %big : vector<8xf32> into f32
  vector.print %r4 : f32
  %x = arith.constant dense<[1.0, 2.0]> : vector<2xf32>
  %y = arith.constant dense<[3.0, 4.0, 5.0]> : vector<3xf32>
  // CHECK-NEXT: ( ( 3, 4, 5 ), ( 6, 8, 10 ) )
  %o1 = vector.outerproduct %x, %y : vector<2xf32>, vector<3xf32>
  vector.print %o1 : vector<2x3xf32>
  // CHECK-NEXT: ( ( 4, 6, 8 ), ( 10, 13, 16 ) )
  %o2 = vector.outerproduct %x, %y, %a : vector<2xf32>, vector<3xf32>
  vector.print %o2 : vector<2x3xf32>
  // CHECK-NEXT: ( -1, -2 )
  %o3 = vector.outerproduct %x, %s : vector<2xf32>, f32
  vector.print %o3 : vector<2xf32>
  // CHECK-NEXT: ( ( 3, 4 ), ( 6, 8 ) )
  %xi = arith.constant dense<[1, 2]> : vector<2xi32>
  %yi = arith.constant dense<[3, 4]> : vector<2xi32>
  %acci = arith.constant dense<[[0, -1], [4, 0]]> : vector<2x2xi32>
  %o4 = vector.outerproduct %xi, %yi, %acci {kind = #vector.kind<maxsi>} : vector<2xi32>, vector<2xi32>
  vector.print %o4 : vector<2x2xi32>
  // CHECK-NEXT: ( 1, 3, 2, 4 )
  // CHECK-NEXT: ( 1, 2 )
  // CHECK-NEXT: ( 3, 4 )
  %il = vector.interleave %xi, %yi : vector<2xi32> -> vector<4xi32>
  vector.print %il : vector<4xi32>
  %d1, %d2 = vector.deinterleave %il : vector<4xi32> -> vector<2xi32>
  vector.print %d1 : vector<2xi32>
  vector.print %d2 : vector<2xi32>
  return
}
