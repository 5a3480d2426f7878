// llvm ops (and !llvm.array sizes) checked as mlir-opt 22 checks them, in its words.
// RUN: %mlir_opt --split-input-file --verify-diagnostics %s
// RUN: %gpuinterp --split-input-file --verify-diagnostics %s

func.func @array_size_too_large() {
  // expected-error@+2 {{integer value too large}}
  // expected-error@+1 {{failed to parse LLVMArrayType parameter 'numElements' which is to be a `uint64_t`}}
  %a = llvm.mlir.undef : !llvm.array<18446744073709551616 x i32>
  return
}

// -----

func.func @array_size_too_negative() {
  // expected-error@+2 {{integer value too large}}
  // expected-error@+1 {{failed to parse LLVMArrayType parameter 'numElements' which is to be a `uint64_t`}}
  %a = llvm.mlir.undef : !llvm.array<-18446744073709551616 x i32>
  return
}

// -----

func.func @extractvalue_out_of_bounds(%s: !llvm.struct<(i32, f32)>) {
  // expected-error@+1 {{'llvm.extractvalue' op position out of bounds: 2}}
  %v = "llvm.extractvalue"(%s) <{position = array<i64: 2>}> : (!llvm.struct<(i32, f32)>) -> i32
  return
}

// -----

func.func @extractvalue_type(%s: !llvm.struct<(i32, f32)>) {
  // expected-error@+1 {{'llvm.extractvalue' op Type mismatch: extracting from '!llvm.struct<(i32, f32)>' should produce 'f32' but this op returns 'i32'}}
  %v = "llvm.extractvalue"(%s) <{position = array<i64: 1>}> : (!llvm.struct<(i32, f32)>) -> i32
  return
}

// -----

func.func @extractvalue_array_out_of_bounds(%s: !llvm.array<4 x i32>) {
  // expected-error@+1 {{'llvm.extractvalue' op position out of bounds: 4}}
  %v = "llvm.extractvalue"(%s) <{position = array<i64: 4>}> : (!llvm.array<4 x i32>) -> i32
  return
}

// -----

func.func @insertvalue_out_of_bounds(%s: !llvm.struct<(i32, f32)>, %x: i32) {
  // expected-error@+1 {{'llvm.insertvalue' op position out of bounds: 2}}
  %v = "llvm.insertvalue"(%s, %x) <{position = array<i64: 2>}> : (!llvm.struct<(i32, f32)>, i32) -> !llvm.struct<(i32, f32)>
  return
}

// -----

func.func @insertvalue_type(%s: !llvm.struct<(i32, f32)>, %x: i32) {
  // expected-error@+1 {{'llvm.insertvalue' op Type mismatch: cannot insert 'i32' into '!llvm.struct<(i32, f32)>'}}
  %v = "llvm.insertvalue"(%s, %x) <{position = array<i64: 1>}> : (!llvm.struct<(i32, f32)>, i32) -> !llvm.struct<(i32, f32)>
  return
}

// -----

func.func @extractvalue_too_deep(%s: !llvm.struct<(i32, f32)>) {
  // expected-error@+1 {{'llvm.extractvalue' op expected LLVM IR structure/array type, got: 'i32'}}
  %v = "llvm.extractvalue"(%s) <{position = array<i64: 0, 0>}> : (!llvm.struct<(i32, f32)>) -> i32
  return
}

// -----

func.func @gep_struct_index_out_of_bounds(%p: !llvm.ptr) {
  // expected-error@+1 {{'llvm.getelementptr' op index 1 indexing a struct is out of bounds}}
  %q = llvm.getelementptr %p[0, 2] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, f32)>
  return
}

// -----

func.func @gep_struct_dynamic_index(%p: !llvm.ptr, %i: i32) {
  // expected-error@+1 {{'llvm.getelementptr' op expected index 1 indexing a struct to be constant}}
  %q = llvm.getelementptr %p[0, %i] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.struct<(i32, f32)>
  return
}

// -----

func.func @extractelement_type(%a: vector<2xf32>, %i: i32) {
  // expected-error@+1 {{'llvm.extractelement' op failed to verify that result type matches vector element type}}
  %r = "llvm.extractelement"(%a, %i) : (vector<2xf32>, i32) -> i32
  return
}

// -----

func.func @binary_type(%a: i32, %b: i64) {
  // expected-error@+1 {{'llvm.add' op requires the same type for all operands and results}}
  %r = "llvm.add"(%a, %b) : (i32, i64) -> i32
  return
}

// -----

func.func @icmp_result(%a: i32, %b: i32) {
  // expected-error@+1 {{'llvm.icmp' op result #0 must be 1-bit signless integer or LLVM dialect-compatible vector of 1-bit signless integer, but got 'i32'}}
  %r = "llvm.icmp"(%a, %b) <{predicate = 0 : i64}> : (i32, i32) -> i32
  return
}

// -----

func.func @zext_narrower(%a: i32) {
  // expected-error@+1 {{integer width of the output type is smaller or equal to the integer width of the input type}}
  %r = llvm.zext %a : i32 to i16
  return
}

// -----

func.func @sext_narrower(%a: i32) {
  // expected-error@+1 {{integer width of the output type is smaller or equal to the integer width of the input type}}
  %r = llvm.sext %a : i32 to i16
  return
}

// -----

func.func @load_ptr(%a: i32) {
  // expected-error@+1 {{'llvm.load' op operand #0 must be LLVM pointer type, but got 'i32'}}
  %r = "llvm.load"(%a) : (i32) -> i32
  return
}

// -----

func.func @select_type(%c: i1, %a: i32, %b: i64) {
  // expected-error@+1 {{'llvm.select' op failed to verify that all of {trueValue, falseValue, res} have same type}}
  %r = "llvm.select"(%c, %a, %b) : (i1, i32, i64) -> i32
  return
}

// -----

llvm.func @callee(i32) -> i32
llvm.func @call_arg_count() {
  // expected-error@+1 {{'llvm.call' op incorrect number of operands (0) for callee (expecting: 1)}}
  %r = llvm.call @callee() : () -> i32
  llvm.return
}

// -----

llvm.func @callee(i32) -> i32
llvm.func @call_arg_type(%a: i64) {
  // expected-error@+1 {{'llvm.call' op operand type mismatch for operand 0: 'i64' != 'i32'}}
  %r = llvm.call @callee(%a) : (i64) -> i32
  llvm.return
}

// -----

// expected-note@+1 {{when returning from function}}
llvm.func @ret_type() -> i32 {
  %c = llvm.mlir.constant(1 : i64) : i64
  // expected-error@+1 {{'llvm.return' op mismatching result types}}
  llvm.return %c : i64
}

// -----

// expected-note@+1 {{when returning from function}}
llvm.func @ret_count() -> i32 {
  // expected-error@+1 {{'llvm.return' op expected 1 operand}}
  llvm.return
}

// -----

llvm.mlir.global internal @g(0 : i32) : i32
llvm.func @addressof_missing() {
  // expected-error@+1 {{'llvm.mlir.addressof' op must reference a global defined by 'llvm.mlir.global', 'llvm.mlir.alias' or 'llvm.func' or 'llvm.mlir.ifunc'}}
  %p = llvm.mlir.addressof @nothing : !llvm.ptr
  llvm.return
}

// -----

llvm.func @br_args() {
  %c = llvm.mlir.constant(1 : i32) : i32
  // expected-error@+1 {{branch has 1 operands for successor #0, but target block has 0}}
  llvm.br ^bb1(%c : i32)
^bb1:
  llvm.return
}

// -----

// expected-note@+1 {{when returning from function}}
llvm.func @ret_void() {
  %c = llvm.mlir.constant(1 : i64) : i64
  // expected-error@+1 {{'llvm.return' op expected no operands}}
  llvm.return %c : i64
}

// -----

func.func @insertelement_type(%v: vector<4xf32>, %x: i32, %i: i32) {
  // expected-error@+1 {{'llvm.insertelement' op failed to verify that argument type matches vector element type}}
  %r = "llvm.insertelement"(%v, %x, %i) : (vector<4xf32>, i32, i32) -> vector<4xf32>
  return
}

// -----

llvm.func @call_undeclared() {
  // expected-error@+1 {{'llvm.call' op 'nowhere' does not reference a symbol in the current scope}}
  llvm.call @nowhere() : () -> ()
  llvm.return
}

// -----

llvm.mlir.global internal @not_a_function(0 : i32) : i32
llvm.func @call_a_global() {
  // expected-error@+1 {{'llvm.call' op 'not_a_function' does not reference a valid LLVM function or IFunc}}
  llvm.call @not_a_function() : () -> ()
  llvm.return
}

// -----

llvm.func @global_in_function() {
  // expected-error@+1 {{'llvm.mlir.global' op symbol's parent must have the SymbolTable trait}}
  llvm.mlir.global internal @g(0 : i32) : i32
  llvm.return
}

// -----

llvm.mlir.global internal @shared(0 : i32) {addr_space = 3 : i32} : i32

llvm.func @addressof_wrong_space() {
  // expected-error@+1 {{'llvm.mlir.addressof' op pointer address space must match address space of the referenced global or alias}}
  %p = llvm.mlir.addressof @shared : !llvm.ptr
  llvm.return
}

// -----

// The string holds four bytes once its escapes are read.
// expected-error@+1 {{'llvm.mlir.global' op requires an i8 array type of the length equal to that of the string attribute}}
llvm.mlir.global internal constant @str("ab\0A\00") : !llvm.array<5 x i8>

// -----

// expected-error@+1 {{'llvm.mlir.global' op requires an i8 array type of the length equal to that of the string attribute}}
llvm.mlir.global internal constant @wide("ab") : !llvm.array<2 x i16>
