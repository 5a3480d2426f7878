// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --emit=mlir %s 2>&1 | FileCheck %s
// RUN: not %mlir_opt %s 2>&1 | FileCheck %s
// RUN: %gpuinterp --emit=mlir --allow-unregistered-dialect %s | FileCheck %s --check-prefix=ALLOW
// RUN: %gpuinterp --emit=mlir --allow-unregistered-dialect %s | %mlir_opt --allow-unregistered-dialect | FileCheck %s --check-prefix=ALLOW
// An attribute of an unregistered dialect with a type: mlir-opt names the type in its error, and
// with --allow-unregistered-dialect both tools keep it, type and all.

// CHECK: unregistered-typed-attr.mlir:[[# @LINE + 2]]:37: error: #"foo"<"a<1, 2>"> : 'i32' attribute created with unregistered dialect. If this is intended, please call allowUnregisteredDialects() on the MLIRContext, or use -allow-unregistered-dialect with the MLIR opt tool used
// ALLOW: attributes {x = #foo.a<1, 2> : i32, y = [#foo.b : index, 1{{( : i64)?}}]}
func.func @f() attributes {x = #foo.a<1, 2> : i32, y = [#foo.b : index, 1]} {
  return
}
