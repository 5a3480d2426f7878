// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --split-input-file --emit=mlir %s 2>&1 | FileCheck %s
// RUN: not %mlir_opt --split-input-file %s 2>&1 | FileCheck %s
// A bare op name is looked up in the default dialect of the custom-form op around it: func.func's
// is func, builtin.module's (and the top level's) builtin, and scf.for, scf.if, gpu.module,
// gpu.func and llvm.func have none. An op in the generic form keeps the one around it. Both
// front ends give the same verdict and words on each part.

// CHECK: default-dialect.mlir:[[# @LINE + 5]]:5: error: Dialect `' not found for custom op 'call'  (tried '.call' as well)
func.func @f() { return }
func.func @in_for() {
  %c0 = arith.constant 0 : index
  scf.for %i = %c0 to %c0 step %c0 {
    call @f() : () -> ()
  }
  return
}

// -----

// CHECK: default-dialect.mlir:[[# @LINE + 3]]:5: error: Dialect `' not found for custom op 'return'  (tried '.return' as well)
func.func @in_if(%t: i1) {
  scf.if %t {
    return
  }
  return
}

// -----

// CHECK: default-dialect.mlir:[[# @LINE + 2]]:3: error: custom op 'call' is unknown (tried 'builtin.call' as well)
"func.func"() ({
  call @generic() : () -> ()
  return
}) {sym_name = "generic", function_type = () -> ()} : () -> ()

// -----

// CHECK: default-dialect.mlir:[[# @LINE + 4]]:7: error: Dialect `' not found for custom op 'return'  (tried '.return' as well)
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @g() kernel {
      return
    }
  }
}

// -----

// CHECK: default-dialect.mlir:[[# @LINE + 2]]:3: error: Dialect `' not found for custom op 'return'  (tried '.return' as well)
llvm.func @h() {
  return
}

// -----

// CHECK: default-dialect.mlir:[[# @LINE + 3]]:8: error: custom op 'unrealized_conversion_cast' is unknown (tried 'func.unrealized_conversion_cast' as well)
func.func @cast() {
  %c = arith.constant 0 : index
  %x = unrealized_conversion_cast %c : index to i64
  return
}

// -----

// Accepted by both: a generic scf.for inside func.func keeps func as the default dialect.
// CHECK-NOT: error:
func.func @g() { return }
func.func @generic_for() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  "scf.for"(%c0, %c1, %c1) ({
  ^bb0(%i: index):
    call @g() : () -> ()
    scf.yield
  }) : (index, index, index) -> ()
  return
}
