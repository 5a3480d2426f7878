// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --split-input-file --emit=mlir %s 2>&1 | FileCheck %s
// RUN: not %mlir_opt --split-input-file %s 2>&1 | FileCheck %s
// A hex float element of dense<> with more bits than the element type, at the element, as a
// scalar hex float is checked (hex-float-width.mlir).

// CHECK: hex-float-dense.mlir:[[# @LINE + 1]]:38: error: hexadecimal float constant out of range for type
func.func @a() attributes {x = dense<0x7F800000> : tensor<2xf16>} { return }

// -----

// CHECK: hex-float-dense.mlir:[[# @LINE + 1]]:47: error: hexadecimal float constant out of range for type
func.func @b() attributes {x = dense<[0x7C00, 0x1FFFF]> : tensor<2xf16>} { return }

// -----

// CHECK: hex-float-dense.mlir:[[# @LINE + 1]]:38: error: hexadecimal float constant out of range for type
func.func @c() attributes {x = dense<0xFFFFFFFFFFFFFFFFF> : tensor<2xf64>} { return }

// -----

// CHECK: hex-float-dense.mlir:[[# @LINE + 1]]:38: error: hexadecimal float constant out of range for type
func.func @e() attributes {x = dense<0x100> : tensor<2xf8E4M3FN>} { return }

// -----

// CHECK-NOT: error:
func.func @ok() attributes {x = dense<[0x3C00, 0x7C00]> : tensor<2xf16>, y = dense<0xFF> : tensor<2xf8E4M3FN>} { return }
