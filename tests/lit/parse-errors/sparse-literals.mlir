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

// CHECK-NOT: error:
func.func @e() attributes {a = sparse<[[0, 0], [1, 2]], 1.0> : tensor<2x3xf32>, b = sparse<[0, 2], [1, 2]> : tensor<3xi32>, c = sparse<[[0], [1]], [(1.0, 2.0), (3.0, 4.0)]> : tensor<3xcomplex<f32>>} { return }
