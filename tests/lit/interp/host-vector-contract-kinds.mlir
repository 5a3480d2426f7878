// vector.contract with a kind other than add folds each product into the accumulator with it.
// (Upstream's --convert-vector-to-llvm leaves such a contract unlowered, so no upstream run.)
// RUN: %gpuinterp %s | FileCheck %s

#mk = affine_map<(i, j, k) -> (i, k)>
#kj = affine_map<(i, j, k) -> (k, j)>
#ij = affine_map<(i, j, k) -> (i, j)>

func.func @main() {
  // CHECK: ( ( 6, 3 ), ( 12, 6 ) )
  %ai = arith.constant dense<[[1, 2, 3], [4, 5, 6]]> : vector<2x3xi32>
  %bi = arith.constant dense<[[1, 0], [0, 1], [2, -1]]> : vector<3x2xi32>
  %ci = arith.constant dense<[[0, 3], [-5, 6]]> : vector<2x2xi32>
  %m = vector.contract {indexing_maps = [#mk, #kj, #ij], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<maxsi>} %ai, %bi, %ci : vector<2x3xi32>, vector<3x2xi32> into vector<2x2xi32>
  vector.print %m : vector<2x2xi32>
  return
}
