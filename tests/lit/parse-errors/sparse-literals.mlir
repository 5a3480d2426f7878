// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --split-input-file --emit=mlir %s 2>&1 | FileCheck %s
// RUN: not %mlir_opt --split-input-file %s 2>&1 | FileCheck %s
// sparse<indices, values> against its type: N indices of the type's rank, N values or a splat,
// and every index inside the shape, in mlir-opt's words at the literal.

// CHECK: sparse-literals.mlir:[[# @LINE + 1]]:32: error: sparse index #1 is not contained within the value shape, with index=[2, 0], and type='tensor<2x3xf32>'
func.func @a() attributes {x = sparse<[[0, 0], [2, 0]], [1.0, 2.0]> : tensor<2x3xf32>} { return }

// -----

// CHECK: sparse-literals.mlir:[[# @LINE + 1]]:32: error: sparse index #0 is not contained within the value shape, with index=[18446744073709551615, 0], and type='tensor<2x3xf32>'
func.func @b() attributes {x = sparse<[[-1, 0]], [1.0]> : tensor<2x3xf32>} { return }

// -----

// CHECK: sparse-literals.mlir:[[# @LINE + 1]]:32: error: expected shape ([2, 3]); inferred shape of indices literal ([2, 2]); inferred shape of values literal ([3])
func.func @c() attributes {x = sparse<[[0, 0], [1, 2]], [1.0, 2.0, 3.0]> : tensor<2x3xf32>} { return }

// -----

// CHECK: sparse-literals.mlir:[[# @LINE + 1]]:32: error: expected 1-d tensor for sparse element values
func.func @d() attributes {x = sparse<[[0, 1]], [[1.0]]> : tensor<2x3xf32>} { return }

// -----

// Indices are decimal, leading zeros and all.
// CHECK: sparse-literals.mlir:[[# @LINE + 1]]:32: error: sparse index #0 is not contained within the value shape, with index=[0, 9], and type='tensor<2x9xf32>'
func.func @f() attributes {x = sparse<[[0, 09]], [1.0]> : tensor<2x9xf32>} { return }

// -----

// Integer values against the element type's range, as dense<> checks them.
// CHECK: sparse-literals.mlir:[[# @LINE + 1]]:49: error: integer constant out of range for type
func.func @v1() attributes {b = sparse<[0, 2], [4294967296, 2]> : tensor<3xi32>} { return }

// -----

// CHECK: sparse-literals.mlir:[[# @LINE + 1]]:50: error: integer constant out of range for type
func.func @v2() attributes {b = sparse<[0, 2], [-2147483649, 2]> : tensor<3xi32>} { return }

// -----

// CHECK: sparse-literals.mlir:[[# @LINE + 1]]:50: error: expected unsigned integer elements, but parsed negative value
func.func @v3() attributes {b = sparse<[0, 2], [-1, 2]> : tensor<3xui8>} { return }

// -----

// CHECK: sparse-literals.mlir:[[# @LINE + 1]]:54: error: integer constant out of range for type
func.func @v4() attributes {b = sparse<[0, 2], [255, 0x100]> : tensor<3xui8>} { return }

// -----

// CHECK: sparse-literals.mlir:[[# @LINE + 1]]:48: error: integer constant out of range for type
func.func @v5() attributes {b = sparse<[0, 2], 256> : tensor<3xi8>} { return }

// -----

// CHECK: sparse-literals.mlir:[[# @LINE + 1]]:52: error: integer constant out of range for type
func.func @v6() attributes {b = sparse<[0, 2], [1, 2]> : tensor<3xi1>} { return }

// -----

// CHECK-NOT: error:
func.func @e() attributes {a = sparse<[[0, 0], [1, 2]], 1.0> : tensor<2x3xf32>, b = sparse<[0, 2], [-2147483648, 2147483647]> : tensor<3xi32>, d = sparse<[0, 2], [true, false]> : tensor<3xi1>, c = sparse<[[0], [1]], [(1.0, 2.0), (3.0, 4.0)]> : tensor<3xcomplex<f32>>} { return }
