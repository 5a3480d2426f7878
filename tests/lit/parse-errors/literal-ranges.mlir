// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --split-input-file --emit=mlir %s 2>&1 | FileCheck %s
// RUN: not %mlir_opt --split-input-file %s 2>&1 | FileCheck %s
// Literals out of the range of what they stand for, each rejected where mlir-opt rejects it and
// in its words.

// CHECK: literal-ranges.mlir:[[# @LINE + 2]]:36: error: the object index must be positive
module attributes {gpu.container_module} {
  gpu.binary @b <#gpu.select_object<-1 : i64>> [#gpu.object<#nvvm.target, "A">]
}

// -----

// CHECK: literal-ranges.mlir:[[# @LINE + 1]]:31: error: constant too large for index
#m = affine_map<(d0) -> (d0 + 9223372036854775808)>
func.func @affine() attributes {m = #m} { return }

// -----

// CHECK: literal-ranges.mlir:[[# @LINE + 1]]:36: error: parsed zero elements, but type ('tensor<3xf32>') expected at least 1
func.func @empty() attributes {x = dense<> : tensor<3xf32>} { return }

// -----

// CHECK: literal-ranges.mlir:[[# @LINE + 1]]:40: error: expected integer line number in FileLineColRange
func.func @line() { return } loc("a.c":4294967296:2)

// -----

// CHECK: literal-ranges.mlir:[[# @LINE + 1]]:41: error: expected integer column number in FileLineColRange
func.func @col() { return } loc("a.c":1:-1)

// -----

// CHECK-NOT: error:
#n = affine_map<(d0) -> (d0 + 9223372036854775807)>
func.func @fits() attributes {m = #n, x = dense<> : tensor<2x0xf32>} { return } loc("a.c":4294967295:4294967295)
