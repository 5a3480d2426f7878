// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --split-input-file --emit=mlir %s 2>&1 | FileCheck %s
// RUN: not %mlir_opt --split-input-file %s 2>&1 | FileCheck %s
// An elements literal needs a type of static shape, in mlir-opt's words at the literal.

// CHECK: dense-dynamic-type.mlir:[[# @LINE + 1]]:32: error: elements literal type must have static shape
func.func @a() attributes {x = dense<1.0> : tensor<?xf32>} { return }

// -----

// CHECK: dense-dynamic-type.mlir:[[# @LINE + 1]]:32: error: elements literal type must have static shape
func.func @b() attributes {x = dense<[1.0]> : tensor<?xf32>} { return }

// -----

// CHECK: dense-dynamic-type.mlir:[[# @LINE + 1]]:32: error: elements literal type must have static shape
func.func @c() attributes {x = dense<> : tensor<?x0xf32>} { return }
