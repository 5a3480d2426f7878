// Each form of mlir-opt's expected-* directives, on diagnostics both tools give the same.
// RUN: %mlir_opt --split-input-file --verify-diagnostics %s > /dev/null
// RUN: %gpuinterp --split-input-file --verify-diagnostics %s
// RUN: %gpuinterp --split-input-file --verify-diagnostics --emit=mlir %s | FileCheck %s

// The part without diagnostics is printed; the others print nothing.
// CHECK-COUNT-6: // {{-----}}
// CHECK-NEXT: builtin.module {
// CHECK: func.func @fine

func.func @next_line(%v: i32) -> i64 {
  // expected-error@+1 {{doesn't match function result type ('i64')}}
  return %v : i32
}
// -----

func.func @same_line(%v: i32) -> i64 {
  return %v : i32 // expected-error {{type of return operand 0 ('i32')}}
}

// -----

func.func @line_above(%v: f32) -> i64 {
  return %v : f32
  // expected-error@-1 {{in function @line_above}}
}

// -----

func.func @below(%v: f32) {
  // expected-error@below {{has 1 operands, but enclosing function (@below) returns 0}}
  return %v : f32
  // expected-remark@above {{no remark}} is here: text after the closing braces, not a directive
}

// -----

// expected-note@below {{see existing symbol definition here}}
func.func private @once_more()
func.func private @once_more()
// expected-error-re@above {{redefinition of {{[a-z]+}} named 'once_{{.*}}'}}

// -----

// expected-note@+1 {{see existing symbol definition here}}
func.func private @twice()
// expected-error@+1 {{redefinition of symbol named 'twice'}}
func.func private @twice()

// -----

func.func @fine(%v: i32) -> i32 {
  return %v : i32
}
