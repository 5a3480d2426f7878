// llvm.mlir.constant's type and its elements against it, and scf.execute_region's region, checked as
// mlir-opt 22 checks them, in its words.
// RUN: %mlir_opt --split-input-file --verify-diagnostics %s
// RUN: %gpuinterp --split-input-file --verify-diagnostics %s

llvm.func @vector_of_more() {
  // expected-error@+1 {{'llvm.mlir.constant' op type and attribute have a different number of elements: 4 vs. 2}}
  %c = llvm.mlir.constant(dense<[1.0, 2.0]> : vector<2xf32>) : vector<4xf32>
  llvm.return
}

// -----

llvm.func @splat_of_other_shape() {
  // expected-error@+1 {{'llvm.mlir.constant' op type and attribute have a different number of elements: 4 vs. 2}}
  %c = llvm.mlir.constant(dense<1.0> : vector<2xf32>) : vector<4xf32>
  llvm.return
}

// -----

llvm.func @array_of_more() {
  // expected-error@+1 {{'llvm.mlir.constant' op type and attribute have a different number of elements: 3 vs. 2}}
  %c = llvm.mlir.constant(dense<[1.0, 2.0]> : tensor<2xf32>) : !llvm.array<3 x f32>
  llvm.return
}

// -----

llvm.func @fits() {
  %a = llvm.mlir.constant(dense<[1.0, 2.0]> : tensor<2xf32>) : !llvm.array<2 x f32>
  %b = llvm.mlir.constant(dense<[[1.0, 2.0]]> : tensor<1x2xf32>) : !llvm.array<1 x vector<2xf32>>
  %c = llvm.mlir.constant(dense<1> : vector<4xi32>) : vector<4xi32>
  llvm.return
}

// -----

func.func @empty_execute_region() {
  // expected-error@+1 {{'scf.execute_region' op region needs to have at least one block}}
  "scf.execute_region"() ({
  }) : () -> ()
  return
}

// -----

llvm.func @array_of_none() {
  // expected-error@+1 {{'llvm.mlir.constant' op type and attribute have a different number of elements: 0 vs. 2}}
  %c = llvm.mlir.constant(dense<[1.0, 2.0]> : tensor<2xf32>) : !llvm.array<0 x f32>
  llvm.return
}

// -----

llvm.func @index_constant() {
  // expected-error@+1 {{'llvm.mlir.constant' op result #0 must be LLVM dialect-compatible type, but got 'index'}}
  %c = llvm.mlir.constant(0 : index) : index
  llvm.return
}
