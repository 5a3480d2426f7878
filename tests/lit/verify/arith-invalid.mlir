// arith, math, func and cf ops checked as mlir-opt 22 checks them, in its words.
// RUN: %mlir_opt --split-input-file --verify-diagnostics %s
// RUN: %gpuinterp --split-input-file --verify-diagnostics %s

func.func @arith_binary_type(%a: i32, %b: i64) {
  // expected-error@+1 {{'arith.addi' op requires the same type for all operands and results}}
  %r = "arith.addi"(%a, %b) : (i32, i64) -> i32
  return
}

// -----

func.func @arith_cmpi_result(%a: i32, %b: i32) {
  // expected-error@+1 {{'arith.cmpi' op result #0 must be bool-like, but got 'i32'}}
  %r = "arith.cmpi"(%a, %b) <{predicate = 0 : i64}> : (i32, i32) -> i32
  return
}

// -----

func.func @arith_extsi_narrower(%a: i32) {
  // expected-error@+1 {{'arith.extsi' op operand type 'i32' and result type 'i16' are cast incompatible}}
  %r = arith.extsi %a : i32 to i16
  return
}

// -----

func.func @arith_trunci_wider(%a: i32) {
  // expected-error@+1 {{'arith.trunci' op operand type 'i32' and result type 'i64' are cast incompatible}}
  %r = arith.trunci %a : i32 to i64
  return
}

// -----

func.func @arith_extf_narrower(%a: f32) {
  // expected-error@+1 {{'arith.extf' op operand type 'f32' and result type 'f16' are cast incompatible}}
  %r = arith.extf %a : f32 to f16
  return
}

// -----

func.func @arith_truncf_wider(%a: f32) {
  // expected-error@+1 {{'arith.truncf' op operand type 'f32' and result type 'f64' are cast incompatible}}
  %r = arith.truncf %a : f32 to f64
  return
}

// -----

func.func @arith_select_type(%c: i1, %a: i32, %b: i64) {
  // expected-error@+1 {{'arith.select' op failed to verify that all of {true_value, false_value, result} have same type}}
  %r = "arith.select"(%c, %a, %b) : (i1, i32, i64) -> i32
  return
}

// -----

func.func @arith_constant_type() {
  // expected-error@+1 {{'arith.constant' op failed to verify that all of {value, result} have same type}}
  %c = "arith.constant"() <{value = 1 : i64}> : () -> i32
  return
}

// -----

func.func @arith_index_cast(%a: i32) {
  // expected-error@+1 {{'arith.index_cast' op operand type 'i32' and result type 'i64' are cast incompatible}}
  %c = arith.index_cast %a : i32 to i64
  return
}

// -----

func.func @arith_bitcast(%a: i32) {
  // expected-error@+1 {{'arith.bitcast' op operand type 'i32' and result type 'f64' are cast incompatible}}
  %c = arith.bitcast %a : i32 to f64
  return
}

// -----

func.func @arith_sitofp(%a: f32) {
  // expected-error@+1 {{'arith.sitofp' op operand #0 must be signless-fixed-width-integer-like, but got 'f32'}}
  %c = arith.sitofp %a : f32 to f32
  return
}

// -----

func.func @arith_cmpf(%a: f32, %b: f64) {
  // expected-error@+1 {{'arith.cmpf' op requires all operands to have the same type}}
  %r = "arith.cmpf"(%a, %b) <{predicate = 0 : i64}> : (f32, f64) -> i1
  return
}

// -----

func.func @addf_type(%a: f32, %b: f32) {
  // expected-error@+1 {{'arith.addf' op requires the same type for all operands and results}}
  %r = "arith.addf"(%a, %b) : (f32, f32) -> f64
  return
}

// -----

func.func @negf_type(%a: f32) {
  // expected-error@+1 {{'arith.negf' op requires the same type for all operands and results}}
  %r = "arith.negf"(%a) : (f32) -> f64
  return
}

// -----

func.func @math_type(%a: f32) {
  // expected-error@+1 {{'math.sqrt' op requires the same type for all operands and results}}
  %r = "math.sqrt"(%a) : (f32) -> f64
  return
}

// -----

func.func @func_call_indirect(%f: (i32) -> i32, %x: i64) {
  // expected-error@+1 {{'func.call_indirect' op failed to verify that callee input types match argument types}}
  %r = "func.call_indirect"(%f, %x) : ((i32) -> i32, i64) -> i32
  return
}

// -----

func.func @cond_br_cond(%x: i32) {
  // expected-error@+1 {{'cf.cond_br' op operand #0 must be 1-bit signless integer, but got 'i32'}}
  "cf.cond_br"(%x) [^bb1, ^bb1] <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (i32) -> ()
^bb1:
  return
}

// -----

// expected-error@+1 {{'func.func' op type of entry block argument #0('i64') must match the type of the corresponding argument in function signature('i32')}}
"func.func"() <{function_type = (i32) -> (), sym_name = "entry_generic"}> ({
^bb0(%a: i64):
  "func.return"() : () -> ()
}) : () -> ()

// -----

func.func @arith_fptosi_from_integer(%a: i32) {
  // expected-error@+1 {{'arith.fptosi' op operand #0 must be floating-point-like, but got 'i32'}}
  %c = arith.fptosi %a : i32 to i32
  return
}

// -----

func.func @arith_uitofp_to_integer(%a: i32) {
  // expected-error@+1 {{'arith.uitofp' op result #0 must be floating-point-like, but got 'i64'}}
  %c = arith.uitofp %a : i32 to i64
  return
}
