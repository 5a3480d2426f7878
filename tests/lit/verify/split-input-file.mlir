// --split-input-file: each part is a program of its own, diagnostics give the file's lines,
// --emit=mlir separates the parts' output with the marker as mlir-opt does, and a part that does
// not verify prints nothing but does not stop the others.
// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --split-input-file --emit=mlir %s 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=ERR < %t.err
// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --split-input-file %s -e first 2>&1 | FileCheck %s --check-prefix=EACH
// Without the option the file is one program, and the code after the mid-line marker a comment.
// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --emit=mlir %s 2>&1 | FileCheck %s --check-prefix=WHOLE

// CHECK: builtin.module {
// CHECK-NEXT: func.func @twice() -> i32 {
// CHECK: {{^}}}
// CHECK-EMPTY:
// CHECK-NEXT: // {{-----}}
// CHECK-NEXT: // {{-----}}
// CHECK-NEXT: builtin.module {
// CHECK-NEXT: func.func private @elsewhere()
// CHECK-NEXT: {{^}}}
// CHECK-EMPTY:
// CHECK-NEXT: // {{-----}}
// CHECK-NEXT: builtin.module {
// CHECK-NEXT: func.func @twice() -> i64 {
// CHECK: {{^}}}
// CHECK-EMPTY:
// CHECK-NOT: {{.}}
func.func @twice() -> i32 {
  %c = arith.constant 1 : i32
  return %c : i32
}
func.func @first() {
  %c = arith.constant 1 : i32
  vector.print %c : i32
  return
}

// -----

func.func @bad(%v: f32) -> i32 {
  // ERR: split-input-file.mlir:[[# @LINE + 1]]:3: error: type of return operand 0 ('f32') doesn't match
  return %v : f32
}
// ERR-NOT: error:
// ERR: gpuinterp: 1 error{{$}}
// ERR-NOT: {{.}}

    // -----
// A marker splits wherever it is, as in mlir-opt: code after it on its line is in the next part.
func.func private @elsewhere() // -----  func.func @twice() -> i64 {
  %c = arith.constant 2 : i64
  return %c : i64
}
func.func @first() {
  %c = arith.constant 3 : i32
  vector.print %c : i32
  return
}

// Each part that verifies runs (the one of @elsewhere has no @first to run).
// EACH: 1
// EACH: split-input-file.mlir:{{[0-9]+}}:3: error: type of return operand 0
// EACH: error: no function '@first' with a body to run
// EACH-NEXT: Try 'gpuinterp --help' for more information.
// EACH-NEXT: 3

// WHOLE: split-input-file.mlir:[[# @LINE - 15]]:3: error: custom op 'return' is unknown
