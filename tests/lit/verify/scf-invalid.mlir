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

// -----

func.func @while_condition_to_results(%a: i32) {
  // expected-error@+1 {{'scf.while' op along control flow edge from Operation scf.condition to parent: successor operand type #0 'f32' should match successor input type #0 'i32'}}
  %r = scf.while (%x = %a) : (i32) -> i32 {
    %c = arith.constant true
    %f = arith.constant 1.0 : f32
    // expected-note@+1 {{region branch point}}
    scf.condition(%c) %f : f32
  } do {
  ^bb0(%y: i32):
    scf.yield %y : i32
  }
  return
}

// -----

func.func @while_condition_count(%a: i32) {
  // expected-error@+1 {{'scf.while' op along control flow edge from Operation scf.condition to parent: region branch point has 2 operands, but region successor needs 1 inputs}}
  %r = scf.while (%x = %a) : (i32) -> i32 {
    %c = arith.constant true
    // expected-note@+1 {{region branch point}}
    scf.condition(%c) %x, %x : i32, i32
  } do {
  ^bb0(%y: i32):
    scf.yield %y : i32
  }
  return
}

// -----

func.func @while_condition_to_after(%a: i32) {
  // expected-error@+1 {{'scf.while' op along control flow edge from Operation scf.condition to Region #1: successor operand type #0 'i32' should match successor input type #0 'f32'}}
  %r = scf.while (%x = %a) : (i32) -> i32 {
    %c = arith.constant true
    // expected-note@+1 {{region branch point}}
    scf.condition(%c) %x : i32
  } do {
  ^bb0(%y: f32):
    %z = arith.constant 1 : i32
    scf.yield %z : i32
  }
  return
}

// -----

func.func @while_after_count(%a: i32) {
  // expected-error@+1 {{'scf.while' op along control flow edge from Operation scf.condition to Region #1: region branch point has 1 operands, but region successor needs 2 inputs}}
  %r = "scf.while"(%a) ({
  ^bb0(%x: i32):
    %c = arith.constant true
    // expected-note@+1 {{region branch point}}
    scf.condition(%c) %x : i32
  }, {
  ^bb0(%y: i32, %y2: i32):
    scf.yield %y : i32
  }) : (i32) -> i32
  return
}

// -----

func.func @while_operands_to_before(%a: i32) {
  // expected-error@+2 {{'scf.while' op along control flow edge from parent to Region #0: successor operand type #0 'i32' should match successor input type #0 'f32'}}
  // expected-note@+1 {{region branch point}}
  %r = "scf.while"(%a) ({
  ^bb0(%x: f32):
    %c = arith.constant true
    %z = arith.constant 1 : i32
    scf.condition(%c) %z : i32
  }, {
  ^bb0(%y: i32):
    scf.yield %y : i32
  }) : (i32) -> i32
  return
}

// -----

func.func @while_before_count(%a: i32) {
  // expected-error@+2 {{'scf.while' op along control flow edge from parent to Region #0: region branch point has 1 operands, but region successor needs 2 inputs}}
  // expected-note@+1 {{region branch point}}
  %r = "scf.while"(%a) ({
  ^bb0(%x: i32, %x2: i32):
    %c = arith.constant true
    scf.condition(%c) %x : i32
  }, {
  ^bb0(%y: i32):
    scf.yield %y, %y : i32, i32
  }) : (i32) -> i32
  return
}

// -----

func.func @while_before_terminator(%a: i32) {
  // expected-error@+1 {{'scf.while' op expects the 'before' region to terminate with 'scf.condition'}}
  %r = "scf.while"(%a) ({
  ^bb0(%x: i32):
    // expected-note@+1 {{terminator here}}
    scf.yield %x : i32
  }, {
  ^bb0(%y: i32):
    scf.yield %y : i32
  }) : (i32) -> i32
  return
}

// -----

func.func @forall_region_arguments(%n: index) {
  // expected-error@+1 {{'scf.forall' op region expects 1 arguments}}
  "scf.forall"(%n) <{operandSegmentSizes = array<i32: 0, 1, 0, 0>, staticLowerBound = array<i64: 0>, staticUpperBound = array<i64: -9223372036854775808>, staticStep = array<i64: 1>}> ({
  ^bb0(%i: index, %j: index):
    scf.forall.in_parallel {}
  }) : (index) -> ()
  return
}

// -----

func.func @forall_argument_not_index(%n: index) {
  // expected-error@+1 {{'scf.forall' op expects 0-th block argument to be an index}}
  "scf.forall"(%n) <{operandSegmentSizes = array<i32: 0, 1, 0, 0>, staticLowerBound = array<i64: 0>, staticUpperBound = array<i64: -9223372036854775808>, staticStep = array<i64: 1>}> ({
  ^bb0(%i: i32):
    scf.forall.in_parallel {}
  }) : (index) -> ()
  return
}

// -----

func.func @forall_dynamic_upper_bounds(%n: index) {
  // expected-error@+1 {{expected 0 dynamic upper bound values}}
  "scf.forall"(%n) <{operandSegmentSizes = array<i32: 0, 1, 0, 0>, staticLowerBound = array<i64: 0>, staticUpperBound = array<i64: 4>, staticStep = array<i64: 1>}> ({
  ^bb0(%i: index):
    scf.forall.in_parallel {}
  }) : (index) -> ()
  return
}

// -----

func.func @forall_step_count() {
  // expected-error@+1 {{expected 1 step values, got 2}}
  "scf.forall"() <{operandSegmentSizes = array<i32: 0, 0, 0, 0>, staticLowerBound = array<i64: 0>, staticUpperBound = array<i64: 4>, staticStep = array<i64: 1, 1>}> ({
  ^bb0(%i: index):
    scf.forall.in_parallel {}
  }) : () -> ()
  return
}

// -----

func.func @forall_output_argument_type(%t: tensor<4xf32>) {
  // expected-error@+1 {{'scf.forall' op type mismatch between 0-th output and corresponding block argument}}
  %r = "scf.forall"(%t) <{operandSegmentSizes = array<i32: 0, 0, 0, 1>, staticLowerBound = array<i64: 0>, staticUpperBound = array<i64: 4>, staticStep = array<i64: 1>}> ({
  ^bb0(%i: index, %o: tensor<8xf32>):
    scf.forall.in_parallel {}
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @forall_result_type(%t: tensor<4xf32>) {
  // expected-error@+1 {{'scf.forall' op expected type of operand #0 ('tensor<4xf32>') to match type of corresponding result ('tensor<8xf32>')}}
  %r = "scf.forall"(%t) <{operandSegmentSizes = array<i32: 0, 0, 0, 1>, staticLowerBound = array<i64: 0>, staticUpperBound = array<i64: 4>, staticStep = array<i64: 1>}> ({
  ^bb0(%i: index, %o: tensor<4xf32>):
    scf.forall.in_parallel {}
  }) : (tensor<4xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @forall_result_count(%t: tensor<4xf32>) {
  // expected-error@+1 {{'scf.forall' op produces 0 results, but has only 1 outputs}}
  "scf.forall"(%t) <{operandSegmentSizes = array<i32: 0, 0, 0, 1>, staticLowerBound = array<i64: 0>, staticUpperBound = array<i64: 4>, staticStep = array<i64: 1>}> ({
  ^bb0(%i: index, %o: tensor<4xf32>):
    scf.forall.in_parallel {}
  }) : (tensor<4xf32>) -> ()
  return
}

// -----

func.func @forall_memref_output(%m: memref<4xf32>) {
  // expected-error@+1 {{'scf.forall' op operand #0 must be variadic of ranked tensor of any type values, but got 'memref<4xf32>'}}
  %r = "scf.forall"(%m) <{operandSegmentSizes = array<i32: 0, 0, 0, 1>, staticLowerBound = array<i64: 0>, staticUpperBound = array<i64: 4>, staticStep = array<i64: 1>}> ({
  ^bb0(%i: index, %o: memref<4xf32>):
    scf.forall.in_parallel {}
  }) : (memref<4xf32>) -> memref<4xf32>
  return
}

// -----

func.func @forall_mapping_size(%n: index) {
  // expected-error@+1 {{'scf.forall' op mapping attribute size must match op rank}}
  scf.forall (%i, %j) in (%n, 4) {
  } {mapping = [#gpu.thread<x>]}
  return
}

// -----

func.func @forall_body_yield() {
  "scf.forall"() <{operandSegmentSizes = array<i32: 0, 0, 0, 0>, staticLowerBound = array<i64: 0>, staticUpperBound = array<i64: 4>, staticStep = array<i64: 1>}> ({
  ^bb0(%i: index):
    // expected-error@+1 {{'scf.yield' op expects parent op to be one of 'scf.execute_region, scf.for, scf.if, scf.index_switch, scf.while'}}
    scf.yield
  }) : () -> ()
  return
}

// -----

func.func @function_in_region() {
  scf.execute_region {
    // expected-error@+1 {{'func.func' op symbol's parent must have the SymbolTable trait}}
    func.func @inner() {
      return
    }
    scf.yield
  }
  return
}

// -----

func.func @parallel_zero_step() {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  // expected-error@+1 {{'scf.parallel' op constant step operand must be positive}}
  scf.parallel (%i) = (%c0) to (%c4) step (%c0) {
    scf.reduce
  }
  return
}

// -----

func.func @parallel_negative_step() {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %cm1 = arith.constant -1 : index
  // expected-error@+1 {{'scf.parallel' op constant step operand must be positive}}
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c4) step (%c4, %cm1) {
    scf.reduce
  }
  return
}

// -----

// scf.for takes a zero step (it loops forever, or not at all).
func.func @for_zero_step_is_valid() {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c0 {
  }
  return
}
