// memref ops (and gpu.alloc's sizes) checked against the memref's shape, in mlir-opt's words.
// RUN: %mlir_opt --split-input-file --verify-diagnostics %s
// RUN: %gpuinterp --split-input-file --verify-diagnostics %s

func.func @load_too_few_indices(%m: memref<4x4xf32>, %i: index) -> f32 {
  // expected-error@+1 {{'memref.load' op incorrect number of indices for load, expected 2 but got 1}}
  %v = memref.load %m[%i] : memref<4x4xf32>
  return %v : f32
}

// -----

func.func @store_too_many_indices(%m: memref<4x4xf32>, %i: index, %f: f32) {
  // expected-error@+1 {{'memref.store' op store index operand count not equal to memref rank}}
  memref.store %f, %m[%i, %i, %i] : memref<4x4xf32>
  return
}

// -----

func.func @alloc_missing_dynamic_size() {
  // expected-error@+1 {{'memref.alloc' op incorrect number of dynamic sizes, has 0, expected 1}}
  %a = memref.alloc() : memref<?x4xf32>
  return
}

// -----

func.func @alloc_extra_dynamic_size(%n: index) {
  // expected-error@+1 {{'memref.alloc' op incorrect number of dynamic sizes, has 2, expected 1}}
  %a = memref.alloc(%n, %n) : memref<?x4xf32>
  return
}

// -----

func.func @alloca_missing_dynamic_size() {
  // expected-error@+1 {{'memref.alloca' op incorrect number of dynamic sizes, has 0, expected 1}}
  %a = memref.alloca() : memref<?xf32>
  return
}

// -----

func.func @gpu_alloc_missing_dynamic_size() {
  // expected-error@+1 {{'gpu.alloc' op incorrect number of dynamic sizes, has 0, expected 1}}
  %a = gpu.alloc() : memref<?xf32>
  return
}

// -----

func.func @gpu_alloc_extra_dynamic_size(%n: index) {
  // expected-error@+1 {{'gpu.alloc' op incorrect number of dynamic sizes, has 1, expected 0}}
  %a = gpu.alloc(%n) : memref<4xf32>
  return
}

// -----

func.func @view_missing_dynamic_size(%b: memref<2048xi8>, %o: index) {
  // expected-error@+1 {{'memref.view' op incorrect number of dynamic sizes, has 0, expected 1}}
  %v = memref.view %b[%o][] : memref<2048xi8> to memref<?x4xf32>
  return
}

// -----

func.func @atomic_rmw_wrong_indices(%m: memref<4x4xf32>, %i: index, %f: f32) {
  // expected-error@+1 {{'memref.atomic_rmw' op expects the number of subscripts to be equal to memref rank}}
  %r = memref.atomic_rmw addf %f, %m[%i] : (f32, memref<4x4xf32>) -> f32
  return
}

// -----

func.func @subview_wrong_offset_count(%m: memref<8x8xf32>) {
  // expected-error@+1 {{expected mixed offsets rank to match mixed sizes rank (1 vs 2) so the rank of the result type is well-formed.}}
  %s = memref.subview %m[0][4, 4][1, 1] : memref<8x8xf32> to memref<4x4xf32, strided<[8, 1]>>
  return
}

// -----

func.func @subview_wrong_size_count(%m: memref<8x8xf32>) {
  // expected-error@+1 {{expected mixed offsets rank to match mixed sizes rank (2 vs 1) so the rank of the result type is well-formed.}}
  %s = memref.subview %m[0, 0][4][1, 1] : memref<8x8xf32> to memref<4x4xf32, strided<[8, 1]>>
  return
}

// -----

func.func @reinterpret_cast_wrong_size_count(%m: memref<16xf32>) {
  // expected-error@+1 {{expected mixed sizes rank to match mixed strides rank (1 vs 2) so the rank of the result type is well-formed.}}
  %r = memref.reinterpret_cast %m to offset: [0], sizes: [4], strides: [4, 1] : memref<16xf32> to memref<4x4xf32>
  return
}

// -----

func.func @copy_shape_mismatch(%a: memref<4xf32>, %b: memref<8xf32>) {
  // expected-error@+1 {{'memref.copy' op requires the same shape for all operands}}
  memref.copy %a, %b : memref<4xf32> to memref<8xf32>
  return
}

// -----

func.func @copy_element_type_mismatch(%a: memref<4xf32>, %b: memref<4xi32>) {
  // expected-error@+1 {{'memref.copy' op requires the same element type for all operands}}
  memref.copy %a, %b : memref<4xf32> to memref<4xi32>
  return
}

// -----

func.func @cast_incompatible_shape(%a: memref<4xf32>) {
  // expected-error@+1 {{'memref.cast' op operand type 'memref<4xf32>' and result type 'memref<8xf32>' are cast incompatible}}
  %c = memref.cast %a : memref<4xf32> to memref<8xf32>
  return
}

// -----

func.func @cast_incompatible_element(%a: memref<4xf32>) {
  // expected-error@+1 {{'memref.cast' op operand type 'memref<4xf32>' and result type 'memref<4xi32>' are cast incompatible}}
  %c = memref.cast %a : memref<4xf32> to memref<4xi32>
  return
}

// -----

func.func @transpose_not_permutation(%a: memref<4x8xf32>) {
  // expected-error@+1 {{'memref.transpose' op expected a permutation map}}
  %t = memref.transpose %a (i, j) -> (i, i) : memref<4x8xf32> to memref<4x8xf32>
  return
}

// -----

memref.global "private" @g : memref<4xf32> = dense<0.0>
func.func @get_global_type_mismatch() {
  // expected-error@+1 {{'memref.get_global' op result type 'memref<8xf32>' does not match type 'memref<4xf32>' of the global memref @g}}
  %g = memref.get_global @g : memref<8xf32>
  return
}

// -----

func.func @dim_too_many_indices(%m: memref<4x4xf32>, %i: index) -> f32 {
  // expected-error@+1 {{'memref.load' op incorrect number of indices for load, expected 2 but got 4}}
  %v = memref.load %m[%i, %i, %i, %i] : memref<4x4xf32>
  return %v : f32
}

// -----

func.func @subview_source_rank(%m: memref<8x8xf32>) {
  // expected-error@+1 {{expected 2 offset values, got 1}}
  %s = memref.subview %m[0][4][1] : memref<8x8xf32> to memref<4xf32, strided<[1]>>
  return
}

// -----

func.func @reinterpret_result_rank(%m: memref<16xf32>) {
  // expected-error@+1 {{expected 2 size values, got 3}}
  %r = memref.reinterpret_cast %m to offset: [0], sizes: [4, 4, 1], strides: [4, 1, 1] : memref<16xf32> to memref<4x4xf32>
  return
}

// -----

func.func @realloc_missing(%m: memref<4xf32>) {
  // expected-error@+1 {{missing dimension operand for result type 'memref<?xf32>'}}
  %r = memref.realloc %m : memref<4xf32> to memref<?xf32>
  return
}

// -----

func.func @dim_idx(%m: memref<4xf32>) {
  // expected-error@+1 {{different element types specified for source memref type 'memref<4xf32>' and result memref type 'memref<8xi32>'}}
  %r = memref.realloc %m : memref<4xf32> to memref<8xi32>
  return
}

// -----

func.func @scan_dim(%a: vector<4x8xf32>, %acc: vector<4xf32>) {
  // expected-error@+1 {{'vector.scan' op reduction dimension 2 has to be less than 2}}
  %r:2 = vector.scan <add>, %a, %acc {inclusive = true, reduction_dim = 2 : i64} : vector<4x8xf32>, vector<4xf32>
  return
}

// -----

func.func @multi_reduction_out(%a: vector<4x8xf32>, %acc: vector<4xf32>) -> vector<4xf32> {
  // expected-error@+1 {{'vector.multi_reduction' op destination type 'vector<4xf32>' is incompatible with source type 'vector<4x8xf32>'}}
  %r = vector.multi_reduction <add>, %a, %acc [0] : vector<4x8xf32> to vector<4xf32>
  return %r : vector<4xf32>
}

// -----

func.func @interleave(%a: vector<4xf32>, %b: vector<4xf32>) -> vector<4xf32> {
  // expected-error@+1 {{'vector.interleave' op failed to verify that type of 'result' is double the width of the inputs}}
  %r = "vector.interleave"(%a, %b) : (vector<4xf32>, vector<4xf32>) -> vector<4xf32>
  return %r : vector<4xf32>
}

// -----

func.func @vload_elem(%m: memref<4xf32>, %i: index) -> vector<4xi32> {
  // expected-error@+1 {{'vector.load' op base and result element types should match}}
  %v = vector.load %m[%i] : memref<4xf32>, vector<4xi32>
  return %v : vector<4xi32>
}

// -----

func.func @mload_elem(%m: memref<4xf32>, %i: index, %f: i32) -> i32 {
  // expected-error@+1 {{'memref.load' op failed to verify that result type matches element type of 'memref'}}
  %v = "memref.load"(%m, %i) : (memref<4xf32>, index) -> i32
  return %v : i32
}

// -----

func.func @mstore_elem(%m: memref<4xf32>, %i: index, %f: i32) {
  // expected-error@+1 {{'memref.store' op failed to verify that type of 'value' matches element type of 'memref'}}
  "memref.store"(%f, %m, %i) : (i32, memref<4xf32>, index) -> ()
  return
}

// -----

func.func @reinterpret_size(%m: memref<16xf32>) {
  // expected-error@+1 {{expected result type with size = 8 instead of 4 in dim = 0}}
  %r = memref.reinterpret_cast %m to offset: [0], sizes: [8], strides: [1] : memref<16xf32> to memref<4xf32>
  return
}

// -----

func.func @reinterpret_stride(%m: memref<16xf32>) {
  // expected-error@+1 {{expected result type with stride = 2 instead of 1 in dim = 0}}
  %r = memref.reinterpret_cast %m to offset: [0], sizes: [4], strides: [2] : memref<16xf32> to memref<4xf32>
  return
}

// -----

func.func @subview_result(%m: memref<8x8xf32>) {
  // expected-error@+1 {{expected result type to be 'memref<4x4xf32, strided<[8, 1]>>' or a rank-reduced version. (mismatch of result sizes), but got 'memref<4x5xf32, strided<[8, 1]>>'}}
  %s = memref.subview %m[0, 0][4, 4][1, 1] : memref<8x8xf32> to memref<4x5xf32, strided<[8, 1]>>
  return
}

// -----

func.func @atomic_rmw_kind(%m: memref<4xf32>, %i: index, %x: i32) {
  // expected-error@+1 {{'memref.atomic_rmw' op failed to verify that value type matches element type of memref}}
  %r = memref.atomic_rmw addf %x, %m[%i] : (i32, memref<4xf32>) -> i32
  return
}

// -----

func.func @subview_wrong_result_offset(%m: memref<8x16xf32>) {
  // expected-error@+1 {{expected result type to be 'memref<4x4xf32, strided<[16, 2], offset: 36>>' or a rank-reduced version. (mismatch of result layout), but got 'memref<4x4xf32, strided<[16, 2], offset: 35>>'}}
  %s = memref.subview %m[2, 4] [4, 4] [1, 2] : memref<8x16xf32> to memref<4x4xf32, strided<[16, 2], offset: 35>>
  return
}

// -----

func.func @subview_dynamic_result_offset(%m: memref<32xi32>) {
  // expected-error@+1 {{(mismatch of result layout), but got 'memref<16xi32, strided<[1], offset: ?>>'}}
  %s = memref.subview %m[4] [16] [1] : memref<32xi32> to memref<16xi32, strided<[1], offset: ?>>
  return
}

// -----

// A dynamic offset makes the offset `?`; a dynamic size leaves the strides as they are.
func.func @subview_dynamic_offset_wrong_stride(%m: memref<8x16xf32>, %i: index, %j: index, %n: index) {
  // expected-error@+1 {{expected result type to be 'memref<2x?xf32, strided<[16, 2], offset: ?>>' or a rank-reduced version. (mismatch of result layout), but got 'memref<2x?xf32, strided<[16, 3], offset: ?>>'}}
  %s = memref.subview %m[%i, %j] [2, %n] [1, 2] : memref<8x16xf32> to memref<2x?xf32, strided<[16, 3], offset: ?>>
  return
}

// -----

// A dynamic source stride makes the result's stride `?`, which a static one does not match.
func.func @subview_dynamic_source_stride(%m: memref<?x?xf32, strided<[?, 1], offset: ?>>) {
  // expected-error@+1 {{expected result type to be 'memref<2x2xf32, strided<[?, 3], offset: ?>>' or a rank-reduced version. (mismatch of result layout), but got 'memref<2x2xf32, strided<[4, 3], offset: ?>>'}}
  %s = memref.subview %m[1, 2] [2, 2] [1, 3] : memref<?x?xf32, strided<[?, 1], offset: ?>> to memref<2x2xf32, strided<[4, 3], offset: ?>>
  return
}

// -----

// an offset near 2^63: the result type the interpreter would trust is not the one MLIR infers
func.func @subview_huge_offset(%m: memref<32xi32>) {
  // expected-error@+1 {{expected result type to be 'memref<16xi32, strided<[1], offset: 9223372036854775807>>' or a rank-reduced version. (mismatch of result layout), but got 'memref<16xi32, strided<[1], offset: 16>>'}}
  %s = memref.subview %m[9223372036854775807] [16] [1] : memref<32xi32> to memref<16xi32, strided<[1], offset: 16>>
  return
}

// -----

func.func @dim_of_0d_memref(%m: memref<f32>, %i: index) -> index {
  // expected-error@+1 {{'memref.dim' op operand #0 must be unranked.memref of any type values or non-0-ranked.memref of any type values, but got 'memref<f32>'}}
  %d = memref.dim %m, %i : memref<f32>
  return %d : index
}

// -----

func.func @dim_of_vector(%v: vector<4xf32>, %i: index) -> index {
  // expected-error@+1 {{'memref.dim' op operand #0 must be unranked.memref of any type values or non-0-ranked.memref of any type values, but got 'vector<4xf32>'}}
  %d = "memref.dim"(%v, %i) : (vector<4xf32>, index) -> index
  return %d : index
}

// -----

func.func @dim_index_not_index(%m: memref<4xf32>, %i: i32) -> index {
  // expected-error@+1 {{'memref.dim' op operand #1 must be index, but got 'i32'}}
  %d = "memref.dim"(%m, %i) : (memref<4xf32>, i32) -> index
  return %d : index
}

// -----

func.func @dim_result_not_index(%m: memref<4xf32>, %i: index) -> i32 {
  // expected-error@+1 {{'memref.dim' op result #0 must be index, but got 'i32'}}
  %d = "memref.dim"(%m, %i) : (memref<4xf32>, index) -> i32
  return %d : i32
}

// -----

func.func @alloc_layout_symbol_missing() {
  // expected-error@+1 {{'memref.alloc' op symbol operand count does not equal memref symbol count: expected 1, got 0}}
  %a = memref.alloc() : memref<4xf32, affine_map<(d0)[s0] -> (d0 + s0)>>
  return
}

// -----

func.func @alloc_layout_symbol_extra(%s: index) {
  // expected-error@+1 {{'memref.alloc' op symbol operand count does not equal memref symbol count: expected 1, got 2}}
  %a = memref.alloc()[%s, %s] : memref<4xf32, affine_map<(d0)[s0] -> (d0 + s0)>>
  return
}

// -----

func.func @alloca_identity_layout_symbol(%s: index) {
  // expected-error@+1 {{'memref.alloca' op symbol operand count does not equal memref symbol count: expected 0, got 1}}
  %a = memref.alloca()[%s] : memref<4xf32>
  return
}

// -----

// a strided layout's map has a symbol for each `?` offset and stride
func.func @alloca_strided_symbol_missing() {
  // expected-error@+1 {{'memref.alloca' op symbol operand count does not equal memref symbol count: expected 1, got 0}}
  %a = memref.alloca() : memref<4xf32, strided<[1], offset: ?>>
  return
}

// -----

func.func @alloc_strided_symbols(%s: index) {
  // expected-error@+1 {{'memref.alloc' op symbol operand count does not equal memref symbol count: expected 2, got 1}}
  %a = memref.alloc()[%s] : memref<4x4xf32, strided<[?, 1], offset: ?>>
  return
}

// -----

// global_initializer_shape
// expected-error@+1 {{'memref.global' op initial value shape expected to be 4 but was 8}}
"memref.global"() <{sym_name = "g", sym_visibility = "private", type = memref<4xf32>, initial_value = dense<1.0> : tensor<8xf32>}> : () -> ()

// -----

// global_initializer_rank
// expected-error@+1 {{'memref.global' op initial value shape expected to be 4 but was 2, 2}}
"memref.global"() <{sym_name = "g", type = memref<4xf32>, initial_value = dense<1.0> : tensor<2x2xf32>}> : () -> ()

// -----

// global_initializer_element_type
// expected-error@+1 {{'memref.global' op initial value element expected to be of type 'f32', but was of type 'i32'}}
"memref.global"() <{sym_name = "g", type = memref<4xf32>, initial_value = dense<1> : tensor<4xi32>}> : () -> ()

// -----

// global_initializer_not_elements
// expected-error@+1 {{'memref.global' op initial value should be a unit or elements attribute, but got "s"}}
"memref.global"() <{sym_name = "g", type = memref<4xf32>, initial_value = "s"}> : () -> ()

// -----

// global_type_not_memref
// expected-error@+1 {{'memref.global' op attribute 'type' failed to satisfy constraint: memref type attribute}}
"memref.global"() <{sym_name = "g", type = f32}> : () -> ()

// -----

// global_type_dynamic
// expected-error@+1 {{'memref.global' op type should be static shaped memref, but got 'memref<?xf32>'}}
"memref.global"() <{sym_name = "g", type = memref<?xf32>}> : () -> ()

// -----

// global_alignment_not_power_of_two
// expected-error@+1 {{'memref.global' op attribute 'alignment' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive and whose value is a power of two > 0}}
"memref.global"() <{sym_name = "g", type = memref<4xf32>, initial_value = dense<1.0> : tensor<4xf32>, alignment = 3 : i64}> : () -> ()

// -----

// global_custom_type_dynamic
// expected-error@+1 {{custom op 'memref.global' type should be static shaped memref, but got 'memref<?xf32>'}}
memref.global @g : memref<?xf32> = dense<1.0>

// -----

// global_custom_type_not_memref
// expected-error@+1 {{custom op 'memref.global' type should be static shaped memref, but got 'f32'}}
memref.global @g : f32

// -----

// global_custom_initializer_string
// expected-error@+1 {{custom op 'memref.global' initial value should be a unit or elements attribute}}
memref.global @g : memref<4xf32> = "str"

// -----

func.func @expand_shape_bound_differs(%m: memref<8x16xf32>) {
  // expected-error@+1 {{'memref.expand_shape' op invalid output shape provided at pos 1}}
  %e = memref.expand_shape %m [[0, 1], [2]] output_shape [2, 5, 16] : memref<8x16xf32> into memref<2x4x16xf32>
  return
}

// -----

func.func @expand_shape_dynamic_bound_for_static(%m: memref<8x16xf32>, %n: index) {
  // expected-error@+1 {{'memref.expand_shape' op invalid output shape provided at pos 0}}
  %e = memref.expand_shape %m [[0, 1], [2]] output_shape [%n, 4, 16] : memref<8x16xf32> into memref<2x4x16xf32>
  return
}

// -----

func.func @expand_shape_too_few_bounds(%m: memref<8x16xf32>) {
  // expected-error@+1 {{'memref.expand_shape' op expected number of static shape bounds to be equal to the output rank (3) but found 2 inputs instead}}
  %e = memref.expand_shape %m [[0, 1], [2]] output_shape [2, 4] : memref<8x16xf32> into memref<2x4x16xf32>
  return
}

// -----

func.func @global_in_function() {
  // expected-error@+1 {{'memref.global' op symbol's parent must have the SymbolTable trait}}
  memref.global "private" @g : memref<4xf32>
  return
}

// -----

// -9223372036854775808 is the `?` marker, which needs an operand.
func.func @subview_dynamic_stride_without_operand(%m: memref<8xi32>) {
  // expected-error@+1 {{expected the number of 'strides' to match the number of dynamic entries in 'static_strides' (0 vs 1)}}
  %v = memref.subview %m[4] [4] [-9223372036854775808] : memref<8xi32> to memref<4xi32, strided<[1], offset: 4>>
  return
}

// -----

func.func @reinterpret_cast_offset_operand_for_static(%m: memref<8xi32>, %i: index) {
  // expected-error@+1 {{expected the number of 'offsets' to match the number of dynamic entries in 'static_offsets' (1 vs 0)}}
  %v = "memref.reinterpret_cast"(%m, %i) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, static_offsets = array<i64: 0>, static_sizes = array<i64: 4>, static_strides = array<i64: 1>}> : (memref<8xi32>, index) -> memref<4xi32, strided<[1]>>
  return
}

// -----

// The sizes are checked before the strides and the offsets.
func.func @subview_dynamic_sizes_checked_first(%m: memref<8xi32>) {
  // expected-error@+1 {{expected the number of 'sizes' to match the number of dynamic entries in 'static_sizes' (0 vs 1)}}
  %v = "memref.subview"(%m) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>, static_offsets = array<i64: -9223372036854775808>, static_sizes = array<i64: -9223372036854775808>, static_strides = array<i64: -9223372036854775808>}> : (memref<8xi32>) -> memref<4xi32, strided<[1], offset: ?>>
  return
}

// -----

func.func @alloca_alignment_not_power_of_two() {
  // expected-error@+1 {{custom op 'memref.alloca' 'memref.alloca' op attribute 'alignment' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive and whose value is a power of two > 0}}
  %a = memref.alloca() {alignment = 9223372036854775807 : i64} : memref<4xf32>
  return
}

// -----

func.func @alloc_alignment_zero() {
  // expected-error@+1 {{custom op 'memref.alloc' 'memref.alloc' op attribute 'alignment' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive and whose value is a power of two > 0}}
  %a = memref.alloc() {alignment = 0} : memref<4xf32>
  return
}

// -----

func.func @alloc_alignment_i32_generic() {
  // expected-error@+1 {{'memref.alloc' op attribute 'alignment' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive and whose value is a power of two > 0}}
  %a = "memref.alloc"() <{alignment = 16 : i32, operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<4xf32>
  return
}

// -----

// expected-error@+1 {{custom op 'memref.global' 'memref.global' op attribute 'alignment' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive and whose value is a power of two > 0}}
memref.global "private" @misaligned : memref<4xf32> {alignment = -8 : i64}

// -----

func.func @alloc_negative_segment() {
  // expected-error@+1 {{'memref.alloc' op 'operandSegmentSizes' attribute cannot have negative elements}}
  %m = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, -1>}> : () -> memref<4xf32>
  return
}

// -----

func.func @alloc_segments_short_of_operands(%n: index) {
  // expected-error@+1 {{'memref.alloc' op operand count (1) does not match with the total size (0) specified in attribute 'operandSegmentSizes'}}
  %m = "memref.alloc"(%n) <{operandSegmentSizes = array<i32: 0, 0>}> : (index) -> memref<?xf32>
  return
}

// -----

// Without the attribute every group is empty.
func.func @alloc_without_segments(%n: index) {
  // expected-error@+1 {{'memref.alloc' op operand count (1) does not match with the total size (0) specified in attribute 'operandSegmentSizes'}}
  %m = "memref.alloc"(%n) : (index) -> memref<?xf32>
  return
}

// -----

func.func @expand_shape_dynamic_bound_without_operand(%m: memref<8xi32>) {
  // expected-error@+1 {{'memref.expand_shape' op mismatch in dynamic dims in output_shape and static_output_shape: static_output_shape has 1 dynamic dims while output_shape has 0 values}}
  %e = "memref.expand_shape"(%m) <{reassociation = [[0, 1]], static_output_shape = array<i64: -9223372036854775808, 4>}> : (memref<8xi32>) -> memref<2x4xi32>
  return
}

// -----

func.func @subview_negative_offset(%m: memref<3x16xi32>) {
  // expected-error@+1 {{expected offsets to be non-negative, but got -1}}
  %s = memref.subview %m[-1, 0] [1, 16] [1, 1] : memref<3x16xi32> to memref<16xi32, strided<[1], offset: 16>>
  return
}

// -----

func.func @reinterpret_cast_negative_size(%m: memref<8xi32>) {
  // expected-error@+1 {{expected sizes to be non-negative, but got -4}}
  %v = memref.reinterpret_cast %m to offset: [0], sizes: [-4], strides: [1] : memref<8xi32> to memref<4xi32>
  return
}

// -----

func.func @reinterpret_cast_no_offset(%m: memref<?x?xf32>) {
  // expected-error@+1 {{expected mixed offsets rank to match mixed sizes rank (0 vs 1) so the rank of the result type is well-formed.}}
  %r = memref.reinterpret_cast %m to offset: [], sizes: [10], strides: [1] : memref<?x?xf32> to memref<10xf32, strided<[1], offset: 0>>
  return
}

// -----

// memref.transpose: the result is the input's layout permuted, compared after canonicalizing
func.func @transpose_identity_result(%a: memref<2x3xf32>) {
  // expected-error@+1 {{'memref.transpose' op result type 'memref<3x2xf32>' is not equivalent to the canonical transposed input type 'memref<3x2xf32, affine_map<(d0, d1) -> (d0 + d1 * 3)>>'}}
  %0 = memref.transpose %a (i, j) -> (j, i) : memref<2x3xf32> to memref<3x2xf32>
  return
}

// -----

func.func @transpose_offset(%a: memref<2x3x4xf32, strided<[12, 4, 1], offset: 5>>) {
  // expected-error@+1 {{'memref.transpose' op result type 'memref<4x2x3xf32>' is not equivalent to the canonical transposed input type 'memref<4x2x3xf32, affine_map<(d0, d1, d2) -> (d0 + d1 * 12 + d2 * 4 + 5)>>'}}
  %0 = memref.transpose %a (i, j, k) -> (k, i, j) : memref<2x3x4xf32, strided<[12, 4, 1], offset: 5>> to memref<4x2x3xf32>
  return
}

// -----

func.func @transpose_unit_dim(%a: memref<3x1xf32>) {
  // expected-error@+1 {{'memref.transpose' op result type 'memref<1x3xf32, strided<[5, 1]>>' is not equivalent to the canonical transposed input type 'memref<1x3xf32, affine_map<(d0, d1) -> (d0 + d1)>>'}}
  %0 = memref.transpose %a (i, j) -> (j, i) : memref<3x1xf32> to memref<1x3xf32, strided<[5, 1]>>
  return
}

// -----

func.func @transpose_memory_space(%a: memref<2x3xf32, 3>) {
  // expected-error@+1 {{'memref.transpose' op result type 'memref<3x2xf32>' is not equivalent to the canonical transposed input type 'memref<3x2xf32, affine_map<(d0, d1) -> (d0 + d1 * 3)>, 3>'}}
  %0 = memref.transpose %a (i, j) -> (j, i) : memref<2x3xf32, 3> to memref<3x2xf32>
  return
}

// -----

func.func @transpose_zero_stride(%a: memref<2x3xf32, strided<[0, 1]>>) {
  // expected-error@+1 {{'memref.transpose' op result type 'memref<3x2xf32, strided<[1, 1]>>' is not equivalent to the canonical transposed input type 'memref<3x2xf32, affine_map<(d0, d1) -> (d0)>>'}}
  %0 = memref.transpose %a (i, j) -> (j, i) : memref<2x3xf32, strided<[0, 1]>> to memref<3x2xf32, strided<[1, 1]>>
  return
}

// -----

func.func @transpose_ok(%a: memref<2x3xf32>, %b: memref<2x3xf32, strided<[12, 4], offset: 5>>) {
  %0 = memref.transpose %a (i, j) -> (j, i) : memref<2x3xf32> to memref<3x2xf32, strided<[1, 3]>>
  %1 = memref.transpose %a (i, j) -> (i, j) : memref<2x3xf32> to memref<2x3xf32>
  %2 = memref.transpose %b (i, j) -> (j, i) : memref<2x3xf32, strided<[12, 4], offset: 5>> to memref<3x2xf32, strided<[4, 12], offset: 5>>
  return
}
