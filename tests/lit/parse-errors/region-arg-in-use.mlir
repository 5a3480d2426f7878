// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --emit=mlir %s 2>&1 | FileCheck --strict-whitespace %s
// RUN: not %mlir_opt %s 2>&1 | FileCheck --strict-whitespace %s
// A region's entry argument may not take a name that is in use around it.
// CHECK: {{.*}}region-arg-in-use.mlir:[[# @LINE + 9]]:13: error: region entry argument '%i' is already in use
// CHECK-NEXT: {{^}}    scf.for %i = %c0 to %n step %c1 {
// CHECK-NEXT: {{^}}            ^
// CHECK-NEXT: {{.*}}region-arg-in-use.mlir:[[# @LINE + 5]]:11: note: previously referenced here

func.func @f(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    scf.for %i = %c0 to %n step %c1 {
    }
  }
  return
}

// A function's argument may not take the name of a value in the module around it either.
// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --emit=mlir %S/Inputs/module-value-arg.mlir 2>&1 | FileCheck %s --check-prefix=MODULE
// RUN: not %mlir_opt %S/Inputs/module-value-arg.mlir 2>&1 | FileCheck %s --check-prefix=MODULE
// MODULE: module-value-arg.mlir:4:16: error: region entry argument '%c' is already in use
// MODULE: module-value-arg.mlir:2:3: note: previously referenced here
