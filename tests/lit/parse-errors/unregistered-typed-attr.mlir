// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --emit=mlir %s 2>&1 | FileCheck %s
// RUN: not %mlir_opt %s 2>&1 | FileCheck %s
// An attribute of an unregistered dialect with a type: mlir-opt names the type in its error.
// (With --allow-unregistered-dialect gpuinterp does not read a type after a dialect attribute.)

// CHECK: unregistered-typed-attr.mlir:[[# @LINE + 1]]:37: error: #"foo"<"a<1, 2>"> : 'i32' attribute created with unregistered dialect. If this is intended, please call allowUnregisteredDialects() on the MLIRContext, or use -allow-unregistered-dialect with the MLIR opt tool used
func.func @f() attributes {x = #foo.a<1, 2> : i32} {
  return
}
