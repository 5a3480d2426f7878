// RUN: %root/tests/corpus-tools/exit-code.sh 2 %gpuinterp --split-input-file --emit=mlir %s 2>&1 | FileCheck %s
// RUN: not %mlir_opt --split-input-file %s 2>&1 | FileCheck %s
// A type of a dialect that MLIR has, under a name that dialect does not define, is an error at
// the name, in mlir-opt's words (a type of a dialect MLIR does not have is kept as text, as a
// generic op of one is).

// CHECK: unknown-dialect-type.mlir:[[# @LINE + 1]]:27: error: unknown gpu type: asynctoken
func.func private @a(!gpu.asynctoken)

// -----

// CHECK: unknown-dialect-type.mlir:[[# @LINE + 1]]:28: error: expected three consecutive dots for an ellipsis
func.func private @b(!gpu..token)

// -----

// CHECK: unknown-dialect-type.mlir:[[# @LINE + 1]]:29: error: unknown  type `tokens` in dialect `async`
func.func private @c(!async.tokens)

// -----

// CHECK: unknown-dialect-type.mlir:[[# @LINE + 1]]:28: error: unknown LLVM type: pointer
func.func private @d(!llvm.pointer)

// -----

// CHECK: unknown-dialect-type.mlir:[[# @LINE + 1]]:28: error: dialect 'nvvm' provides no type parsing hook
func.func private @e(!nvvm.token)

// -----

// CHECK: unknown-dialect-type.mlir:[[# @LINE + 1]]:29: error: unknown  type `device..token` in dialect `nvgpu`
func.func private @g(!nvgpu.device..token)

// -----

// CHECK-NOT: error:
func.func private @f(!gpu.async.token, !async.token, !async.group, !async.value<f32>, !llvm.ptr, !llvm.label, !gpu.sparse.spmat_handle, !nvgpu.device.async.token)
