// vector ops checked against their shapes, positions and permutations, in mlir-opt's words.
// RUN: %mlir_opt --split-input-file --verify-diagnostics %s
// RUN: %gpuinterp --split-input-file --verify-diagnostics %s

func.func @load_wrong_indices(%m: memref<4x4xf32>, %i: index) -> vector<4xf32> {
  // expected-error@+1 {{'vector.load' op requires 2 indices}}
  %v = vector.load %m[%i] : memref<4x4xf32>, vector<4xf32>
  return %v : vector<4xf32>
}

// -----

func.func @store_wrong_indices(%m: memref<4x4xf32>, %i: index, %v: vector<4xf32>) {
  // expected-error@+1 {{'vector.store' op requires 2 indices}}
  vector.store %v, %m[%i] : memref<4x4xf32>, vector<4xf32>
  return
}

// -----

func.func @maskedload_wrong_indices(%m: memref<4x4xf32>, %i: index, %mask: vector<4xi1>, %p: vector<4xf32>) -> vector<4xf32> {
  // expected-error@+1 {{'vector.maskedload' op requires 2 indices}}
  %v = vector.maskedload %m[%i], %mask, %p : memref<4x4xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  return %v : vector<4xf32>
}

// -----

func.func @maskedstore_wrong_indices(%m: memref<4x4xf32>, %i: index, %mask: vector<4xi1>, %v: vector<4xf32>) {
  // expected-error@+1 {{'vector.maskedstore' op requires 2 indices}}
  vector.maskedstore %m[%i], %mask, %v : memref<4x4xf32>, vector<4xi1>, vector<4xf32>
  return
}

// -----

func.func @gather_wrong_indices(%m: memref<4x4xf32>, %i: index, %idx: vector<4xi32>, %mask: vector<4xi1>, %p: vector<4xf32>) -> vector<4xf32> {
  // expected-error@+1 {{'vector.gather' op requires 2 indices}}
  %v = vector.gather %m[%i][%idx], %mask, %p : memref<4x4xf32>, vector<4xi32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  return %v : vector<4xf32>
}

// -----

func.func @scatter_wrong_indices(%m: memref<4x4xf32>, %i: index, %idx: vector<4xi32>, %mask: vector<4xi1>, %v: vector<4xf32>) {
  // expected-error@+1 {{'vector.scatter' op requires 2 indices}}
  vector.scatter %m[%i][%idx], %mask, %v : memref<4x4xf32>, vector<4xi32>, vector<4xi1>, vector<4xf32>
  return
}

// -----

func.func @expandload_wrong_indices(%m: memref<4x4xf32>, %i: index, %mask: vector<4xi1>, %p: vector<4xf32>) -> vector<4xf32> {
  // expected-error@+1 {{'vector.expandload' op requires 2 indices}}
  %v = vector.expandload %m[%i], %mask, %p : memref<4x4xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  return %v : vector<4xf32>
}

// -----

func.func @compressstore_wrong_indices(%m: memref<4x4xf32>, %i: index, %mask: vector<4xi1>, %v: vector<4xf32>) {
  // expected-error@+1 {{'vector.compressstore' op requires 2 indices}}
  vector.compressstore %m[%i], %mask, %v : memref<4x4xf32>, vector<4xi1>, vector<4xf32>
  return
}

// -----

func.func @transfer_read_wrong_indices(%m: memref<4x4xf32>, %i: index, %f: f32) -> vector<4xf32> {
  // expected-error@+1 {{'vector.transfer_read' op requires 2 indices}}
  %v = vector.transfer_read %m[%i], %f : memref<4x4xf32>, vector<4xf32>
  return %v : vector<4xf32>
}

// -----

func.func @transfer_write_wrong_indices(%m: memref<4x4xf32>, %i: index, %v: vector<4xf32>) {
  // expected-error@+1 {{'vector.transfer_write' op requires 2 indices}}
  vector.transfer_write %v, %m[%i] : vector<4xf32>, memref<4x4xf32>
  return
}

// -----

func.func @transpose_repeated_dim(%v: vector<2x3xf32>) -> vector<3x2xf32> {
  // expected-error@+1 {{'vector.transpose' op dimension size mismatch at: 0}}
  %t = vector.transpose %v, [0, 0] : vector<2x3xf32> to vector<3x2xf32>
  return %t : vector<3x2xf32>
}

// -----

func.func @transpose_wrong_length(%v: vector<2x3xf32>) -> vector<3x2xf32> {
  // expected-error@+1 {{'vector.transpose' op transposition length mismatch: 1}}
  %t = vector.transpose %v, [0] : vector<2x3xf32> to vector<3x2xf32>
  return %t : vector<3x2xf32>
}

// -----

func.func @transpose_result_shape(%v: vector<2x3xf32>) -> vector<2x3xf32> {
  // expected-error@+1 {{'vector.transpose' op dimension size mismatch at: 1}}
  %t = vector.transpose %v, [1, 0] : vector<2x3xf32> to vector<2x3xf32>
  return %t : vector<2x3xf32>
}

// -----

func.func @transpose_index_out_of_range(%v: vector<2x3xf32>) -> vector<3x2xf32> {
  // expected-error@+1 {{'vector.transpose' op transposition index out of range: 2}}
  %t = vector.transpose %v, [1, 2] : vector<2x3xf32> to vector<3x2xf32>
  return %t : vector<3x2xf32>
}

// -----

func.func @transpose_rank_mismatch(%v: vector<2x3xf32>) -> vector<6xf32> {
  // expected-error@+1 {{'vector.transpose' op vector result rank mismatch: 1}}
  %t = vector.transpose %v, [1, 0] : vector<2x3xf32> to vector<6xf32>
  return %t : vector<6xf32>
}

// -----

func.func @extract_strided_slice_out_of_bounds(%v: vector<4x8xf32>) -> vector<2x4xf32> {
  // expected-error@+1 {{'vector.extract_strided_slice' op expected sum(offsets, sizes) dimension 0 to be confined to [1, 5)}}
  %t = vector.extract_strided_slice %v {offsets = [3, 0], sizes = [2, 4], strides = [1, 1]} : vector<4x8xf32> to vector<2x4xf32>
  return %t : vector<2x4xf32>
}

// -----

func.func @extract_strided_slice_attr_sizes(%v: vector<4x8xf32>) -> vector<2x4xf32> {
  // expected-error@+1 {{'vector.extract_strided_slice' op expected offsets, sizes and strides attributes of same size}}
  %t = vector.extract_strided_slice %v {offsets = [0, 0, 0], sizes = [2, 4], strides = [1, 1]} : vector<4x8xf32> to vector<2x4xf32>
  return %t : vector<2x4xf32>
}

// -----

func.func @extract_strided_slice_too_many_offsets(%v: vector<4x8xf32>) -> vector<2x4xf32> {
  // expected-error@+1 {{'vector.extract_strided_slice' op expected offsets attribute of rank no greater than vector rank}}
  %t = vector.extract_strided_slice %v {offsets = [0, 0, 0], sizes = [2, 4, 1], strides = [1, 1, 1]} : vector<4x8xf32> to vector<2x4xf32>
  return %t : vector<2x4xf32>
}

// -----

func.func @extract_strided_slice_stride(%v: vector<4x8xf32>) -> vector<2x4xf32> {
  // expected-error@+1 {{'vector.extract_strided_slice' op expected strides to be confined to [1, 2)}}
  %t = vector.extract_strided_slice %v {offsets = [0, 0], sizes = [2, 4], strides = [2, 1]} : vector<4x8xf32> to vector<2x4xf32>
  return %t : vector<2x4xf32>
}

// -----

func.func @extract_strided_slice_negative_offset(%v: vector<4x8xf32>) -> vector<2x4xf32> {
  // expected-error@+1 {{'vector.extract_strided_slice' op expected offsets dimension 0 to be confined to [0, 4)}}
  %t = vector.extract_strided_slice %v {offsets = [-1, 0], sizes = [2, 4], strides = [1, 1]} : vector<4x8xf32> to vector<2x4xf32>
  return %t : vector<2x4xf32>
}

// -----

func.func @extract_strided_slice_size_too_big(%v: vector<4x8xf32>) -> vector<5x4xf32> {
  // expected-error@+1 {{'vector.extract_strided_slice' op expected sizes dimension 0 to be confined to [1, 5)}}
  %t = vector.extract_strided_slice %v {offsets = [0, 0], sizes = [5, 4], strides = [1, 1]} : vector<4x8xf32> to vector<5x4xf32>
  return %t : vector<5x4xf32>
}

// -----

func.func @extract_strided_slice_result_type(%v: vector<4x8xf32>) -> vector<2x3xf32> {
  // expected-error@+1 {{'vector.extract_strided_slice' op expected result type to be 'vector<2x4xf32>'}}
  %t = vector.extract_strided_slice %v {offsets = [0, 0], sizes = [2, 4], strides = [1, 1]} : vector<4x8xf32> to vector<2x3xf32>
  return %t : vector<2x3xf32>
}

// -----

func.func @insert_strided_slice_out_of_bounds(%a: vector<2x4xf32>, %b: vector<4x8xf32>) -> vector<4x8xf32> {
  // expected-error@+1 {{'vector.insert_strided_slice' op expected sum(offsets, source vector shape) dimension 0 to be confined to [1, 5)}}
  %t = vector.insert_strided_slice %a, %b {offsets = [3, 0], strides = [1, 1]} : vector<2x4xf32> into vector<4x8xf32>
  return %t : vector<4x8xf32>
}

// -----

func.func @insert_strided_slice_stride_count(%a: vector<2x4xf32>, %b: vector<4x8xf32>) -> vector<4x8xf32> {
  // expected-error@+1 {{'vector.insert_strided_slice' op expected strides of same size as source vector rank}}
  %t = vector.insert_strided_slice %a, %b {offsets = [0, 0], strides = [1]} : vector<2x4xf32> into vector<4x8xf32>
  return %t : vector<4x8xf32>
}

// -----

func.func @insert_strided_slice_offset_count(%a: vector<2x4xf32>, %b: vector<4x8xf32>) -> vector<4x8xf32> {
  // expected-error@+1 {{'vector.insert_strided_slice' op expected offsets of same size as destination vector rank}}
  %t = vector.insert_strided_slice %a, %b {offsets = [0], strides = [1, 1]} : vector<2x4xf32> into vector<4x8xf32>
  return %t : vector<4x8xf32>
}

// -----

func.func @insert_strided_slice_stride_value(%a: vector<2x4xf32>, %b: vector<4x8xf32>) -> vector<4x8xf32> {
  // expected-error@+1 {{'vector.insert_strided_slice' op expected strides to be confined to [1, 2)}}
  %t = vector.insert_strided_slice %a, %b {offsets = [0, 0], strides = [1, 2]} : vector<2x4xf32> into vector<4x8xf32>
  return %t : vector<4x8xf32>
}

// -----

func.func @insert_strided_slice_rank(%a: vector<2x4x2xf32>, %b: vector<4x8xf32>) -> vector<4x8xf32> {
  // expected-error@+1 {{'vector.insert_strided_slice' op expected offsets of same size as destination vector rank}}
  %t = vector.insert_strided_slice %a, %b {offsets = [0, 0, 0], strides = [1, 1, 1]} : vector<2x4x2xf32> into vector<4x8xf32>
  return %t : vector<4x8xf32>
}

// -----

func.func @shape_cast_element_count(%a: vector<2x4xf32>) -> vector<7xf32> {
  // expected-error@+1 {{'vector.shape_cast' op has different number of elements at source (8) and result (7)}}
  %t = vector.shape_cast %a : vector<2x4xf32> to vector<7xf32>
  return %t : vector<7xf32>
}

// -----

func.func @shape_cast_element_type(%a: vector<2x4xf32>) -> vector<8xi32> {
  // expected-error@+1 {{'vector.shape_cast' op has different source and result element types}}
  %t = vector.shape_cast %a : vector<2x4xf32> to vector<8xi32>
  return %t : vector<8xi32>
}

// -----

func.func @extract_position_out_of_range(%v: vector<4x8xf32>) -> f32 {
  // expected-error@+1 {{'vector.extract' op expected position attribute #1 to be a non-negative integer smaller than the corresponding vector dimension or poison (-1)}}
  %e = vector.extract %v[4, 0] : f32 from vector<4x8xf32>
  return %e : f32
}

// -----

func.func @extract_too_many_positions(%v: vector<4xf32>) -> f32 {
  // expected-error@+1 {{'vector.extract' op expected position attribute of rank no greater than vector rank}}
  %e = vector.extract %v[1, 0] : f32 from vector<4xf32>
  return %e : f32
}

// -----

func.func @insert_position_out_of_range(%f: f32, %v: vector<4x8xf32>) -> vector<4x8xf32> {
  // expected-error@+1 {{'vector.insert' op expected position attribute #2 to be a non-negative integer smaller than the corresponding dest vector dimension}}
  %r = vector.insert %f, %v[0, 8] : f32 into vector<4x8xf32>
  return %r : vector<4x8xf32>
}

// -----

func.func @shuffle_mask_out_of_range(%a: vector<2xf32>, %b: vector<2xf32>) -> vector<2xf32> {
  // expected-error@+1 {{'vector.shuffle' op mask index #2 out of range}}
  %r = vector.shuffle %a, %b [0, 4] : vector<2xf32>, vector<2xf32>
  return %r : vector<2xf32>
}

// -----

func.func @create_mask_operand_count(%n: index) -> vector<4x4xi1> {
  // expected-error@+1 {{'vector.create_mask' op must specify an operand for each result vector dimension}}
  %m = vector.create_mask %n : vector<4x4xi1>
  return %m : vector<4x4xi1>
}

// -----

func.func @constant_mask_out_of_range() -> vector<4xi1> {
  // expected-error@+1 {{'vector.constant_mask' op array attr of size out of bounds of vector result dimension size}}
  %m = vector.constant_mask [5] : vector<4xi1>
  return %m : vector<4xi1>
}

// -----

func.func @bitcast_size(%a: vector<4xf32>) -> vector<4xf16> {
  // expected-error@+1 {{'vector.bitcast' op source/result bitwidth of the minor 1-D vectors must be equal}}
  %r = vector.bitcast %a : vector<4xf32> to vector<4xf16>
  return %r : vector<4xf16>
}

// -----

func.func @broadcast_incompatible(%a: vector<3xf32>) -> vector<4x4xf32> {
  // expected-error@+1 {{'vector.broadcast' op dimension mismatch (3 vs. 4)}}
  %r = vector.broadcast %a : vector<3xf32> to vector<4x4xf32>
  return %r : vector<4x4xf32>
}

// -----

func.func @reduction_result_type(%a: vector<4xf32>) -> i32 {
  // expected-error@+1 {{'vector.reduction' op failed to verify that source operand and result have same element type}}
  %r = vector.reduction <add>, %a : vector<4xf32> into i32
  return %r : i32
}

// -----

func.func @multi_reduction_dim(%a: vector<4x8xf32>, %acc: vector<4xf32>) -> vector<4xf32> {
  // expected-error@+1 {{'vector.multi_reduction' op destination type 'vector<4xf32>' is incompatible with source type 'vector<4x8xf32>'}}
  %r = vector.multi_reduction <add>, %a, %acc [2] : vector<4x8xf32> to vector<4xf32>
  return %r : vector<4xf32>
}

// -----

func.func @constant_mask_out_of_range() -> vector<4xi1> {
  // expected-error@+1 {{'vector.constant_mask' op array attr of size out of bounds of vector result dimension size}}
  %m = vector.constant_mask [5] : vector<4xi1>
  return %m : vector<4xi1>
}

// -----

func.func @bitcast_size(%a: vector<4xf32>) -> vector<4xf16> {
  // expected-error@+1 {{'vector.bitcast' op source/result bitwidth of the minor 1-D vectors must be equal}}
  %r = vector.bitcast %a : vector<4xf32> to vector<4xf16>
  return %r : vector<4xf16>
}

// -----

func.func @broadcast_incompatible(%a: vector<3xf32>) -> vector<4x4xf32> {
  // expected-error@+1 {{'vector.broadcast' op dimension mismatch (3 vs. 4)}}
  %r = vector.broadcast %a : vector<3xf32> to vector<4x4xf32>
  return %r : vector<4x4xf32>
}

// -----

func.func @broadcast_rank(%a: vector<3x4xf32>) -> vector<4xf32> {
  // expected-error@+1 {{'vector.broadcast' op source rank higher than destination rank}}
  %r = vector.broadcast %a : vector<3x4xf32> to vector<4xf32>
  return %r : vector<4xf32>
}

// -----

func.func @extract_result_type(%v: vector<4x8xf32>) -> f32 {
  // expected-error@+2 {{'vector.extract' op failed to infer returned types}}
  // expected-error@+1 {{'vector.extract' op inferred type(s) 'vector<8xf32>' are incompatible with return type(s) of operation 'f32'}}
  %e = vector.extract %v[1] : f32 from vector<4x8xf32>
  return %e : f32
}

// -----

func.func @shuffle_result_length(%a: vector<2xf32>, %b: vector<2xf32>) -> vector<3xf32> {
  // expected-error@+1 {{'vector.shuffle' op mask length mismatch}}
  %r = "vector.shuffle"(%a, %b) <{mask = array<i64: 0, 1>}> : (vector<2xf32>, vector<2xf32>) -> vector<3xf32>
  return %r : vector<3xf32>
}

// -----

func.func @from_elements_count(%a: f32) -> vector<2xf32> {
  // expected-error@+1 {{'vector.from_elements' op failed to verify that shaped type 'dest' matches 'elements' element count and types}}
  %r = "vector.from_elements"(%a) : (f32) -> vector<2xf32>
  return %r : vector<2xf32>
}

// -----

func.func @step(%m: memref<8x8xf32>) -> vector<4xf32> {
  // expected-error@+1 {{'vector.step' op result #0 must be vector of index values of ranks 1, but got 'vector<4xf32>'}}
  %s = "vector.step"() : () -> vector<4xf32>
  return %s : vector<4xf32>
}

// -----

func.func @broadcast_scalar_type(%a: f32) -> vector<4xi32> {
  // expected-error@+1 {{'vector.broadcast' op failed to verify that source operand and result have same element type}}
  %r = vector.broadcast %a : f32 to vector<4xi32>
  return %r : vector<4xi32>
}

// -----

func.func @reduction_integer_kind_on_floats(%v: vector<4xf32>) -> f32 {
  // expected-error@+1 {{'vector.reduction' op unsupported reduction type ''f32'' for kind 'xor'}}
  %r = vector.reduction <xor>, %v : vector<4xf32> into f32
  return %r : f32
}

// -----

func.func @reduction_float_kind_on_integers(%v: vector<4xi32>) -> i32 {
  // expected-error@+1 {{'vector.reduction' op unsupported reduction type ''i32'' for kind 'maxnumf'}}
  %r = vector.reduction <maxnumf>, %v : vector<4xi32> into i32
  return %r : i32
}

// -----

func.func @transfer_read_map_not_projected(%m: memref<4x4xf32>, %i: index, %p: f32) -> vector<4xf32> {
  // expected-error@+1 {{'vector.transfer_read' op requires a projected permutation_map (at most one dim or the zero constant can appear in each result)}}
  %v = vector.transfer_read %m[%i, %i], %p {permutation_map = affine_map<(d0, d1) -> (d0 + d1)>} : memref<4x4xf32>, vector<4xf32>
  return %v : vector<4xf32>
}

// -----

func.func @transfer_read_map_nonzero_constant(%m: memref<4x4xf32>, %i: index, %p: f32) -> vector<4xf32> {
  // expected-error@+1 {{'vector.transfer_read' op requires a projected permutation_map (at most one dim or the zero constant can appear in each result)}}
  %v = vector.transfer_read %m[%i, %i], %p {permutation_map = affine_map<(d0, d1) -> (1)>} : memref<4x4xf32>, vector<4xf32>
  return %v : vector<4xf32>
}

// -----

func.func @transfer_read_map_inputs(%m: memref<4x4xf32>, %i: index, %p: f32) -> vector<4xf32> {
  // expected-error@+1 {{'vector.transfer_read' op requires a permutation_map with input dims of the same rank as the source type}}
  %v = vector.transfer_read %m[%i, %i], %p {permutation_map = affine_map<(d0) -> (d0)>} : memref<4x4xf32>, vector<4xf32>
  return %v : vector<4xf32>
}

// -----

func.func @transfer_read_map_results(%m: memref<4x4xf32>, %i: index, %p: f32) -> vector<4xf32> {
  // expected-error@+1 {{'vector.transfer_read' op requires a permutation_map with result dims of the same rank as the vector type}}
  %v = vector.transfer_read %m[%i, %i], %p {permutation_map = affine_map<(d0, d1) -> (d0, d1)>} : memref<4x4xf32>, vector<4xf32>
  return %v : vector<4xf32>
}

// -----

func.func @transfer_read_map_symbols(%m: memref<4x4xf32>, %i: index, %p: f32) -> vector<4xf32> {
  // expected-error@+1 {{'vector.transfer_read' op requires permutation_map without symbols}}
  %v = vector.transfer_read %m[%i, %i], %p {permutation_map = affine_map<(d0, d1)[s0] -> (d1)>} : memref<4x4xf32>, vector<4xf32>
  return %v : vector<4xf32>
}

// -----

func.func @transfer_read_map_repeats(%m: memref<4x4xf32>, %i: index, %p: f32) -> vector<4x4xf32> {
  // expected-error@+1 {{'vector.transfer_read' op requires a permutation_map that is a permutation (found one dim used more than once)}}
  %v = vector.transfer_read %m[%i, %i], %p {permutation_map = affine_map<(d0, d1) -> (d1, d1)>} : memref<4x4xf32>, vector<4x4xf32>
  return %v : vector<4x4xf32>
}

// -----

func.func @transfer_read_in_bounds_size(%m: memref<4x4xf32>, %i: index, %p: f32) -> vector<4xf32> {
  // expected-error@+1 {{'vector.transfer_read' op expects the in_bounds attr of same rank as permutation_map results: affine_map<(d0, d1) -> (d1)> vs inBounds of size: 2}}
  %v = vector.transfer_read %m[%i, %i], %p {in_bounds = [true, false]} : memref<4x4xf32>, vector<4xf32>
  return %v : vector<4xf32>
}

// -----

func.func @transfer_read_vector_element_results(%m: memref<4x4xvector<2xf32>>, %i: index, %p: vector<2xf32>) -> vector<4x2xf32> {
  // expected-error@+1 {{'vector.transfer_read' op requires a permutation_map with result dims of the same rank as the vector type}}
  %v = vector.transfer_read %m[%i, %i], %p {permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<4x4xvector<2xf32>>, vector<4x2xf32>
  return %v : vector<4x2xf32>
}

// -----

func.func @transfer_read_rank_without_map(%m: memref<4xf32>, %i: index, %p: f32) -> vector<4x4xf32> {
  // expected-error@+1 {{custom op 'vector.transfer_read' expected a custom permutation_map when rank(source) != rank(destination)}}
  %v = vector.transfer_read %m[%i], %p : memref<4xf32>, vector<4x4xf32>
  return %v : vector<4x4xf32>
}

// -----

func.func @transfer_write_broadcast(%m: memref<4x4xf32>, %i: index, %v: vector<4xf32>) {
  // expected-error@+1 {{'vector.transfer_write' op should not have broadcast dimensions}}
  vector.transfer_write %v, %m[%i, %i] {permutation_map = affine_map<(d0, d1) -> (0)>} : vector<4xf32>, memref<4x4xf32>
  return
}

// -----

func.func @transfer_write_map_not_projected(%m: memref<4x4xf32>, %i: index, %v: vector<4xf32>) {
  // expected-error@+1 {{'vector.transfer_write' op requires a projected permutation_map (at most one dim or the zero constant can appear in each result)}}
  vector.transfer_write %v, %m[%i, %i] {permutation_map = affine_map<(d0, d1) -> (d0 * 2)>} : vector<4xf32>, memref<4x4xf32>
  return
}

// -----

func.func @transfer_write_map_results(%m: memref<4x4xf32>, %i: index, %v: vector<4xf32>) {
  // expected-error@+1 {{'vector.transfer_write' op requires a permutation_map with result dims of the same rank as the vector type}}
  vector.transfer_write %v, %m[%i, %i] {permutation_map = affine_map<(d0, d1) -> (d0, d1)>} : vector<4xf32>, memref<4x4xf32>
  return
}

// -----

func.func @transfer_write_map_inputs(%m: memref<4x4xf32>, %i: index, %v: vector<4xf32>) {
  // expected-error@+1 {{'vector.transfer_write' op requires a permutation_map with input dims of the same rank as the source type}}
  vector.transfer_write %v, %m[%i, %i] {permutation_map = affine_map<(d0, d1, d2) -> (d2)>} : vector<4xf32>, memref<4x4xf32>
  return
}

// -----

func.func @transfer_write_in_bounds_size(%m: memref<4x4xf32>, %i: index, %v: vector<4xf32>) {
  // expected-error@+1 {{'vector.transfer_write' op expects the in_bounds attr of same rank as permutation_map results: affine_map<(d0, d1) -> (d1)> vs inBounds of size: 2}}
  vector.transfer_write %v, %m[%i, %i] {in_bounds = [true, true]} : vector<4xf32>, memref<4x4xf32>
  return
}

// -----

func.func @transfer_read_generic_in_bounds(%m: memref<4x4xf32>, %i: index, %p: f32) -> vector<4xf32> {
  // expected-error@+1 {{'vector.transfer_read' op expects the in_bounds attr of same rank as permutation_map results: affine_map<(d0, d1) -> (d1)> vs inBounds of size: 2}}
  %v = "vector.transfer_read"(%m, %i, %i, %p) <{in_bounds = [true, true], operandSegmentSizes = array<i32: 1, 2, 1, 0>, permutation_map = affine_map<(d0, d1) -> (d1)>}> : (memref<4x4xf32>, index, index, f32) -> vector<4xf32>
  return %v : vector<4xf32>
}

// -----

func.func @extract_dynamic_marker_without_operand(%v: vector<4xf32>) -> f32 {
  // expected-error@+1 {{'vector.extract' op mismatch between dynamic and static positions (kDynamic marker but no corresponding dynamic position) -- this can only happen due to an incorrect fold/rewrite}}
  %e = vector.extract %v[-9223372036854775808] : f32 from vector<4xf32>
  return %e : f32
}
