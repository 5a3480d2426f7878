// vector.contract: a matmul, a dot product into a scalar, a transposed operand. Upstream's
// lowering and mlir-runner print the same.
// RUN: %gpuinterp %s > %t.ours
// RUN: %mlir_opt %s --convert-vector-to-scf --convert-scf-to-cf --convert-vector-to-llvm --convert-func-to-llvm --convert-arith-to-llvm --convert-cf-to-llvm --convert-ub-to-llvm --reconcile-unrealized-casts | %mlir_runner -e main -entry-point-result=void --shared-libs=%mlir_lib_dir/libmlir_runner_utils.so.22.1,%mlir_lib_dir/libmlir_c_runner_utils.so.22.1 > %t.upstream
// RUN: cmp %t.upstream %t.ours
// RUN: FileCheck %s < %t.ours

#mk = affine_map<(i, j, k) -> (i, k)>
#kj = affine_map<(i, j, k) -> (k, j)>
#jk = affine_map<(i, j, k) -> (j, k)>
#ij = affine_map<(i, j, k) -> (i, j)>

func.func @main() {
  %a = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : vector<2x3xf32>
  %b = arith.constant dense<[[1.0, 0.0], [0.0, 1.0], [2.0, -1.0]]> : vector<3x2xf32>
  %bt = arith.constant dense<[[1.0, 0.0, 2.0], [0.0, 1.0, -1.0]]> : vector<2x3xf32>
  %c = arith.constant dense<[[0.5, 0.5], [100.0, 0.0]]> : vector<2x2xf32>
  // CHECK: ( ( 7.5, -0.5 ), ( 116, -1 ) )
  %r = vector.contract {indexing_maps = [#mk, #kj, #ij], iterator_types = ["parallel", "parallel", "reduction"]} %a, %b, %c : vector<2x3xf32>, vector<3x2xf32> into vector<2x2xf32>
  vector.print %r : vector<2x2xf32>
  // CHECK-NEXT: ( ( 7.5, -0.5 ), ( 116, -1 ) )
  %rt = vector.contract {indexing_maps = [#mk, #jk, #ij], iterator_types = ["parallel", "parallel", "reduction"]} %a, %bt, %c : vector<2x3xf32>, vector<2x3xf32> into vector<2x2xf32>
  vector.print %rt : vector<2x2xf32>
  // CHECK-NEXT: 24
  %x = arith.constant dense<[1.0, 2.0, 3.0]> : vector<3xf32>
  %z = arith.constant 10.0 : f32
  %d = vector.contract {indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> (k)>, affine_map<(k) -> ()>], iterator_types = ["reduction"]} %x, %x, %z : vector<3xf32>, vector<3xf32> into f32
  vector.print %d : f32
  return
}
