// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --split-input-file --emit=mlir %s 2>&1 | FileCheck %s
// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --split-input-file --emit=mlir --allow-unregistered-dialect %s 2>&1 | FileCheck %s
// RUN: not %mlir_opt --split-input-file %s 2>&1 | FileCheck %s
// RUN: not %mlir_opt --split-input-file --allow-unregistered-dialect %s 2>&1 | FileCheck %s
// An op that a registered dialect does not have (ir/upstream_ops.def) is an error of the
// verifier, --allow-unregistered-dialect or not, unless its dialect takes unknown ops (llvm,
// nvvm and rocdl do). Both tools give the same words at the same place.

// CHECK: unregistered-op.mlir:[[# @LINE + 2]]:8: error: unregistered operation 'arith.bogus' found in dialect ('arith') that does not allow unknown operations
func.func @unknown_op() {
  %0 = "arith.bogus"() : () -> i32
  return
}

// -----

// CHECK: unregistered-op.mlir:[[# @LINE + 4]]:5: error: unregistered operation 'scf.nope' found in dialect ('scf') that does not allow unknown operations
func.func @nested() {
  "nvvm.bogus"() : () -> ()
  "test.region"() ({
    "scf.nope"() : () -> ()
  }) : () -> ()
  return
}

