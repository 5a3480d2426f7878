// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --split-input-file --emit=mlir %s 2>&1 | FileCheck %s
// RUN: not %mlir_opt --split-input-file %s 2>&1 | FileCheck %s
// RUN: %gpuinterp --split-input-file --emit=mlir --allow-unregistered-dialect %s | FileCheck %s --check-prefix=ALLOW
// RUN: %mlir_opt --split-input-file --allow-unregistered-dialect %s > /dev/null
// Generic ops, types and attributes of a dialect mlir-opt 22 does not register are errors, at the
// place and in the words mlir-opt gives, unless --allow-unregistered-dialect keeps them as
// written. Both front ends give the same verdict and words on each part.

// CHECK: unregistered-dialect.mlir:[[# @LINE + 3]]:17: error: operation being parsed with an unregistered dialect. If this is intended, please use -allow-unregistered-dialect with the MLIR tool used
// ALLOW: "foo.bar"() : () -> i32
func.func @op() {
  %0 = "foo.bar"() : () -> i32
  return
}

// -----

// CHECK: unregistered-dialect.mlir:[[# @LINE + 2]]:16: error: operation being parsed with an unregistered dialect. If this is intended, please use -allow-unregistered-dialect with the MLIR tool used
func.func @undotted() {
  %0 = "nodot" () : () -> i32
  return
}

// -----

// CHECK: unregistered-dialect.mlir:[[# @LINE + 2]]:26: error: `!"foo"<"t<i32, "x">">` type created with unregistered dialect. If this is intended, please call allowUnregisteredDialects() on the MLIRContext, or use -allow-unregistered-dialect with the MLIR opt tool used
// ALLOW: func.func @type(%arg0: !foo.t<i32, "x">)
func.func @type(%a: !foo.t<i32, "x">) {
  return
}

// -----

// CHECK: unregistered-dialect.mlir:[[# @LINE + 1]]:6: error: `!"foo"<""t"">` type created with unregistered dialect. If this is intended, please call allowUnregisteredDialects() on the MLIRContext, or use -allow-unregistered-dialect with the MLIR opt tool used
!x = !foo<"t">
func.func @alias(%a: !x) {
  return
}

// -----

// CHECK: unregistered-dialect.mlir:[[# @LINE + 2]]:41: error: #"foo"<"a<1, 2>"> : 'none' attribute created with unregistered dialect. If this is intended, please call allowUnregisteredDialects() on the MLIRContext, or use -allow-unregistered-dialect with the MLIR opt tool used
// ALLOW: func.func @attr() attributes {x = [#foo.a<1, 2>, 1 : i64]}
func.func @attr() attributes {x = [#foo.a<1, 2>, 1]} {
  return
}

// -----

// Dialects mlir-opt registers are not unregistered, even where the front end keeps their ops
// as text: the test dialect's ops, nvgpu's types; and llvm and nvvm take ops they do not have.
// ALLOW: "test.op"() : () -> ()
// ALLOW-NEXT: "nvvm.bogus"() : () -> ()
// ALLOW-NEXT: "llvm.bogus"() : () -> ()
func.func @registered(%t: !nvgpu.device.async.token) {
  "test.op"() : () -> ()
  "nvvm.bogus"() : () -> ()
  "llvm.bogus"() : () -> ()
  return
}

