// scf.for's body block: the induction variable, of the bounds' type, then one argument per init,
// checked as mlir-opt 22 checks them (the generic form can get either wrong).
// RUN: %mlir_opt --split-input-file --verify-diagnostics %s
// RUN: %gpuinterp --split-input-file --verify-diagnostics %s

func.func @no_induction_variable() {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'scf.for' op different number of inits and region iter_args: 0 != 18446744073709551615}}
  "scf.for"(%c0, %c0, %c0) ({
    scf.yield
  }) : (index, index, index) -> ()
  return
}

// -----

func.func @an_argument_too_many() {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'scf.for' op different number of inits and region iter_args: 0 != 1}}
  "scf.for"(%c0, %c0, %c0) ({
  ^bb0(%i: index, %j: index):
    scf.yield
  }) : (index, index, index) -> ()
  return
}

// -----

func.func @induction_variable_of_other_type() {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'scf.for' op expected induction variable to be same type as bounds and step}}
  "scf.for"(%c0, %c0, %c0) ({
  ^bb0(%i: i32):
    scf.yield
  }) : (index, index, index) -> ()
  return
}
