// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --split-input-file --emit=mlir %s 2>&1 | FileCheck %s
// RUN: not %mlir_opt --split-input-file %s 2>&1 | FileCheck %s
// A value may not take a name that an enclosing scope has defined so far, isolated regions (a
// function in a module) included; a name the enclosing scope defines only after the region is
// free in it.

// CHECK: redefinition-enclosing.mlir:[[# @LINE + 6]]:5: error: redefinition of SSA value '%w'
// CHECK-NEXT: %w = arith.constant 7 : i32
// CHECK: redefinition-enclosing.mlir:[[# @LINE + 2]]:3: note: previously defined here
module {
  %w = arith.constant 1 : index
  func.func @in_function() -> i32 {
    %w = arith.constant 7 : i32
    return %w : i32
  }
}

// -----

// CHECK: redefinition-enclosing.mlir:[[# @LINE + 4]]:5: error: redefinition of SSA value '%x'
module {
  %x = arith.constant 1 : index
  module {
    %x = arith.constant 2 : index
  }
}

// -----

// CHECK-NOT: error:
module {
  func.func @defined_after() {
    %x = arith.constant 1 : index
    return
  }
  %x = arith.constant 1 : index
}
