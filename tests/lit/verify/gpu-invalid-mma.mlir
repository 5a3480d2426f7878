// The gpu.mma_matrix cases of upstream MLIR's mlir/test/Dialect/GPU/invalid.mlir (names and
// values changed). gpuinterp does not know the subgroup_mma ops: it rejects each part on the
// line mlir-opt 22 does, as an unknown op (OURS), where mlir-opt gives the words expected here.
// RUN: %mlir_opt --split-input-file --verify-diagnostics %s > /dev/null
// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --split-input-file %s 2>&1 | FileCheck %s --check-prefix=OURS

func.func @mma_matrix_rank3() {
  %buf = memref.alloca() {alignment = 32} : memref<32x32xf16, 3>
  %c = arith.constant 8 : index
  // OURS: gpu-invalid-mma.mlir:[[# @LINE + 2]]:{{[0-9]+}}: error: custom op 'gpu.subgroup_mma_load_matrix' is unknown
  // expected-error@+1 {{MMAMatrixType must have exactly two dimensions}}
  %m = gpu.subgroup_mma_load_matrix %buf[%c, %c] {leadDimension = 32 : index} : memref<32x32xf16, 3> -> !gpu.mma_matrix<16x16x16xf16, "AOp">
  return
}

// -----

func.func @mma_matrix_operand_kind() {
  %buf = memref.alloca() {alignment = 32} : memref<32x32xf16, 3>
  %c = arith.constant 8 : index
  // OURS: gpu-invalid-mma.mlir:[[# @LINE + 2]]:{{[0-9]+}}: error: custom op 'gpu.subgroup_mma_load_matrix' is unknown
  // expected-error@+1 {{operand expected to be one of AOp, BOp or COp}}
  %m = gpu.subgroup_mma_load_matrix %buf[%c, %c] {leadDimension = 32 : index} : memref<32x32xf16, 3> -> !gpu.mma_matrix<16x16xf16, "DOp">
  return
}

// -----

func.func @mma_matrix_element_type() {
  %buf = memref.alloca() {alignment = 32} : memref<32x32xf16, 3>
  %c = arith.constant 8 : index
  // OURS: gpu-invalid-mma.mlir:[[# @LINE + 2]]:{{[0-9]+}}: error: custom op 'gpu.subgroup_mma_load_matrix' is unknown
  // expected-error@+1 {{MMAMatrixType elements must be SI8, UI8, I32, F16, F32, or F64}}
  %m = gpu.subgroup_mma_load_matrix %buf[%c, %c] {leadDimension = 32 : index} : memref<32x32xf16, 3> -> !gpu.mma_matrix<16x16xbf16, "AOp">
  return
}

// -----

#transposed = affine_map<(i, j) -> (j, i)>

func.func @mma_load_transposed_layout() {
  %buf = memref.alloca() {alignment = 32} : memref<32x32xf16, #transposed, 3>
  %c = arith.constant 8 : index
  // OURS: gpu-invalid-mma.mlir:[[# @LINE + 2]]:{{[0-9]+}}: error: custom op 'gpu.subgroup_mma_load_matrix' is unknown
  // expected-error@+1 {{expected source memref most minor dim must have unit stride}}
  %m = gpu.subgroup_mma_load_matrix %buf[%c, %c] {leadDimension = 32 : index} : memref<32x32xf16, #transposed, 3> -> !gpu.mma_matrix<16x16xf16, "AOp">
  return
}

// -----

func.func @mma_load_vector_elements(%src: memref<16x4xvector<2x4xf16>>, %i: index) {
  // OURS: gpu-invalid-mma.mlir:[[# @LINE + 2]]:{{[0-9]+}}: error: custom op 'gpu.subgroup_mma_load_matrix' is unknown
  // expected-error@+1 {{operand #0 must be memref of 8-bit signless integer or 32-bit signless integer or 16-bit float or 32-bit float or 64-bit float or vector of 8-bit signless integer or 32-bit signless integer or 16-bit float or 32-bit float or 64-bit float values of ranks 1 values}}
  %m = gpu.subgroup_mma_load_matrix %src[%i, %i] {leadDimension = 4 : index} : memref<16x4xvector<2x4xf16>> -> !gpu.mma_matrix<16x16xf16, "AOp">
  return
}

// -----

#transposed = affine_map<(i, j) -> (j, i)>

func.func @mma_store_transposed_layout(%acc : !gpu.mma_matrix<16x16xf16, "COp">) {
  %buf = memref.alloca() {alignment = 32} : memref<32x32xf16, #transposed, 3>
  %c = arith.constant 8 : index
  // OURS: gpu-invalid-mma.mlir:[[# @LINE + 2]]:{{[0-9]+}}: error: custom op 'gpu.subgroup_mma_store_matrix' is unknown
  // expected-error@+1 {{expected destination memref most minor dim must have unit stride}}
  gpu.subgroup_mma_store_matrix %acc, %buf[%c, %c] {leadDimension = 32 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<32x32xf16, #transposed, 3>
  return
}

// -----

func.func @mma_store_a_operand(%a : !gpu.mma_matrix<16x16xf16, "AOp">) {
  %buf = memref.alloca() {alignment = 32} : memref<32x32xf16, 3>
  %c = arith.constant 8 : index
  // OURS: gpu-invalid-mma.mlir:[[# @LINE + 2]]:{{[0-9]+}}: error: custom op 'gpu.subgroup_mma_store_matrix' is unknown
  // expected-error@+1 {{expected the operand matrix being stored to have 'COp' operand type}}
  gpu.subgroup_mma_store_matrix %a, %buf[%c, %c] {leadDimension = 32 : index} : !gpu.mma_matrix<16x16xf16, "AOp">, memref<32x32xf16, 3>
  return
}

// -----

func.func @mma_compute_operand_order(%a : !gpu.mma_matrix<16x16xf16, "AOp">, %b : !gpu.mma_matrix<16x16xf16, "BOp">, %acc : !gpu.mma_matrix<16x16xf16, "COp">) {
  // OURS: gpu-invalid-mma.mlir:[[# @LINE + 2]]:{{[0-9]+}}: error: custom op 'gpu.subgroup_mma_compute' is unknown
  // expected-error@+1 {{operands must be in the order AOp, BOp, COp}}
  %d = gpu.subgroup_mma_compute %b, %a, %acc : !gpu.mma_matrix<16x16xf16, "BOp">, !gpu.mma_matrix<16x16xf16, "AOp"> -> !gpu.mma_matrix<16x16xf16, "COp">
  return
}

// -----

func.func @mma_compute_shapes(%a : !gpu.mma_matrix<16x8xf16, "AOp">, %b : !gpu.mma_matrix<16x16xf16, "BOp">, %acc : !gpu.mma_matrix<16x16xf16, "COp">) {
  // OURS: gpu-invalid-mma.mlir:[[# @LINE + 2]]:{{[0-9]+}}: error: custom op 'gpu.subgroup_mma_compute' is unknown
  // expected-error@+1 {{operand shapes do not satisfy matmul constraints}}
  %d = gpu.subgroup_mma_compute %a, %b, %acc : !gpu.mma_matrix<16x8xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf16, "COp">
  return
}
