// scf ops checked as mlir-opt 22 checks them, in its words.
// RUN: %mlir_opt --split-input-file --verify-diagnostics %s
// RUN: %gpuinterp --split-input-file --verify-diagnostics %s

func.func @scf_for_yield(%lb: index, %ub: index, %s: index, %x: f32) -> f32 {
  // expected-error@+1 {{'scf.for' op along control flow edge from Operation scf.yield to Region #0: region branch point has 0 operands, but region successor needs 1 inputs}}
  %r = scf.for %i = %lb to %ub step %s iter_args(%a = %x) -> (f32) {
    // expected-note@+1 {{region branch point}}
    scf.yield
  }
  return %r : f32
}

// -----

func.func @scf_for_yield_type(%lb: index, %ub: index, %s: index, %x: f32, %y: i32) -> f32 {
  // expected-error@+1 {{'scf.for' op 0-th region iter_arg and 0-th yielded value have different type: 'f32' != 'i32'}}
  %r = scf.for %i = %lb to %ub step %s iter_args(%a = %x) -> (f32) {
    scf.yield %y : i32
  }
  return %r : f32
}

// -----

func.func @scf_for_bound_types(%lb: index, %ub: i32, %s: index) {
  // expected-error@+1 {{'scf.for' op failed to verify that all of {lowerBound, upperBound, step} have same type}}
  "scf.for"(%lb, %ub, %s) ({
  ^bb0(%i: index):
    scf.yield
  }) : (index, i32, index) -> ()
  return
}

// -----

func.func @scf_if_yield_type(%c: i1, %x: f32, %y: i32) -> f32 {
  // expected-error@+1 {{'scf.if' op along control flow edge from Operation scf.yield to parent: successor operand type #0 'i32' should match successor input type #0 'f32'}}
  %r = scf.if %c -> (f32) {
    scf.yield %x : f32
  } else {
    // expected-note@+1 {{region branch point}}
    scf.yield %y : i32
  }
  return %r : f32
}

// -----

func.func @scf_while(%x: f32) {
  // expected-error@+1 {{'scf.while' op along control flow edge from Operation scf.yield to Region #0: region branch point has 0 operands, but region successor needs 1 inputs}}
  %r = scf.while (%a = %x) : (f32) -> f32 {
    %c = arith.constant true
    scf.condition(%c) %a : f32
  } do {
  ^bb0(%b: f32):
    // expected-note@+1 {{region branch point}}
    scf.yield
  }
  return
}

// -----

func.func @scf_cond_type(%x: i32) {
  scf.while () : () -> () {
    // expected-error@+1 {{'scf.condition' op operand #0 must be 1-bit signless integer, but got 'i32'}}
    "scf.condition"(%x) : (i32) -> ()
  } do {
    scf.yield
  }
  return
}

// -----

func.func @index_switch_yield(%i: index, %x: f32, %y: i32) -> f32 {
  // expected-error@+1 {{'scf.index_switch' op expected result #0 of each region to be 'f32'}}
  %r = scf.index_switch %i -> f32
  case 0 {
    // expected-note@+1 {{case region #0 returns 'i32' here}}
    scf.yield %y : i32
  }
  default {
    scf.yield %x : f32
  }
  return %r : f32
}

// -----

func.func @parallel_bounds(%lb: index, %ub: index, %s: index) {
  // expected-error@+1 {{'scf.parallel' op expects the same number of induction variables: 1 as bound and step values: 2}}
  "scf.parallel"(%lb, %ub, %s, %s) <{operandSegmentSizes = array<i32: 1, 1, 2, 0>}> ({
  ^bb0(%i: index):
    scf.reduce
  }) : (index, index, index, index) -> ()
  return
}
