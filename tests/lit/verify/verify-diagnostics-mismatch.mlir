// A diagnostic no directive expects, and a directive nothing matches: both tools say so in the
// same words and exit 1; the matched part is quiet.
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %mlir_opt --split-input-file --verify-diagnostics %s 2>&1 >/dev/null | FileCheck %s
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp --split-input-file --verify-diagnostics %s 2>&1 | FileCheck %s
// RUN: %root/tests/corpus-tools/exit-code.sh 1 %gpuinterp --verify-diagnostics %s 2>&1 | FileCheck %s --check-prefix=WHOLE

func.func @matched(%v: i32) -> i64 {
  // expected-error@+1 {{doesn't match function result type}}
  return %v : i32
}

// -----

func.func @unexpected(%v: i32) -> i64 {
  return %v : i32
}
// CHECK-NOT: verify-diagnostics-mismatch.mlir:9:
// CHECK: verify-diagnostics-mismatch.mlir:15:3: error: unexpected error: type of return operand 0 ('i32') doesn't match function result type ('i64') in function @unexpected
// CHECK-NEXT: {{^}}  return %v : i32
// CHECK-NEXT: {{^}}  ^

// -----

func.func @not_produced(%v: i32) -> i32 {
  // expected-warning@+1 {{nothing warns here}}
  return %v : i32
}
// CHECK: verify-diagnostics-mismatch.mlir:25:6: error: expected warning "nothing warns here" was not produced
// CHECK-NEXT: {{^}}  // expected-warning@+1 {{[{][{]}}nothing warns here{{[}][}]}}
// CHECK-NEXT: {{^}}     ^~~~~~~~~~~~~~~~~~

// Without --split-input-file the markers are comments: one module, the same two mismatches.
// WHOLE: verify-diagnostics-mismatch.mlir:15:3: error: unexpected error: type of return operand 0
// WHOLE: verify-diagnostics-mismatch.mlir:25:6: error: expected warning "nothing warns here" was not produced
